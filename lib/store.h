/* Store: the SQLite file behind perfdb. All SQL lives in lib/store*.c. */
#ifndef PDB_STORE_H
#define PDB_STORE_H

#include <stdint.h>

#include "err.h"
#include "model.h"

struct pdb_store;

/* Open or create the database at path (migrating it to this perfdb's
 * schema). NULL on failure with err filled. Close with pdb_store_close. */
struct pdb_store *pdb_store_open(const char *path, struct pdb_err *err);
void pdb_store_close(struct pdb_store *store); /* NULL-safe */
/* The database path to use: explicit, else $PERFDB_DB, else ./perfdb.db. */
const char *pdb_store_default_path(const char *explicit_path);

/* Store a whole run in one transaction; sets run->id. Refuses a run whose
 * sha256 is already stored unless force, and a uuid that is already stored
 * (err code PDB_EXIT_INPUT). */
int pdb_store_insert_run(struct pdb_store *store, struct pdb_run *run,
			 int force, struct pdb_err *err);

/* Resolve a run selector (run42, 42, a name, latest, latest~N,
 * latest:KEY=VALUE[,KEY=VALUE], latest~N:KEY=VALUE) to a run id. */
int pdb_store_resolve(struct pdb_store *store, const char *selector,
		      int64_t *id, struct pdb_err *err);
/* Resolve "SELECTOR" or a comma-separated list, or with last > 0 the last
 * `last` runs matching the selector's filter up to it (newest last).
 * *ids is malloc'ed; caller frees. */
int pdb_store_resolve_group(struct pdb_store *store, const char *selector,
			    int last, int64_t **ids, size_t *nids,
			    struct pdb_err *err);

/* Load a whole run (attributes, results, samples, stats). Caller frees. */
struct pdb_run *pdb_store_load_run(struct pdb_store *store, int64_t id,
				   struct pdb_err *err);

/* Runs newest first, for `perfdb runs`. */
struct pdb_run_row {
	int64_t id;
	char *name, *created_at, *tool, *format, *status;
	struct pdb_attr *attrs;
	size_t nattrs;
	int64_t nseries;
};
struct pdb_run_filter {
	int limit;              /* 0: all */
	const char *where_key;  /* NULL: no filter */
	const char *where_value;
};
int pdb_store_list_runs(struct pdb_store *store, const struct pdb_run_filter *f,
			struct pdb_run_row **rows, size_t *nrows,
			struct pdb_err *err);
void pdb_run_rows_free(struct pdb_run_row *rows, size_t nrows);

/* Delete a run and everything it holds. */
int pdb_store_delete_run(struct pdb_store *store, int64_t id, struct pdb_err *err);

#endif
