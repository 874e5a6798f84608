/* Sampled series: a sampler's readings as series of a run (named by
 * lib/sampled.c). */
#include "runner/sampler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "util.h"

/* The sampler's column of each per-process series (lib/sampled.h names
 * them): cpu is user + system. */
static const int process_column[PDB_SAMPLED_NPROCESS] = {
	[PDB_SAMPLED_CPU] = -1,
	[PDB_SAMPLED_CPU_USER] = PDB_SAMPLE_USER,
	[PDB_SAMPLED_CPU_SYSTEM] = PDB_SAMPLE_SYSTEM,
	[PDB_SAMPLED_RSS] = PDB_SAMPLE_RSS,
};

/* Append s to buf (of size), "; " after what it holds. */
static void say(char *buf, size_t size, const char *s)
{
	size_t len = strlen(buf);

	snprintf(buf + len, size - len, "%s%s", len ? "; " : "", s);
}

void pdb_sample_readings_to_run(const struct pdb_sample_readings *rd, struct pdb_run *run, const char *bench,
				const struct pdb_attr *dims, size_t ndims, char *warning, size_t wsize)
{
	const struct pdb_sample_spec *spec = rd->spec;
	struct pdb_attr *d = pdb_xcalloc(ndims + 1, sizeof *d);
	char msg[512];

	warning[0] = '\0';
	if (ndims)
		memcpy(d, dims, ndims * sizeof *d);
	if (rd->nrows == 0) {
		snprintf(msg, sizeof msg, "sample: the step ended before a whole period of %g s: nothing sampled",
			 spec->every);
		say(warning, wsize, msg);
	}
	for (size_t p = 0; p < spec->nprocesses && rd->nrows; p++) {
		if (!rd->matched[p]) {
			snprintf(msg, sizeof msg, "sample: process %s: '%.200s' matched no command line", spec->processes[p].name,
				 spec->processes[p].pattern);
			say(warning, wsize, msg);
			continue;
		}
		d[ndims] = (struct pdb_attr){ .key = "process", .value = spec->processes[p].name };
		for (size_t k = 0; k < PDB_SAMPLED_NPROCESS; k++) {
			struct pdb_result *r = pdb_run_series(run, bench, d, ndims + 1, pdb_sampled_process[k].metric,
							      pdb_sampled_process[k].unit, spec->direction);
			for (size_t i = 0; i < rd->nrows; i++) {
				const double *v = &rd->v[i * rd->width + PDB_SAMPLE_PER_PROCESS * p];
				int c = process_column[k];
				pdb_result_add_at(r, rd->t[i], c < 0 ? v[PDB_SAMPLE_USER] + v[PDB_SAMPLE_SYSTEM] : v[c]);
			}
		}
	}
	for (size_t m = 0; spec->machine && m < PDB_SAMPLE_MACHINE; m++) {
		struct pdb_result *r = NULL;
		for (size_t i = 0; i < rd->nrows; i++) {
			double v = rd->v[i * rd->width + PDB_SAMPLE_PER_PROCESS * spec->nprocesses + m];
			if (isnan(v))
				continue; /* this machine does not say (no /proc/diskstats) */
			if (!r)
				r = pdb_run_series(run, bench, dims, ndims, pdb_sampled_machine[m].metric,
						   pdb_sampled_machine[m].unit,
						   spec->direction);
			pdb_result_add_at(r, rd->t[i], v);
		}
	}
	if (rd->truncated) {
		snprintf(msg, sizeof msg, "sample: %zu periods kept, the bound of a step; the rest is not sampled",
			 rd->nrows);
		say(warning, wsize, msg);
	}
	free(d);
}
