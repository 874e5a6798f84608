/* Sorting values with weights for percentiles: a radix sort, fast on large sample sets. */
#ifndef PDB_CHART_SORT_H
#define PDB_CHART_SORT_H

#include <stddef.h>

struct pdb_weighted {
	double v, w;
};

/* Sort a[0..n) by v ascending (NaN last); stable. */
void pdb_chart_sort_weighted(struct pdb_weighted *a, size_t n);

#endif
