/* Formats: one perf stat counter as series (shared by the CSV, JSON and text readers). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/attrs_util.h"
#include "formats/perf_count.h"
#include "util.h"

#define BENCH "perf-stat"

int pdb_perf_is_missing(const char *s)
{
	return strcmp(s, "<not supported>") == 0 || strcmp(s, "<not counted>") == 0;
}

/* "instructions" or "instructions,cpu=0" as the key of a run attribute. */
static void event_attr(struct pdb_run *run, const char *key, const struct pdb_perf_count *c,
		       const char *value)
{
	char *which = c->cpu ? pdb_xasprintf("%s,cpu=%s", c->event, c->cpu) : pdb_xstrdup(c->event);

	pdb_attr_set_bench(run, key, which, value);
	free(which);
}

void pdb_perf_count_add(struct pdb_run *run, const struct pdb_perf_count *c)
{
	struct pdb_attr dim = { .key = "cpu", .value = (char *)c->cpu };
	struct pdb_result *r;
	struct pdb_sample s;

	if (c->missing) {
		event_attr(run, "perf.counted", c, c->missing);
		return;
	}
	r = pdb_run_result_with_dims(run, BENCH, &dim, c->cpu ? 1 : 0, c->event,
				     *c->unit ? c->unit : "count");
	s = PDB_SAMPLE(pdb_result_canonical(r, c->value));
	s.t = c->t;
	pdb_result_add_sample(r, &s);
	if (!isnan(c->t))
		return; /* per interval: the run time and share would differ per sample */
	if (!isnan(c->noise))
		pdb_result_set_stat(r, "variance", c->noise);
	if (!isnan(c->runtime_ns))
		pdb_result_set_stat(r, "runtime", c->runtime_ns / 1e9);
	if (!isnan(c->pct))
		pdb_result_set_stat(r, "measured_pct", c->pct);
	if (c->metric)
		event_attr(run, "perf.metric", c, c->metric);
}

int pdb_perf_comment(struct pdb_run *run, const char *line)
{
	const char *p = line + 1;

	if (line[0] != '#')
		return 0;
	while (*p == ' ')
		p++;
	if (strncmp(p, "started on ", 11) == 0)
		pdb_run_set_attr(run, "started_on", p + 11);
	return 1;
}

void pdb_perf_set_tool(struct pdb_run *run)
{
	pdb_set_str(&run->tool, "perf");
}
