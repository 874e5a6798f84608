/* Gather what a comparison needs from the store in one pass per kind (its
 * runs, the history of their series), then compare in memory. */
#ifndef PDB_COMPARE_GATHER_H
#define PDB_COMPARE_GATHER_H

#include "compare.h"
#include "store/store.h"

/* Read into in->history the newest points of each series the candidate
 * (one run) shares with the baseline, on the baseline's branch up to it
 * (pdb_compare_scope_of): one query for the series, one pass over the runs.
 * Nothing is read for several candidate runs or a baseline not stored. */
int pdb_compare_gather_history(struct pdb_store *store, const struct pdb_compare_opts *opts,
			       struct pdb_compare_input *in, struct pdb_err *err);

/* pdb_compare over stored runs: base and cand are run ids. */
int pdb_compare_run_groups(struct pdb_store *store, const int64_t *base, size_t nbase,
			   const int64_t *cand, size_t ncand,
			   const struct pdb_compare_opts *opts, struct pdb_compare *out,
			   struct pdb_err *err);
/* The same over runs in memory (the store is read for history only; a run
 * not stored has id 0): an adaptive A/B run looks at its runs between
 * repetitions with this. */
int pdb_compare_runs(struct pdb_store *store, struct pdb_run *const *base, size_t nbase,
		     struct pdb_run *const *cand, size_t ncand,
		     const struct pdb_compare_opts *opts, struct pdb_compare *out,
		     struct pdb_err *err);

#endif
