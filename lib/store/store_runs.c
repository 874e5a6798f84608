/* Store: inserting, loading, listing, resolving and deleting runs. */
#include "store/store_internal.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return s ? sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

static char *column_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? pdb_xstrdup((const char *)s) : NULL;
}

static int step_done(struct pdb_store *store, sqlite3_stmt *st, struct pdb_err *err,
		     const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return pdb_store_fail(store, err, what);
	return 0;
}

/* Id of a row found by a one-column query with one text parameter, 0 if none. */
static int64_t lookup_id(struct pdb_store *store, const char *sql, const char *arg,
			 struct pdb_err *err, int *failed)
{
	sqlite3_stmt *st = pdb_store_prepare(store, sql, err);
	int64_t id = 0;
	int rc;

	*failed = 0;
	if (!st) {
		*failed = 1;
		return 0;
	}
	bind_text(st, 1, arg);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		*failed = pdb_store_fail(store, err, "query") < 0;
	sqlite3_finalize(st);
	return id;
}

int pdb_store_run_named(struct pdb_store *store, const char *name, int64_t *id,
			struct pdb_err *err)
{
	int failed = 0;

	*id = lookup_id(store, "SELECT id FROM runs WHERE name = ?", name, err, &failed);
	return failed ? -1 : 0;
}

struct insert_stmts {
	sqlite3_stmt *attr, *series_get, *series_add, *result, *values, *stat, *failure;
};

static void insert_stmts_free(struct insert_stmts *s)
{
	sqlite3_finalize(s->attr);
	sqlite3_finalize(s->series_get);
	sqlite3_finalize(s->series_add);
	sqlite3_finalize(s->result);
	sqlite3_finalize(s->values);
	sqlite3_finalize(s->failure);
	sqlite3_finalize(s->stat);
}

static int series_id(struct pdb_store *store, struct insert_stmts *s,
		     const struct pdb_result *r, int64_t *id, struct pdb_err *err)
{
	char *dims = pdb_dims_text(r->dims, r->ndims);
	int rc, ret = -1;

	bind_text(s->series_get, 1, r->benchmark);
	bind_text(s->series_get, 2, dims);
	bind_text(s->series_get, 3, r->metric);
	rc = sqlite3_step(s->series_get);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(s->series_get, 0);
		sqlite3_reset(s->series_get);
		ret = 0;
		goto out;
	}
	sqlite3_reset(s->series_get);
	if (rc != SQLITE_DONE) {
		pdb_store_fail(store, err, "find series");
		goto out;
	}
	bind_text(s->series_add, 1, r->benchmark);
	bind_text(s->series_add, 2, dims);
	bind_text(s->series_add, 3, r->metric);
	bind_text(s->series_add, 4, r->unit);
	sqlite3_bind_int(s->series_add, 5, r->direction);
	if (step_done(store, s->series_add, err, "add series") < 0)
		goto out;
	*id = sqlite3_last_insert_rowid(store->db);
	ret = 0;
out:
	free(dims);
	return ret;
}

static int bind_samples(sqlite3_stmt *st, int col, const struct pdb_result *r, int which)
{
	unsigned char *blob;
	int any = which == PDB_PACK_VALUE;

	for (size_t i = 0; !any && i < r->nsamples; i++)
		any = which == PDB_PACK_T ? pdb_sample_has_t(&r->samples[i])
					  : pdb_sample_has_weight(&r->samples[i]);
	if (!any || r->nsamples == 0)
		return sqlite3_bind_null(st, col);
	blob = pdb_xmalloc(r->nsamples * 8);
	pdb_store_pack(r->samples, r->nsamples, which, blob);
	return sqlite3_bind_blob64(st, col, blob, r->nsamples * 8, free);
}

/* Store r; *value becomes its series and run value. */
static int insert_result(struct pdb_store *store, struct insert_stmts *s,
			 int64_t run_id, const struct pdb_result *r,
			 struct pdb_series_value *value, struct pdb_err *err)
{
	int64_t sid, rid;

	if (series_id(store, s, r, &sid, err) < 0)
		return -1;
	value->series_id = sid;
	pdb_result_run_value(r, &value->v);
	sqlite3_bind_int64(s->result, 1, run_id);
	sqlite3_bind_int64(s->result, 2, sid);
	bind_text(s->result, 3, r->raw_unit);
	bind_text(s->result, 4, r->raw_name);
	sqlite3_bind_int64(s->result, 5, (int64_t)r->nsamples);
	bind_samples(s->result, 6, r, PDB_PACK_VALUE);
	bind_samples(s->result, 7, r, PDB_PACK_T);
	bind_samples(s->result, 8, r, PDB_PACK_WEIGHT);
	if (step_done(store, s->result, err, "add result") < 0)
		return -1;
	sqlite3_clear_bindings(s->result);
	rid = sqlite3_last_insert_rowid(store->db);
	for (size_t i = 0; i < r->nstats; i++) {
		sqlite3_bind_int64(s->stat, 1, rid);
		bind_text(s->stat, 2, r->stats[i].name);
		sqlite3_bind_double(s->stat, 3, r->stats[i].value);
		if (step_done(store, s->stat, err, "add stat") < 0)
			return -1;
	}
	return 0;
}

/* A run whose uuid, name or (unless force) file is stored already: an
 * error. batch_first is the id of the first run this transaction stored
 * (0: none yet); a run from batch_first on was given before in the same
 * command, and is said so, since the rollback will not keep it. */
static int refuse_duplicates(struct pdb_store *store, const struct pdb_run *run,
			     int force, int64_t batch_first, struct pdb_err *err)
{
	int failed;
	int64_t id;

	id = lookup_id(store, "SELECT id FROM runs WHERE uuid = ?", run->uuid, err, &failed);
	if (failed)
		return -1;
	if (id && batch_first && id >= batch_first)
		return pdb_err_set(err, PDB_EXIT_INPUT, "run %s is given twice in this command",
				   run->uuid);
	if (id)
		return pdb_err_set(err, PDB_EXIT_INPUT, "run %s is already stored as run%lld",
				   run->uuid, (long long)id);
	if (run->name) {
		id = lookup_id(store, "SELECT id FROM runs WHERE name = ?", run->name, err, &failed);
		if (failed)
			return -1;
		if (id)
			return pdb_err_set(err, PDB_EXIT_INPUT,
					   "a run named '%s' exists already (run%lld)",
					   run->name, (long long)id);
	}
	if (run->sha256 && !force) {
		id = lookup_id(store, "SELECT id FROM runs WHERE sha256 = ? ORDER BY id LIMIT 1",
			       run->sha256, err, &failed);
		if (failed)
			return -1;
		if (id && batch_first && id >= batch_first)
			return pdb_err_set(err, PDB_EXIT_INPUT, "the same file (sha256 %.12s) as one "
					   "given before it in this command; --force stores both",
					   run->sha256);
		if (id)
			return pdb_err_set(err, PDB_EXIT_INPUT,
					   "the same file (sha256 %.12s) was ingested already as run%lld; --force stores it again",
					   run->sha256, (long long)id);
	}
	return 0;
}

/* Store run inside the caller's transaction; sets run->id. */
static int insert_run_tx(struct pdb_store *store, struct pdb_run *run, int force,
			 int64_t batch_first, struct pdb_err *err)
{
	struct insert_stmts s = { 0 };
	struct pdb_series_value *values = NULL;
	sqlite3_stmt *st = NULL;
	int64_t run_id, seq;
	int ret = -1;

	if (refuse_duplicates(store, run, force, batch_first, err) < 0 ||
	    pdb_store_place_run(store, run->created_at, &seq, err) < 0)
		goto out;
	st = pdb_store_prepare(store,
		"INSERT INTO runs(uuid, name, created_at, tool, format, source, sha256, status, seq)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", err);
	if (!st)
		goto out;
	bind_text(st, 1, run->uuid);
	bind_text(st, 2, run->name);
	bind_text(st, 3, run->created_at);
	bind_text(st, 4, run->tool);
	bind_text(st, 5, run->format);
	bind_text(st, 6, run->source);
	bind_text(st, 7, run->sha256);
	bind_text(st, 8, run->status ? run->status : "complete");
	sqlite3_bind_int64(st, 9, seq);
	if (step_done(store, st, err, "add run") < 0)
		goto out;
	run_id = sqlite3_last_insert_rowid(store->db);

	if (!(s.attr = pdb_store_prepare(store, "INSERT INTO run_attrs(run_id, key, value) VALUES (?, ?, ?)", err)) ||
	    !(s.series_get = pdb_store_prepare(store, "SELECT id FROM series WHERE benchmark = ? AND dims = ? AND metric = ?", err)) ||
	    !(s.series_add = pdb_store_prepare(store, "INSERT INTO series(benchmark, dims, metric, unit, direction) VALUES (?, ?, ?, ?, ?)", err)) ||
	    !(s.result = pdb_store_prepare(store, "INSERT INTO results(run_id, series_id, raw_unit, raw_name, n, samples, offsets, weights) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", err)) ||
	    !(s.values = pdb_store_prepare(store, PDB_RUN_VALUES_INSERT, err)) ||
	    !(s.stat = pdb_store_prepare(store, "INSERT INTO stats(result_id, name, value) VALUES (?, ?, ?)", err)) ||
	    !(s.failure = pdb_store_prepare(store, "INSERT INTO failures(run_id, benchmark, dims, reason) VALUES (?, ?, ?, ?)", err)))
		goto out;
	for (size_t i = 0; i < run->nattrs; i++) {
		sqlite3_bind_int64(s.attr, 1, run_id);
		bind_text(s.attr, 2, run->attrs[i].key);
		bind_text(s.attr, 3, run->attrs[i].value);
		if (step_done(store, s.attr, err, "add attribute") < 0)
			goto out;
	}
	values = pdb_xmalloc((run->nresults ? run->nresults : 1) * sizeof *values);
	for (size_t i = 0; i < run->nresults; i++)
		if (insert_result(store, &s, run_id, &run->results[i], &values[i], err) < 0)
			goto out;
	if (pdb_store_put_run_values(store, s.values, run_id, values, run->nresults, err) < 0)
		goto out;
	for (size_t i = 0; i < run->nfailures; i++) {
		const struct pdb_failure *f = &run->failures[i];
		char *dims = pdb_dims_text(f->dims, f->ndims);
		int rc;
		sqlite3_bind_int64(s.failure, 1, run_id);
		bind_text(s.failure, 2, f->benchmark);
		bind_text(s.failure, 3, dims);
		bind_text(s.failure, 4, f->reason);
		rc = step_done(store, s.failure, err, "add failure");
		free(dims);
		if (rc < 0)
			goto out;
	}
	run->id = run_id;
	run->seq = seq;
	ret = 0;
out:
	free(values);
	insert_stmts_free(&s);
	sqlite3_finalize(st);
	return ret;
}

int pdb_store_insert_run(struct pdb_store *store, struct pdb_run *run,
			 int force, struct pdb_err *err)
{
	return pdb_store_insert_runs(store, &run, 1, force, NULL, err);
}

int pdb_store_insert_runs(struct pdb_store *store, struct pdb_run *const *runs, size_t n,
			  int force, size_t *refused, struct pdb_err *err)
{
	int64_t *ids = pdb_xcalloc(n ? n : 1, sizeof *ids);
	size_t i = 0;
	int ret = -1;

	for (size_t k = 0; k < n; k++)
		ids[k] = runs[k]->id;
	if (pdb_store_begin(store, err) < 0)
		goto out;
	while (i < n && insert_run_tx(store, runs[i], force, i ? runs[0]->id : 0, err) == 0)
		i++;
	if (refused)
		*refused = i;
	if (i < n || pdb_store_commit(store, err) < 0) {
		for (size_t k = 0; k < n; k++)
			runs[k]->id = ids[k];
		pdb_store_rollback(store);
		goto out;
	}
	ret = 0;
out:
	free(ids);
	return ret;
}

/* A run's name that another run has already becomes NAME~2 (~3, ... ~100),
 * its own name kept in the attribute renamed_attr. 1 when renamed, 0 when the
 * name was free, -1 with err. */
static int free_name(struct pdb_store *store, struct pdb_run *run, const char *renamed_attr,
		     struct pdb_err *err)
{
	char *name = NULL;
	int failed, ret = 0;

	if (!run->name)
		return 0;
	if (!lookup_id(store, "SELECT id FROM runs WHERE name = ?", run->name, err, &failed))
		return failed ? -1 : 0;
	name = pdb_xstrdup(run->name);
	for (int k = 2; ; k++) {
		char *next;
		if (k > 100) {
			ret = pdb_err_set(err, PDB_EXIT_INPUT, "a run named '%s' exists already, "
					  "and so do '%s~2' to '%s~100'", name, name, name);
			break;
		}
		next = pdb_xasprintf("%s~%d", name, k);
		if (!lookup_id(store, "SELECT id FROM runs WHERE name = ?", next, err, &failed)) {
			if (failed) {
				free(next);
				ret = -1;
				break;
			}
			pdb_set_str(&run->name, next);
			pdb_run_set_attr(run, renamed_attr, name);
			free(next);
			ret = 1;
			break;
		}
		free(next);
	}
	free(name);
	return ret;
}

int pdb_store_insert_renaming(struct pdb_store *store, struct pdb_run *run,
			      const char *renamed_attr, struct pdb_err *err)
{
	int64_t id = run->id;

	if (pdb_store_begin(store, err) < 0)
		return -1;
	if (free_name(store, run, renamed_attr, err) < 0 || insert_run_tx(store, run, 1, 0, err) < 0 ||
	    pdb_store_commit(store, err) < 0) {
		run->id = id;
		pdb_store_rollback(store);
		return -1;
	}
	return 0;
}

int pdb_store_run_ids(struct pdb_store *store, const char *where, int64_t **ids, size_t *n,
		      struct pdb_err *err)
{
	struct pdb_buf sql;
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*ids = NULL;
	*n = 0;
	pdb_buf_init(&sql);
	pdb_buf_puts(&sql, "SELECT r.id FROM runs r WHERE 1");
	pdb_store_filter_sql(&sql, where, 1);
	pdb_buf_puts(&sql, " ORDER BY r.seq");
	st = pdb_store_prepare(store, sql.data, err);
	pdb_buf_release(&sql);
	if (!st)
		return -1;
	pdb_store_filter_bind(st, where, 1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pdb_grow((void **)ids, &cap, *n + 1, sizeof **ids);
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		*n = 0;
		return pdb_store_fail(store, err, "list runs");
	}
	return 0;
}

int pdb_store_run_series(struct pdb_store *store, int64_t run_id, struct pdb_series **out,
			 size_t *n, struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT s.id, s.benchmark, s.dims, s.metric, s.unit, s.direction"
		" FROM results r JOIN series s ON s.id = r.series_id WHERE r.run_id = ? ORDER BY r.id", err);

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	return pdb_store_series_rows(store, st, NULL, NULL, out, n, "list a run's series", err);
}

int pdb_store_merge(struct pdb_store *dst, struct pdb_store *src, int dry_run,
		    pdb_merge_rename_fn on_rename, void *ctx,
		    struct pdb_merge_stats *stats, struct pdb_err *err)
{
	int64_t *ids = NULL;
	size_t n = 0;
	int ret = -1;

	memset(stats, 0, sizeof *stats);
	if (pdb_store_run_ids(src, NULL, &ids, &n, err) < 0)
		return -1;
	if (pdb_store_begin(dst, err) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct pdb_run *run = pdb_store_load_run(src, ids[i], err);
		char *was;
		int64_t have;
		int failed, renamed;

		if (!run)
			goto fail;
		have = lookup_id(dst, "SELECT id FROM runs WHERE uuid = ?", run->uuid, err, &failed);
		if (failed) {
			pdb_run_free(run);
			goto fail;
		}
		if (have) {
			stats->skipped++;
			pdb_run_free(run);
			continue;
		}
		was = pdb_xstrdup(run->name);
		if ((renamed = free_name(dst, run, "merge.renamed_from", err)) < 0 ||
		    insert_run_tx(dst, run, 1, 0, err) < 0) {
			free(was);
			pdb_run_free(run);
			goto fail;
		}
		if (renamed) {
			stats->renamed++;
			if (on_rename)
				on_rename(ctx, run, was);
		}
		stats->merged++;
		free(was);
		pdb_run_free(run);
	}
	if (dry_run)
		pdb_store_rollback(dst);
	else if (pdb_store_commit(dst, err) < 0)
		goto fail;
	ret = 0;
	goto out;
fail:
	pdb_store_rollback(dst);
out:
	free(ids);
	return ret;
}

static int load_attrs(struct pdb_store *store, struct pdb_run *run, struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT key, value FROM run_attrs WHERE run_id = ? ORDER BY key", err);
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		pdb_run_set_attr(run, (const char *)sqlite3_column_text(st, 0),
				 (const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "load attributes");
}

static int load_failures(struct pdb_store *store, struct pdb_run *run, struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT benchmark, dims, reason FROM failures WHERE run_id = ?", err);
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *dims = json_loads((const char *)sqlite3_column_text(st, 1), 0, NULL), *v;
		struct pdb_attr *d = pdb_xcalloc(json_object_size(dims) + 1, sizeof *d);
		const char *k;
		size_t nd = 0;
		json_object_foreach(dims, k, v) {
			d[nd].key = (char *)k;
			d[nd++].value = (char *)(json_string_value(v) ? json_string_value(v) : "");
		}
		pdb_run_add_failure(run, (const char *)sqlite3_column_text(st, 0), d, nd,
				    (const char *)sqlite3_column_text(st, 2));
		free(d);
		json_decref(dims);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "load failures");
}

static void load_blob(sqlite3_stmt *st, int col, struct pdb_result *r, int which)
{
	const unsigned char *blob = sqlite3_column_blob(st, col);
	size_t n = (size_t)sqlite3_column_bytes(st, col) / 8;

	if (blob && n == r->nsamples)
		pdb_store_unpack(blob, n, which, r->samples);
}

/* Stats of every result of run; rids[n] is the row id of run->results[n].
 * Read as stored doubles (SQLite's JSON functions keep only 15 digits). */
static int load_stats(struct pdb_store *store, struct pdb_run *run, const int64_t *rids,
		      struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT r.id, s.name, s.value FROM results r JOIN stats s ON s.result_id = r.id"
		" WHERE r.run_id = ? ORDER BY r.id, s.name", err);
	size_t at = 0;
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t rid = sqlite3_column_int64(st, 0);
		while (at < run->nresults && rids[at] != rid)
			at++;
		if (at < run->nresults)
			pdb_result_set_stat(&run->results[at], (const char *)sqlite3_column_text(st, 1),
					    sqlite3_column_type(st, 2) == SQLITE_NULL ? NAN
					    : sqlite3_column_double(st, 2));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "load stats");
}

/* What a results row read back must hold before it is trusted: dims an object
 * of strings, n within 0 and the value blob's count, the other blobs absent or
 * of n values (columns as load_results selects them). */
static int dims_ok(const json_t *dims)
{
	const char *k;
	json_t *v;

	if (!json_is_object(dims))
		return 0;
	json_object_foreach((json_t *)dims, k, v)
		if (!json_is_string(v))
			return 0;
	return 1;
}

static int counts_ok(sqlite3_stmt *st)
{
	sqlite3_int64 n = sqlite3_column_int64(st, 8);

	if (n < 0 || sqlite3_column_bytes(st, 9) != n * 8)
		return 0;
	for (int col = 10; col <= 11; col++)
		if (sqlite3_column_bytes(st, col) != 0 && sqlite3_column_bytes(st, col) != n * 8)
			return 0;
	return 1;
}

/* A run's results in the order they were written. They are written in one
 * transaction, so their ids are one range: read by that range of the
 * table, they come in id order as they lie, where the index of run ids
 * would have SQLite copy every row, samples too, into a sort (a fifth of
 * a 20,000-result run's load). The run id still filters: ids the range
 * may hold of another run (none, unless SQLite ran out of ids) cost a
 * row read, never a wrong result. */
static int load_results(struct pdb_store *store, struct pdb_run *run, struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT r.id, s.benchmark, s.dims, s.metric, s.unit, s.direction,"
		" r.raw_unit, r.raw_name, r.n, r.samples, r.offsets, r.weights"
		" FROM results r JOIN series s ON s.id = r.series_id"
		" WHERE r.id BETWEEN (SELECT min(id) FROM results WHERE run_id = ?1)"
		" AND (SELECT max(id) FROM results WHERE run_id = ?1) AND +r.run_id = ?1"
		" ORDER BY r.id", err);
	int64_t *rids = NULL;
	size_t cap = 0;
	int rc, corrupt = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pdb_result *r;
		struct pdb_attr *d = NULL;
		json_t *dims = NULL, *v;
		const char *k, *text = (const char *)sqlite3_column_text(st, 2);
		/* a series of no dims (most) has no object to parse */
		int none = text && strcmp(text, "{}") == 0;
		size_t nd = 0;

		/* found with its dims: series that differ only by dims stay apart */
		if (!none)
			dims = json_loads(text, 0, NULL);
		if (!(none || dims_ok(dims)) || !counts_ok(st)) {
			pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: database is corrupt: results row %lld: %s",
				    store->path, (long long)sqlite3_column_int64(st, 0),
				    !(none || dims_ok(dims)) ? "series.dims is not an object of strings"
				    : "results.n does not match its sample blobs");
			json_decref(dims);
			corrupt = 1;
			break;
		}
		if (dims)
			d = pdb_xcalloc(json_object_size(dims) + 1, sizeof *d);
		json_object_foreach(dims, k, v) {
			d[nd].key = (char *)k;
			d[nd++].value = (char *)json_string_value(v);
		}
		r = pdb_run_result_unparsed(run, (const char *)sqlite3_column_text(st, 1), d, nd,
					    (const char *)sqlite3_column_text(st, 3));
		free(d);
		json_decref(dims);
		pdb_set_str(&r->unit, (const char *)sqlite3_column_text(st, 4));
		r->direction = sqlite3_column_int(st, 5);
		r->scale = 1;
		pdb_set_str(&r->raw_unit, (const char *)sqlite3_column_text(st, 6));
		pdb_set_str(&r->raw_name, (const char *)sqlite3_column_text(st, 7));
		r->nsamples = (size_t)sqlite3_column_int64(st, 8);
		r->capsamples = r->nsamples;
		r->samples = pdb_xmalloc(r->nsamples * sizeof *r->samples);
		for (size_t k = 0; k < r->nsamples; k++)
			r->samples[k] = PDB_SAMPLE(NAN);
		load_blob(st, 9, r, PDB_PACK_VALUE);
		load_blob(st, 10, r, PDB_PACK_T);
		load_blob(st, 11, r, PDB_PACK_WEIGHT);
		pdb_grow((void **)&rids, &cap, run->nresults, sizeof *rids);
		rids[run->nresults - 1] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (corrupt)
		rc = -1;
	else if (rc != SQLITE_DONE)
		rc = pdb_store_fail(store, err, "load results");
	else
		rc = load_stats(store, run, rids, err);
	free(rids);
	return rc;
}

struct pdb_run *pdb_store_load_run(struct pdb_store *store, int64_t id,
				   struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT uuid, name, created_at, tool, format, source, sha256, status, seq"
		" FROM runs WHERE id = ?", err);
	struct pdb_run *run = NULL;
	int rc;

	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
			pdb_err_set(err, PDB_EXIT_INPUT, "no run matches 'run%lld'", (long long)id);
		else
			pdb_store_fail(store, err, "load run");
		goto out;
	}
	run = pdb_run_new();
	run->id = id;
	snprintf(run->uuid, sizeof run->uuid, "%s", (const char *)sqlite3_column_text(st, 0));
	run->name = column_dup(st, 1);
	free(run->created_at);
	run->created_at = column_dup(st, 2);
	run->tool = column_dup(st, 3);
	run->format = column_dup(st, 4);
	run->source = column_dup(st, 5);
	run->sha256 = column_dup(st, 6);
	free(run->status);
	run->status = column_dup(st, 7);
	run->seq = sqlite3_column_int64(st, 8);
	if (load_attrs(store, run, err) < 0 || load_results(store, run, err) < 0 ||
	    load_failures(store, run, err) < 0) {
		pdb_run_free(run);
		run = NULL;
	}
out:
	sqlite3_finalize(st);
	return run;
}

int pdb_store_delete_run(struct pdb_store *store, int64_t id, struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store, "DELETE FROM runs WHERE id = ?", err);
	int ret;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	ret = step_done(store, st, err, "delete run");
	if (ret == 0 && sqlite3_changes(store->db) == 0)
		ret = pdb_err_set(err, PDB_EXIT_INPUT, "no run matches 'run%lld'", (long long)id);
	sqlite3_finalize(st);
	return ret;
}

static int cmp_row_id(const void *a, const void *b)
{
	int64_t x = (*(struct pdb_run_row *const *)a)->id, y = (*(struct pdb_run_row *const *)b)->id;

	return x < y ? -1 : x > y;
}

/* Each row's attributes, read in one pass over run_attrs in run id order
 * (a subquery a run costs ten times as much on 10,000 runs). */
static int list_attrs(struct pdb_store *store, struct pdb_run_row *rows, size_t nrows,
		      struct pdb_err *err)
{
	struct pdb_run_row **by_id;
	sqlite3_stmt *st;
	size_t at = 0, cap = 0;
	int rc = SQLITE_DONE;

	if (nrows == 0)
		return 0;
	/* the ids the listing holds, not every run's (runs -n 5 of a large store) */
	st = pdb_store_prepare(store, "SELECT run_id, key, value FROM run_attrs"
			       " WHERE run_id BETWEEN ?1 AND ?2 ORDER BY run_id, key", err);
	if (!st)
		return -1;
	by_id = pdb_xmalloc(nrows * sizeof *by_id);
	for (size_t i = 0; i < nrows; i++)
		by_id[i] = &rows[i];
	qsort(by_id, nrows, sizeof *by_id, cmp_row_id);
	sqlite3_bind_int64(st, 1, by_id[0]->id);
	sqlite3_bind_int64(st, 2, by_id[nrows - 1]->id);
	while (at < nrows && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		struct pdb_run_row *row;

		while (at < nrows && by_id[at]->id < id) {
			at++;
			cap = 0; /* the next row's attributes */
		}
		if (at == nrows || by_id[at]->id != id)
			continue; /* a run the filter left out */
		row = by_id[at];
		pdb_grow((void **)&row->attrs, &cap, row->nattrs + 1, sizeof *row->attrs);
		row->attrs[row->nattrs].key = column_dup(st, 1);
		row->attrs[row->nattrs].value = column_dup(st, 2);
		row->nattrs++;
	}
	sqlite3_finalize(st);
	free(by_id);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "list runs");
}

/* A zeroed row appended to *rows, its id st's first column. */
static struct pdb_run_row *add_row(struct pdb_run_row **rows, size_t *nrows, size_t *cap,
				   sqlite3_stmt *st)
{
	struct pdb_run_row *row;

	pdb_grow((void **)rows, cap, *nrows + 1, sizeof **rows);
	row = &(*rows)[(*nrows)++];
	memset(row, 0, sizeof *row);
	row->id = sqlite3_column_int64(st, 0);
	return row;
}

static void drop_rows(struct pdb_run_row **rows, size_t *nrows)
{
	pdb_run_rows_free(*rows, *nrows);
	*rows = NULL;
	*nrows = 0;
}

int pdb_store_count_branches(struct pdb_store *store, int *n, struct pdb_err *err)
{
	return pdb_store_query_int(store, "SELECT count(*) FROM (SELECT DISTINCT value FROM run_attrs"
				   " WHERE key = 'branch' LIMIT 2)", n, "count branches", err);
}

int pdb_store_list_branches(struct pdb_store *store, struct pdb_run_row **rows, size_t *nrows,
			    struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store, "SELECT r.id, r.seq, a.value FROM runs r"
		" LEFT JOIN run_attrs a ON a.run_id = r.id AND a.key = 'branch'"
		" ORDER BY r.seq DESC", err);
	size_t cap = 0;
	int rc;

	*rows = NULL;
	*nrows = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pdb_run_row *row = add_row(rows, nrows, &cap, st);

		row->seq = sqlite3_column_int64(st, 1);
		if (sqlite3_column_type(st, 2) != SQLITE_NULL) {
			row->attrs = pdb_xmalloc(sizeof *row->attrs);
			row->attrs[0].key = pdb_xstrdup("branch");
			row->attrs[0].value = column_dup(st, 2);
			row->nattrs = 1;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		drop_rows(rows, nrows);
		return pdb_store_fail(store, err, "list branches");
	}
	return 0;
}

int pdb_store_list_runs(struct pdb_store *store, const struct pdb_run_filter *f,
			struct pdb_run_row **rows, size_t *nrows, struct pdb_err *err)
{
	struct pdb_buf sql;
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*rows = NULL;
	*nrows = 0;
	pdb_buf_init(&sql);
	pdb_buf_printf(&sql, "SELECT r.id, r.name, r.created_at, r.tool, r.format, r.status, r.seq, %s"
		       " FROM runs r WHERE 1", f->count_series
		       ? "(SELECT count(*) FROM results WHERE run_id = r.id)" : "0");
	pdb_store_filter_sql(&sql, f->where, 2);
	pdb_buf_puts(&sql, " ORDER BY r.seq DESC LIMIT ?1");
	st = pdb_store_prepare(store, sql.data, err);
	pdb_buf_release(&sql);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, f->limit > 0 ? f->limit : -1);
	pdb_store_filter_bind(st, f->where, 2);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pdb_run_row *row = add_row(rows, nrows, &cap, st);

		row->name = column_dup(st, 1);
		row->created_at = column_dup(st, 2);
		row->tool = column_dup(st, 3);
		row->format = column_dup(st, 4);
		row->status = column_dup(st, 5);
		row->seq = sqlite3_column_int64(st, 6);
		row->nseries = sqlite3_column_int64(st, 7);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE || list_attrs(store, *rows, *nrows, err) < 0) {
		drop_rows(rows, nrows);
		return rc != SQLITE_DONE ? pdb_store_fail(store, err, "list runs") : -1;
	}
	return 0;
}

int pdb_store_failure_rows(struct pdb_store *store, int64_t since_id,
			   struct pdb_failure_row **rows, size_t *n, struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT f.run_id, f.benchmark, f.dims, f.reason, r.seq FROM failures f"
		" JOIN runs r ON r.id = f.run_id"
		" WHERE r.seq >= coalesce((SELECT seq FROM runs WHERE id = ?1), 0)"
		" ORDER BY r.seq, f.benchmark, f.dims", err);
	size_t cap = 0;
	int rc;

	*rows = NULL;
	*n = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, since_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pdb_failure_row *f;
		pdb_grow((void **)rows, &cap, *n + 1, sizeof **rows);
		f = &(*rows)[(*n)++];
		f->run_id = sqlite3_column_int64(st, 0);
		f->benchmark = pdb_xstrdup((const char *)sqlite3_column_text(st, 1));
		f->dims = pdb_xstrdup((const char *)sqlite3_column_text(st, 2));
		f->reason = pdb_xstrdup((const char *)sqlite3_column_text(st, 3));
		f->seq = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	pdb_failure_rows_free(*rows, *n);
	*rows = NULL;
	*n = 0;
	return pdb_store_fail(store, err, "list failures");
}

void pdb_failure_rows_free(struct pdb_failure_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].benchmark);
		free(rows[i].dims);
		free(rows[i].reason);
	}
	free(rows);
}

void pdb_run_rows_free(struct pdb_run_row *rows, size_t nrows)
{
	for (size_t i = 0; i < nrows; i++) {
		free(rows[i].name);
		free(rows[i].created_at);
		free(rows[i].tool);
		free(rows[i].format);
		free(rows[i].status);
		for (size_t j = 0; j < rows[i].nattrs; j++) {
			free(rows[i].attrs[j].key);
			free(rows[i].attrs[j].value);
		}
		free(rows[i].attrs);
	}
	free(rows);
}

int pdb_store_delete_runs(struct pdb_store *store, const int64_t *ids, size_t n,
			  struct pdb_err *err)
{
	if (pdb_store_begin(store, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (pdb_store_delete_run(store, ids[i], err) < 0) {
			pdb_store_rollback(store);
			return -1;
		}
	if (pdb_store_commit(store, err) < 0) {
		pdb_store_rollback(store);
		return -1;
	}
	return 0;
}

int pdb_store_vacuum(struct pdb_store *store, struct pdb_err *err)
{
	if (pdb_store_exec(store, "VACUUM", err) < 0)
		return -1;
	return pdb_store_exec(store, "PRAGMA wal_checkpoint(TRUNCATE)", err);
}

int64_t pdb_run_rows_seq(const struct pdb_run_row *rows, size_t nrows, int64_t id)
{
	for (size_t i = 0; i < nrows && id; i++)
		if (rows[i].id == id)
			return rows[i].seq;
	return 0;
}

const char *pdb_run_row_attr(const struct pdb_run_row *r, const char *key)
{
	for (size_t i = 0; i < r->nattrs; i++)
		if (strcmp(r->attrs[i].key, key) == 0)
			return r->attrs[i].value;
	return NULL;
}
