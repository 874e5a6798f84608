/* The report's "By matrix point" section: for each benchmark of the
 * candidate, its tables by point (lib/table_points.c), one per set of dims. */
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "report_internal.h"
#include "table.h"

/* A benchmark of the run: where its first series is, and whether any of
 * its series has dims. */
struct bench_first {
	const char *bench;
	size_t first;
	int dims;
};

static int by_bench(const void *a, const void *b)
{
	const struct bench_first *x = a, *y = b;
	int c = strcmp(x->bench, y->bench);

	return c ? c : (x->first > y->first) - (x->first < y->first);
}

static int by_first(const void *a, const void *b)
{
	const struct bench_first *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

/* The run's benchmarks in the order of their first series, each once
 * (sorted, not searched: a run may hold 100,000 benchmarks); *n of them. */
static struct bench_first *benchmarks(const struct pdb_run *run, size_t *n)
{
	struct bench_first *v = pdb_xmalloc((run->nresults + 1) * sizeof *v);
	size_t k = 0;

	for (size_t i = 0; i < run->nresults; i++)
		v[i] = (struct bench_first){ run->results[i].benchmark, i, run->results[i].ndims > 0 };
	qsort(v, run->nresults, sizeof *v, by_bench);
	for (size_t i = 0; i < run->nresults; i++) {
		if (k && strcmp(v[k - 1].bench, v[i].bench) == 0)
			v[k - 1].dims |= v[i].dims;
		else
			v[k++] = v[i];
	}
	qsort(v, k, sizeof *v, by_first);
	*n = k;
	return v;
}

static void say(struct pdb_buf *b, int html, const char *s)
{
	if (html)
		pdb_escape_html(b, s);
	else
		pdb_escape_md(b, s);
}

/* "pipeline, by rate and stage": the benchmark, and the dims of a table. */
static void heading(const struct pdb_table *t, int html, struct pdb_buf *b)
{
	pdb_buf_puts(b, html ? "<h3>" : "### ");
	say(b, html, t->benchmark);
	for (size_t d = 0; d < t->ndims; d++) {
		pdb_buf_puts(b, d == 0 ? ", by " : d + 1 == t->ndims ? " and " : ", ");
		say(b, html, t->dims[d]);
	}
	pdb_buf_puts(b, html ? "</h3>\n" : "\n\n");
}

void pdb_report_by_point(const struct pdb_run *run, int html, int own, struct pdb_buf *b)
{
	size_t nbench;
	struct bench_first *benches = benchmarks(run, &nbench);

	/* the tables of a benchmark, in the order of their first series; a
	 * comparison's report shows those of a matrix (two rows or more), a
	 * run's own report every one */
	for (size_t i = 0; i < nbench; i++) {
		const char *bench = benches[i].bench;
		struct pdb_table *t = NULL;
		size_t n = 0;
		struct pdb_err err;

		if (!own && !benches[i].dims)
			continue;
		pdb_err_clear(&err);
		if (pdb_table_by_point(run, bench, own ? PDB_CELLS_MEAN : PDB_CELLS_VALUE, own ? 1 : 2,
				       &t, &n, &err) < 0) {
			pdb_buf_puts(b, html ? "<p class=\"note\">" : "");
			say(b, html, bench);
			pdb_buf_puts(b, ": no table by point: ");
			say(b, html, err.msg);
			pdb_buf_puts(b, html ? "</p>\n" : "\n\n");
		} else {
			for (size_t k = 0; k < n; k++) {
				heading(&t[k], html, b);
				pdb_table_render(&t[k], html ? PDB_TABLE_HTML : PDB_TABLE_MARKDOWN, b);
				pdb_buf_puts(b, html ? "" : "\n");
			}
		}
		pdb_tables_release(t, n);
	}
	free(benches);
}
