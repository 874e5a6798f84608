/* Store: reading and writing the cache of weak change points (detect_cache). */
#include "store/store_detect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"
#include "util.h"

char *pdb_store_detect_selection(int64_t since_id, const char *where)
{
	return pdb_xasprintf("since=%lld;where=%s", (long long)since_id, where ? where : "");
}

int pdb_store_detect_cache_get(struct pdb_store *store, int64_t series_id,
			       const char *params, struct pdb_detect_cache_row *row,
			       int *found, struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT covered, checksum, resume, weak, xcovered, xchecksum, spikes"
		" FROM detect_cache"
		" WHERE series_id = ?1 AND params = ?2", err);
	int rc, ret = -1;

	memset(row, 0, sizeof *row);
	*found = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, series_id);
	sqlite3_bind_text(st, 2, params, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *weak = (const char *)sqlite3_column_text(st, 3);
		const char *spikes = (const char *)sqlite3_column_text(st, 6);

		row->covered = sqlite3_column_int64(st, 0);
		row->checksum = (uint64_t)sqlite3_column_int64(st, 1);
		row->resume = sqlite3_column_int64(st, 2);
		row->weak = weak ? pdb_xstrdup(weak) : NULL;
		row->xcovered = sqlite3_column_int64(st, 4);
		row->xchecksum = (uint64_t)sqlite3_column_int64(st, 5);
		row->spikes = spikes ? pdb_xstrdup(spikes) : NULL;
		*found = 1;
		ret = 0;
	} else if (rc == SQLITE_DONE) {
		ret = 0;
	} else {
		pdb_store_fail(store, err, "read detect cache");
	}
	sqlite3_finalize(st);
	return ret;
}

void pdb_detect_cache_row_release(struct pdb_detect_cache_row *row)
{
	free(row->weak);
	free(row->spikes);
	memset(row, 0, sizeof *row);
}

/* Run ids (in the order of runs, so not always ascending) as the signed
 * gaps between them (the first from 0), zigzag-coded into unsigned LEB128
 * varints: a byte or two per point instead of eight. */
static size_t pack_ids(const int64_t *ids, size_t n, unsigned char *out)
{
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t d = ids[i] - (i ? ids[i - 1] : 0);
		uint64_t gap = d < 0 ? ((uint64_t)-(d + 1) << 1) | 1 : (uint64_t)d << 1;

		do {
			out[len++] = (unsigned char)((gap & 0x7f) | (gap > 0x7f ? 0x80 : 0));
			gap >>= 7;
		} while (gap);
	}
	return len;
}

/* The n ids of pack_ids' bytes p[0..len) into ids; -1 unless they are
 * exactly n, positive and none the same as the one before. */
static int unpack_ids(const unsigned char *p, size_t len, int64_t *ids, size_t n)
{
	size_t at = 0;
	int64_t id = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t gap = 0;
		int shift = 0;

		do {
			if (at == len || shift > 56)
				return -1;
			gap |= (uint64_t)(p[at] & 0x7f) << shift;
			shift += 7;
		} while (p[at++] & 0x80);
		if (gap == 0 || (gap >> 1) >= (uint64_t)INT64_MAX)
			return -1;
		if (gap & 1) {
			if ((int64_t)(gap >> 1) >= id - 1)
				return -1;
			id -= (int64_t)(gap >> 1) + 1;
		} else {
			if ((int64_t)(gap >> 1) > INT64_MAX - id)
				return -1;
			id += (int64_t)(gap >> 1);
		}
		ids[i] = id;
	}
	return at == len ? 0 : -1;
}

/* The cached values into dv->v when the row holds together (the schema's
 * triggers delete it when results it covers change); else dv->v stays
 * empty. */
static int cached_values(struct pdb_store *store, int64_t series_id,
			 const char *selection, struct pdb_detect_values *dv,
			 struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare_kept(store,
		"SELECT last_run, run_ids, vals FROM detect_points"
		" WHERE series_id = ?1 AND selection = ?2", err);
	int rc, whole = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, series_id);
	sqlite3_bind_text(st, 2, selection, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		int64_t last_run = sqlite3_column_int64(st, 0);
		const unsigned char *ids = sqlite3_column_blob(st, 1);
		const unsigned char *vals = sqlite3_column_blob(st, 2);
		size_t idlen = (size_t)sqlite3_column_bytes(st, 1);
		size_t bytes = (size_t)sqlite3_column_bytes(st, 2), n = bytes / 8;

		dv->v.run_ids = pdb_xcalloc(n + 1, sizeof *dv->v.run_ids);
		dv->v.values = pdb_xcalloc(n + 1, sizeof *dv->v.values);
		dv->v.cap = n + 1;
		dv->v.n = n;
		/* a row that does not hold together is ignored (and rewritten) */
		whole = last_run > 0 && bytes % 8 == 0 && (n == 0 || (ids && vals)) &&
			unpack_ids(ids, idlen, dv->v.run_ids, n) == 0;
		for (size_t i = 0; whole && i < n; i++) {
			uint64_t bits = pdb_get_le64(vals + 8 * i);

			memcpy(&dv->v.values[i], &bits, 8);
			whole = isfinite(dv->v.values[i]);
		}
		dv->v.last_run = last_run;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		whole = pdb_store_fail(store, err, "read detect values");
	if (whole <= 0)
		pdb_series_values_release(&dv->v);
	return whole < 0 ? -1 : 0;
}

int pdb_store_detect_values(struct pdb_store *store, int64_t series_id,
			    const char *where, int64_t since_id, const char *selection,
			    int use_cache, struct pdb_detect_values *dv,
			    struct pdb_err *err)
{
	int64_t seq = 0;
	int had_cache;

	memset(dv, 0, sizeof *dv);
	if (use_cache && (cached_values(store, series_id, selection, dv, err) < 0 ||
			  pdb_store_run_seq(store, dv->v.last_run, &seq, err) < 0))
		goto fail;
	if (seq == 0) /* none cached, or its last run is gone: read them all */
		pdb_series_values_release(&dv->v);
	had_cache = dv->v.last_run > 0;
	if (pdb_store_series_values(store, series_id, where, since_id, dv->v.last_run,
				    &dv->v, err) < 0)
		goto fail;
	dv->rewrite = dv->v.last_run > 0 &&
		      (!had_cache || dv->v.rows >= PDB_DETECT_TAIL_REWRITE);
	return 0;
fail:
	pdb_series_values_release(&dv->v);
	return -1;
}

/* The detect_points row of one series. */
static int put_values(sqlite3_stmt *st, int64_t series_id, const char *selection,
		      const struct pdb_detect_values *dv)
{
	size_t n = dv->v.n, idlen;
	unsigned char *ids = pdb_xcalloc(n + 1, 10), *vals = pdb_xcalloc(n + 1, 8);
	int rc;

	idlen = pack_ids(dv->v.run_ids, n, ids);
	for (size_t i = 0; i < n; i++) {
		uint64_t bits;

		memcpy(&bits, &dv->v.values[i], 8);
		pdb_put_le64(vals + 8 * i, bits);
	}
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, series_id);
	sqlite3_bind_text(st, 2, selection, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, dv->v.last_run);
	sqlite3_bind_blob(st, 4, ids, (int)idlen, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, vals, (int)(8 * n), SQLITE_STATIC);
	rc = sqlite3_step(st);
	free(ids);
	free(vals);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* A write of the cache failed: 1 when another process wrote to the
 * database after the read transaction began (SQLITE_BUSY_SNAPSHOT, or
 * SQLITE_BUSY while it still writes), else -1 with err. */
static int write_failed(struct pdb_store *store, const char *what, struct pdb_err *err)
{
	if ((sqlite3_errcode(store->db) & 0xff) == SQLITE_BUSY)
		return 1;
	return pdb_store_fail(store, err, what);
}

int pdb_store_detect_cache_put(struct pdb_store *store, const char *params,
			       const char *selection,
			       const struct pdb_detect_cache_put_entry *e, size_t n,
			       struct pdb_err *err)
{
	sqlite3_stmt *st = NULL, *pv = NULL;
	int ret = -1;

	if (sqlite3_get_autocommit(store->db) && pdb_store_begin(store, err) < 0)
		goto out;
	/* an unchanged row is left alone: when no row changes the transaction
	 * writes nothing (no WAL frame, no checkpoint, no fsync) */
	st = pdb_store_prepare(store,
		"INSERT INTO detect_cache"
		" (series_id, params, covered, checksum, resume, weak, xcovered, xchecksum, spikes)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
		" ON CONFLICT (series_id, params) DO UPDATE SET"
		" covered = excluded.covered, checksum = excluded.checksum,"
		" resume = excluded.resume, weak = excluded.weak,"
		" xcovered = excluded.xcovered, xchecksum = excluded.xchecksum,"
		" spikes = excluded.spikes"
		" WHERE covered IS NOT excluded.covered OR checksum IS NOT excluded.checksum"
		" OR resume IS NOT excluded.resume OR weak IS NOT excluded.weak"
		" OR xcovered IS NOT excluded.xcovered OR xchecksum IS NOT excluded.xchecksum"
		" OR spikes IS NOT excluded.spikes", err);
	pv = st ? pdb_store_prepare(store,
		"INSERT OR REPLACE INTO detect_points"
		" (series_id, selection, last_run, run_ids, vals)"
		" VALUES (?1, ?2, ?3, ?4, ?5)", err) : NULL;
	if (!pv)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct pdb_detect_cache_row *r = &e[i].row;

		if (e[i].values && e[i].values->rewrite &&
		    put_values(pv, e[i].series_id, selection, e[i].values) < 0) {
			ret = write_failed(store, "write detect values", err);
			goto out;
		}

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, e[i].series_id);
		sqlite3_bind_text(st, 2, params, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, r->covered);
		sqlite3_bind_int64(st, 4, (int64_t)r->checksum);
		sqlite3_bind_int64(st, 5, r->resume);
		sqlite3_bind_text(st, 6, r->weak, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 7, r->xcovered);
		sqlite3_bind_int64(st, 8, (int64_t)r->xchecksum);
		sqlite3_bind_text(st, 9, r->spikes, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			ret = write_failed(store, "write detect cache", err);
			goto out;
		}
	}
	if (pdb_store_commit(store, err) < 0)
		goto out;
	ret = 0;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(pv);
	if (ret != 0)
		pdb_store_rollback(store);
	return ret;
}
