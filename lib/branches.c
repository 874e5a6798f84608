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

int pdb_branch_same(const struct pdb_run_row *a, const struct pdb_run_row *b)
{
	const char *x = pdb_run_row_attr(a, "branch"), *y = pdb_run_row_attr(b, "branch");

	return x && y ? strcmp(x, y) == 0 : !x && !y;
}

void pdb_history_where_of(const struct pdb_run_row *rows, size_t nrows, int64_t since_seq,
			  const char *where, char **out, char **note,
			  struct pdb_branch **branches, size_t *nbranches)
{
	struct pdb_branch *b;
	size_t n, unnamed;

	*out = *note = NULL;
	if (branches) {
		*branches = NULL;
		*nbranches = 0;
	}
	if (where) {
		*out = pdb_xstrdup(where);
		return;
	}
	b = pdb_branches(rows, nrows, since_seq, &n, &unnamed);
	if (n >= 2) {
		*out = pdb_xasprintf("branch=%s", b[0].name);
		*note = pdb_xasprintf("the runs have %zu branches: reading %s (%zu run%s; --where "
				      "branch=NAME for another)%s", n, *out, b[0].runs,
				      b[0].runs == 1 ? "" : "s",
				      unnamed ? "; runs without a branch are left out" : "");
		if (branches) {
			*branches = b;
			*nbranches = n;
			return;
		}
	}
	free(b);
}

int pdb_history_where(struct pdb_store *store, const char *where, int64_t since_id, char **out,
		      char **note, struct pdb_err *err)
{
	struct pdb_run_row *rows = NULL;
	size_t nrows = 0;
	int named;

	*out = *note = NULL;
	if (where) { /* no need to list the runs */
		*out = pdb_xstrdup(where);
		return 0;
	}
	if (pdb_store_count_branches(store, &named, err) < 0)
		return -1;
	if (named < 2) /* the rule picks a branch only among two or more */
		return 0;
	if (pdb_store_list_branches(store, &rows, &nrows, err) < 0)
		return -1;
	pdb_history_where_of(rows, nrows, pdb_run_rows_seq(rows, nrows, since_id), NULL, out, note,
			     NULL, NULL);
	pdb_run_rows_free(rows, nrows);
	return 0;
}

int pdb_baseline_index(const struct pdb_baseline_history *h, size_t cand, size_t *base)
{
	const struct pdb_run_row *c = h->row(h->ctx, cand);

	for (int any = 0; any < 2; any++)
		for (size_t j = cand; j-- > 0;) {
			int rc;
			/* the second pass skips the branch the first one read */
			if ((h->eligible && !h->eligible(h->ctx, j)) ||
			    pdb_branch_same(h->row(h->ctx, j), c) == any)
				continue;
			if ((rc = h->shares(h->ctx, cand, j)) < 0)
				return -1;
			if (rc) {
				*base = j;
				return 1;
			}
		}
	return 0;
}
