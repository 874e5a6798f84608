/* Compare's history test: a candidate run against the run-to-run noise of
 * the baseline branch's runs (docs/gate-noise.md), that noise read from
 * the history by lib/compare_history.c. */
#include "compare_history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_strategy.h"
#include "stats.h"
#include "util.h"

#define LEVEL_SPIKE 4.0      /* the farthest a baseline run is taken for a spike of the
			      * load off that level, in run-to-run changes' SDs */

/* The standard error of the log median of raw values above 0 (one run's
 * samples), from their quartiles. */
static double values_median_se(const double *v, size_t n)
{
	double *sorted, se;

	if (n < 2)
		return 0;
	sorted = pdb_xmalloc(n * sizeof *sorted);
	memcpy(sorted, v, n * sizeof *sorted);
	pdb_stats_sort(sorted, n);
	se = compare_log_median_se(pdb_stats_quantile(sorted, n, 0.25),
				   pdb_stats_quantile(sorted, n, 0.75), n);
	free(sorted);
	return se;
}

/* The side's median (above 0), and for one run its median's error. */
static int history_summary(struct compare_test *t, const struct compare_side *side,
			   struct compare_summary *s)
{
	(void)t;
	if (!(side->median > 0))
		return -1;
	s->median = side->median;
	s->nruns = side->nruns;
	s->se = side->nruns == 1 ? values_median_se(side->v, side->n) : 0;
	return 0;
}

/* A random-effects view: each run's location varies around the branch's
 * level by a between-run spread, and its median by its own samples' error.
 * The change is the candidate's log median minus the baseline's (one run)
 * or the median of the baseline runs' medians (a group); its interval is
 * Student's t at the history's degrees of freedom times the SD the model
 * predicts for that difference. -1 with fewer than
 * PDB_COMPARE_HISTORY_MIN_RUNS runs of history. */
static int history_compare(struct compare_test *t, const struct compare_summary *b,
			   const struct compare_summary *a, struct pdb_compare_row *row)
{
	double tau_d = 0, se2 = 0, level = NAN, tau_b2, var_ref, var_cand, sd, d, q, df;
	size_t k;

	if ((k = compare_history_noise(t->history, t->cand_id, &tau_d, &se2, &level)) <
	    PDB_COMPARE_HISTORY_MIN_RUNS)
		return -1;
	/* a change between two runs holds twice a run's variance */
	tau_b2 = fmax(0, tau_d * tau_d / 2 - se2);
	if (b->nruns == 1)
		var_ref = tau_b2 + b->se * b->se;
	else /* the median of nbase run values: pi/2 times the variance of their mean */
		var_ref = M_PI / 2 * (tau_b2 + se2) / (double)b->nruns;
	var_cand = tau_b2 + a->se * a->se;
	sd = sqrt(var_ref + var_cand);
	df = fmax(1, PDB_COMPARE_SCALE_DF_PER_CHANGE * (double)(k - 1));
	d = log(a->median) - log(b->median);
	q = sd > 0 ? pdb_stats_t_isf(t->alpha / 2, df) : 0;
	row->p_value = sd > 0 ? fmin(1, 2 * pdb_stats_t_sf(fabs(d) / sd, df)) : d == 0;
	row->change_pct = pdb_stats_pct_of_log(d);
	row->ci_low_pct = pdb_stats_pct_of_log(d - q * sd);
	row->ci_high_pct = pdb_stats_pct_of_log(d + q * sd);
	if (b->nruns == 1 && isfinite(level) && sd > 0 &&
	    fabs(log(b->median) - level) <= LEVEL_SPIKE * tau_d) {
		/* one baseline run may itself be a spike of the load: the change
		 * must hold against the branch's level too (the median of its
		 * newest runs), and the row keeps the weaker of the two tests. A
		 * baseline further off the level than a spike goes is another
		 * regime (a release measured apart, a revert), not the load's. */
		double d2 = log(a->median) - level;
		double sd2 = sqrt(M_PI / 2 * (tau_b2 + se2) / PDB_COMPARE_LEVEL_RUNS + var_cand);
		double p2 = d2 * d > 0 ? fmin(1, 2 * pdb_stats_t_sf(fabs(d2) / sd2, df)) : 1;
		row->p_value = fmax(row->p_value, p2);
		row->ci_low_pct = fmin(row->ci_low_pct, pdb_stats_pct_of_log(d2 - q * sd2));
		row->ci_high_pct = fmax(row->ci_high_pct, pdb_stats_pct_of_log(d2 + q * sd2));
	}
	row->band = "history";
	row->test = "history";
	row->n_history = (size_t)k;
	row->history_spread_pct = pdb_stats_pct_of_log(tau_d / M_SQRT2);
	return 0;
}

const struct compare_strategy compare_test_history = {
	.name = "history",
	.summary = history_summary,
	.compare = history_compare,
};

int pdb_compare_test_history(const struct pdb_compare_history *h, int64_t cand_id, size_t nbase,
			     double alpha, struct pdb_compare_row *row, const double *b,
			     const double *a)
{
	struct compare_test t = { .alpha = alpha, .history = h, .cand_id = cand_id };
	struct compare_side sb = { b, row->n_base, row->median_base, nbase, NULL, 0 };
	struct compare_side sa = { a, row->n_cand, row->median_cand, 1, NULL, 1 };

	return h && compare_decides(&compare_test_history, &t, row, &sb, &sa);
}
