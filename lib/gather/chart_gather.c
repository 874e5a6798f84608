/* Gather what a chart kind draws: the runs named, a history's series and points. */
#include "gather/chart_gather.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

int pdb_gather_runs(struct pdb_store *store, const char *const *sel, size_t n,
		    struct pdb_run ***out, struct pdb_err *err)
{
	struct pdb_run **runs = pdb_xcalloc(n ? n : 1, sizeof *runs);

	for (size_t i = 0; i < n; i++) {
		int64_t id;
		if (pdb_store_resolve(store, sel[i], &id, err) < 0 ||
		    !(runs[i] = pdb_store_load_run(store, id, err))) {
			pdb_gather_runs_free(runs, i);
			*out = NULL;
			return -1;
		}
	}
	*out = runs;
	return 0;
}

void pdb_gather_runs_free(struct pdb_run **runs, size_t n)
{
	for (size_t i = 0; runs && i < n; i++)
		pdb_run_free(runs[i]);
	free(runs);
}

/* The runs FROM and TO of a history (0: no bound). */
static int history_range(struct pdb_store *store, const char *const *sel, size_t nsel,
			 int64_t *since, int64_t *until, struct pdb_err *err)
{
	*since = *until = 0;
	if (nsel > 2)
		return pdb_err_set(err, PDB_EXIT_USAGE, "history takes at most two runs: FROM [TO]");
	if (nsel >= 1 && pdb_store_resolve(store, sel[0], since, err) < 0)
		return -1;
	if (nsel == 2 && pdb_store_resolve(store, sel[1], until, err) < 0)
		return -1;
	return 0;
}

int pdb_gather_history(struct pdb_store *store, const char *const *sel, size_t nsel,
		       const struct pdb_plot_opts *opts, struct pdb_history_model *m,
		       struct pdb_err *err)
{
	int64_t since, until;

	memset(m, 0, sizeof *m);
	if (history_range(store, sel, nsel, &since, &until, err) < 0 ||
	    pdb_store_list_series(store, opts->bench_glob, opts->metric_glob, &m->series, &m->total,
				  err) < 0 ||
	    pdb_history_choose(m->series, m->total, opts, &m->n, &m->nleft, err) < 0)
		return -1;
	m->in = pdb_xcalloc(m->n + 1, sizeof *m->in);
	for (size_t s = 0; s < m->n; s++) {
		struct pdb_history_input *in = &m->in[s];
		struct pdb_history_point *pts, *failed;
		size_t n;
		in->series = &m->series[s];
		if (pdb_store_series_history(store, m->series[s].id, opts->where, since, until, &pts,
					     &n, err) < 0)
			return -1;
		in->pts = pts;
		in->npts = n;
		if (pdb_store_series_bounds(store, m->series[s].id, pts, n, err) < 0 ||
		    pdb_store_series_failures(store, &m->series[s], opts->where, since, until, &failed,
					      &n, err) < 0)
			return -1;
		in->failed = failed;
		in->nfailed = n;
	}
	return 0;
}

void pdb_gather_history_release(struct pdb_history_model *m)
{
	for (size_t s = 0; m->in && s < m->n; s++) {
		pdb_history_free((struct pdb_history_point *)m->in[s].pts, m->in[s].npts);
		pdb_history_free((struct pdb_history_point *)m->in[s].failed, m->in[s].nfailed);
	}
	free(m->in);
	pdb_series_free(m->series, m->total);
	memset(m, 0, sizeof *m);
}
