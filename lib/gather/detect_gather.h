/* detect over the store: a series' values and its split resumed from the
 * cached state, the runs its findings name, the states written back. */
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

/* One series of `perfdb detect` and what was found in it. */
struct pdb_detect_found {
	struct pdb_series *series;        /* the caller's */
	struct pdb_detect_values values;  /* the points with a value, in run order */
	struct pdb_history_point *labels; /* the points the text output names (run
					   * id, name, commit), by position */
	size_t *label_at, nlabels;
	struct pdb_detect_result res;
	struct pdb_detect_state state;
};
/* What pdb_gather_detect reads a series over, and how. */
struct pdb_detect_gather {
	const struct pdb_detect_opts *opts; /* each series gets its metric's own (pdb_detect_opts_for) */
	const char *where;                  /* the runs' attributes (NULL: any) */
	int64_t since_id;                   /* the runs from it on (0: all) */
	const char *params, *selection;     /* pdb_detect_params, pdb_store_detect_selection */
	int use_cache;                      /* 0: neither the cached values nor the split */
	int labels;                         /* read the runs the change points and outliers name */
};
/* f->series's values as detect splits them (the cached copy and the runs
 * after it), its split resumed from the cache (pdb_detect_resumed), and,
 * with g->labels, the name and commit of the runs its change points and
 * outliers name. Release f with pdb_detect_found_release (also after -1). */
int pdb_gather_detect(struct pdb_store *store, const struct pdb_detect_gather *g,
		      struct pdb_detect_found *f, struct pdb_err *err);
/* The labelled point at position i (NULL when it was not read). */
const struct pdb_history_point *pdb_detect_found_label(const struct pdb_detect_found *f, size_t i);
void pdb_detect_found_release(struct pdb_detect_found *f);

#endif
