/* detect over the store: a series' values and its split resumed from the
 * cached state, the runs its findings name, the states saved. */
#include "gather/detect_gather.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

int pdb_detect_resumed(struct pdb_store *store, int64_t series_id, const char *params,
		       int use_cache, const double *x, size_t n, const struct pdb_detect_opts *o,
		       struct pdb_detect_state *next, struct pdb_detect_result *res,
		       struct pdb_err *err)
{
	struct pdb_detect_state cached = { 0 };
	struct pdb_detect_cache_row row;
	int found = 0, rc;

	if (use_cache) {
		if (pdb_store_detect_cache_get(store, series_id, params, &row, &found, err) < 0)
			return -1;
		found = found && pdb_detect_state_of_row(&row, &cached) == 0;
		pdb_detect_cache_row_release(&row);
	}
	rc = pdb_detect(x, n, o, found ? &cached : NULL, next, res, err);
	pdb_detect_state_release(&cached);
	return rc;
}

int pdb_detect_cache_save(struct pdb_store *store, const char *params, const char *selection,
			  const struct pdb_detect_cache_entry *e, size_t n, const char **note,
			  struct pdb_err *err)
{
	struct pdb_detect_cache_put_entry *rows;
	int rc;

	*note = NULL;
	if (pdb_store_readonly(store)) {
		pdb_store_rollback(store);
		*note = "the database is read-only: the detect cache is not updated";
		return 0;
	}
	rows = pdb_xcalloc(n ? n : 1, sizeof *rows);
	for (size_t i = 0; i < n; i++) {
		rows[i].series_id = e[i].series_id;
		rows[i].values = e[i].values;
		pdb_detect_row_of_state(e[i].state, &rows[i].row);
	}
	rc = pdb_store_detect_cache_put(store, params, selection, rows, n, err);
	for (size_t i = 0; i < n; i++) {
		free(rows[i].row.weak);
		free(rows[i].row.spikes);
	}
	free(rows);
	if (rc < 0)
		return -1;
	if (rc == 1)
		*note = "another process wrote to the database while it was read: the detect "
			"cache is not updated";
	return 0;
}

const struct pdb_history_point *pdb_detect_found_label(const struct pdb_detect_found *f, size_t i)
{
	for (size_t k = 0; k < f->nlabels; k++)
		if (f->label_at[k] == i)
			return &f->labels[k];
	return NULL;
}

static void add_label(struct pdb_detect_found *f, size_t i, size_t *cap)
{
	if (pdb_detect_found_label(f, i))
		return;
	pdb_grow((void **)&f->label_at, cap, f->nlabels + 1, sizeof *f->label_at);
	f->labels = pdb_xrealloc(f->labels, *cap * sizeof *f->labels);
	memset(&f->labels[f->nlabels], 0, sizeof *f->labels);
	f->labels[f->nlabels].run_id = f->values.v.run_ids[i];
	f->label_at[f->nlabels++] = i;
}

/* Read the name and commit of the runs the change points and outliers
 * name, for the text output and --fail-recent (the other points need none). */
static int label_points(struct pdb_store *store, struct pdb_detect_found *f, struct pdb_err *err)
{
	size_t cap = 0;

	for (size_t k = 0; k < f->res.ncps; k++) {
		add_label(f, f->res.cps[k].index_before, &cap);
		add_label(f, f->res.cps[k].index, &cap);
	}
	for (size_t k = 0; k < f->res.noutliers; k++)
		add_label(f, f->res.outliers[k].index, &cap);
	for (size_t k = 0; k < f->nlabels; k++)
		if (pdb_store_point_label(store, &f->labels[k], err) < 0)
			return -1;
	return 0;
}

int pdb_gather_detect(struct pdb_store *store, const struct pdb_detect_gather *g,
		      struct pdb_detect_found *f, struct pdb_err *err)
{
	struct pdb_detect_opts o = *g->opts;

	pdb_detect_opts_for(&o, f->series->metric, f->series->unit, f->series->direction);
	if (pdb_store_detect_values(store, f->series->id, g->where, g->since_id, g->selection,
				    g->use_cache, &f->values, err) < 0 ||
	    pdb_detect_resumed(store, f->series->id, g->params, g->use_cache, f->values.v.values,
			       f->values.v.n, &o, &f->state, &f->res, err) < 0)
		return -1;
	if (g->labels && label_points(store, f, err) < 0)
		return -1;
	return 0;
}

void pdb_detect_found_release(struct pdb_detect_found *f)
{
	pdb_series_values_release(&f->values.v);
	pdb_history_free(f->labels, f->nlabels);
	free(f->label_at);
	pdb_detect_result_release(&f->res);
	pdb_detect_state_release(&f->state);
}
