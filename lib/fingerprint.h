/* Fingerprint: the environment a run was made in (host, os, cpu, git commit). */
#ifndef PDB_FINGERPRINT_H
#define PDB_FINGERPRINT_H

#include "model.h"

/* Add host, os, kernel, arch, cpu_model, vcpus, memory and, inside a git
 * work tree or CI, commit, branch and dirty to run's attributes: those of
 * the work tree git_dir (an A/B variant's worktree), or with NULL of the
 * current directory and CI's. Attributes already set (e.g. by --attr) are
 * left as they are. */
void pdb_fingerprint_capture(struct pdb_run *run, const char *git_dir);

#endif
