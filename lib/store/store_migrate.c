/* Store: the migration steps SQL cannot do, run in the migration's transaction. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "formats/scan_name.h"
#include "store/store_internal.h"

/* One result of a hyperfine run with parameters, as stored. */
struct scan_row {
	int64_t result_id, series_id;
	char *benchmark, *dims, *metric, *unit;
	int direction;
	size_t item;               /* its (benchmark, dims) among the run's items */
};

struct scan_run {
	int64_t id;
	struct scan_row *rows;
	size_t nrows, caprows;
	struct pdb_scan_item *items; /* the run's distinct (benchmark, dims), in order */
	size_t nitems;
};

static void run_release(struct scan_run *run)
{
	for (size_t i = 0; i < run->nrows; i++) {
		free(run->rows[i].benchmark);
		free(run->rows[i].dims);
		free(run->rows[i].metric);
		free(run->rows[i].unit);
	}
	for (size_t i = 0; i < run->nitems; i++) {
		for (size_t k = 0; k < run->items[i].nparams; k++) {
			free(run->items[i].params[k].key);
			free(run->items[i].params[k].value);
		}
		free((void *)run->items[i].params);
	}
	free(run->rows);
	free(run->items);
	memset(run, 0, sizeof *run);
}

/* The dims JSON as parameters (string values; others as their JSON text). */
static void parse_dims(const char *text, struct pdb_scan_item *it)
{
	json_t *o = json_loads(text, 0, NULL), *v;
	struct pdb_attr *p;
	const char *key;

	it->nparams = 0;
	it->params = p = pdb_xcalloc(json_object_size(o) + 1, sizeof *p);
	json_object_foreach(o, key, v) {
		p[it->nparams].key = pdb_xstrdup(key);
		p[it->nparams++].value = json_is_string(v) ? pdb_xstrdup(json_string_value(v))
							   : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	}
	json_decref(o);
}

static void add_row(struct scan_run *run, sqlite3_stmt *st)
{
	struct scan_row *r;
	size_t i;

	pdb_grow((void **)&run->rows, &run->caprows, run->nrows + 1, sizeof *run->rows);
	r = &run->rows[run->nrows++];
	r->result_id = sqlite3_column_int64(st, 1);
	r->series_id = sqlite3_column_int64(st, 2);
	r->benchmark = pdb_xstrdup((const char *)sqlite3_column_text(st, 3));
	r->dims = pdb_xstrdup((const char *)sqlite3_column_text(st, 4));
	r->metric = pdb_xstrdup((const char *)sqlite3_column_text(st, 5));
	r->unit = pdb_xstrdup((const char *)sqlite3_column_text(st, 6));
	r->direction = sqlite3_column_int(st, 7);
	for (i = 0; i < run->nrows - 1; i++)
		if (strcmp(run->rows[i].benchmark, r->benchmark) == 0 &&
		    strcmp(run->rows[i].dims, r->dims) == 0)
			break;
	if (i < run->nrows - 1) {
		r->item = run->rows[i].item;
		return;
	}
	r->item = run->nitems;
	run->items = pdb_xrealloc(run->items, (run->nitems + 1) * sizeof *run->items);
	run->items[run->nitems].command = r->benchmark;
	parse_dims(r->dims, &run->items[run->nitems++]);
}

/* Move the run's results to the series of their scan names, and its
 * failures with them. */
static int rename_run(struct pdb_store *store, struct scan_run *run, sqlite3_stmt *add,
		      sqlite3_stmt *move, sqlite3_stmt *fail, sqlite3_stmt *drop,
		      struct pdb_err *err)
{
	char **names = pdb_xcalloc(run->nitems + 1, sizeof *names);
	int ret = -1;

	/* the rows' benchmark strings back the items: take names before any change */
	pdb_scan_names(run->items, run->nitems, names);
	for (size_t i = 0; i < run->nrows; i++) {
		const struct scan_row *r = &run->rows[i];
		const char *name = names[r->item];
		if (strcmp(name, r->benchmark) == 0)
			continue;
		sqlite3_reset(add);
		sqlite3_bind_text(add, 1, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(add, 2, r->dims, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(add, 3, r->metric, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(add, 4, r->unit, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(add, 5, r->direction);
		sqlite3_reset(move);
		sqlite3_bind_text(move, 1, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(move, 2, r->dims, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(move, 3, r->metric, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(move, 4, r->result_id);
		sqlite3_reset(fail);
		sqlite3_bind_text(fail, 1, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(fail, 2, run->id);
		sqlite3_bind_text(fail, 3, r->benchmark, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(fail, 4, r->dims, -1, SQLITE_TRANSIENT);
		sqlite3_reset(drop);
		sqlite3_bind_int64(drop, 1, r->series_id);
		if (sqlite3_step(add) != SQLITE_DONE || sqlite3_step(move) != SQLITE_DONE ||
		    sqlite3_step(fail) != SQLITE_DONE || sqlite3_step(drop) != SQLITE_DONE) {
			pdb_store_fail(store, err, "migrate: rename a parameter scan");
			goto out;
		}
	}
	ret = 0;
out:
	for (size_t i = 0; i < run->nitems; i++)
		free(names[i]);
	free(names);
	return ret;
}

int pdb_store_migrate_scans(struct pdb_store *store, struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT r.run_id, r.id, s.id, s.benchmark, s.dims, s.metric, s.unit, s.direction"
		" FROM results r JOIN series s ON s.id = r.series_id JOIN runs u ON u.id = r.run_id"
		" WHERE u.tool = 'hyperfine' AND s.dims != '{}' ORDER BY r.run_id, r.id", err);
	sqlite3_stmt *add = pdb_store_prepare(store,
		"INSERT OR IGNORE INTO series (benchmark, dims, metric, unit, direction)"
		" VALUES (?, ?, ?, ?, ?)", err);
	sqlite3_stmt *move = pdb_store_prepare(store,
		"UPDATE results SET series_id = (SELECT id FROM series WHERE benchmark = ?"
		" AND dims = ? AND metric = ?) WHERE id = ?", err);
	sqlite3_stmt *fail = pdb_store_prepare(store,
		"UPDATE OR IGNORE failures SET benchmark = ? WHERE run_id = ? AND benchmark = ? AND dims = ?",
		err);
	sqlite3_stmt *drop = pdb_store_prepare(store,
		"DELETE FROM series WHERE id = ?1 AND NOT EXISTS"
		" (SELECT 1 FROM results WHERE series_id = ?1)", err);
	struct scan_run *runs = NULL;
	size_t nruns = 0;
	int rc, ret = -1;

	if (!st || !add || !move || !fail || !drop)
		goto out;
	/* every row first: the renames change the rows this query reads */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (!nruns || runs[nruns - 1].id != id) {
			runs = pdb_xrealloc(runs, (nruns + 1) * sizeof *runs);
			runs[nruns++] = (struct scan_run){ .id = id };
		}
		add_row(&runs[nruns - 1], st);
	}
	ret = rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "migrate: read hyperfine series");
	for (size_t i = 0; i < nruns; i++) {
		if (ret == 0)
			ret = rename_run(store, &runs[i], add, move, fail, drop, err);
		run_release(&runs[i]);
	}
out:
	free(runs);
	sqlite3_finalize(st);
	sqlite3_finalize(add);
	sqlite3_finalize(move);
	sqlite3_finalize(fail);
	sqlite3_finalize(drop);
	return ret;
}
