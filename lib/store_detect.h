/* Store: the cache of weak change points behind `perfdb detect`. */
#ifndef PDB_STORE_DETECT_H
#define PDB_STORE_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "detect.h"
#include "store.h"

/* The text naming what a cached split depends on: the options, since_id
 * and where (NULL: none). Caller frees. */
char *pdb_store_detect_params(const struct pdb_detect_opts *o, int64_t since_id,
			      const char *where);

/* The text naming the run selection cached values depend on: since_id and
 * where (NULL: none). Caller frees. */
char *pdb_store_detect_selection(int64_t since_id, const char *where);

/* The cached split state of a series under params (a text naming the
 * options the split depends on). *found = 0 when there is none (or it is
 * unreadable); else *state is filled (caller releases). */
int pdb_store_detect_cache_get(struct pdb_store *store, int64_t series_id,
			       const char *params, struct pdb_detect_state *state,
			       int *found, struct pdb_err *err);

/* The values detect splits for a series over a run selection (runs from
 * since_id on matching where; selection is a text naming both): the cached
 * copy when there is one (the schema's triggers void it when results it
 * covers change), then the results of the runs after it. rewrite is 1 when the
 * cached copy should be replaced: there was none, it was void, or at least
 * PDB_DETECT_TAIL_REWRITE points were read after it (fewer are read again
 * next time, which costs less than rewriting every series' copy after each
 * run). use_cache 0 reads every result. */
#define PDB_DETECT_TAIL_REWRITE 64
struct pdb_detect_values {
	struct pdb_series_values v;
	int rewrite;
};
int pdb_store_detect_values(struct pdb_store *store, int64_t series_id,
			    const char *where, int64_t since_id, const char *selection,
			    int use_cache, struct pdb_detect_values *dv,
			    struct pdb_err *err);

/* Replace the cached states of n series under params and, where rewrite is
 * set, their cached values under selection, in one transaction: the read
 * transaction the values were read in (pdb_store_begin_read), so that
 * what another process removed meanwhile is never cached; returns 1,
 * writing nothing, when another process wrote to the database since then.
 * Without an open transaction it begins its own. selection may be NULL
 * when no entry has values. */
struct pdb_detect_cache_entry {
	int64_t series_id;
	const struct pdb_detect_state *state;
	const struct pdb_detect_values *values;
};
int pdb_store_detect_cache_put(struct pdb_store *store, const char *params,
			       const char *selection,
			       const struct pdb_detect_cache_entry *e, size_t n,
			       struct pdb_err *err);

#endif
