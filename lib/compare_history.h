/* Compare's history test (lib/compare_test_history.c) and the run-to-run
 * noise it reads of a history (lib/compare_history.c). */
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

/* The branch's level: the median of its newest runs, this many. */
#define PDB_COMPARE_LEVEL_RUNS 3

/* The run-to-run noise of h, the series' runs on the baseline's branch
 * (cand_id left out), from its newest PDB_COMPARE_HISTORY_RUNS: *tau_d the
 * SD of a run's log median's change from one run to the next, *se2 the mean
 * squared error of a run's median from its own samples, *level the median
 * of the newest PDB_COMPARE_LEVEL_RUNS (each left as it was with fewer than
 * 2 runs). Returns the runs read, 0 when h is NULL. */
size_t compare_history_noise(const struct pdb_compare_history *h, int64_t cand_id,
			     double *tau_d, double *se2, double *level);

/* The standard error of the median of n log values read from their
 * quartiles q1 and q3 (0 with fewer than 2). */
double compare_log_median_se(double q1, double q3, size_t n);

#endif
