/* Bisection by measurement: which commits a change between two revisions
 * lies in, from where each measured revision's value lies between theirs. */
#include "bisect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

const char *pdb_bisect_side_name(int side)
{
	static const char *const names[] = { "open", "good", "partial", "bad" };
	return side >= PDB_BISECT_OPEN && side <= PDB_BISECT_BAD ? names[side] : "?";
}

size_t pdb_bisect_rank(size_t n, double tail)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
			   (double)n * M_LN2);
		if (sum > tail)
			break;
		k = i + 1;
	}
	return k;
}

double pdb_bisect_miss(const int *at, const size_t *rank, size_t n)
{
	/* p[j]: the chance that j of the triples so far lie below the median
	 * and no look has missed yet; a look at rank k misses below when
	 * fewer than k lie below (its k-th contrast is above the median) */
	size_t last = n ? (size_t)at[n - 1] : 0;
	double *p = pdb_xcalloc(last + 1, sizeof *p), miss = 0;
	size_t done = 0;

	p[0] = 1;
	for (size_t l = 0; l < n; l++) {
		for (; done < (size_t)at[l]; done++) {
			for (size_t j = done + 1; j > 0; j--)
				p[j] = (p[j] + p[j - 1]) / 2;
			p[0] /= 2;
		}
		for (size_t j = 0; j < rank[l] && j <= done; j++) {
			miss += p[j];
			p[j] = 0;
		}
	}
	free(p);
	return miss;
}

/* The ranks of the looks at[0..n) at one look's tail: the first look whose
 * rank is not 0, or n. */
static size_t ranks_at(const int *at, size_t n, double tail, size_t *rank)
{
	size_t first = n;

	for (size_t l = 0; l < n; l++) {
		rank[l] = pdb_bisect_rank((size_t)at[l], tail);
		if (rank[l] && first == n)
			first = l;
	}
	return first;
}

double pdb_bisect_ranks(const int *at, size_t n, double alpha, size_t *rank)
{
	/* the largest tail whose misses over every look stay within alpha / 2,
	 * between Bonferroni's (alpha / 2 over the looks: always within) and
	 * one look's; the chance grows with the tail, in steps */
	double lo = alpha / 2 / (double)(n ? n : 1), hi = alpha / 2;

	for (int i = 0; i < 40; i++) {
		double mid = sqrt(lo * hi);
		ranks_at(at, n, mid, rank);
		if (pdb_bisect_miss(at, rank, n) <= alpha / 2)
			lo = mid;
		else
			hi = mid;
	}
	ranks_at(at, n, lo, rank);
	return lo;
}

int pdb_bisect_looks(double alpha, int max, struct pdb_bisect_looks *out)
{
	size_t first;
	int at = 1;

	out->alpha = alpha;
	out->n = 0;
	/* from the first look where one look's tail at alpha / 2 gives an
	 * interval: no schedule's does sooner */
	while (at <= max && pdb_bisect_rank((size_t)at, alpha / 2) == 0)
		at++;
	if (at > max)
		return -1;
	for (; out->n < PDB_BISECT_MAX_LOOKS; at = (int)ceil(at * PDB_BISECT_LOOK_GROWTH)) {
		/* a look within a tenth of the last is the last */
		if (at * 1.1 >= max || out->n + 1 == PDB_BISECT_MAX_LOOKS) {
			out->at[out->n++] = max;
			break;
		}
		out->at[out->n++] = at;
	}
	out->tail = pdb_bisect_ranks(out->at, out->n, alpha, out->rank);
	/* the looks too early for an interval at that tail go: they cannot decide */
	first = ranks_at(out->at, out->n, out->tail, out->rank);
	if (first == out->n)
		return -1;
	memmove(out->at, out->at + first, (out->n - first) * sizeof *out->at);
	memmove(out->rank, out->rank + first, (out->n - first) * sizeof *out->rank);
	out->n -= first;
	return 0;
}

/* The median of the n sorted values c and their sign test's interval at
 * rank k (NaN when k is 0 or over n / 2). */
static void sign_interval(const double *c, size_t n, size_t k, double *est, double *lo, double *hi)
{
	*est = pdb_stats_quantile(c, n, 0.5);
	*lo = k && k <= n / 2 ? c[k - 1] : NAN;
	*hi = k && k <= n / 2 ? c[n - k] : NAN;
}

int pdb_bisect_contrast(const double *g, const double *m, const double *b, size_t n, double s,
			size_t k, double *est, double *lo, double *hi)
{
	double *up, *down, e1, l1, h1, e2, l2, h2;

	if (n == 0 || n > PDB_BISECT_MAX_TRIPLES)
		return -1;
	up = pdb_xcalloc(n, sizeof *up);
	down = pdb_xcalloc(n, sizeof *down);
	for (size_t i = 0; i < n; i++) {
		up[i] = m[i] - g[i];
		down[i] = b[i] - m[i];
		if (isnan(up[i]) || isnan(down[i])) {
			free(up);
			free(down);
			return -1;
		}
	}
	qsort(up, n, sizeof *up, pdb_cmp_double);
	qsort(down, n, sizeof *down, pdb_cmp_double);
	sign_interval(up, n, k, &e1, &l1, &h1);
	sign_interval(down, n, k, &e2, &l2, &h2);
	/* m - ((1 - s) g + s b) = (1 - s) (m - g) - s (b - m) */
	*est = (1 - s) * e1 - s * e2;
	*lo = (1 - s) * l1 - s * h2;
	*hi = (1 - s) * h1 - s * l2;
	free(up);
	free(down);
	return 0;
}

int pdb_bisect_whole(const double *g, const double *b, size_t n, size_t k, double margin, double *est,
		     double *lo, double *hi)
{
	/* b - g is the contrast of share 0 of bad against good */
	if (pdb_bisect_contrast(g, b, g, n, 0, k, est, lo, hi) < 0)
		return -1;
	if (isnan(*lo))
		return PDB_BISECT_WHOLE_OPEN;
	if (*lo > -margin && *hi < margin)
		return PDB_BISECT_WHOLE_SAME;
	return (*lo > 0 || *hi < 0) && fabs(*est) >= margin ? PDB_BISECT_WHOLE_CHANGED : PDB_BISECT_WHOLE_OPEN;
}

int pdb_bisect_place_of(const double *g, const double *m, const double *b, size_t n, size_t k,
			struct pdb_bisect_place *p)
{
	double est;

	return pdb_bisect_contrast(g, m, b, n, PDB_BISECT_HALF, k, &est, &p->half_lo, &p->half_hi) < 0 ||
	       pdb_bisect_contrast(g, m, b, n, PDB_BISECT_PART_LOW, k, &est, &p->low_lo, &p->low_hi) < 0 ||
	       pdb_bisect_contrast(g, m, b, n, PDB_BISECT_PART_HIGH, k, &est, &p->high_lo, &p->high_hi) < 0
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

	return !step || !steps ? alpha / 2 : alpha / 2 / (double)(2 * steps);
}
