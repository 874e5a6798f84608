/* Sampler: a thread reading /proc every `every` seconds while a measured
 * step runs (sample: of a spec), and its readings as series of a run. */
#ifndef PDB_SAMPLER_H
#define PDB_SAMPLER_H

#include <stddef.h>

#include "err.h"
#include "model.h"
#include "runner/sample_spec.h"
#include "sampled.h"

/* What a sampler read: one row per period of `every` seconds, from the
 * first reading to the last before the stop (a period cut short by the
 * stop is left out: a process that exited in it would read 0 %). */
struct pdb_sample_readings {
	const struct pdb_sample_spec *spec;
	size_t nrows, width;   /* width: 4 per process, then PDB_SAMPLE_MACHINE */
	double *t;             /* each row's period starts t seconds after the first reading */
	double *v;             /* nrows * width values; NaN: not readable */
	size_t *matched;       /* per process: rows in which its pattern matched a process */
	int truncated;         /* the memory bound was reached: later periods are missing */
};

/* Columns of a row: per process p at 4 * p: CPU % user, system (100 % is
 * one CPU), RSS (B), processes matched; the machine's after them
 * (PDB_SAMPLE_LOAD1 ..., lib/sampled.h). */
enum { PDB_SAMPLE_USER, PDB_SAMPLE_SYSTEM, PDB_SAMPLE_RSS, PDB_SAMPLE_COUNT, PDB_SAMPLE_PER_PROCESS };

struct pdb_sampler;

/* Take the first reading and start the thread. NULL with err (a thread
 * that cannot start). */
struct pdb_sampler *pdb_sampler_start(const struct pdb_sample_spec *spec, struct pdb_err *err);
/* Stop the thread (at once) and give what it read; the readings stay the
 * sampler's until pdb_sampler_free (NULL-safe). */
const struct pdb_sample_readings *pdb_sampler_stop(struct pdb_sampler *s);
void pdb_sampler_free(struct pdb_sampler *s);

/* The readings as series of bench with dims (and a process dim for a
 * process's): cpu, cpu_user, cpu_system (%), rss (B); load1, cpu_busy (%),
 * mem_used (B), disk_read, disk_write, net_rx, net_tx (B/s), each sample
 * at its period's offset, in the spec's direction. What the caller should
 * be told (a pattern that matched nothing, no whole period, the bound)
 * goes into warning ("" when nothing). */
void pdb_sample_readings_to_run(const struct pdb_sample_readings *rd, struct pdb_run *run, const char *bench,
				const struct pdb_attr *dims, size_t ndims, char *warning, size_t wsize);

#endif
