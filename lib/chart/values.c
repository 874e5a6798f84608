/* Chart layout: the values that points and bars carry, placed where they fit. */
#include "chart/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

#define VALUE_GAP 5.0
#define MAX_VALUES 40

/* Inside the plot, clear of the legend, the other labels and every point's marker. */
static int fits(const struct pdb_chart_panel *p, const struct pdb_panel_layout *pl,
		const struct pdb_text_box *b)
{
	struct pdb_text_box legend = { pl->legend.x, pl->legend.y, pl->legend.w, pl->legend.h, "" };

	if (b->x < pl->left || b->x + b->w > pl->right || b->y < pl->top || b->y + b->h > pl->bottom ||
	    (pl->legend.n > 0 && pdb_chart_boxes_overlap(b, &legend)))
		return 0;
	for (size_t s = 0; s < pl->nseries; s++)
		for (size_t i = 0; (p->series[s].marks & PDB_MARK_POINTS) && i < pl->series[s].n; i++) {
			const struct pdb_series_layout *l = &pl->series[s];
			if (l->px[i] > b->x - 4 && l->px[i] < b->x + b->w + 4 && l->py[i] > b->y - 4 &&
			    l->py[i] < b->y + b->h + 4)
				return 0;
		}
	for (size_t s = 0; s < pl->nseries; s++)
		for (size_t k = 0; k < pl->series[s].nvalues; k++)
			if (pdb_chart_boxes_overlap(b, &pl->series[s].values[k]))
				return 0;
	for (size_t k = 0; pl->vmark_labels && k < p->nvmarks; k++)
		if (*pl->vmark_labels[k].text && pdb_chart_boxes_overlap(b, &pl->vmark_labels[k]))
			return 0;
	return 1;
}

#define VMARK_ROWS 4

void pdb_chart_place_vmark_labels(const struct pdb_chart_panel *p, struct pdb_panel_layout *pl)
{
	struct pdb_text_box legend = { pl->legend.x, pl->legend.y, pl->legend.w, pl->legend.h, "" };

	pl->vmark_labels = pdb_xcalloc(p->nvmarks + 1, sizeof *pl->vmark_labels);
	pl->nvmark_labels = p->nvmarks;
	for (size_t k = 0; k < p->nvmarks; k++) {
		struct pdb_text_box *b = &pl->vmark_labels[k];
		int placed = 0;
		if (!*p->vmarks[k].label)
			continue;
		pdb_chart_fit(b->text, sizeof b->text, p->vmarks[k].label, PDB_FONT_VALUE, 0,
			      (pl->right - pl->left) / 3);
		b->w = pdb_chart_text_width(b->text, PDB_FONT_VALUE);
		b->h = PDB_FONT_VALUE + 2;
		for (int row = 0; row < 2 * VMARK_ROWS && !placed; row++) {
			b->x = row % 2 == 0 ? pl->vmark_px[k] + 3 : pl->vmark_px[k] - 3 - b->w;
			b->y = pl->top + 2 + (row / 2) * (b->h + 1);
			placed = b->x >= pl->left && b->x + b->w <= pl->right &&
				 b->y + b->h <= pl->bottom &&
				 !(pl->legend.n > 0 && pdb_chart_boxes_overlap(b, &legend));
			for (size_t j = 0; placed && j < k; j++)
				placed = !*pl->vmark_labels[j].text ||
					 !pdb_chart_boxes_overlap(b, &pl->vmark_labels[j]);
		}
		if (!placed)
			b->text[0] = '\0'; /* no room: the line's colour says whose it is */
	}
}

static void value_text(const struct pdb_chart_panel *p, const struct pdb_chart_series *se, size_t i,
		       char *out, size_t size)
{
	int bar = (se->marks & PDB_MARK_HBAR) != 0;
	const char *unit = bar ? p->x.unit : p->y.unit;
	double v = bar ? se->x[i] : se->y[i], mag = v != 0 ? pow(10, floor(log10(fabs(v))) - 2) : 1;
	struct pdb_tick t = { .value = round(v / mag) * mag }; /* three significant digits */

	if (bar && unit && strcmp(unit, "%") == 0) { /* a change: signed, as compare prints it */
		pdb_pct_text(v, out, size);
		return;
	}
	pdb_chart_tick_labels(&t, 1, unit ? unit : "", 1, 1);
	snprintf(out, size, "%s", t.label);
}

/* A point's value: above it, else below, each centred or moved along to
 * stay in the plot (the last point of a line at the plot's right edge),
 * else left or right of it; 0 when none of these places fits. */
static int beside_point(const struct pdb_chart_panel *p, const struct pdb_panel_layout *pl,
			const struct pdb_series_layout *l, size_t i, struct pdb_text_box *b)
{
	double above = l->py[i] - VALUE_GAP - b->h, below = l->py[i] + VALUE_GAP;
	double centre = l->px[i] - b->w / 2, inside = centre;
	const double place[][2] = {
		{ centre, above }, { centre, below }, { 0, above }, { 0, below },
		{ l->px[i] - VALUE_GAP - b->w, l->py[i] - b->h / 2 },
		{ l->px[i] + VALUE_GAP, l->py[i] - b->h / 2 },
	};

	if (inside + b->w > pl->right)
		inside = pl->right - b->w;
	if (inside < pl->left)
		inside = pl->left;
	for (size_t k = 0; k < sizeof place / sizeof place[0]; k++) {
		b->x = k == 2 || k == 3 ? inside : place[k][0];
		b->y = place[k][1];
		if (fits(p, pl, b))
			return 1;
	}
	return 0;
}

void pdb_chart_place_values(const struct pdb_chart_panel *p, struct pdb_panel_layout *pl,
			    double zero)
{
	for (size_t s = 0; s < p->nseries; s++) {
		const struct pdb_chart_series *se = &p->series[s];
		struct pdb_series_layout *l = &pl->series[s];
		if (!(se->marks & PDB_MARK_VALUES) || l->n != se->n || l->n > MAX_VALUES)
			continue;
		l->values = pdb_xcalloc(l->n ? l->n : 1, sizeof *l->values);
		for (size_t i = 0; i < l->n; i++) {
			struct pdb_text_box *b = &l->values[l->nvalues];
			value_text(p, se, i, b->text, sizeof b->text);
			b->w = pdb_chart_text_width(b->text, PDB_FONT_VALUE);
			b->h = PDB_FONT_VALUE + 2;
			if (se->marks & PDB_MARK_HBAR) {
				/* on the bar's row, beyond its end and interval; else beyond the
				 * other end (the other side of zero) */
				double lo = l->px[i] < zero ? l->px[i] : zero, hi = l->px[i] > zero ? l->px[i] : zero;
				if (l->nband == l->n) {
					lo = l->plo[i] < lo ? l->plo[i] : lo;
					hi = l->phi[i] > hi ? l->phi[i] : hi;
				}
				b->y = l->py[i] - b->h / 2;
				b->x = se->x[i] < 0 ? lo - VALUE_GAP - b->w : hi + VALUE_GAP;
				if (!fits(p, pl, b))
					b->x = se->x[i] < 0 ? hi + VALUE_GAP : lo - VALUE_GAP - b->w;
				if (!fits(p, pl, b)) {
					/* an interval from edge to edge (cut at both, or at one
					 * with no room past its other end): above its line,
					 * past the bar's end */
					b->y = l->py[i] - b->h - VALUE_GAP / 2;
					b->x = se->x[i] < 0 ? l->px[i] - VALUE_GAP - b->w : l->px[i] + VALUE_GAP;
				}
			} else if (!beside_point(p, pl, l, i, b)) {
				continue;
			}
			l->nvalues += fits(p, pl, b);
		}
	}
}
