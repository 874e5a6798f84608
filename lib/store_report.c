/* Store: the queries behind `perfdb report` (the default baseline). */
#include "store_report.h"

#include "store_internal.h"

/* Run r has a value of a series run ?1 has a value of. */
#define SHARES_A_SERIES "EXISTS (SELECT 1 FROM results p JOIN results c" \
	" ON c.series_id = p.series_id WHERE p.run_id = r.id AND c.run_id = ?1" \
	" AND NOT " PDB_FAILED_IN_RUN("p") " AND NOT " PDB_FAILED_IN_RUN("c") ")"

int pdb_store_previous_run(struct pdb_store *store, int64_t before_id, const char *where,
			   int64_t *id, struct pdb_err *err)
{
	struct pdb_buf sql;
	sqlite3_stmt *st;
	int rc;

	*id = 0;
	/* the site's rule (lib/site/gather.c, run_prevs): a series in common,
	 * each with a value (not of a benchmark that failed in its run) */
	pdb_buf_init(&sql);
	pdb_buf_puts(&sql, "SELECT r.id FROM runs r WHERE r.seq < (SELECT seq FROM runs WHERE id = ?1)"
		     " AND " SHARES_A_SERIES);
	pdb_store_filter_sql(&sql, where, 2);
	pdb_buf_puts(&sql, " ORDER BY r.seq DESC LIMIT 1");
	st = pdb_store_prepare(store, sql.data, err);
	pdb_buf_release(&sql);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, before_id);
	pdb_store_filter_bind(st, where, 2);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		pdb_store_fail(store, err, "find the previous run");
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}
