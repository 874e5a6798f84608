/* Chart kinds: small multiples — the lines of a kind split into panels of
 * at most a panel's lines, by one dim, then into pages; none left out. */
#include "chart/kinds.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The distinct values of dim key among the items (NULL: an item without
 * it), in dims order, the absent last; how many. */
static size_t values_of(const struct pdb_chart_item *it, size_t n, const char *key, const char ***out)
{
	const char **v = pdb_xcalloc(n + 1, sizeof *v);
	size_t nv = 0;
	int absent = 0;

	for (size_t i = 0; i < n; i++) {
		const char *x = pdb_result_get_dim(it[i].r, key);
		size_t k = 0;
		if (!x) {
			absent = 1;
			continue;
		}
		while (k < nv && strcmp(v[k], x) != 0)
			k++;
		if (k == nv) {
			size_t at = nv++;
			while (at > 0 && pdb_chart_cmp_dims(v[at - 1], x) > 0) {
				v[at] = v[at - 1];
				at--;
			}
			v[at] = x;
		}
	}
	if (absent)
		v[nv++] = NULL;
	*out = v;
	return nv;
}

static int same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The largest group splitting by key gives. */
static size_t largest(const struct pdb_chart_item *it, size_t n, const char *key,
		      const char *const *v, size_t nv)
{
	size_t top = 0;

	for (size_t k = 0; k < nv; k++) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			m += same(pdb_result_get_dim(it[i].r, key), v[k]);
		top = m > top ? m : top;
	}
	return top;
}

/* The dims a line's colour is keyed by (pdb_chart_stage_colors): a split
 * by another keeps one colour per stage within each panel. */
static int colour_key(const char *key)
{
	return strcmp(key, "stage") == 0 || strcmp(key, "process") == 0;
}

/* The dim to split by: of those whose values differ among the items, the
 * one whose groups all fit max with the fewest groups (of as many, one
 * that is no stage or process), else the one with the smallest largest
 * group; NULL when no dim differs. */
static const char *split_key(const struct pdb_chart_item *it, size_t n, size_t max)
{
	const char *best = NULL;
	size_t best_groups = 0, best_top = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t d = 0; d < it[i].r->ndims; d++) {
			const char *key = it[i].r->dims[d].key, **v;
			size_t nv = values_of(it, n, key, &v), top = largest(it, n, key, v, nv);
			int fits = top <= max, best_fits = best && best_top <= max;
			free(v);
			if (nv < 2)
				continue;
			if (!best || (fits && !best_fits) ||
			    (fits && best_fits && nv < best_groups) ||
			    (fits && best_fits && nv == best_groups && colour_key(best) && !colour_key(key)) ||
			    (!fits && !best_fits && top < best_top)) {
				best = key;
				best_groups = nv;
				best_top = top;
			}
		}
	return best;
}

/* Add the group of the items idx[0..m) as pages of at most max. */
static void add_pages(struct pdb_chart_group **g, size_t *ng, size_t *cap, const size_t *idx,
		      size_t m, size_t max, const char *label)
{
	size_t pages = (m + max - 1) / max;

	for (size_t p = 0; p < pages; p++) {
		struct pdb_chart_group *x;
		size_t from = p * max, to = from + max < m ? from + max : m;
		pdb_grow((void **)g, cap, *ng + 1, sizeof **g);
		x = &(*g)[(*ng)++];
		x->n = to - from;
		x->idx = pdb_xmalloc(x->n * sizeof *x->idx);
		memcpy(x->idx, idx + from, x->n * sizeof *x->idx);
		if (pages > 1)
			x->label = pdb_xasprintf("%s%s%zu of %zu", label, *label ? ", " : "", p + 1, pages);
		else
			x->label = pdb_xstrdup(label);
	}
}

size_t pdb_chart_groups(const struct pdb_chart_item *it, size_t n, size_t max,
			struct pdb_chart_group **out)
{
	struct pdb_chart_group *g = NULL;
	size_t ng = 0, cap = 0, *idx = pdb_xmalloc((n + 1) * sizeof *idx);
	const char *key = n > max ? split_key(it, n, max) : NULL;

	if (!key) {
		for (size_t i = 0; i < n; i++)
			idx[i] = i;
		add_pages(&g, &ng, &cap, idx, n, max, "");
	} else {
		const char **v;
		size_t nv = values_of(it, n, key, &v);
		for (size_t k = 0; k < nv; k++) {
			size_t m = 0;
			char *label = v[k] ? pdb_xasprintf("%s=%s", key, v[k]) : pdb_xasprintf("no %s", key);
			for (size_t i = 0; i < n; i++)
				if (same(pdb_result_get_dim(it[i].r, key), v[k]))
					idx[m++] = i;
			add_pages(&g, &ng, &cap, idx, m, max, label);
			free(label);
		}
		free(v);
	}
	free(idx);
	*out = g;
	return ng;
}

void pdb_chart_groups_free(struct pdb_chart_group *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(g[i].idx);
		free(g[i].label);
	}
	free(g);
}
