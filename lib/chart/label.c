/* Chart kinds: legend labels of results that name only what tells them apart,
 * and a run's own label. */
#include "chart/kinds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Whether another item of the same benchmark lacks dim d of item i or has
 * another value for it (other benchmarks are told apart by their names). */
static int dim_differs(const struct pdb_chart_item *it, size_t n, size_t i, const struct pdb_attr *d)
{
	for (size_t k = 0; k < n; k++) {
		const char *v;
		if (k == i || strcmp(it[k].r->benchmark, it[i].r->benchmark) != 0)
			continue;
		v = pdb_result_get_dim(it[k].r, d->key);
		if (!v || strcmp(v, d->value) != 0)
			return 1;
	}
	return 0;
}

/* The item's metric name: r's, or its family's. */
static int metric_len(const struct pdb_chart_item *it)
{
	return (int)(it->family ? it->family : strlen(it->r->metric));
}

static int same_metric(const struct pdb_chart_item *a, const struct pdb_chart_item *b)
{
	return metric_len(a) == metric_len(b) &&
	       strncmp(a->r->metric, b->r->metric, (size_t)metric_len(a)) == 0;
}

char *pdb_chart_item_key(const struct pdb_chart_item *it)
{
	char *dims = pdb_dims_display(it->r->dims, it->r->ndims);
	char *key = pdb_xasprintf("run%lld %s%s%s%s %.*s", (long long)it->run->id, it->r->benchmark,
				  *dims ? " [" : "", dims, *dims ? "]" : "", metric_len(it),
				  it->r->metric);

	free(dims);
	return key;
}

char **pdb_chart_item_labels(const struct pdb_chart_item *it, size_t n)
{
	char **labels = pdb_xcalloc(n ? n : 1, sizeof *labels);
	int by_run = 0, by_bench = 0, by_metric = 0;

	for (size_t i = 1; i < n; i++) {
		by_run |= it[i].run != it[0].run;
		by_bench |= strcmp(it[i].r->benchmark, it[0].r->benchmark) != 0;
		by_metric |= !same_metric(&it[i], &it[0]);
	}
	for (size_t i = 0; i < n; i++) {
		struct pdb_buf b;
		int dims = 0;
		pdb_buf_init(&b);
		pdb_buf_puts(&b, "");
		if (by_run) {
			char *run = pdb_chart_run_label(it[i].run);
			pdb_buf_puts(&b, run);
			free(run);
		}
		if (by_bench)
			pdb_buf_printf(&b, "%s%s", b.len ? " " : "", it[i].r->benchmark);
		for (size_t d = 0; d < it[i].r->ndims; d++)
			if (dim_differs(it, n, i, &it[i].r->dims[d])) {
				pdb_buf_printf(&b, "%s%s=%s", dims ? "," : b.len ? " " : "",
					       it[i].r->dims[d].key, it[i].r->dims[d].value);
				dims = 1;
			}
		if (by_metric || b.len == 0)
			pdb_buf_printf(&b, "%s%.*s", b.len ? " " : "", metric_len(&it[i]), it[i].r->metric);
		labels[i] = b.data;
	}
	return labels;
}

void pdb_chart_labels_free(char **labels, size_t n)
{
	for (size_t i = 0; labels && i < n; i++)
		free(labels[i]);
	free(labels);
}

int pdb_chart_cmp_dims(const char *a, const char *b)
{
	while (*a && *b) {
		size_t la = strcspn(a, "=,"), lb = strcspn(b, "=,");
		char fa[128], fb[128];
		double x, y;
		int c;
		snprintf(fa, sizeof fa, "%.*s", (int)la, a);
		snprintf(fb, sizeof fb, "%.*s", (int)lb, b);
		if (pdb_parse_double(fa, &x) == 0 && pdb_parse_double(fb, &y) == 0)
			c = x < y ? -1 : x > y;
		else
			c = strcmp(fa, fb);
		if (c)
			return c;
		a += la + (a[la] != 0);
		b += lb + (b[lb] != 0);
	}
	return (*a != 0) - (*b != 0);
}

char *pdb_chart_run_label(const struct pdb_run *run)
{
	return run->name ? pdb_xstrdup(run->name) : pdb_xasprintf("run%lld", (long long)run->id);
}
