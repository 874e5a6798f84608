/* Sample specs: the `sample:` section of a run spec or a benchmark (which
 * processes, and whether the machine, to sample during a measured step). */
#ifndef PDB_SAMPLE_SPEC_H
#define PDB_SAMPLE_SPEC_H

#include <stddef.h>

#include "runner/spec_keys.h"

#define PDB_SAMPLE_MAX_PROCESSES 32

/* A process to sample: every process whose command line (its arguments
 * joined by spaces) the pattern matches, summed. */
struct pdb_sample_process {
	char *name;     /* the value of the series' process dim */
	char *pattern;  /* POSIX extended regex */
};

struct pdb_sample_spec {
	double every;                        /* seconds between readings */
	struct pdb_sample_process *processes;
	size_t nprocesses;
	int machine;                         /* the machine as a whole too (default true) */
	int direction;                       /* of every sampled series: enum pdb_direction (default none) */
};

/* Read the `sample:` mapping v (errors FILE:LINE:COL with r's document).
 * NULL with r->err. Free with pdb_sample_spec_free (NULL-safe). */
struct pdb_sample_spec *pdb_sample_spec_read(struct pdb_spec_reader *r, const json_t *v);
void pdb_sample_spec_free(struct pdb_sample_spec *s);

/* The keys of sample:, for the docs test. */
extern const struct pdb_spec_section pdb_sample_section;

#endif
