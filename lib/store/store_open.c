/* Store: opening a perfdb SQLite file (its checks, the migrations to the
 * current schema) and closing it. */
#include "store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#define BUSY_TIMEOUT_MS 60000

/* PRAGMA application_id of perfdb's files: "pfdb". */
#define PERFDB_APPLICATION_ID 0x70666462

/* A SQLite file another program made is never migrated into a perfdb one, nor
 * written at all: perfdb's carry its application id; older ones none, but a
 * schema version and the tables of perfdb's first schema; a file with no
 * table and no version is new, perfdb's to make. Asked before anything is
 * written. */
static int check_foreign(struct pdb_store *store, int have, struct pdb_err *err)
{
	int app, tables, own;

	const char *what = "read the database header";

	if (pdb_store_query_int(store, "PRAGMA application_id", &app, what, err) < 0 ||
	    pdb_store_query_int(store, "SELECT count(*) FROM sqlite_master", &tables, what, err) < 0 ||
	    pdb_store_query_int(store, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
				"name IN ('runs', 'run_attrs', 'series', 'results', 'stats')", &own,
				what, err) < 0)
		return -1;
	if (app == PERFDB_APPLICATION_ID || (app == 0 && have == 0 && tables == 0) ||
	    (app == 0 && have > 0 && own == 5))
		return 0;
	return pdb_err_set(err, PDB_EXIT_INPUT, "%s: not a perfdb database (another program's "
			   "SQLite file): nothing changed", store->path);
}

static int user_version(struct pdb_store *store, int *version, struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store, "PRAGMA user_version", err);
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	*version = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return pdb_store_fail(store, err, "read schema version");
	if (*version < 0) /* no perfdb writes one: another program's file, or damage */
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: unknown schema version %d",
				   store->path, *version);
	return 0;
}

/* Apply the migrations this database has not seen, each in its own
 * transaction with its version bump. */
static int migrate(struct pdb_store *store, struct pdb_err *err)
{
	int have, known = 0;

	while (pdb_migrations[known].name)
		known++;
	if (user_version(store, &have, err) < 0)
		return -1;
	if (have > known)
		return pdb_err_set(err, PDB_EXIT_RUNTIME,
				   "%s: database schema %d is newer than this perfdb (%d); upgrade perfdb",
				   store->path, have, known);
	if (have == known)
		return 0;
	if (store->readonly)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: read-only, and its schema %d needs "
				   "migrating to %d by a perfdb that can write it", store->path, have, known);
	if (pdb_store_begin(store, err) < 0)
		return -1;
	/* another process may have migrated while we waited for the lock */
	if (user_version(store, &have, err) < 0)
		goto fail;
	for (int i = have; i < known; i++) {
		char pragma[64];
		if (pdb_store_exec(store, pdb_migrations[i].sql, err) < 0)
			goto fail;
		if (strcmp(pdb_migrations[i].name, "007-series-identity") == 0 &&
		    pdb_store_migrate_scans(store, err) < 0)
			goto fail;
		if (strcmp(pdb_migrations[i].name, "010-run-values") == 0 &&
		    pdb_store_migrate_run_values(store, err) < 0)
			goto fail;
		snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", i + 1);
		if (pdb_store_exec(store, pragma, err) < 0)
			goto fail;
	}
	{
		char pragma[64];
		snprintf(pragma, sizeof pragma, "PRAGMA application_id = %d", PERFDB_APPLICATION_ID);
		if (pdb_store_exec(store, pragma, err) < 0)
			goto fail;
	}
	return pdb_store_commit(store, err);
fail:
	pdb_store_rollback(store);
	return -1;
}

/* Whether path can be written: the file when it exists, else its folder (SQLite
 * also needs the folder for WAL's -wal and -shm files). */
static int writable(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? pdb_xstrndup(path, slash == path ? 1 : (size_t)(slash - path))
			  : pdb_xstrdup(".");
	int ok = access(dir, W_OK) == 0 && (access(path, F_OK) != 0 || access(path, W_OK) == 0);

	free(dir);
	return ok;
}

/* Whether path-wal exists with frames in it (committed changes not yet
 * folded into the file). */
static int wal_has_changes(const char *path)
{
	char *wal = pdb_xasprintf("%s-wal", path);
	struct stat st;
	int yes = stat(wal, &st) == 0 && st.st_size > 32; /* more than the WAL header */

	free(wal);
	return yes;
}

int pdb_store_readonly(const struct pdb_store *store)
{
	return store->readonly;
}

const char *pdb_store_default_path(const char *explicit_path)
{
	const char *env = getenv("PERFDB_DB");

	if (explicit_path && *explicit_path)
		return explicit_path;
	if (env && *env)
		return env;
	return "perfdb.db";
}

/* Whether the file just opened is perfdb's: a schema version and a runs table.
 * Asked before anything is written (journal mode, migrations). */
static int check_perfdb(struct pdb_store *store, struct pdb_err *err)
{
	sqlite3_stmt *st = NULL;
	int version = 0, rc, ret = -1;

	if (sqlite3_prepare_v2(store->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK ||
	    (rc = sqlite3_step(st)) != SQLITE_ROW) {
		if ((sqlite3_errcode(store->db) & 0xff) == SQLITE_NOTADB)
			pdb_err_set(err, PDB_EXIT_INPUT, "%s: not a perfdb database (%s)",
				    store->path, sqlite3_errmsg(store->db));
		else /* out of memory, a read error: not the file's kind */
			pdb_store_fail(store, err, "read schema version");
		goto out;
	}
	version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (version == 0 ||
	    sqlite3_prepare_v2(store->db, "SELECT 1 FROM sqlite_master WHERE type = 'table'"
			       " AND name = 'runs'", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		pdb_err_set(err, PDB_EXIT_INPUT, "%s: not a perfdb database (%s)", store->path,
			    version == 0 ? "no schema version" : "no runs table");
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/* A store is one thread's (the site's page threads draw from what was read
 * before, never from it): its connection is opened without SQLite's mutex
 * (SQLITE_OPEN_NOMUTEX), which every sqlite3_column_* call took (a
 * 20,000-series compare made 945,000 of them). */
static struct pdb_store *open_store(const char *path, int existing, struct pdb_err *err)
{
	struct pdb_store *store = pdb_xcalloc(1, sizeof *store);
	int have;

	store->path = pdb_xstrdup(path);
	store->readonly = !writable(path);
	if (store->readonly) {
		/* a read-only file, folder or filesystem: WAL's -shm cannot be made,
		 * so read it as the immutable file it is; but changes committed to a
		 * -wal file left beside it (a writer killed, or another program
		 * holding it) are not in the file: read them through the -shm there,
		 * or say they cannot be read, never show what is without them */
		int wal = wal_has_changes(path);
		char *uri = sqlite3_mprintf(wal ? "file:%s?mode=ro" : "file:%s?immutable=1", path);
		int rc = sqlite3_open_v2(uri, &store->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
					 SQLITE_OPEN_NOMUTEX, NULL);
		sqlite3_free(uri);
		if (rc == SQLITE_OK && wal)
			rc = sqlite3_exec(store->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
		if (rc != SQLITE_OK && wal) {
			pdb_err_set(err, PDB_EXIT_RUNTIME, "%s-wal: changes committed there cannot be read "
				    "by a read-only opening (%s); open the database once where it can be "
				    "written, which folds them into the file", path,
				    pdb_store_errmsg(store->db));
			goto fail;
		}
		if (rc != SQLITE_OK) {
			pdb_store_fail(store, err, "open");
			goto fail;
		}
	} else if (sqlite3_open_v2(path, &store->db,
				   SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
				   NULL) != SQLITE_OK) {
		pdb_store_fail(store, err, "open");
		goto fail;
	}
	sqlite3_busy_timeout(store->db, BUSY_TIMEOUT_MS);
	if (existing && check_perfdb(store, err) < 0)
		goto fail;
	/* before any pragma that writes: another program's file stays as it was */
	if (user_version(store, &have, err) < 0 || check_foreign(store, have, err) < 0)
		goto fail;
	if (!store->readonly &&
	    (pdb_store_exec(store, "PRAGMA journal_mode = WAL", err) < 0 ||
	     pdb_store_exec(store, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;"
			    " PRAGMA mmap_size = 1073741824", err) < 0))
		goto fail;
	if (migrate(store, err) < 0)
		goto fail;
	return store;
fail:
	pdb_store_close(store);
	return NULL;
}

struct pdb_store *pdb_store_open(const char *path, struct pdb_err *err)
{
	return open_store(path, 0, err);
}

struct pdb_store *pdb_store_open_existing(const char *path, struct pdb_err *err)
{
	if (access(path, F_OK) != 0)
		return pdb_err_set(err, PDB_EXIT_INPUT, "%s: no such file", path), NULL;
	return open_store(path, 1, err);
}

void pdb_store_close(struct pdb_store *store)
{
	if (!store)
		return;
	for (size_t i = 0; i < PDB_STORE_KEPT; i++) {
		sqlite3_finalize(store->kept[i].st);
		free(store->kept[i].sql);
	}
	sqlite3_close(store->db);
	free(store->path);
	free(store);
}
