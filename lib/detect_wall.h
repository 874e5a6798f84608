/* A wall-time change point checked against the CPU time of the same
 * benchmark: the load of a shared machine moves the one, not the other
 * (detect's counterpart of compare_cpu.h). */
#ifndef PDB_DETECT_WALL_H
#define PDB_DETECT_WALL_H

#include <stddef.h>
#include <stdint.h>

#include "detect.h"

/* One series detect looked at: its names, its points (run ids and values,
 * in run order) and what detect found in it. The wall and CPU times of a
 * benchmark are matched run by run through the run ids. */
struct pdb_detect_view {
	const char *benchmark, *dims, *metric;
	const int64_t *run_ids;
	const double *values;
	size_t n;
	struct pdb_detect_result *res;
};

/* How far apart, in runs, the wall-time and the CPU-time change points of
 * one change may lie (each is placed within a run or two of the step). */
#define PDB_DETECT_WALL_SLACK 2

/* For each wall-clock series of v[0..n) (pdb_metric_cpu_of) whose
 * benchmark and dims have a CPU-time series among v and compute (CPU
 * time at least PDB_CPU_BOUND_SHARE of wall time, medians): a confirmed
 * change point stands only when the CPU time has a change point the same
 * way within PDB_DETECT_WALL_SLACK runs of it; else it is no longer
 * confirmed, and cpu_steady says why (a change point none of whose runs
 * near it has a CPU time stands). A pure function of the views. */
void pdb_detect_check_wall(struct pdb_detect_view *v, size_t n);

#endif
