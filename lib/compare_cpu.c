/* Wall time checked against CPU time (compare_cpu.h). */
#include "compare_cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metric_role.h"
#include "model.h"
#include "stats.h"
#include "compare_verdict.h"
#include "units.h"
#include "util.h"

static int cmp_row_ptr(const void *pa, const void *pb)
{
	const struct pdb_compare_row *a = *(const struct pdb_compare_row *const *)pa;
	const struct pdb_compare_row *b = *(const struct pdb_compare_row *const *)pb;
	int d = strcmp(a->benchmark, b->benchmark);

	return d ? d : strcmp(a->dims_json, b->dims_json);
}

/* The row of metric cpu among the CPU rows (sorted), for w's benchmark and dims. */
static struct pdb_compare_row *find_cpu(struct pdb_compare_row **cpu, size_t ncpu,
					const struct pdb_compare_row *w)
{
	struct pdb_compare_row *const *hit = bsearch(&w, cpu, ncpu, sizeof *cpu, cmp_row_ptr);

	return hit ? *hit : NULL;
}

/* The change of a row in %: its estimate, else its medians'. */
static double log_pct(const struct pdb_compare_row *r)
{
	if (!isnan(r->change_pct))
		return r->change_pct;
	return pdb_compare_median_change_pct(r);
}

static void set_reason(struct pdb_compare_row *w, char *reason)
{
	free(w->reason);
	w->reason = reason;
}

int pdb_cpu_speaks_for(double cpu, double wall)
{
	return cpu > 0 && wall > 0 && cpu >= PDB_CPU_BOUND_SHARE * wall;
}

static void check_one(struct pdb_compare_row *w, const struct pdb_compare_row *c)
{
	if (!(c->median_base > 0) || !(w->median_base > 0) || !(c->median_cand > 0) ||
	    !(w->median_cand > 0) || (!pdb_cpu_speaks_for(c->median_base, w->median_base) &&
				      !pdb_cpu_speaks_for(c->median_cand, w->median_cand)))
		return; /* it waits more than it computes: the wall time decides */
	if ((w->verdict == PDB_VERDICT_REGRESSION || w->verdict == PDB_VERDICT_IMPROVEMENT) &&
	    c->verdict != w->verdict) {
		w->verdict = PDB_VERDICT_INCONCLUSIVE;
		w->decided_by = c->metric;
		char cp[48], wp[48];
		pdb_pct_change(log_pct(c), cp, sizeof cp);
		pdb_pct_change(log_pct(w), wp, sizeof wp);
		set_reason(w, pdb_xasprintf("its CPU time is %s (%s): a wall time that moved %s "
					    "without it is the machine's load",
					    pdb_verdict_name(c->verdict), cp, wp));
	} else if (c->verdict == PDB_VERDICT_REGRESSION && c->gated &&
		   w->verdict != PDB_VERDICT_REGRESSION) {
		w->decided_by = c->metric;
		char cp[48];
		pdb_pct_change(log_pct(c), cp, sizeof cp);
		set_reason(w, pdb_xasprintf("its CPU time is a regression (%s), which fails the gate", cp));
	}
}

void pdb_compare_check_wall(struct pdb_compare_row *rows, size_t n, int paired)
{
	struct pdb_compare_row **cpu;
	size_t ncpu = 0;

	if (paired)
		return; /* side by side, the load moved both sides alike */
	cpu = pdb_xmalloc((n ? n : 1) * sizeof *cpu);
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].metric, PDB_METRIC_CPU) == 0)
			cpu[ncpu++] = &rows[i];
	if (ncpu)
		qsort(cpu, ncpu, sizeof *cpu, cmp_row_ptr);
	for (size_t i = 0; i < n && ncpu; i++) {
		struct pdb_compare_row *w = &rows[i], *c;
		const char *cpu_metric = pdb_metric_cpu_of(w->metric);
		if (!cpu_metric || w->direction == PDB_DIR_NONE || (c = find_cpu(cpu, ncpu, w)) == NULL)
			continue;
		check_one(w, c);
	}
	free(cpu);
}
