/* Store: the cache of weak change points behind `perfdb detect`. */
#ifndef PDB_STORE_DETECT_H
#define PDB_STORE_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "detect.h"
#include "store/store.h"

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

/* Change points of one series' values x[n], the split resumed from the
 * cache under params when use_cache and it has one; *next receives the
 * state to cache. The one way detect and the site detect. */
int pdb_detect_resumed(struct pdb_store *store, int64_t series_id, const char *params,
		       int use_cache, const double *x, size_t n, const struct pdb_detect_opts *o,
		       struct pdb_detect_state *next, struct pdb_detect_result *res,
		       struct pdb_err *err);

/* Saves the states (and values) read in the read transaction begun before
 * (pdb_store_begin_read), and ends it. Nothing is saved when the database
 * is read-only or another process wrote to it since the transaction began:
 * then *note says so (a static text, else NULL). 0, or -1 with err. */
int pdb_detect_cache_save(struct pdb_store *store, const char *params, const char *selection,
			  const struct pdb_detect_cache_entry *e, size_t n, const char **note,
			  struct pdb_err *err);

#endif
