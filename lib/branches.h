/* The branch rule: runs of several branches are not one history. A command
 * that reads a history without --where reads one branch: main, else master,
 * else the one with the most runs (the newest first on a tie). */
#ifndef PDB_BRANCHES_H
#define PDB_BRANCHES_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"

struct pdb_branch {
	const char *name;  /* points into the rows given */
	size_t runs;
};

/* The branches of rows (newest first, as pdb_store_list_runs gives them)
 * whose seq is at least since_seq, the rule's branch first; *unnamed counts
 * the runs without one. malloc'ed; *n of them. */
struct pdb_branch *pdb_branches(const struct pdb_run_row *rows, size_t nrows, int64_t since_seq,
				size_t *n, size_t *unnamed);

/* The runs a history is read from: where when given (copied), else, when
 * the store's runs have two branches or more, "branch=NAME" by the rule,
 * with *note saying so ("the runs have 2 branches: ... branch=main (6 runs;
 * --where branch=NAME for another)"); else NULL (all). Both malloc'ed. */
int pdb_history_where(struct pdb_store *store, const char *where, char **out, char **note,
		      struct pdb_err *err);

#endif
