/* Chart kinds: the panels of resources sampled during a run (sample: of a
 * spec), each over time, added to a chart that grows to hold them. */
#include "chart/kinds.h"

#include <string.h>

#include "chart/layout.h"
#include "runner/sampler.h"
#include "util.h"

static int is_metric(const struct pdb_result *r, int kind, const char *metric)
{
	return pdb_sampled_kind(r) == kind && strcmp(r->metric, metric) == 0;
}

static int process_cpu(const struct pdb_result *r) { return is_metric(r, PDB_SAMPLED_PROCESS, "cpu"); }
static int process_rss(const struct pdb_result *r) { return is_metric(r, PDB_SAMPLED_PROCESS, "rss"); }
static int machine_busy(const struct pdb_result *r) { return is_metric(r, PDB_SAMPLED_MACHINE, "cpu_busy"); }
static int machine_load(const struct pdb_result *r) { return is_metric(r, PDB_SAMPLED_MACHINE, "load1"); }
static int machine_mem(const struct pdb_result *r) { return is_metric(r, PDB_SAMPLED_MACHINE, "mem_used"); }

static int machine_io(const struct pdb_result *r)
{
	return pdb_sampled_kind(r) == PDB_SAMPLED_MACHINE && strcmp(r->unit, "B/s") == 0;
}

static const struct {
	int (*pick)(const struct pdb_result *);
	const char *what;
} panels[] = {
	{ process_cpu, "CPU of processes (100 % = one CPU)" },
	{ process_rss, "Memory of processes (RSS)" },
	{ machine_busy, "Machine CPU busy (% of all CPUs)" },
	{ machine_load, "Machine load average (1 min)" },
	{ machine_mem, "Machine memory used" },
	{ machine_io, "Machine disk and network" },
};

const char *pdb_chart_resource_bench(struct pdb_run **runs, size_t nruns, const struct pdb_plot_opts *opts,
				     int *others)
{
	const char *first = NULL;

	*others = 0;
	for (size_t k = 0; k < nruns; k++)
		for (size_t i = 0; i < runs[k]->nresults; i++) {
			const struct pdb_result *r = &runs[k]->results[i];
			if (!pdb_sampled_kind(r) || !pdb_glob_match(opts->bench_glob, r->benchmark))
				continue;
			if (!first)
				first = r->benchmark;
			*others |= strcmp(first, r->benchmark) != 0;
		}
	return first;
}

size_t pdb_chart_resource_panels(struct pdb_chart *c, struct pdb_run **runs, size_t nruns,
				 const struct pdb_plot_opts *opts)
{
	size_t before = c->npanels;

	for (size_t i = 0; i < sizeof panels / sizeof panels[0]; i++)
		pdb_chart_timed_panels(c, runs, nruns, opts, panels[i].pick, panels[i].what);
	if (c->npanels > before && pdb_chart_panels_room(c->height) < c->npanels)
		c->height = pdb_chart_panels_height(c->npanels); /* each panel its usual room */
	return c->npanels - before;
}
