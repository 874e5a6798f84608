/* Run plans: a spec expanded into steps (matrix points, warm-ups, repetitions). */
#ifndef PDB_PLAN_H
#define PDB_PLAN_H

#include <stdint.h>

#include "runner/spec.h"

enum pdb_step_kind { PDB_STEP_SETUP, PDB_STEP_WARMUP, PDB_STEP_MEASURE, PDB_STEP_TEARDOWN };

struct pdb_step {
	int kind;       /* enum pdb_step_kind */
	size_t bench;   /* index into spec->benches */
	size_t point;   /* the benchmark's matrix point, 0 .. pdb_plan_npoints - 1 */
	int rep;        /* repetition (0-based) for warm-ups and measurements */
	size_t variant; /* index into spec->variants, 0 without variants */
	size_t look;    /* adaptive runs: the look this step runs before (0 otherwise) */
};

struct pdb_plan {
	struct pdb_step *steps;
	size_t nsteps, cap;
	size_t nmeasure;    /* measured steps */
	int *looks;         /* adaptive runs: the pairs done at each look, ascending */
	size_t nlooks;      /* 0: not adaptive */
};

/* Expand spec into steps: every benchmark matching only (a glob, NULL: all)
 * at each of its matrix points (point 1 of every benchmark, then point 2 of
 * those that have one, ...); repeat > 0 overrides every benchmark's repeat.
 * Interleaved specs run the repetitions of the benchmarks and matrix
 * points in turn (A@1 B@1 A@2 B@2, then again), every setup first. With two variants every step runs once per
 * variant: setups and warm-ups of both first, then the repetitions in
 * ABBA order (A B, B A, A B, ...), then the teardowns; with three (a
 * bisection's) likewise, the repetitions in the order A B C, C B A, so
 * that B stays in the middle of each triple. Release with
 * pdb_plan_release. */
int pdb_plan_build(const struct pdb_spec *spec, const char *only, int repeat,
		   struct pdb_plan *plan, struct pdb_err *err);

/* repeat of pdb_plan_build_looks: every benchmark adaptive (--repeat auto). */
#define PDB_PLAN_AUTO (-1)
/* Whether benchmark b adds pairs look by look: repeat is PDB_PLAN_AUTO, or
 * 0 (the spec's) and the benchmark says repeat: auto. */
int pdb_plan_is_auto(const struct pdb_spec *spec, size_t b, int repeat);
/* An adaptive plan: the steps of look k (0-based) run an adaptive
 * benchmark's repetitions looks[k-1] .. looks[k] - 1 (from 0 at the first
 * look), a fixed one's all at the first look; each look's steps are a
 * plan of their own as above (setups, warm-ups, ABBA pairs, teardowns),
 * their repetitions numbered on from the look before, so that the ABBA
 * order goes on. The runner asks its caller at each look whether to go
 * on. nlooks 0 is pdb_plan_build (no benchmark may then be adaptive). */
int pdb_plan_build_looks(const struct pdb_spec *spec, const char *only, int repeat,
			 const int *looks, size_t nlooks, struct pdb_plan *plan,
			 struct pdb_err *err);
void pdb_plan_release(struct pdb_plan *plan);

/* A benchmark's matrix points: the product of its axes' list lengths
 * (1 without any). */
size_t pdb_plan_npoints(const struct pdb_spec *spec, size_t bench);
/* The value of axis param of benchmark bench at point. */
const char *pdb_plan_value(const struct pdb_spec *spec, size_t bench, size_t point, size_t param);
/* "vcpus=2,batch=50000" for point of bench ("" without a matrix). Caller frees. */
char *pdb_plan_point_text(const struct pdb_spec *spec, size_t bench, size_t point);
/* No matrix point: a build runs before any (pdb_placeholder_expand). */
#define PDB_PLAN_NO_POINT SIZE_MAX
/* The vcpus value of bench at point, or 0 when it has no vcpus axis. */
int pdb_plan_vcpus(const struct pdb_spec *spec, size_t bench, size_t point);

#endif
