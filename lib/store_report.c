/* Store: the queries behind `perfdb report` (the default baseline). */
#include "store_report.h"

#include "store_internal.h"

/* A value of the series of result `res` in its run: not of a benchmark that
 * failed there (as the history's points, store_history.c). */
#define VALUE_OF(res) "NOT EXISTS (SELECT 1 FROM failures f CROSS JOIN series s" \
		      " WHERE f.run_id = " res ".run_id AND s.id = " res ".series_id" \
		      " AND f.benchmark = s.benchmark AND f.dims = s.dims)"

int pdb_store_previous_run(struct pdb_store *store, int64_t before_id, const char *key,
			   const char *value, int64_t *id, struct pdb_err *err)
{
	sqlite3_stmt *st;
	int rc;

	*id = 0;
	/* the site's rule (lib/site/gather.c, run_prevs): a series in common,
	 * each with a value */
	st = pdb_store_prepare(store, key
		? "SELECT r.id FROM runs r JOIN run_attrs a ON a.run_id = r.id "
		  "WHERE r.id < ?1 AND a.key = ?2 AND a.value = ?3 AND EXISTS (SELECT 1 "
		  "FROM results p JOIN results c ON c.series_id = p.series_id "
		  "WHERE p.run_id = r.id AND c.run_id = ?1 AND " VALUE_OF("p") " AND "
		  VALUE_OF("c") ") ORDER BY r.id DESC LIMIT 1"
		: "SELECT r.id FROM runs r WHERE r.id < ?1 AND EXISTS (SELECT 1 "
		  "FROM results p JOIN results c ON c.series_id = p.series_id "
		  "WHERE p.run_id = r.id AND c.run_id = ?1 AND " VALUE_OF("p") " AND "
		  VALUE_OF("c") ") ORDER BY r.id DESC LIMIT 1", err);
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
