/* Universal Scalability Law: X(N) = λN / (1 + σ(N−1) + κN(N−1)), fitted to measurements. */
#ifndef PDB_CHART_USL_H
#define PDB_CHART_USL_H

#include <stddef.h>

struct pdb_usl {
	double lambda;  /* throughput of one unit, without contention */
	double sigma;   /* contention, in [0, 1] */
	double kappa;   /* coherency delay, in [0, 1] */
	double peak_n;  /* N at the peak, sqrt((1 − σ)/κ); INFINITY when κ = 0 */
	double peak_x;  /* X at peak_n (INFINITY when κ = 0) */
	double r2;      /* coefficient of determination of the fit */
	int iterations; /* Levenberg–Marquardt steps taken */
};

/* Fit n points (N, X) with N > 0 and X > 0: a closed-form start from the
 * linearised law, then Levenberg–Marquardt within the bounds. Needs at least
 * 4 distinct N; returns 0, or -1 when the data cannot be fitted. */
int pdb_usl_fit(const double *nv, const double *xv, size_t n, struct pdb_usl *out);
/* X(N) of a fitted law. */
double pdb_usl_eval(const struct pdb_usl *u, double n);

#endif
