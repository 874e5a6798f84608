/* Wall time checked against CPU time: the load of a shared machine moves
 * the one, not the other. */
#ifndef PDB_COMPARE_CPU_H
#define PDB_COMPARE_CPU_H

#include <stddef.h>

#include "compare_row.h"

/* The smallest share of a benchmark's wall time its CPU time must take for
 * the CPU time to speak for it (below, on both sides: it sleeps or waits
 * for I/O, and its wall time decides). Small, because a loaded machine
 * makes a computing benchmark wait for a CPU: at load 16 on 2 cores,
 * sort's CPU time was 10 % of its wall time. */
#define PDB_CPU_BOUND_SHARE 0.05

/* Whether a CPU time speaks for its wall time: both positive and the CPU
 * time at least PDB_CPU_BOUND_SHARE of it (the benchmark computes). */
int pdb_cpu_speaks_for(double cpu, double wall);

/* For each wall-clock row of runs that did not run side by side (paired
 * 0) whose benchmark computes (its cpu_time is at least PDB_CPU_BOUND_SHARE
 * of its wall time on one side at least): a regression or an improvement
 * stands only when its CPU time has the same verdict; else the row becomes
 * inconclusive, decided by the CPU time, and says why. A wall-clock row
 * that is not a regression beside a CPU time that is says so too. Rows
 * keep their order; verdicts must be set. A pure function of the rows. */
void pdb_compare_check_wall(struct pdb_compare_row *rows, size_t n, int paired);

#endif
