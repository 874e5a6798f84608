/* Store: look a run up by uuid (deduplication of runs that arrive more than once). */
#include "store/store_uuid.h"

#include "store/store_internal.h"

int pdb_store_find_uuid(struct pdb_store *store, const char *uuid, int64_t *id,
			struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store, "SELECT id FROM runs WHERE uuid = ?", err);
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, uuid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return pdb_store_fail(store, err, "find run by uuid");
	return 0;
}
