/* Compare text: the cells of a comparison row as people read them (text, Markdown, reports). */
#ifndef PDB_COMPARE_TEXT_H
#define PDB_COMPARE_TEXT_H

#include <stddef.h>

#include "compare.h"
#include "util.h"

/* A value in its unit ("12.5 ms"), "-" for NaN. */
void pdb_compare_value_text(double v, const char *unit, char *out, size_t size);
/* "+9.8%", or a signed absolute change ("+2 ms") when values are <= 0, or "-". */
void pdb_compare_change_text(const struct pdb_compare_row *r, char *out, size_t size);
/* "[+7.7%, +11.9%]", an absolute one ("[-1 ms, +19 ms]") when values are
 * <= 0, or "-". */
void pdb_compare_interval_text(const struct pdb_compare_row *r, char *out, size_t size);
/* "0.0079", "1.1e-05" below 1e-4, "-" for NaN. */
void pdb_compare_p_text(double p, char *out, size_t size);
/* The verdict cell: "regression", "regression (warn)", "failed: REASON". */
void pdb_compare_verdict_text(const struct pdb_compare_row *r, char *out, size_t size);
/* The test that decided, short: "rank" (Mann-Whitney), "paired" (Wilcoxon
 * signed-rank), "welch", "history (12 runs)", "histogram", or "-". */
void pdb_compare_test_text(const struct pdb_compare_row *r, char *out, size_t size);
/* Every cell of a row as the table and JUnit write them. */
struct pdb_compare_cells {
	char n[48], base[64], cand[64], change[64], interval[160], p[32], test[48], verdict[600];
};
void pdb_compare_row_cells(const struct pdb_compare_row *r, struct pdb_compare_cells *c);
/* "test: rank = Mann-Whitney U test of the samples; ..." for the tests the
 * rows of c used (shown and hidden alike), or nothing when none was. Plain
 * text with no data in it. */
void pdb_compare_tests_note(const struct pdb_compare *c, struct pdb_buf *b);

#endif
