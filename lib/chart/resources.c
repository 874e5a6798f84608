/* Chart kinds: the panels of resources sampled during a run (sample: of a
 * spec), each over time, added to a chart that grows to hold them. */
#include "chart/kinds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart/layout.h"
#include "sampled.h"
#include "dim_filter.h"
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
	int process;        /* every line names its process */
} panels[] = {
	{ process_cpu, "CPU of processes (100 % = one CPU)", 1 },
	{ process_rss, "Memory of processes (RSS)", 1 },
	{ machine_busy, "Machine CPU busy (% of all CPUs)", 0 },
	{ machine_load, "Machine load average (1 min)", 0 },
	{ machine_mem, "Machine memory used", 0 },
	{ machine_disk, "Machine disk", 0 },
	{ machine_net, "Machine network", 0 },
};

/* The result a series draws (its source is the item's key), or NULL. */
static const struct pdb_result *drawn(struct pdb_run **runs, size_t nruns, const struct pdb_chart_series *s)
{
	for (size_t k = 0; k < nruns && s->source; k++)
		for (size_t i = 0; i < runs[k]->nresults; i++) {
			struct pdb_chart_item it = { runs[k], &runs[k]->results[i], 0 };
			char *key = pdb_chart_item_key(&it);
			int same = strcmp(key, s->source) == 0;
			free(key);
			if (same)
				return it.r;
		}
	return NULL;
}

/* A legend names only what tells lines apart: a lone process would be
 * "cpu". Its process is what the reader needs: "process=NAME". */
static void name_processes(struct pdb_chart_panel *p, struct pdb_run **runs, size_t nruns)
{
	for (size_t i = 0; i < p->nseries; i++) {
		struct pdb_chart_series *s = &p->series[i];
		const struct pdb_result *r = drawn(runs, nruns, s);
		const char *name = r ? pdb_result_get_dim(r, "process") : NULL;
		char *label;
		if (!name || !s->label || strstr(s->label, "process="))
			continue;
		label = strcmp(s->label, r->metric) == 0 ? pdb_xasprintf("process=%s", name)
			: pdb_xasprintf("%s process=%s", s->label, name);
		free(s->label);
		s->label = label;
	}
}

const char *pdb_chart_resource_bench(struct pdb_run **runs, size_t nruns, const struct pdb_plot_opts *opts,
				     int *others)
{
	const char *first = NULL;

	*others = 0;
	for (size_t k = 0; k < nruns; k++)
		for (size_t i = 0; i < runs[k]->nresults; i++) {
			const struct pdb_result *r = &runs[k]->results[i];
			if (!pdb_sampled_kind(r) || !pdb_glob_match(opts->bench_glob, r->benchmark) ||
			    !pdb_dim_filter_pass(opts->dims, r->dims, r->ndims))
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

	for (size_t i = 0; i < sizeof panels / sizeof panels[0]; i++) {
		size_t had = c->npanels;
		pdb_chart_timed_panels(c, runs, nruns, opts, panels[i].pick, panels[i].what);
		for (size_t k = had; k < c->npanels && panels[i].process; k++)
			name_processes(&c->panels[k], runs, nruns);
	}
	for (size_t i = before; i < c->npanels; i++)
		zero_based(&c->panels[i]);
	if (c->npanels > before && pdb_chart_panels_room(c->height) < c->npanels)
		c->height = pdb_chart_panels_height(c->npanels); /* each panel its usual room */
	return c->npanels - before;
}
