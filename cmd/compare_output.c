/* perfdb compare's output: text, Markdown, JSON, JUnit and CSV of one comparison. */
#include "compare_output.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare_render.h"
#include "compare_text.h"
#include "compare_verdict.h"
#include "escape.h"
#include "json_out.h"
#include "units.h"
#include "util.h"

#define MD_ROWS_BEFORE_DETAILS 50 /* a 500-series compare stays readable in a PR comment */

static const char change_note[] =
	"baseline and candidate are medians; change is the test's estimate of the "
	"candidate/baseline ratio with its interval at 1 - alpha: for rank and paired the "
	"Hodges-Lehmann estimate (the median of all pairwise ratios, which can differ from "
	"the ratio of the medians), for welch the ratio of geometric means, for history the "
	"ratio of the medians";

static int shown(const struct pdb_compare_row *r, const struct compare_view *v)
{
	return v->all || r->hidden == PDB_SHOWN;
}

static void hidden_line(const struct pdb_compare *c, const struct compare_view *v,
			struct pdb_buf *b)
{
	if (c->nhidden && !v->all)
		pdb_buf_printf(b, "%zu series hidden: constant on both sides, not gated and "
			       "unmoved (resources such as peak_rss, user_time, sys_time), or "
			       "bookkeeping (iterations); --all shows them\n", c->nhidden);
}

/* "test: rank = ...\n" for the tests the rows used. */
static void tests_line(const struct pdb_compare *c, struct pdb_buf *b)
{
	size_t len = b->len;

	pdb_compare_tests_note(c, b);
	if (b->len > len)
		pdb_buf_puts(b, "\n");
}

/* The metrics' geometric means with their intervals and verdicts, each
 * metric's name escaped for fmt. */
static void geomean_line(const struct pdb_compare *c, int fmt, struct pdb_buf *b)
{
	for (size_t i = 0; i < c->ngeomean; i++) {
		const struct pdb_compare_geomean *g = &c->geomean[i];
		pdb_buf_puts(b, i ? ", " : "");
		pdb_render_text(fmt, b, g->metric);
		pdb_buf_printf(b, " %.4f", g->ratio);
		if (!isnan(g->low))
			pdb_buf_printf(b, " [%.4f, %.4f]", g->low, g->high);
		pdb_buf_printf(b, " %s", pdb_verdict_name(g->verdict));
	}
}

static void write_buf(const struct pdb_buf *b, FILE *out)
{
	if (b->len)
		fwrite(b->data, 1, b->len, out);
}

/* ---- text ---- */

void compare_print_text(const struct pdb_compare *c, const struct compare_view *v, FILE *out)
{
	struct pdb_compare_table t;
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_compare_headline(c, v->fail_on, v->opts, PDB_RENDER_TEXT, &b);
	pdb_buf_puts(&b, "\nbaseline  ");
	pdb_compare_runs_label(c->base, c->nbase, PDB_RENDER_TEXT, &b);
	pdb_buf_puts(&b, "\ncandidate ");
	pdb_compare_runs_label(c->cand, c->ncand, PDB_RENDER_TEXT, &b);
	pdb_buf_puts(&b, "\n\n");
	pdb_compare_table_begin(&t, PDB_RENDER_TEXT, cmd_use_color(out), &b);
	for (size_t i = 0; i < c->nrows; i++)
		if (shown(&c->rows[i], v))
			pdb_compare_table_row(&t, &c->rows[i]);
	pdb_compare_table_end(&t);
	pdb_buf_puts(&b, "\n");
	hidden_line(c, v, &b);
	pdb_buf_printf(&b, "%s\n", change_note);
	tests_line(c, &b);
	if (c->ngeomean) {
		pdb_buf_puts(&b, "geomean (candidate/baseline, inverted where higher is better; > 1 is worse; interval, verdict): ");
		geomean_line(c, PDB_RENDER_TEXT, &b);
		pdb_buf_puts(&b, "\n");
	}
	write_buf(&b, out);
	pdb_buf_release(&b);
}

/* ---- markdown ---- */

/* Rows a reviewer must see: what fails or may fail, what is gone, what cannot be told. */
static int needs_attention(const struct pdb_compare_row *r)
{
	return r->verdict == PDB_VERDICT_FAILED || r->verdict == PDB_VERDICT_REGRESSION ||
	       r->verdict == PDB_VERDICT_MISSING || r->verdict == PDB_VERDICT_INCONCLUSIVE ||
	       r->verdict == PDB_VERDICT_INSUFFICIENT;
}

/* Written to be appended to a file that holds others (shards appending to
 * $GITHUB_STEP_SUMMARY): an optional heading first, a blank line last, so
 * that one summary never runs into the next. */
void compare_print_markdown(const struct pdb_compare *c, const struct compare_view *v, FILE *out)
{
	struct pdb_compare_table t;
	size_t top = 0, rest = 0;
	struct pdb_buf b;

	pdb_buf_init(&b);
	if (v->title) {
		pdb_buf_puts(&b, "### ");
		pdb_escape_md(&b, v->title);
		pdb_buf_puts(&b, "\n\n");
	}
	pdb_buf_puts(&b, "**perfdb compare: ");
	pdb_compare_headline(c, v->fail_on, v->opts, PDB_RENDER_MARKDOWN, &b);
	pdb_buf_puts(&b, "** — baseline ");
	pdb_compare_runs_label(c->base, c->nbase, PDB_RENDER_MARKDOWN, &b);
	pdb_buf_puts(&b, ", candidate ");
	pdb_compare_runs_label(c->cand, c->ncand, PDB_RENDER_MARKDOWN, &b);
	pdb_buf_puts(&b, "\n\n");
	/* rows are sorted failed, regression, missing, inconclusive, ... already */
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		if (!shown(r, v) || !needs_attention(r) || top >= MD_ROWS_BEFORE_DETAILS)
			continue;
		if (!top++)
			pdb_compare_table_begin(&t, PDB_RENDER_MARKDOWN, 0, &b);
		pdb_compare_table_row(&t, r);
	}
	if (top)
		pdb_compare_table_end(&t);
	for (size_t i = 0; i < c->nrows; i++)
		rest += shown(&c->rows[i], v);
	rest -= top;
	if (top == 0)
		pdb_buf_puts(&b, c->nrows ? "Nothing needs attention.\n" : "No series to compare.\n");
	if (rest) {
		pdb_buf_printf(&b, "\n<details><summary>%zu more series (improvements, unchanged, "
			       "new%s)</summary>\n\n", rest,
			       top >= MD_ROWS_BEFORE_DETAILS ? ", and the rest of the above" : "");
		pdb_compare_table_begin(&t, PDB_RENDER_MARKDOWN, 0, &b);
		for (size_t i = 0, k = 0; i < c->nrows; i++) {
			const struct pdb_compare_row *r = &c->rows[i];
			if (!shown(r, v))
				continue;
			if (needs_attention(r) && k++ < MD_ROWS_BEFORE_DETAILS)
				continue;
			pdb_compare_table_row(&t, r);
		}
		pdb_compare_table_end(&t);
		pdb_buf_puts(&b, "\n</details>\n");
	}
	pdb_buf_puts(&b, "\n");
	hidden_line(c, v, &b);
	pdb_buf_printf(&b, "%s.\n", change_note);
	if (c->nrows)
		tests_line(c, &b);
	if (c->ngeomean) {
		pdb_buf_puts(&b, "Geometric mean of candidate/baseline, inverted where higher is better (> 1 is worse), its interval and verdict: ");
		geomean_line(c, PDB_RENDER_MARKDOWN, &b);
		pdb_buf_puts(&b, "\n");
	}
	pdb_buf_puts(&b, "\n");
	write_buf(&b, out);
	pdb_buf_release(&b);
}

/* ---- json ---- */

/* A derived percentage at 4 significant digits (raw values stay exact). */
static double pct4(double v)
{
	return pdb_round_significant(v, 4);
}

/* A member whose value is a string, or null for NULL. */
static void text_member(struct pdb_json_stream *j, const char *key, const char *v)
{
	pdb_json_key(j, key);
	pdb_json_put_string(j, v);
}

static void real_member(struct pdb_json_stream *j, const char *key, double v)
{
	pdb_json_key(j, key);
	pdb_json_put_real(j, v);
}

static void side_json(struct pdb_json_stream *j, const struct pdb_compare_run *runs, size_t n)
{
	pdb_json_begin_object(j);
	pdb_json_key(j, "runs");
	pdb_json_begin_array(j);
	for (size_t i = 0; i < n; i++) {
		pdb_json_begin_object(j);
		pdb_json_key(j, "id");
		pdb_json_put_int(j, runs[i].id);
		text_member(j, "name", runs[i].name);
		text_member(j, "created_at", runs[i].created_at);
		text_member(j, "commit", runs[i].commit);
		text_member(j, "branch", runs[i].branch);
		text_member(j, "status", runs[i].status);
		pdb_json_end_object(j);
	}
	pdb_json_end_array(j);
	pdb_json_end_object(j);
}

static void stats_json(struct pdb_json_stream *j, size_t n, double median, double mean)
{
	pdb_json_begin_object(j);
	pdb_json_key(j, "n");
	pdb_json_put_int(j, (long long)n);
	pdb_json_key(j, "median");
	pdb_json_put_real(j, median);
	pdb_json_key(j, "mean");
	pdb_json_put_real(j, mean);
	pdb_json_end_object(j);
}

static const char *hidden_name(int hidden)
{
	return hidden == PDB_HIDDEN_CONSTANT ? "constant"
	       : hidden == PDB_HIDDEN_BOOKKEEPING ? "bookkeeping"
	       : hidden == PDB_HIDDEN_NOT_GATED ? "not_gated" : NULL;
}

/* The dimensions as stored (a JSON object), laid out as the rest. */
static void dims_json(struct pdb_json_stream *j, const char *dims_json)
{
	json_t *dims = strcmp(dims_json, "{}") == 0 ? NULL : json_loads(dims_json, 0, NULL);

	if (dims) {
		pdb_json_put_value(j, dims);
		json_decref(dims);
	} else {
		pdb_json_begin_object(j);
		pdb_json_end_object(j);
	}
}

static void row_json(struct pdb_json_stream *j, const struct pdb_compare_row *r,
		     const struct compare_view *v)
{
	pdb_json_begin_object(j);
	text_member(j, "benchmark", r->benchmark);
	pdb_json_key(j, "dims");
	dims_json(j, r->dims_json);
	text_member(j, "metric", *r->metric ? r->metric : NULL);
	text_member(j, "unit", *r->unit ? r->unit : NULL);
	text_member(j, "direction", pdb_direction_name(r->direction));
	pdb_json_key(j, "baseline");
	stats_json(j, r->n_base, r->median_base, r->mean_base);
	pdb_json_key(j, "candidate");
	stats_json(j, r->n_cand, r->median_cand, r->mean_cand);
	real_member(j, "median_change_pct", pct4(pdb_compare_median_change_pct(r)));
	real_member(j, "change_pct", pct4(r->change_pct));
	real_member(j, "ci_low_pct", pct4(r->ci_low_pct));
	real_member(j, "ci_high_pct", pct4(r->ci_high_pct));
	if (!isnan(r->change_abs)) {
		real_member(j, "change_abs", r->change_abs);
		real_member(j, "ci_low_abs", r->ci_low_abs);
		real_member(j, "ci_high_abs", r->ci_high_abs);
	}
	real_member(j, "p_value", r->p_value);
	text_member(j, "test", r->test);
	pdb_json_key(j, "n_history");
	pdb_json_put_int(j, (long long)r->n_history);
	real_member(j, "history_spread_pct", pct4(r->history_spread_pct));
	text_member(j, "verdict", pdb_verdict_name(r->verdict));
	text_member(j, "reason", r->reason);
	pdb_json_key(j, "gated");
	pdb_json_put_bool(j, r->gated);
	pdb_json_key(j, "fails_gate");
	pdb_json_put_bool(j, pdb_compare_row_fails(r, v->fail_on));
	text_member(j, "decided_by", r->decided_by);
	real_member(j, "run_noise_pct", pct4(r->run_noise_pct));
	real_member(j, "run_wide_pct", pct4(r->run_wide_pct));
	text_member(j, "hidden", hidden_name(r->hidden));
	text_member(j, "band", r->band);
	real_member(j, "threshold_pct", r->threshold_pct);
	pdb_json_key(j, "warn");
	pdb_json_put_bool(j, r->warn);
	pdb_json_end_object(j);
}

static void summary_json(struct pdb_json_stream *j, const struct pdb_compare *c)
{
	pdb_json_begin_object(j);
	for (int k = 0; k < PDB_VERDICT_COUNT; k++) {
		pdb_json_key(j, pdb_verdict_name(k));
		pdb_json_put_int(j, (long long)c->counts[k]);
	}
	pdb_json_key(j, "reported");
	pdb_json_put_int(j, (long long)c->nreported);
	pdb_json_key(j, "hidden");
	pdb_json_put_int(j, (long long)c->nhidden);
	pdb_json_key(j, "geomean");
	pdb_json_begin_object(j);
	for (size_t i = 0; i < c->ngeomean; i++)
		real_member(j, c->geomean[i].metric, c->geomean[i].ratio);
	pdb_json_end_object(j);
	pdb_json_key(j, "geomean_interval");
	pdb_json_begin_object(j);
	for (size_t i = 0; i < c->ngeomean; i++) {
		const struct pdb_compare_geomean *g = &c->geomean[i];
		pdb_json_key(j, g->metric);
		pdb_json_begin_object(j);
		real_member(j, "ratio", g->ratio);
		real_member(j, "low", g->low);
		real_member(j, "high", g->high);
		text_member(j, "verdict", pdb_verdict_name(g->verdict));
		pdb_json_end_object(j);
	}
	pdb_json_end_object(j);
	pdb_json_end_object(j);
}

/* Written a row at a time, never held as one tree: a compare of 20,000
 * series writes 20 MB. */
void compare_print_json(const struct pdb_compare *c, const struct compare_view *v, FILE *out)
{
	struct pdb_json_stream j;
	/* "none" with exit 3: nothing was compared, which is no pass */
	int outcome = pdb_compare_outcome(c, v->fail_on);

	pdb_json_stream_init(&j, out, 2);
	pdb_json_begin_object(&j);
	text_member(&j, "gate", outcome == PDB_OUTCOME_FAIL ? "fail" :
				outcome == PDB_OUTCOME_NONE ? "none" : "pass");
	pdb_json_key(&j, "fail_on");
	pdb_json_begin_array(&j);
	for (int k = 0; k < PDB_VERDICT_COUNT; k++)
		if (v->fail_on & (1u << k))
			pdb_json_put_string(&j, pdb_verdict_name(k));
	pdb_json_end_array(&j);
	pdb_json_key(&j, "baseline");
	side_json(&j, c->base, c->nbase);
	pdb_json_key(&j, "candidate");
	side_json(&j, c->cand, c->ncand);
	real_member(&j, "alpha", c->alpha);
	pdb_json_key(&j, "results");
	pdb_json_begin_array(&j);
	for (size_t i = 0; i < c->nrows; i++)
		row_json(&j, &c->rows[i], v);
	pdb_json_end_array(&j);
	pdb_json_key(&j, "summary");
	summary_json(&j, c);
	pdb_json_key(&j, "environment_differs");
	pdb_json_begin_array(&j);
	for (size_t i = 0; i < c->nenv; i++) {
		pdb_json_begin_object(&j);
		text_member(&j, "key", c->env[i].key);
		text_member(&j, "baseline", c->env[i].base);
		text_member(&j, "candidate", c->env[i].cand);
		pdb_json_end_object(&j);
	}
	pdb_json_end_array(&j);
	pdb_json_end_object(&j);
	pdb_json_stream_flush(&j);
	fputc('\n', out);
}

/* ---- junit ---- */

static int junit_skipped(const struct pdb_compare_row *r, const struct compare_view *v)
{
	return !pdb_compare_row_fails(r, v->fail_on) &&
	       (r->verdict == PDB_VERDICT_INSUFFICIENT || r->verdict == PDB_VERDICT_NEW ||
		r->verdict == PDB_VERDICT_MISSING);
}

/* A test case's message: the verdict, the values, the change and the test. */
static void junit_message(const struct pdb_compare_row *r, struct pdb_buf *b)
{
	struct pdb_compare_cells c;

	pdb_compare_row_cells(r, &c);
	pdb_buf_printf(b, "%s: %s -> %s, change %s, interval %s, p %s, test %s, n %s",
		       c.verdict, c.base, c.cand, c.change, c.interval, c.p, c.test, c.n);
}

void compare_print_junit(const struct pdb_compare *c, const struct compare_view *v, FILE *out)
{
	size_t tests = 0, failures = 0, skipped = 0;
	struct pdb_buf name, b;

	for (size_t i = 0; i < c->nrows; i++) {
		if (!shown(&c->rows[i], v))
			continue;
		tests++;
		failures += pdb_compare_row_fails(&c->rows[i], v->fail_on);
		skipped += junit_skipped(&c->rows[i], v);
	}
	/* names go through pdb_escape_xml once, as plain text first */
	pdb_buf_init(&name);
	pdb_buf_puts(&name, "perfdb compare ");
	pdb_compare_runs_label(c->base, c->nbase, PDB_RENDER_PLAIN, &name);
	pdb_buf_puts(&name, " vs ");
	pdb_compare_runs_label(c->cand, c->ncand, PDB_RENDER_PLAIN, &name);
	pdb_buf_init(&b);
	pdb_buf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	for (int k = 0; k < 2; k++) {
		pdb_buf_puts(&b, k ? "  <testsuite name=\"" : "<testsuites name=\"");
		pdb_escape_xml(&b, name.data);
		pdb_buf_printf(&b, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n", tests,
			       failures, skipped);
	}
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		struct pdb_buf msg;

		if (!shown(r, v))
			continue;
		pdb_buf_init(&msg);
		junit_message(r, &msg);
		pdb_buf_puts(&b, "    <testcase classname=\"");
		pdb_escape_xml(&b, r->benchmark);
		pdb_buf_puts(&b, "\" name=\"");
		pdb_escape_xml(&b, *r->metric ? r->metric : "-");
		if (*r->dims) {
			pdb_buf_puts(&b, " [");
			pdb_escape_xml(&b, r->dims);
			pdb_buf_puts(&b, "]");
		}
		pdb_buf_puts(&b, "\">\n");
		if (pdb_compare_row_fails(r, v->fail_on)) {
			pdb_buf_puts(&b, "      <failure message=\"");
			pdb_escape_xml(&b, msg.data);
			pdb_buf_printf(&b, "\" type=\"%s\"/>\n", pdb_verdict_name(r->verdict));
		} else if (junit_skipped(r, v)) {
			pdb_buf_puts(&b, "      <skipped message=\"");
			pdb_escape_xml(&b, msg.data);
			pdb_buf_puts(&b, "\"/>\n");
		} else {
			pdb_buf_puts(&b, "      <system-out>");
			pdb_escape_xml(&b, msg.data);
			pdb_buf_puts(&b, "</system-out>\n");
		}
		pdb_buf_puts(&b, "    </testcase>\n");
		pdb_buf_release(&msg);
	}
	pdb_buf_puts(&b, "  </testsuite>\n</testsuites>\n");
	write_buf(&b, out);
	pdb_buf_release(&b);
	pdb_buf_release(&name);
}

/* ---- csv ---- */

/* A cell through pdb_escape_csv (formulas neutralised), then the separator. */
static void csv_field(struct pdb_buf *b, const char *s, int last)
{
	pdb_escape_csv(b, s);
	pdb_buf_puts(b, last ? "\n" : ",");
}

static void csv_num(struct pdb_buf *b, double v)
{
	char buf[32];

	if (!isnan(v)) {
		pdb_fmt_double(v, buf);
		pdb_buf_puts(b, buf);
	}
	pdb_buf_puts(b, ",");
}

/* A row at a time: 10,000 rows never sit in memory as one text. */
void compare_print_csv(const struct pdb_compare *c, const struct compare_view *v, FILE *out)
{
	fputs("benchmark,dims,metric,unit,direction,n_base,n_cand,median_base,median_cand,"
	      "mean_base,mean_cand,change_pct,ci_low_pct,ci_high_pct,change_abs,p_value,"
	      "band,verdict,reason,fails_gate,hidden,warn,test,n_history\n", out);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		const char *hidden = hidden_name(r->hidden);
		struct pdb_buf b;

		pdb_buf_init(&b);
		csv_field(&b, r->benchmark, 0);
		csv_field(&b, r->dims, 0);
		csv_field(&b, r->metric, 0);
		csv_field(&b, r->unit, 0);
		csv_field(&b, pdb_direction_name(r->direction), 0);
		pdb_buf_printf(&b, "%zu,%zu,", r->n_base, r->n_cand);
		csv_num(&b, r->median_base);
		csv_num(&b, r->median_cand);
		csv_num(&b, r->mean_base);
		csv_num(&b, r->mean_cand);
		csv_num(&b, pct4(r->change_pct));
		csv_num(&b, pct4(r->ci_low_pct));
		csv_num(&b, pct4(r->ci_high_pct));
		csv_num(&b, r->change_abs);
		csv_num(&b, r->p_value);
		csv_field(&b, r->band ? r->band : "", 0);
		csv_field(&b, pdb_verdict_name(r->verdict), 0);
		csv_field(&b, r->reason ? r->reason : "", 0);
		csv_field(&b, pdb_compare_row_fails(r, v->fail_on) ? "1" : "0", 0);
		csv_field(&b, hidden ? hidden : "", 0);
		csv_field(&b, r->warn ? "1" : "0", 0);
		csv_field(&b, r->test ? r->test : "", 0);
		pdb_buf_printf(&b, "%zu\n", r->n_history);
		write_buf(&b, out);
		pdb_buf_release(&b);
	}
}
