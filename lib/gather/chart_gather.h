/* Gather what a chart kind draws from the store (the runs named, a
 * history's series and points); the kinds (lib/chart/kinds.h) build their
 * charts from it in memory. */
#ifndef PDB_CHART_GATHER_H
#define PDB_CHART_GATHER_H

#include <stddef.h>

#include "chart/kinds.h"
#include "store/store.h"

/* The runs named by selectors, loaded whole; *out malloc'ed, free with
 * pdb_gather_runs_free. */
int pdb_gather_runs(struct pdb_store *store, const char *const *sel, size_t n,
		    struct pdb_run ***out, struct pdb_err *err);
void pdb_gather_runs_free(struct pdb_run **runs, size_t n);

/* What a history chart draws (sel: none, FROM, or FROM TO): the series
 * opts' globs match, chosen by pdb_history_choose, then the points of each
 * one drawn over the runs from FROM to TO that opts->where passes (their
 * bounds, and the runs in which its benchmark failed). Release with
 * pdb_gather_history_release (also after -1). */
int pdb_gather_history(struct pdb_store *store, const char *const *sel, size_t nsel,
		       const struct pdb_plot_opts *opts, struct pdb_history_model *m,
		       struct pdb_err *err);
void pdb_gather_history_release(struct pdb_history_model *m);

#endif
