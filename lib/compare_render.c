/* Compare render: the headline and the table of a comparison as text, Markdown or HTML. */
#include "compare_render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_text.h"
#include "err.h"
#include "escape.h"
#include "util.h"

void pdb_render_text(int fmt, struct pdb_buf *b, const char *s)
{
	if (fmt == PDB_RENDER_HTML)
		pdb_escape_html(b, s);
	else if (fmt == PDB_RENDER_MARKDOWN)
		pdb_escape_md(b, s);
	else if (fmt == PDB_RENDER_PLAIN)
		pdb_buf_puts(b, s);
	else
		pdb_escape_term(b, s);
}

/* ---- the headline ---- */

int pdb_compare_outcome(const struct pdb_compare *c, unsigned fail_on)
{
	if (pdb_compare_failed(c, fail_on))
		return PDB_OUTCOME_FAIL;
	return pdb_compare_in_common(c) == 0 ? PDB_OUTCOME_NONE : PDB_OUTCOME_PASS;
}

int pdb_compare_outcome_status(int outcome)
{
	return outcome == PDB_OUTCOME_FAIL ? PDB_EXIT_REGRESSION :
	       outcome == PDB_OUTCOME_NONE ? PDB_EXIT_INPUT : PDB_EXIT_OK;
}

void pdb_compare_fail_on_text(unsigned fail_on, char *out, size_t size)
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

/* The benchmarks (at their dims) that failed: a failure is of a
 * benchmark, whatever number of its series (resources too) it leaves
 * without a value. */
static size_t failed_benchmarks(const struct pdb_compare *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		size_t k = 0;
		if (r->verdict != PDB_VERDICT_FAILED)
			continue;
		while (k < i && !(c->rows[k].verdict == PDB_VERDICT_FAILED &&
				  strcmp(c->rows[k].benchmark, r->benchmark) == 0 &&
				  strcmp(c->rows[k].dims_json, r->dims_json) == 0))
			k++;
		n += k == i;
	}
	return n;
}

void pdb_compare_counts_text(const struct pdb_compare *c, struct pdb_buf *b)
{
	int first = 1;

	for (int v = 0; v < PDB_VERDICT_COUNT; v++) {
		if (!c->counts[v])
			continue;
		if (v == PDB_VERDICT_FAILED) {
			size_t n = failed_benchmarks(c);
			pdb_buf_printf(b, "%s%zu benchmark%s failed", first ? "" : ", ", n, n == 1 ? "" : "s");
			first = 0;
			continue;
		}
		/* the two verdicts that are nouns take a plural: "3 regressions" */
		int noun = v == PDB_VERDICT_REGRESSION || v == PDB_VERDICT_IMPROVEMENT;
		pdb_buf_printf(b, "%s%zu %s%s", first ? "" : ", ", c->counts[v], pdb_verdict_name(v),
			       noun && c->counts[v] != 1 ? "s" : "");
		first = 0;
	}
	if (first && c->nhidden) /* every one the same on both sides, or not gated */
		pdb_buf_printf(b, "no series shown, %zu hidden", c->nhidden);
	else if (first)
		pdb_buf_puts(b, "no series");
	if (c->nreported)
		pdb_buf_printf(b, "; %zu resource%s moved, not gated", c->nreported,
			       c->nreported == 1 ? "" : "s");
}

/* Why there is nothing to compare: the filters that matched nothing, or the
 * series each side has alone. */
static void none_reason(const struct pdb_compare *c, const struct pdb_compare_opts *o, int fmt,
			struct pdb_buf *b)
{
	const char *bench = o ? o->bench_glob : NULL, *metric = o ? o->metric_glob : NULL;

	if (c->nrows && (c->counts[PDB_VERDICT_NEW] || c->counts[PDB_VERDICT_MISSING])) {
		pdb_buf_printf(b, "no series in common (%zu new, %zu missing)",
			       c->counts[PDB_VERDICT_NEW], c->counts[PDB_VERDICT_MISSING]);
		return;
	}
	if (!bench && !metric) {
		pdb_buf_puts(b, o && o->config ? "no series left to compare (the configuration "
			     "ignores every one, or the runs have none)" : "no series to compare");
		return;
	}
	pdb_buf_puts(b, "no series match");
	if (bench) {
		pdb_buf_puts(b, " --bench ");
		pdb_render_text(fmt, b, bench);
	}
	if (metric) {
		pdb_buf_puts(b, bench ? " and --metric " : " --metric ");
		pdb_render_text(fmt, b, metric);
	}
	if (o->config)
		pdb_buf_puts(b, " that the configuration does not ignore");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The metrics whose rows can fail the gate, sorted, or "nothing". */
static void gated_metrics(const struct pdb_compare *c, int fmt, struct pdb_buf *b)
{
	const char **m = pdb_xmalloc((c->nrows ? c->nrows : 1) * sizeof *m);
	size_t n = 0, said = 0;

	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].gated && c->rows[i].direction != PDB_DIR_NONE && *c->rows[i].metric)
			m[n++] = c->rows[i].metric;
	if (n)
		qsort(m, n, sizeof *m, cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (i && strcmp(m[i], m[i - 1]) == 0)
			continue;
		pdb_buf_puts(b, said++ ? ", " : "");
		pdb_render_text(fmt, b, m[i]);
	}
	if (!said)
		pdb_buf_puts(b, "nothing");
	free(m);
}

void pdb_compare_headline(const struct pdb_compare *c, unsigned fail_on,
			  const struct pdb_compare_opts *opts, int fmt, struct pdb_buf *b)
{
	int outcome = pdb_compare_outcome(c, fail_on);
	char on[160];

	if (outcome == PDB_OUTCOME_NONE) {
		pdb_buf_puts(b, "NO COMPARISON: ");
		none_reason(c, opts, fmt, b);
		return;
	}
	pdb_compare_fail_on_text(fail_on, on, sizeof on);
	pdb_buf_puts(b, outcome == PDB_OUTCOME_FAIL ? "FAIL: " : "PASS: ");
	if (c->self)
		pdb_buf_puts(b, "a run compared with itself (the candidate is the baseline): ");
	pdb_compare_counts_text(c, b);
	pdb_buf_printf(b, " (fails on %s; gates ", on);
	gated_metrics(c, fmt, b);
	pdb_buf_puts(b, ")");
}

void pdb_compare_runs_label(const struct pdb_compare_run *runs, size_t n, int fmt,
			    struct pdb_buf *b)
{
	for (size_t i = 0; i < n; i++) {
		pdb_buf_printf(b, "%srun%lld", i ? "," : "", (long long)runs[i].id);
		if (n == 1 && runs[i].name) {
			pdb_buf_puts(b, " (");
			pdb_render_text(fmt, b, runs[i].name);
			pdb_buf_puts(b, ")");
		}
	}
}

/* ---- the table ---- */

static const char *const head[] = { "benchmark", "dims", "metric", "n", "baseline",
				    "candidate", "change", "interval", "p", "test",
				    "verdict" };
#define NCOLS (sizeof head / sizeof head[0])
#define COL_CHANGE 6
#define COL_VERDICT 10
static const char align[] = "lllrrrrrrll";

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

/* A regression reported, not gated: it moved and says so, but fails
 * nothing, so no format shows it as failing (no red, no bold). */
static int reported_only(const struct pdb_compare_row *r)
{
	return r->verdict == PDB_VERDICT_REGRESSION && !r->gated;
}

/* Markdown has no colour: a mark per verdict, as GitHub shows emoji; a
 * regression reported only, a blue one. */
static const char *verdict_mark(const struct pdb_compare_row *r)
{
	if (reported_only(r))
		return "🔵";
	switch (r->verdict) {
	case PDB_VERDICT_FAILED:
	case PDB_VERDICT_REGRESSION: return "🔴";
	case PDB_VERDICT_IMPROVEMENT: return "🟢";
	case PDB_VERDICT_INCONCLUSIVE: return "🟠";
	case PDB_VERDICT_UNCHANGED: return "⚪";
	default: return "⚫";
	}
}

void pdb_compare_table_begin(struct pdb_compare_table *t, int fmt, int color, struct pdb_buf *b)
{
	memset(t, 0, sizeof *t);
	t->fmt = fmt;
	t->color = color;
	t->b = b;
	if (fmt == PDB_RENDER_TEXT) {
		pdb_text_table_init(&t->text, NCOLS, align);
		pdb_text_table_add(&t->text, head, NULL);
		return;
	}
	if (fmt == PDB_RENDER_HTML)
		pdb_buf_puts(b, "<table class=\"compare\">\n<thead><tr>");
	for (size_t i = 0; i < NCOLS; i++)
		pdb_buf_printf(b, fmt == PDB_RENDER_HTML ? "<th%s>%s</th>" : "| %.0s%s ",
			       align[i] == 'r' ? " class=\"num\"" : "", head[i]);
	if (fmt == PDB_RENDER_HTML) {
		pdb_buf_puts(b, "</tr></thead>\n<tbody>\n");
		return;
	}
	pdb_buf_puts(b, "|\n|");
	for (size_t i = 0; i < NCOLS; i++)
		pdb_buf_puts(b, align[i] == 'r' ? "--:|" : "---|");
	pdb_buf_puts(b, "\n");
}

static void html_row(struct pdb_buf *b, const struct pdb_compare_row *r, const char *const *cells,
		     int em)
{
	pdb_buf_printf(b, "<tr class=\"v-%s\">", pdb_verdict_name(r->verdict));
	for (size_t i = 0; i < NCOLS; i++) {
		int e = em && i == COL_CHANGE;
		if (align[i] == 'r' || e)
			pdb_buf_printf(b, "<td class=\"%s%s%s\">", align[i] == 'r' ? "num" : "",
				       align[i] == 'r' && e ? " " : "", e ? "em" : "");
		else
			pdb_buf_puts(b, "<td>");
		if (i == COL_VERDICT)
			pdb_buf_printf(b, "<span class=\"badge %s%s\">", pdb_verdict_name(r->verdict),
				       reported_only(r) ? " reported" : "");
		pdb_escape_html(b, cells[i]);
		pdb_buf_puts(b, i == COL_VERDICT ? "</span></td>" : "</td>");
	}
	pdb_buf_puts(b, "</tr>\n");
}

static void md_row(struct pdb_buf *b, const struct pdb_compare_row *r, const char *const *cells,
		   int em)
{
	for (size_t i = 0; i < NCOLS; i++) {
		int e = em && i == COL_CHANGE && *cells[i];
		pdb_buf_puts(b, "| ");
		if (i == COL_VERDICT)
			pdb_buf_printf(b, "%s ", verdict_mark(r));
		pdb_buf_puts(b, e ? "**" : "");
		pdb_escape_md(b, cells[i]);
		pdb_buf_puts(b, e ? "** " : " ");
	}
	pdb_buf_puts(b, "|\n");
}

void pdb_compare_table_row(struct pdb_compare_table *t, const struct pdb_compare_row *r)
{
	struct pdb_compare_cells c;
	const char *cells[NCOLS] = { r->benchmark, *r->dims ? r->dims : "-",
				     r->metric && *r->metric ? r->metric : "-", c.n, c.base, c.cand,
				     c.change, c.interval, c.p, c.test, c.verdict };
	int em = (r->verdict == PDB_VERDICT_REGRESSION || r->verdict == PDB_VERDICT_FAILED) &&
		 !reported_only(r);

	pdb_compare_row_cells(r, &c);
	if (t->fmt == PDB_RENDER_TEXT)
		pdb_text_table_add(&t->text, cells, t->color && !reported_only(r)
						    ? verdict_color(r->verdict) : NULL);
	else if (t->fmt == PDB_RENDER_HTML)
		html_row(t->b, r, cells, em);
	else
		md_row(t->b, r, cells, em);
}

void pdb_compare_table_end(struct pdb_compare_table *t)
{
	if (t->fmt == PDB_RENDER_TEXT) {
		pdb_text_table_write(&t->text, t->b);
		pdb_text_table_release(&t->text);
	} else if (t->fmt == PDB_RENDER_HTML) {
		pdb_buf_puts(t->b, "</tbody>\n</table>\n");
	}
}

void pdb_compare_table_all(const struct pdb_compare *c, int fmt, int all, struct pdb_buf *b)
{
	struct pdb_compare_table t;
	struct pdb_buf note, tests;

	if (c->nrows == 0) {
		pdb_buf_puts(b, fmt == PDB_RENDER_HTML ? "<p>The two runs have no series in "
			     "common.</p>\n" : "The two runs have no series in common.\n");
		return;
	}
	pdb_compare_table_begin(&t, fmt, 0, b);
	for (size_t i = 0; i < c->nrows; i++)
		if (all || c->rows[i].hidden == PDB_SHOWN)
			pdb_compare_table_row(&t, &c->rows[i]);
	pdb_compare_table_end(&t);
	pdb_buf_init(&note);
	pdb_buf_init(&tests);
	if (c->nhidden && !all)
		pdb_buf_printf(&note, "%zu series not shown: constant on both sides, not gated and "
			       "unmoved, or bookkeeping (iterations).", c->nhidden);
	pdb_compare_tests_note(c, &tests);
	if (tests.len)
		pdb_buf_printf(&note, "%s%s.", note.len ? " " : "", tests.data);
	if (note.len)
		pdb_buf_printf(b, fmt == PDB_RENDER_HTML ? "<p class=\"note\">%s</p>\n" : "\n%s\n",
			       note.data);
	pdb_buf_release(&tests);
	pdb_buf_release(&note);
}
