/* Latency histograms as results: weighted samples with percentile stats. */
#include "loadgen/hist_result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int by_value(const void *a, const void *b)
{
	const struct pdb_sample *x = a, *y = b;
	return (x->value > y->value) - (x->value < y->value);
}

/* Percentiles over every weighted sample of r (all repetitions so far),
 * no higher than max: a bucket's value may lie above the largest value in it. */
static void weighted_stats(struct pdb_result *r, double max)
{
	static const struct { const char *name; double p; } ps[] = {
		{ "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99.9", 99.9 }, { "p99.99", 99.99 },
	};
	struct pdb_sample *s = pdb_xmalloc((r->nsamples + 1) * sizeof *s);
	double total = 0, sum = 0;

	memcpy(s, r->samples, r->nsamples * sizeof *s);
	qsort(s, r->nsamples, sizeof *s, by_value);
	for (size_t i = 0; i < r->nsamples; i++) {
		total += s[i].weight;
		sum += s[i].weight * s[i].value;
	}
	for (size_t k = 0; k < sizeof ps / sizeof ps[0] && total > 0; k++) {
		double rank = ceil(ps[k].p / 100 * total), seen = 0;
		for (size_t i = 0; i < r->nsamples; i++) {
			seen += s[i].weight;
			if (seen >= rank) {
				pdb_result_set_stat(r, ps[k].name, s[i].value < max ? s[i].value : max);
				break;
			}
		}
	}
	if (total > 0)
		pdb_result_set_stat(r, "mean", sum / total);
	free(s);
}

void pdb_kafka_hist_to_result(struct pdb_result *r, const struct pdb_hist *h)
{
	double max;

	if (h->n == 0)
		return;
	for (size_t i = 0; i < PDB_HIST_BUCKETS; i++)
		if (h->counts[i]) {
			struct pdb_sample s = PDB_SAMPLE(pdb_hist_bucket_value(i) / 1e9);
			s.weight = (double)h->counts[i];
			pdb_result_add_sample(r, &s);
		}
	if (pdb_result_get_stat(r, "max", &max) < 0 || (double)h->max / 1e9 > max)
		max = (double)h->max / 1e9;
	pdb_result_set_stat(r, "max", max);
	weighted_stats(r, max);
}
