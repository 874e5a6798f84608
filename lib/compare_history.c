/* The run-to-run noise of a series' history on the baseline's branch, as
 * compare's history test reads it (lib/compare_test_history.c; the test
 * is docs/gate-noise.md's). */
#include "compare_history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"
#include "util.h"

#define HISTORY_RUNS PDB_COMPARE_HISTORY_RUNS
#define LEVEL_RUNS PDB_COMPARE_LEVEL_RUNS
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
	pdb_stats_sort(chg, n);
	cap = CAP * pdb_stats_quantile(chg, n, 0.5);
	for (size_t i = 0; i < n; i++)
		sum += fmin(chg[i], cap);
	return sum / (double)n / CAPPED_MEAN_ABS_NORMAL;
}

/* The standard error of the median of log values read from their
 * quartiles: a normal sample's IQR is 1.349 SD, its median's error
 * 1.2533 SD / sqrt(n). 0 with fewer than 2 values. */
double compare_log_median_se(double q1, double q3, size_t n)
{
	if (n < 2 || !(q1 > 0) || !(q3 >= q1))
		return 0;
	return 1.2533 * log(q3 / q1) / 1.349 / sqrt((double)n);
}

/* The run-to-run noise of a series on the baseline's branch, from its
 * newest HISTORY_RUNS runs up to the baseline (the candidate left out):
 * *tau_d, the SD of the change of a run's location (log median) from one
 * run to the next, read robustly as the 75th percentile of the absolute
 * changes (a step in the history moves one change, not the scale); *se2,
 * the mean squared error of a run's median from its own samples. Returns
 * the runs read (0 when the series has no stored history). */
size_t compare_history_noise(const struct pdb_compare_history *h, int64_t cand_id,
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
		se = compare_log_median_se(p->q1, p->q3, p->n);
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
