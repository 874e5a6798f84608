/* Compare's test of one histogram a side (one run, many events): the
 * interval of each median from its counts, joined into the change's. */
#include <math.h>
#include <stdlib.h>

#include "compare_strategy.h"
#include "stats.h"
#include "util.h"

static int cmp_sample_value(const void *a, const void *b)
{
	double x = ((const struct pdb_sample *)a)->value, y = ((const struct pdb_sample *)b)->value;
	return x < y ? -1 : x > y;
}

/* The interval of the median of a histogram (its values weighted by event
 * counts) at level conf: the events of ranks N/2 -+ z sqrt(N)/2, widened to
 * the edges of the buckets they fall in (a bucket's events lie between the
 * value of the bucket below and its own). -1 when the weights are not event
 * counts (fractions that add up to less than 2). */
static int histogram_median_interval(const struct pdb_result *r, double conf, double *lo,
				     double *hi)
{
	struct pdb_sample *v = pdb_xmalloc((r->nsamples ? r->nsamples : 1) * sizeof *v);
	double total = 0, acc = 0, z, rlo, rhi;
	size_t n = 0;

	for (size_t i = 0; i < r->nsamples; i++)
		if (r->samples[i].weight > 0 && r->samples[i].value > 0)
			v[n++] = r->samples[i];
	for (size_t i = 0; i < n; i++)
		total += v[i].weight;
	if (total < 2) {
		free(v);
		return -1;
	}
	qsort(v, n, sizeof *v, cmp_sample_value);
	z = pdb_stats_norm_isf((1 - conf) / 2);
	rlo = fmax(0, total / 2 - z * sqrt(total) / 2);
	rhi = fmin(total, total / 2 + z * sqrt(total) / 2);
	*lo = v[0].value;
	*hi = v[n - 1].value;
	for (size_t i = 0; i < n; i++) {
		double before = acc;
		acc += v[i].weight;
		if (before <= rlo && rlo < acc)
			*lo = i > 0 ? v[i - 1].value : v[i].value;
		if (before < rhi && rhi <= acc) {
			*hi = v[i].value;
			break;
		}
	}
	free(v);
	return 0;
}

/* The interval of the side's median at 1 - alpha/2, when the side is one
 * result whose samples are weighted by event counts. */
static int histogram_summary(struct compare_test *t, const struct compare_side *side,
			     struct compare_summary *s)
{
	if (!side->result || !pdb_result_has_weights(side->result) ||
	    histogram_median_interval(side->result, 1 - t->alpha / 2, &s->lo, &s->hi) < 0)
		return -1;
	s->median = side->median;
	return 0;
}

/* The change's interval joins the two medians' intervals at 1 - alpha/2
 * each; no p-value. */
static int histogram_compare(struct compare_test *t, const struct compare_summary *b,
			     const struct compare_summary *a, struct pdb_compare_row *row)
{
	(void)t;
	row->test = "histogram";
	row->band = "samples";
	row->change_pct = pdb_stats_pct_of_log(log(a->median / b->median));
	row->ci_low_pct = pdb_stats_pct_of_log(log(a->lo / b->hi));
	row->ci_high_pct = pdb_stats_pct_of_log(log(a->hi / b->lo));
	return 0;
}

const struct compare_strategy compare_test_histogram = {
	.name = "histogram",
	.summary = histogram_summary,
	.compare = histogram_compare,
};
