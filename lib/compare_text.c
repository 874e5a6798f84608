/* Compare text: the cells of a comparison row as people read them (text, Markdown, reports). */
#include "compare_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "util.h"

void pdb_compare_value_text(double v, const char *unit, char *out, size_t size)
{
	if (isnan(v))
		snprintf(out, size, "-");
	else
		pdb_unit_format_fixed(v, unit, out, size);
}

void pdb_compare_change_text(const struct pdb_compare_row *r, char *out, size_t size)
{
	if (!isnan(r->change_pct))
		pdb_pct_text(r->change_pct, out, size);
	else if (!isnan(r->change_abs))
		pdb_unit_signed_text(r->change_abs, r->unit, out, size);
	else
		snprintf(out, size, "-");
}

void pdb_compare_interval_text(const struct pdb_compare_row *r, char *out, size_t size)
{
	char lo[64], hi[64];

	if (!isnan(r->ci_low_pct)) {
		pdb_pct_text(r->ci_low_pct, lo, sizeof lo);
		pdb_pct_text(r->ci_high_pct, hi, sizeof hi);
		snprintf(out, size, "[%s, %s]", lo, hi);
	}
	else if (!isnan(r->ci_low_abs)) {
		pdb_unit_signed_text(r->ci_low_abs, r->unit, lo, sizeof lo);
		pdb_unit_signed_text(r->ci_high_abs, r->unit, hi, sizeof hi);
		snprintf(out, size, "[%s, %s]", lo, hi);
	} else {
		snprintf(out, size, "-");
	}
}

void pdb_compare_p_text(double p, char *out, size_t size)
{
	if (isnan(p))
		snprintf(out, size, "-");
	else if (p < 0.0001)
		snprintf(out, size, "%.1e", p);
	else
		snprintf(out, size, "%.4f", p);
}

void pdb_compare_verdict_text(const struct pdb_compare_row *r, char *out, size_t size)
{
	/* a failure's reason is the tool's text, of any length: cut to whole characters */
	char *text = pdb_xasprintf("%s%s%s%s", pdb_verdict_name(r->verdict),
				   r->warn ? " (warn)" : "", r->reason ? ": " : "",
				   r->reason ? r->reason : "");

	pdb_utf8_copy(out, size, text);
	free(text);
}

/* The tests of compare.c by their name, a short cell and what it means. */
static const struct {
	const char *name, *cell, *meaning;
} tests[] = {
	{ "mann-whitney", "rank", "Mann-Whitney U test of the samples" },
	{ "wilcoxon-signed-rank", "paired", "Wilcoxon signed-rank test of the per-pair "
	  "candidate/baseline log ratios (an A/B pair)" },
	{ "welch-t-log", "welch", "Welch's t-test of the log values (samples too small for "
	  "a rank test)" },
	{ "history", "history", "the candidate against the run-to-run spread of the "
	  "baseline branch's runs" },
	{ "welch-t", "welch", "Welch's t-test of the values (samples too small for a rank test)" },
	{ "histogram", "histogram", "quantile intervals from the event counts" },
	{ "exact", "exact", "counts that repeat: the change of the medians within the "
	  "repetitions' spread and the run-to-run noise assumed" },
	{ "run-noise", "run-noise", "one value a side against the run-to-run noise assumed "
	  "before a history" },
	{ "same-run", "same-run", "the candidate is the baseline: a run compared with itself, "
	  "whose change is 0" },
};

void pdb_compare_test_text(const struct pdb_compare_row *r, char *out, size_t size)
{
	const char *cell = r->test ? r->test : "-";

	for (size_t i = 0; r->test && i < sizeof tests / sizeof tests[0]; i++)
		if (strcmp(r->test, tests[i].name) == 0)
			cell = tests[i].cell;
	if (r->test && strncmp(r->test, "history", 7) == 0 && r->n_history)
		snprintf(out, size, "%s (%zu runs)", cell, r->n_history);
	else
		snprintf(out, size, "%s", cell);
}

void pdb_compare_row_cells(const struct pdb_compare_row *r, struct pdb_compare_cells *c)
{
	snprintf(c->n, sizeof c->n, "%zu/%zu", r->n_base, r->n_cand);
	pdb_compare_value_text(r->median_base, r->unit, c->base, sizeof c->base);
	pdb_compare_value_text(r->median_cand, r->unit, c->cand, sizeof c->cand);
	pdb_compare_change_text(r, c->change, sizeof c->change);
	pdb_compare_interval_text(r, c->interval, sizeof c->interval);
	pdb_compare_p_text(r->p_value, c->p, sizeof c->p);
	pdb_compare_test_text(r, c->test, sizeof c->test);
	pdb_compare_verdict_text(r, c->verdict, sizeof c->verdict);
}

/* Whether row r assumed a run-to-run noise in test (NULL: widened a test
 * of its samples by it). */
static int assumed_in(const struct pdb_compare_row *r, const char *test)
{
	if (!isfinite(r->run_noise_pct) || !r->test)
		return 0;
	if (test)
		return strcmp(r->test, test) == 0;
	return strcmp(r->test, "run-noise") != 0 && strcmp(r->test, "exact") != 0;
}

/* The noise a run the rows of test assumed (assumed_in), as their reasons
 * say it: " (±7.25 % a run)", or its range over rows of several metrics. */
static void noise_assumed(const struct pdb_compare *c, const char *test, struct pdb_buf *b)
{
	double lo = INFINITY, hi = -INFINITY;
	char a[32], z[32];

	for (size_t i = 0; i < c->nrows; i++)
		if (assumed_in(&c->rows[i], test)) {
			lo = fmin(lo, c->rows[i].run_noise_pct);
			hi = fmax(hi, c->rows[i].run_noise_pct);
		}
	if (!isfinite(lo))
		return;
	if (lo == hi) {
		pdb_pct_words(lo, NAN, 0, a, sizeof a);
		pdb_buf_printf(b, " (±%s a run)", a);
		return;
	}
	pdb_pct_words(lo, hi, 0, a, sizeof a);
	pdb_pct_words(hi, lo, 0, z, sizeof z);
	pdb_buf_printf(b, " (±%s to ±%s a run)", a, z);
}

void pdb_compare_tests_note(const struct pdb_compare *c, struct pdb_buf *b)
{
	int first = 1;

	for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++) {
		size_t n = 0;
		for (size_t i = 0; i < c->nrows; i++)
			n += c->rows[i].test && strcmp(c->rows[i].test, tests[k].name) == 0;
		if (!n)
			continue;
		pdb_buf_printf(b, "%s%s = %s", first ? "test: " : "; ", tests[k].cell,
			       tests[k].meaning);
		if (strcmp(tests[k].name, "run-noise") == 0 || strcmp(tests[k].name, "exact") == 0)
			noise_assumed(c, tests[k].name, b);
		first = 0;
	}
	for (size_t i = 0; i < c->nrows; i++)
		if (assumed_in(&c->rows[i], NULL)) {
			pdb_buf_puts(b, first ? "" : "; ");
			pdb_buf_puts(b, "one run against one run without history: the samples' "
				     "interval widened by the run-to-run noise assumed per run");
			noise_assumed(c, NULL, b);
			pdb_buf_puts(b, ", which compare: run_noise: in perfdb.yaml sets");
			break;
		}
}
