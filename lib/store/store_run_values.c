/* Store: each run's values in one blob (schema/010-run-values.sql), kept
 * as lib/run_values.c packs them and handed back as they are: the store
 * writes them with the run, fills them for the runs of an older schema, and
 * reads them for compare's history (lib/gather/compare_gather.c), which
 * unpacks them. */
#include <math.h>
#include <stdlib.h>

#include "store/store_internal.h"

int pdb_store_put_run_values(struct pdb_store *store, sqlite3_stmt *st, int64_t run_id,
			     struct pdb_series_value *vals, size_t n, struct pdb_err *err)
{
	size_t len;
	unsigned char *blob = pdb_run_values_pack(vals, n, &len);
	int rc;

	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_blob64(st, 2, blob, len, free);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "add run values");
}

/* The statistics a result without samples is valued by, into r. */
static int value_stats(struct pdb_store *store, sqlite3_stmt *st, int64_t result_id,
		       struct pdb_result *r, struct pdb_err *err)
{
	int rc;

	sqlite3_bind_int64(st, 1, result_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		pdb_result_set_stat(r, (const char *)sqlite3_column_text(st, 0),
				    sqlite3_column_type(st, 1) == SQLITE_NULL ? NAN
				    : sqlite3_column_double(st, 1));
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "read a result's statistics");
}

/* The run value of the result row of rows (id, run_id, series_id, samples,
 * weights) into *out, as the history read valued it from the store. */
static int stored_value(struct pdb_store *store, sqlite3_stmt *rows, sqlite3_stmt *stats,
			struct pdb_series_value *out, struct pdb_err *err)
{
	const unsigned char *blob = sqlite3_column_blob(rows, 3);
	const unsigned char *weights = sqlite3_column_blob(rows, 4);
	struct pdb_result r = { 0 };
	int ret = 0;

	r.nsamples = blob ? (size_t)sqlite3_column_bytes(rows, 3) / 8 : 0;
	r.samples = pdb_xmalloc((r.nsamples ? r.nsamples : 1) * sizeof *r.samples);
	for (size_t k = 0; k < r.nsamples; k++)
		r.samples[k] = PDB_SAMPLE(NAN);
	pdb_store_unpack(blob, r.nsamples, PDB_PACK_VALUE, r.samples);
	if (weights && (size_t)sqlite3_column_bytes(rows, 4) == r.nsamples * 8)
		pdb_store_unpack(weights, r.nsamples, PDB_PACK_WEIGHT, r.samples);
	if (r.nsamples == 0)
		ret = value_stats(store, stats, sqlite3_column_int64(rows, 0), &r, err);
	out->series_id = sqlite3_column_int64(rows, 2);
	pdb_result_run_value(&r, &out->v);
	for (size_t k = 0; k < r.nstats; k++)
		free(r.stats[k].name);
	free(r.stats);
	free(r.samples);
	return ret;
}

int pdb_store_migrate_run_values(struct pdb_store *store, struct pdb_err *err)
{
	/* every result, run by run (results' (run_id, series_id) key), then
	 * the runs without a result */
	sqlite3_stmt *rows = pdb_store_prepare(store,
		"SELECT id, run_id, series_id, samples, weights FROM results ORDER BY run_id", err);
	sqlite3_stmt *stats = pdb_store_prepare(store,
		"SELECT name, value FROM stats WHERE result_id = ?"
		" AND name IN ('median', 'p50', 'mean')", err);
	sqlite3_stmt *put = pdb_store_prepare(store, PDB_RUN_VALUES_INSERT, err);
	sqlite3_stmt *empty = pdb_store_prepare(store, "SELECT id FROM runs WHERE id NOT IN"
						" (SELECT run_id FROM run_values)", err);
	struct pdb_series_value *vals = NULL;
	size_t n = 0, cap = 0;
	int64_t run = 0;
	int rc = SQLITE_ERROR, ret = -1;

	if (!rows || !stats || !put || !empty)
		goto out;
	while ((rc = sqlite3_step(rows)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(rows, 1);

		if (n > 0 && id != run) {
			if (pdb_store_put_run_values(store, put, run, vals, n, err) < 0)
				goto out;
			n = 0;
		}
		run = id;
		pdb_grow((void **)&vals, &cap, n + 1, sizeof *vals);
		if (stored_value(store, rows, stats, &vals[n++], err) < 0)
			goto out;
	}
	if (rc != SQLITE_DONE) {
		pdb_store_fail(store, err, "fill run values");
		goto out;
	}
	if (n > 0 && pdb_store_put_run_values(store, put, run, vals, n, err) < 0)
		goto out;
	while ((rc = sqlite3_step(empty)) == SQLITE_ROW)
		if (pdb_store_put_run_values(store, put, sqlite3_column_int64(empty, 0), NULL, 0,
					     err) < 0)
			goto out;
	if (rc != SQLITE_DONE) {
		pdb_store_fail(store, err, "fill run values");
		goto out;
	}
	ret = 0;
out:
	free(vals);
	sqlite3_finalize(rows);
	sqlite3_finalize(stats);
	sqlite3_finalize(put);
	sqlite3_finalize(empty);
	return ret;
}

/* The series of run_id whose benchmark failed in it, ascending, into
 * *failed (grown as needed). */
static int failed_series(struct pdb_store *store, sqlite3_stmt *st, int64_t run_id,
			 int64_t **failed, size_t *n, size_t *cap, struct pdb_err *err)
{
	int rc;

	*n = 0;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pdb_grow((void **)failed, cap, *n + 1, sizeof **failed);
		(*failed)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "a run's failed series");
}

int pdb_store_each_run_values(struct pdb_store *store, const char *where, int64_t until_id,
			      pdb_run_values_fn fn, void *ctx, struct pdb_err *err)
{
	struct pdb_order_bounds b;
	struct pdb_buf sql;
	sqlite3_stmt *runs = NULL, *failed = NULL;
	int64_t *ids = NULL;
	size_t cap = 0;
	int rc = SQLITE_ERROR, ret = -1;

	pdb_buf_init(&sql);
	pdb_buf_puts(&sql, "SELECT r.id, v.vals, EXISTS (SELECT 1 FROM failures f"
		     " WHERE f.run_id = r.id) FROM runs r LEFT JOIN run_values v ON v.run_id = r.id"
		     " WHERE r.seq >= ?1 AND r.seq <= ?2");
	pdb_store_filter_sql(&sql, where, 3);
	pdb_buf_puts(&sql, " ORDER BY r.seq DESC");
	if (pdb_store_order_bounds(store, 0, until_id, &b, err) == 0 &&
	    (failed = pdb_store_prepare(store, "SELECT res.series_id FROM results res"
					" WHERE res.run_id = ?1 AND " PDB_FAILED_IN_RUN("res")
					" ORDER BY res.series_id", err)))
		runs = pdb_store_prepare(store, sql.data, err);
	pdb_buf_release(&sql);
	if (!runs)
		goto out;
	sqlite3_bind_int64(runs, 1, b.lo);
	sqlite3_bind_int64(runs, 2, b.hi);
	pdb_store_filter_bind(runs, where, 3);
	while ((rc = sqlite3_step(runs)) == SQLITE_ROW) {
		struct pdb_stored_run_values rv = { store->path, sqlite3_column_int64(runs, 0), NULL,
						     0, NULL, 0 };
		int k;

		if (sqlite3_column_type(runs, 1) != SQLITE_BLOB) {
			pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: database is corrupt: run%lld %s",
				    store->path, (long long)rv.run_id,
				    sqlite3_column_type(runs, 1) == SQLITE_NULL ? "has no run values"
				    : "has run values that are not a blob");
			goto out;
		}
		rv.vals = sqlite3_column_blob(runs, 1);
		rv.len = (size_t)sqlite3_column_bytes(runs, 1);
		if (sqlite3_column_int(runs, 2)) {
			if (failed_series(store, failed, rv.run_id, &ids, &rv.nfailed, &cap, err) < 0)
				goto out;
			rv.failed = ids;
		}
		if ((k = fn(ctx, &rv, err)) < 0)
			goto out;
		if (k > 0)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		pdb_store_fail(store, err, "run values");
		goto out;
	}
	ret = 0;
out:
	free(ids);
	sqlite3_finalize(runs);
	sqlite3_finalize(failed);
	return ret;
}
