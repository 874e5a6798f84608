/* Store: the queries behind `perfdb report` (the default baseline). */
#include "store_report.h"

#include "store_internal.h"

/* Run r has a value of a series run ?1 has a value of. */
#define SHARES_A_SERIES "EXISTS (SELECT 1 FROM results p JOIN results c" \
	" ON c.series_id = p.series_id WHERE p.run_id = r.id AND c.run_id = ?1" \
	" AND NOT " PDB_FAILED_IN_RUN("p") " AND NOT " PDB_FAILED_IN_RUN("c") ")"

int pdb_store_previous_run(struct pdb_store *store, int64_t before_id, const char *key,
			   const char *value, int64_t *id, struct pdb_err *err)
{
	sqlite3_stmt *st;
	int rc;

	*id = 0;
	/* the site's rule (lib/site/gather.c, run_prevs): a series in common,
	 * each with a value (not of a benchmark that failed in its run) */
	st = pdb_store_prepare(store, key
		? "SELECT r.id FROM runs r JOIN run_attrs a ON a.run_id = r.id "
		  "WHERE r.id < ?1 AND a.key = ?2 AND a.value = ?3 AND " SHARES_A_SERIES
		  " ORDER BY r.id DESC LIMIT 1"
		: "SELECT r.id FROM runs r WHERE r.id < ?1 AND " SHARES_A_SERIES
		  " ORDER BY r.id DESC LIMIT 1", err);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, before_id);
	if (key) {
		sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, value, -1, SQLITE_STATIC);
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		pdb_store_fail(store, err, "find the previous run");
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}
