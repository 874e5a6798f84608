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

/* The cached split state of a series under params (a text naming the
 * options the split depends on). *found = 0 when there is none (or it is
 * unreadable); else *state is filled (caller releases). */
int pdb_store_detect_cache_get(struct pdb_store *store, int64_t series_id,
			       const char *params, struct pdb_detect_state *state,
			       int *found, struct pdb_err *err);

/* Replace the cached states of n series (one transaction). */
struct pdb_detect_cache_entry {
	int64_t series_id;
	const struct pdb_detect_state *state;
};
int pdb_store_detect_cache_put(struct pdb_store *store, const char *params,
			       const struct pdb_detect_cache_entry *e, size_t n,
			       struct pdb_err *err);

#endif
