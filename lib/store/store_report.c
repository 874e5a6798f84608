/* Store: the queries behind `perfdb report` (the default baseline). */
#include "store/store_report.h"

#include "store/store_internal.h"

/* Run r has a value of a series run ?1 has a value of. */
#define SHARES_A_SERIES "EXISTS (SELECT 1 FROM results p JOIN results c" \
	" ON c.series_id = p.series_id WHERE p.run_id = r.id AND c.run_id = ?1" \
	" AND NOT " PDB_FAILED_IN_RUN("p") " AND NOT " PDB_FAILED_IN_RUN("c") ")"

int pdb_store_runs_share(struct pdb_store *store, int64_t a, int64_t b, struct pdb_err *err)
{
	/* a series in common, each with a value (not of a benchmark that
	 * failed in its run) */
	sqlite3_stmt *st = pdb_store_prepare(store, "SELECT " SHARES_A_SERIES
					     " FROM (SELECT ?2 AS id) r", err);
	int rc, yes = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_int64(st, 2, b);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		yes = sqlite3_column_int(st, 0);
	else
		pdb_store_fail(store, err, "compare two runs' series");
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? yes : -1;
}
