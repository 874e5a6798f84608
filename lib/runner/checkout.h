/* Checkouts: the git: REV of each A/B variant in a temporary worktree, built there;
 * without git: variants, the current checkout, built once. */
#ifndef PDB_CHECKOUT_H
#define PDB_CHECKOUT_H

#include <signal.h>

#include "err.h"
#include "runner/spec.h"

/* The most variants checked out at once: an A/B run's two, a bisection's
 * three (good, a midpoint, bad). */
#define PDB_CHECKOUTS_MAX 3

struct pdb_checkouts {
	char *top;        /* the current checkout's top level */
	char *tmp;        /* the folder of the worktrees, NULL until they are added */
	char *commit[PDB_CHECKOUTS_MAX]; /* each variant's commit (full sha) */
	char *branch[PDB_CHECKOUTS_MAX]; /* the branch its git: REV names, or NULL */
	char *dir[PDB_CHECKOUTS_MAX];    /* its checkout: a worktree in tmp, or top without git: */
	int added[PDB_CHECKOUTS_MAX];    /* dir[v] is a worktree perfdb added (and removes) */
	char *here_commit; /* without git: variants, the current checkout's HEAD, or NULL */
};

/* Without git: variants, the current checkout, where build: runs once: the
 * top level of the git repository here (co->here_commit its HEAD), else the
 * current directory, in co->top and as the spec's {dir}. 0, or -1 with err.
 * Release with pdb_checkouts_release. */
int pdb_checkouts_here(struct pdb_spec *spec, struct pdb_checkouts *co, struct pdb_err *err);

/* Run the spec's build once in the current checkout (pdb_checkouts_here).
 * As pdb_checkouts_build. */
int pdb_checkouts_build_here(const struct pdb_spec *spec, const struct pdb_checkouts *co,
			     volatile sig_atomic_t *stop, struct pdb_err *err);

/* Resolve each variant's git: REV to a commit (a variant without git: is the
 * current checkout, its HEAD). 0, or -1 with err (PDB_EXIT_USAGE: no git
 * repository here, an unknown revision). Release with pdb_checkouts_release. */
int pdb_checkouts_resolve(const struct pdb_spec *spec, struct pdb_checkouts *co,
			  struct pdb_err *err);

/* Check each git: variant's commit out into a worktree of its own under a
 * new temporary folder (git worktree add --detach; no hook runs) and set
 * every variant's {dir} to its checkout. 0, or -1 with err. */
int pdb_checkouts_add(struct pdb_spec *spec, struct pdb_checkouts *co, struct pdb_err *err);

/* Run the spec's build (its {KEY}s those of variant v) in v's checkout. 0
 * when it succeeded, 1 when stop was set while it ran, -1 with err when it
 * failed (the message ends with the build's last lines) or could not start. */
int pdb_checkouts_build(const struct pdb_spec *spec, const struct pdb_checkouts *co, size_t v,
			volatile sig_atomic_t *stop, struct pdb_err *err);

/* Remove the worktrees perfdb added and their folder, and free co. 0, or -1
 * with err naming what is left behind. */
int pdb_checkouts_release(struct pdb_checkouts *co, struct pdb_err *err);

#endif
