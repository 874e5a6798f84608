/* Store: the SQLite file behind perfdb. All SQL lives in lib/store*.c. */
#ifndef PDB_STORE_H
#define PDB_STORE_H

#include <stdint.h>

#include "err.h"
#include "model.h"
#include "series.h"

struct pdb_store;

/* Open or create the database at path (migrating it to this perfdb's
 * schema). NULL on failure with err filled. Close with pdb_store_close.
 * A store is used by one thread at a time. */
struct pdb_store *pdb_store_open(const char *path, struct pdb_err *err);
/* Open a perfdb database that must exist, as pdb_store_open does (migrating
 * an older schema, refusing a newer one); a missing file, a file that is not
 * SQLite and an SQLite file perfdb did not write (schema version 0, or no runs
 * table) are refused with PDB_EXIT_INPUT, untouched. */
struct pdb_store *pdb_store_open_existing(const char *path, struct pdb_err *err);
/* Whether the store was opened read-only (a file or folder it cannot write). */
int pdb_store_readonly(const struct pdb_store *store);
void pdb_store_close(struct pdb_store *store); /* NULL-safe */
/* The database path to use: explicit, else $PERFDB_DB, else ./perfdb.db. */
const char *pdb_store_default_path(const char *explicit_path);

/* Store a whole run in one transaction; sets run->id. Refuses a run whose
 * sha256 is already stored unless force, and a uuid that is already stored
 * (err code PDB_EXIT_INPUT). */
int pdb_store_insert_run(struct pdb_store *store, struct pdb_run *run,
			 int force, struct pdb_err *err);
/* pdb_store_insert_run of n runs, in this order, in one transaction: all
 * stored, or none. On failure *refused (may be NULL) is the index of the run
 * refused, n when the commit failed. */
int pdb_store_insert_runs(struct pdb_store *store, struct pdb_run *const *runs, size_t n,
			  int force, size_t *refused, struct pdb_err *err);

/* pdb_store_insert_run (with force) of a run whose name another run has
 * already: the incoming run becomes NAME~2 (~3, ... ~100), its own name kept in
 * the attribute renamed_attr ("kafka.renamed_from"). One transaction. */
int pdb_store_insert_renaming(struct pdb_store *store, struct pdb_run *run,
			      const char *renamed_attr, struct pdb_err *err);

/* Ids of the runs whose attributes match where ("k=v,k=v", or NULL: all),
 * in the order of runs (oldest first). *ids is malloc'ed; caller frees. */
int pdb_store_run_ids(struct pdb_store *store, const char *where, int64_t **ids, size_t *n,
		      struct pdb_err *err);

/* Copy every run of src into dst in one transaction of dst (rolled back
 * when dry_run, after doing everything else): uuids, times, names, attributes,
 * samples, stats and failures kept; a run whose uuid dst has is skipped; a
 * name dst has already is resolved as pdb_store_insert_renaming does (the
 * attribute merge.renamed_from), and on_rename (may be NULL) told of it with
 * the run as stored and its former name. Runs are read one at a time. */
struct pdb_merge_stats {
	size_t merged, skipped, renamed;
};
typedef void (*pdb_merge_rename_fn)(void *ctx, const struct pdb_run *run, const char *was);
int pdb_store_merge(struct pdb_store *dst, struct pdb_store *src, int dry_run,
		    pdb_merge_rename_fn on_rename, void *ctx,
		    struct pdb_merge_stats *stats, struct pdb_err *err);

/* The id of the run named name in *id, 0 when none. 0, or -1 on error. */
int pdb_store_run_named(struct pdb_store *store, const char *name, int64_t *id,
			struct pdb_err *err);

/* The order of runs: by the time they were measured (created_at, always
 * UTC text YYYY-MM-DDTHH:MM:SSZ, so that it sorts as time), ties by id,
 * whatever order they were stored in. Every rule below that speaks of
 * older, newer, latest or history means this order (runs.seq; a run's
 * seq is its place in it, compared in memory, never shown). */

/* Resolve a run selector (run42, 42, a name, latest, latest~N,
 * latest:KEY=VALUE[,KEY=VALUE], latest~N:KEY=VALUE) to a run id. */
int pdb_store_resolve(struct pdb_store *store, const char *selector,
		      int64_t *id, struct pdb_err *err);
/* The same for --since RUN: latest~N past the oldest run the selector's
 * filter matches is that oldest run, and *fewer is the count of the runs
 * matching (0 when latest~N named a run), so that "the last 200 runs" reads a
 * shorter history whole. */
int pdb_store_resolve_since(struct pdb_store *store, const char *selector,
			    int64_t *id, size_t *fewer, struct pdb_err *err);
/* Resolve "SELECTOR" or a comma-separated list, or with last > 0 the last
 * `last` runs matching the selector's filter up to it, in the order of
 * runs (newest last).
 * *ids is malloc'ed; caller frees. */
int pdb_store_resolve_group(struct pdb_store *store, const char *selector,
			    int last, int64_t **ids, size_t *nids,
			    struct pdb_err *err);

/* Load a whole run (attributes, results, samples, stats). Caller frees. */
struct pdb_run *pdb_store_load_run(struct pdb_store *store, int64_t id,
				   struct pdb_err *err);

/* Runs newest first, for `perfdb runs`. */
struct pdb_run_row {
	int64_t id, seq;
	char *name, *created_at, *tool, *format, *status;
	struct pdb_attr *attrs;
	size_t nattrs;
	int64_t nseries;        /* 0 unless the filter's count_series */
};
struct pdb_run_filter {
	int limit;              /* 0: all */
	const char *where;      /* only runs with these attributes ("k=v,k=v"); NULL: all */
	int count_series;       /* fill nseries (a count over every result: the rows of a
				 * large store are read ten times faster without it) */
};
int pdb_store_list_runs(struct pdb_store *store, const struct pdb_run_filter *f,
			struct pdb_run_row **rows, size_t *nrows,
			struct pdb_err *err);
/* How many branches the runs name, 0, 1 or 2 for more (the index of
 * run_attrs reads it: no run is listed). */
int pdb_store_count_branches(struct pdb_store *store, int *n, struct pdb_err *err);
/* The runs newest first with only what the branch rule reads (branches.h):
 * id, seq and the attribute branch. */
int pdb_store_list_branches(struct pdb_store *store, struct pdb_run_row **rows, size_t *nrows,
			    struct pdb_err *err);
void pdb_run_rows_free(struct pdb_run_row *rows, size_t nrows);
/* The value of a row's attribute key, or NULL when it has none. */
const char *pdb_run_row_attr(const struct pdb_run_row *r, const char *key);
/* The seq of run id among rows; 0 when it is not there (or id is 0). */
int64_t pdb_run_rows_seq(const struct pdb_run_row *rows, size_t nrows, int64_t id);
/* A benchmark that failed in a run, as stored (dims as series.dims). */
struct pdb_failure_row {
	int64_t run_id, seq;
	char *benchmark, *dims, *reason;
};
/* The failures of the runs from since_id on (0: all), by run (in order),
 * benchmark, dims. */
int pdb_store_failure_rows(struct pdb_store *store, int64_t since_id,
			   struct pdb_failure_row **rows, size_t *n, struct pdb_err *err);
void pdb_failure_rows_free(struct pdb_failure_row *rows, size_t n);

/* Series whose benchmark and metric match the globs (NULL: any), by
 * benchmark, dims, metric. *out is malloc'ed; free with pdb_series_free. */
int pdb_store_list_series(struct pdb_store *store, const char *bench_glob,
			  const char *metric_glob, struct pdb_series **out,
			  size_t *n, struct pdb_err *err);

/* The series a run has results of, in result order. *out is malloc'ed; free
 * with pdb_series_free. */
int pdb_store_run_series(struct pdb_store *store, int64_t run_id, struct pdb_series **out,
			 size_t *n, struct pdb_err *err);

/* The points of a series in the order of runs, over the runs from since_id
 * to until_id (0: no bound) whose attributes match where
 * ("k=v,k=v", or NULL). *pts is malloc'ed; free with pdb_history_free. */
int pdb_store_series_history(struct pdb_store *store, int64_t series_id,
			     const char *where, int64_t since_id, int64_t until_id,
			     struct pdb_history_point **pts, size_t *n,
			     struct pdb_err *err);
/* The points of every series given, as pdb_store_series_history gives them
 * but without their runs' names, times and commits (NULL)
 * (over the runs from since_id on whose attributes match where), read in one
 * pass: pts[i] and n[i] for series[i]; free each with pdb_history_free. */
int pdb_store_all_points(struct pdb_store *store, const char *where, int64_t since_id,
			 const struct pdb_series *series, size_t nseries,
			 struct pdb_history_point **pts, size_t *n, struct pdb_err *err);
/* The newest count points of a series over the runs up to until_id (0: no
 * bound) whose attributes match where (NULL: all), in order, without
 * labels (as pdb_store_all_points). */
int pdb_store_series_last(struct pdb_store *store, int64_t series_id, const char *where,
			  int64_t until_id, size_t count, struct pdb_history_point **pts,
			  size_t *n, struct pdb_err *err);
/* The runs up to until_id (0: no bound) whose attributes match where. */
int pdb_store_count_until(struct pdb_store *store, const char *where, int64_t until_id,
			  size_t *count, struct pdb_err *err);
/* One run's values as the store keeps them (schema/010-run-values.sql):
 * the bytes lib/run_values.c packed when the run was stored, which the
 * store does not read, and the series of the run whose benchmark failed in
 * it (PDB_FAILED_IN_RUN: they have no value), ascending. Valid during the
 * callback only. */
struct pdb_stored_run_values {
	const char *path;    /* the database's, for errors */
	int64_t run_id;
	const void *vals;
	size_t len;
	const int64_t *failed;
	size_t nfailed;
};
/* Called for each run; 0 goes on, > 0 stops (success), < 0 stops with err
 * filled. */
typedef int (*pdb_run_values_fn)(void *ctx, const struct pdb_stored_run_values *rv,
				 struct pdb_err *err);
/* The run values of the runs up to until_id (0: no bound) whose attributes
 * match where (NULL: all), newest first in the order of runs, to fn until it
 * stops. A run without them is a corrupt database (exit 4). */
int pdb_store_each_run_values(struct pdb_store *store, const char *where, int64_t until_id,
			      pdb_run_values_fn fn, void *ctx, struct pdb_err *err);
/* The values of a series as detect splits them: the run ids and values of
 * the points with a finite value (as pdb_store_series_history gives them),
 * over the runs from since_id on and after run after_run (0: none) whose
 * attributes match where, appended to *v in order; v->last_run becomes the newest run
 * read, with a value or not, and v->rows counts the results read. */
struct pdb_series_values {
	int64_t *run_ids;  /* malloc'ed */
	double *values;    /* malloc'ed */
	size_t n, cap;
	int64_t last_run;
	size_t rows;
};
int pdb_store_series_values(struct pdb_store *store, int64_t series_id,
			    const char *where, int64_t since_id, int64_t after_run,
			    struct pdb_series_values *v, struct pdb_err *err);
void pdb_series_values_release(struct pdb_series_values *v); /* NULL-safe */
/* The runs in which the series' benchmark (with its dims) failed, over runs
 * as pdb_store_series_history selects them: labelled points without a value. */
int pdb_store_series_failures(struct pdb_store *store, const struct pdb_series *series,
			      const char *where, int64_t since_id, int64_t until_id,
			      struct pdb_history_point **pts, size_t *n, struct pdb_err *err);
/* The run name, created_at and commit of a point whose run_id is set. */
int pdb_store_point_label(struct pdb_store *store, struct pdb_history_point *p,
			  struct pdb_err *err);
/* Fill the lower and upper bounds of the points (as pdb_store_series_history
 * gave them, in order) from their results' stats: one query for the
 * series, for the charts that draw them. */
int pdb_store_series_bounds(struct pdb_store *store, int64_t series_id,
			    struct pdb_history_point *pts, size_t n, struct pdb_err *err);
/* *yes = 1 when some result has such bounds (one scan of the stats). */
int pdb_store_has_bounds(struct pdb_store *store, int *yes, struct pdb_err *err);

/* Begin a read transaction: what the following reads see stays as it was
 * when the first began, until a commit or rollback. */
int pdb_store_begin_read(struct pdb_store *store, struct pdb_err *err);
/* End the open transaction, keeping nothing of it (none open: nothing). */
void pdb_store_rollback(struct pdb_store *store);

/* One SQL statement that only reads, run on a read-only connection of its
 * own with the temporary views samples_v (one row per sample, unpacked by the
 * table-valued function pdb_unpack(samples, offsets, weights)) and stats_v (one
 * row per statistic). A statement that would write, ATTACH, DETACH, a PRAGMA
 * that is not a question, a second statement and an error in the SQL are
 * PDB_EXIT_USAGE (a location "query:LINE:COL" where SQLite gives one), and so
 * is a function that exposes a pointer or changes state (fts3_tokenizer,
 * load_extension). The
 * sink is given the column names (once the first row is read), then each row; cells point into SQLite's
 * memory until the next row. */
enum pdb_sql_type { PDB_SQL_NULL, PDB_SQL_INT, PDB_SQL_REAL, PDB_SQL_TEXT, PDB_SQL_BLOB };
struct pdb_sql_cell {
	int type;                  /* enum pdb_sql_type */
	int64_t i;                 /* PDB_SQL_INT */
	double r;                  /* PDB_SQL_REAL */
	const unsigned char *data; /* PDB_SQL_TEXT (NUL-ended) or PDB_SQL_BLOB */
	size_t len;
};
struct pdb_sql_sink {
	void (*columns)(void *ctx, const char *const *names, size_t n);
	void (*row)(void *ctx, const struct pdb_sql_cell *cells, size_t n);
	void *ctx;
};
/* The query's bounds: seconds it may run, bytes of memory SQLite may hold
 * (0: no bound). Past either it stops, PDB_EXIT_RUNTIME, the error naming
 * the option that lifts it. */
struct pdb_sql_limits {
	double seconds;
	uint64_t memory;
};
int pdb_store_sql(struct pdb_store *store, const char *sql, const struct pdb_sql_limits *limits,
		  const struct pdb_sql_sink *sink, struct pdb_err *err);

/* Delete runs (and everything they hold) in one transaction: all or none. */
int pdb_store_delete_runs(struct pdb_store *store, const int64_t *ids, size_t n,
			  struct pdb_err *err);
/* Give the space of deleted rows back to the filesystem: VACUUM in place (a write
 * transaction like any other: concurrent perfdb processes wait, the file is never
 * missing or half written), then a truncating WAL checkpoint. */
int pdb_store_vacuum(struct pdb_store *store, struct pdb_err *err);

/* Delete a run and everything it holds. */
int pdb_store_delete_run(struct pdb_store *store, int64_t id, struct pdb_err *err);

#endif
