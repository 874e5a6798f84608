/* The seconds that measure a workload's rate: one rule for every rate stored. */
#include "loadgen/rate.h"

#include <math.h>
#include <stdlib.h>

#include "util.h"

static int by_count(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The count of the second that holds the median event. */
static uint64_t typical(const uint64_t *counts, size_t n, uint64_t total)
{
	uint64_t *sorted = pdb_xmalloc((n ? n : 1) * sizeof *sorted), acc = 0, out = 0;

	for (size_t i = 0; i < n; i++)
		sorted[i] = counts[i];
	qsort(sorted, n, sizeof *sorted, by_count);
	for (size_t i = 0; i < n; i++)
		if ((acc += sorted[i]) * 2 >= total) {
			out = sorted[i];
			break;
		}
	free(sorted);
	return out;
}

/* How far a whole second's count may be from the typical second's: the
 * events that cross a second's boundary move from one second to the next
 * (a consumer's 1991, 2014 and 1991 at 2000 msg/s), while a partial second
 * or a burst of catching up is off by a good share of a second. */
#define WHOLE_SECOND 0.05

/* Whether count c is a whole second beside the typical second's m. */
static int whole(uint64_t c, uint64_t m)
{
	return fabs((double)c - (double)m) <= WHOLE_SECOND * (double)m;
}

void pdb_rate_seconds(const uint64_t *counts, size_t n, size_t *first, size_t *end)
{
	uint64_t total = 0, m;
	size_t lo = 0, hi = 0;

	*first = *end = 0;
	for (size_t i = 0; i < n; i++)
		total += counts[i];
	if (total == 0)
		return;
	m = typical(counts, n, total);
	while (counts[lo] * 2 < m)
		lo++;
	for (size_t i = lo; i < n; i++)
		if (counts[i] * 2 >= m)
			hi = i;
	/* an edge unlike the typical second is partial, or a burst: left out
	 * while three seconds remain without it */
	if (hi - lo + 1 > 3 && !whole(counts[lo], m))
		lo++;
	if (hi - lo + 1 > 3 && !whole(counts[hi], m))
		hi--;
	*first = lo;
	*end = hi + 1;
}
