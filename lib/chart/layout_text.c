/* Chart layout as text: what `plot --layout` prints, one line per element. */
#include "chart/layout.h"

#include <stdio.h>
#include <stdlib.h>

#include "escape.h"

/* A text of the chart (a title, a label from the data) in quotes, escaped
 * for the terminal the layout is printed on. */
static void q(struct pdb_buf *out, const char *s)
{
	pdb_buf_puts(out, "\"");
	pdb_escape_term(out, s ? s : "");
	pdb_buf_puts(out, "\"");
}

static const char *kind_name(int kind)
{
	static const char *const names[] = { "linear", "log", "nines", "category", "log2" };
	return kind >= 0 && kind <= PDB_AXIS_LOG2 ? names[kind] : "?";
}

static void marks_text(int marks, char *out, size_t size)
{
	static const char *const names[] = { "line", "points", "band", "hbar", "dashed", "clip",
					     "values", "light", "ring", "cross", "cut" };
	size_t len = 0;

	out[0] = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (marks & (1 << i))
			len += (size_t)snprintf(out + len, size - len, "%s%s", len ? "+" : "", names[i]);
}

static void axis_text(struct pdb_buf *out, const char *name, const struct pdb_axis_layout *a)
{
	if (!a->present)
		return;
	pdb_buf_printf(out, "  %s %s %.4g..%.4g ", name, kind_name(a->kind), a->lo, a->hi);
	q(out, a->title);
	pdb_buf_printf(out, " px %.1f..%.1f\n", a->px_lo, a->px_hi);
	pdb_buf_printf(out, "    ticks");
	for (size_t i = 0; i < a->nticks; i++) {
		pdb_buf_puts(out, " ");
		q(out, a->ticks[i].label);
		pdb_buf_printf(out, "@%.1f", a->ticks[i].px);
	}
	pdb_buf_puts(out, "\n");
}

/* How many texts there are, and each one that overlaps another or leaves the canvas. */
static void texts_text(struct pdb_buf *out, const struct pdb_chart_layout *L)
{
	struct pdb_text_box *b;
	size_t n = pdb_chart_text_boxes(L, &b), bad = 0;

	for (size_t i = 0; i < n; i++) {
		int off;
		size_t k = pdb_chart_text_clash(L, b, n, i, &off);
		if (off || k < n) {
			pdb_buf_puts(out, "text ");
			q(out, b[i].text);
			pdb_buf_printf(out, " %s%s%s", off ? "leaves the canvas" : "",
				       off && k < n ? ", " : "", k < n ? "overlaps " : "");
			if (k < n)
				pdb_escape_term(out, b[k].text);
			pdb_buf_puts(out, "\n");
			bad++;
		}
	}
	pdb_buf_printf(out, "texts %zu: %zu overlapping or off the canvas\n", n, bad);
	free(b);
}

void pdb_chart_layout_text(const struct pdb_chart *c, const struct pdb_chart_layout *L,
			   struct pdb_buf *out)
{
	pdb_buf_printf(out, "chart %s %dx%d %s ", c->kind, L->width, L->height,
		       c->theme == PDB_THEME_DARK ? "dark" : "light");
	q(out, L->title);
	pdb_buf_puts(out, "\n");
	if (*L->subtitle) {
		pdb_buf_puts(out, "subtitle ");
		q(out, L->subtitle);
		pdb_buf_puts(out, "\n");
	}
	texts_text(out, L);
	pdb_buf_printf(out, "selected %zu: drawn %zu, left out %zu\n", c->nselected,
		       pdb_chart_drawn(c), c->nskipped);
	for (size_t i = 0; i < c->nskipped; i++) {
		pdb_buf_puts(out, "left out ");
		pdb_escape_term(out, c->skipped[i]);
		pdb_buf_puts(out, "\n");
	}
	for (size_t i = 0; i < L->npanels; i++) {
		const struct pdb_chart_panel *p = &c->panels[i];
		const struct pdb_panel_layout *pl = &L->panels[i];
		pdb_buf_printf(out, "panel %zu ", i + 1);
		q(out, pl->title);
		pdb_buf_printf(out, " plot %.1f,%.1f %.1f,%.1f\n", pl->left, pl->top, pl->right,
			       pl->bottom);
		axis_text(out, "x", &pl->x);
		axis_text(out, "y", &pl->y);
		axis_text(out, "y2", &pl->y2);
		for (size_t s = 0; s < pl->nseries; s++) {
			const struct pdb_chart_series *se = &p->series[s];
			const struct pdb_series_layout *l = &pl->series[s];
			char marks[64];
			marks_text(se->marks, marks, sizeof marks);
			pdb_buf_puts(out, "  series ");
			q(out, se->label);
			pdb_buf_printf(out, " %s colour %d points %zu drawn %zu", marks, se->color,
				       l->n_in, l->n);
			if (l->n > 0)
				pdb_buf_printf(out, " from %.1f,%.1f to %.1f,%.1f", l->px[0], l->py[0],
					       l->px[l->n - 1], l->py[l->n - 1]);
			for (size_t k = 0; l->cut && k < l->nband; k++)
				if (l->cut[k])
					pdb_buf_printf(out, " cut%s%s@%.1f", l->cut[k] & 1 ? " low" : "",
						       l->cut[k] & 2 ? " high" : "", l->bx[k]);
			pdb_buf_puts(out, "\n");
			if (se->marks & PDB_MARK_VALUES) {
				pdb_buf_printf(out, "    values %zu of %zu:", l->nvalues, l->n);
				for (size_t k = 0; k < l->nvalues; k++) {
					pdb_buf_puts(out, " ");
					q(out, l->values[k].text);
					pdb_buf_printf(out, "@%.1f,%.1f", l->values[k].x, l->values[k].y);
				}
				pdb_buf_puts(out, "\n");
			}
		}
		for (size_t k = 0; k < p->nvmarks; k++) {
			pdb_buf_printf(out, "  vmark %.4g @%.1f%s colour %d", p->vmarks[k].x,
				       pl->vmark_px[k], p->vmarks[k].dashed ? " dashed" : "",
				       p->vmarks[k].color);
			if (*pl->vmark_labels[k].text) {
				pdb_buf_puts(out, " label ");
				q(out, pl->vmark_labels[k].text);
			}
			pdb_buf_puts(out, "\n");
		}
		for (size_t k = 0; k < p->nhmarks; k++)
			pdb_buf_printf(out, "  hmark %.4g @%.1f\n", p->hmarks[k], pl->hmark_px[k]);
		if (pl->legend.n > 0) {
			pdb_buf_printf(out, "  legend %s %.1f,%.1f %.1fx%.1f:", pl->legend.where,
				       pl->legend.x, pl->legend.y, pl->legend.w, pl->legend.h);
			for (size_t k = 0; k < pl->legend.n; k++) {
				pdb_buf_puts(out, " ");
				q(out, pl->legend.labels[k]);
			}
			if (pl->legend.more)
				pdb_buf_printf(out, " and %zu more", pl->legend.more);
			pdb_buf_puts(out, "\n");
		}
	}
}
