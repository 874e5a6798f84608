/* Compare's test of samples too small for a rank test to reach alpha
 * (3 against 3 cannot give p < 0.1), where a t test still can: Welch's t
 * test of the shift, on the logs when every value is above 0 (the change
 * as a ratio). */
#include "compare_strategy.h"
#include "stats.h"

static int welch_summary(struct compare_test *t, const struct compare_side *side,
			 struct compare_summary *s)
{
	s->v = side->v;
	s->n = side->n;
	s->logs = t->positive ? compare_side_logs(t, side) : NULL;
	return 0;
}

static int welch_compare(struct compare_test *t, const struct compare_summary *b,
			 const struct compare_summary *a, struct pdb_compare_row *row)
{
	struct pdb_welch w;

	if (pdb_stats_welch(t->positive ? b->logs : b->v, b->n, t->positive ? a->logs : a->v,
			    a->n, 1 - t->alpha, &w) < 0)
		return -1; /* not finite: no interval, insufficient */
	row->test = t->positive ? "welch-t-log" : "welch-t";
	row->p_value = w.p;
	if (t->positive) {
		row->change_pct = pdb_stats_pct_of_log(w.shift);
		row->ci_low_pct = pdb_stats_pct_of_log(w.lo);
		row->ci_high_pct = pdb_stats_pct_of_log(w.hi);
	} else {
		row->change_abs = w.shift;
		row->ci_low_abs = w.lo;
		row->ci_high_abs = w.hi;
	}
	return 0;
}

const struct compare_strategy compare_test_welch = {
	.name = "welch-t",
	.summary = welch_summary,
	.compare = welch_compare,
};
