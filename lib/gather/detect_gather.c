/* detect over the store's cache: the split resumed from the state the
 * store keeps, the states saved. */
#include "gather/detect_gather.h"

#include <stdlib.h>

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
