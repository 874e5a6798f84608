/* The branch rule (branches.h). */
#include "branches.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

struct pdb_branch *pdb_branches(const struct pdb_run_row *rows, size_t nrows, int64_t since_seq,
				size_t *n, size_t *unnamed)
{
	struct pdb_branch *b = pdb_xcalloc(nrows + 1, sizeof *b), t;
	size_t best = 0;

	*n = *unnamed = 0;
	for (size_t i = 0; i < nrows; i++) { /* newest first: a tie goes to the newest */
		const char *name = pdb_run_row_attr(&rows[i], "branch");
		size_t k = 0;
		if (rows[i].seq < since_seq)
			continue;
		if (!name) {
			(*unnamed)++;
			continue;
		}
		while (k < *n && strcmp(b[k].name, name) != 0)
			k++;
		if (k == *n)
			b[(*n)++].name = name;
		b[k].runs++;
	}
	for (size_t k = 1; k < *n; k++)
		if (b[k].runs > b[best].runs)
			best = k;
	for (size_t k = 0; k < *n; k++)
		if (strcmp(b[k].name, "master") == 0)
			best = k;
	for (size_t k = 0; k < *n; k++)
		if (strcmp(b[k].name, "main") == 0)
			best = k;
	if (*n) {
		t = b[0];
		b[0] = b[best];
		b[best] = t;
	}
	return b;
}

int pdb_history_where(struct pdb_store *store, const char *where, char **out, char **note,
		      struct pdb_err *err)
{
	struct pdb_run_filter all = { 0 };
	struct pdb_run_row *rows = NULL;
	struct pdb_branch *b;
	size_t nrows = 0, n, unnamed;

	*out = *note = NULL;
	if (where) {
		*out = pdb_xstrdup(where);
		return 0;
	}
	if (pdb_store_list_runs(store, &all, &rows, &nrows, err) < 0)
		return -1;
	b = pdb_branches(rows, nrows, 0, &n, &unnamed);
	if (n >= 2) {
		*out = pdb_xasprintf("branch=%s", b[0].name);
		*note = pdb_xasprintf("the runs have %zu branches: reading %s (%zu run%s; --where "
				      "branch=NAME for another)%s", n, *out, b[0].runs,
				      b[0].runs == 1 ? "" : "s",
				      unnamed ? "; runs without a branch are left out" : "");
	}
	free(b);
	pdb_run_rows_free(rows, nrows);
	return 0;
}
