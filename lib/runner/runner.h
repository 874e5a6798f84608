/* Runner: execute a plan and turn every repetition into samples of a run. */
#ifndef PDB_RUNNER_H
#define PDB_RUNNER_H

#include <signal.h>

#include "err.h"
#include "model.h"
#include "runner/exec.h"
#include "runner/instrument.h"
#include "runner/plan.h"

enum pdb_progress_event { PDB_PROGRESS_START, PDB_PROGRESS_DONE, PDB_PROGRESS_WARNING,
			      PDB_PROGRESS_NOTE /* a line of a step's progress: a capacity search's */ };

/* What the runner tells its caller (cmd/run.c prints it). */
struct pdb_progress {
	int event;                         /* enum pdb_progress_event */
	size_t step, nsteps;               /* 0-based step index */
	const struct pdb_step *s;
	const char *bench, *point;         /* point: "vcpus=2,batch=10" or "" */
	const char *variant;               /* the step's variant, NULL without variants */
	double elapsed, eta;               /* seconds */
	const struct pdb_exec_result *res; /* with DONE */
	const char *why;                   /* with DONE: why a repetition whose command
					    * succeeded failed ("metric errors: no match
					    * for '...'"), or NULL */
	const char *message;               /* with WARNING and NOTE */
};

/* A look of an adaptive plan: its steps have all run. */
struct pdb_look {
	size_t look, nlooks;               /* 0-based look of plan->nlooks */
	int pairs;                         /* pairs done so far: plan->looks[look] */
	double elapsed;                    /* seconds since the runner started */
};

struct pdb_runner_opts {
	void (*progress)(void *ctx, const struct pdb_progress *p);
	void *ctx;
	volatile sig_atomic_t *stop;       /* set on SIGINT/SIGTERM */
	/* Adaptive plans: called with ctx after the steps of each look, the
	 * runs' status then saying how they stand so far (complete or failed);
	 * nonzero ends the run there, before the next look's steps. */
	int (*look)(void *ctx, const struct pdb_look *l);
	/* How the benchmarks' measure: instruments are taken
	 * (pdb_instruments_choose): needed when a planned one has measure. */
	const struct pdb_instruments *instruments;
};

/* Errors that must stop a spec before anything runs: more vCPUs asked than
 * this machine allows (a parse format that does not exist is the spec's). */
int pdb_runner_check(const struct pdb_spec *spec, struct pdb_err *err);

/* Run every step of plan and add to runs[variant] (runs[0] without
 * variants; the caller owns them): per benchmark and matrix point,
 * samples of wall_time, user_time, sys_time, cpu_time (s), peak_rss (B), regex
 * metrics, parsed tool output and the instruments of measure: (counts,
 * lower is better; the attribute instrument.NAME says counters or
 * cachegrind); the environment (governor, load average)
 * as attributes; a failed repetition's exit status and stderr tail as an
 * attribute, and its benchmark and point as a failure (unless
 * allow_failure). Each run's status becomes complete, failed (one of its
 * repetitions failed without allow_failure) or interrupted (all of them on
 * a stop). An adaptive plan (plan->nlooks) asks opts->look at each look
 * whether to go on; the runs hold the repetitions that ran. -1 with err
 * only when perfdb itself failed. */
int pdb_runner_execute(const struct pdb_spec *spec, const struct pdb_plan *plan,
		       const struct pdb_runner_opts *opts, struct pdb_run *const *runs,
		       struct pdb_err *err);

#endif
