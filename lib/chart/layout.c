/* Chart layout: axis ranges and ticks, margins and panels, series placement, legend placement. */
#include "chart/layout.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEGEND_ROW 17.0
#define LEGEND_INSET 8.0

size_t pdb_chart_panels_room(int height)
{
	/* the chart's title and margins take about 41 px */
	return height > 41 + PDB_PANEL_ROOM ? (size_t)(height - 41) / PDB_PANEL_ROOM : 1;
}

int pdb_chart_panels_height(size_t n)
{
	return 41 + (int)(n < 200 ? n : 200) * PDB_PANEL_ROOM + 1;
}

/* ---- ranges ---- */

struct range {
	double lo, hi;
	int any;
};

static void range_add(struct range *r, double v, int positive_only)
{
	if (!isfinite(v) || (positive_only && !(v > 0)))
		return;
	if (!r->any || v < r->lo)
		r->lo = v;
	if (!r->any || v > r->hi)
		r->hi = v;
	r->any = 1;
}

static void range_of_values(const double *v, size_t n, struct range *r, int pos)
{
	for (size_t i = 0; v && i < n; i++)
		range_add(r, v[i], pos);
}

/* The data range that goes on the x (is_x) or y axis of a panel. */
static struct range data_range(const struct pdb_chart_panel *p, int is_x, int pos)
{
	struct range r = { 0, 0, 0 };

	for (size_t s = 0; s < p->nseries; s++) {
		const struct pdb_chart_series *se = &p->series[s];
		int hbar = se->marks & PDB_MARK_HBAR;
		if (se->marks & PDB_MARK_CLIP)
			continue;
		if (is_x) {
			range_of_values(se->x, se->n, &r, pos);
			if (hbar) {
				range_of_values(se->lo, se->n, &r, pos);
				range_of_values(se->hi, se->n, &r, pos);
			}
		} else {
			range_of_values(se->y, se->n, &r, pos);
			if (!hbar) {
				range_of_values(se->lo, se->n, &r, pos);
				range_of_values(se->hi, se->n, &r, pos);
			}
		}
	}
	if (is_x)
		for (size_t k = 0; k < p->nvmarks; k++)
			range_add(&r, p->vmarks[k].x, pos);
	else
		range_of_values(p->hmarks, p->nhmarks, &r, pos);
	return r;
}

void pdb_chart_share_y(struct pdb_chart *c, size_t from, size_t to)
{
	struct range all = { 0, 0, 0 };

	for (size_t i = from; i < to; i++) {
		const struct pdb_chart_axis *y = &c->panels[i].y;
		struct range r = data_range(&c->panels[i], 0, y->kind == PDB_AXIS_LOG ||
					    y->kind == PDB_AXIS_LOG2);
		if (r.any) {
			range_add(&all, r.lo, 0);
			range_add(&all, r.hi, 0);
		}
	}
	for (size_t i = from; i < to && all.any; i++) {
		c->panels[i].y.reach_lo = all.lo;
		c->panels[i].y.reach_hi = all.hi;
	}
}

/* v, or the largest finite double of its sign when v overflowed. */
static double clamp_finite(double v)
{
	return v > DBL_MAX ? DBL_MAX : v < -DBL_MAX ? -DBL_MAX : v;
}

static double to_axis(const struct pdb_axis_layout *a, double v)
{
	switch (a->kind) {
	case PDB_AXIS_LOG:
		return v > 0 ? log10(v) : NAN;
	case PDB_AXIS_LOG2:
		return v > 0 ? log2(v) : NAN;
	case PDB_AXIS_NINES:
		return v >= 100 ? a->max_at : pdb_chart_nines(v);
	default:
		return v;
	}
}

/* The share of the axis at t: in halves when the span -DBL_MAX..DBL_MAX
 * is past DBL_MAX (halving is exact, so the share is the same). */
static double axis_share(const struct pdb_axis_layout *a, double t)
{
	if (isfinite(a->hi - a->lo))
		return (t - a->lo) / (a->hi - a->lo);
	return (t / 2 - a->lo / 2) / (a->hi / 2 - a->lo / 2);
}

static double to_px(const struct pdb_axis_layout *a, double v)
{
	return a->px_lo + axis_share(a, to_axis(a, v)) * (a->px_hi - a->px_lo);
}

double pdb_chart_axis_px(const struct pdb_axis_layout *a, double v)
{
	return to_px(a, v);
}

static void add_tick(struct pdb_axis_layout *a, double value, const char *label)
{
	if (!isfinite(value)) /* 10^309, 2^1024: past DBL_MAX, no place on the axis */
		return;
	a->ticks = pdb_xrealloc(a->ticks, (a->nticks + 1) * sizeof *a->ticks);
	a->ticks[a->nticks].value = value;
	a->ticks[a->nticks].px = 0;
	/* a category's name may be longer than the label holds: cut whole characters */
	pdb_utf8_copy(a->ticks[a->nticks].label, sizeof a->ticks[0].label, label ? label : "");
	a->nticks++;
}

static void axis_title(char *out, size_t size, const char *title, const char *unit)
{
	char *t;

	if (!unit || !*unit || strcmp(unit, "s") == 0 || strcmp(unit, "%") == 0 ||
	    strcmp(unit, "B") == 0) /* the ticks say it */
		t = pdb_xstrdup(title ? title : "");
	else
		t = pdb_xasprintf("%s (%s)", title ? title : "", unit);
	pdb_utf8_copy(out, size, t); /* a long metric name or unit: whole characters */
	free(t);
}

/* Ticks at the multiples of step in lo..hi (a->lo..a->hi in the shown
 * units), labelled in unit. */
static void linear_ticks(struct pdb_axis_layout *a, double lo, double hi, const char *unit,
			 double step)
{
	double v[PDB_MAX_TICKS];
	size_t n = pdb_chart_tick_values(lo, hi, &step, v, PDB_MAX_TICKS);

	for (size_t i = 0; i < n; i++)
		add_tick(a, v[i], NULL);
	pdb_chart_tick_labels(a->ticks, a->nticks, unit, 0, step);
}

static void log_ticks(struct pdb_axis_layout *a, const char *unit)
{
	int decades = (int)lround(a->hi - a->lo);
	/* 5e-324..1.8e308 spans 633 decades: every how many of them a tick goes */
	int every = decades / PDB_MAX_TICKS + 1;

	for (int e = (int)lround(a->lo); e <= (int)lround(a->hi); e += every) {
		static const double mult[] = { 1, 2, 5 };
		for (int m = 0; m < (decades <= 2 ? 3 : 1); m++)
			if (e + log10(mult[m]) <= a->hi + 1e-9 && mult[m] * pow(10, e) > 0)
				add_tick(a, mult[m] * pow(10, e), NULL);
	}
	pdb_chart_tick_labels(a->ticks, a->nticks, unit, 1, 1);
}

static void nines_ticks(struct pdb_axis_layout *a, double tmin, int has_max)
{
	static const double ps[] = { 0, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 99.999, 99.9999, 99.99999 };

	for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
		double t = pdb_chart_nines(ps[i]);
		char label[32];
		if (t < tmin - 1e-9 || t > a->max_at - 0.5)
			continue;
		snprintf(label, sizeof label, "%g%%", ps[i]);
		add_tick(a, ps[i], ps[i] == 0 ? "min" : label);
	}
	if (has_max)
		add_tick(a, 100, "max");
}

static void category_ticks(struct pdb_axis_layout *a, const struct pdb_chart_axis *def,
			   double len, int is_x)
{
	double widest = 0, per = len / (def->ncategories ? (double)def->ncategories : 1);
	size_t every;

	for (size_t i = 0; i < def->ncategories; i++) {
		double w = pdb_chart_text_width(def->categories[i], PDB_FONT_TICK);
		if (w > widest)
			widest = w;
	}
	if (is_x)
		every = (size_t)ceil((widest + 12) / per);
	else
		every = (size_t)ceil((PDB_FONT_TICK + 3) / per);
	if (every < 1)
		every = 1;
	for (size_t i = 0; i < def->ncategories; i += every)
		add_tick(a, (double)i, def->categories[i]);
}

/* Range and tick values of one axis; len is its length in pixels. */
static void axis_compute(const struct pdb_chart_panel *p, int is_x, double len,
			 struct pdb_axis_layout *a)
{
	const struct pdb_chart_axis *def = is_x ? &p->x : &p->y;
	int target = (int)(len / (is_x ? 100.0 : 48.0));
	struct range r;

	if (target < 3)
		target = 3;
	if (target > (is_x ? 12 : 9))
		target = is_x ? 12 : 9;
	memset(a, 0, sizeof *a);
	a->kind = def->kind;
	a->present = 1;
	axis_title(a->title, sizeof a->title, def->title, def->unit);
	r = data_range(p, is_x, def->kind == PDB_AXIS_LOG || def->kind == PDB_AXIS_LOG2);
	range_add(&r, def->reach_lo, def->kind == PDB_AXIS_LOG || def->kind == PDB_AXIS_LOG2);
	range_add(&r, def->reach_hi, def->kind == PDB_AXIS_LOG || def->kind == PDB_AXIS_LOG2);
	if (!r.any) { /* log axes have no place for 0: log2(0) is -inf */
		int log = def->kind == PDB_AXIS_LOG || def->kind == PDB_AXIS_LOG2;
		r.lo = log ? 1 : 0;
		r.hi = log ? 10 : 1;
	}
	if (isfinite(def->min))
		r.lo = def->min;
	if (isfinite(def->max))
		r.hi = def->max;
	switch (def->kind) {
	case PDB_AXIS_LOG:
		a->lo = floor(log10(r.lo) + 1e-9);
		a->hi = ceil(log10(r.hi) - 1e-9);
		if (!isfinite(a->lo) || !isfinite(a->hi)) /* a forced end not above 0 */
			a->lo = 0, a->hi = 1;
		if (a->hi <= a->lo)
			a->hi = a->lo + 1;
		log_ticks(a, def->unit);
		break;
	case PDB_AXIS_LOG2:
		/* a quarter of a doubling of room either side */
		a->lo = log2(r.lo) - 0.25;
		a->hi = log2(r.hi) + 0.25;
		if (!isfinite(a->lo) || !isfinite(a->hi)) /* a forced end not above 0 */
			a->lo = -0.25, a->hi = 0.25;
		for (double e = ceil(a->lo); e <= a->hi; e += floor((a->hi - a->lo) / PDB_MAX_TICKS) + 1) {
			char label[32];
			snprintf(label, sizeof label, "%g", pow(2, e));
			add_tick(a, pow(2, e), label);
		}
		break;
	case PDB_AXIS_NINES: {
		double tmax = 0, tmin = r.any ? pdb_chart_nines(r.lo < 100 ? r.lo : 50) : 0;
		int has_max = r.any && r.hi >= 100;
		for (size_t s = 0; s < p->nseries; s++)
			for (size_t i = 0; i < p->series[s].n; i++)
				if (p->series[s].x[i] < 100 && pdb_chart_nines(p->series[s].x[i]) > tmax)
					tmax = pdb_chart_nines(p->series[s].x[i]);
		a->max_at = floor(tmax + 1e-9) + 1;
		a->lo = tmin - 0.04 * (a->max_at - tmin);
		a->hi = (has_max ? a->max_at : tmax) + 0.04 * (a->max_at - tmin);
		nines_ticks(a, tmin, has_max);
		break;
	}
	case PDB_AXIS_CATEGORY:
		a->lo = -0.5;
		a->hi = (double)(def->ncategories ? def->ncategories : 1) - 0.5;
		category_ticks(a, def, len, is_x);
		break;
	default: {
		double step, scale;
		if (def->include_zero) {
			if (r.lo > 0)
				r.lo = 0;
			if (r.hi < 0)
				r.hi = 0;
		}
		/* bytes get ticks nice in the binary unit they are labelled in */
		scale = def->unit && strcmp(def->unit, "B") == 0
			? pdb_chart_bytes_scale(fmax(fabs(r.lo), fabs(r.hi))) : 1;
		a->lo = r.lo / scale;
		a->hi = r.hi / scale;
		if (isfinite(def->min) && isfinite(def->max) && def->max > def->min)
			step = pdb_chart_nice_step(a->hi - a->lo, target);
		else
			step = pdb_chart_nice_range(&a->lo, &a->hi, target);
		/* rounded out in KiB..TiB, the ends may pass DBL_MAX back in bytes */
		a->lo = clamp_finite(a->lo * scale);
		a->hi = clamp_finite(a->hi * scale);
		step = clamp_finite(step * scale);
		if (def->integer && step < 1) {
			step = 1;
			a->lo = floor(a->lo);
			a->hi = ceil(a->hi);
		}
		linear_ticks(a, a->lo, a->hi, def->unit, step);
		break;
	}
	}
}

/* The right-hand axis: y * scale, with its own nice ticks. */
static void axis2_compute(const struct pdb_chart_axis *def, const struct pdb_axis_layout *y,
			  double len, struct pdb_axis_layout *a)
{
	double lo = y->lo * def->scale2, hi = y->hi * def->scale2, step;
	int target = (int)(len / 48.0);

	memset(a, 0, sizeof *a);
	if (!(def->scale2 > 0) || y->kind != PDB_AXIS_LINEAR)
		return;
	a->present = 1;
	a->kind = PDB_AXIS_LINEAR;
	a->scale = def->scale2;
	a->lo = y->lo;
	a->hi = y->hi;
	axis_title(a->title, sizeof a->title, def->title2, def->unit2);
	step = pdb_chart_nice_step(hi - lo, target < 3 ? 3 : target > 9 ? 9 : target);
	linear_ticks(a, lo, hi, def->unit2 ? def->unit2 : "", step);
}

static void axis_place(struct pdb_axis_layout *a, double px_lo, double px_hi)
{
	a->px_lo = px_lo;
	a->px_hi = px_hi;
	for (size_t i = 0; i < a->nticks; i++)
		a->ticks[i].px = to_px(a, a->scale > 0 ? a->ticks[i].value / a->scale : a->ticks[i].value);
}

/* Whether ticks i and k would have their labels touch. */
static int ticks_crowd(const struct pdb_axis_layout *a, size_t i, size_t k, int is_x)
{
	double d = fabs(a->ticks[k].px - a->ticks[i].px);

	if (!is_x)
		return d < PDB_FONT_TICK * 1.3;
	return d < (pdb_chart_text_width(a->ticks[i].label, PDB_FONT_TICK) +
		    pdb_chart_text_width(a->ticks[k].label, PDB_FONT_TICK)) / 2 + 6;
}

/* The in-between percentiles of a nines axis (min, 25, 75, 95 %) give way first. */
static int minor_tick(const struct pdb_axis_layout *a, size_t i)
{
	double v = a->ticks[i].value;

	return a->kind == PDB_AXIS_NINES && (v == 0 || v == 25 || v == 75 || v == 95);
}

static void drop_tick(struct pdb_axis_layout *a, size_t i)
{
	memmove(a->ticks + i, a->ticks + i + 1, (a->nticks - i - 1) * sizeof *a->ticks);
	a->nticks--;
}

/* Ticks whose labels would touch: the minor ones go, then every later one
 * that crowds the last kept. */
static void thin_ticks(struct pdb_axis_layout *a, int is_x)
{
	for (size_t i = 0; i < a->nticks; i++)
		if (minor_tick(a, i) && ((i > 0 && ticks_crowd(a, i - 1, i, is_x)) ||
					 (i + 1 < a->nticks && ticks_crowd(a, i, i + 1, is_x))))
			drop_tick(a, i--);
	for (size_t i = 1; i < a->nticks; i++)
		if (ticks_crowd(a, i - 1, i, is_x))
			drop_tick(a, i--);
}

/* An x tick whose label, centred on it, would leave the canvas of width
 * (the last of a wide axis: "1000%" at the right edge) is left out. */
static void ticks_on_canvas(struct pdb_axis_layout *a, double width)
{
	for (size_t i = 0; i < a->nticks; i++) {
		double half = pdb_chart_text_width(a->ticks[i].label, PDB_FONT_TICK) / 2;
		if (a->ticks[i].px - half < 0 || a->ticks[i].px + half > width)
			drop_tick(a, i--);
	}
}

static double widest_label(const struct pdb_axis_layout *a)
{
	double w = 0;

	for (size_t i = 0; i < a->nticks; i++) {
		double t = pdb_chart_text_width(a->ticks[i].label, PDB_FONT_TICK);
		if (t > w)
			w = t;
	}
	return w;
}

static void axis_release(struct pdb_axis_layout *a)
{
	free(a->ticks);
	a->ticks = NULL;
	a->nticks = 0;
}

/* ---- series placement ---- */

static int sorted(const double *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (!(v[i] >= v[i - 1]))
			return 0;
	return 1;
}

/* A band reduced per pixel column: its widest extent in each column. */
static size_t band_reduce(double *bx, double *plo, double *phi, size_t n)
{
	size_t out = 0;

	for (size_t i = 0; i < n;) {
		double col = floor(bx[i]), lo = plo[i], hi = phi[i];
		size_t j = i;
		for (; j < n && floor(bx[j]) == col; j++) {
			if (plo[j] > lo)
				lo = plo[j];
			if (phi[j] < hi)
				hi = phi[j];
		}
		bx[out] = bx[i];
		plo[out] = lo;
		phi[out] = hi;
		out++;
		i = j;
	}
	return out;
}

static void place_series(const struct pdb_chart_series *se, const struct pdb_axis_layout *x,
			 const struct pdb_axis_layout *y, double width, struct pdb_series_layout *l)
{
	int hbar = se->marks & PDB_MARK_HBAR;
	double *px = pdb_xmalloc((se->n ? se->n : 1) * sizeof *px);
	double *py = pdb_xmalloc((se->n ? se->n : 1) * sizeof *py);
	size_t m = 0;

	memset(l, 0, sizeof *l);
	l->n_in = se->n;
	for (size_t i = 0; i < se->n; i++) {
		double a = to_px(x, se->x[i]), b = to_px(y, se->y[i]);
		if (!isfinite(a) || !isfinite(b))
			continue;
		px[m] = a;
		py[m] = b;
		m++;
	}
	l->n_undrawn = se->n - m;
	l->px = pdb_xmalloc((m ? m : 1) * sizeof *l->px);
	l->py = pdb_xmalloc((m ? m : 1) * sizeof *l->py);
	if (!hbar && m > 2 * (size_t)width && sorted(px, m)) {
		l->n = pdb_chart_reduce(px, py, m, l->px, l->py);
		l->reduced = 1;
	} else {
		memcpy(l->px, px, m * sizeof *px);
		memcpy(l->py, py, m * sizeof *py);
		l->n = m;
	}
	free(px);
	free(py);
	if (!se->lo || !se->hi)
		return;
	l->bx = pdb_xmalloc((se->n ? se->n : 1) * sizeof *l->bx);
	l->plo = pdb_xmalloc((se->n ? se->n : 1) * sizeof *l->plo);
	l->phi = pdb_xmalloc((se->n ? se->n : 1) * sizeof *l->phi);
	if (hbar && (se->marks & PDB_MARK_CUT))
		l->cut = pdb_xcalloc(se->n ? se->n : 1, 1);
	for (size_t i = 0; i < se->n; i++) {
		double a, b, c;
		if (hbar) {
			a = to_px(y, se->y[i]);
			b = to_px(x, se->lo[i]);
			c = to_px(x, se->hi[i]);
		} else {
			a = to_px(x, se->x[i]);
			b = to_px(y, se->lo[i]);
			c = to_px(y, se->hi[i]);
		}
		if (!isfinite(a) || !isfinite(b) || !isfinite(c))
			continue;
		l->bx[l->nband] = a;
		l->plo[l->nband] = b;
		l->phi[l->nband] = c;
		if (l->cut)
			l->cut[l->nband] = (se->lo[i] <= -se->cut ? 1 : 0) | (se->hi[i] >= se->cut ? 2 : 0);
		l->nband++;
	}
	if (!hbar && l->nband > 2 * (size_t)width && sorted(l->bx, l->nband))
		l->nband = band_reduce(l->bx, l->plo, l->phi, l->nband);
}

static void series_release(struct pdb_series_layout *l)
{
	free(l->values);
	free(l->px);
	free(l->py);
	free(l->bx);
	free(l->cut);
	free(l->plo);
	free(l->phi);
}

/* ---- legend ---- */

static int in_rect(double x, double y, double x0, double y0, double x1, double y1)
{
	return x >= x0 && x <= x1 && y >= y0 && y <= y1;
}

/* Does the segment (ax,ay)-(bx,by) meet the rectangle? (Liang–Barsky) */
static int segment_hits(double ax, double ay, double bx, double by,
			double x0, double y0, double x1, double y1)
{
	double p[4] = { -(bx - ax), bx - ax, -(by - ay), by - ay };
	double q[4] = { ax - x0, x1 - ax, ay - y0, y1 - ay };
	double t0 = 0, t1 = 1;

	for (int i = 0; i < 4; i++) {
		if (p[i] == 0) {
			if (q[i] < 0)
				return 0;
			continue;
		}
		double t = q[i] / p[i];
		if (p[i] < 0 && t > t0)
			t0 = t;
		else if (p[i] > 0 && t < t1)
			t1 = t;
		if (t0 > t1)
			return 0;
	}
	return 1;
}

/* How much of the panel's data a legend box at (x0,y0)-(x1,y1) would cover. */
static size_t legend_cover(const struct pdb_chart_panel *p, const struct pdb_panel_layout *pl,
			   double x0, double y0, double x1, double y1)
{
	size_t hits = 0;

	for (size_t s = 0; s < pl->nseries; s++) {
		const struct pdb_series_layout *l = &pl->series[s];
		int marks = p->series[s].marks;
		for (size_t i = 0; i < l->n; i++) {
			if (in_rect(l->px[i], l->py[i], x0 - 4, y0 - 4, x1 + 4, y1 + 4))
				hits++;
			else if ((marks & PDB_MARK_LINE) && i > 0 &&
				 segment_hits(l->px[i - 1], l->py[i - 1], l->px[i], l->py[i],
					      x0, y0, x1, y1))
				hits++;
			if ((marks & PDB_MARK_HBAR) &&
			    segment_hits(to_px(&pl->x, 0), l->py[i], l->px[i], l->py[i], x0, y0, x1, y1))
				hits++;
		}
		for (size_t i = 0; (marks & PDB_MARK_BAND) && i < l->nband; i++)
			if (segment_hits(l->bx[i], l->plo[i], l->bx[i], l->phi[i], x0, y0, x1, y1))
				hits++;
		/* a bar's interval is a horizontal whisker at its row */
		for (size_t i = 0; (marks & PDB_MARK_HBAR) && i < l->nband; i++)
			if (segment_hits(l->plo[i], l->bx[i], l->phi[i], l->bx[i], x0, y0, x1, y1))
				hits++;
	}
	return hits;
}

/* The legend's width: its widest label and the swatch, at most max. */
static double legend_width(const struct pdb_chart_panel *p, double max)
{
	double w = 0;

	for (size_t s = 0; s < p->nseries; s++) {
		double t = p->series[s].label ? pdb_chart_text_width(p->series[s].label, PDB_FONT_LEGEND) : 0;
		if (t > w)
			w = t;
	}
	w = w > 0 ? w + 48 : 0;
	return w > max ? max : w;
}

/* The entries of the legend of width w: the labelled series, their labels cut to fit. */
static void legend_entries(const struct pdb_chart_panel *p, struct pdb_legend_layout *lg, double w)
{
	lg->series = pdb_xcalloc(p->nseries ? p->nseries : 1, sizeof *lg->series);
	lg->labels = pdb_xcalloc(p->nseries ? p->nseries : 1, sizeof *lg->labels);
	for (size_t s = 0; s < p->nseries; s++)
		if (p->series[s].label) {
			char fitted[512];
			pdb_chart_fit(fitted, sizeof fitted, p->series[s].label, PDB_FONT_LEGEND, 0, w - 40);
			lg->labels[lg->n] = pdb_xstrdup(fitted);
			lg->series[lg->n++] = s;
		}
	lg->w = w;
	lg->h = 8 + LEGEND_ROW * (double)lg->n;
}

/* An outside legend taller than room: its first entries, and a last row
 * "and N more" for the rest (drawn, not named), so that it never reaches
 * the panel below. */
static void legend_cap(struct pdb_legend_layout *lg, double room)
{
	size_t rows = room > 8 + LEGEND_ROW ? (size_t)((room - 8) / LEGEND_ROW) : 1;

	if (lg->n <= rows)
		return;
	if (rows < 2)
		rows = 2; /* one entry and the count */
	for (size_t k = rows - 1; k < lg->n; k++)
		free(lg->labels[k]);
	lg->more = lg->n - (rows - 1);
	lg->n = rows - 1;
	lg->h = 8 + LEGEND_ROW * (double)rows;
}

/* Put the legend in the corner where it covers least: LEGEND_COVERS when
 * every corner covers data, LEGEND_TOO_BIG when it does not fit the plot
 * (the caller then moves it outside), else 0. */
enum { LEGEND_COVERS = 1, LEGEND_TOO_BIG = 2 };

static int legend_place(const struct pdb_chart_panel *p, struct pdb_panel_layout *pl)
{
	static const char *const names[] = { "top-right", "top-left", "bottom-right", "bottom-left" };
	struct pdb_legend_layout *lg = &pl->legend;
	size_t best = (size_t)-1;

	legend_entries(p, lg, legend_width(p, pl->right - pl->left - 2 * LEGEND_INSET));
	if (lg->n == 0)
		return 0;
	for (int c = 0; c < 4; c++) {
		double x = c % 2 == 0 ? pl->right - LEGEND_INSET - lg->w : pl->left + LEGEND_INSET;
		double y = c < 2 ? pl->top + LEGEND_INSET : pl->bottom - LEGEND_INSET - lg->h;
		size_t cover = legend_cover(p, pl, x, y, x + lg->w, y + lg->h);
		if (cover < best) {
			best = cover;
			lg->x = x;
			lg->y = y;
			lg->where = names[c];
		}
	}
	if (lg->h + 2 * LEGEND_INSET > pl->bottom - pl->top ||
	    lg->w + 2 * LEGEND_INSET > pl->right - pl->left)
		return LEGEND_TOO_BIG;
	return best > 0 ? LEGEND_COVERS : 0;
}

/* ---- the whole chart ---- */

static double panel_top_extra(const struct pdb_chart_panel *p)
{
	return p->title ? 24 : 10;
}

static double panel_bottom_extra(const struct pdb_chart_panel *p)
{
	return 8 + PDB_FONT_TICK + 4 + (p->x.title && *p->x.title ? PDB_FONT_AXIS + 12 : 0) + 6;
}

static void layout_release_panels(struct pdb_chart_layout *L)
{
	for (size_t i = 0; i < L->npanels; i++) {
		struct pdb_panel_layout *pl = &L->panels[i];
		axis_release(&pl->x);
		axis_release(&pl->y);
		axis_release(&pl->y2);
		for (size_t s = 0; s < pl->nseries; s++)
			series_release(&pl->series[s]);
		free(pl->series);
		free(pl->vmark_px);
		free(pl->vmark_labels);
		free(pl->hmark_px);
		free(pl->legend.series);
		for (size_t k = 0; k < pl->legend.n; k++)
			free(pl->legend.labels[k]);
		free(pl->legend.labels);
	}
	free(L->panels);
	L->panels = NULL;
}

/* Tick labels of the y axis cut to the left margin, axis titles to their sides. */
static void fit_axis_texts(struct pdb_panel_layout *pl)
{
	double room = pl->left - (30 + PDB_FONT_AXIS) + 0.5;

	for (size_t i = 0; i < pl->y.nticks; i++)
		pdb_chart_fit(pl->y.ticks[i].label, sizeof pl->y.ticks[i].label, pl->y.ticks[i].label,
			      PDB_FONT_TICK, 0, room);
	pdb_chart_fit(pl->x.title, sizeof pl->x.title, pl->x.title, PDB_FONT_AXIS, 0, pl->right - pl->left);
	pdb_chart_fit(pl->y.title, sizeof pl->y.title, pl->y.title, PDB_FONT_AXIS, 0, pl->bottom - pl->top);
	pdb_chart_fit(pl->y2.title, sizeof pl->y2.title, pl->y2.title, PDB_FONT_AXIS, 0,
		      pl->bottom - pl->top);
}

/* One pass; legend_outside reserves room on the right for the legends.
 * Returns what legend_place said of the legends inside (or'ed). */
static int layout_pass(const struct pdb_chart *c, struct pdb_chart_layout *L, int legend_outside)
{
	double top = 10 + (c->title && *c->title ? PDB_FONT_TITLE + 14 : 0) +
		     (c->subtitle && *c->subtitle ? PDB_FONT_SUBTITLE + 6 : 0);
	double avail = c->height - top - 6, weights = 0, left = 0, right_extra = 0, y2w = 0, y;
	double legend_max = c->width * 0.4;
	int collide = 0;

	L->width = c->width;
	L->height = c->height;
	pdb_chart_fit(L->title, sizeof L->title, c->title ? c->title : "", PDB_FONT_TITLE, 1,
		      c->width - 20);
	pdb_chart_fit(L->subtitle, sizeof L->subtitle, c->subtitle ? c->subtitle : "",
		      PDB_FONT_SUBTITLE, 0, c->width - 20);
	L->npanels = c->npanels;
	L->panels = pdb_xcalloc(c->npanels ? c->npanels : 1, sizeof *L->panels);
	for (size_t i = 0; i < c->npanels; i++) {
		avail -= panel_top_extra(&c->panels[i]) + panel_bottom_extra(&c->panels[i]);
		weights += c->panels[i].weight > 0 ? c->panels[i].weight : 1;
	}
	/* y axes first: their labels decide the left margin */
	for (size_t i = 0; i < c->npanels; i++) {
		const struct pdb_chart_panel *p = &c->panels[i];
		struct pdb_panel_layout *pl = &L->panels[i];
		double h = avail * (p->weight > 0 ? p->weight : 1) / weights, w;
		axis_compute(p, 0, h, &pl->y);
		axis2_compute(&p->y, &pl->y, h, &pl->y2);
		w = 14 + PDB_FONT_AXIS + 8 + widest_label(&pl->y) + 8;
		if (w > left)
			left = w;
		if (pl->y2.present) {
			w = 8 + widest_label(&pl->y2) + 8 + PDB_FONT_AXIS + 14;
			if (w > y2w)
				y2w = w;
		}
	}
	right_extra = y2w;
	for (size_t i = 0; legend_outside && i < c->npanels; i++) {
		double w = legend_width(&c->panels[i], legend_max);
		/* beside the right-hand axis, not on it */
		if ((L->panels[i].y2.present ? y2w : 8) + w + 16 > right_extra)
			right_extra = (L->panels[i].y2.present ? y2w : 8) + w + 16;
	}
	if (left > c->width * 0.45)
		left = c->width * 0.45;
	y = top;
	for (size_t i = 0; i < c->npanels; i++) {
		const struct pdb_chart_panel *p = &c->panels[i];
		struct pdb_panel_layout *pl = &L->panels[i];
		double h = avail * (p->weight > 0 ? p->weight : 1) / weights;
		int ycat = p->y.kind == PDB_AXIS_CATEGORY;

		pl->left = left;
		pl->right = c->width - 18 - right_extra;
		pdb_chart_fit(pl->title, sizeof pl->title, p->title ? p->title : "", PDB_FONT_PANEL, 1,
			      c->width - pl->left - 10);
		pl->top = y + panel_top_extra(p);
		pl->bottom = pl->top + h;
		y = pl->bottom + panel_bottom_extra(p);
		axis_compute(p, 1, pl->right - pl->left, &pl->x);
		axis_place(&pl->x, pl->left, pl->right);
		axis_place(&pl->y, ycat ? pl->top : pl->bottom, ycat ? pl->bottom : pl->top);
		if (pl->y2.present)
			axis_place(&pl->y2, pl->bottom, pl->top);
		thin_ticks(&pl->x, 1);
		ticks_on_canvas(&pl->x, c->width);
		thin_ticks(&pl->y, 0);
		thin_ticks(&pl->y2, 0);
		pl->nseries = p->nseries;
		pl->series = pdb_xcalloc(p->nseries ? p->nseries : 1, sizeof *pl->series);
		for (size_t s = 0; s < p->nseries; s++)
			place_series(&p->series[s], &pl->x, &pl->y, pl->right - pl->left, &pl->series[s]);
		pl->vmark_px = pdb_xcalloc(p->nvmarks + 1, sizeof *pl->vmark_px);
		for (size_t k = 0; k < p->nvmarks; k++)
			pl->vmark_px[k] = to_px(&pl->x, p->vmarks[k].x);
		pl->hmark_px = pdb_xcalloc(p->nhmarks + 1, sizeof *pl->hmark_px);
		for (size_t k = 0; k < p->nhmarks; k++)
			pl->hmark_px[k] = to_px(&pl->y, p->hmarks[k]);
		if (legend_outside) {
			legend_entries(p, &pl->legend, legend_width(p, legend_max));
			pl->legend.x = pl->right + (pl->y2.present ? y2w : 24); /* clear of the last x label */
			pl->legend.y = pl->top;
			pl->legend.where = "outside";
			legend_cap(&pl->legend, pl->bottom - pl->top + panel_bottom_extra(p));
		} else {
			collide |= legend_place(p, pl);
		}
		fit_axis_texts(pl);
		pdb_chart_place_vmark_labels(p, pl);
		pdb_chart_place_values(p, pl, to_px(&pl->x, 0));
	}
	return collide;
}

struct pdb_chart_layout *pdb_chart_layout(const struct pdb_chart *c)
{
	struct pdb_chart_layout *L = pdb_xcalloc(1, sizeof *L);

	/* legends that would cover data go outside, unless that leaves the
	 * plots less than 55 % of the width (then the least covered corner);
	 * legends too big for their plot go outside */
	int inside = layout_pass(c, L, 0);

	if (inside) {
		layout_release_panels(L);
		layout_pass(c, L, 1);
		if (!(inside & LEGEND_TOO_BIG) && L->npanels > 0 &&
		    L->panels[0].right - L->panels[0].left < 0.55 * c->width) {
			layout_release_panels(L);
			layout_pass(c, L, 0);
		}
	}
	return L;
}

void pdb_chart_layout_free(struct pdb_chart_layout *L)
{
	if (!L)
		return;
	layout_release_panels(L);
	free(L);
}
