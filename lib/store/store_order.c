/* Store: the order of runs, by the time they were measured (runs.seq). */
#include "store/store_internal.h"

#include <stdlib.h>

int pdb_store_place_run(struct pdb_store *store, const char *created_at, int64_t *seq,
			struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		/* after every run measured at or before it (their ids are lower) */
		"SELECT coalesce((SELECT max(seq) FROM runs WHERE created_at <= ?1), 0),"
		" coalesce((SELECT max(seq) FROM runs), 0)", err);
	int64_t after, top;
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, created_at, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	after = sqlite3_column_int64(st, 0);
	top = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return pdb_store_fail(store, err, "place run");
	*seq = after + 1;
	if (after == top) /* the common case: measured after every other */
		return 0;
	st = pdb_store_prepare(store, "UPDATE runs SET seq = seq + 1 WHERE seq > ?1", err);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, after);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "place run");
}

int pdb_store_run_seq(struct pdb_store *store, int64_t id, int64_t *seq, struct pdb_err *err)
{
	sqlite3_stmt *st;
	int rc;

	*seq = 0;
	if (id <= 0)
		return 0;
	st = pdb_store_prepare_kept(store, "SELECT seq FROM runs WHERE id = ?1", err);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*seq = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "run order");
}

int pdb_store_order_bounds(struct pdb_store *store, int64_t since_id, int64_t until_id,
			   struct pdb_order_bounds *b, struct pdb_err *err)
{
	b->lo = 0;
	b->hi = INT64_MAX;
	b->lo_id = 0;
	if (pdb_store_run_seq(store, since_id, &b->lo, err) < 0 ||
	    pdb_store_run_seq(store, until_id, &b->hi, err) < 0)
		return -1;
	if (since_id > 0 && b->lo == 0)
		b->lo = INT64_MAX; /* no such run: nothing */
	if (until_id <= 0)
		b->hi = INT64_MAX;
	return pdb_store_order_lo_id(store, b, err);
}

int pdb_store_order_lo_id(struct pdb_store *store, struct pdb_order_bounds *b,
			  struct pdb_err *err)
{
	sqlite3_stmt *st;
	int rc;

	b->lo_id = 0;
	if (b->lo <= 0)
		return 0;
	/* the runs from lo on are the tail of the order: the index of seq
	 * reads them only (+id: min(id) alone would walk the table by id) */
	st = pdb_store_prepare_kept(store, "SELECT coalesce(min(+id), 9223372036854775807)"
				    " FROM runs WHERE seq >= ?1", err);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, b->lo);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		b->lo_id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : pdb_store_fail(store, err, "run order");
}

struct id_seq {
	int64_t id, seq;
};

static int cmp_seq(const void *a, const void *b)
{
	int64_t x = ((const struct id_seq *)a)->seq, y = ((const struct id_seq *)b)->seq;
	return (x > y) - (x < y);
}

int pdb_store_sort_runs(struct pdb_store *store, int64_t *ids, size_t n, struct pdb_err *err)
{
	struct id_seq *v = pdb_xmalloc((n + 1) * sizeof *v);

	for (size_t i = 0; i < n; i++) {
		v[i].id = ids[i];
		if (pdb_store_run_seq(store, ids[i], &v[i].seq, err) < 0) {
			free(v);
			return -1;
		}
	}
	qsort(v, n, sizeof *v, cmp_seq);
	for (size_t i = 0; i < n; i++)
		ids[i] = v[i].id;
	free(v);
	return 0;
}
