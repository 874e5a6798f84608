/* Store internals shared by the lib/store*.c files (not for other modules). */
#ifndef PDB_STORE_INTERNAL_H
#define PDB_STORE_INTERNAL_H

#include <sqlite3.h>

#include "run_values.h"
#include "store/store.h"
#include "util.h"

struct pdb_migration {
	const char *name;
	const char *sql;
};
extern const struct pdb_migration pdb_migrations[]; /* generated, NULL-ended */
/* Schema 7's step SQL cannot take: hyperfine parameter scans stored under
 * their expanded commands move to the series of their template
 * (formats/scan_name.h), their failures with them. In the caller's transaction. */
int pdb_store_migrate_scans(struct pdb_store *store, struct pdb_err *err);
/* Schema 10's step: the run values of every stored run (pdb_result_run_value
 * of each of its results, packed), from its samples and statistics as the
 * store has them. In the caller's transaction. */
int pdb_store_migrate_run_values(struct pdb_store *store, struct pdb_err *err);
/* Keep run_id's values, packed by pdb_run_values_pack (which sorts vals in
 * place): st is PDB_RUN_VALUES_INSERT prepared, reset after the step. */
#define PDB_RUN_VALUES_INSERT "INSERT INTO run_values(run_id, vals) VALUES (?, ?)"
int pdb_store_put_run_values(struct pdb_store *store, sqlite3_stmt *st, int64_t run_id,
			     struct pdb_series_value *vals, size_t n, struct pdb_err *err);

/* The most statements a store keeps prepared (pdb_store_prepare_kept). */
#define PDB_STORE_KEPT 8

struct pdb_store {
	sqlite3 *db;
	char *path;
	int readonly;      /* the file (or its folder) cannot be written: opened immutable */
	/* statements asked for once a series read, prepared once
	 * (pdb_store_prepare_kept) */
	struct pdb_kept_stmt {
		char *sql;
		sqlite3_stmt *st;
	} kept[PDB_STORE_KEPT];
	size_t next_kept;
};

/* Rows of (id, benchmark, dims, metric, unit, direction) stepped from st
 * (finalized here) into *out, kept when they match the globs (NULL: all).
 * 0, or -1 with err (what names the query). */
struct pdb_series;
int pdb_store_series_rows(struct pdb_store *store, sqlite3_stmt *st, const char *bench_glob,
			  const char *metric_glob, struct pdb_series **out, size_t *n,
			  const char *what, struct pdb_err *err);

/* SQLite's last error on db as perfdb says it: a failed allocation, or a
 * mapping (-shm, mmap) refused for want of address space, which SQLite
 * calls a disk I/O error, is "out of memory". */
const char *pdb_store_errmsg(sqlite3 *db);
/* Fill err from the database's last error; returns -1. */
int pdb_store_fail(struct pdb_store *store, struct pdb_err *err, const char *what);
/* The integer of a one-row query into *out; 0, or -1 with err ("what:
 * SQLite's message"). */
int pdb_store_query_int(struct pdb_store *store, const char *sql, int *out, const char *what,
			struct pdb_err *err);
/* Prepare sql or fill err. */
sqlite3_stmt *pdb_store_prepare(struct pdb_store *store, const char *sql,
				struct pdb_err *err);
/* The statement of sql kept by the store, reset, its bindings cleared, or
 * NULL with err: for readers asked once a series, whose SQL would otherwise
 * be parsed a thousand times. The caller resets it when done (not finalize)
 * and holds it no longer than that; the store finalizes it at close or when
 * PDB_STORE_KEPT others came after it. */
sqlite3_stmt *pdb_store_prepare_kept(struct pdb_store *store, const char *sql,
				     struct pdb_err *err);
int pdb_store_exec(struct pdb_store *store, const char *sql, struct pdb_err *err);
/* BEGIN IMMEDIATE / COMMIT (pdb_store_rollback: store.h). */
int pdb_store_begin(struct pdb_store *store, struct pdb_err *err);
int pdb_store_commit(struct pdb_store *store, struct pdb_err *err);

/* A run in which the benchmark failed has no value for it, whatever the tool
 * timed (hyperfine --ignore-failure times failed runs): the SQL condition on
 * the row aliased res of results. The failures of the run are looked up
 * first: most runs have none, and then the series is not looked up. */
#define PDB_FAILED_IN_RUN(res) "EXISTS (SELECT 1 FROM failures f CROSS JOIN series s" \
	" WHERE f.run_id = " res ".run_id AND s.id = " res ".series_id" \
	" AND f.benchmark = s.benchmark AND f.dims = s.dims)"

/* Attribute filters "k=v,k=v" on runs aliased r: append the SQL (parameters
 * numbered from first_param) and bind them; returns the next free number. */
int pdb_store_filter_sql(struct pdb_buf *sql, const char *where, int first_param);
void pdb_store_filter_bind(sqlite3_stmt *st, const char *where, int first_param);

/* The order of runs (lib/store/store_order.c): by the time they were measured,
 * created_at, ties by id, kept in runs.seq (schema/006-run-order.sql). */
/* The seq a run measured at created_at takes, inside the caller's write
 * transaction: the runs measured after it (if any) move up by one. */
int pdb_store_place_run(struct pdb_store *store, const char *created_at, int64_t *seq,
			struct pdb_err *err);
/* The seq of run id in *seq; 0 when id is 0 or there is no such run. */
int pdb_store_run_seq(struct pdb_store *store, int64_t id, int64_t *seq, struct pdb_err *err);
/* A range of the order: the runs with lo <= seq <= hi. Every run from lo on
 * has an id of at least lo_id (so that a range scan of results by run id
 * can stop short of the runs before: exact when runs were stored in order). */
struct pdb_order_bounds {
	int64_t lo, hi, lo_id;
};
/* The range from run since_id to run until_id (0: no bound) in *b. */
int pdb_store_order_bounds(struct pdb_store *store, int64_t since_id, int64_t until_id,
			   struct pdb_order_bounds *b, struct pdb_err *err);
/* b->lo_id for b->lo. */
int pdb_store_order_lo_id(struct pdb_store *store, struct pdb_order_bounds *b,
			  struct pdb_err *err);
/* Sort run ids into the order, oldest first. */
int pdb_store_sort_runs(struct pdb_store *store, int64_t *ids, size_t n, struct pdb_err *err);

/* Pack and unpack arrays of doubles (little-endian) for sample blobs. */
void pdb_store_pack(const struct pdb_sample *s, size_t n, int which, unsigned char *out);
void pdb_store_unpack(const unsigned char *blob, size_t n, int which, struct pdb_sample *s);
enum { PDB_PACK_VALUE, PDB_PACK_T, PDB_PACK_WEIGHT };

/* Register the table-valued function pdb_unpack(samples[, offsets[, weights]])
 * (lib/store/store_unpack.c) on db: rows (idx, value, t, weight). An SQLite code. */
int pdb_store_register_unpack(sqlite3 *db);

#endif
