/* Bisection by measurement: which commits a change between two revisions
 * lies in, from where each measured revision's value lies between theirs. */
#include "bisect.h"

#include <math.h>
#include <stdlib.h>

#include "util.h"

const char *pdb_bisect_side_name(int side)
{
	static const char *const names[] = { "open", "good", "partial", "bad" };
	return side >= PDB_BISECT_OPEN && side <= PDB_BISECT_BAD ? names[side] : "?";
}

int pdb_bisect_total_known(double lo, double hi)
{
	double small = fmin(fabs(lo), fabs(hi)), large = fmax(fabs(lo), fabs(hi));

	return (lo > 0 || hi < 0) && large <= PDB_BISECT_TOTAL_RATIO * small;
}

int pdb_bisect_side(double lo, double mid, double hi, double t_lo, double t_hi, double *share)
{
	double s_lo, s_hi;

	if (t_hi < 0) { /* a change downwards: turn everything round */
		double t = lo;
		lo = -hi;
		hi = -t;
		mid = -mid;
		t = t_lo;
		t_lo = -t_hi;
		t_hi = -t;
	}
	if (share)
		*share = mid / ((t_lo + t_hi) / 2);
	if (!(t_lo > 0) || isnan(lo) || isnan(hi))
		return PDB_BISECT_OPEN;
	/* the quotient of the two intervals: its smallest and largest value */
	s_lo = fmin(lo / t_lo, lo / t_hi);
	s_hi = fmax(hi / t_lo, hi / t_hi);
	if (s_hi < PDB_BISECT_GOOD_BELOW)
		return PDB_BISECT_GOOD;
	if (s_lo > PDB_BISECT_BAD_ABOVE)
		return PDB_BISECT_BAD;
	if (s_lo >= PDB_BISECT_GOOD_BELOW && s_hi <= PDB_BISECT_BAD_ABOVE)
		return PDB_BISECT_PARTIAL;
	return PDB_BISECT_OPEN;
}

void pdb_bisect_init(struct pdb_bisect *b, size_t n)
{
	b->n = n;
	b->side = pdb_xcalloc(n + 1, sizeof *b->side);
	b->side[0] = PDB_BISECT_GOOD;
	b->side[n] = PDB_BISECT_BAD;
	b->start_lo = b->end_lo = 0;
	b->start_hi = b->end_hi = n;
}

void pdb_bisect_release(struct pdb_bisect *b)
{
	free(b->side);
	b->side = NULL;
}

size_t pdb_bisect_next(const struct pdb_bisect *b)
{
	if (b->start_hi - b->start_lo > 1)
		return b->start_lo + (b->start_hi - b->start_lo) / 2;
	if (b->end_hi - b->end_lo > 1)
		return b->end_lo + (b->end_hi - b->end_lo) / 2;
	return 0;
}

/* i narrows the range (*lo, *hi] when it lies inside it: to (i, *hi] when
 * the first revision sought comes after i, else to (*lo, i]. */
static void narrow(size_t *lo, size_t *hi, size_t i, int after)
{
	if (i <= *lo || i >= *hi)
		return;
	if (after)
		*lo = i;
	else
		*hi = i;
}

void pdb_bisect_record(struct pdb_bisect *b, size_t i, int side)
{
	b->side[i] = side;
	/* the change starts after a good revision, at or before any other;
	 * it is complete at or before a bad one, after any other */
	narrow(&b->start_lo, &b->start_hi, i, side == PDB_BISECT_GOOD);
	narrow(&b->end_lo, &b->end_hi, i, side != PDB_BISECT_BAD);
}

size_t pdb_bisect_steps(size_t n)
{
	size_t steps = 0;

	while (((size_t)1 << steps) < n)
		steps++;
	return steps;
}

double pdb_bisect_alpha(double alpha, size_t n, int step)
{
	size_t steps = pdb_bisect_steps(n);

	return !step || !steps ? alpha / 2 : alpha / 2 / (double)steps;
}
