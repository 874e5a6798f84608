/* Chart kinds: one colour per pipeline stage (else benchmark) across a chart's panels. */
#include "chart/kinds.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The name a result's colour is keyed by: its stage, else its process;
 * by_bench (no series of the runs has either): its benchmark. */
static const char *name_of(const struct pdb_result *r, int by_bench)
{
	const char *s = pdb_result_get_dim(r, "stage");

	if (by_bench)
		return r->benchmark;
	return s ? s : pdb_result_get_dim(r, "process");
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct names of the runs' series (name_of), sorted; how many. */
static size_t names_of(struct pdb_run *const *runs, size_t nruns, int by_bench, const char ***out)
{
	const char **names = NULL;
	size_t nn = 0, cap = 0;

	for (size_t k = 0; k < nruns; k++)
		for (size_t i = 0; i < runs[k]->nresults; i++) {
			const char *s = name_of(&runs[k]->results[i], by_bench);
			size_t j = 0;
			while (s && j < nn && strcmp(names[j], s) != 0)
				j++;
			if (s && j == nn) {
				pdb_grow((void **)&names, &cap, nn + 1, sizeof *names);
				names[nn++] = s;
			}
		}
	if (nn)
		qsort(names, nn, sizeof *names, by_name);
	*out = names;
	return nn;
}

void pdb_chart_stage_colors(struct pdb_run *const *runs, size_t nruns, const struct pdb_chart_item *it,
			    size_t n, int *colors)
{
	const char **names;
	size_t nn = names_of(runs, nruns, 0, &names);
	int distinct = 1, by_bench = nn == 0;

	if (by_bench) { /* no stage: a benchmark (a Knox timer) has one colour in every panel */
		free(names);
		nn = names_of(runs, nruns, 1, &names);
	}
	for (size_t i = 0; i < n; i++) {
		const char *s = name_of(it[i].r, by_bench),
			   **at = s && nn ? bsearch(&s, names, nn, sizeof *names, by_name) : NULL;
		colors[i] = at ? (int)(!by_bench + (size_t)(at - names)) % PDB_COLOR_FOREGROUND : 0;
		for (size_t j = 0; j < i; j++)
			distinct &= colors[j] != colors[i];
	}
	for (size_t i = 0; !distinct && i < n; i++)
		colors[i] = (int)i % PDB_COLOR_FOREGROUND;
	free(names);
}
