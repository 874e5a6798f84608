/* Charts: building and freeing the chart model. */
#include "chart/chart.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct pdb_chart *pdb_chart_new(const char *kind, const char *title, int width,
				int height, int theme)
{
	struct pdb_chart *c = pdb_xcalloc(1, sizeof *c);

	c->kind = pdb_xstrdup(kind);
	c->title = pdb_xstrdup(title);
	c->width = width;
	c->height = height;
	c->theme = theme;
	return c;
}

static void axis_init(struct pdb_chart_axis *a, const char *title, const char *unit)
{
	memset(a, 0, sizeof *a);
	a->kind = PDB_AXIS_LINEAR;
	a->title = pdb_xstrdup(title);
	a->unit = pdb_xstrdup(unit ? unit : "");
	a->min = a->max = NAN;
	a->reach_lo = a->reach_hi = NAN;
}

static void axis_release(struct pdb_chart_axis *a)
{
	free(a->title);
	free(a->unit);
	free(a->title2);
	free(a->unit2);
	for (size_t i = 0; i < a->ncategories; i++)
		free(a->categories[i]);
	free(a->categories);
}

static double *copy(const double *v, size_t n)
{
	double *out;

	if (!v)
		return NULL;
	out = pdb_xmalloc((n ? n : 1) * sizeof *out);
	if (n)
		memcpy(out, v, n * sizeof *out);
	return out;
}

static void panel_release(struct pdb_chart_panel *pn)
{
	for (size_t s = 0; s < pn->nseries; s++) {
		struct pdb_chart_series *se = &pn->series[s];
		free(se->label);
		free(se->x);
		free(se->y);
		free(se->lo);
		free(se->hi);
		free(se->source);
	}
	free(pn->series);
	free(pn->title);
	free(pn->vmarks);
	free(pn->hmarks);
	axis_release(&pn->x);
	axis_release(&pn->y);
}

void pdb_chart_free(struct pdb_chart *c)
{
	if (!c)
		return;
	for (size_t p = 0; p < c->npanels; p++)
		panel_release(&c->panels[p]);
	free(c->panels);
	for (size_t i = 0; i < c->nskipped; i++)
		free(c->skipped[i]);
	free(c->skipped);
	free(c->kind);
	free(c->title);
	free(c->subtitle);
	free(c);
}

void pdb_chart_pop_panel(struct pdb_chart *c)
{
	if (c->npanels > 0)
		panel_release(&c->panels[--c->npanels]);
}

struct pdb_chart_panel *pdb_chart_add_panel(struct pdb_chart *c, const char *title,
					    const char *xtitle, const char *xunit,
					    const char *ytitle, const char *yunit)
{
	struct pdb_chart_panel *p;

	c->panels = pdb_xrealloc(c->panels, (c->npanels + 1) * sizeof *c->panels);
	p = &c->panels[c->npanels++];
	memset(p, 0, sizeof *p);
	p->title = pdb_xstrdup(title);
	p->weight = 1;
	axis_init(&p->x, xtitle, xunit);
	axis_init(&p->y, ytitle, yunit);
	return p;
}

struct pdb_chart_series *pdb_chart_add_series(struct pdb_chart_panel *p,
					      const char *label, int marks, int color,
					      const double *x, const double *y,
					      const double *lo, const double *hi, size_t n)
{
	struct pdb_chart_series *s;

	p->series = pdb_xrealloc(p->series, (p->nseries + 1) * sizeof *p->series);
	s = &p->series[p->nseries++];
	s->label = pdb_xstrdup(label);
	s->marks = marks;
	s->color = color;
	s->x = copy(x, n);
	s->y = copy(y, n);
	s->lo = copy(lo, n);
	s->hi = copy(hi, n);
	s->n = n;
	s->source = NULL;
	s->cut = 0;
	return s;
}

void pdb_chart_series_source(struct pdb_chart_series *s, const char *source)
{
	free(s->source);
	s->source = pdb_xstrdup(source);
}

void pdb_chart_select(struct pdb_chart *c)
{
	c->nselected++;
}

void pdb_chart_skip(struct pdb_chart *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	c->skipped = pdb_xrealloc(c->skipped, (c->nskipped + 1) * sizeof *c->skipped);
	c->skipped[c->nskipped++] = pdb_xvasprintf(fmt, ap);
	va_end(ap);
}

size_t pdb_chart_drawn(const struct pdb_chart *c)
{
	size_t n = 0;

	for (size_t p = 0; p < c->npanels; p++)
		for (size_t s = 0; s < c->panels[p].nseries; s++) {
			const char *src = c->panels[p].series[s].source;
			int seen = !src;
			if (src && (c->panels[p].series[s].marks & PDB_MARK_HBAR)) {
				n += c->panels[p].series[s].n;
				continue;
			}
			for (size_t q = 0; q <= p && !seen; q++)
				for (size_t t = 0; t < (q < p ? c->panels[q].nseries : s) && !seen; t++)
					seen = c->panels[q].series[t].source &&
					       strcmp(c->panels[q].series[t].source, src) == 0;
			n += !seen;
		}
	return n;
}

void pdb_chart_add_vmark(struct pdb_chart_panel *p, double x, int color, int dashed)
{
	p->vmarks = pdb_xrealloc(p->vmarks, (p->nvmarks + 1) * sizeof *p->vmarks);
	p->vmarks[p->nvmarks].x = x;
	p->vmarks[p->nvmarks].color = color;
	p->vmarks[p->nvmarks].dashed = dashed;
	p->vmarks[p->nvmarks].label[0] = '\0';
	p->nvmarks++;
}

void pdb_chart_vmark_label(struct pdb_chart_panel *p, const char *label)
{
	if (p->nvmarks > 0)
		pdb_utf8_copy(p->vmarks[p->nvmarks - 1].label, sizeof p->vmarks[0].label, label);
}

void pdb_chart_add_hmark(struct pdb_chart_panel *p, double y)
{
	p->hmarks = pdb_xrealloc(p->hmarks, (p->nhmarks + 1) * sizeof *p->hmarks);
	p->hmarks[p->nhmarks++] = y;
}

void pdb_chart_axis_categories(struct pdb_chart_axis *a, const char *const *names, size_t n)
{
	a->kind = PDB_AXIS_CATEGORY;
	a->categories = pdb_xcalloc(n ? n : 1, sizeof *a->categories);
	for (size_t i = 0; i < n; i++)
		a->categories[i] = pdb_xstrdup(names[i]);
	a->ncategories = n;
}

void pdb_chart_axis_second(struct pdb_chart_axis *a, double scale, const char *title,
			   const char *unit)
{
	a->scale2 = scale;
	a->title2 = pdb_xstrdup(title);
	a->unit2 = pdb_xstrdup(unit);
}
