/* What the files of the comparison share: its own, not an interface of lib/. */
#ifndef PDB_COMPARE_INTERNAL_H
#define PDB_COMPARE_INTERNAL_H

#include <math.h>

/* qsort's order of doubles. */
static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* A change in logs as a percentage. */
static inline double pct_of_log(double d)
{
	return 100 * expm1(d) + 0.0; /* + 0.0: no "-0" */
}

#endif
