/* Run plans: a spec expanded into steps (matrix points, warm-ups, repetitions). */
#ifndef PDB_PLAN_H
#define PDB_PLAN_H

#include <stdint.h>

#include "runner/spec.h"

enum pdb_step_kind { PDB_STEP_SETUP, PDB_STEP_WARMUP, PDB_STEP_MEASURE, PDB_STEP_TEARDOWN };

struct pdb_step {
	int kind;       /* enum pdb_step_kind */
	size_t bench;   /* index into spec->benches */
	size_t point;   /* matrix point, 0 .. npoints-1 */
	int rep;        /* repetition (0-based) for warm-ups and measurements */
	size_t variant; /* index into spec->variants, 0 without variants */
};

struct pdb_plan {
	struct pdb_step *steps;
	size_t nsteps, cap;
	size_t npoints;     /* product of the matrix list lengths (1 without a matrix) */
	size_t nmeasure;    /* measured steps */
};

/* Expand spec into steps: every benchmark matching only (a glob, NULL: all)
 * at every matrix point; repeat > 0 overrides every benchmark's repeat.
 * Interleaved specs run the repetitions of the benchmarks in turn (A B A B)
 * within a matrix point. With two variants every step runs once per
 * variant: setups and warm-ups of both first, then the repetitions in
 * ABBA order (A B, B A, A B, ...), then the teardowns. Release with
 * pdb_plan_release. */
int pdb_plan_build(const struct pdb_spec *spec, const char *only, int repeat,
		   struct pdb_plan *plan, struct pdb_err *err);
void pdb_plan_release(struct pdb_plan *plan);

/* The value of matrix parameter param at point. */
const char *pdb_plan_value(const struct pdb_spec *spec, size_t point, size_t param);
/* "vcpus=2,batch=50000" for point ("" without a matrix). Caller frees. */
char *pdb_plan_point_text(const struct pdb_spec *spec, size_t point);
/* text with every {name} of a matrix parameter replaced by its value at
 * point, and every {KEY} of the variant by its value; other braces are
 * left alone. With point PDB_PLAN_NO_POINT, the variant's keys only (a
 * build runs before any matrix point). Caller frees. */
#define PDB_PLAN_NO_POINT SIZE_MAX
char *pdb_plan_expand(const struct pdb_spec *spec, size_t point, size_t variant, const char *text);
/* The vcpus value at point, or 0 when the matrix has no vcpus. */
int pdb_plan_vcpus(const struct pdb_spec *spec, size_t point);

#endif
