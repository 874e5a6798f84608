/* Hardware counters (perf_event_open): the user-space events of a process
 * tree, counted from its exec, its children's added as they end. */
#ifndef PDB_COUNTERS_H
#define PDB_COUNTERS_H

#include <stddef.h>
#include <sys/types.h>

#include "err.h"

#define PDB_COUNTERS_MAX 4

/* The events of mask (enum pdb_measure bits) open on one process. */
struct pdb_counters {
	unsigned mask;
	int fd[PDB_COUNTERS_MAX];     /* by bit position; -1: not open */
};

/* Whether this machine counts every event of mask: 0, or -1 with why
 * naming the first it does not count and the kernel's answer. */
int pdb_counters_probe(unsigned mask, char *why, size_t size);
/* Open the events of mask on process pid, which has not exec'd yet:
 * counting starts at its exec. 0, or -1 with err (nothing left open). */
int pdb_counters_open(struct pdb_counters *c, unsigned mask, pid_t pid, struct pdb_err *err);
/* Read each (scaled by the time it was counted when the kernel shared the
 * counter out) into counts by bit position, and close them. */
void pdb_counters_close(struct pdb_counters *c, double counts[PDB_COUNTERS_MAX]);

#endif
