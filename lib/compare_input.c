/* Compare's read model: finding a series' history, the scope it is read from. */
#include "compare_input.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void pdb_compare_scope_of(struct pdb_run *const *base, size_t nbase, struct pdb_run *const *cand,
			  size_t ncand, struct pdb_compare_scope *scope)
{
	const struct pdb_run *newest = base[0];

	for (size_t i = 1; i < nbase; i++)
		if (base[i]->seq > newest->seq)
			newest = base[i];
	scope->until = newest->id;
	scope->where = NULL;
	scope->branch = pdb_run_get_attr(newest, "branch");
	if (scope->branch && !strchr(scope->branch, ','))
		scope->where = pdb_xasprintf("branch=%s", scope->branch);
	else
		scope->branch = NULL;
	scope->cand_id = ncand == 1 ? cand[0]->id : -1;
}

void pdb_compare_scope_release(struct pdb_compare_scope *scope)
{
	free(scope->where);
	scope->where = NULL;
}

char *pdb_compare_key(const char *benchmark, const char *dims_json, const char *metric)
{
	/* (copied, not printed: a key a result of each side, several times) */
	size_t nb = strlen(benchmark), nd = strlen(dims_json), nm = strlen(metric);
	char *key = pdb_xmalloc(nb + nd + nm + 3);

	memcpy(key, benchmark, nb);
	key[nb] = '\x1f';
	memcpy(key + nb + 1, dims_json, nd);
	key[nb + 1 + nd] = '\x1f';
	memcpy(key + nb + nd + 2, metric, nm + 1);
	return key;
}

const struct pdb_compare_history *pdb_compare_history_find(const struct pdb_compare_input *in,
							   const char *key)
{
	size_t lo = 0, hi = in->nhistory;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = strcmp(in->history[mid].key, key);
		if (d == 0)
			return &in->history[mid];
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void pdb_compare_input_release(struct pdb_compare_input *in)
{
	for (size_t i = 0; i < in->nhistory; i++) {
		free(in->history[i].key);
		free(in->history[i].pts);
	}
	free(in->history);
	in->history = NULL;
	in->nhistory = 0;
}
