/* Stages: what a benchmark's setup left running (a pipeline's consumers,
 * a server), kept through the benchmark's repetitions at its matrix point
 * and stopped, by process group, after the last step there (its teardown). */
#ifndef PDB_STAGES_H
#define PDB_STAGES_H

#include "runner/exec.h"
#include "runner/plan.h"

struct pdb_stages {
	struct pdb_stage {
		struct pdb_exec_group group;
		size_t last; /* the plan's step after which it stops */
	} *live;
	size_t n, cap;
};

/* Setup step i of plan left g running (g->pgid > 0): keep it until the
 * last step of its benchmark, point and variant before their next setup. */
void pdb_stages_keep(struct pdb_stages *st, const struct pdb_plan *plan, size_t i,
		     const struct pdb_exec_group *g);

/* Step i is over: stop the stages it was the last step of. */
void pdb_stages_after(struct pdb_stages *st, size_t i);

/* Stop every stage (the run is over, stopped or failed) and free st's memory. */
void pdb_stages_stop_all(struct pdb_stages *st);

#endif
