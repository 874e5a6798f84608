/* Compare's read model: the runs of both sides and the history of their
 * series, read before the comparison (lib/gather/compare_gather.c), so that
 * the comparison itself (lib/compare.c) is a function of memory and never
 * reads the store. */
#ifndef PDB_COMPARE_INPUT_H
#define PDB_COMPARE_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* Runs of the baseline's branch the history test reads the run-to-run
 * noise from (one more is read: the candidate may be among them). */
#define PDB_COMPARE_HISTORY_RUNS 30
/* Fewer runs of a series than this: no history test. */
#define PDB_COMPARE_HISTORY_MIN_RUNS 5

/* The newest points of one series up to the baseline, oldest first. */
struct pdb_compare_history {
	char *key;                     /* pdb_compare_key */
	struct pdb_run_value *pts;
	size_t n;
};

struct pdb_compare_input {
	struct pdb_run *const *base, *const *cand;
	size_t nbase, ncand;
	struct pdb_compare_history *history; /* sorted by key; a series without
					      * one has no stored history */
	size_t nhistory;
};

/* Where a comparison's history lies: the branch of the newest baseline run
 * (in the order of runs), up to that run; the candidate (one run) is never
 * its own history. A branch name holding a comma cannot be an attribute
 * filter: such a baseline reads every run. */
struct pdb_compare_scope {
	int64_t until;       /* the newest baseline run; <= 0: not stored, no history */
	char *where;         /* "branch=B"; NULL: every run */
	const char *branch;  /* B, for reasons (the run's own string); NULL without */
	int64_t cand_id;     /* the candidate run; -1 with several */
};
void pdb_compare_scope_of(struct pdb_run *const *base, size_t nbase, struct pdb_run *const *cand,
			  size_t ncand, struct pdb_compare_scope *scope);
void pdb_compare_scope_release(struct pdb_compare_scope *scope);

/* The key of a series: benchmark \x1f dims JSON \x1f metric (malloc'ed). */
char *pdb_compare_key(const char *benchmark, const char *dims_json, const char *metric);
/* The history of the series with this key, or NULL. */
const struct pdb_compare_history *pdb_compare_history_find(const struct pdb_compare_input *in,
							   const char *key);
/* Free the history (not the runs). */
void pdb_compare_input_release(struct pdb_compare_input *in);

#endif
