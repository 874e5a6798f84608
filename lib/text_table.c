/* Text tables: aligned columns for a terminal, written into a buffer. */
#include "text_table.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"

void pdb_text_table_init(struct pdb_text_table *t, size_t ncols, const char *align)
{
	memset(t, 0, sizeof *t);
	t->ncols = ncols;
	t->align = align;
}

void pdb_text_table_add(struct pdb_text_table *t, const char *const *row, const char *style)
{
	size_t cap = t->cap;

	pdb_grow((void **)&t->cells, &t->cap, (t->nrows + 1) * t->ncols, sizeof *t->cells);
	if (t->cap != cap || !t->styles)
		t->styles = pdb_xrealloc(t->styles, (t->cap / t->ncols + 1) * sizeof *t->styles);
	for (size_t c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] = pdb_term_text(row[c] ? row[c] : "");
	t->styles[t->nrows] = style;
	t->nrows++;
}

/* Display width: count UTF-8 lead bytes, not bytes. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void pdb_text_table_write(const struct pdb_text_table *t, struct pdb_buf *out)
{
	size_t *w = pdb_xcalloc(t->ncols ? t->ncols : 1, sizeof *w);

	pdb_buf_puts(out, "");
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t cw = width(t->cells[r * t->ncols + c]);
			if (cw > w[c])
				w[c] = cw;
		}
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *cell = t->cells[r * t->ncols + c];
			int pad = (int)(w[c] - width(cell));
			int last = c + 1 == t->ncols;
			const char *style = last ? t->styles[r] : NULL;
			if (t->align[c] == 'r')
				pdb_buf_printf(out, "%*s%s", pad, "", cell);
			else if (style) /* the last column: colour codes cannot upset widths */
				pdb_buf_printf(out, "%s%s\033[0m", style, cell);
			else
				pdb_buf_printf(out, "%s%*s", cell, last ? 0 : pad, "");
			if (!last)
				pdb_buf_puts(out, "  ");
		}
		pdb_buf_puts(out, "\n");
	}
	free(w);
}

void pdb_text_table_release(struct pdb_text_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->styles);
	memset(t, 0, sizeof *t);
}
