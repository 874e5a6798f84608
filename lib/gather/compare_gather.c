/* Gather what a comparison needs from the store, then compare in memory. */
#include "gather/compare_gather.h"

#include <stdlib.h>
#include <string.h>

#include "run_values.h"
#include "util.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The keys of a side's results that pass the globs, sorted, each once. */
static char **side_keys(struct pdb_run *const *runs, size_t nruns,
			const struct pdb_compare_opts *opts, size_t *n)
{
	char **keys = NULL;
	size_t cap = 0, k = 0;

	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < runs[i]->nresults; j++) {
			const struct pdb_result *r = &runs[i]->results[j];
			char *dims;
			if (!pdb_glob_match(opts->bench_glob, r->benchmark) ||
			    !pdb_glob_match(opts->metric_glob, r->metric))
				continue;
			dims = pdb_dims_text(r->dims, r->ndims);
			pdb_grow((void **)&keys, &cap, k + 1, sizeof *keys);
			keys[k++] = pdb_compare_key(r->benchmark, dims, r->metric);
			free(dims);
		}
	if (k)
		qsort(keys, k, sizeof *keys, cmp_str);
	*n = 0;
	for (size_t i = 0; i < k; i++) {
		if (*n && strcmp(keys[*n - 1], keys[i]) == 0)
			free(keys[i]);
		else
			keys[(*n)++] = keys[i];
	}
	return keys;
}

static int cmp_history(const void *a, const void *b)
{
	return strcmp(((const struct pdb_compare_history *)a)->key,
		      ((const struct pdb_compare_history *)b)->key);
}

static void keys_free(char **keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

/* The history read: the newest `count` values of each series asked, from
 * the runs' stored values, newest run first. */
struct series_slot {
	int64_t id;
	size_t index;
};
struct history_walk {
	struct series_slot *slots; /* by id */
	size_t nslots, count, open;
	struct pdb_run_value **pts; /* room for count each, from its first value */
	size_t *n;
};

static int cmp_slot(const void *a, const void *b)
{
	int64_t x = ((const struct series_slot *)a)->id, y = ((const struct series_slot *)b)->id;
	return x < y ? -1 : x > y;
}

/* One run's values into the series that want more: its entries and the
 * series asked, both by id, walked together; a series that failed in the
 * run has no value there. A blob that does not read is the store's
 * corruption, said with its run. */
static int take_run(void *ctx, const struct pdb_stored_run_values *rv, struct pdb_err *err)
{
	struct history_walk *w = ctx;
	struct pdb_run_values_cursor c;
	struct pdb_series_value e;
	const char *why = NULL;
	size_t k = 0, f = 0;
	int got;

	if (pdb_run_values_open(&c, rv->vals, rv->len, &why) < 0)
		goto corrupt;
	while (k < w->nslots && (got = pdb_run_values_next(&c, &e, &why)) != 0) {
		size_t i;
		if (got < 0)
			goto corrupt;
		while (k < w->nslots && w->slots[k].id < e.series_id)
			k++;
		if (k == w->nslots || w->slots[k].id != e.series_id)
			continue;
		i = w->slots[k++].index;
		while (f < rv->nfailed && rv->failed[f] < e.series_id)
			f++;
		if (w->n[i] >= w->count || (f < rv->nfailed && rv->failed[f] == e.series_id))
			continue;
		e.v.run_id = rv->run_id;
		if (!w->pts[i])
			w->pts[i] = pdb_xmalloc(w->count * sizeof **w->pts);
		w->pts[i][w->n[i]++] = e.v;
		w->open -= w->n[i] == w->count;
	}
	return w->open == 0;
corrupt:
	return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: database is corrupt: run%lld's run values: %s",
			   rv->path, (long long)rv->run_id, why);
}

/* The newest count values of each series of ids (up to until, the runs
 * matching where): pts[i] and n[i] for ids[i], oldest first. */
static int read_history(struct pdb_store *store, const char *where, int64_t until, size_t count,
			const int64_t *ids, size_t nids, struct pdb_run_value **pts, size_t *n,
			struct pdb_err *err)
{
	struct history_walk w = { pdb_xmalloc((nids ? nids : 1) * sizeof *w.slots), nids, count,
				  nids, pts, n };
	int ret = 0;

	for (size_t i = 0; i < nids; i++)
		w.slots[i] = (struct series_slot){ ids[i], i };
	qsort(w.slots, nids, sizeof *w.slots, cmp_slot);
	if (count > 0 && nids > 0)
		ret = pdb_store_each_run_values(store, where, until, take_run, &w, err);
	/* read newest first: oldest first, as the order of runs has them */
	for (size_t i = 0; ret == 0 && i < nids; i++)
		for (size_t j = 0; j < n[i] / 2; j++) {
			struct pdb_run_value t = pts[i][j];
			pts[i][j] = pts[i][n[i] - 1 - j];
			pts[i][n[i] - 1 - j] = t;
		}
	free(w.slots);
	return ret;
}

int pdb_compare_gather_history(struct pdb_store *store, const struct pdb_compare_opts *opts,
			       struct pdb_compare_input *in, struct pdb_err *err)
{
	struct pdb_compare_scope scope = { 0 };
	struct pdb_series *s = NULL;
	char **bk = NULL, **ck = NULL;
	int64_t *ids = NULL;
	size_t nb = 0, nc = 0, ns = 0, nh = 0, nruns = 0;
	struct pdb_run_value **pts = NULL;
	size_t *npts = NULL;
	int ret = -1;

	in->history = NULL;
	in->nhistory = 0;
	if (in->nbase == 0 || in->ncand != 1)
		return 0;
	pdb_compare_scope_of(in->base, in->nbase, in->cand, in->ncand, &scope);
	if (scope.until <= 0) {
		ret = 0;
		goto out;
	}
	/* a branch with fewer runs than the test needs has no series that
	 * could be tested on its history: nothing to read */
	if (pdb_store_count_until(store, scope.where, scope.until, &nruns, err) < 0)
		goto out;
	if (nruns < PDB_COMPARE_HISTORY_MIN_RUNS) {
		ret = 0;
		goto out;
	}
	bk = side_keys(in->base, in->nbase, opts, &nb);
	ck = side_keys(in->cand, in->ncand, opts, &nc);
	if (pdb_store_list_series(store, opts->bench_glob, opts->metric_glob, &s, &ns, err) < 0)
		goto out;
	/* the stored series on both sides, in key order */
	in->history = pdb_xcalloc(nc ? nc : 1, sizeof *in->history);
	ids = pdb_xmalloc((nc ? nc : 1) * sizeof *ids);
	for (size_t i = 0; i < ns; i++) {
		char *key = pdb_compare_key(s[i].benchmark, s[i].dims, s[i].metric);
		/* (bsearch of no array is undefined: a side with no result) */
		if (nc && nb && bsearch(&key, ck, nc, sizeof *ck, cmp_str) &&
		    bsearch(&key, bk, nb, sizeof *bk, cmp_str)) {
			in->history[nh].key = key;
			ids[nh++] = s[i].id;
		} else {
			free(key);
		}
	}
	in->nhistory = nh;
	pts = pdb_xcalloc(nh ? nh : 1, sizeof *pts);
	npts = pdb_xcalloc(nh ? nh : 1, sizeof *npts);
	ret = read_history(store, scope.where, scope.until, PDB_COMPARE_HISTORY_RUNS + 1, ids, nh,
			   pts, npts, err);
	for (size_t i = 0; i < nh; i++) {
		in->history[i].pts = pts[i];
		in->history[i].n = npts[i];
	}
	if (ret < 0)
		goto out;
	/* the store lists series by benchmark, dims, metric: sort by key */
	for (size_t i = 1; i < nh; i++)
		if (strcmp(in->history[i - 1].key, in->history[i].key) > 0) {
			qsort(in->history, nh, sizeof *in->history, cmp_history);
			break;
		}
	ret = 0;
out:
	if (ret < 0)
		pdb_compare_input_release(in);
	pdb_compare_scope_release(&scope);
	pdb_series_free(s, ns);
	keys_free(bk, nb);
	keys_free(ck, nc);
	free(ids);
	free(pts);
	free(npts);
	return ret;
}

int pdb_compare_runs(struct pdb_store *store, struct pdb_run *const *base, size_t nbase,
		     struct pdb_run *const *cand, size_t ncand,
		     const struct pdb_compare_opts *opts, struct pdb_compare *out,
		     struct pdb_err *err)
{
	struct pdb_compare_input in = { .base = base, .cand = cand, .nbase = nbase,
					.ncand = ncand };
	int ret;

	memset(out, 0, sizeof *out);
	if (pdb_compare_gather_history(store, opts, &in, err) < 0)
		return -1;
	ret = pdb_compare(&in, opts, out, err);
	pdb_compare_input_release(&in);
	return ret;
}

/* Load every run of a side into *runs (allocated even on failure). */
static int load_runs(struct pdb_store *store, const int64_t *ids, size_t n,
		     struct pdb_run ***runs, struct pdb_err *err)
{
	*runs = pdb_xcalloc(n ? n : 1, sizeof **runs);
	for (size_t i = 0; i < n; i++)
		if (!((*runs)[i] = pdb_store_load_run(store, ids[i], err)))
			return -1;
	return 0;
}

static void runs_free(struct pdb_run **runs, size_t n)
{
	for (size_t i = 0; runs && i < n; i++)
		pdb_run_free(runs[i]);
	free(runs);
}

int pdb_compare_run_groups(struct pdb_store *store, const int64_t *base, size_t nbase,
			   const int64_t *cand, size_t ncand,
			   const struct pdb_compare_opts *opts, struct pdb_compare *out,
			   struct pdb_err *err)
{
	struct pdb_run **brun = NULL, **crun = NULL;
	int ret = -1;

	memset(out, 0, sizeof *out);
	if (nbase == 0 || ncand == 0) {
		pdb_err_set(err, PDB_EXIT_USAGE, "a side of the comparison has no runs");
		goto out;
	}
	if (load_runs(store, base, nbase, &brun, err) < 0 ||
	    load_runs(store, cand, ncand, &crun, err) < 0)
		goto out;
	ret = pdb_compare_runs(store, brun, nbase, crun, ncand, opts, out, err);
out:
	runs_free(brun, nbase);
	runs_free(crun, ncand);
	return ret;
}
