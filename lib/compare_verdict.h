/* Compare's verdict rule (lib/compare_verdict.c), over rows in memory. */
#ifndef PDB_COMPARE_VERDICT_H
#define PDB_COMPARE_VERDICT_H

#include "compare_row.h"

/* The verdict of a compared row (after any Holm adjustment), from its
 * interval against its threshold at level alpha; sets row->warn, and
 * row->reason when inconclusive or insufficient (branch: the history's,
 * named in reasons; NULL: none). */
int pdb_compare_verdict(struct pdb_compare_row *row, double alpha, const char *branch);
/* qsort's order of rows: what fails first, hidden rows last. */
int pdb_compare_row_order(const void *a, const void *b);
/* Whether a row enters the gate's counts. */
int pdb_compare_row_counted(const struct pdb_compare_row *r);
/* The change of a row's medians in %, candidate over baseline; NaN unless
 * both are above 0. */
double pdb_compare_median_change_pct(const struct pdb_compare_row *r);

#endif
