/* Store: reading and writing the cache of weak change points (detect_cache). */
#include "store_detect.h"

#include <stdlib.h>
#include <string.h>

#include "store_internal.h"
#include "util.h"

/* Parse "3,17,40" (ascending, below covered) into state->weak; -1 if bad. */
static int parse_weak(const char *text, struct pdb_detect_state *state)
{
	size_t cap = 0;
	const char *p = text;

	while (*p) {
		char num[32];
		size_t len = strcspn(p, ",");
		int64_t v;

		if (len == 0 || len >= sizeof num)
			return -1;
		memcpy(num, p, len);
		num[len] = '\0';
		if (pdb_parse_int64(num, 1, INT64_MAX, &v) < 0 ||
		    (uint64_t)v >= state->covered ||
		    (state->nweak > 0 && (size_t)v <= state->weak[state->nweak - 1]))
			return -1;
		pdb_grow((void **)&state->weak, &cap, state->nweak + 1, sizeof *state->weak);
		state->weak[state->nweak++] = (size_t)v;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

char *pdb_store_detect_params(const struct pdb_detect_opts *o, int64_t since_id,
			      const char *where)
{
	char pvalue[32];

	/* split=2: the split of report mode also tests plateaus (caches of
	 * the first split are not reused) */
	pdb_fmt_double(o->pvalue, pvalue);
	return pdb_xasprintf("split=2;window=%zu;pvalue=%s;outliers=%s;since=%lld;where=%s",
			     o->window, pvalue, o->outliers == PDB_OUTLIERS_KEEP ? "keep" : "report",
			     (long long)since_id, where ? where : "");
}

int pdb_store_detect_cache_get(struct pdb_store *store, int64_t series_id,
			       const char *params, struct pdb_detect_state *state,
			       int *found, struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT covered, checksum, resume, weak FROM detect_cache"
		" WHERE series_id = ?1 AND params = ?2", err);
	int rc, ret = -1;

	memset(state, 0, sizeof *state);
	*found = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, series_id);
	sqlite3_bind_text(st, 2, params, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		int64_t covered = sqlite3_column_int64(st, 0);
		int64_t resume = sqlite3_column_int64(st, 2);
		const char *weak = (const char *)sqlite3_column_text(st, 3);
		uint64_t sum = (uint64_t)sqlite3_column_int64(st, 1);

		if (covered > 0 && resume >= 0 && resume < covered && weak) {
			state->covered = (size_t)covered;
			state->resume = (size_t)resume;
			state->checksum = sum;
			if (parse_weak(weak, state) == 0)
				*found = 1;
			else
				pdb_detect_state_release(state);
		}
		ret = 0;
	} else if (rc == SQLITE_DONE) {
		ret = 0;
	} else {
		pdb_store_fail(store, err, "read detect cache");
	}
	sqlite3_finalize(st);
	return ret;
}

int pdb_store_detect_cache_put(struct pdb_store *store, const char *params,
			       const struct pdb_detect_cache_entry *e, size_t n,
			       struct pdb_err *err)
{
	sqlite3_stmt *st = NULL;
	struct pdb_buf weak;
	int ret = -1;

	pdb_buf_init(&weak);
	if (pdb_store_begin(store, err) < 0)
		goto out;
	/* an unchanged row is left alone: when no row changes the transaction
	 * writes nothing (no WAL frame, no checkpoint, no fsync) */
	st = pdb_store_prepare(store,
		"INSERT INTO detect_cache"
		" (series_id, params, covered, checksum, resume, weak)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
		" ON CONFLICT (series_id, params) DO UPDATE SET"
		" covered = excluded.covered, checksum = excluded.checksum,"
		" resume = excluded.resume, weak = excluded.weak"
		" WHERE covered IS NOT excluded.covered OR checksum IS NOT excluded.checksum"
		" OR resume IS NOT excluded.resume OR weak IS NOT excluded.weak", err);
	if (!st)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct pdb_detect_state *s = e[i].state;

		weak.len = 0;
		pdb_buf_puts(&weak, "");
		for (size_t k = 0; k < s->nweak; k++)
			pdb_buf_printf(&weak, "%s%zu", k ? "," : "", s->weak[k]);
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, e[i].series_id);
		sqlite3_bind_text(st, 2, params, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, (int64_t)s->covered);
		sqlite3_bind_int64(st, 4, (int64_t)s->checksum);
		sqlite3_bind_int64(st, 5, (int64_t)s->resume);
		sqlite3_bind_text(st, 6, weak.data, (int)weak.len, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			pdb_store_fail(store, err, "write detect cache");
			goto out;
		}
	}
	if (pdb_store_commit(store, err) < 0)
		goto out;
	ret = 0;
out:
	sqlite3_finalize(st);
	if (ret < 0)
		pdb_store_rollback(store);
	pdb_buf_release(&weak);
	return ret;
}
