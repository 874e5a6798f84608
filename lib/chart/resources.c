/* Chart kinds: the panels of resources sampled during a run (sample: of a
 * spec), each over time, added to a chart that grows to hold them. */
#include "chart/kinds.h"

#include <math.h>
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

static int machine_disk(const struct pdb_result *r)
{
	return pdb_sampled_kind(r) == PDB_SAMPLED_MACHINE && strncmp(r->metric, "disk_", 5) == 0;
}

static int machine_net(const struct pdb_result *r)
{
	return pdb_sampled_kind(r) == PDB_SAMPLED_MACHINE && strncmp(r->metric, "net_", 4) == 0;
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
	{ machine_disk, "Machine disk" },
	{ machine_net, "Machine network" },
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

/* Resources are never below 0: a panel of zeros (an idle network) reads 0 to 1, not -1 to 1. */
static void zero_based(struct pdb_chart_panel *p)
{
	double top = 0;

	for (size_t s = 0; s < p->nseries; s++)
		for (size_t i = 0; i < p->series[s].n; i++) {
			double y = p->series[s].hi ? p->series[s].hi[i] : p->series[s].y[i];
			if (isfinite(y) && y > top)
				top = y;
		}
	if (top == 0) {
		p->y.min = 0;
		p->y.max = 1;
	}
}

size_t pdb_chart_resource_panels(struct pdb_chart *c, struct pdb_run **runs, size_t nruns,
				 const struct pdb_plot_opts *opts)
{
	size_t before = c->npanels;

	for (size_t i = 0; i < sizeof panels / sizeof panels[0]; i++)
		pdb_chart_timed_panels(c, runs, nruns, opts, panels[i].pick, panels[i].what);
	for (size_t i = before; i < c->npanels; i++)
		zero_based(&c->panels[i]);
	if (c->npanels > before && pdb_chart_panels_room(c->height) < c->npanels)
		c->height = pdb_chart_panels_height(c->npanels); /* each panel its usual room */
	return c->npanels - before;
}
