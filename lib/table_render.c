/* Tables of one run by matrix point, written as text, Markdown, CSV, HTML
 * or JSON; every string escaped for its target (lib/escape.c). */
#include "table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "escape.h"
#include "text_table.h"
#include "units.h"

static const char *const stat_words[] = {
	[PDB_TSTAT_VALUE] = "value", [PDB_TSTAT_MEAN] = "mean", [PDB_TSTAT_MEDIAN] = "median",
	[PDB_TSTAT_MIN] = "min", [PDB_TSTAT_MAX] = "max", [PDB_TSTAT_STDDEV] = "stddev",
	[PDB_TSTAT_STDDEV_POP] = "stddev_pop", [PDB_TSTAT_PCT] = "p", [PDB_TSTAT_COUNT] = "count",
	[PDB_TSTAT_SPEEDUP] = "speedup",
};

char *pdb_table_cell(const struct pdb_table *t, size_t r, size_t c)
{
	const struct pdb_table_col *col = &t->cols[c];
	double v = t->values[r * t->ncols + c];

	if (!isfinite(v))
		return pdb_xstrdup("-");
	if (col->stat == PDB_TSTAT_SPEEDUP) {
		char text[48];
		pdb_speedup_text(v, text, sizeof text);
		return pdb_xstrdup(text);
	}
	return pdb_xasprintf("%.*f", col->decimals, v / col->shown_scale + 0.0);
}

/* "name (unit)", the unit as people read it, or as stored (full). */
static char *header(const struct pdb_table_col *col, int full)
{
	const char *unit = full ? col->unit : col->shown_unit;

	size_t n = strlen(col->name), u = strlen(unit);

	/* "sent", "MB/s", "% missing": the name says the unit already; a
	 * speed-up's cells say theirs ("1.22x") */
	if ((!full && col->stat == PDB_TSTAT_SPEEDUP) || strcmp(unit, "count") == 0 || strcmp(unit, col->name) == 0 ||
	    (n > u && strncmp(col->name, unit, u) == 0 && col->name[u] == ' ') ||
	    (n > u && strcmp(col->name + n - u, unit) == 0 && col->name[n - u - 1] == ' '))
		return pdb_xstrdup(col->name);
	return pdb_xasprintf("%s (%s)", col->name, unit);
}

char *pdb_table_header(const struct pdb_table *t, size_t c)
{
	return header(&t->cols[c], 0);
}

static void text(const struct pdb_table *t, struct pdb_buf *out)
{
	size_t n = t->ndims + t->ncols;
	char *align = pdb_xmalloc(n + 1);
	const char **row = pdb_xcalloc(n, sizeof *row);
	char **cells = pdb_xcalloc(n, sizeof *cells);
	struct pdb_text_table tt;

	memset(align, 'r', n);
	align[n] = '\0';
	pdb_text_table_init(&tt, n, align);
	for (size_t d = 0; d < t->ndims; d++)
		row[d] = t->dims[d];
	for (size_t c = 0; c < t->ncols; c++)
		row[t->ndims + c] = cells[c] = pdb_table_header(t, c);
	pdb_text_table_add(&tt, row, NULL);
	for (size_t c = 0; c < t->ncols; c++)
		free(cells[c]);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t d = 0; d < t->ndims; d++)
			row[d] = t->keys[r * t->ndims + d];
		for (size_t c = 0; c < t->ncols; c++)
			row[t->ndims + c] = cells[c] = pdb_table_cell(t, r, c);
		pdb_text_table_add(&tt, row, NULL);
		for (size_t c = 0; c < t->ncols; c++)
			free(cells[c]);
	}
	pdb_text_table_write(&tt, out);
	pdb_text_table_release(&tt);
	free(cells);
	free(row);
	free(align);
}

static void markdown(const struct pdb_table *t, struct pdb_buf *out)
{
	pdb_buf_puts(out, "|");
	for (size_t d = 0; d < t->ndims; d++) {
		pdb_buf_puts(out, " ");
		pdb_escape_md(out, t->dims[d]);
		pdb_buf_puts(out, " |");
	}
	for (size_t c = 0; c < t->ncols; c++) {
		char *h = pdb_table_header(t, c);
		pdb_buf_puts(out, " ");
		pdb_escape_md(out, h);
		pdb_buf_puts(out, " |");
		free(h);
	}
	pdb_buf_puts(out, "\n|");
	for (size_t i = 0; i < t->ndims + t->ncols; i++)
		pdb_buf_puts(out, "---:|");
	pdb_buf_puts(out, "\n");
	for (size_t r = 0; r < t->nrows; r++) {
		pdb_buf_puts(out, "|");
		for (size_t d = 0; d < t->ndims; d++) {
			pdb_buf_puts(out, " ");
			pdb_escape_md(out, t->keys[r * t->ndims + d]);
			pdb_buf_puts(out, " |");
		}
		for (size_t c = 0; c < t->ncols; c++) {
			char *cell = pdb_table_cell(t, r, c);
			pdb_buf_printf(out, " %s |", cell);
			free(cell);
		}
		pdb_buf_puts(out, "\n");
	}
}

static void csv(const struct pdb_table *t, struct pdb_buf *out)
{
	for (size_t d = 0; d < t->ndims; d++) {
		pdb_buf_puts(out, d ? "," : "");
		pdb_escape_csv(out, t->dims[d]);
	}
	for (size_t c = 0; c < t->ncols; c++) {
		char *h = header(&t->cols[c], 1);
		pdb_buf_puts(out, ",");
		pdb_escape_csv(out, h);
		free(h);
	}
	pdb_buf_puts(out, "\r\n");
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t d = 0; d < t->ndims; d++) {
			pdb_buf_puts(out, d ? "," : "");
			pdb_escape_csv(out, t->keys[r * t->ndims + d]);
		}
		for (size_t c = 0; c < t->ncols; c++) {
			double v = t->values[r * t->ncols + c];
			char num[32] = "";
			if (isfinite(v))
				pdb_fmt_double(v, num);
			pdb_buf_printf(out, ",%s", num);
		}
		pdb_buf_puts(out, "\r\n");
	}
}

static void html(const struct pdb_table *t, struct pdb_buf *out)
{
	pdb_buf_puts(out, "<table class=\"by-point\">\n<thead><tr>");
	for (size_t d = 0; d < t->ndims; d++) {
		pdb_buf_puts(out, "<th>");
		pdb_escape_html(out, t->dims[d]);
		pdb_buf_puts(out, "</th>");
	}
	for (size_t c = 0; c < t->ncols; c++) {
		char *h = pdb_table_header(t, c);
		pdb_buf_puts(out, "<th class=\"num\">");
		pdb_escape_html(out, h);
		pdb_buf_puts(out, "</th>");
		free(h);
	}
	pdb_buf_puts(out, "</tr></thead>\n<tbody>\n");
	for (size_t r = 0; r < t->nrows; r++) {
		pdb_buf_puts(out, "<tr>");
		for (size_t d = 0; d < t->ndims; d++) {
			pdb_buf_puts(out, "<th scope=\"row\">");
			pdb_escape_html(out, t->keys[r * t->ndims + d]);
			pdb_buf_puts(out, "</th>");
		}
		for (size_t c = 0; c < t->ncols; c++) {
			char *cell = pdb_table_cell(t, r, c);
			pdb_buf_printf(out, "<td class=\"num\">%s</td>", cell);
			free(cell);
		}
		pdb_buf_puts(out, "</tr>\n");
	}
	pdb_buf_puts(out, "</tbody>\n</table>\n");
}

void pdb_table_render(const struct pdb_table *t, int format, struct pdb_buf *out)
{
	pdb_buf_puts(out, "");
	switch (format) {
	case PDB_TABLE_MARKDOWN: markdown(t, out); break;
	case PDB_TABLE_CSV: csv(t, out); break;
	case PDB_TABLE_HTML: html(t, out); break;
	default: text(t, out); break;
	}
}

json_t *pdb_table_json(const struct pdb_table *t)
{
	json_t *doc = json_object(), *dims = json_array(), *cols = json_array(), *rows = json_array();

	json_object_set_new(doc, "benchmark", json_string(t->benchmark));
	for (size_t d = 0; d < t->ndims; d++)
		json_array_append_new(dims, json_string(t->dims[d]));
	json_object_set_new(doc, "rows_by", dims);
	for (size_t c = 0; c < t->ncols; c++) {
		const struct pdb_table_col *col = &t->cols[c];
		json_t *o = json_object();
		json_object_set_new(o, "name", json_string(col->name));
		json_object_set_new(o, "metric", col->metric ? json_string(col->metric) : json_null());
		if (col->stat == PDB_TSTAT_PCT) {
			char num[32];
			pdb_fmt_double(col->pct, num);
			json_object_set_new(o, "stat", json_sprintf("p%s", num));
		} else {
			json_object_set_new(o, "stat", json_string(stat_words[col->stat]));
		}
		if (col->stat == PDB_TSTAT_SPEEDUP)
			json_object_set_new(o, "of", json_string(t->cols[col->of].name));
		json_object_set_new(o, "unit", json_string(col->unit));
		json_array_append_new(cols, o);
	}
	json_object_set_new(doc, "columns", cols);
	for (size_t r = 0; r < t->nrows; r++) {
		json_t *row = json_object(), *k = json_object(), *v = json_array();
		for (size_t d = 0; d < t->ndims; d++)
			json_object_set_new(k, t->dims[d], json_string(t->keys[r * t->ndims + d]));
		for (size_t c = 0; c < t->ncols; c++) {
			double x = t->values[r * t->ncols + c];
			json_array_append_new(v, isfinite(x) ? pdb_json_number(x) : json_null());
		}
		json_object_set_new(row, "dims", k);
		json_object_set_new(row, "values", v);
		json_array_append_new(rows, row);
	}
	json_object_set_new(doc, "rows", rows);
	return doc;
}
