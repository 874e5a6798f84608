/* Latency histograms: log-linear buckets, under 1 % relative error from 1 µs to 1 h. */
#ifndef PDB_KAFKA_HISTOGRAM_H
#define PDB_KAFKA_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

/* Values are nanoseconds. Below 256 ns every value has its own bucket;
 * above, each power of two is cut into 128 equal buckets, so a bucket's
 * midpoint is within 1/256 of any value in it. Values above 2^43 ns
 * (about 2.4 h) count in the top bucket. */
#define PDB_HIST_SUB_BITS 7
#define PDB_HIST_TOP_BIT 43
#define PDB_HIST_BUCKETS ((PDB_HIST_TOP_BIT - PDB_HIST_SUB_BITS + 1) << PDB_HIST_SUB_BITS)

struct pdb_hist {
	uint64_t counts[PDB_HIST_BUCKETS];
	uint64_t n;
	uint64_t min, max;  /* exact, ns */
	double sum;         /* ns */
};

void pdb_hist_reset(struct pdb_hist *h);
void pdb_hist_record(struct pdb_hist *h, uint64_t ns);
/* Add every count of src into dst. */
void pdb_hist_merge(struct pdb_hist *dst, const struct pdb_hist *src);

/* The bucket of a value, and the value a bucket stands for (its midpoint,
 * the value itself below 256 ns). */
size_t pdb_hist_bucket(uint64_t ns);
double pdb_hist_bucket_value(size_t bucket);

/* The value at percentile p (0..100): the smallest bucket whose cumulative
 * count reaches ceil(p/100 * n), as its midpoint clamped to [min, max].
 * 0 for an empty histogram; p = 100 gives the exact max. */
double pdb_hist_percentile(const struct pdb_hist *h, double p);
double pdb_hist_mean(const struct pdb_hist *h);

#endif
