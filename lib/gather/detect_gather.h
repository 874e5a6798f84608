/* detect over the store's cache of its split states: the state read
 * from the store, the split resumed from it, the states written back. */
#ifndef PDB_DETECT_GATHER_H
#define PDB_DETECT_GATHER_H

#include <stddef.h>
#include <stdint.h>

#include "detect.h"
#include "detect_cache.h"
#include "store/store_detect.h"

/* A series' state to cache, and the values it was split from. */
struct pdb_detect_cache_entry {
	int64_t series_id;
	const struct pdb_detect_state *state;
	const struct pdb_detect_values *values;
};

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
