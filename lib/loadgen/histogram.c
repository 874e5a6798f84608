/* Latency histograms: log-linear buckets, under 1 % relative error from 1 µs to 1 h. */
#include "loadgen/histogram.h"

#include <math.h>
#include <string.h>

#define SUB (1u << PDB_HIST_SUB_BITS)  /* buckets per power of two above 256 ns */

void pdb_hist_reset(struct pdb_hist *h)
{
	memset(h, 0, sizeof *h);
}

size_t pdb_hist_bucket(uint64_t ns)
{
	unsigned k;

	if (ns < 2 * SUB)
		return (size_t)ns;
	k = 63u - (unsigned)__builtin_clzll(ns);       /* ns in [2^k, 2^(k+1)) */
	if (k >= PDB_HIST_TOP_BIT)
		return PDB_HIST_BUCKETS - 1;
	/* ns >> (k - 7) is in [128, 256) */
	return ((size_t)(k - PDB_HIST_SUB_BITS) << PDB_HIST_SUB_BITS) + (size_t)(ns >> (k - PDB_HIST_SUB_BITS));
}

double pdb_hist_bucket_value(size_t bucket)
{
	size_t k, sub;
	double width;

	if (bucket < 2 * SUB)
		return (double)bucket;
	k = (bucket >> PDB_HIST_SUB_BITS) + PDB_HIST_SUB_BITS - 1;
	sub = bucket & (SUB - 1);
	width = ldexp(1.0, (int)(k - PDB_HIST_SUB_BITS));
	return ((double)(SUB + sub) + 0.5) * width;
}

void pdb_hist_record(struct pdb_hist *h, uint64_t ns)
{
	h->counts[pdb_hist_bucket(ns)]++;
	if (h->n == 0 || ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->n++;
	h->sum += (double)ns;
}

void pdb_hist_merge(struct pdb_hist *dst, const struct pdb_hist *src)
{
	if (src->n == 0)
		return;
	for (size_t i = 0; i < PDB_HIST_BUCKETS; i++)
		dst->counts[i] += src->counts[i];
	if (dst->n == 0 || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->sum += src->sum;
}

double pdb_hist_percentile(const struct pdb_hist *h, double p)
{
	uint64_t rank, seen = 0;
	double v;

	if (h->n == 0)
		return 0;
	if (p >= 100)
		return (double)h->max;
	rank = (uint64_t)ceil(p / 100 * (double)h->n);
	if (rank < 1)
		rank = 1;
	for (size_t i = 0; i < PDB_HIST_BUCKETS; i++) {
		seen += h->counts[i];
		if (seen >= rank) {
			v = pdb_hist_bucket_value(i);
			if (v < (double)h->min)
				v = (double)h->min;
			if (v > (double)h->max)
				v = (double)h->max;
			return v;
		}
	}
	return (double)h->max;
}

double pdb_hist_mean(const struct pdb_hist *h)
{
	return h->n ? h->sum / (double)h->n : 0;
}
