/* A move shared by every benchmark of a run: the load of a shared runner
 * (lib/compare_run_wide.c). */
#ifndef PDB_COMPARE_RUN_WIDE_H
#define PDB_COMPARE_RUN_WIDE_H

#include <stddef.h>
#include <stdint.h>

#include "compare_input.h"
#include "compare_row.h"

/* Fewer series of a metric than this: the run-wide move is not read (the
 * median of two changes is their mean, not robust to one real change). */
#define PDB_RUN_WIDE_MIN_SERIES 3

/* For each metric with PDB_RUN_WIDE_MIN_SERIES or more compared rows (a
 * change and an interval in %): the run's move is the median of their log
 * changes. When that move is not itself significant at alpha (against the
 * run-wide moves of the rows' histories, runs of in other than cand_id,
 * when 4 or more can be read; else against the rows' assumed run-to-run
 * noise; never when neither is known), a regression or an improvement
 * stands only when it holds net of the move; else the row becomes
 * inconclusive and says why; every row of the metric gets the move as
 * run_wide_pct (else it stays NaN). Verdicts must be set; not for an A/B pair (paired: nothing is
 * done). A pure function of the rows and the histories. */
void pdb_compare_check_run_wide(struct pdb_compare_row *rows, size_t n,
				const struct pdb_compare_input *in, int64_t cand_id, double alpha,
				int paired);

#endif
