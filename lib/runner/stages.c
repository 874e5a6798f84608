/* Stages: what a setup left running, stopped after its benchmark's point. */
#include "runner/stages.h"

#include <stdlib.h>

#include "util.h"

static int same_point(const struct pdb_step *a, const struct pdb_step *b)
{
	return a->bench == b->bench && a->point == b->point && a->variant == b->variant;
}

void pdb_stages_keep(struct pdb_stages *st, const struct pdb_plan *plan, size_t i,
		     const struct pdb_exec_group *g)
{
	size_t last = i;

	for (size_t j = i + 1; j < plan->nsteps; j++) {
		if (!same_point(&plan->steps[i], &plan->steps[j]))
			continue;
		if (plan->steps[j].kind == PDB_STEP_SETUP)
			break; /* the next look's setup starts its own */
		last = j;
	}
	pdb_grow((void **)&st->live, &st->cap, st->n + 1, sizeof *st->live);
	st->live[st->n++] = (struct pdb_stage){ .group = *g, .last = last };
}

void pdb_stages_after(struct pdb_stages *st, size_t i)
{
	size_t kept = 0;

	for (size_t k = 0; k < st->n; k++) {
		if (st->live[k].last == i)
			pdb_exec_group_stop(&st->live[k].group);
		else
			st->live[kept++] = st->live[k];
	}
	st->n = kept;
}

void pdb_stages_stop_all(struct pdb_stages *st)
{
	for (size_t k = 0; k < st->n; k++)
		pdb_exec_group_stop(&st->live[k].group);
	free(st->live);
	*st = (struct pdb_stages){ 0 };
}
