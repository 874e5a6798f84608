/* Compare's test of a near-exact count (instructions): repetitions agree
 * to within a tiny spread, so the change of the medians is known to within
 * that spread, the larger side's in log terms, plus the run-to-run noise
 * assumed for the count (ASLR, the environment's size: t->run_noise a
 * run). A rank test of values that tie could not tell +2 % from +0.01 %;
 * this can. */
#include <math.h>

#include "compare_strategy.h"
#include "stats.h"

/* The side's median and its least and most values. */
static int exact_summary(struct compare_test *t, const struct compare_side *side,
			 struct compare_summary *s)
{
	(void)t;
	s->median = side->median;
	s->lo = s->hi = side->v[0];
	for (size_t i = 1; i < side->n; i++) {
		s->lo = fmin(s->lo, side->v[i]);
		s->hi = fmax(s->hi, side->v[i]);
	}
	return 0;
}

static int exact_compare(struct compare_test *t, const struct compare_summary *b,
			 const struct compare_summary *a, struct pdb_compare_row *row)
{
	double z = pdb_stats_norm_isf(t->alpha / 2), spread, d, hw;

	spread = fmax(fmax(0, log(b->hi / b->lo)), log(a->hi / a->lo));
	d = log(a->median / b->median);
	hw = spread + z * M_SQRT2 * t->run_noise;
	row->test = "exact";
	row->band = "samples";
	row->change_pct = pdb_stats_pct_of_log(d);
	compare_normal_interval(t, row, d, hw / z);
	if (t->run_noise > 0)
		row->run_noise_pct = pdb_stats_pct_of_log(t->run_noise);
	return 0;
}

const struct compare_strategy compare_test_exact = {
	.name = "exact",
	.summary = exact_summary,
	.compare = exact_compare,
};
