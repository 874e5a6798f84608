/* perfdb bisect: each revision checked out and built once a bisection. */
#ifndef PDB_CMD_BISECT_TREES_H
#define PDB_CMD_BISECT_TREES_H

#include <signal.h>
#include <stddef.h>

#include "runner/checkout.h"
#include "runner/spec.h"

/* The revisions checked out so far, each in a worktree of its own (under a
 * temporary folder of its own) and built there, kept until the bisection
 * ends: good and bad are measured at every step, and were built again at
 * each one before. */
struct bisect_trees {
	struct bisect_tree {
		struct pdb_checkouts co;   /* one variant: the revision */
		int built;                 /* its build ran and succeeded */
	} *tree;
	size_t n, cap;
};

/* The worktree of commit (a full sha) in *dir, checked out and built (the
 * spec's build:) the first time it is asked for. Sets the spec's variants:
 * the caller sets them again for its run. 0, or an exit status (said on
 * stderr; 130 when interrupted while building). */
int bisect_trees_get(struct bisect_trees *t, struct pdb_spec *spec, const char *commit,
		     volatile sig_atomic_t *stop, const char **dir);

/* Remove every worktree and its folder; what cannot be removed is said on
 * stderr. */
void bisect_trees_release(struct bisect_trees *t);

#endif
