/* Compare's geometric means per metric (lib/compare_geomean.c). */
#ifndef PDB_COMPARE_GEOMEAN_H
#define PDB_COMPARE_GEOMEAN_H

#include "compare_row.h"

/* out->geomean from out->rows (shown, gated rows with a direction and a
 * percentage), at out->alpha. */
void pdb_compare_geomeans(struct pdb_compare *out);

#endif
