/* Load-tool helpers: a benchmark none of whose requests succeeded is a failure of the run. */
#include "formats/load_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The last value of metric in the result of r's benchmark and dims, or NAN. */
static double sibling(const struct pdb_run *run, const struct pdb_result *r, const char *dims,
		      const char *metric)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *s = &run->results[i];
		char *text;
		int same;
		if (strcmp(s->metric, metric) != 0 || strcmp(s->benchmark, r->benchmark) != 0 ||
		    !s->nsamples)
			continue;
		text = pdb_dims_text(s->dims, s->ndims);
		same = strcmp(text, dims) == 0;
		free(text);
		if (same)
			return s->samples[s->nsamples - 1].value;
	}
	return NAN;
}

static double or_zero(double v)
{
	return isnan(v) ? 0 : v;
}

void pdb_load_mark_failures(struct pdb_run *run)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		double total, good, non2xx, errors;
		char *dims, *reason = NULL;
		int counts = strcmp(r->metric, "requests") == 0, okays = strcmp(r->metric, "successful") == 0;

		if ((!counts && !okays) || !r->nsamples)
			continue;
		dims = pdb_dims_text(r->dims, r->ndims);
		non2xx = or_zero(sibling(run, r, dims, "non_2xx")) +
			 or_zero(sibling(run, r, dims, "non_2xx_3xx"));
		errors = or_zero(sibling(run, r, dims, "errors"));
		if (counts) {
			total = r->samples[r->nsamples - 1].value;
			if ((total > 0 && non2xx + errors >= total) || (total == 0 && errors > 0))
				reason = pdb_xasprintf("all %.0f requests failed (%.0f non-2xx, %.0f errors)",
						       total, non2xx, errors);
		} else {
			good = r->samples[r->nsamples - 1].value;
			if (good == 0 && errors > 0)
				reason = pdb_xasprintf("no request succeeded (%.0f errors)", errors);
		}
		if (reason)
			pdb_run_add_failure(run, r->benchmark, r->dims, r->ndims, reason);
		free(reason);
		free(dims);
	}
}
