/* Sampled series: the names of the series a sampler (sample: of a run
 * spec, lib/runner/sampler.h) gives a run, and which series of a run are
 * sampled ones. The names are decided here alone: the runner writes them,
 * the charts, the report and show read them. */
#ifndef PDB_SAMPLED_H
#define PDB_SAMPLED_H

#include "model.h"

/* What a sampled series is: a process's drawn ones (cpu, rss), its
 * details (cpu_user, cpu_system), the machine's. */
enum { PDB_SAMPLED_PROCESS = 1, PDB_SAMPLED_DETAIL, PDB_SAMPLED_MACHINE };
struct pdb_sampled_name {
	const char *metric, *unit;
	int kind;   /* PDB_SAMPLED_* */
};
/* A process's series (with a process dim), in the order a run gets them. */
enum { PDB_SAMPLED_CPU, PDB_SAMPLED_CPU_USER, PDB_SAMPLED_CPU_SYSTEM, PDB_SAMPLED_RSS,
       PDB_SAMPLED_NPROCESS };
extern const struct pdb_sampled_name pdb_sampled_process[PDB_SAMPLED_NPROCESS];
/* The machine's series (no process dim), in the order of the sampler's
 * columns. */
enum { PDB_SAMPLE_LOAD1, PDB_SAMPLE_BUSY, PDB_SAMPLE_MEM, PDB_SAMPLE_DISK_READ, PDB_SAMPLE_DISK_WRITE,
       PDB_SAMPLE_NET_RX, PDB_SAMPLE_NET_TX, PDB_SAMPLE_MACHINE };
extern const struct pdb_sampled_name pdb_sampled_machine[PDB_SAMPLE_MACHINE];

/* Which sampled series r is: PDB_SAMPLED_PROCESS (cpu, rss of a process:
 * the ones drawn), PDB_SAMPLED_DETAIL (cpu_user, cpu_system), PDB_SAMPLED_MACHINE,
 * or 0 (none: not a sampler's name, or no process dim where one belongs). */
int pdb_sampled_kind(const struct pdb_result *r);

/* The busiest process of run: the cpu series of a process with the
 * highest mean; NULL when the run has none. */
const struct pdb_result *pdb_sampled_busiest(const struct pdb_run *run);

#endif
