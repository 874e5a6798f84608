/* The report's "By matrix point" section: for each benchmark of the
 * candidate with two points or more, its table by point (lib/table.c). */
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "report_internal.h"
#include "table.h"

void pdb_report_by_point(const struct pdb_run *run, int html, struct pdb_buf *b)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const char *bench = run->results[i].benchmark;
		struct pdb_table t;
		struct pdb_err err;
		size_t k = 0;

		while (k < i && strcmp(run->results[k].benchmark, bench) != 0)
			k++;
		if (k < i || !run->results[i].ndims)
			continue; /* one table a benchmark; none without dims */
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
}
