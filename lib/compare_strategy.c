/* What compare's tests share (lib/compare_strategy.h): a strategy asked of a
 * series, a side's logs, a normal interval. */
#include "compare_strategy.h"

#include <math.h>

#include "stats.h"
#include "util.h"

const double *compare_side_logs(struct compare_test *t, const struct compare_side *side)
{
	double *l;

	pdb_grow((void **)&t->logs[side->cand], &t->logs_cap[side->cand], side->n ? side->n : 1,
		 sizeof *l);
	l = t->logs[side->cand];
	for (size_t i = 0; i < side->n; i++)
		l[i] = log(side->v[i]);
	return l;
}

void compare_normal_interval(const struct compare_test *t, struct pdb_compare_row *row,
			     double d, double se)
{
	double z = pdb_stats_norm_isf(t->alpha / 2);

	row->ci_low_pct = pdb_stats_pct_of_log(d - z * se);
	row->ci_high_pct = pdb_stats_pct_of_log(d + z * se);
	row->p_value = se > 0 ? fmin(1, 2 * pdb_stats_norm_sf(fabs(d) / se)) : d == 0;
}

int compare_decides(const struct compare_strategy *st, struct compare_test *t,
		    struct pdb_compare_row *row, const struct compare_side *b,
		    const struct compare_side *a)
{
	struct compare_summary sb = { 0 }, sa = { 0 };

	return st->summary(t, b, &sb) == 0 && st->summary(t, a, &sa) == 0 &&
	       st->compare(t, &sb, &sa, row) == 0;
}
