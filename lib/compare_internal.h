/* What the files of the comparison share: its own, not an interface of lib/. */
#ifndef PDB_COMPARE_INTERNAL_H
#define PDB_COMPARE_INTERNAL_H

#include <math.h>
#include <stddef.h>

#include "compare_row.h"
#include "model.h"

/* A change in logs as a percentage. */
static inline double pct_of_log(double d)
{
	return 100 * expm1(d) + 0.0; /* + 0.0: no "-0" */
}

/* Whether a result's samples carry weights (a histogram's buckets). */
static inline int has_weights(const struct pdb_result *r)
{
	for (size_t i = 0; i < r->nsamples; i++)
		if (pdb_sample_has_weight(&r->samples[i]))
			return 1;
	return 0;
}

#endif
