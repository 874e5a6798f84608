/* Chart layout: texts cut to their room, and the box of every text for overlap checks. */
#include "chart/layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room above the baseline and below it, as a share of the font size. */
#define ASCENT 0.93
#define DESCENT 0.24

static double text_width(const char *s, double font, int bold)
{
	return bold ? pdb_chart_text_width_bold(s, font) : pdb_chart_text_width(s, font);
}

void pdb_chart_fit(char *out, size_t size, const char *s, double font, int bold, double width)
{
	static const char ellipsis[] = "…";
	size_t len = strlen(s), keep;
	char *copy = pdb_xstrdup(s);

	if (text_width(copy, font, bold) <= width || len == 0) {
		pdb_utf8_copy(out, size, copy); /* wide enough, maybe not long enough */
		free(copy);
		return;
	}
	/* drop whole UTF-8 characters from the end until the rest and "…" fit */
	for (keep = len; keep > 0; keep--) {
		if (((unsigned char)copy[keep] & 0xc0) == 0x80)
			continue;
		copy[keep] = 0;
		if (text_width(copy, font, bold) + text_width(ellipsis, font, bold) <= width)
			break;
	}
	while (keep > 0 && copy[keep - 1] == ' ')
		copy[--keep] = 0;
	if (keep > 0) {
		char *cut = pdb_xasprintf("%s%s", copy, ellipsis);
		free(copy);
		copy = cut;
	}
	pdb_utf8_copy(out, size, copy); /* out may be too small still: whole characters */
	free(copy);
}

struct boxes {
	struct pdb_text_box *b;
	size_t n, cap;
};

static void add(struct boxes *bs, const char *text, double x, double y, double w, double h)
{
	struct pdb_text_box *b;

	if (!text || !*text)
		return;
	pdb_grow((void **)&bs->b, &bs->cap, bs->n + 1, sizeof *bs->b);
	b = &bs->b[bs->n++];
	b->x = x;
	b->y = y;
	b->w = w;
	b->h = h;
	pdb_utf8_copy(b->text, sizeof b->text, text); /* a long label: whole characters */
}

/* A text of font size anchored at x (ax: 0 left, 0.5 centre, 1 right) on
 * its baseline y, or on its middle when mid (as render's text() does). */
static void add_text(struct boxes *bs, const char *text, double font, int bold, double x, double y,
		     double ax, int mid)
{
	double w = text_width(text, font, bold), base = mid ? y + font * 0.36 : y;

	add(bs, text, x - ax * w, base - ASCENT * font, w, (ASCENT + DESCENT) * font);
}

/* A text turned a quarter (up: reads bottom to top) centred on (x, y), x its baseline. */
static void add_vertical(struct boxes *bs, const char *text, double font, double x, double y, int up)
{
	double w = pdb_chart_text_width(text, font);

	add(bs, text, up ? x - ASCENT * font : x - DESCENT * font, y - w / 2, (ASCENT + DESCENT) * font, w);
}

static double widest(const struct pdb_axis_layout *a)
{
	double w = 0;

	for (size_t i = 0; i < a->nticks; i++) {
		double t = pdb_chart_text_width(a->ticks[i].label, PDB_FONT_TICK);
		w = t > w ? t : w;
	}
	return w;
}

int pdb_chart_boxes_overlap(const struct pdb_text_box *a, const struct pdb_text_box *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

size_t pdb_chart_text_clash(const struct pdb_chart_layout *L, const struct pdb_text_box *b, size_t n,
			    size_t i, int *off)
{
	size_t k = 0;

	*off = b[i].x < 0 || b[i].y < 0 || b[i].x + b[i].w > L->width || b[i].y + b[i].h > L->height;
	while (k < n && (k == i || !pdb_chart_boxes_overlap(&b[i], &b[k])))
		k++;
	return k;
}

int pdb_chart_layout_check(const struct pdb_chart_layout *L, struct pdb_err *err)
{
	struct pdb_text_box *b;
	size_t n = pdb_chart_text_boxes(L, &b);
	int ret = 0, off;

	for (size_t i = 0; i < n && ret == 0; i++) {
		size_t k = pdb_chart_text_clash(L, b, n, i, &off);
		if (k < n)
			ret = pdb_err_set(err, PDB_EXIT_RUNTIME, "the chart's texts \"%s\" and \"%s\" "
					  "overlap at %dx%d: nothing drawn (plot --layout shows where)",
					  b[i].text, b[k].text, L->width, L->height);
		else if (off)
			ret = pdb_err_set(err, PDB_EXIT_RUNTIME, "the chart's text \"%s\" leaves the "
					  "canvas at %dx%d: nothing drawn (plot --layout shows where)",
					  b[i].text, L->width, L->height);
	}
	free(b);
	return ret;
}

size_t pdb_chart_text_boxes(const struct pdb_chart_layout *L, struct pdb_text_box **out)
{
	struct boxes bs = { 0 };

	add_text(&bs, L->title, PDB_FONT_TITLE, 1, L->width / 2.0, 10 + PDB_FONT_TITLE, 0.5, 0);
	add_text(&bs, L->subtitle, PDB_FONT_SUBTITLE, 0, L->width / 2.0,
		 10 + PDB_FONT_TITLE + 6 + PDB_FONT_SUBTITLE, 0.5, 0);
	for (size_t i = 0; i < L->npanels; i++) {
		const struct pdb_panel_layout *pl = &L->panels[i];
		add_text(&bs, pl->title, PDB_FONT_PANEL, 1, pl->left, pl->top - 8, 0, 0);
		for (size_t k = 0; k < pl->y.nticks; k++)
			add_text(&bs, pl->y.ticks[k].label, PDB_FONT_TICK, 0, pl->left - 7, pl->y.ticks[k].px, 1, 1);
		for (size_t k = 0; k < pl->y2.nticks; k++)
			add_text(&bs, pl->y2.ticks[k].label, PDB_FONT_TICK, 0, pl->right + 7, pl->y2.ticks[k].px, 0, 1);
		for (size_t k = 0; k < pl->x.nticks; k++)
			add_text(&bs, pl->x.ticks[k].label, PDB_FONT_TICK, 0, pl->x.ticks[k].px,
				 pl->bottom + 8 + PDB_FONT_TICK, 0.5, 0);
		add_text(&bs, pl->x.title, PDB_FONT_AXIS, 0, (pl->left + pl->right) / 2,
			 pl->bottom + 8 + PDB_FONT_TICK + 8 + PDB_FONT_AXIS, 0.5, 0);
		add_vertical(&bs, pl->y.title, PDB_FONT_AXIS, 12 + PDB_FONT_AXIS * 0.8,
			     (pl->top + pl->bottom) / 2, 1);
		if (pl->y2.present)
			add_vertical(&bs, pl->y2.title, PDB_FONT_AXIS,
				     pl->right + 8 + widest(&pl->y2) + 8 + PDB_FONT_AXIS * 0.2,
				     (pl->top + pl->bottom) / 2, 0);
		if (pl->legend.n > 0)
			add(&bs, pl->legend.labels[0], pl->legend.x, pl->legend.y, pl->legend.w, pl->legend.h);
		for (size_t k = 0; pl->vmark_labels && k < L->panels[i].nvmark_labels; k++)
			add(&bs, pl->vmark_labels[k].text, pl->vmark_labels[k].x, pl->vmark_labels[k].y,
			    pl->vmark_labels[k].w, pl->vmark_labels[k].h);
		for (size_t s = 0; s < pl->nseries; s++)
			for (size_t k = 0; k < pl->series[s].nvalues; k++) {
				const struct pdb_text_box *v = &pl->series[s].values[k];
				add(&bs, v->text, v->x, v->y, v->w, v->h);
			}
	}
	*out = bs.b;
	return bs.n;
}
