/* Two benchmarks side by side: compare --bench A --against B. */
#ifndef PDB_COMPARE_AGAINST_H
#define PDB_COMPARE_AGAINST_H

#include "err.h"
#include "model.h"

/* The benchmark of run that bench names (its exact name, else a glob
 * that matches one benchmark of the run), as a run of its own whose
 * series and failures are named as (so that B's series meet A's, metric
 * by metric and dims by dims); the run's identity and attributes kept.
 * *out (caller frees), or -1 with err (PDB_EXIT_INPUT): no benchmark, or
 * a glob that matches several. */
int pdb_compare_bench_side(const struct pdb_run *run, const char *bench, const char *as,
			   struct pdb_run **out, struct pdb_err *err);

#endif
