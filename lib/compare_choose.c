/* Which test a series gets: the one rule over compare's tests (each a
 * strategy of its own file, lib/compare_strategy.h), and what a row with too
 * little to test says. */
#include <math.h>
#include <stdlib.h>

#include "compare_strategy.h"
#include "compare_verdict.h"
#include "stats.h"
#include "util.h"

/* Welch's test below this many values a side has one degree of freedom or
 * so: an interval of [-99 %, +12000 %] says less than "insufficient". */
#define WELCH_MIN_N 3

/* A row with too little to test: the change of the medians, and why. */
static void median_change(const struct compare_test *t, struct pdb_compare_row *row,
			  char *reason)
{
	if (t->positive)
		row->change_pct = pdb_compare_median_change_pct(row);
	else
		row->change_abs = row->median_cand - row->median_base;
	row->reason = reason;
}

/* Several values a side: paired for an A/B pair, else Mann-Whitney with
 * the Hodges-Lehmann interval, else (too few values for a rank test at
 * alpha) Welch, else insufficient. */
static void several_a_side(struct compare_test *t, struct pdb_compare_row *row,
			   const struct compare_side *b, const struct compare_side *a)
{
	row->band = "samples";
	if (t->paired && t->positive && b->n == a->n && b->n <= PDB_STATS_PAIRED_MAX &&
	    pdb_stats_signed_rank_min_p(b->n) <= t->alpha &&
	    compare_decides(&compare_test_paired, t, row, b, a))
		return;
	if (pdb_stats_mwu_min_p(b->n, a->n) <= t->alpha)
		compare_decides(&compare_test_rank, t, row, b, a);
	else if (b->n >= WELCH_MIN_N && a->n >= WELCH_MIN_N)
		compare_decides(&compare_test_welch, t, row, b, a); /* not finite: insufficient */
	else {
		median_change(t, row, pdb_xasprintf("needs at least %d values a side (has %zu and %zu)",
						    WELCH_MIN_N, b->n, a->n));
		return;
	}
	compare_add_run_noise(t, row);
}

/* One value a side: a histogram's counts give intervals; a CPU time of one
 * run against one is tested against its assumed run-to-run noise. An
 * aggregate with no spread and no history is insufficient, whatever its
 * values: no fixed band calls it changed, and none calls it unchanged. */
static void one_a_side(struct compare_test *t, struct pdb_compare_row *row,
		       const struct compare_side *b, const struct compare_side *a)
{
	row->band = NULL;
	if (!t->positive && row->median_cand != row->median_base) {
		median_change(t, row, pdb_xstrdup("one value a side, not all above 0: "
						   "no ratio to judge"));
		return;
	}
	/* equal values are no proof either: 0 and 0 is as insufficient as 5 and 5 */
	median_change(t, row, NULL);
	if (t->positive && t->one_run_a_side &&
	    compare_decides(&compare_test_histogram, t, row, b, a))
		return;
	if (t->positive && t->single_noise && t->run_noise > 0 && !t->paired &&
	    t->one_run_a_side && compare_decides(&compare_test_run_noise, t, row, b, a))
		return;
	row->reason = pdb_xasprintf("one value a side and fewer than %d runs of history%s%s: "
				    "no spread to judge", PDB_COMPARE_HISTORY_MIN_RUNS,
				    t->branch ? " on " : "", t->branch ? t->branch : "");
}

void compare_test_series(struct compare_test *t, struct pdb_compare_row *row,
			 const struct compare_side *b, const struct compare_side *a,
			 int exact_count)
{
	/* history: one candidate run, not an A/B pair, a stored baseline */
	if (t->history && !t->paired && a->nruns == 1 &&
	    compare_decides(&compare_test_history, t, row, b, a))
		return;
	if (exact_count && t->positive)
		compare_decides(&compare_test_exact, t, row, b, a);
	else if (b->n >= 2 && a->n >= 2)
		several_a_side(t, row, b, a);
	else
		one_a_side(t, row, b, a);
}
