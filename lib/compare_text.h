/* Compare text: the cells of a comparison row as people read them (text, Markdown, reports). */
#ifndef PDB_COMPARE_TEXT_H
#define PDB_COMPARE_TEXT_H

#include <stddef.h>

#include "compare.h"

/* A value in its unit ("12.5 ms"), "-" for NaN. */
void pdb_compare_value_text(double v, const char *unit, char *out, size_t size);
/* "+9.8%", or a signed absolute change ("+2 ms") when values are <= 0, or "-". */
void pdb_compare_change_text(const struct pdb_compare_row *r, char *out, size_t size);
/* "[+7.7%, +11.9%]", or for one value a side the band and where it came
 * from ("±5.0% static"), or "-". */
void pdb_compare_interval_text(const struct pdb_compare_row *r, char *out, size_t size);
/* "0.0079", "1.1e-05" below 1e-4, "-" for NaN. */
void pdb_compare_p_text(double p, char *out, size_t size);

#endif
