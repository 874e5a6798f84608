/* Charts: series over time, drawn as lines (several repetitions as their
 * median with a band), and the panels over time of the series a pick takes
 * (timeline.h). */
#include "chart/timeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/layout.h"
#include "dim_filter.h"
#include "stats.h"
#include "util.h"

static int cmp_sample_t(const void *a, const void *b)
{
	double x = ((const struct pdb_sample *)a)->t, y = ((const struct pdb_sample *)b)->t;
	return x < y ? -1 : x > y;
}

struct repetition {
	struct pdb_sample *s;       /* n samples in time order */
	size_t n, at;               /* at: the last sample at or before the offset being drawn */
	double end;                 /* where its last sample's period ends */
};

/* The median, lowest and highest across the repetitions running at t (the
 * last sample of each at or before t, or up to tol after it: the same
 * period's reading of a repetition whose clock ran a little later); 0 when
 * none runs then. */
static size_t across(struct repetition *rep, size_t nrep, double t, double tol, double *v,
		     double *med, double *lo, double *hi)
{
	size_t m = 0;

	for (size_t k = 0; k < nrep; k++) {
		struct repetition *r = &rep[k];
		if (r->n == 0 || t + tol < r->s[0].t || t >= r->end)
			continue;
		while (r->at + 1 < r->n && r->s[r->at + 1].t <= t + tol)
			r->at++;
		v[m++] = r->s[r->at].value;
	}
	if (m == 0)
		return 0;
	qsort(v, m, sizeof *v, pdb_cmp_double);
	*med = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
	*lo = v[0];
	*hi = v[m - 1];
	return m;
}

void pdb_timeline_free(struct pdb_timeline *tl)
{
	free(tl->x);
	free(tl->y);
	free(tl->lo);
	free(tl->hi);
}

void pdb_timeline_of(const struct pdb_result *r, struct pdb_timeline *tl)
{
	struct pdb_sample *s = pdb_xmalloc((r->nsamples ? r->nsamples : 1) * sizeof *s);
	struct repetition *rep = pdb_xmalloc((r->nsamples ? r->nsamples : 1) * sizeof *rep);
	double *grid, *v, tol;
	const struct repetition *longest = NULL;
	size_t n = 0, nrep = 0, ng = 0;

	memset(tl, 0, sizeof *tl);
	for (size_t i = 0; i < r->nsamples; i++)
		if (pdb_sample_has_t(&r->samples[i]))
			s[n++] = r->samples[i];
	for (size_t i = 0; i < n; i++) {
		if (nrep == 0 || s[i].t <= rep[nrep - 1].s[0].t)
			rep[nrep++] = (struct repetition){ .s = &s[i] };
		rep[nrep - 1].n++;
	}
	for (size_t k = 0; k < nrep; k++) {
		struct repetition *p = &rep[k];
		qsort(p->s, p->n, sizeof *p->s, cmp_sample_t); /* usually in time order already */
		if (!longest || p->n > longest->n)
			longest = p;
	}
	tl->reps = nrep;
	grid = pdb_xmalloc((n + 1) * sizeof *grid);
	v = pdb_xmalloc((nrep ? nrep : 1) * sizeof *v);
	tl->x = pdb_xmalloc((n + 1) * sizeof *tl->x);
	tl->y = pdb_xmalloc((n + 1) * sizeof *tl->y);
	if (nrep > 1) {
		tl->lo = pdb_xmalloc((n + 1) * sizeof *tl->lo);
		tl->hi = pdb_xmalloc((n + 1) * sizeof *tl->hi);
	}
	if (!longest || longest->n < 2)
		goto out;
	/* a lone sample's period is the longest repetition's */
	for (size_t k = 0; k < nrep; k++) {
		struct repetition *p = &rep[k];
		const struct repetition *by = p->n >= 2 ? p : longest;
		p->end = p->s[p->n - 1].t + (by->s[by->n - 1].t - by->s[0].t) / (double)(by->n - 1);
	}
	for (size_t i = 0; i < n; i++)
		grid[i] = s[i].t;
	qsort(grid, n, sizeof *grid, pdb_cmp_double);
	/* the repetitions' readings of one period are one point: offsets a
	 * tenth of a period apart or less (each repetition's clock starts
	 * anew), else the median jumps back and forth between them */
	tol = (longest->s[longest->n - 1].t - longest->s[0].t) / (double)(longest->n - 1) / 10;
	for (size_t i = 0, kept = 0; i < n; i++) {
		double med, lo, hi;
		if (i > 0 && grid[i] - grid[kept] <= (nrep > 1 ? tol : 0))
			continue;
		kept = i;
		if (across(rep, nrep, grid[i], nrep > 1 ? tol : 0, v, &med, &lo, &hi) == 0)
			continue;
		tl->x[ng] = grid[i];
		tl->y[ng] = med;
		if (tl->lo) {
			tl->lo[ng] = lo;
			tl->hi[ng] = hi;
		}
		ng++;
	}
	if (ng >= 2) /* the line ends at its last sample: nothing is drawn past it */
		tl->n = ng;
out:
	free(grid);
	free(v);
	free(rep);
	free(s);
}

/* Add tl as a line, with its band across repetitions when it has one. */
void pdb_chart_add_timeline(struct pdb_chart_panel *p, const char *label, const char *source,
			    int color, const struct pdb_timeline *tl)
{
	struct pdb_chart_series *s = pdb_chart_add_series(p, label, PDB_MARK_LINE | (tl->lo ? PDB_MARK_BAND : 0),
							  color % 8, tl->x, tl->y, tl->lo, tl->hi, tl->n);
	pdb_chart_series_source(s, source);
}

void pdb_reps_add(struct pdb_reps_seen *r, const struct pdb_timeline *tl)
{
	if (tl->n == 0)
		return;
	if (r->lo == 0 || tl->reps < r->lo)
		r->lo = tl->reps;
	if (tl->reps > r->hi)
		r->hi = tl->reps;
}

/* What a panel's title says of lines drawn across repetitions: "" for one. */
char *pdb_reps_note(const struct pdb_reps_seen *r)
{
	if (r->hi < 2)
		return pdb_xstrdup("");
	if (r->lo == r->hi)
		return pdb_xasprintf("median of %zu repetitions, band: lowest to highest", r->hi);
	return pdb_xasprintf("median of %zu to %zu repetitions, band: lowest to highest", r->lo, r->hi);
}

/* title, with the notes that are not "" in parentheses. */
void pdb_chart_panel_title(struct pdb_chart_panel *p, const char *title, const char *a, const char *b)
{
	free(p->title);
	p->title = *a && *b ? pdb_xasprintf("%s (%s; %s)", title, a, b) :
		   *a || *b ? pdb_xasprintf("%s (%s)", title, *a ? a : b) : pdb_xstrdup(title);
}

static int has_times(const struct pdb_result *r)
{
	for (size_t i = 0; i < r->nsamples; i++)
		if (pdb_sample_has_t(&r->samples[i]))
			return 1;
	return 0;
}

/* Whether a series over time has a line to draw: two periods or more in a
 * repetition (pdb_timeline_of); else it is left out, named. */
static int has_line(struct pdb_chart *c, const struct pdb_chart_item *it)
{
	struct pdb_timeline tl;
	size_t timed = 0;
	int line;
	char *key;

	pdb_timeline_of(it->r, &tl);
	line = tl.n > 0;
	pdb_timeline_free(&tl);
	if (line)
		return 1;
	for (size_t i = 0; i < it->r->nsamples; i++)
		timed += pdb_sample_has_t(&it->r->samples[i]);
	key = pdb_chart_item_key(it);
	pdb_chart_select(c);
	pdb_chart_skip(c, "%s: %zu timed value%s: a line over time needs two periods of one repetition",
		       key, timed, timed == 1 ? "" : "s");
	free(key);
	return 0;
}

/* How near a line over time may lie to one drawn before it, everywhere,
 * to be taken as lying on it: a share of the panel's highest value (a
 * panel over time is 80 pixels high at the default size: 1.6 pixels). */
#define OVERLAP 0.02

/* Whether line b lies on line a: the same offsets, every value within tol. */
static int lies_on(const struct pdb_chart_series *a, const struct pdb_chart_series *b, double tol)
{
	if (a->n != b->n || a->n == 0 || !(a->marks & PDB_MARK_LINE))
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (a->x[i] != b->x[i] || !(fabs(a->y[i] - b->y[i]) <= tol))
			return 0;
	return 1;
}

/* A line lying on one drawn before it is dashed, so that both show (a
 * consumer that keeps up with its producer: 1991 to 2014 msg/s against
 * 2000). */
static void dash_overlaps(struct pdb_chart_panel *p)
{
	double top = 0;

	for (size_t k = 0; k < p->nseries; k++)
		for (size_t i = 0; i < p->series[k].n; i++)
			if (isfinite(p->series[k].y[i]) && fabs(p->series[k].y[i]) > top)
				top = fabs(p->series[k].y[i]);
	for (size_t k = 1; k < p->nseries; k++)
		for (size_t j = 0; j < k; j++)
			if (!(p->series[j].marks & PDB_MARK_DASHED) &&
			    lies_on(&p->series[j], &p->series[k], OVERLAP * top)) {
				p->series[k].marks |= PDB_MARK_DASHED;
				break;
			}
}

/* The panel over time of a group of the items, what over time in unit
 * (named in the title when shown). */
static void timed_panel(struct pdb_chart *c, struct pdb_run **runs, size_t nruns,
			const struct pdb_chart_item *all, const struct pdb_chart_group *g,
			const char *shown, const char *unit, const char *what)
{
	struct pdb_chart_item *sub = pdb_xmalloc((g->n ? g->n : 1) * sizeof *sub);
	int *colors = pdb_xmalloc((g->n ? g->n : 1) * sizeof *colors);
	char *title = shown ? pdb_xasprintf("%s over time: %s", what, shown) :
		      pdb_xasprintf("%s over time", what);
	struct pdb_reps_seen reps = { 0, 0 };
	struct pdb_chart_panel *p;
	char **labels, *note;

	for (size_t i = 0; i < g->n; i++)
		sub[i] = all[g->idx[i]];
	labels = pdb_chart_item_labels(sub, g->n);
	pdb_chart_stage_colors(runs, nruns, sub, g->n, colors);
	p = pdb_chart_add_panel(c, title, "time", "s", unit, ""); /* the title says what */
	p->y.include_zero = 1;
	for (size_t i = 0; i < g->n; i++) {
		char *key = pdb_chart_item_key(&sub[i]);
		struct pdb_timeline tl;
		pdb_timeline_of(sub[i].r, &tl);
		pdb_chart_select(c);
		pdb_chart_add_timeline(p, labels[i], key, colors[i], &tl);
		pdb_reps_add(&reps, &tl);
		free(key);
		pdb_timeline_free(&tl);
	}
	dash_overlaps(p);
	note = pdb_reps_note(&reps);
	pdb_chart_panel_title(p, title, g->label, note);
	free(note);
	pdb_chart_labels_free(labels, g->n);
	free(title);
	free(colors);
	free(sub);
}

/* Panels over time of the series pick takes (kinds.h). */
void pdb_chart_timed_panels(struct pdb_chart *c, struct pdb_run **runs, size_t nruns,
			    const struct pdb_plot_opts *opts, int (*pick)(const struct pdb_result *),
			    const char *what)
{
	struct pdb_chart_item *it = NULL, *sub = NULL;
	size_t n = 0, cap = 0, nunits = 0, ucap = 0;
	const char **units = NULL;

	for (size_t k = 0; k < nruns; k++)
		for (size_t i = 0; i < runs[k]->nresults; i++) {
			const struct pdb_result *r = &runs[k]->results[i];
			size_t u = 0;
			if (!pdb_dim_filter_pass(opts->dims, r->dims, r->ndims) || !pick(r) ||
			    !pdb_glob_match(opts->bench_glob, r->benchmark) || !has_times(r))
				continue;
			pdb_grow((void **)&it, &cap, n + 1, sizeof *it);
			it[n].run = runs[k];
			it[n].r = r;
			it[n].family = 0;
			if (!has_line(c, &it[n]))
				continue;
			n++;
			while (u < nunits && strcmp(units[u], r->unit) != 0)
				u++;
			if (u == nunits) {
				pdb_grow((void **)&units, &ucap, nunits + 1, sizeof *units);
				units[nunits++] = r->unit;
			}
		}
	sub = pdb_xmalloc((n ? n : 1) * sizeof *sub);
	for (size_t u = 0; u < nunits; u++) {
		struct pdb_chart_group *g;
		size_t m = 0, ng, first = c->npanels;
		for (size_t i = 0; i < n; i++)
			if (strcmp(it[i].r->unit, units[u]) == 0)
				sub[m++] = it[i];
		ng = pdb_chart_groups(sub, m, PDB_CHART_PANEL_LINES, &g);
		for (size_t k = 0; k < ng; k++)
			timed_panel(c, runs, nruns, sub, &g[k], nunits > 1 ? units[u] : NULL, units[u], what);
		pdb_chart_share_y(c, first, c->npanels); /* small multiples compare by height */
		pdb_chart_groups_free(g, ng);
	}
	free(sub);
	free(it);
	free(units);
}
