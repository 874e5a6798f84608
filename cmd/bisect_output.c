/* perfdb bisect: what it found, as text, Markdown or JSON. */
#include "bisect_output.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "cmd.h"
#include "escape.h"
#include "json_out.h"
#include "util.h"

static const char *sha_at(const struct bisect_report *r, size_t i)
{
	return r->commits[i].sha;
}

static const char *subject_at(const struct bisect_report *r, size_t i)
{
	return r->commits[i].subject;
}

static double pct(double log_ratio)
{
	return expm1(log_ratio) * 100;
}

/* "+20.1 % [+19.8, +20.4]", or "+20.1 %" when exact. */
static void change_text(double lo, double est, double hi, int exact, char *buf, size_t size)
{
	if (exact || isnan(lo))
		pdb_pct_words(pct(est), 1, 1, buf, size); /* exact: to the hundredth below 10 % */
	else
		pdb_pct_interval(pct(est), pct(lo), pct(hi), buf, size);
}

static const char *series_text(const struct bisect_report *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s of %s%s%s%s", r->row.metric, r->row.benchmark, *r->row.dims ? " [" : "",
		 r->row.dims, *r->row.dims ? "]" : "");
	return buf;
}

/* The headline: what was found, one line. */
static void headline(const struct bisect_report *r, struct pdb_buf *b, int md)
{
	const char *q = md ? "`" : "";
	char series[400], change[80];

	change_text(r->row.lo, r->row.est, r->row.hi, r->exact, change, sizeof change);
	if (r->outcome == BISECT_NO_CHANGE) {
		char margin[32];
		pdb_pct_words(r->margin_pct, NAN, 0, margin, sizeof margin);
		pdb_buf_printf(b, "no change: good and bad differ by less than %s", margin);
		if (r->row.metric)
			pdb_buf_printf(b, " (%s %s)", series_text(r, series, sizeof series), change);
		pdb_buf_printf(b, ": nothing to bisect");
		return;
	}
	if (r->outcome == BISECT_LOCATED) {
		pdb_buf_printf(b, "%s: %s%.12s%s ", bisect_row_worse(&r->row) ? "first bad commit"
			       : "first commit of the improvement", q, sha_at(r, r->first), q);
		(md ? pdb_escape_md : pdb_escape_term)(b, subject_at(r, r->first));
	}
	else if (r->outcome == BISECT_RANGE)
		pdb_buf_printf(b, "the change is split over %zu adjacent commits, %s%.12s%s to %s%.12s%s",
			       r->last - r->first + 1, q, sha_at(r, r->first), q, q, sha_at(r, r->last), q);
	else
		pdb_buf_printf(b, "undecided: %zu commit%s remain, %s%.12s%s to %s%.12s%s", r->last - r->first + 1,
			       r->last > r->first ? "s" : "", q, sha_at(r, r->first), q, q, sha_at(r, r->last), q);
	pdb_buf_printf(b, "; %s %s from good to bad", series_text(r, series, sizeof series), change);
}

static void step_cells(const struct bisect_report *r, const struct bisect_step *s, char cells[7][128])
{
	char runs[64];

	snprintf(cells[0], 128, "%s", s->index == 0 ? "good" : s->index == r->n ? "bad" : "");
	if (!cells[0][0])
		snprintf(cells[0], 128, "%zu/%zu", s->index, r->n);
	snprintf(cells[1], 128, "%.12s", sha_at(r, s->index));
	if (isnan(s->est))
		snprintf(cells[2], 128, "-");
	else
		change_text(s->lo, s->est, s->hi, r->exact, cells[2], 128);
	snprintf(cells[3], 128, isnan(s->share) ? "-" : "%.2f", s->share);
	snprintf(cells[4], 128, "%s", pdb_bisect_side_name(s->side));
	snprintf(cells[5], 128, r->exact ? "-" : "%d", s->m.reps);
	runs[0] = 0;
	for (size_t v = 0, n = 0; v < s->m.nruns && n < sizeof runs; v++)
		n += (size_t)snprintf(runs + n, sizeof runs - n, "%srun%lld", v ? ", " : "", (long long)s->m.runs[v]);
	snprintf(cells[6], 128, "%s", runs);
}

static const char *const heads[] = { "revision", "commit", "change from good", "share", "side", "triples",
				     "runs", "subject" };

/* Revisions measured: one a step when exact; else good and bad, and the
 * midpoints (bad again when it was the only one). */
static size_t revisions(const struct bisect_report *r)
{
	size_t n = 2;

	if (r->exact)
		return r->nsteps;
	for (size_t i = 0; i < r->nsteps; i++)
		n += r->steps[i].index != r->n;
	return n;
}

static const char *how(const struct bisect_report *r)
{
	return r->exact ? "an exact instrument: one run each" : "triples of good, the midpoint and bad";
}

/* The rule, one line: what the sides mean. */
static const char *legend(void)
{
	return "side: the midpoint nearer good or bad, or partial: carrying 1/8 to 7/8 of the change";
}

static void print_text(const struct bisect_report *r)
{
	struct cmd_table t;
	struct pdb_buf b;
	char cells[7][128];

	pdb_buf_init(&b);
	headline(r, &b, 0);
	printf("%s\n", b.data);
	pdb_buf_release(&b);
	printf("bisect %s: %s .. %s, %zu commit%s, %zu revision%s measured (%s)\n", r->id, r->good_rev,
	       r->bad_rev, r->n, r->n == 1 ? "" : "s", revisions(r), revisions(r) == 1 ? "" : "s", how(r));
	if (!r->nsteps)
		return;
	putchar('\n');
	cmd_table_init(&t, 8, "llrrlrll");
	cmd_table_add(&t, heads);
	for (size_t i = 0; i < r->nsteps; i++) {
		const char *row[8];
		step_cells(r, &r->steps[i], cells);
		for (int c = 0; c < 7; c++)
			row[c] = cells[c];
		row[7] = subject_at(r, r->steps[i].index);
		cmd_table_add(&t, row);
	}
	cmd_table_print(&t, stdout);
	cmd_table_release(&t);
	printf("%s\n", legend());
}

static void print_markdown(const struct bisect_report *r)
{
	struct pdb_buf b;
	char cells[7][128];

	pdb_buf_init(&b);
	headline(r, &b, 1);
	printf("### perfdb bisect\n\n**%s**\n\n", b.data);
	pdb_buf_release(&b);
	if (!r->nsteps)
		return;
	printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n|---|---|--:|--:|---|--:|---|---|\n", heads[0],
	       heads[1], heads[2], heads[3], heads[4], heads[5], heads[6], heads[7]);
	for (size_t i = 0; i < r->nsteps; i++) {
		struct pdb_buf subject;
		pdb_buf_init(&subject);
		pdb_escape_md(&subject, subject_at(r, r->steps[i].index));
		step_cells(r, &r->steps[i], cells);
		printf("| %s | `%s` | %s | %s | %s | %s | %s | %s |\n", cells[0], cells[1], cells[2], cells[3],
		       cells[4], cells[5], cells[6], subject.data ? subject.data : "");
		pdb_buf_release(&subject);
	}
	printf("\n%zu revisions measured (%s); %s.\n", revisions(r), how(r), legend());
}

static json_t *real_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *commit_json(const struct bisect_report *r, size_t i)
{
	return json_pack("{s:s, s:s}", "commit", sha_at(r, i), "subject", subject_at(r, i));
}

static void print_json(const struct bisect_report *r)
{
	static const char *const outcomes[] = { "no_change", "located", "range", "undecided" };
	json_t *o = json_object(), *steps = json_array();

	json_object_set_new(o, "bisect", json_string(r->id));
	json_object_set_new(o, "outcome", json_string(outcomes[r->outcome]));
	json_object_set_new(o, "good", json_string(sha_at(r, 0)));
	json_object_set_new(o, "bad", json_string(sha_at(r, r->n)));
	json_object_set_new(o, "commits", json_integer((json_int_t)r->n));
	json_object_set_new(o, "exact", json_boolean(r->exact));
	json_object_set_new(o, "threshold_pct", real_or_null(r->margin_pct));
	if (r->row.metric) {
		json_object_set_new(o, "series", json_pack("{s:s, s:s, s:s}", "benchmark", r->row.benchmark,
							   "dims", r->row.dims, "metric", r->row.metric));
		json_object_set_new(o, "change", json_pack("{s:o, s:o, s:o, s:s}", "change_pct", real_or_null(pct(r->row.est)),
							   "ci_low_pct", real_or_null(pct(r->row.lo)),
							   "ci_high_pct", real_or_null(pct(r->row.hi)),
							   "verdict", r->outcome == BISECT_NO_CHANGE ? "unchanged"
							   : bisect_row_worse(&r->row) ? "regression" : "improvement"));
	}
	if (r->outcome == BISECT_LOCATED || r->outcome == BISECT_RANGE) {
		json_object_set_new(o, "first_bad", commit_json(r, r->first));
		json_object_set_new(o, "last_bad", commit_json(r, r->last));
	}
	if (r->outcome == BISECT_UNDECIDED) {
		json_t *remain = json_array();
		for (size_t i = r->first; i <= r->last; i++)
			json_array_append_new(remain, commit_json(r, i));
		json_object_set_new(o, "remaining", remain);
	}
	for (size_t i = 0; i < r->nsteps; i++) {
		const struct bisect_step *s = &r->steps[i];
		json_t *runs = json_array();
		for (size_t v = 0; v < s->m.nruns; v++)
			json_array_append_new(runs, json_sprintf("run%lld", (long long)s->m.runs[v]));
		json_array_append_new(steps, json_pack("{s:I, s:s, s:s, s:o, s:o, s:o, s:o, s:i, s:o}",
			"index", (json_int_t)s->index, "commit", sha_at(r, s->index),
			"side", pdb_bisect_side_name(s->side), "share", real_or_null(s->share),
			"change_pct", real_or_null(pct(s->est)), "ci_low_pct", real_or_null(r->exact ? NAN : pct(s->lo)),
			"ci_high_pct", real_or_null(r->exact ? NAN : pct(s->hi)), "triples", s->m.reps, "runs", runs));
	}
	json_object_set_new(o, "steps", steps);
	pdb_json_write(stdout, o, 2);
	json_decref(o);
}

void bisect_print(const struct bisect_report *r, int format)
{
	if (format == BISECT_JSON)
		print_json(r);
	else if (format == BISECT_MARKDOWN)
		print_markdown(r);
	else
		print_text(r);
	fflush(stdout);
}
