/* Compare's geometric means per metric. */
#include "compare_geomean.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"
#include "util.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether a row enters its metric's geomean: shown, gated, with a
 * direction and a percentage (a resource is reported in the table, not
 * summed into a headline number). */
static int in_geomean(const struct pdb_compare_row *r)
{
	return !isnan(r->change_pct) && !r->hidden && r->gated && r->direction != PDB_DIR_NONE;
}

/* Geometric mean per metric of exp(dir * ln(cand/base)) over the series
 * that in_geomean takes (of a metric with no direction,
 * > 1 is not worse: fio's io_bytes doubles with the runtime), with an
 * interval: each series' log interval read as normal (its half-width over
 * z), the mean's SE sqrt(sum se^2) / n. A series without an interval
 * leaves the geomean without one: inconclusive, never "worse". When the
 * whole run moved with the runner's load (run_wide_pct), the verdict is
 * that of the geomean net of that move, as for its series. */
void pdb_compare_geomeans(struct pdb_compare *out)
{
	const char **metrics = pdb_xmalloc((out->nrows ? out->nrows : 1) * sizeof *metrics);
	double z = pdb_stats_norm_isf(out->alpha / 2);
	size_t nm = 0, cap = 0;

	for (size_t i = 0; i < out->nrows; i++)
		if (in_geomean(&out->rows[i]))
			metrics[nm++] = out->rows[i].metric;
	qsort(metrics, nm, sizeof *metrics, cmp_str);
	for (size_t i = 0; i < nm; i++) {
		struct pdb_compare_geomean *g;
		double sum = 0, own = 0, var = 0, thr = 0;
		size_t n = 0;
		double load = 0; /* the whole run's move, worse side up, when the load's */

		if (i > 0 && strcmp(metrics[i], metrics[i - 1]) == 0)
			continue;
		for (size_t k = 0; k < out->nrows; k++) {
			const struct pdb_compare_row *r = &out->rows[k];
			double se;
			if (!in_geomean(r) || strcmp(r->metric, metrics[i]) != 0)
				continue;
			sum += pdb_direction_worse_sign(r->direction) * log1p(r->change_pct / 100);
			own += log1p(r->change_pct / 100);
			se = (log1p(r->ci_high_pct / 100) - log1p(r->ci_low_pct / 100)) / (2 * z);
			var += se * se; /* NaN without an interval: none for the mean */
			thr = fmax(thr, r->threshold_pct);
			if (!isnan(r->run_wide_pct))
				load = pdb_direction_worse_sign(r->direction) * log1p(r->run_wide_pct / 100);
			n++;
		}
		pdb_grow((void **)&out->geomean, &cap, out->ngeomean + 1, sizeof *out->geomean);
		g = &out->geomean[out->ngeomean++];
		g->metric = pdb_xstrdup(metrics[i]);
		g->ratio = exp(sum / (double)n);
		g->change_pct = expm1(own / (double)n) * 100;
		g->n = n;
		g->low = exp(sum / (double)n - z * sqrt(var) / (double)n);
		g->high = exp(sum / (double)n + z * sqrt(var) / (double)n);
		thr = log1p(thr / 100);
		{
			double est = log(g->ratio) - load, lo = log(g->low) - load;
			double hi = log(g->high) - load;
			g->verdict = isnan(var) ? PDB_VERDICT_INCONCLUSIVE
				: lo > 0 && est >= thr ? PDB_VERDICT_REGRESSION
				: hi < 0 && -est >= thr ? PDB_VERDICT_IMPROVEMENT
				: lo >= -thr && hi <= thr ? PDB_VERDICT_UNCHANGED
				: PDB_VERDICT_INCONCLUSIVE;
		}
	}
	free(metrics);
}
