/* Compare's test of one value a side: a histogram's counts, the run-to-run
 * noise assumed of a CPU time, else insufficient. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_input.h"
#include "compare_internal.h"
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

/* One value a side. A histogram on each side (one run, many events) gets
 * the interval of its median from its counts: the change's interval joins
 * the two medians' intervals at 1 - alpha/2 each. An aggregate with no
 * spread and no history is insufficient, whatever its values: no fixed band
 * calls it changed, and none calls it unchanged. */
void compare_single(struct compare_test *t, struct pdb_compare_row *row,
		    const struct pdb_result *rb, const struct pdb_result *rc, int positive)
{
	double blo, bhi, clo, chi;

	row->band = NULL;
	if (!positive && row->median_cand != row->median_base) {
		compare_median_change(row, 0, pdb_xstrdup("one value a side, not all above 0: "
						  "no ratio to judge"));
		return;
	}
	/* equal values are no proof either: 0 and 0 is as insufficient as 5 and 5 */
	compare_median_change(row, positive, NULL);
	if (positive && rb && rc && t->one_run_a_side && has_weights(rb) && has_weights(rc) &&
	    histogram_median_interval(rb, 1 - t->alpha / 2, &blo, &bhi) == 0 &&
	    histogram_median_interval(rc, 1 - t->alpha / 2, &clo, &chi) == 0) {
		row->test = "histogram";
		row->band = "samples";
		row->ci_low_pct = pct_of_log(log(clo / bhi));
		row->ci_high_pct = pct_of_log(log(chi / blo));
		return;
	}
	if (positive && t->single_noise && t->run_noise > 0 && !t->paired &&
	    t->one_run_a_side) {
		/* CPU time: the run-to-run noise assumed is all the spread there is */
		free(row->reason);
		row->reason = NULL;
		row->test = "run-noise";
		row->band = "run noise";
		compare_normal_interval(t, row, log(row->median_cand / row->median_base),
				M_SQRT2 * t->run_noise);
		row->run_noise_pct = pct_of_log(t->run_noise);
		return;
	}
	row->reason = pdb_xasprintf("one value a side and fewer than %d runs of history%s%s: "
				    "no spread to judge", PDB_COMPARE_HISTORY_MIN_RUNS,
				    t->branch ? " on " : "",
				    t->branch ? t->branch : "");
}
