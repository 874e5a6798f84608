/* Change points in a series: E-divisive means with Hunter's t-test (as Apache Otava);
 * by default accepted by a rank test over the runs, nested in P. */
#ifndef PDB_DETECT_H
#define PDB_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum pdb_outlier_mode {
	PDB_OUTLIERS_REPORT = 0, /* one-run spikes and excursions (regimes of
				  * 1-5 runs) set apart; changes of 1.5
				  * standard deviations or less dropped; a
				  * change point stays when its acceptance p
				  * (the runs' Mann-Whitney p, scaled by the
				  * series' length, or the series-wide z rule
				  * of pdb_detect_confidence) is below P, out
				  * of candidates that do not depend on P: a
				  * looser P keeps every change point a
				  * stricter one keeps */
	PDB_OUTLIERS_KEEP = 1,   /* every point counts (Apache Otava's behaviour) */
};

struct pdb_detect_opts {
	size_t window;     /* split window, points (default 50); step is window/2 */
	double pvalue;     /* P: keep a change point only when its p < P (0.001) */
	double magnitude;  /* M: ... and relative change > M, a fraction (0) */
	double resolution; /* R: ... and |mean after - mean before| > R, in the
			    * series' unit: a move its instrument cannot
			    * resolve is no change (0: none; set by
			    * pdb_detect_opts_for) */
	double run_noise;  /* the run-to-run noise assumed for the metric,
			    * relative to its level (pdb_metric_run_noise):
			    * a first regime of PDB_DETECT_MAX_EXCURSION runs
			    * or fewer is judged against at least this, as it
			    * shows too little of its own (0: none; set by
			    * pdb_detect_opts_for) */
	int outliers;      /* enum pdb_outlier_mode; KEEP also merges exactly as
			    * Otava (see pdb_detect_merge) */
	int direction;     /* enum pdb_direction of the metric (verdicts only) */
};
void pdb_detect_opts_init(struct pdb_detect_opts *o);
/* The options' per-series part: the metric's direction, its resolution
 * (pdb_metric_resolution) and the run noise assumed for it
 * (pdb_metric_run_noise). */
void pdb_detect_opts_for(struct pdb_detect_opts *o, const char *metric, const char *unit,
			 int direction);

struct pdb_change_point {
	size_t index;          /* 0-based position of the first point of the new regime */
	size_t index_before;   /* position of the last point of the old regime */
	double mean_before, mean_after, stddev_before, stddev_after; /* population sd */
	double change_pct;     /* (mean_after / mean_before - 1) * 100; NaN when before is 0 */
	double p_value;        /* PDB_OUTLIERS_KEEP: two-sided Student t-test between
				* the two regimes; else the acceptance's p (see
				* PDB_OUTLIERS_REPORT), below P */
	double confidence;     /* -log10 of the chance that noise alone gives a change
				* this strong anywhere in the series (pdb_detect_confidence),
				* at most PDB_DETECT_MAX_CONFIDENCE: 2 is 1 in 100 */
	int regression;        /* 1: the change points the worse way and exceeds M */
	int improvement;       /* 1: the better way and exceeds M (both 0: direction none) */
	int tentative;         /* 1: PDB_DETECT_MAX_EXCURSION points or fewer from
				* index on (it may still turn out an excursion) */
	int confirmed;         /* 1: not tentative, and (PDB_OUTLIERS_KEEP only)
				* confidence at least -log10 P; in
				* PDB_OUTLIERS_REPORT mode its acceptance is the
				* test */
	int cpu_steady;        /* 1: a wall-time change its CPU time did not make
				* (pdb_detect_check_wall): the machine's load, not
				* confirmed */
};
#define PDB_DETECT_MAX_CONFIDENCE 1000.0
/* The change of cp for people: "+22.2%", or from a level of 0 the change
 * in the series' unit ("+1.853 ms"). */
void pdb_detect_change_text(const struct pdb_change_point *cp, const char *unit, char *out,
			    size_t size);
/* cp's verdict: "regression", "improvement" or "change" (no direction). */
const char *pdb_detect_verdict(const struct pdb_change_point *cp);
/* Why cp does not stand yet, for people: "tentative", "CPU time steady",
 * "unconfirmed"; NULL when it is confirmed. */
const char *pdb_detect_standing(const struct pdb_change_point *cp);
/* Both for people: "regression", "regression (tentative)". */
void pdb_detect_verdict_text(const struct pdb_change_point *cp, char *out, size_t size);
/* A regime of at most this many runs between two change points is an
 * excursion (PDB_OUTLIERS_REPORT): its runs are outliers, not two change
 * points. 2-4 runs, and one more for an end placed one run off. */
#define PDB_DETECT_MAX_EXCURSION 5
/* The first regime of a history (before its first change point) is an
 * excursion at this many runs or fewer: the runs that the spike test
 * (which needs 3 runs before a run) cannot judge alone. Longer, it is the
 * level the history began at, as long a regime as any other: nothing
 * before it says it was a departure. */
#define PDB_DETECT_FIRST_EXCURSION 2

struct pdb_outlier {
	size_t index;          /* position in the series */
	double value;
};

/* Resumable state of the split pass over the detection series (the series
 * with outliers removed). It holds the weak change points of the windows
 * that lie wholly inside the first `covered` points and the start of the
 * next window; resuming from it gives exactly a full recomputation. */
struct pdb_detect_state {
	size_t covered;        /* points the state depends on */
	uint64_t checksum;     /* pdb_detect_checksum of those points */
	size_t resume;         /* start of the next window */
	size_t *weak;          /* malloc'ed, ascending */
	size_t nweak;
	/* PDB_OUTLIERS_REPORT: the one-run spikes of x (the series as given)
	 * whose test no later point can change, those before xcovered -
	 * PDB_DETECT_SPIKE_CONTEXT, where xcovered is the length of x then
	 * (0: none known) and xchecksum its pdb_detect_checksum */
	size_t xcovered;
	uint64_t xchecksum;
	size_t *spikes;        /* malloc'ed, ascending */
	size_t nspikes;
};
/* A point is tested as a one-run spike against this many points on either side. */
#define PDB_DETECT_SPIKE_CONTEXT 8
void pdb_detect_state_release(struct pdb_detect_state *s); /* NULL-safe */
/* A hash of the bit patterns of x[0..n): FNV-1a over 64-bit words, each
 * multiply followed by an xor-shift so that every bit reaches every other. */
uint64_t pdb_detect_checksum(const double *x, size_t n);

struct pdb_detect_result {
	struct pdb_change_point *cps; /* ascending index; malloc'ed */
	size_t ncps;
	struct pdb_outlier *outliers; /* ascending index; malloc'ed */
	size_t noutliers;
	size_t nweak;                 /* weak change points before the merge */
};
void pdb_detect_result_release(struct pdb_detect_result *r); /* NULL-safe */

/* Change points of x[0..n) (NaN values are not allowed). When resume is not
 * NULL and still matches the series (same first `covered` points), the
 * split starts where it stopped. When next is not NULL it receives the
 * state to cache for the next call (caller releases). Fills *res (caller
 * releases). Returns 0, or -1 with err filled (bad options, out of memory). */
int pdb_detect(const double *x, size_t n, const struct pdb_detect_opts *o,
	       const struct pdb_detect_state *resume, struct pdb_detect_state *next,
	       struct pdb_detect_result *res, struct pdb_err *err);

/* Building blocks, exposed for tests. */

/* Energy statistic Q(x[0..tau), x[tau..kappa)) as E-divisive defines it:
 * 2/(m+n)·Σ|X-Y| − 2m/((m+n)(n−1))·Σ|Xi−Xk| − 2n/((m+n)(m−1))·Σ|Yj−Yk|,
 * where a within-sum with a single element counts 0. Direct O(kappa²). */
double pdb_detect_energy(const double *x, size_t tau, size_t kappa);
/* Best split of x[0..n) (n >= 2): the tau maximising Q over all
 * 0 < tau < kappa <= n, first in (tau, kappa) order; *q gets the maximum
 * and *kappa its kappa (either may be NULL). */
size_t pdb_detect_best_split(const double *x, size_t n, double *q, size_t *kappa);
/* Two-sided p of Student's t-test with pooled variance from population
 * standard deviations (as scipy's ttest_ind_from_stats is called by Otava);
 * 1 when n1 + n2 <= 2. */
double pdb_detect_ttest(double mean1, double sd1, size_t n1,
			double mean2, double sd2, size_t n2);
/* Noise of x[0..n): 1.4826 · median |x[i+1] - x[i]| / sqrt 2, the
 * standard deviation of gaussian noise, which steps barely move (when more
 * than half of the differences are 0: sqrt(pi) / 2 · their mean); 0 when
 * n < 2. */
double pdb_detect_noise(const double *x, size_t n);
/* -log10(min(1, m · P(|Z| >= z))), Z standard normal: the Bonferroni
 * chance that noise alone gives a z this large at one of m positions. A
 * change point's z is |mean after - mean before| / sqrt(v1/n1 + v2/n2),
 * each side's sample variance v at least noise². */
double pdb_detect_confidence(double z, size_t m);
/* The z at which pdb_detect_confidence(z, m) reaches -log10(alpha). */
double pdb_detect_z_threshold(double alpha, size_t m);
/* Merge step: from the weak change points idx[0..*n) (ascending) of x,
 * remove the weakest while its p >= pvalue, else while the smallest
 * magnitude <= magnitude; after each removal the neighbours' statistics
 * are recomputed (with otava set, as Otava does: the two points right of
 * the removed one). Rewrites idx and *n. Returns 0. */
int pdb_detect_merge(const double *x, size_t len, size_t *idx, size_t *n,
		     double pvalue, double magnitude, int otava);

#endif
