/* Compare's history test: a candidate run against the run-to-run noise of
 * the baseline branch's runs (docs/gate-noise.md). */
#include "compare_history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_internal.h"
#include "model.h"
#include "stats.h"
#include "util.h"

#define HISTORY_RUNS PDB_COMPARE_HISTORY_RUNS
#define HISTORY_MIN_RUNS PDB_COMPARE_HISTORY_MIN_RUNS
#define LEVEL_RUNS 3         /* the branch's level: the median of its newest runs */
#define LEVEL_SPIKE 4.0      /* the farthest a baseline run is taken for a spike of the
			      * load off that level, in run-to-run changes' SDs */
/* The absolute changes from one run to the next, each capped at CAP times
 * their median (a step or a spike in the history is one or two changes,
 * which then count as large, not as the scale), have a mean of
 * CAPPED_MEAN_ABS_NORMAL times the changes' SD when they are normal:
 * E min(|Z|, a) for a = 3 x 0.6745 (3 median absolute values). */
#define CAP 3.0
#define CAPPED_MEAN_ABS_NORMAL 0.7819
/* Degrees of freedom of that scale per change it is read from
 * (PDB_COMPARE_SCALE_DF_PER_CHANGE: successive changes overlap, and a mean
 * of absolute values is less efficient than a variance): calibrated by the
 * seeded sequential A/A gates of tests/unit/test_compare_gate.c. A quantile
 * scale (the 75th percentile of the changes) had 0.37 a change: with 6-10
 * runs of history its interval was so wide that a +64 % change passed as
 * inconclusive. */

double pdb_compare_change_scale(double *chg, size_t n)
{
	double sum = 0, cap;

	if (n == 0)
		return 0;
	qsort(chg, n, sizeof *chg, pdb_cmp_double);
	cap = CAP * pdb_stats_quantile(chg, n, 0.5);
	for (size_t i = 0; i < n; i++)
		sum += fmin(chg[i], cap);
	return sum / (double)n / CAPPED_MEAN_ABS_NORMAL;
}

/* The standard error of the median of log values read from their
 * quartiles: a normal sample's IQR is 1.349 SD, its median's error
 * 1.2533 SD / sqrt(n). 0 with fewer than 2 values. */
static double log_median_se(double q1, double q3, size_t n)
{
	if (n < 2 || !(q1 > 0) || !(q3 >= q1))
		return 0;
	return 1.2533 * log(q3 / q1) / 1.349 / sqrt((double)n);
}

/* The same for raw values above 0 (one run's samples). */
static double values_median_se(const double *v, size_t n)
{
	double *sorted, se;

	if (n < 2)
		return 0;
	sorted = pdb_xmalloc(n * sizeof *sorted);
	memcpy(sorted, v, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, pdb_cmp_double);
	se = log_median_se(pdb_stats_quantile(sorted, n, 0.25),
			   pdb_stats_quantile(sorted, n, 0.75), n);
	free(sorted);
	return se;
}

/* The run-to-run noise of a series on the baseline's branch, from its
 * newest HISTORY_RUNS runs up to the baseline (the candidate left out):
 * *tau_d, the SD of the change of a run's location (log median) from one
 * run to the next, read robustly as the 75th percentile of the absolute
 * changes (a step in the history moves one change, not the scale); *se2,
 * the mean squared error of a run's median from its own samples. Returns
 * the runs read (0 when the series has no stored history). */
static size_t history_noise(const struct pdb_compare_history *h, int64_t cand_id,
			    double *tau_d, double *se2, double *level)
{
	const struct pdb_run_value *pts;
	double *loc = NULL, *chg = NULL;
	size_t npts, k = 0, skip = 0;

	if (!h)
		return 0;
	pts = h->pts;
	npts = h->n;
	loc = pdb_xmalloc((npts ? npts : 1) * sizeof *loc);
	chg = pdb_xmalloc((npts ? npts : 1) * sizeof *chg);
	*se2 = 0;
	for (size_t i = 0; i < npts; i++)
		skip += pts[i].run_id != cand_id && pts[i].value > 0 && isfinite(pts[i].value);
	skip = skip > HISTORY_RUNS ? skip - HISTORY_RUNS : 0; /* the newest only */
	for (size_t i = 0; i < npts; i++) {
		const struct pdb_run_value *p = &pts[i];
		double se;
		if (p->run_id == cand_id || !(p->value > 0) || !isfinite(p->value))
			continue;
		if (skip) {
			skip--;
			continue;
		}
		loc[k] = log(p->value);
		if (k > 0)
			chg[k - 1] = fabs(loc[k] - loc[k - 1]);
		se = log_median_se(p->q1, p->q3, p->n);
		*se2 += se * se;
		k++;
	}
	if (k < 2)
		goto out;
	*se2 /= (double)k;
	/* the branch's level: the median of its newest LEVEL_RUNS runs */
	{
		double last[LEVEL_RUNS];
		size_t nl = k < LEVEL_RUNS ? k : LEVEL_RUNS;
		memcpy(last, loc + k - nl, nl * sizeof *last);
		*level = pdb_stats_median(last, nl);
	}
	*tau_d = pdb_compare_change_scale(chg, k - 1);
out:
	free(loc);
	free(chg);
	return k;
}

/* The candidate run against the run-to-run noise of the baseline's branch
 * (a random-effects view: each run's location varies around the branch's
 * level by a between-run spread, and its median by its own samples' error).
 * The change is the candidate's log median minus the baseline's (one run)
 * or the median of the baseline runs' medians (a group); its interval is
 * Student's t at the history's degrees of freedom times the SD the model
 * predicts for that difference. */
int pdb_compare_test_history(const struct pdb_compare_history *h, int64_t cand_id, size_t nbase,
			     double alpha, struct pdb_compare_row *row, const double *b,
			     const double *a)
{
	double tau_d = 0, se2 = 0, level = NAN, tau_b2, var_ref, var_cand, se, sd, d, q, df;
	size_t k;

	if (!h || !(row->median_base > 0) || !(row->median_cand > 0))
		return 0;
	if ((k = history_noise(h, cand_id, &tau_d, &se2, &level)) < HISTORY_MIN_RUNS)
		return 0;
	/* a change between two runs holds twice a run's variance */
	tau_b2 = fmax(0, tau_d * tau_d / 2 - se2);
	if (nbase == 1) {
		se = values_median_se(b, row->n_base);
		var_ref = tau_b2 + se * se;
	} else {
		/* the median of nbase run values: pi/2 times the variance of their mean */
		var_ref = M_PI / 2 * (tau_b2 + se2) / (double)nbase;
	}
	se = values_median_se(a, row->n_cand);
	var_cand = tau_b2 + se * se;
	sd = sqrt(var_ref + var_cand);
	df = fmax(1, PDB_COMPARE_SCALE_DF_PER_CHANGE * (double)(k - 1));
	d = log(row->median_cand) - log(row->median_base);
	q = sd > 0 ? pdb_stats_t_isf(alpha / 2, df) : 0;
	row->p_value = sd > 0 ? fmin(1, 2 * pdb_stats_t_sf(fabs(d) / sd, df)) : d == 0;
	row->change_pct = pct_of_log(d);
	row->ci_low_pct = pct_of_log(d - q * sd);
	row->ci_high_pct = pct_of_log(d + q * sd);
	if (nbase == 1 && isfinite(level) && sd > 0 &&
	    fabs(log(row->median_base) - level) <= LEVEL_SPIKE * tau_d) {
		/* one baseline run may itself be a spike of the load: the change
		 * must hold against the branch's level too (the median of its
		 * newest runs), and the row keeps the weaker of the two tests. A
		 * baseline further off the level than a spike goes is another
		 * regime (a release measured apart, a revert), not the load's. */
		double d2 = log(row->median_cand) - level;
		double sd2 = sqrt(M_PI / 2 * (tau_b2 + se2) / LEVEL_RUNS + var_cand);
		double p2 = d2 * d > 0 ? fmin(1, 2 * pdb_stats_t_sf(fabs(d2) / sd2, df)) : 1;
		row->p_value = fmax(row->p_value, p2);
		row->ci_low_pct = fmin(row->ci_low_pct, pct_of_log(d2 - q * sd2));
		row->ci_high_pct = fmax(row->ci_high_pct, pct_of_log(d2 + q * sd2));
	}
	row->band = "history";
	row->test = "history";
	row->n_history = (size_t)k;
	row->history_spread_pct = pct_of_log(tau_d / M_SQRT2);
	return 1;
}
