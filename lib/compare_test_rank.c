/* Compare's test of several values a side: Mann-Whitney on the samples,
 * with the Hodges-Lehmann estimate of the shift and its interval (of the
 * logs when every value is above 0: the change as a ratio). */
#include "compare_strategy.h"
#include "stats.h"

/* The side's values, and their logs for the interval. */
static int rank_summary(struct compare_test *t, const struct compare_side *side,
			struct compare_summary *s)
{
	s->v = side->v;
	s->n = side->n;
	s->logs = t->positive ? compare_side_logs(t, side) : NULL;
	return 0;
}

/* The rank test of the values (the order of the logs is theirs, so the
 * values are ranked), the shift and its interval at 1 - alpha. */
static int rank_compare(struct compare_test *t, const struct compare_summary *b,
			const struct compare_summary *a, struct pdb_compare_row *row)
{
	struct pdb_mwu mwu;
	double est, lo, hi;

	row->test = "mann-whitney";
	if (t->hl_nx != b->n || t->hl_ny != a->n) {
		t->hl_nx = b->n;
		t->hl_ny = a->n;
		t->hl_k = pdb_stats_hl_rank(b->n, a->n, 1 - t->alpha);
	}
	pdb_stats_mann_whitney(a->v, a->n, b->v, b->n, &mwu);
	row->p_value = mwu.p;
	if (t->positive) {
		pdb_stats_hodges_lehmann_at(b->logs, b->n, a->logs, a->n, t->hl_k, &est, &lo, &hi);
		row->change_pct = pdb_stats_pct_of_log(est);
		row->ci_low_pct = pdb_stats_pct_of_log(lo);
		row->ci_high_pct = pdb_stats_pct_of_log(hi);
	} else {
		pdb_stats_hodges_lehmann_at(b->v, b->n, a->v, a->n, t->hl_k, &row->change_abs,
					    &row->ci_low_abs, &row->ci_high_abs);
	}
	return 0;
}

const struct compare_strategy compare_test_rank = {
	.name = "mann-whitney",
	.summary = rank_summary,
	.compare = rank_compare,
};
