/* Adaptive A/B runs: when to look at the pairs so far, and what a look says. */
#include "runner/adaptive.h"

#include <math.h>

#include "stats.h"

/* The fewest pairs whose signed-rank test can give p <= alpha, or 0 when
 * more than PDB_STATS_PAIRED_MAX. */
static int first_pairs(double alpha)
{
	for (size_t n = 1; n <= PDB_STATS_PAIRED_MAX; n++)
		if (pdb_stats_signed_rank_min_p(n) <= alpha)
			return (int)n;
	return 0;
}

/* Looks from first to last, 1.5 times as many pairs each; how many. */
static size_t geometric(int first, int last, int *looks)
{
	size_t n = 0;

	for (int at = first; n < PDB_ADAPTIVE_MAX_LOOKS; at = (int)ceil(at * 1.5)) {
		/* a look within a fifth of the last is the last */
		if (at >= last || at * 1.2 >= last || n + 1 == PDB_ADAPTIVE_MAX_LOOKS) {
			looks[n++] = last;
			break;
		}
		looks[n++] = at;
	}
	return n;
}

int pdb_adaptive_schedule(double alpha, int max_repeat, struct pdb_adaptive_schedule *out,
			  struct pdb_err *err)
{
	out->alpha = alpha;
	/* the first look and the number of looks K depend on each other: try
	 * K = 1, 2, ... until the schedule started where alpha / K can first
	 * be reached has no more than K looks. Bonferroni needs alpha over
	 * the looks the schedule has, which is then no more than K, so that
	 * its first look can reach its alpha too. */
	for (size_t k = 1; k <= PDB_ADAPTIVE_MAX_LOOKS; k++) {
		int first = first_pairs(alpha / (double)k);
		if (first == 0 || first > max_repeat)
			break;
		out->nlooks = geometric(first, max_repeat, out->looks);
		if (out->nlooks > k)
			continue;
		out->look_alpha = alpha / (double)out->nlooks;
		return 0;
	}
	if (first_pairs(alpha) && first_pairs(alpha) <= max_repeat) {
		out->looks[0] = max_repeat; /* one look, at the end */
		out->nlooks = 1;
		out->look_alpha = alpha;
		return 0;
	}
	return pdb_err_set(err, PDB_EXIT_USAGE, "max_repeat %d: too few pairs for the signed-rank test "
			   "to reach alpha %g (it needs %d)", max_repeat, alpha, first_pairs(alpha));
}

int pdb_adaptive_row_gated(const struct pdb_compare_row *row)
{
	return row->direction != PDB_DIR_NONE && row->gated && row->hidden == PDB_SHOWN;
}

int pdb_adaptive_row_open(const struct pdb_compare_row *row)
{
	if (!pdb_adaptive_row_gated(row) || row->failed_in_base)
		return 0;
	return row->verdict == PDB_VERDICT_INCONCLUSIVE || row->verdict == PDB_VERDICT_INSUFFICIENT;
}
