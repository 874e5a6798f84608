/* detect's significance tests (lib/detect_significance.c): Student's t-test of
 * the two sides of a change point, the series' noise, and Hunter's merge
 * (Otava's significance test), with the false-alarm control. Pure
 * functions: no store call, no printing. */
#ifndef PDB_DETECT_SIGNIFICANCE_H
#define PDB_DETECT_SIGNIFICANCE_H

#include <stddef.h>

/* Outside Otava's mode a change point must also move the mean by more
 * than this many standard deviations of the local noise (detect_stats_at). */
#define DETECT_MIN_EFFECT 1.5

/* The two sides of a change point: their means and sds, the t-test's p. */
struct detect_sides {
	double mean1, mean2, sd1, sd2, p;
	/* in the merge only (detect_stats_at): the local noise (detect_diff_sd of the
	 * successive differences next to the change, without the one across
	 * it) and |mean2 - mean1| in standard errors */
	double noise, z;
};

/* What a change point must pass to stay: p < pvalue, magnitude > magnitude,
 * |mean2 - mean1| > resolution, effect > effect and z >= zmin (the last
 * two 0 in Otava's mode). sigma
 * and relative are the series' noise for the z of detect_stats_at; buf is
 * scratch for detect_diff_sd, room for the whole series. */
struct detect_rule {
	double pvalue, magnitude, resolution, effect, zmin;
	double sigma;      /* pdb_detect_noise of the series */
	double relative;   /* its noise relative to the level (detect_series_noise) */
	double run_noise;  /* the assumed noise of the options */
	int otava;
	double *buf;
	const struct detect_ranks *ranks; /* the series by value, for its rank tests
					   * (detect_accept.h); NULL: each sorts */
	struct detect_stretch *stretches; /* room for the series' length + 1, zeroed,
					   * or NULL (detect_stats_at) */
};

/* The mean and sd of a stretch of the series from where it starts to end
 * (0: none kept), and the local noise at a change point there between lo
 * and hi (hi 0: none kept; detect_stats_at). */
struct detect_stretch {
	size_t end;
	double mean, sd;
	size_t lo, hi;
	double noise;
};

/* Compare x[a..idx) with x[idx..b): means, sds and the t-test's p. */
void detect_compare_sides(const double *x, size_t a, size_t idx, size_t b,
			  struct detect_sides *st);
/* The same, each side's mean and sd kept by where it starts in kept (room
 * for b + 1), or computed when kept is NULL. */
void detect_compare_kept(const double *x, size_t a, size_t idx, size_t b,
			 struct detect_stretch *kept, struct detect_sides *st);
/* max(|m2/m1 - 1|, |m1/m2 - 1|), a ratio with a zero denominator counting 0. */
double detect_magnitude(const struct detect_sides *st);
/* The standard deviation of gaussian noise from the absolute successive
 * differences d[0..m) (reordered). */
double detect_diff_sd(double *d, size_t m);
/* Appends |x[i+1] - x[i]| over x[0..n) to d at *m. */
void detect_add_diffs(const double *x, size_t n, double *d, size_t *m);
/* pdb_detect_noise with buf (room for n) as scratch. */
double detect_robust_sd(const double *x, size_t n, double *buf);
/* The series' noise into r: sigma, and relative when every value is positive. */
void detect_series_noise(const double *x, size_t n, struct detect_rule *r);
/* Whether change point i of idx ends the first regime of a young history:
 * PDB_DETECT_MAX_EXCURSION runs or fewer before it. */
int detect_young_regime(const size_t *idx, size_t i);
/* The stats of change point i of idx[0..n) against its neighbours, with
 * the local noise and z. */
void detect_stats_at(const double *x, size_t len, const size_t *idx, size_t n, size_t i,
		     const struct detect_rule *r, struct detect_sides *st);
/* The merge: drops the weakest change point of idx[0..*n) by r until all
 * pass; st (room for *n) gets their stats. */
void detect_merge_with_stats(const double *x, size_t len, size_t *idx, size_t *n,
			     struct detect_sides *st, const struct detect_rule *r);

#endif
