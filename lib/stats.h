/* Statistics: Mann-Whitney U, Hodges-Lehmann, quantiles and means (pure maths). */
#ifndef PDB_STATS_H
#define PDB_STATS_H

#include <math.h>
#include <stddef.h>

/* A change in logs (a log ratio) as a percentage. */
static inline double pdb_stats_pct_of_log(double d)
{
	return 100 * expm1(d) + 0.0; /* + 0.0: no "-0" */
}

/* The functions keep caches and scratch memory from one call to the next
 * (null distributions, binomials, sorted copies, tables): a compare of many
 * series allocates nothing per series. Each thread keeps its own (freed when
 * it ends), so any of them may be called from several threads at once. */

/* At most this many values in both samples together use the exact null
 * distribution of U (with ties); above it the normal approximation. */
#define PDB_STATS_EXACT_MAX 100

struct pdb_mwu {
	double u;     /* U of x: pairs with x > y, plus half the pairs x == y */
	double p;     /* two-sided: 2 * min(P(U <= u), P(U >= u)), at most 1 */
	int exact;    /* 1: exact null distribution, 0: normal approximation */
};

/* Two-sided Mann-Whitney U test of x against y. Returns 0, or -1 when a
 * sample is empty or holds NaN. */
int pdb_stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
			   struct pdb_mwu *out);
/* The same of sx[0..nx) and sy[0..ny), each sorted ascending, without NaN,
 * neither empty. */
void pdb_stats_mann_whitney_sorted(const double *sx, size_t nx, const double *sy, size_t ny,
				   struct pdb_mwu *out);
/* Its two-sided p by the normal approximation (more than
 * PDB_STATS_EXACT_MAX values), from u and ties, the sum of t^3 - t over the
 * pooled values' groups of t equal ones, in value order. */
double pdb_stats_mwu_normal_p(double u, size_t nx, size_t ny, double ties);
/* The smallest two-sided p the test can give for these sizes (no ties). */
double pdb_stats_mwu_min_p(size_t nx, size_t ny);

/* Hodges-Lehmann estimate of the shift y - x (the median of the nx*ny
 * differences y[j] - x[i]) and its distribution-free interval at level
 * conf (0.95: for 10 vs 10 the 24th and 77th ordered differences). lo and
 * hi are NaN when the sizes cannot reach conf. Returns 0, or -1 when a
 * sample is empty or holds NaN. */
int pdb_stats_hodges_lehmann(const double *x, size_t nx, const double *y, size_t ny,
			     double conf, double *est, double *lo, double *hi);
/* The same with the interval's rank k given (from pdb_stats_hl_rank, which
 * depends on the sizes only, so callers with many series can keep it). */
int pdb_stats_hodges_lehmann_at(const double *x, size_t nx, const double *y, size_t ny,
				size_t k, double *est, double *lo, double *hi);
/* k such that the interval at conf is the k-th and (nx*ny + 1 - k)-th
 * smallest differences (1-based); 0 when unreachable. */
size_t pdb_stats_hl_rank(size_t nx, size_t ny, double conf);

/* Paired samples: at most this many differences (their Walsh averages
 * are n (n + 1) / 2 values in memory). */
#define PDB_STATS_PAIRED_MAX 2000

/* Two-sided Wilcoxon signed-rank test of the differences d against 0
 * (zeros left out, midranks for ties; exact null distribution up to
 * PDB_STATS_EXACT_MAX non-zero differences, normal approximation with tie
 * and continuity correction above). out->u is T+, the rank sum of the
 * positive differences. Returns 0, or -1 when d is empty or holds NaN. */
int pdb_stats_signed_rank(const double *d, size_t n, struct pdb_mwu *out);
/* The smallest two-sided p the signed-rank test can give for n pairs. */
double pdb_stats_signed_rank_min_p(size_t n);
/* Hodges-Lehmann estimate of the centre of d (the median of the Walsh
 * averages (d[i] + d[j]) / 2, i <= j) and its interval at level conf
 * consistent with the signed-rank test (NaN when unreachable). Returns 0,
 * or -1 when d is empty, longer than PDB_STATS_PAIRED_MAX or holds NaN. */
int pdb_stats_hodges_lehmann_paired(const double *d, size_t n, double conf, double *est,
				    double *lo, double *hi);

/* Quantile q in [0, 1] of sorted values, linear between order statistics
 * (type 7, as numpy and R's default). NaN when n == 0. */
double pdb_stats_quantile(const double *sorted, size_t n, double q);
/* qsort's ascending order of doubles (the one comparator of doubles). */
int pdb_cmp_double(const void *a, const void *b);
/* Sort v ascending in place, in that order (NaN aside: there is none to
 * sort); the few values of a series by insertion, without qsort's call
 * per comparison. */
void pdb_stats_sort(double *v, size_t n);
/* Median of v (reordered in place). NaN when n == 0. */
double pdb_stats_median(double *v, size_t n);
double pdb_stats_mean(const double *v, size_t n);
/* Geometric mean of positive values; NaN when n == 0 or a value is <= 0. */
double pdb_stats_geomean(const double *v, size_t n);

/* Holm's step-down adjustment of n p-values, in place (NaN left alone). */
void pdb_stats_holm(double *p, size_t n);

/* The regularised incomplete beta function I_x(a, b) for x in [0, 1]. */
double pdb_stats_betai(double a, double b, double x);

/* Student's t with df degrees of freedom (df > 0, not necessarily whole):
 * upper tail P(T > t), and its inverse for p in (0, 1); NaN outside. */
double pdb_stats_t_sf(double t, double df);
double pdb_stats_t_isf(double p, double df);

/* Welch's unequal-variance t test of the shift y - x. */
struct pdb_welch {
	double shift;  /* mean(y) - mean(x) */
	double lo, hi; /* its interval at level conf */
	double p;      /* two-sided */
	double df;     /* Welch-Satterthwaite degrees of freedom */
};
/* Returns 0, or -1 when a sample has fewer than 2 values or a value is not
 * finite. Without spread on either side the shift is exact (p 0 or 1). */
int pdb_stats_welch(const double *x, size_t nx, const double *y, size_t ny, double conf,
		    struct pdb_welch *out);

/* Standard normal: upper tail P(Z > z), and its inverse for p in (0, 1). */
double pdb_stats_norm_sf(double z);
double pdb_stats_norm_isf(double p);

#endif
