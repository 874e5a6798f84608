/* perfdb compare's output: text, Markdown, JSON, JUnit and CSV of one comparison. */
#include "compare_output.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare_render.h"
#include "compare_text.h"
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

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/* A derived percentage at 4 significant digits (raw values stay exact). */
static double pct4(double v)
{
	char text[32];

	if (isnan(v) || isinf(v))
		return v;
	snprintf(text, sizeof text, "%.4g", v);
	return strtod(text, NULL) + 0.0;
}

static json_t *side_json(const struct pdb_compare_run *runs, size_t n)
{
	json_t *o = json_object(), *a = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *r = json_object();
		json_object_set_new(r, "id", json_integer(runs[i].id));
		json_object_set_new(r, "name", runs[i].name ? json_string(runs[i].name) : json_null());
		json_object_set_new(r, "created_at", runs[i].created_at
				    ? json_string(runs[i].created_at) : json_null());
		json_object_set_new(r, "commit", runs[i].commit
				    ? json_string(runs[i].commit) : json_null());
		json_object_set_new(r, "branch", runs[i].branch
				    ? json_string(runs[i].branch) : json_null());
		json_object_set_new(r, "status", json_string(runs[i].status));
		json_array_append_new(a, r);
	}
	json_object_set_new(o, "runs", a);
	return o;
}

static json_t *stats_json(size_t n, double median, double mean)
{
	json_t *o = json_object();
	json_object_set_new(o, "n", json_integer((json_int_t)n));
	json_object_set_new(o, "median", num(median));
	json_object_set_new(o, "mean", num(mean));
	return o;
}

static const char *hidden_name(int hidden)
{
	return hidden == PDB_HIDDEN_CONSTANT ? "constant"
	       : hidden == PDB_HIDDEN_BOOKKEEPING ? "bookkeeping"
	       : hidden == PDB_HIDDEN_NOT_GATED ? "not_gated" : NULL;
}

static json_t *row_json(const struct pdb_compare_row *r, const struct compare_view *v)
{
	json_t *o = json_object(), *dims = json_loads(r->dims_json, 0, NULL);

	json_object_set_new(o, "benchmark", json_string(r->benchmark));
	json_object_set_new(o, "dims", dims ? dims : json_object());
	json_object_set_new(o, "metric", *r->metric ? json_string(r->metric) : json_null());
	json_object_set_new(o, "unit", *r->unit ? json_string(r->unit) : json_null());
	json_object_set_new(o, "direction", json_string(pdb_direction_name(r->direction)));
	json_object_set_new(o, "baseline", stats_json(r->n_base, r->median_base, r->mean_base));
	json_object_set_new(o, "candidate", stats_json(r->n_cand, r->median_cand, r->mean_cand));
	json_object_set_new(o, "median_change_pct",
			    num(pct4(r->median_base > 0 && r->median_cand > 0
				     ? 100 * (r->median_cand / r->median_base - 1) : NAN)));
	json_object_set_new(o, "change_pct", num(pct4(r->change_pct)));
	json_object_set_new(o, "ci_low_pct", num(pct4(r->ci_low_pct)));
	json_object_set_new(o, "ci_high_pct", num(pct4(r->ci_high_pct)));
	if (!isnan(r->change_abs)) {
		json_object_set_new(o, "change_abs", num(r->change_abs));
		json_object_set_new(o, "ci_low_abs", num(r->ci_low_abs));
		json_object_set_new(o, "ci_high_abs", num(r->ci_high_abs));
	}
	json_object_set_new(o, "p_value", num(r->p_value));
	json_object_set_new(o, "test", r->test ? json_string(r->test) : json_null());
	json_object_set_new(o, "n_history", json_integer((json_int_t)r->n_history));
	json_object_set_new(o, "history_spread_pct", num(pct4(r->history_spread_pct)));
	json_object_set_new(o, "verdict", json_string(pdb_verdict_name(r->verdict)));
	json_object_set_new(o, "reason", r->reason ? json_string(r->reason) : json_null());
	json_object_set_new(o, "gated", json_boolean(r->gated));
	json_object_set_new(o, "fails_gate", json_boolean(pdb_compare_row_fails(r, v->fail_on)));
	json_object_set_new(o, "decided_by", r->decided_by ? json_string(r->decided_by) : json_null());
	json_object_set_new(o, "run_noise_pct", num(pct4(r->run_noise_pct)));
	json_object_set_new(o, "run_wide_pct", num(pct4(r->run_wide_pct)));
	json_object_set_new(o, "hidden", hidden_name(r->hidden) ? json_string(hidden_name(r->hidden))
							       : json_null());
	json_object_set_new(o, "band", r->band ? json_string(r->band) : json_null());
	json_object_set_new(o, "threshold_pct", num(r->threshold_pct));
	json_object_set_new(o, "warn", json_boolean(r->warn));
	return o;
}

/* One member of the top-level object: its value written, then released. */
static void json_member(FILE *out, const char *key, json_t *v, int first)
{
	fprintf(out, "%s\n  \"%s\": ", first ? "" : ",", key);
	pdb_json_write_at(out, v, 2, 1);
	json_decref(v);
}

/* Streamed a row at a time: 10,000 rows never sit in memory as one tree. */
void compare_print_json(const struct pdb_compare *c, const struct compare_view *v, FILE *out)
{
	json_t *summary = json_object(), *geo = json_object(), *env = json_array();
	json_t *fail_on = json_array();
	int outcome;

	for (int k = 0; k < PDB_VERDICT_COUNT; k++)
		if (v->fail_on & (1u << k))
			json_array_append_new(fail_on, json_string(pdb_verdict_name(k)));
	fputc('{', out);
	/* "none" with exit 3: nothing was compared, which is no pass */
	outcome = pdb_compare_outcome(c, v->fail_on);
	json_member(out, "gate", json_string(outcome == PDB_OUTCOME_FAIL ? "fail" :
					     outcome == PDB_OUTCOME_NONE ? "none" : "pass"), 1);
	json_member(out, "fail_on", fail_on, 0);
	json_member(out, "baseline", side_json(c->base, c->nbase), 0);
	json_member(out, "candidate", side_json(c->cand, c->ncand), 0);
	json_member(out, "alpha", json_real(c->alpha), 0);
	fputs(",\n  \"results\": ", out);
	if (c->nrows == 0)
		fputs("[]", out);
	for (size_t i = 0; i < c->nrows; i++) {
		json_t *row = row_json(&c->rows[i], v);
		fputs(i ? ",\n    " : "[\n    ", out);
		pdb_json_write_at(out, row, 2, 2);
		json_decref(row);
	}
	if (c->nrows)
		fputs("\n  ]", out);
	for (int k = 0; k < PDB_VERDICT_COUNT; k++)
		json_object_set_new(summary, pdb_verdict_name(k),
				    json_integer((json_int_t)c->counts[k]));
	json_object_set_new(summary, "reported", json_integer((json_int_t)c->nreported));
	json_object_set_new(summary, "hidden", json_integer((json_int_t)c->nhidden));
	for (size_t i = 0; i < c->ngeomean; i++)
		json_object_set_new(geo, c->geomean[i].metric, num(c->geomean[i].ratio));
	json_object_set_new(summary, "geomean", geo);
	geo = json_object();
	for (size_t i = 0; i < c->ngeomean; i++) {
		const struct pdb_compare_geomean *g = &c->geomean[i];
		json_t *o = json_object();
		json_object_set_new(o, "ratio", num(g->ratio));
		json_object_set_new(o, "low", num(g->low));
		json_object_set_new(o, "high", num(g->high));
		json_object_set_new(o, "verdict", json_string(pdb_verdict_name(g->verdict)));
		json_object_set_new(geo, g->metric, o);
	}
	json_object_set_new(summary, "geomean_interval", geo);
	json_member(out, "summary", summary, 0);
	for (size_t i = 0; i < c->nenv; i++) {
		json_t *e = json_object();
		json_object_set_new(e, "key", json_string(c->env[i].key));
		json_object_set_new(e, "baseline", json_string(c->env[i].base));
		json_object_set_new(e, "candidate", json_string(c->env[i].cand));
		json_array_append_new(env, e);
	}
	json_member(out, "environment_differs", env, 0);
	fputs("\n}\n", out);
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
