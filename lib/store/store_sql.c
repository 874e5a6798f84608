/* Store: one read-only SQL statement over the database for `perfdb sql`, with
 * the views samples_v (packed samples unpacked) and stats_v. */
#include "store/store_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUSY_TIMEOUT_MS 60000

/* The views docs/commands.md's sql section documents: temporary, so the file is never changed. */
static const char views_sql[] =
	"CREATE TEMP VIEW samples_v AS SELECT"
	" ru.id AS run_id, ru.name AS run_name, r.id AS result_id, se.benchmark, se.dims,"
	" se.metric, se.unit,"
	" CASE WHEN se.direction < 0 THEN 'higher' WHEN se.direction > 0 THEN 'lower'"
	" ELSE 'none' END AS direction,"
	" u.idx AS sample, u.value, u.t, u.weight"
	" FROM main.runs ru JOIN main.results r ON r.run_id = ru.id"
	" JOIN main.series se ON se.id = r.series_id,"
	" pdb_unpack(r.samples, r.offsets, r.weights) u;"
	"CREATE TEMP VIEW stats_v AS SELECT"
	" ru.id AS run_id, ru.name AS run_name, r.id AS result_id, se.benchmark, se.dims,"
	" se.metric, se.unit,"
	" CASE WHEN se.direction < 0 THEN 'higher' WHEN se.direction > 0 THEN 'lower'"
	" ELSE 'none' END AS direction,"
	" st.name AS stat, st.value"
	" FROM main.runs ru JOIN main.results r ON r.run_id = ru.id"
	" JOIN main.series se ON se.id = r.series_id"
	" JOIN main.stats st ON st.result_id = r.id;";

/* PRAGMAs that only tell: introspection (an argument names a table or an
 * index), and settings read without an argument. Any other is refused. */
static const char *const pragma_introspect[] = {
	"table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
	"foreign_key_list", "integrity_check", "quick_check", NULL,
};
static const char *const pragma_settings[] = {
	"user_version", "application_id", "schema_version", "page_count", "page_size",
	"freelist_count", "journal_mode", "encoding", "foreign_keys", "compile_options",
	"database_list", "function_list", "module_list", "pragma_list", "collation_list", NULL,
};

/* Functions that give a pointer into perfdb's memory (fts3_tokenizer's
 * one-argument form) or change the connection (load_extension,
 * fts3_tokenizer's two-argument form): refused. */
static const char *const functions_refused[] = { "fts3_tokenizer", "load_extension", NULL };

struct guard {
	char refused[128]; /* what the authorizer denied, or "" */
	struct timespec deadline; /* tv_sec 0: none */
	int late;          /* the progress handler stopped the query */
};

static int listed(const char *const *list, const char *name)
{
	for (size_t i = 0; name && list[i]; i++)
		if (sqlite3_stricmp(list[i], name) == 0)
			return 1;
	return 0;
}

static int authorize(void *ctx, int action, const char *a1, const char *a2, const char *db,
		     const char *trigger)
{
	struct guard *g = ctx;

	(void)db, (void)trigger;
	if (action == SQLITE_ATTACH || action == SQLITE_DETACH) {
		snprintf(g->refused, sizeof g->refused, "%s", action == SQLITE_ATTACH ? "ATTACH" : "DETACH");
		return SQLITE_DENY;
	}
	if (action == SQLITE_FUNCTION && listed(functions_refused, a2)) {
		snprintf(g->refused, sizeof g->refused, "the function %.40s", a2);
		return SQLITE_DENY;
	}
	if (action == SQLITE_PRAGMA && !listed(pragma_introspect, a1) &&
	    !(listed(pragma_settings, a1) && !a2)) {
		snprintf(g->refused, sizeof g->refused, "PRAGMA %.40s%s%.40s", a1, a2 ? " = " : "",
			 a2 ? a2 : "");
		return SQLITE_DENY;
	}
	return SQLITE_OK;
}

/* Called every few thousand steps of the query: nonzero stops it. */
static int past_deadline(void *ctx)
{
	struct guard *g = ctx;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	g->late = now.tv_sec > g->deadline.tv_sec ||
		  (now.tv_sec == g->deadline.tv_sec && now.tv_nsec >= g->deadline.tv_nsec);
	return g->late;
}

/* A read-only connection to the store's file (immutable when the store is
 * read-only: its -shm could not be made), the views made, the guard set. */
static sqlite3 *open_reader(struct pdb_store *store, struct guard *g, struct pdb_err *err)
{
	char *uri = store->readonly ? sqlite3_mprintf("file:%s?immutable=1", store->path) : NULL;
	sqlite3 *db = NULL;
	char *msg = NULL;
	int rc;

	rc = sqlite3_open_v2(uri ? uri : store->path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
			     NULL);
	sqlite3_free(uri);
	if (rc != SQLITE_OK)
		goto fail;
	sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
	if (sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL) != SQLITE_OK ||
	    pdb_store_register_unpack(db) != SQLITE_OK ||
	    sqlite3_exec(db, views_sql, NULL, NULL, &msg) != SQLITE_OK)
		goto fail;
	sqlite3_set_authorizer(db, authorize, g);
	if (g->deadline.tv_sec)
		sqlite3_progress_handler(db, 10000, past_deadline, g);
	return db;
fail:
	pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: open for reading: %s", store->path,
		    db ? pdb_store_errmsg(db) : "out of memory");
	sqlite3_free(msg);
	sqlite3_close(db);
	return NULL;
}

/* 1-based line and column of byte offset at in sql. */
static void locate(const char *sql, int at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (int i = 0; i < at && sql[i]; i++) {
		if (sql[i] == '\n') {
			++*line;
			*col = 1;
		} else if (((unsigned char)sql[i] & 0xc0) != 0x80) {
			++*col;
		}
	}
}

/* An error in the query itself: exit 2, where the database says it is. */
static int query_error(sqlite3 *db, const char *sql, const struct guard *g, struct pdb_err *err)
{
	int line = 0, col = 0, at = sqlite3_error_offset(db);

	if (*g->refused)
		return pdb_err_set(err, PDB_EXIT_USAGE, "%s is refused: perfdb sql only reads "
				   "(nothing changed)", g->refused);
	if (at < 0)
		return pdb_err_set(err, PDB_EXIT_USAGE, "%s", sqlite3_errmsg(db));
	locate(sql, at, &line, &col);
	return pdb_err_at(err, PDB_EXIT_USAGE, "query", line, col, "%s", sqlite3_errmsg(db));
}

/* The statement of sql, which must be one statement that only reads. */
static sqlite3_stmt *prepare_one(sqlite3 *db, const char *sql, const struct guard *g,
				 struct pdb_err *err)
{
	sqlite3_stmt *st = NULL, *more = NULL;
	const char *tail = NULL;
	int line, col;

	if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK) {
		query_error(db, sql, g, err);
		return NULL;
	}
	if (!st) {
		pdb_err_set(err, PDB_EXIT_USAGE, "the query holds no statement");
		return NULL;
	}
	if (sqlite3_prepare_v2(db, tail, -1, &more, NULL) != SQLITE_OK || more) {
		locate(sql, (int)(tail - sql), &line, &col);
		pdb_err_at(err, PDB_EXIT_USAGE, "query", line, col,
			   "a second statement: perfdb sql runs one at a time");
		goto fail;
	}
	if (!sqlite3_stmt_readonly(st)) {
		pdb_err_set(err, PDB_EXIT_USAGE, "the statement writes: perfdb sql only reads "
			    "(nothing changed)");
		goto fail;
	}
	return st;
fail:
	sqlite3_finalize(more);
	sqlite3_finalize(st);
	return NULL;
}

static void fill_cell(sqlite3_stmt *st, int i, struct pdb_sql_cell *c)
{
	memset(c, 0, sizeof *c);
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER:
		c->type = PDB_SQL_INT;
		c->i = sqlite3_column_int64(st, i);
		break;
	case SQLITE_FLOAT:
		c->type = PDB_SQL_REAL;
		c->r = sqlite3_column_double(st, i);
		break;
	case SQLITE_TEXT:
		c->type = PDB_SQL_TEXT;
		c->data = sqlite3_column_text(st, i);
		c->len = (size_t)sqlite3_column_bytes(st, i);
		break;
	case SQLITE_BLOB:
		c->type = PDB_SQL_BLOB;
		c->data = sqlite3_column_blob(st, i);
		c->len = (size_t)sqlite3_column_bytes(st, i);
		break;
	default:
		c->type = PDB_SQL_NULL;
	}
}

/* The query stopped by one of its bounds: the error naming it, or 0 (not so). */
static int past_limits(sqlite3 *db, const struct guard *g, const struct pdb_sql_limits *limits,
		       struct pdb_err *err)
{
	int rc = sqlite3_extended_errcode(db);

	if ((rc & 0xff) == SQLITE_INTERRUPT && g->late)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "the query ran past --timeout %g s: "
				   "stopped (--timeout 0 lifts the bound)", limits->seconds), 1;
	if ((rc & 0xff) == SQLITE_NOMEM && limits->memory)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "out of memory: the query may hold at most "
				   "--max-memory %llu bytes (--max-memory 0 lifts the bound)",
				   (unsigned long long)limits->memory), 1;
	return 0;
}

int pdb_store_sql(struct pdb_store *store, const char *sql, const struct pdb_sql_limits *limits,
		  const struct pdb_sql_sink *sink, struct pdb_err *err)
{
	struct guard g;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	const char **names = NULL;
	struct pdb_sql_cell *cells = NULL;
	sqlite3_int64 heap = sqlite3_hard_heap_limit64(-1);
	int ncols, rc, ret = -1;

	memset(&g, 0, sizeof g);
	if (limits->seconds > 0) {
		double whole = floor(limits->seconds);
		clock_gettime(CLOCK_MONOTONIC, &g.deadline);
		g.deadline.tv_sec += (time_t)whole;
		g.deadline.tv_nsec += (long)((limits->seconds - whole) * 1e9);
		if (g.deadline.tv_nsec >= 1000000000L) {
			g.deadline.tv_sec++;
			g.deadline.tv_nsec -= 1000000000L;
		}
	}
	sqlite3_hard_heap_limit64(limits->memory ? (sqlite3_int64)limits->memory : 0);
	if (!(db = open_reader(store, &g, err)) || !(st = prepare_one(db, sql, &g, err)))
		goto out;
	ncols = sqlite3_column_count(st);
	names = pdb_xcalloc((size_t)ncols, sizeof *names);
	cells = pdb_xcalloc((size_t)ncols, sizeof *cells);
	for (int i = 0; i < ncols; i++)
		names[i] = sqlite3_column_name(st, i);
	/* the names after the first step: a query that fails at once prints nothing */
	if ((rc = sqlite3_step(st)) == SQLITE_ROW || rc == SQLITE_DONE)
		sink->columns(sink->ctx, names, (size_t)ncols);
	for (; rc == SQLITE_ROW; rc = sqlite3_step(st)) {
		for (int i = 0; i < ncols; i++)
			fill_cell(st, i, &cells[i]);
		sink->row(sink->ctx, cells, (size_t)ncols);
	}
	if (rc != SQLITE_DONE) {
		/* a bound; a plain error is the query's (a bad argument, an overflow); others the file's */
		if (past_limits(db, &g, limits, err))
			;
		else if ((rc & 0xff) == SQLITE_ERROR)
			query_error(db, sql, &g, err);
		else
			pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", store->path, pdb_store_errmsg(db));
		goto out;
	}
	ret = 0;
out:
	free(names);
	free(cells);
	sqlite3_finalize(st);
	sqlite3_close(db);
	sqlite3_hard_heap_limit64(heap);
	return ret;
}
