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

/* What the tests of one series read and keep, across the series of a
 * comparison (lib/compare_samples.c, lib/compare_single.c). */
struct compare_test {
	double alpha;
	int paired;           /* an A/B pair: repetition i of each side ran together */
	int one_run_a_side;   /* one run a side */
	const char *branch;   /* the history's branch, named in reasons; NULL: none */
	double run_noise;     /* the series' assumed run-to-run noise (log SD)
			       * before a history exists; 0: none */
	int single_noise;     /* one value a side is tested against it (CPU time) */
	size_t hl_nx, hl_ny, hl_k; /* the interval rank of the last sizes */
	double *scratch;      /* logs and copies of one series, reused */
	size_t scratch_cap;
	size_t npaired;       /* rows tested paired */
};

/* Several values a side (b: the baseline's n_base, a: the candidate's
 * n_cand, all above 0 when positive): paired for an A/B pair, else
 * Mann-Whitney with the Hodges-Lehmann interval, else Welch. */
void compare_samples(struct compare_test *t, struct pdb_compare_row *row, const double *b,
		     const double *a, int positive);
/* A near-exact count: the change of the medians within the repetitions'
 * spread and the run-to-run noise assumed. */
void compare_exact(struct compare_test *t, struct pdb_compare_row *row, const double *b,
		   const double *a);
/* One value a side; rb and rc the results when each side is one result
 * (a histogram's counts give intervals), else NULL. */
void compare_single(struct compare_test *t, struct pdb_compare_row *row,
		    const struct pdb_result *rb, const struct pdb_result *rc, int positive);
/* A row with too little to test: the change of the medians, and why. */
void compare_median_change(struct pdb_compare_row *row, int positive, char *reason);
/* The interval at 1 - alpha and the p-value of a change d (log ratio)
 * read as normal with standard error se (0: known exactly). */
void compare_normal_interval(const struct compare_test *t, struct pdb_compare_row *row,
			     double d, double se);

#endif
