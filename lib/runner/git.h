/* git, run as perfdb runs it: no hook, no fsmonitor, a process group of its own. */
#ifndef PDB_RUNNER_GIT_H
#define PDB_RUNNER_GIT_H

#include <stddef.h>

#include "err.h"

/* Run git with args (NULL-ended, at most 9) in the current directory, in
 * a process group of its own (Ctrl-C lets it finish, then perfdb cleans
 * up). No program the repository configures runs: no hook, no fsmonitor.
 * Its exit status, its whole output in *out (caller frees; out may be
 * NULL) and the first line of its stderr in why; -1 with err when it could
 * not start. */
int pdb_git(const char *const *args, char **out, char why[512], struct pdb_err *err);

/* A commit after another on the first-parent line: its full sha and subject. */
struct pdb_git_commit {
	char *sha, *subject;
};

/* good's commit, then the commits after it up to bad, oldest first, on
 * bad's first-parent line (bad last): *n is one more than the commits
 * after good. good must be an ancestor of bad. 0, or -1 with err
 * (PDB_EXIT_USAGE: a REV that names no commit, good not before bad). */
int pdb_git_commits_between(const char *good, const char *bad, struct pdb_git_commit **out,
			    size_t *n, struct pdb_err *err);
void pdb_git_commits_free(struct pdb_git_commit *c, size_t n);

/* How many commits lie after a up to b (b's ancestors that are not a's):
 * 0 or more, or -1 when either is not a commit of the repository here
 * (or there is none). Nothing is said. */
long pdb_git_distance(const char *a, const char *b);

#endif
