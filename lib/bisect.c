/* Bisection by measurement: which commits a change between two revisions
 * lies in, from where each measured revision's value lies between theirs. */
#include "bisect.h"

#include <math.h>
#include <stdlib.h>

#include "stats.h"
#include "util.h"

const char *pdb_bisect_side_name(int side)
{
	static const char *const names[] = { "open", "good", "partial", "bad" };
	return side >= PDB_BISECT_OPEN && side <= PDB_BISECT_BAD ? names[side] : "?";
}

/* The 1-based rank k of sorted n values whose k-th and (n + 1 - k)-th
 * bound the median at conf (the sign test's interval: the chance that
 * fewer than k of n fall below the median is at most (1 - conf) / 2, for
 * any continuous distribution); 0 when n is too few. */
static size_t sign_rank(size_t n, double conf)
{
	double tail = 0, half = (1 - conf) / 2;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		tail += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
			    (double)n * M_LN2);
		if (tail > half)
			break;
		k = i + 1;
	}
	return k;
}

int pdb_bisect_contrast(const double *g, const double *m, const double *b, size_t n, double s,
			double conf, double *est, double *lo, double *hi)
{
	double *c;
	size_t k;

	if (n == 0 || n > PDB_BISECT_MAX_TRIPLES)
		return -1;
	c = pdb_xcalloc(n, sizeof *c);
	for (size_t i = 0; i < n; i++) {
		c[i] = m[i] - ((1 - s) * g[i] + s * b[i]);
		if (isnan(c[i])) {
			free(c);
			return -1;
		}
	}
	qsort(c, n, sizeof *c, pdb_cmp_double);
	*est = pdb_stats_quantile(c, n, 0.5);
	k = sign_rank(n, conf);
	*lo = k ? c[k - 1] : NAN;
	*hi = k ? c[n - k] : NAN;
	free(c);
	return 0;
}

int pdb_bisect_place_of(const double *g, const double *m, const double *b, size_t n, double conf,
			struct pdb_bisect_place *p)
{
	double est;

	return pdb_bisect_contrast(g, m, b, n, PDB_BISECT_HALF, conf, &est, &p->half_lo, &p->half_hi) < 0 ||
	       pdb_bisect_contrast(g, m, b, n, PDB_BISECT_PART_LOW, conf, &est, &p->low_lo, &p->low_hi) < 0 ||
	       pdb_bisect_contrast(g, m, b, n, PDB_BISECT_PART_HIGH, conf, &est, &p->high_lo, &p->high_hi) < 0
	       ? -1 : 0;
}

void pdb_bisect_place_exact(double g, double m, double b, struct pdb_bisect_place *p)
{
	p->half_lo = p->half_hi = m - ((1 - PDB_BISECT_HALF) * g + PDB_BISECT_HALF * b);
	p->low_lo = p->low_hi = m - ((1 - PDB_BISECT_PART_LOW) * g + PDB_BISECT_PART_LOW * b);
	p->high_lo = p->high_hi = m - ((1 - PDB_BISECT_PART_HIGH) * g + PDB_BISECT_PART_HIGH * b);
}

/* Whether [lo, hi], turned round when the change goes down, lies wholly
 * above 0 (above 1) or wholly below (below 1). */
static int above(double lo, double hi, int sign)
{
	return sign > 0 ? lo > 0 : hi < 0;
}

static int below(double lo, double hi, int sign)
{
	return sign > 0 ? hi < 0 : lo > 0;
}

int pdb_bisect_side(const struct pdb_bisect_place *p, int sign)
{
	if (isnan(p->half_lo) || isnan(p->half_hi))
		return PDB_BISECT_OPEN;
	if (above(p->low_lo, p->low_hi, sign) && below(p->high_lo, p->high_hi, sign))
		return PDB_BISECT_PARTIAL;
	if (above(p->half_lo, p->half_hi, sign))
		return PDB_BISECT_BAD;
	if (below(p->half_lo, p->half_hi, sign))
		return PDB_BISECT_GOOD;
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

	return !step || !steps ? alpha / 2 : alpha / 2 / (double)(2 * steps) / 2;
}
