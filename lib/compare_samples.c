/* Compare's tests of several values a side: Mann-Whitney with the
 * Hodges-Lehmann interval, the signed-rank test of an A/B pair, Welch's t
 * for samples too small for a rank test, and near-exact counts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_internal.h"
#include "stats.h"
#include "util.h"

/* Welch's test below this many values a side has one degree of freedom or
 * so: an interval of [-99 %, +12000 %] says less than "insufficient". */
#define WELCH_MIN_N 3

/* Whether the values of both sides take at least n/2 distinct values each.
 * Values on a coarse grid (rusage's user and system times come in clock
 * ticks) make most per-pair differences 0 or one tick: the signed-rank test
 * and its Walsh averages then see a shift of half a tick in A/A pairs (seen:
 * +8.9 %, p 0.002, in 2 of 6 A/A runs), so such series keep Mann-Whitney. */
static int fine_grained(const double *b, const double *a, size_t n)
{
	for (int side = 0; side < 2; side++) {
		double *v = pdb_xmalloc((n ? n : 1) * sizeof *v);
		size_t distinct = n > 0;
		memcpy(v, side ? a : b, n * sizeof *v);
		qsort(v, n, sizeof *v, pdb_cmp_double);
		for (size_t i = 1; i < n; i++)
			distinct += v[i] != v[i - 1];
		free(v);
		if (2 * distinct < n)
			return 0;
	}
	return 1;
}

/* Welch's t test of the shift, on log values when all are above 0 (the
 * change as a ratio): samples too small for a rank test to reach alpha
 * (3 against 3 cannot give p < 0.1), where a t test still can. */
static void compare_welch(struct compare_test *t, struct pdb_compare_row *row, const double *b,
			  const double *a, int positive)
{
	struct pdb_welch w;
	double *lb, *la;

	pdb_grow((void **)&t->scratch, &t->scratch_cap, row->n_base + row->n_cand,
		 sizeof *t->scratch);
	lb = t->scratch;
	la = t->scratch + row->n_base;
	for (size_t i = 0; i < row->n_base; i++)
		lb[i] = positive ? log(b[i]) : b[i];
	for (size_t i = 0; i < row->n_cand; i++)
		la[i] = positive ? log(a[i]) : a[i];
	if (pdb_stats_welch(lb, row->n_base, la, row->n_cand, 1 - t->alpha, &w) < 0)
		return; /* not finite: no interval, insufficient */
	row->test = positive ? "welch-t-log" : "welch-t";
	row->p_value = w.p;
	if (positive) {
		row->change_pct = pct_of_log(w.shift);
		row->ci_low_pct = pct_of_log(w.lo);
		row->ci_high_pct = pct_of_log(w.hi);
	} else {
		row->change_abs = w.shift;
		row->ci_low_abs = w.lo;
		row->ci_high_abs = w.hi;
	}
}

/* A row with too little to test: the change of the medians, and why. */
void compare_median_change(struct pdb_compare_row *row, int positive, char *reason)
{
	if (positive)
		row->change_pct = pct_of_log(log(row->median_cand / row->median_base));
	else
		row->change_abs = row->median_cand - row->median_base;
	row->reason = reason;
}

/* The interval at 1 - alpha and the p-value of a change d (log ratio)
 * read as normal with standard error se (0: known exactly). */
void compare_normal_interval(const struct compare_test *t, struct pdb_compare_row *row,
			     double d, double se)
{
	double z = pdb_stats_norm_isf(t->alpha / 2);

	row->ci_low_pct = pct_of_log(d - z * se);
	row->ci_high_pct = pct_of_log(d + z * se);
	row->p_value = se > 0 ? fmin(1, 2 * pdb_stats_norm_sf(fabs(d) / se)) : d == 0;
}

/* One run against one run, not an A/B pair, with no history of the
 * series: the samples' interval says how much the run's own samples vary,
 * not how much the next run will move under another load. Widen it by
 * the run-to-run noise assumed for the metric (each side's location varies
 * by t->run_noise), and test the change against both: the log interval's
 * half-width becomes sqrt(w^2 + (z sqrt 2 tau)^2). */
static void add_run_noise(struct compare_test *t, struct pdb_compare_row *row)
{
	double z = pdb_stats_norm_isf(t->alpha / 2), se_w;

	if (t->paired || !t->one_run_a_side || !(t->run_noise > 0) ||
	    isnan(row->ci_low_pct) || isnan(row->change_pct))
		return;
	se_w = (log1p(row->ci_high_pct / 100) - log1p(row->ci_low_pct / 100)) / (2 * z);
	compare_normal_interval(t, row, log1p(row->change_pct / 100),
			sqrt(se_w * se_w + 2 * t->run_noise * t->run_noise));
	row->run_noise_pct = pct_of_log(t->run_noise);
	row->band = "samples+run noise";
}

/* A near-exact count (instructions): repetitions agree to within a tiny
 * spread, so the change of the medians is known to within that spread,
 * the larger side's in log terms, plus the run-to-run noise assumed for
 * the count (ASLR, the environment's size: t->run_noise a run). A rank
 * test of values that tie could not tell +2 % from +0.01 %; this can. */
void compare_exact(struct compare_test *t, struct pdb_compare_row *row, const double *b,
			  const double *a)
{
	double z = pdb_stats_norm_isf(t->alpha / 2), spread = 0, d, hw;

	for (int side = 0; side < 2; side++) {
		const double *v = side ? a : b;
		size_t n = side ? row->n_cand : row->n_base;
		double lo = v[0], hi = v[0];
		for (size_t i = 1; i < n; i++) {
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
		spread = fmax(spread, log(hi / lo));
	}
	d = log(row->median_cand / row->median_base);
	hw = spread + z * M_SQRT2 * t->run_noise;
	row->test = "exact";
	row->band = "samples";
	row->change_pct = pct_of_log(d);
	compare_normal_interval(t, row, d, hw / z);
	if (t->run_noise > 0)
		row->run_noise_pct = pct_of_log(t->run_noise);
}

/* Statistics of a series with several values a side: paired for an A/B
 * pair, else Mann-Whitney with the Hodges-Lehmann interval, else (too few
 * values for a rank test at alpha) Welch. */
void compare_samples(struct compare_test *t, struct pdb_compare_row *row, const double *b,
			    const double *a, int positive)
{
	struct pdb_mwu mwu;
	double est, lo, hi;
	double *lb, *la;

	row->band = "samples";
	if (t->paired && positive && row->n_base == row->n_cand && row->n_base <= PDB_STATS_PAIRED_MAX &&
	    pdb_stats_signed_rank_min_p(row->n_base) <= t->alpha && fine_grained(b, a, row->n_base)) {
		pdb_grow((void **)&t->scratch, &t->scratch_cap, row->n_base, sizeof *t->scratch);
		for (size_t i = 0; i < row->n_base; i++)
			t->scratch[i] = log(a[i]) - log(b[i]);
		pdb_stats_signed_rank(t->scratch, row->n_base, &mwu);
		pdb_stats_hodges_lehmann_paired(t->scratch, row->n_base, 1 - t->alpha, &est, &lo, &hi);
		row->p_value = mwu.p;
		row->change_pct = pct_of_log(est);
		row->ci_low_pct = pct_of_log(lo);
		row->ci_high_pct = pct_of_log(hi);
		row->test = "wilcoxon-signed-rank";
		t->npaired++;
		return;
	}
	if (pdb_stats_mwu_min_p(row->n_base, row->n_cand) > t->alpha) {
		if (row->n_base >= WELCH_MIN_N && row->n_cand >= WELCH_MIN_N) {
			compare_welch(t, row, b, a, positive);
			add_run_noise(t, row);
		} else
			compare_median_change(row, positive,
				      pdb_xasprintf("needs at least %d values a side (has %zu and %zu)",
						    WELCH_MIN_N, row->n_base, row->n_cand));
		return;
	}
	row->test = "mann-whitney";
	if (t->hl_nx != row->n_base || t->hl_ny != row->n_cand) {
		t->hl_nx = row->n_base;
		t->hl_ny = row->n_cand;
		t->hl_k = pdb_stats_hl_rank(row->n_base, row->n_cand, 1 - t->alpha);
	}
	pdb_stats_mann_whitney(a, row->n_cand, b, row->n_base, &mwu);
	row->p_value = mwu.p;
	if (positive) {
		pdb_grow((void **)&t->scratch, &t->scratch_cap, row->n_base + row->n_cand,
			 sizeof *t->scratch);
		lb = t->scratch;
		la = t->scratch + row->n_base;
		for (size_t i = 0; i < row->n_base; i++)
			lb[i] = log(b[i]);
		for (size_t i = 0; i < row->n_cand; i++)
			la[i] = log(a[i]);
		pdb_stats_hodges_lehmann_at(lb, row->n_base, la, row->n_cand, t->hl_k,
					    &est, &lo, &hi);
		row->change_pct = pct_of_log(est);
		row->ci_low_pct = pct_of_log(lo);
		row->ci_high_pct = pct_of_log(hi);
		add_run_noise(t, row);
	} else {
		pdb_stats_hodges_lehmann_at(b, row->n_base, a, row->n_cand, t->hl_k,
					    &row->change_abs, &row->ci_low_abs,
					    &row->ci_high_abs);
	}
}
