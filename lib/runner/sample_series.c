/* Sampled series: a sampler's readings as series of a run, and which
 * series of a run are sampled ones (the names are decided here alone). */
#include "runner/sampler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "util.h"

/* The per-process series: column (of PDB_SAMPLE_PER_PROCESS), unit, and
 * whether charts draw it (cpu is user + system). */
static const struct {
	const char *metric, *unit;
	int column, kind;
} process_series[] = {
	{ "cpu", "%", -1, PDB_SAMPLED_PROCESS },
	{ "cpu_user", "%", PDB_SAMPLE_USER, PDB_SAMPLED_DETAIL },
	{ "cpu_system", "%", PDB_SAMPLE_SYSTEM, PDB_SAMPLED_DETAIL },
	{ "rss", "B", PDB_SAMPLE_RSS, PDB_SAMPLED_PROCESS },
};
#define NPROCESS_SERIES (sizeof process_series / sizeof process_series[0])

static const struct {
	const char *metric, *unit;
} machine_series[PDB_SAMPLE_MACHINE] = {
	[PDB_SAMPLE_LOAD1] = { "load1", "count" },
	[PDB_SAMPLE_BUSY] = { "cpu_busy", "%" },
	[PDB_SAMPLE_MEM] = { "mem_used", "B" },
	[PDB_SAMPLE_DISK_READ] = { "disk_read", "B/s" },
	[PDB_SAMPLE_DISK_WRITE] = { "disk_write", "B/s" },
	[PDB_SAMPLE_NET_RX] = { "net_rx", "B/s" },
	[PDB_SAMPLE_NET_TX] = { "net_tx", "B/s" },
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
		for (size_t k = 0; k < NPROCESS_SERIES; k++) {
			struct pdb_result *r = pdb_run_series(run, bench, d, ndims + 1, process_series[k].metric,
							      process_series[k].unit, spec->direction);
			for (size_t i = 0; i < rd->nrows; i++) {
				const double *v = &rd->v[i * rd->width + PDB_SAMPLE_PER_PROCESS * p];
				int c = process_series[k].column;
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
				r = pdb_run_series(run, bench, dims, ndims, machine_series[m].metric, machine_series[m].unit,
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

int pdb_sampled_kind(const struct pdb_result *r)
{
	int process = pdb_result_get_dim(r, "process") != NULL;

	for (size_t k = 0; k < NPROCESS_SERIES; k++)
		if (strcmp(r->metric, process_series[k].metric) == 0 && strcmp(r->unit, process_series[k].unit) == 0)
			return process ? process_series[k].kind : 0;
	for (size_t m = 0; m < PDB_SAMPLE_MACHINE; m++)
		if (strcmp(r->metric, machine_series[m].metric) == 0 && strcmp(r->unit, machine_series[m].unit) == 0)
			return process ? 0 : PDB_SAMPLED_MACHINE;
	return 0;
}

const struct pdb_result *pdb_sampled_busiest(const struct pdb_run *run)
{
	const struct pdb_result *best = NULL;
	double top = -INFINITY;

	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		struct pdb_summary s;
		if (pdb_sampled_kind(r) != PDB_SAMPLED_PROCESS || strcmp(r->metric, "cpu") != 0)
			continue;
		pdb_result_summary(r, &s);
		if (isfinite(s.mean) && s.mean > top) {
			top = s.mean;
			best = r;
		}
	}
	return best;
}
