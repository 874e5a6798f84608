/* Tables of one benchmark of a run by matrix point: one per set of dims
 * its series have, so that series with different dims (a stream's sender
 * without `stage`, the processes of `sample:` with `process`) each have
 * their rows, and none fails the others' table. */
#include <stdlib.h>
#include <string.h>

#include "table.h"

void pdb_tables_release(struct pdb_table *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pdb_table_release(&t[i]);
	free(t);
}

/* Whether r has exactly the dims of t (no more, no fewer). */
static int same_dims(const struct pdb_result *r, const struct pdb_table *t)
{
	if (r->ndims != t->ndims)
		return 0;
	for (size_t d = 0; d < t->ndims; d++)
		if (!pdb_result_get_dim(r, t->dims[d]))
			return 0;
	return 1;
}

/* A dim that names a part of the pipeline rather than a point of the
 * matrix: its column comes after the matrix's. */
static int part_dim(const char *key)
{
	return strcmp(key, "stage") == 0 || strcmp(key, "process") == 0;
}

/* A new table for the dims of r: the matrix's dims first, then stage,
 * then process. */
static void begin_table(struct pdb_table *t, const struct pdb_result *r)
{
	memset(t, 0, sizeof *t);
	t->benchmark = pdb_xstrdup(r->benchmark);
	t->dims = pdb_xcalloc(r->ndims + 1, sizeof *t->dims);
	for (int pass = 0; pass < 3; pass++)
		for (size_t k = 0; k < r->ndims; k++) {
			const char *key = r->dims[k].key;
			int at = !part_dim(key) ? 0 : strcmp(key, "stage") == 0 ? 1 : 2;
			if (at == pass)
				t->dims[t->ndims++] = pdb_xstrdup(key);
		}
}

/* A distribution whose percentiles a reader asks for: a histogram
 * (weighted samples), the tool's percentiles, or a latency's own samples
 * (a time named so, not over time: Knox's responseTimes). */
static int histogram(const struct pdb_result *r)
{
	double v;

	if (pdb_result_get_stat(r, "p99", &v) == 0)
		return 1;
	if (!r->nsamples)
		return 0;
	return pdb_sample_has_weight(&r->samples[0]) ||
	       (r->nsamples > 1 && !pdb_sample_has_t(&r->samples[0]) &&
		strcmp(r->unit, "s") == 0 && strstr(r->metric, "lat"));
}

/* A percentile taken second by second (a stream's delivery_delay_p99): the
 * mean of its seconds is not the percentile of the whole run, which its
 * histogram's :p99 column gives, so its header says :mean. */
static int percentile_over_time(const struct pdb_result *r)
{
	const char *u = strrchr(r->metric, '_');

	if (!r->nsamples || !pdb_sample_has_t(&r->samples[0]) || !u || u[1] != 'p' ||
	    u[2] < '0' || u[2] > '9')
		return 0;
	for (u += 2; *u; u++)
		if ((*u < '0' || *u > '9') && *u != '.')
			return 0;
	return 1;
}

static void add_col(struct pdb_table *t, const char *metric, const char *suffix, int stat,
		    double pct)
{
	t->cols = pdb_xrealloc(t->cols, (t->ncols + 1) * sizeof *t->cols);
	t->cols[t->ncols++] = (struct pdb_table_col){
		.name = pdb_xasprintf("%s%s", metric, suffix), .metric = pdb_xstrdup(metric),
		.stat = stat, .pct = pct, .scale = 1 };
}

/* The columns of r's metric, when t has none of it yet. */
static void add_metric(struct pdb_table *t, const struct pdb_result *r, int cells)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (strcmp(t->cols[c].metric, r->metric) == 0)
			return;
	if (cells == PDB_CELLS_VALUE) {
		add_col(t, r->metric, "", PDB_TSTAT_VALUE, 0);
	} else if (histogram(r)) {
		add_col(t, r->metric, ":p50", PDB_TSTAT_PCT, 50);
		add_col(t, r->metric, ":p99", PDB_TSTAT_PCT, 99);
		add_col(t, r->metric, ":max", PDB_TSTAT_MAX, 0);
	} else {
		add_col(t, r->metric, percentile_over_time(r) ? ":mean" : "", PDB_TSTAT_MEAN, 0);
	}
}

int pdb_table_by_point(const struct pdb_run *run, const char *benchmark, int cells,
		       size_t min_rows, struct pdb_table **out, size_t *n, struct pdb_err *err)
{
	struct pdb_table_spec spec = { .exact = 1 };
	struct pdb_table *v = NULL;
	size_t nv = 0, cap = 0, kept = 0;

	/* the sets of dims, in the order of their first series, with their metrics */
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		size_t k = 0;
		if (strcmp(r->benchmark, benchmark) != 0)
			continue;
		while (k < nv && !same_dims(r, &v[k]))
			k++;
		if (k == nv) {
			pdb_grow((void **)&v, &cap, nv + 1, sizeof *v);
			begin_table(&v[nv++], r);
		}
		add_metric(&v[k], r, cells);
	}
	*out = v;
	*n = nv;
	for (size_t k = 0; k < nv; k++) {
		pdb_err_clear(err);
		if (pdb_table_fill(run, &spec, &v[k], err) < 0)
			return -1;
		if (v[k].nrows < min_rows) {
			pdb_table_release(&v[k]);
			continue;
		}
		if (kept != k) {
			v[kept] = v[k];
			memset(&v[k], 0, sizeof v[k]);
		}
		kept++;
	}
	*n = kept;
	return 0;
}
