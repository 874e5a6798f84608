/* Exec: run one command in its own process group, pinned, timed, with rusage. */
#ifndef PDB_EXEC_H
#define PDB_EXEC_H

#include <signal.h>
#include <sys/types.h>

#include "err.h"
#include "runner/spec.h"

struct pdb_exec_opts {
	const char *const *argv;     /* argv to exec, or NULL to use shell */
	const char *shell;           /* run with /bin/sh -c */
	const struct pdb_attr *env;  /* added to the environment */
	size_t nenv;
	const char *cwd;             /* NULL: stay */
	int vcpus;                   /* >0: pin to the first vcpus allowed CPUs */
	double timeout;              /* seconds; 0: none */
	const char *stdout_path;     /* where stdout goes (NULL: /dev/null) */
	volatile sig_atomic_t *stop; /* set by a signal handler: stop the child */
	const char *const *wrap;     /* a tool's arguments put before the command's (valgrind ...), or NULL */
	int steady_env;              /* PYTHONHASHSEED=0 unless env sets it, and the environment
				      * padded as lib/runner/steady_env.h says, the command's own
				      * arguments counted (not wrap's) */
	unsigned counters;           /* hardware counters (enum pdb_measure bits) of the process
				      * tree from its exec: into the result's counts */
	struct pdb_exec_group *keep; /* non-NULL: what the command leaves running in its process
				      * group when it exits (0, not timed out nor stopped) lives
				      * on, into *keep, until pdb_exec_group_stop */
};

/* A process group a command left running: its id (0: none) and the guard
 * that kills it should perfdb die first. */
struct pdb_exec_group {
	pid_t pgid;
	pid_t guard;
	int guard_fd;
};

struct pdb_exec_result {
	int status;          /* exit status, or 128 + signal */
	int timed_out, interrupted;
	double wall, user, sys;  /* seconds */
	double max_rss;          /* bytes */
	double counts[4];        /* the counters asked, by bit position of enum pdb_measure */
	char stderr_tail[512];   /* last bytes the command wrote to stderr */
};

/* Run the command and wait for it (and its process group). 0 when it ran
 * (whatever its status), -1 with err when it could not be started. */
int pdb_exec_run(const struct pdb_exec_opts *opts, struct pdb_exec_result *res,
		 struct pdb_err *err);

/* Stop what a command left running (g->pgid 0: nothing): SIGTERM to its
 * group, SIGKILL to what is left after a grace period; g emptied. */
void pdb_exec_group_stop(struct pdb_exec_group *g);

/* The number of CPUs this process may run on. */
int pdb_exec_cpus_allowed(void);

#endif
