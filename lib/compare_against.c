/* Two benchmarks side by side: each side a run of one benchmark, renamed. */
#include "compare_against.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The benchmark of run bench names, or NULL with err. */
static const char *which(const struct pdb_run *run, const char *bench, struct pdb_err *err)
{
	const char *found = NULL;

	for (size_t i = 0; i < run->nresults; i++)
		if (strcmp(run->results[i].benchmark, bench) == 0)
			return bench;
	for (size_t i = 0; i < run->nresults; i++) {
		const char *b = run->results[i].benchmark;
		if (!pdb_glob_match(bench, b) || (found && strcmp(found, b) == 0))
			continue;
		if (found) {
			pdb_err_set(err, PDB_EXIT_INPUT, "'%s' matches several benchmarks of run%lld "
				    "('%s', '%s'): name one", bench, (long long)run->id, found, b);
			return NULL;
		}
		found = b;
	}
	if (!found)
		pdb_err_set(err, PDB_EXIT_INPUT, "run%lld has no benchmark '%s'", (long long)run->id, bench);
	return found;
}

int pdb_compare_bench_side(const struct pdb_run *run, const char *bench, const char *as,
			   struct pdb_run **out, struct pdb_err *err)
{
	const char *name = which(run, bench, err);
	struct pdb_run *side;

	*out = NULL;
	if (!name)
		return -1;
	side = pdb_run_new();
	side->id = run->id;
	side->seq = run->seq;
	memcpy(side->uuid, run->uuid, sizeof side->uuid);
	pdb_set_str(&side->name, run->name);
	pdb_set_str(&side->created_at, run->created_at);
	pdb_set_str(&side->tool, run->tool);
	pdb_set_str(&side->format, run->format);
	pdb_set_str(&side->source, run->source);
	pdb_set_str(&side->sha256, run->sha256);
	pdb_set_str(&side->status, run->status);
	pdb_run_set_attrs(side, run->attrs, run->nattrs);
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		if (strcmp(r->benchmark, name) == 0)
			pdb_result_add_values(pdb_run_result_with_dims(side, as, r->dims, r->ndims,
								       r->metric, r->unit), r);
	}
	for (size_t i = 0; i < run->nfailures; i++)
		if (strcmp(run->failures[i].benchmark, name) == 0)
			pdb_run_add_failure(side, as, run->failures[i].dims, run->failures[i].ndims,
					    run->failures[i].reason);
	*out = side;
	return 0;
}
