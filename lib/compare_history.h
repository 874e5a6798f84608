/* Compare's history test (lib/compare_history.c). */
#ifndef PDB_COMPARE_HISTORY_H
#define PDB_COMPARE_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "compare_input.h"
#include "compare_row.h"

/* The candidate's median (row->median_cand, a values) against the
 * baseline's (row->median_base, nbase runs, b values) and the run-to-run
 * noise of h, the series' newest runs on the baseline's branch (cand_id,
 * the candidate, left out): fills the row's change, interval, p-value,
 * test "history" and n_history at level 1 - alpha. Returns 1 when decided,
 * 0 when h is NULL or holds fewer than PDB_COMPARE_HISTORY_MIN_RUNS runs
 * with a value (the row untouched). */
int pdb_compare_test_history(const struct pdb_compare_history *h, int64_t cand_id, size_t nbase,
			     double alpha, struct pdb_compare_row *row, const double *b,
			     const double *a);

/* The SD of a change of a run's location from one run to the next, from
 * n absolute changes (sorted in place): their mean, each capped at 3
 * times their median (a step or a spike is one or two large changes, not
 * the scale), over that mean for normal changes. 0 when n is 0. */
double pdb_compare_change_scale(double *chg, size_t n);

/* Degrees of freedom of that scale per change it is read from. */
#define PDB_COMPARE_SCALE_DF_PER_CHANGE 0.6

#endif
