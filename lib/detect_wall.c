/* A wall-time change point checked against CPU time (detect_wall.h). */
#include "detect_wall.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare_cpu.h"
#include "metric_role.h"
#include "stats.h"
#include "util.h"

/* The CPU-time view of the same benchmark and dims as w, or NULL. */
static const struct pdb_detect_view *cpu_view(const struct pdb_detect_view *v, size_t n,
					      const struct pdb_detect_view *w)
{
	const char *cpu = pdb_metric_cpu_of(w->metric);

	for (size_t i = 0; cpu && i < n; i++)
		if (strcmp(v[i].metric, cpu) == 0 && strcmp(v[i].benchmark, w->benchmark) == 0 &&
		    strcmp(v[i].dims, w->dims) == 0)
			return &v[i];
	return NULL;
}

static double median_of(const double *x, size_t n)
{
	double *c = pdb_xmalloc((n ? n : 1) * sizeof *c), m;

	memcpy(c, x, n * sizeof *c);
	m = pdb_stats_median(c, n);
	free(c);
	return m;
}

/* Whether the benchmark computes: its CPU time is a share of its wall time
 * that the CPU time can speak for. */
static int computes(const struct pdb_detect_view *wall, const struct pdb_detect_view *cpu)
{
	return pdb_cpu_speaks_for(median_of(cpu->values, cpu->n), median_of(wall->values, wall->n));
}

/* The position in cpu of run i of wall, or of the nearest run within the
 * slack that cpu has (a run may lack its CPU time); cpu->n when none. */
static size_t position_of(const struct pdb_detect_view *cpu, const struct pdb_detect_view *wall,
			  size_t i)
{
	for (size_t d = 0; d <= PDB_DETECT_WALL_SLACK; d++)
		for (int side = 0; side < 2; side++) {
			size_t w = side ? i + d : i - d;

			if ((side && w >= wall->n) || (!side && d > i))
				continue;
			for (size_t k = 0; k < cpu->n; k++)
				if (cpu->run_ids[k] == wall->run_ids[w])
					return k;
		}
	return cpu->n;
}

/* Whether cpu has a change point the same way as cp within the slack. */
static int cpu_agrees(const struct pdb_detect_view *cpu, size_t at,
		      const struct pdb_change_point *cp)
{
	int up = cp->mean_after > cp->mean_before;

	for (size_t k = 0; k < cpu->res->ncps; k++) {
		const struct pdb_change_point *c = &cpu->res->cps[k];
		size_t d = c->index > at ? c->index - at : at - c->index;

		if (d <= PDB_DETECT_WALL_SLACK && (c->mean_after > c->mean_before) == up)
			return 1;
	}
	return 0;
}

void pdb_detect_check_wall(struct pdb_detect_view *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct pdb_detect_view *cpu = cpu_view(v, n, &v[i]);

		if (!cpu || !computes(&v[i], cpu))
			continue;
		for (size_t k = 0; k < v[i].res->ncps; k++) {
			struct pdb_change_point *cp = &v[i].res->cps[k];
			size_t at = position_of(cpu, &v[i], cp->index);

			if (!cp->confirmed || at == cpu->n || cpu_agrees(cpu, at, cp))
				continue;
			cp->confirmed = 0;
			cp->cpu_steady = 1;
		}
	}
}
