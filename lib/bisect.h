/* Bisection by measurement: which commits a change between two revisions
 * lies in, from where each measured revision's value lies between theirs. */
#ifndef PDB_BISECT_H
#define PDB_BISECT_H

#include <stddef.h>

/* The share of the whole change (good to bad, in log terms) a revision
 * carries: below GOOD_BELOW it is on the good side, above BAD_ABOVE on the
 * bad side, in between a part of the change (a step that is the sum of
 * several commits). */
#define PDB_BISECT_GOOD_BELOW 0.25
#define PDB_BISECT_BAD_ABOVE 0.75

enum pdb_bisect_side {
	PDB_BISECT_OPEN,    /* the interval straddles a boundary: measure more */
	PDB_BISECT_GOOD,    /* before the change */
	PDB_BISECT_PARTIAL, /* part of the change made, part not */
	PDB_BISECT_BAD,     /* after the change */
};
/* "open", "good", "partial", "bad". */
const char *pdb_bisect_side_name(int side);

/* Whether the whole change, good to bad, is known well enough to bisect:
 * its interval [lo, hi] (log ratios) excludes 0 and its ends are within
 * TOTAL_RATIO of each other (about +-7 % of it). */
#define PDB_BISECT_TOTAL_RATIO 1.15
int pdb_bisect_total_known(double lo, double hi);

/* The side of a revision whose change from good, as a log ratio, lies in
 * [lo, hi] (its estimate mid; lo == mid == hi for an exact count), the
 * whole change from good to bad lying in [t_lo, t_hi] (not across 0): the
 * share of the whole change the revision carries lies between the
 * smallest and the largest quotient of the two intervals; wholly below
 * GOOD_BELOW it is good, wholly above BAD_ABOVE bad, wholly between them
 * partial, else open. A side is wrong only when an interval misses its
 * true value. *share (may be NULL) gets mid over the middle of the total. */
int pdb_bisect_side(double lo, double mid, double hi, double t_lo, double t_hi, double *share);

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
/* The alpha of the measurement of the whole change (step 0) and of each
 * step's (step 1) when the bisection as a whole is to be wrong with
 * probability alpha at most: half for the whole change, half shared by the
 * steps a change made by one commit needs (Bonferroni). */
double pdb_bisect_alpha(double alpha, size_t n, int step);

#endif
