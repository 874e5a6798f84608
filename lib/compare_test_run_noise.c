/* Compare's test of one value a side with the run-to-run noise assumed of
 * its metric (a CPU time, one run against one, no history), and the same
 * noise added to the samples' interval of one run against one. */
#include <math.h>

#include "compare_strategy.h"
#include "stats.h"

static int run_noise_summary(struct compare_test *t, const struct compare_side *side,
			     struct compare_summary *s)
{
	(void)t;
	s->median = side->median;
	return 0;
}

/* The assumed noise is all the spread there is: each side's location
 * varies by t->run_noise. */
static int run_noise_compare(struct compare_test *t, const struct compare_summary *b,
			     const struct compare_summary *a, struct pdb_compare_row *row)
{
	double d = log(a->median / b->median);

	row->test = "run-noise";
	row->band = "run noise";
	row->change_pct = pdb_stats_pct_of_log(d);
	compare_normal_interval(t, row, d, M_SQRT2 * t->run_noise);
	row->run_noise_pct = pdb_stats_pct_of_log(t->run_noise);
	return 0;
}

const struct compare_strategy compare_test_run_noise = {
	.name = "run-noise",
	.summary = run_noise_summary,
	.compare = run_noise_compare,
};

/* One run against one run, not an A/B pair, with no history of the
 * series: the samples' interval says how much the run's own samples vary,
 * not how much the next run will move under another load. Widen it by
 * the run-to-run noise assumed for the metric (each side's location varies
 * by t->run_noise), and test the change against both: the log interval's
 * half-width becomes sqrt(w^2 + (z sqrt 2 tau)^2). */
void compare_add_run_noise(const struct compare_test *t, struct pdb_compare_row *row)
{
	double z = pdb_stats_norm_isf(t->alpha / 2), se_w;

	if (t->paired || !t->one_run_a_side || !(t->run_noise > 0) ||
	    isnan(row->ci_low_pct) || isnan(row->change_pct))
		return;
	se_w = (log1p(row->ci_high_pct / 100) - log1p(row->ci_low_pct / 100)) / (2 * z);
	compare_normal_interval(t, row, log1p(row->change_pct / 100),
				sqrt(se_w * se_w + 2 * t->run_noise * t->run_noise));
	row->run_noise_pct = pdb_stats_pct_of_log(t->run_noise);
	row->band = "samples+run noise";
}
