/* Site: a static dashboard of the whole history (index, a page per benchmark, a page per run). */
#ifndef PDB_SITE_H
#define PDB_SITE_H

#include <stddef.h>

#include "err.h"
#include "store/store.h"

/* A site's title when its options give none (and site's --title default). */
#define PDB_SITE_TITLE "Performance dashboard"

struct pdb_site_opts {
	const char *outdir;    /* made when missing */
	const char *where;     /* only runs with these attributes ("k=v,k=v"); NULL: all */
	const char *since;     /* only runs from this run selector on; NULL: all */
	const char *title;     /* NULL: PDB_SITE_TITLE */
	const char *base_url;  /* where the site is published (canonical links); NULL: none */
	int jobs;              /* threads that draw the benchmark pages (0, 1: this one) */
	const struct pdb_compare_config *config; /* the run pages' comparisons are compare's
						  * with this configuration; NULL: none */
};

/* What was done, for the caller to print. */
struct pdb_site_stats {
	size_t pages;          /* pages of the site */
	size_t written;        /* pages written now (the others were up to date) */
	size_t removed;        /* pages of runs or benchmarks no longer there, removed */
	size_t index_bytes;
	size_t runs, series, benchmarks;
	char **notes;          /* one line each: what a page leaves out and why */
	size_t nnotes;
};
void pdb_site_stats_release(struct pdb_site_stats *st);

/* Write the site into opts->outdir: only the pages whose inputs changed
 * since the manifest there (perfdb-site.manifest) was written. Files are
 * replaced whole (a symlink in the way is replaced, never followed).
 * 0, or -1 with err. */
int pdb_site_write(struct pdb_store *store, const struct pdb_site_opts *opts,
		   struct pdb_site_stats *st, struct pdb_err *err);

#endif
