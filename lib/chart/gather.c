/* Chart kinds: loading runs and the values the kinds share. */
#include "chart/kinds.h"

#include <math.h>
#include <stdlib.h>

#include "util.h"

int pdb_chart_load_runs(struct pdb_store *store, const char *const *sel, size_t n,
			struct pdb_run ***out, struct pdb_err *err)
{
	struct pdb_run **runs = pdb_xcalloc(n ? n : 1, sizeof *runs);

	for (size_t i = 0; i < n; i++) {
		int64_t id;
		if (pdb_store_resolve(store, sel[i], &id, err) < 0 ||
		    !(runs[i] = pdb_store_load_run(store, id, err))) {
			pdb_chart_runs_free(runs, i);
			*out = NULL;
			return -1;
		}
	}
	*out = runs;
	return 0;
}

void pdb_chart_runs_free(struct pdb_run **runs, size_t n)
{
	for (size_t i = 0; runs && i < n; i++)
		pdb_run_free(runs[i]);
	free(runs);
}

char *pdb_chart_run_label(const struct pdb_run *run)
{
	return run->name ? pdb_xstrdup(run->name) : pdb_xasprintf("run%lld", (long long)run->id);
}

