/* Sorting values with weights: LSD radix sort on the order-preserving bits of each double. */
#include "chart/sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* 11-bit digits: the counts of all six passes fit in the cache */
#define DIGIT_BITS 11
#define RADIX (1 << DIGIT_BITS)
#define PASSES ((64 + DIGIT_BITS - 1) / DIGIT_BITS)

/* The bits of v as an unsigned key that sorts like v (negative values
 * have every bit flipped, others only the sign), and back. */
static uint64_t key_of(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof u);
	return u >> 63 ? ~u : u | (UINT64_C(1) << 63);
}

static double value_of(uint64_t key)
{
	uint64_t u = key >> 63 ? key & ~(UINT64_C(1) << 63) : ~key;
	double v;

	memcpy(&v, &u, sizeof v);
	return v;
}

/* While sorting, each v holds its key's bits (copied with memcpy): one
 * buffer of the array's size is all the sort needs besides it. */
static uint64_t key_at(const struct pdb_weighted *a)
{
	uint64_t k;

	memcpy(&k, &a->v, sizeof k);
	return k;
}

void pdb_chart_sort_weighted(struct pdb_weighted *a, size_t n)
{
	struct pdb_weighted *src = a, *dst, *tmp, *t;
	size_t (*count)[RADIX];

	if (n < 2)
		return;
	tmp = dst = pdb_xmalloc(n * sizeof *tmp);
	count = pdb_xcalloc(PASSES, sizeof *count);
	for (size_t i = 0; i < n; i++) { /* every pass's digit counts in one read */
		uint64_t k = key_of(a[i].v);
		memcpy(&a[i].v, &k, sizeof k);
		for (int p = 0; p < PASSES; p++)
			count[p][(k >> (p * DIGIT_BITS)) & (RADIX - 1)]++;
	}
	for (int p = 0; p < PASSES; p++) {
		int shift = p * DIGIT_BITS;
		size_t sum = 0, *c = count[p];
		if (c[(key_at(&src[0]) >> shift) & (RADIX - 1)] == n)
			continue; /* one digit value for all: nothing moves */
		for (size_t d = 0; d < RADIX; d++) {
			size_t m = c[d];
			c[d] = sum;
			sum += m;
		}
		for (size_t i = 0; i < n; i++)
			memcpy(&dst[c[(key_at(&src[i]) >> shift) & (RADIX - 1)]++], &src[i], sizeof *dst);
		t = src;
		src = dst;
		dst = t;
	}
	for (size_t i = 0; i < n; i++) { /* six passes or fewer: src may be tmp */
		a[i].w = src[i].w;
		a[i].v = value_of(key_at(&src[i]));
	}
	free(tmp);
	free(count);
}
