/* Store: the cache of weak change points behind `perfdb detect`, kept as
 * data the store does not interpret (lib/detect_cache.c turns it into
 * detect's states, lib/gather/detect_gather.c reads and writes it). */
#ifndef PDB_STORE_DETECT_H
#define PDB_STORE_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "detect_row.h"
#include "store/store.h"

/* The text naming the run selection cached values depend on: since_id and
 * where (NULL: none). Caller frees. */
char *pdb_store_detect_selection(int64_t since_id, const char *where);

/* The cached row of a series under params (a text naming the options the
 * split depends on). *found = 0 when there is none; else *row is filled
 * (release with pdb_detect_cache_row_release). */
int pdb_store_detect_cache_get(struct pdb_store *store, int64_t series_id,
			       const char *params, struct pdb_detect_cache_row *row,
			       int *found, struct pdb_err *err);
void pdb_detect_cache_row_release(struct pdb_detect_cache_row *row);

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

/* Replace the cached rows of n series under params and, where rewrite is
 * set, their cached values under selection, in one transaction: the read
 * transaction the values were read in (pdb_store_begin_read), so that
 * what another process removed meanwhile is never cached; returns 1,
 * writing nothing, when another process wrote to the database since then.
 * Without an open transaction it begins its own. selection may be NULL
 * when no entry has values. */
struct pdb_detect_cache_put_entry {
	int64_t series_id;
	struct pdb_detect_cache_row row;
	const struct pdb_detect_values *values; /* NULL: none */
};
int pdb_store_detect_cache_put(struct pdb_store *store, const char *params,
			       const char *selection,
			       const struct pdb_detect_cache_put_entry *e, size_t n,
			       struct pdb_err *err);

#endif
