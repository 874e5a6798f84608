/* The report's "By matrix point" section: for each benchmark of the
 * candidate with two points or more, its table by point (lib/table.c). */
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "report_internal.h"
#include "table.h"

/* Whether a series of bench from the i-th on has dims. */
static int has_dims(const struct pdb_run *run, const char *bench, size_t i)
{
	for (; i < run->nresults; i++)
		if (run->results[i].ndims && strcmp(run->results[i].benchmark, bench) == 0)
			return 1;
	return 0;
}

void pdb_report_by_point(const struct pdb_run *run, int html, struct pdb_buf *b)
{
	const char **seen = pdb_xmalloc((run->nresults + 1) * sizeof *seen);
	size_t nseen = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		const char *bench = run->results[i].benchmark;
		struct pdb_table t;
		struct pdb_err err;
		size_t k = nseen;

		/* one table a benchmark, in the order of their first series; none
		 * without dims (the benchmarks are few, the series may be 20,000) */
		while (k > 0 && strcmp(seen[k - 1], bench) != 0)
			k--;
		if (k > 0)
			continue;
		seen[nseen++] = bench;
		if (!has_dims(run, bench, i))
			continue;
		pdb_err_clear(&err);
		if (pdb_table_by_point(run, bench, &t, &err) < 0) {
			pdb_buf_puts(b, html ? "<p class=\"note\">" : "");
			if (html)
				pdb_escape_html(b, bench);
			else
				pdb_escape_md(b, bench);
			pdb_buf_puts(b, ": no table by point: ");
			if (html)
				pdb_escape_html(b, err.msg);
			else
				pdb_escape_md(b, err.msg);
			pdb_buf_puts(b, html ? "</p>\n" : "\n\n");
			continue;
		}
		if (!t.nrows)
			continue;
		pdb_buf_puts(b, html ? "<h3>" : "### ");
		if (html)
			pdb_escape_html(b, bench);
		else
			pdb_escape_md(b, bench);
		pdb_buf_puts(b, html ? "</h3>\n" : "\n\n");
		pdb_table_render(&t, html ? PDB_TABLE_HTML : PDB_TABLE_MARKDOWN, b);
		pdb_buf_puts(b, html ? "" : "\n");
		pdb_table_release(&t);
	}
	free(seen);
}
