/* perfdb compare's output: text, Markdown, JSON, JUnit and CSV of one comparison. */
#include "compare_output.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare_text.h"
#include "json_out.h"
#include "units.h"
#include "util.h"

#define MD_ROWS_BEFORE_DETAILS 50 /* a 500-series compare stays readable in a PR comment */

static const char change_note[] =
	"baseline and candidate are medians; change (HL) is the Hodges-Lehmann estimate of "
	"the candidate/baseline ratio (the median of all pairwise ratios), its interval at "
	"1 - alpha, which can differ from the ratio of the medians";

/* The test behind p and the interval when it is not Mann-Whitney's, or "". */
static void paired_note(const struct pdb_compare *c, struct pdb_buf *b)
{
	if (c->npaired)
		pdb_buf_printf(b, "an A/B pair (one ab id, repetitions interleaved): %zu series tested paired, "
			       "p and interval from the Wilcoxon signed-rank test and Hodges-Lehmann "
			       "estimate of the per-pair candidate/baseline log ratios%s\n", c->npaired,
			       c->npaired < c->nrows ? "; the others Mann-Whitney" : "");
}

void compare_fail_on_text(unsigned fail_on, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int v = 0; v < PDB_VERDICT_COUNT && len < size; v++)
		if (fail_on & (1u << v))
			len += (size_t)snprintf(out + len, size - len, "%s%s", len ? "," : "",
						pdb_verdict_name(v));
	if (!fail_on)
		snprintf(out, size, "never");
}

static int shown(const struct pdb_compare_row *r, const struct compare_view *v)
{
	return v->all || r->hidden == PDB_SHOWN;
}

/* The verdict cell: the verdict, "(warn)", and why when there is a reason. */
static void verdict_text(const struct pdb_compare_row *r, char *out, size_t size)
{
	snprintf(out, size, "%s%s%s%s", pdb_verdict_name(r->verdict), r->warn ? " (warn)" : "",
		 r->reason ? ": " : "", r->reason ? r->reason : "");
}

static void run_label(const struct pdb_compare_run *runs, size_t n, struct pdb_buf *b)
{
	for (size_t i = 0; i < n; i++) {
		pdb_buf_printf(b, "%srun%lld", i ? "," : "", (long long)runs[i].id);
		if (n == 1 && runs[i].name)
			pdb_buf_printf(b, " (%s)", runs[i].name);
	}
}

/* "1 failed, 2 regression, ..." in the order of the verdicts. */
static void counts_text(const struct pdb_compare *c, struct pdb_buf *b)
{
	int first = 1;

	for (int v = 0; v < PDB_VERDICT_COUNT; v++) {
		if (!c->counts[v])
			continue;
		pdb_buf_printf(b, "%s%zu %s", first ? "" : ", ", c->counts[v], pdb_verdict_name(v));
		first = 0;
	}
	if (first)
		pdb_buf_puts(b, "no series");
}

/* The answer first: FAIL or PASS, what counted, what fails the gate. */
static void verdict_line(const struct pdb_compare *c, const struct compare_view *v,
			 struct pdb_buf *b)
{
	char fail_on[160];

	compare_fail_on_text(v->fail_on, fail_on, sizeof fail_on);
	pdb_buf_printf(b, "%s: ", v->failed ? "FAIL" : "PASS");
	counts_text(c, b);
	pdb_buf_printf(b, " (fails on %s)", fail_on);
}

static void hidden_line(const struct pdb_compare *c, const struct compare_view *v,
			struct pdb_buf *b)
{
	if (c->nhidden && !v->all)
		pdb_buf_printf(b, "%zu series hidden: constant on both sides, not gated and "
			       "unmoved, or bookkeeping (iterations); --all shows them\n", c->nhidden);
}

static void geomean_line(const struct pdb_compare *c, struct pdb_buf *b)
{
	for (size_t i = 0; i < c->ngeomean; i++)
		pdb_buf_printf(b, "%s%s %.4f", i ? ", " : "", c->geomean[i].metric,
			       c->geomean[i].ratio);
}

/* The cells of a row as people read them. */
struct cells {
	char n[48], base[64], cand[64], change[64], interval[160], p[32], verdict[512];
	const char *metric;
};

static void row_cells(const struct pdb_compare_row *r, struct cells *x)
{
	snprintf(x->n, sizeof x->n, "%zu/%zu", r->n_base, r->n_cand);
	pdb_compare_value_text(r->median_base, r->unit, x->base, sizeof x->base);
	pdb_compare_value_text(r->median_cand, r->unit, x->cand, sizeof x->cand);
	pdb_compare_change_text(r, x->change, sizeof x->change);
	pdb_compare_interval_text(r, x->interval, sizeof x->interval);
	pdb_compare_p_text(r->p_value, x->p, sizeof x->p);
	verdict_text(r, x->verdict, sizeof x->verdict);
	x->metric = *r->metric ? r->metric : "-";
}

/* ---- text ---- */

static const char *verdict_color(int verdict)
{
	switch (verdict) {
	case PDB_VERDICT_FAILED:
	case PDB_VERDICT_REGRESSION: return "\033[31m";
	case PDB_VERDICT_IMPROVEMENT: return "\033[32m";
	case PDB_VERDICT_INCONCLUSIVE:
	case PDB_VERDICT_MISSING: return "\033[33m";
	default: return NULL;
	}
}

void compare_print_text(const struct pdb_compare *c, const struct compare_view *v, FILE *out)
{
	static const char *header[] = { "benchmark", "dims", "metric", "n", "baseline",
					"candidate", "change (HL)", "interval", "p", "verdict" };
	int color = cmd_use_color(out);
	struct cmd_table t;
	struct pdb_buf b;

	pdb_buf_init(&b);
	verdict_line(c, v, &b);
	pdb_buf_puts(&b, "\nbaseline  ");
	run_label(c->base, c->nbase, &b);
	pdb_buf_puts(&b, "\ncandidate ");
	run_label(c->cand, c->ncand, &b);
	fprintf(out, "%s\n\n", b.data);
	cmd_table_init(&t, 10, "llllrrrrrl");
	cmd_table_add(&t, header);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		const char *col = color ? verdict_color(r->verdict) : NULL;
		const char *row[10];
		struct cells x;

		if (!shown(r, v))
			continue;
		row_cells(r, &x);
		row[0] = r->benchmark; row[1] = *r->dims ? r->dims : "-"; row[2] = x.metric;
		row[3] = x.n; row[4] = x.base; row[5] = x.cand; row[6] = x.change;
		row[7] = x.interval; row[8] = x.p; row[9] = x.verdict;
		cmd_table_add_styled(&t, row, col);
	}
	cmd_table_print(&t, out);
	cmd_table_release(&t);
	pdb_buf_release(&b);
	pdb_buf_init(&b);
	pdb_buf_puts(&b, "\n");
	hidden_line(c, v, &b);
	pdb_buf_printf(&b, "%s\n", change_note);
	paired_note(c, &b);
	if (c->ngeomean) {
		pdb_buf_puts(&b, "geomean (candidate/baseline, > 1 is worse): ");
		geomean_line(c, &b);
		pdb_buf_puts(&b, "\n");
	}
	fputs(b.data, out);
	pdb_buf_release(&b);
}

/* ---- markdown ---- */

static void md_cell(FILE *out, const char *s)
{
	fputs(" ", out);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else
			fputc(*s, out);
	}
	fputs(" |", out);
}

static void md_header(FILE *out)
{
	fputs("| benchmark | dims | metric | n | baseline | candidate | change (HL) | "
	      "interval | p | verdict |\n|---|---|---|--:|--:|--:|--:|--:|--:|---|\n", out);
}

static void md_row(const struct pdb_compare_row *r, FILE *out)
{
	struct cells x;
	char v[600];

	row_cells(r, &x);
	if (r->verdict == PDB_VERDICT_REGRESSION || r->verdict == PDB_VERDICT_FAILED)
		snprintf(v, sizeof v, "**%s**", x.verdict);
	else
		snprintf(v, sizeof v, "%s", x.verdict);
	fputs("|", out);
	md_cell(out, r->benchmark);
	md_cell(out, *r->dims ? r->dims : "-");
	md_cell(out, x.metric);
	md_cell(out, x.n);
	md_cell(out, x.base);
	md_cell(out, x.cand);
	md_cell(out, x.change);
	md_cell(out, x.interval);
	md_cell(out, x.p);
	md_cell(out, v);
	fputc('\n', out);
}

/* Rows a reviewer must see: what fails or may fail, what is gone, what cannot be told. */
static int needs_attention(const struct pdb_compare_row *r)
{
	return r->verdict == PDB_VERDICT_FAILED || r->verdict == PDB_VERDICT_REGRESSION ||
	       r->verdict == PDB_VERDICT_MISSING || r->verdict == PDB_VERDICT_INCONCLUSIVE ||
	       r->verdict == PDB_VERDICT_INSUFFICIENT;
}

void compare_print_markdown(const struct pdb_compare *c, const struct compare_view *v, FILE *out)
{
	size_t top = 0, rest = 0;
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "**perfdb compare: ");
	verdict_line(c, v, &b);
	pdb_buf_puts(&b, "** — baseline ");
	run_label(c->base, c->nbase, &b);
	pdb_buf_puts(&b, ", candidate ");
	run_label(c->cand, c->ncand, &b);
	fprintf(out, "%s\n\n", b.data);
	/* rows are sorted failed, regression, missing, inconclusive, ... already */
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		if (!shown(r, v) || !needs_attention(r) || top >= MD_ROWS_BEFORE_DETAILS)
			continue;
		if (!top++)
			md_header(out);
		md_row(r, out);
	}
	for (size_t i = 0; i < c->nrows; i++)
		rest += shown(&c->rows[i], v);
	rest -= top;
	if (top == 0)
		fputs("Nothing needs attention.\n", out);
	if (rest) {
		fprintf(out, "\n<details><summary>%zu more series (improvements, unchanged, new%s)"
			"</summary>\n\n", rest, top >= MD_ROWS_BEFORE_DETAILS ? ", and the rest of the above" : "");
		md_header(out);
		for (size_t i = 0, k = 0; i < c->nrows; i++) {
			const struct pdb_compare_row *r = &c->rows[i];
			if (!shown(r, v))
				continue;
			if (needs_attention(r) && k++ < MD_ROWS_BEFORE_DETAILS)
				continue;
			md_row(r, out);
		}
		fputs("\n</details>\n", out);
	}
	pdb_buf_release(&b);
	pdb_buf_init(&b);
	hidden_line(c, v, &b);
	fprintf(out, "\n%s%s.\n", b.data, change_note);
	pdb_buf_release(&b);
	pdb_buf_init(&b);
	paired_note(c, &b);
	if (c->npaired)
		fprintf(out, "\n%s", b.data);
	if (c->ngeomean) {
		pdb_buf_release(&b);
		pdb_buf_init(&b);
		geomean_line(c, &b);
		fprintf(out, "Geometric mean of candidate/baseline (> 1 is worse): %s\n", b.data);
	}
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
	       : hidden == PDB_HIDDEN_BOOKKEEPING ? "bookkeeping" : NULL;
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
	json_object_set_new(o, "verdict", json_string(pdb_verdict_name(r->verdict)));
	json_object_set_new(o, "reason", r->reason ? json_string(r->reason) : json_null());
	json_object_set_new(o, "fails_gate", json_boolean(pdb_compare_row_fails(r, v->fail_on)));
	json_object_set_new(o, "hidden", hidden_name(r->hidden) ? json_string(hidden_name(r->hidden))
							       : json_null());
	json_object_set_new(o, "band", r->band ? json_string(r->band) : json_null());
	json_object_set_new(o, "band_pct", num(pct4(r->band_pct)));
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

	for (int k = 0; k < PDB_VERDICT_COUNT; k++)
		if (v->fail_on & (1u << k))
			json_array_append_new(fail_on, json_string(pdb_verdict_name(k)));
	fputc('{', out);
	json_member(out, "gate", json_string(v->failed ? "fail" : "pass"), 1);
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
	json_object_set_new(summary, "hidden", json_integer((json_int_t)c->nhidden));
	for (size_t i = 0; i < c->ngeomean; i++)
		json_object_set_new(geo, c->geomean[i].metric, num(c->geomean[i].ratio));
	json_object_set_new(summary, "geomean", geo);
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

static void xml_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

static int junit_skipped(const struct pdb_compare_row *r, const struct compare_view *v)
{
	return !pdb_compare_row_fails(r, v->fail_on) &&
	       (r->verdict == PDB_VERDICT_INSUFFICIENT || r->verdict == PDB_VERDICT_NEW ||
		r->verdict == PDB_VERDICT_MISSING);
}

void compare_print_junit(const struct pdb_compare *c, const struct compare_view *v, FILE *out)
{
	size_t tests = 0, failures = 0, skipped = 0;
	struct pdb_buf name;

	for (size_t i = 0; i < c->nrows; i++) {
		if (!shown(&c->rows[i], v))
			continue;
		tests++;
		failures += pdb_compare_row_fails(&c->rows[i], v->fail_on);
		skipped += junit_skipped(&c->rows[i], v);
	}
	pdb_buf_init(&name);
	pdb_buf_puts(&name, "perfdb compare ");
	run_label(c->base, c->nbase, &name);
	pdb_buf_puts(&name, " vs ");
	run_label(c->cand, c->ncand, &name);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", out);
	xml_text(out, name.data);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n", tests, failures,
		skipped);
	fputs("  <testsuite name=\"", out);
	xml_text(out, name.data);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n", tests, failures,
		skipped);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		char msg[1024];
		struct cells x;

		if (!shown(r, v))
			continue;
		row_cells(r, &x);
		snprintf(msg, sizeof msg, "%s: %s -> %s, change (HL) %s, interval %s, p %s, n %s",
			 x.verdict, x.base, x.cand, x.change, x.interval, x.p, x.n);
		fputs("    <testcase classname=\"", out);
		xml_text(out, r->benchmark);
		fputs("\" name=\"", out);
		xml_text(out, x.metric);
		if (*r->dims) {
			fputs(" [", out);
			xml_text(out, r->dims);
			fputs("]", out);
		}
		fputs("\">\n", out);
		if (pdb_compare_row_fails(r, v->fail_on)) {
			fputs("      <failure message=\"", out);
			xml_text(out, msg);
			fprintf(out, "\" type=\"%s\"/>\n", pdb_verdict_name(r->verdict));
		} else if (junit_skipped(r, v)) {
			fputs("      <skipped message=\"", out);
			xml_text(out, msg);
			fputs("\"/>\n", out);
		} else {
			fputs("      <system-out>", out);
			xml_text(out, msg);
			fputs("</system-out>\n", out);
		}
		fputs("    </testcase>\n", out);
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
	pdb_buf_release(&name);
}

/* ---- csv ---- */

static void csv_field(FILE *out, const char *s, int last)
{
	if (strpbrk(s, ",\"\n\r")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputc(last ? '\n' : ',', out);
}

static void csv_num(FILE *out, double v)
{
	char buf[32];

	if (!isnan(v)) {
		pdb_fmt_double(v, buf);
		fputs(buf, out);
	}
	fputc(',', out);
}

void compare_print_csv(const struct pdb_compare *c, const struct compare_view *v, FILE *out)
{
	fputs("benchmark,dims,metric,unit,direction,n_base,n_cand,median_base,median_cand,"
	      "mean_base,mean_cand,change_pct,ci_low_pct,ci_high_pct,change_abs,p_value,"
	      "band,verdict,reason,fails_gate,hidden,warn\n", out);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		const char *hidden = hidden_name(r->hidden);
		csv_field(out, r->benchmark, 0);
		csv_field(out, r->dims, 0);
		csv_field(out, r->metric, 0);
		csv_field(out, r->unit, 0);
		csv_field(out, pdb_direction_name(r->direction), 0);
		fprintf(out, "%zu,%zu,", r->n_base, r->n_cand);
		csv_num(out, r->median_base);
		csv_num(out, r->median_cand);
		csv_num(out, r->mean_base);
		csv_num(out, r->mean_cand);
		csv_num(out, pct4(r->change_pct));
		csv_num(out, pct4(r->ci_low_pct));
		csv_num(out, pct4(r->ci_high_pct));
		csv_num(out, r->change_abs);
		csv_num(out, r->p_value);
		csv_field(out, r->band ? r->band : "", 0);
		csv_field(out, pdb_verdict_name(r->verdict), 0);
		csv_field(out, r->reason ? r->reason : "", 0);
		csv_field(out, pdb_compare_row_fails(r, v->fail_on) ? "1" : "0", 0);
		csv_field(out, hidden ? hidden : "", 0);
		csv_field(out, r->warn ? "1" : "0", 1);
	}
}
