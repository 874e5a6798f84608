/* The seconds that measure a workload's rate: one rule for every rate stored. */
#ifndef PDB_LOADGEN_RATE_H
#define PDB_LOADGEN_RATE_H

#include <stddef.h>
#include <stdint.h>

/* The seconds [*first, *end) of counts[0..n) (events counted per second)
 * whose counts are the rate's samples, so that their mean, their median
 * and every chart of them say the rate at which the events came:
 *
 * - the seconds of throughput run from the first to the last second that
 *   counted at least half as many events as the typical second (the
 *   event-weighted median of the counts: the count of the second that
 *   holds the median event), so that empty seconds before the first
 *   arrival and a drain's tail of stragglers are not seconds of
 *   throughput; a stall between them is kept;
 * - the first and the last of them, when they counted more than 5 % more
 *   or less than the typical second (seconds of a steady stream differ by
 *   the few events that cross their boundaries), are partial (receiving began or ended within them, at
 *   a moment the counts do not say) or a burst of catching up, and each is
 *   left out while at least three seconds remain without it (the first
 *   edge first): a span of three seconds or fewer is kept whole, so that a
 *   short run's rate is not read from one or two bursty seconds.
 *
 * Nothing counted gives *first == *end == 0. */
void pdb_rate_seconds(const uint64_t *counts, size_t n, size_t *first, size_t *end);

#endif
