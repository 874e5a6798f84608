/* Store: statements, errors and transactions of the perfdb SQLite file,
 * and the packing of its sample blobs (opening it: store_open.c). */
#include "store/store_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *pdb_store_errmsg(sqlite3 *db)
{
	int rc = sqlite3_extended_errcode(db);

	if ((rc & 0xff) == SQLITE_NOMEM || rc == SQLITE_IOERR_NOMEM ||
	    ((rc & 0xff) == SQLITE_IOERR && sqlite3_system_errno(db) == ENOMEM))
		return "out of memory";
	return sqlite3_errmsg(db);
}

int pdb_store_fail(struct pdb_store *store, struct pdb_err *err, const char *what)
{
	int rc = sqlite3_extended_errcode(store->db);
	int code = (rc & 0xff) == SQLITE_CONSTRAINT ? PDB_EXIT_INPUT : PDB_EXIT_RUNTIME;

	return pdb_err_set(err, code, "%s: %s: %s", store->path, what,
			   pdb_store_errmsg(store->db));
}

int pdb_store_query_int(struct pdb_store *store, const char *sql, int *out, const char *what,
			struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store, sql, err);
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : pdb_store_fail(store, err, what);
}

sqlite3_stmt *pdb_store_prepare(struct pdb_store *store, const char *sql,
				struct pdb_err *err)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(store->db, sql, -1, &st, NULL) != SQLITE_OK) {
		pdb_store_fail(store, err, "prepare");
		return NULL;
	}
	return st;
}

sqlite3_stmt *pdb_store_prepare_kept(struct pdb_store *store, const char *sql,
				     struct pdb_err *err)
{
	struct pdb_kept_stmt *k;

	for (size_t i = 0; i < PDB_STORE_KEPT; i++) {
		k = &store->kept[i];
		if (k->sql && strcmp(k->sql, sql) == 0) {
			sqlite3_reset(k->st);
			sqlite3_clear_bindings(k->st);
			return k->st;
		}
	}
	k = &store->kept[store->next_kept];
	store->next_kept = (store->next_kept + 1) % PDB_STORE_KEPT;
	sqlite3_finalize(k->st);
	free(k->sql);
	k->sql = NULL;
	if (!(k->st = pdb_store_prepare(store, sql, err)))
		return NULL;
	k->sql = pdb_xstrdup(sql);
	return k->st;
}

int pdb_store_exec(struct pdb_store *store, const char *sql, struct pdb_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(store->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", store->path,
			    pdb_store_errmsg(store->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int pdb_store_begin(struct pdb_store *store, struct pdb_err *err)
{
	return pdb_store_exec(store, "BEGIN IMMEDIATE", err);
}

int pdb_store_begin_read(struct pdb_store *store, struct pdb_err *err)
{
	return pdb_store_exec(store, "BEGIN", err);
}

int pdb_store_commit(struct pdb_store *store, struct pdb_err *err)
{
	return pdb_store_exec(store, "COMMIT", err);
}

void pdb_store_rollback(struct pdb_store *store)
{
	if (!sqlite3_get_autocommit(store->db))
		sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
}

static double sample_field(const struct pdb_sample *s, int which)
{
	/* a missing offset or weight is NaN, in memory as in the blob */
	if (which == PDB_PACK_T)
		return s->t;
	if (which == PDB_PACK_WEIGHT)
		return s->weight;
	return s->value;
}

void pdb_store_pack(const struct pdb_sample *s, size_t n, int which, unsigned char *out)
{
	for (size_t i = 0; i < n; i++) {
		double v = sample_field(&s[i], which);
		uint64_t bits;
		memcpy(&bits, &v, 8);
		pdb_put_le64(out + 8 * i, bits);
	}
}

void pdb_store_unpack(const unsigned char *blob, size_t n, int which, struct pdb_sample *s)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t bits = pdb_get_le64(blob + 8 * i);
		double v;
		memcpy(&v, &bits, 8);
		if (which == PDB_PACK_T) {
			s[i].t = v;
		} else if (which == PDB_PACK_WEIGHT) {
			s[i].weight = v;
		} else {
			s[i].value = v;
		}
	}
}

int pdb_store_filter_sql(struct pdb_buf *sql, const char *where, int first_param)
{
	char *copy = where ? pdb_xstrdup(where) : NULL, *save = NULL, *kv;
	int param = first_param;

	for (kv = copy ? strtok_r(copy, ",", &save) : NULL; kv; kv = strtok_r(NULL, ",", &save)) {
		pdb_buf_printf(sql, " AND EXISTS (SELECT 1 FROM run_attrs a WHERE a.run_id = r.id"
				    " AND a.key = ?%d AND a.value = ?%d)", param, param + 1);
		param += 2;
	}
	free(copy);
	return param;
}

void pdb_store_filter_bind(sqlite3_stmt *st, const char *where, int first_param)
{
	char *copy = where ? pdb_xstrdup(where) : NULL, *save = NULL, *kv;
	int param = first_param;

	for (kv = copy ? strtok_r(copy, ",", &save) : NULL; kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		if (eq)
			*eq = '\0';
		sqlite3_bind_text(st, param++, kv, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, param++, eq ? eq + 1 : "", -1, SQLITE_TRANSIENT);
	}
	free(copy);
}
