/* The branch and baseline rules. Runs of several branches are not one
 * history: a command that reads a history without --where reads one branch:
 * main, else master, else the one with the most runs (the newest first on a
 * tie). A run is compared with the newest before it on its branch. */
#ifndef PDB_BRANCHES_H
#define PDB_BRANCHES_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store/store.h"

struct pdb_branch {
	const char *name;  /* points into the rows given */
	size_t runs;
};

/* The branches of rows (newest first, as pdb_store_list_runs gives them)
 * whose seq is at least since_seq, the rule's branch first; *unnamed counts
 * the runs without one. malloc'ed; *n of them. */
struct pdb_branch *pdb_branches(const struct pdb_run_row *rows, size_t nrows, int64_t since_seq,
				size_t *n, size_t *unnamed);

/* Whether two runs are on one branch (two runs without one are). */
int pdb_branch_same(const struct pdb_run_row *a, const struct pdb_run_row *b);

/* The runs a history is read from, among rows (newest first) whose seq is
 * at least since_seq: where when given (copied), else, when they have two
 * branches or more, "branch=NAME" by the rule, with *note saying so ("the
 * runs have 2 branches: reading branch=main (6 runs; --where branch=NAME for
 * another)"); else NULL (all). Both malloc'ed. When the rule chose, and
 * branches is not NULL, *branches are the branches (pdb_branches; caller
 * frees), else NULL and *nbranches 0. */
void pdb_history_where_of(const struct pdb_run_row *rows, size_t nrows, int64_t since_seq,
			  const char *where, char **out, char **note,
			  struct pdb_branch **branches, size_t *nbranches);

/* The same over the store's runs, from run since_id on (0: all). */
int pdb_history_where(struct pdb_store *store, const char *where, int64_t since_id, char **out,
		      char **note, struct pdb_err *err);

/* The baseline rule, for report, the site and every default baseline: the
 * run a candidate is compared with is the newest eligible run before it on
 * its branch that shares a series with it, else the newest eligible run
 * before it on any branch that does. A history of n runs, oldest first;
 * eligible NULL: every run. */
struct pdb_baseline_history {
	size_t n;
	const struct pdb_run_row *(*row)(void *ctx, size_t i);
	int (*eligible)(void *ctx, size_t i);
	/* 1 when runs a and b each have a value of one series, 0 when not, -1 on error */
	int (*shares)(void *ctx, size_t a, size_t b);
	void *ctx;
};

/* Candidate cand's baseline in h: 1 with *base, 0 when there is none, -1
 * when shares failed. */
int pdb_baseline_index(const struct pdb_baseline_history *h, size_t cand, size_t *base);

#endif
