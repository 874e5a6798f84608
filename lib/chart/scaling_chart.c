/* Chart kinds: the scaling chart — lines against vCPUs, the ideal line, USL fits, efficiency. */
#include "chart/kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/layout.h"
#include "util.h"

#define MAX_PANEL_LINES 6
#define USL_POINTS 60

static char *line_key(const struct pdb_scaling *s, const struct pdb_scaling_line *ln)
{
	return pdb_xasprintf("%s%s%s%s %s", s->benchmark, *ln->label ? " [" : "", ln->label,
			     *ln->label ? "]" : "", s->metric);
}

/* Counts in powers of two (three or more of them): a log2 axis spaces them evenly. */
static int powers_of_two(const struct pdb_scaling *s)
{
	double seen[3];
	size_t nseen = 0;

	for (size_t l = 0; l < s->nlines; l++)
		for (size_t i = 0; i < s->lines[l].n; i++) {
			double v = s->lines[l].rows[i].vcpus, e = round(log2(v));
			size_t k = 0;
			if (fabs(v - pow(2, e)) > 1e-9)
				return 0;
			while (k < nseen && seen[k] != v)
				k++;
			if (k == nseen && nseen < 3)
				seen[nseen++] = v;
		}
	return nseen >= 3;
}

/* Where the dashed extrapolation of a fit ends: at N* when it lies past the
 * last count and within half as much again, else 1.5 x the last count. */
static double usl_end(const struct pdb_scaling_line *ln)
{
	double last = ln->rows[ln->n - 1].vcpus, end = 1.5 * last;

	if (isfinite(ln->usl.peak_n) && ln->usl.peak_n > last && ln->usl.peak_n < end)
		end = ln->usl.peak_n;
	return end;
}

static void usl_piece(struct pdb_chart_panel *p, const struct pdb_scaling_line *ln, double from,
		      double to, int logx, const char *label, int marks)
{
	double x[USL_POINTS], y[USL_POINTS];

	for (int i = 0; i < USL_POINTS; i++) {
		double t = i / (USL_POINTS - 1.0);
		x[i] = logx ? from * pow(to / from, t) : from + (to - from) * t;
		y[i] = pdb_usl_eval(&ln->usl, x[i]);
	}
	pdb_chart_add_series(p, label, marks, PDB_COLOR_VERMILLION, x, y, NULL, NULL, USL_POINTS);
}

/* The fit: solid over the measured counts, dashed beyond (labelled so). */
static void usl_curve(struct pdb_chart_panel *p, const struct pdb_scaling_line *ln, int logx)
{
	double first = ln->rows[0].vcpus, last = ln->rows[ln->n - 1].vcpus, end = usl_end(ln);
	char label[160];

	if (isfinite(ln->usl.peak_n))
		snprintf(label, sizeof label, "USL fit: σ=%.3g κ=%.3g, peak at N*=%.3g",
			 ln->usl.sigma, ln->usl.kappa, ln->usl.peak_n);
	else
		snprintf(label, sizeof label, "USL fit: σ=%.3g κ=0, no peak", ln->usl.sigma);
	usl_piece(p, ln, first, last, logx, label, PDB_MARK_LINE);
	snprintf(label, sizeof label, "USL extrapolated to %g vCPUs", round(end * 10) / 10);
	usl_piece(p, ln, last, end, logx, label, PDB_MARK_LINE | PDB_MARK_DASHED);
}

static void rows_xy(const struct pdb_scaling_line *ln, double *n, double *x, double *eff)
{
	for (size_t i = 0; i < ln->n; i++) {
		n[i] = ln->rows[i].vcpus;
		x[i] = ln->rows[i].throughput;
		eff[i] = ln->rows[i].efficiency;
	}
}

static struct pdb_chart_series *line_series(struct pdb_chart_panel *p, const struct pdb_scaling *s,
					    const struct pdb_scaling_line *ln, const char *label,
					    int marks, int color, const double *x, const double *y)
{
	struct pdb_chart_series *se = pdb_chart_add_series(p, label, marks, color, x, y, NULL, NULL,
							   ln->n);
	char *key = line_key(s, ln);

	pdb_chart_series_source(se, key);
	free(key);
	return se;
}

/* The baseline's line with the dims of ln, or NULL. */
static const struct pdb_scaling_line *base_line(const struct pdb_scaling *base,
						const struct pdb_scaling_line *ln)
{
	for (size_t i = 0; base && i < base->nlines; i++)
		if (strcmp(base->lines[i].label, ln->label) == 0)
			return &base->lines[i];
	return NULL;
}

/* The baseline's line beside ln: dashed, its throughput or its efficiency. */
static void add_baseline(struct pdb_chart_panel *p, const struct pdb_scaling *base,
			 const struct pdb_scaling_line *ln, const char *label, int color, int efficiency)
{
	const struct pdb_scaling_line *b = base_line(base, ln);
	double *n, *x, *eff;
	char *key;

	if (!b)
		return;
	n = pdb_xmalloc(b->n * sizeof *n);
	x = pdb_xmalloc(b->n * sizeof *x);
	eff = pdb_xmalloc(b->n * sizeof *eff);
	rows_xy(b, n, x, eff);
	key = line_key(base, b);
	pdb_chart_series_source(pdb_chart_add_series(p, label, PDB_MARK_LINE | PDB_MARK_POINTS |
							    PDB_MARK_DASHED, color, n,
						     efficiency ? eff : x, NULL, NULL, b->n),
				key);
	free(key);
	free(n);
	free(x);
	free(eff);
}

/* Room above the highest point for its value: the y axis from 0 to a
 * fifth above it (the first count's 100 % would sit on the plot's top). */
static void headroom(struct pdb_chart_panel *p, const double *y, size_t n)
{
	double top = 0;

	for (size_t i = 0; i < n; i++)
		top = y[i] > top ? y[i] : top;
	if (top > 0 && isfinite(top * 1.2)) {
		p->y.min = 0;
		p->y.max = top * 1.2;
	}
}

/* How far above the highest of the other lines the ideal line may take the
 * y axis: past it, the measured line would be squeezed into a third of the
 * plot, and the ideal line is cut at the plot's top instead. */
#define IDEAL_REACH 3.0

/* The ideal linear line from the first count: a point every step of the x
 * axis (on a log2 axis a straight piece between two counts is not linear). */
static void ideal_line(struct pdb_chart_panel *p, const double *n, const double *x, size_t count,
		       int logx)
{
	double ix[USL_POINTS], iy[USL_POINTS], from = n[0], to = n[count - 1];
	char label[96];

	for (int i = 0; i < USL_POINTS; i++) {
		double t = i / (USL_POINTS - 1.0);
		ix[i] = logx ? from * pow(to / from, t) : from + (to - from) * t;
		iy[i] = x[0] * ix[i] / from;
	}
	snprintf(label, sizeof label, "ideal linear (from %g vCPU%s)", from, from == 1 ? "" : "s");
	pdb_chart_add_series(p, label, PDB_MARK_LINE | PDB_MARK_DASHED | PDB_MARK_CLIP, PDB_COLOR_GREY,
			     ix, iy, NULL, NULL, USL_POINTS);
}

/* The y axis up to the ideal line's end (series 0 of p), so that measured
 * and ideal can be compared, unless that end is more than IDEAL_REACH
 * times the top of the other lines: then it is cut at the plot's top. */
static void ideal_reach(struct pdb_chart_panel *p)
{
	const struct pdb_chart_series *ideal = &p->series[0];
	double end = ideal->y[ideal->n - 1], top = 0;

	for (size_t s = 1; s < p->nseries; s++)
		for (size_t i = 0; i < p->series[s].n; i++)
			if (isfinite(p->series[s].y[i]) && p->series[s].y[i] > top)
				top = p->series[s].y[i];
	if (end > top && top > 0)
		p->y.max = fmin(end, IDEAL_REACH * top);
}

/* One line: ideal, fit, measured (and the baseline's); efficiency, and
 * throughput per vCPU below it. */
static void one_line(struct pdb_chart *c, const struct pdb_scaling *s, const struct pdb_scaling *base,
		     const char *title, int logx)
{
	const struct pdb_scaling_line *ln = &s->lines[0];
	double *n = pdb_xmalloc(ln->n * sizeof *n), *x = pdb_xmalloc(ln->n * sizeof *x);
	double *eff = pdb_xmalloc(ln->n * sizeof *eff);
	struct pdb_chart_panel *p;

	rows_xy(ln, n, x, eff);
	p = pdb_chart_add_panel(c, title, "vCPUs", "", "throughput", s->unit);
	p->weight = 1.7;
	p->y.include_zero = 1;
	ideal_line(p, n, x, ln->n, logx);
	if (ln->has_usl)
		usl_curve(p, ln, logx);
	line_series(p, s, ln, "measured", PDB_MARK_LINE | PDB_MARK_POINTS | PDB_MARK_VALUES,
		    PDB_COLOR_BLUE, n, x);
	add_baseline(p, base, ln, "baseline", PDB_COLOR_PURPLE, 0);
	ideal_reach(p);
	p = pdb_chart_add_panel(c, NULL, "vCPUs", "", "efficiency", "%");
	p->y.include_zero = 1;
	headroom(p, eff, ln->n);
	pdb_chart_add_hmark(p, 100);
	line_series(p, s, ln, "parallel efficiency", PDB_MARK_LINE | PDB_MARK_POINTS | PDB_MARK_VALUES,
		    PDB_COLOR_GREEN, n, eff);
	add_baseline(p, base, ln, NULL, PDB_COLOR_PURPLE, 1);
	/* per vCPU has efficiency's shape (efficiency is it over the first
	 * count's): a panel of its own, in another colour, marker and dash,
	 * so that neither line hides the other */
	for (size_t i = 0; i < ln->n; i++)
		x[i] = ln->rows[i].per_vcpu;
	p = pdb_chart_add_panel(c, NULL, "vCPUs", "", "per vCPU", s->unit);
	p->y.include_zero = 1;
	headroom(p, x, ln->n);
	line_series(p, s, ln, "throughput per vCPU",
		    PDB_MARK_LINE | PDB_MARK_DASHED | PDB_MARK_RING | PDB_MARK_VALUES, PDB_COLOR_ORANGE, n, x);
	free(n);
	free(x);
	free(eff);
}

/* Up to MAX_PANEL_LINES lines: throughput, and their efficiencies below;
 * the baseline's lines dashed beside them. */
static void few_lines(struct pdb_chart *c, const struct pdb_scaling *s, const struct pdb_scaling *base,
		      const char *title)
{
	struct pdb_chart_panel *p = pdb_chart_add_panel(c, title, "vCPUs", "", "throughput", s->unit);

	p->weight = 1.7;
	p->y.include_zero = 1;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			p = pdb_chart_add_panel(c, NULL, "vCPUs", "", "efficiency", "%");
			p->y.include_zero = 1;
			pdb_chart_add_hmark(p, 100);
		}
		for (size_t l = 0; l < s->nlines; l++) {
			const struct pdb_scaling_line *ln = &s->lines[l];
			double *n = pdb_xmalloc(ln->n * sizeof *n), *x = pdb_xmalloc(ln->n * sizeof *x);
			double *eff = pdb_xmalloc(ln->n * sizeof *eff);
			rows_xy(ln, n, x, eff);
			line_series(p, s, ln, pass == 0 ? ln->label : NULL,
				    PDB_MARK_LINE | PDB_MARK_POINTS | (pass == 0 ? PDB_MARK_VALUES : 0),
				    (int)l, n, pass == 0 ? x : eff);
			add_baseline(p, base, ln, NULL, (int)l, pass == 1);
			free(n);
			free(x);
			free(eff);
		}
		if (pass == 0 && base)
			pdb_chart_add_series(p, "dashed: the baseline", PDB_MARK_LINE | PDB_MARK_DASHED,
					     PDB_COLOR_GREY, NULL, NULL, NULL, NULL, 0);
	}
}

/* More lines: small multiples, one panel per value of the first varying dim
 * (or MAX_PANEL_LINES lines a panel when only one dim varies, or when the
 * chart's height holds fewer panels: then as many as it holds), one y range. */
static void small_multiples(struct pdb_chart *c, const struct pdb_scaling *s, const char *why)
{
	size_t room = pdb_chart_panels_room(c->height), groups = 1, per;
	int by_dim = strchr(s->lines[0].label, ',') != NULL;
	double top = 0, lo = 0;
	size_t l = 0;

	for (size_t k = 1; k < s->nlines; k++) {
		size_t glen = strcspn(s->lines[k].label, ",");
		groups += strncmp(s->lines[k].label, s->lines[k - 1].label, glen + 1) != 0;
	}
	if (by_dim && groups > room)
		by_dim = 0;
	per = (s->nlines + room - 1) / room;
	per = per > MAX_PANEL_LINES ? per : MAX_PANEL_LINES;

	while (l < s->nlines) {
		size_t glen = by_dim ? strcspn(s->lines[l].label, ",") : 0, first = l, end = l;
		struct pdb_chart_panel *p;
		char *title;
		while (end < s->nlines && (by_dim ? strncmp(s->lines[end].label, s->lines[first].label, glen + 1) == 0
						  : end - first < per))
			end++;
		title = by_dim ? pdb_xasprintf("%.*s%s%s", (int)glen, s->lines[first].label,
					       c->npanels == 0 ? " · " : "", c->npanels == 0 ? why : "") :
			pdb_xasprintf("lines %zu to %zu of %zu%s%s", first + 1, end, s->nlines,
				      c->npanels == 0 ? " · " : "", c->npanels == 0 ? why : "");
		p = pdb_chart_add_panel(c, title, "vCPUs", "", "throughput", s->unit);
		for (size_t k = first; k < end; k++) {
			const struct pdb_scaling_line *ln = &s->lines[k];
			double *n = pdb_xmalloc(ln->n * sizeof *n), *x = pdb_xmalloc(ln->n * sizeof *x);
			double *eff = pdb_xmalloc(ln->n * sizeof *eff);
			rows_xy(ln, n, x, eff);
			for (size_t i = 0; i < ln->n; i++)
				top = x[i] > top ? x[i] : top;
			line_series(p, s, ln, by_dim ? ln->label + glen + 1 : ln->label,
				    PDB_MARK_LINE | PDB_MARK_POINTS, (int)((k - first) % 8), n, x);
			free(n);
			free(x);
			free(eff);
		}
		free(title);
		l = end;
	}
	pdb_chart_nice_range(&lo, &top, 5);
	for (size_t i = 0; i < c->npanels; i++) {
		c->panels[i].y.min = 0;
		c->panels[i].y.max = top;
	}
}

/* Every panel: one x axis, log2 for powers of two, else linear from the
 * first vCPU count to the last (or the fit's end), not from 0. */
static void x_axes(struct pdb_chart *c, int logx)
{
	double lo = INFINITY, hi = 0;

	for (size_t p = 0; p < c->npanels; p++)
		for (size_t s = 0; s < c->panels[p].nseries; s++)
			for (size_t i = 0; i < c->panels[p].series[s].n; i++) {
				double x = c->panels[p].series[s].x[i];
				if (c->panels[p].series[s].marks & PDB_MARK_CLIP)
					continue;
				hi = x > hi ? x : hi;
				lo = x < lo ? x : lo;
			}
	if (!isfinite(lo) || lo >= hi)
		lo = 0;
	for (size_t p = 0; p < c->npanels; p++) {
		struct pdb_chart_axis *a = &c->panels[p].x;
		if (logx) {
			a->kind = PDB_AXIS_LOG2;
			continue;
		}
		a->min = floor(lo);
		a->max = hi > 1 ? ceil(hi) : hi;
		a->integer = 1;
	}
}

/* The baseline's lines that the chart cannot set beside the candidate's: left out, named. */
static void base_left_out(struct pdb_chart *c, const struct pdb_scaling *s, const struct pdb_scaling *base)
{
	for (size_t i = 0; base && i < base->nlines; i++) {
		const struct pdb_scaling_line *b = &base->lines[i];
		int beside = 0;
		char *key = line_key(base, b);
		for (size_t l = 0; l < s->nlines && s->nlines <= MAX_PANEL_LINES; l++)
			beside |= strcmp(s->lines[l].label, b->label) == 0;
		pdb_chart_select(c);
		if (!beside)
			pdb_chart_skip(c, "baseline %s: %s", key, s->nlines > MAX_PANEL_LINES ?
				       "small multiples draw the candidate only" :
				       "the candidate has no line with these dims");
		free(key);
	}
}

struct pdb_chart *pdb_scaling_chart(const struct pdb_scaling *s, const struct pdb_scaling *base,
				    const struct pdb_plot_opts *opts)
{
	char *title = opts->title ? pdb_xstrdup(opts->title) :
		      pdb_xasprintf("Scaling: %s %s", s->benchmark, s->metric);
	char *panel = pdb_xasprintf("%s (%s)%s%s%s%s", s->metric, s->why,
				    *s->held ? " · held fixed: " : "", s->held,
				    *s->follows ? " · following vCPUs: " : "", s->follows);
	struct pdb_chart *c = pdb_chart_new("scaling", title, opts->width, opts->height, opts->theme);
	int logx = powers_of_two(s);

	c->nselected = s->nlines + s->nskipped;
	for (size_t i = 0; i < s->nskipped; i++)
		pdb_chart_skip(c, "%s", s->skipped[i]);
	base_left_out(c, s, base);
	if (s->nlines == 1)
		one_line(c, s, base, panel, logx);
	else if (s->nlines <= MAX_PANEL_LINES)
		few_lines(c, s, base, panel);
	else
		small_multiples(c, s, panel);
	x_axes(c, logx);
	free(title);
	free(panel);
	return c;
}
