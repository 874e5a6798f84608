/* Sorting values with weights: LSD radix sort on the order-preserving bits of each double. */
#include "chart/sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The bits of v as an unsigned key that sorts like v (negative values
 * have every bit flipped, others only the sign). */
static uint64_t key_of(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof u);
	return u >> 63 ? ~u : u | (UINT64_C(1) << 63);
}

void pdb_chart_sort_weighted(struct pdb_weighted *a, size_t n)
{
	struct pdb_weighted *tmp, *src = a, *dst;
	uint64_t *keys, *tkeys;
	size_t *count;

	if (n < 2)
		return;
	tmp = pdb_xmalloc(n * sizeof *tmp);
	keys = pdb_xmalloc(n * sizeof *keys);
	tkeys = pdb_xmalloc(n * sizeof *tkeys);
	count = pdb_xmalloc(65536 * sizeof *count);
	dst = tmp;
	for (size_t i = 0; i < n; i++)
		keys[i] = key_of(a[i].v);
	for (int shift = 0; shift < 64; shift += 16) {
		size_t sum = 0;
		uint64_t *k;
		memset(count, 0, 65536 * sizeof *count);
		for (size_t i = 0; i < n; i++)
			count[(keys[i] >> shift) & 0xffff]++;
		for (size_t d = 0; d < 65536; d++) {
			size_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++) {
			size_t at = count[(keys[i] >> shift) & 0xffff]++;
			dst[at] = src[i];
			tkeys[at] = keys[i];
		}
		k = keys;
		keys = tkeys;
		tkeys = k;
		dst = src;
		src = src == a ? tmp : a;
	}
	/* four passes: the sorted data is back in a */
	free(tmp);
	free(keys);
	free(tkeys);
	free(count);
}
