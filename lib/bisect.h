/* Bisection by measurement: which commits a change between two revisions
 * lies in, from where each measured revision's value lies between theirs. */
#ifndef PDB_BISECT_H
#define PDB_BISECT_H

#include <stddef.h>

enum pdb_bisect_side {
	PDB_BISECT_OPEN,    /* not decided: measure more */
	PDB_BISECT_GOOD,    /* before the change (nearer good) */
	PDB_BISECT_PARTIAL, /* part of the change made, part not */
	PDB_BISECT_BAD,     /* after the change (nearer bad) */
};
/* "open", "good", "partial", "bad". */
const char *pdb_bisect_side_name(int side);

/* A midpoint m measured beside good g and bad b (log values): the contrast
 * m - ((1 - s) g + s b) is 0 when m carries the share s of the change,
 * negative below it, positive above (a change upwards). A revision is
 * placed by three: s 1/2 (nearer good or bad), 1/8 and 7/8 (partial: it
 * carries a part of the change worth naming, and not all of it). The
 * margins of a partial midpoint of a change split in halves are then 3/8
 * of the change, near the 1/2 a side has: (1/2 / 3/8)^2, 1.8 times the
 * triples a side needs (1/4 and 3/4 would need 4 times). */
#define PDB_BISECT_HALF 0.5
#define PDB_BISECT_PART_LOW 0.125
#define PDB_BISECT_PART_HIGH 0.875

/* The contrast of share s over n triples g[i], m[i], b[i] (log values
 * measured side by side), m - ((1 - s) g + s b), as
 * (1 - s) (m - g) - s (b - m): the medians of the triples' m - g and b - m
 * and their intervals by the sign test (the k-th and (n + 1 - k)-th of
 * each sorted; NaN when k is 0 or over n / 2: too few triples yet),
 * combined: the estimate (1 - s) med(m - g) - s med(b - m), the interval
 * from the ends that give its least and its most. Each difference of two
 * executions has a noise symmetric about 0 (the two are alike), so its
 * median is its true value; the three-term contrast's median is not when
 * the noise is skewed, as the measured CPU time's is (a slowed execution
 * runs 1.2-3 times as long, a fast one never): a midpoint that carried all
 * of a change of +18 % gave a 7/8 contrast whose median was +0.9 % where
 * +2.3 % was true, and a bisection's midpoints were found partial that
 * were not. The median, not a mean or the Hodges-Lehmann estimate: under a
 * bursting load most triples are quiet and the rest are off by the burst,
 * which the sign test passes over. s = 0: the interval of m - g alone.
 * 0, or -1 when n is 0, over PDB_BISECT_MAX_TRIPLES or a value is NaN. */
#define PDB_BISECT_MAX_TRIPLES 100000

int pdb_bisect_contrast(const double *g, const double *m, const double *b, size_t n, double s,
			size_t k, double *est, double *lo, double *hi);

/* The rank k of the sign test's interval over n values at one look, its
 * chance of missing the median below (or above) at most tail: the largest
 * k with P(Bin(n, 1/2) < k) <= tail; 0 when n is too few. */
size_t pdb_bisect_rank(size_t n, double tail);

/* The looks of a step and the sign test's rank at each: a group-sequential
 * test. The triples' contrasts below their true median count as a fair
 * coin's heads whatever their distribution, so the chance that the interval
 * misses the median below at any look of the schedule is that of a random
 * walk crossing the ranks, computed exactly; each look's tail is the same
 * (Pocock's), the largest that keeps that chance at or under alpha / 2 (and
 * above likewise by symmetry). Bonferroni's alpha / K at each of K looks
 * ignores that the looks share their triples: at a midpoint's alpha over
 * 23 looks its tail is 2.3 times smaller, about 1.1 times the triples. */
#define PDB_BISECT_MAX_LOOKS 32
#define PDB_BISECT_LOOK_GROWTH 1.2         /* triples from one look to the next */
struct pdb_bisect_looks {
	int at[PDB_BISECT_MAX_LOOKS];      /* triples done at each look */
	size_t rank[PDB_BISECT_MAX_LOOKS]; /* the sign test's k there; 0: too few */
	size_t n;
	double alpha;                      /* of missing at any look, both sides */
	double tail;                       /* each look's nominal one-sided level */
};
/* The looks from the first at which an interval can be had up to max
 * triples. 0, or -1 when max triples cannot reach alpha. */
int pdb_bisect_looks(double alpha, int max, struct pdb_bisect_looks *out);
/* The ranks of the looks at[0..n) whose chance of missing at any look is
 * at most alpha, both sides (the tuning above, for a schedule given): each
 * look's nominal one-sided level. */
double pdb_bisect_ranks(const int *at, size_t n, double alpha, size_t *rank);
/* The chance that the interval misses the median below at any of the
 * looks at[0..n) with ranks rank[0..n): exact, for any continuous
 * distribution. */
double pdb_bisect_miss(const int *at, const size_t *rank, size_t n);

/* The whole change from good to bad: the median of the triples' b - g and
 * its interval at rank k (as pdb_bisect_contrast), against margin (a log
 * ratio: the smallest change worth bisecting). SAME when the interval lies
 * within the margin either side (an equivalence test: what is left is less
 * than the margin, even when it is certain); CHANGED when it excludes 0 and
 * the median reaches the margin; else OPEN. -1 as pdb_bisect_contrast. */
enum pdb_bisect_whole { PDB_BISECT_WHOLE_OPEN, PDB_BISECT_WHOLE_SAME, PDB_BISECT_WHOLE_CHANGED };
int pdb_bisect_whole(const double *g, const double *b, size_t n, size_t k, double margin, double *est,
		     double *lo, double *hi);

/* Where a midpoint lies: the intervals of its three contrasts. */
struct pdb_bisect_place {
	double half_lo, half_hi;
	double low_lo, low_hi;             /* PART_LOW's */
	double high_lo, high_hi;           /* PART_HIGH's */
};
/* The place from n triples at rank k (as pdb_bisect_contrast). 0 or -1. */
int pdb_bisect_place_of(const double *g, const double *m, const double *b, size_t n, size_t k,
			struct pdb_bisect_place *p);
/* The place of single exact values (counts that repeat): each interval a
 * point. */
void pdb_bisect_place_exact(double g, double m, double b, struct pdb_bisect_place *p);

/* The side of a midpoint placed at p when the change goes up (sign +1) or
 * down (-1): partial when its PART_LOW contrast lies wholly above 0 and its
 * PART_HIGH one wholly below (it carries 1/8 to 7/8 of the change); else
 * bad when its half contrast lies wholly above 0, good when wholly below;
 * else open. A side is wrong only when an interval misses its true value:
 * good or bad when the midpoint carries none or all of the change, partial
 * at none or all, good or bad at half of it; between 1/8 and 1/2 of it
 * (or 1/2 and 7/8) either of the two sides it lies between is right. */
int pdb_bisect_side(const struct pdb_bisect_place *p, int sign);

/* A bisection over revisions 0..n: 0 is good, n is bad, 1..n-1 the commits
 * between, oldest first (n is the number of commits after good). Two first
 * revisions are searched: the first that is not good (the change starts)
 * and the first that is bad (it is complete); with a change made by one
 * commit they are the same, and each measurement halves both. */
struct pdb_bisect {
	size_t n;
	int *side;                /* per revision, enum pdb_bisect_side */
	size_t start_lo, start_hi; /* the first not good is in (start_lo, start_hi] */
	size_t end_lo, end_hi;     /* the first bad is in (end_lo, end_hi] */
};
void pdb_bisect_init(struct pdb_bisect *b, size_t n);
void pdb_bisect_release(struct pdb_bisect *b);
/* The revision to measure next (the middle of the start's range while it
 * holds more than one, then of the end's), or 0 when both are found. */
size_t pdb_bisect_next(const struct pdb_bisect *b);
/* Revision i was found on side (good, partial or bad): each range it lies
 * inside narrows. */
void pdb_bisect_record(struct pdb_bisect *b, size_t i, int side);
/* Measurements a change made by one commit needs: ceil(log2 n). */
size_t pdb_bisect_steps(size_t n);
/* The alpha of the test of the whole change (step 0) and of each midpoint's
 * intervals (step 1) when the bisection as a whole is to be wrong with
 * probability alpha at most (the union bound): half for the whole change;
 * half shared by the most midpoints a bisection measures (2 ceil(log2 n):
 * where the change starts, and where it is complete). A midpoint's two
 * intervals (of m - g and b - m, of which its contrasts are made) are each
 * at that alpha, both sides together: a midpoint of any true share is
 * placed wrongly only when m - g's interval misses on one side or b - m's on
 * the other (chance alpha / 2 each: a wrong bad or partial at share 0 needs
 * m - g's to lie above its truth or b - m's below; and so on). */
double pdb_bisect_alpha(double alpha, size_t n, int step);

#endif
