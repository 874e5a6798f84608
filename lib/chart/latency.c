/* Chart kinds: latency — percentile spectrum on a nines axis, and latency over time. */
#include "chart/kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/layout.h"
#include "chart/sort.h"
#include "chart/timeline.h"
#include "dim_filter.h"
#include "util.h"

/* The percentile of a stat name: p50, p99.9, median, max (p100); -1 otherwise. */
static double stat_percent(const char *name)
{
	double p;

	if (strcmp(name, "median") == 0)
		return 50;
	if (strcmp(name, "max") == 0)
		return 100;
	if (name[0] == 'p' && pdb_parse_double(name + 1, &p) == 0 && p > 0 && p <= 100)
		return p;
	return -1;
}

static size_t count_percentiles(const struct pdb_result *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nstats; i++)
		n += stat_percent(r->stats[i].name) >= 0;
	return n;
}

/* Spectrum from the tool's percentiles, by percentile. */
static void spectrum_from_stats(const struct pdb_result *r, double **x, double **y, size_t *n)
{
	*x = pdb_xmalloc((r->nstats + 1) * sizeof **x);
	*y = pdb_xmalloc((r->nstats + 1) * sizeof **y);
	*n = 0;
	for (size_t i = 0; i < r->nstats; i++) {
		double p = stat_percent(r->stats[i].name);
		size_t k;
		if (p < 0)
			continue;
		for (k = *n; k > 0 && (*x)[k - 1] > p; k--) {
			(*x)[k] = (*x)[k - 1];
			(*y)[k] = (*y)[k - 1];
		}
		(*x)[k] = p;
		(*y)[k] = r->stats[i].value;
		(*n)++;
	}
}

/* Spectrum from (weighted) samples: a fine grid on the nines axis up to
 * where the samples still say something, then the max. */
static void spectrum_from_samples(const struct pdb_result *r, double **x, double **y, size_t *n)
{
	struct pdb_weighted *s = pdb_xmalloc((r->nsamples ? r->nsamples : 1) * sizeof *s);
	double *cum = pdb_xmalloc((r->nsamples ? r->nsamples : 1) * sizeof *cum), total = 0, tmax;
	size_t cap, k = 0, ns = 0;

	/* NaN is no value (null): it has no rank. Infinities rank at the ends
	 * and their percentiles are left out where the line is drawn. */
	for (size_t i = 0; i < r->nsamples; i++) {
		if (isnan(r->samples[i].value))
			continue;
		s[ns].v = r->samples[i].value;
		s[ns].w = pdb_sample_has_weight(&r->samples[i]) ? r->samples[i].weight : 1;
		ns++;
	}
	if (ns == 0) {
		*x = pdb_xmalloc(sizeof **x);
		*y = pdb_xmalloc(sizeof **y);
		*n = 0;
		free(s);
		free(cum);
		return;
	}
	pdb_chart_sort_weighted(s, ns);
	for (size_t i = 0; i < ns; i++)
		cum[i] = total += s[i].w;
	/* weights summing past 10^15 (or to inf) add no percentile worth a place:
	 * the grid stops there, and its size stays bounded */
	tmax = fmin(log10(total), 15);
	cap = (size_t)((tmax > 0.3 ? tmax : 0.3) / 0.02) + 4;
	*x = pdb_xmalloc(cap * sizeof **x);
	*y = pdb_xmalloc(cap * sizeof **y);
	for (double t = log10(2); t <= tmax + 1e-9 && k + 1 < cap; t += 0.02) {
		double p = 100 * (1 - pow(10, -t)), want = p / 100 * total;
		size_t lo = 0, hi = ns - 1;
		while (lo < hi) { /* first cumulative weight reaching want */
			size_t mid = (lo + hi) / 2;
			if (cum[mid] >= want)
				hi = mid;
			else
				lo = mid + 1;
		}
		(*x)[k] = p;
		(*y)[k] = s[lo].v;
		k++;
	}
	(*x)[k] = 100;
	(*y)[k] = s[ns - 1].v;
	*n = k + 1;
	free(s);
	free(cum);
}

/* The panels from..to-1 (small multiples of one kind) share one y axis:
 * log when their values together span a factor of limit or more, else
 * linear from 0; and one range. */
static void shared_scale(struct pdb_chart *c, size_t from, size_t to, double limit)
{
	double lo = INFINITY, hi = 0;

	for (size_t k = from; k < to; k++)
		for (size_t s = 0; s < c->panels[k].nseries; s++)
			for (size_t i = 0; i < c->panels[k].series[s].n; i++) {
				double v = c->panels[k].series[s].y[i];
				if (v > 0 && v < lo)
					lo = v;
				if (v > hi)
					hi = v;
			}
	for (size_t k = from; k < to; k++) {
		if (hi > 0 && hi / lo >= limit)
			c->panels[k].y.kind = PDB_AXIS_LOG;
		else
			c->panels[k].y.include_zero = 1;
	}
	pdb_chart_share_y(c, from, to);
}

/* Per-period percentiles that tools report as series of their own. */
static const char *const suffixes[] = { "_p50", "_p99", "_p99.9", "_max", "_p100" };
#define NSUFFIXES (sizeof suffixes / sizeof suffixes[0])

/* A latency series the chart can draw: a time with samples or percentiles. */
static int drawable(const struct pdb_result *r)
{
	return strcmp(r->unit, "s") == 0 && (r->nsamples >= 2 || count_percentiles(r) >= 2);
}

/* Whether r has a value a chart can place: a finite sample or percentile. */
static int any_finite(const struct pdb_result *r)
{
	for (size_t i = 0; i < r->nsamples; i++)
		if (isfinite(r->samples[i].value))
			return 1;
	for (size_t i = 0; i < r->nstats; i++)
		if (stat_percent(r->stats[i].name) >= 0 && isfinite(r->stats[i].value))
			return 1;
	return 0;
}

/* A time that a reader would take for a latency: named so, or with a percentile. */
static int looks_latency(const struct pdb_result *r)
{
	int pct = 0;

	for (size_t i = 0; i < r->nstats; i++)
		pct |= stat_percent(r->stats[i].name) > 0 && stat_percent(r->stats[i].name) < 100;
	return strcmp(r->unit, "s") == 0 && (strstr(r->metric, "lat") || pct);
}

static int same_dims(const struct pdb_result *a, const struct pdb_result *b)
{
	char *x = pdb_dims_text(a->dims, a->ndims), *y = pdb_dims_text(b->dims, b->ndims);
	int same = strcmp(x, y) == 0;

	free(x);
	free(y);
	return same;
}

/* The length of the metric name of the item (its family's, or its own). */
static size_t name_len(const struct pdb_chart_item *it)
{
	return it->family ? it->family : strlen(it->r->metric);
}

/* The per-period percentile series with suffix k of the series that
 * parent's first len bytes name (its benchmark and dims), or NULL. */
static const struct pdb_result *sibling(const struct pdb_run *run, const struct pdb_result *parent,
					size_t len, size_t k)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		if (strncmp(r->metric, parent->metric, len) == 0 &&
		    strcmp(r->metric + len, suffixes[k]) == 0 &&
		    strcmp(r->benchmark, parent->benchmark) == 0 && same_dims(r, parent))
			return r;
	}
	return NULL;
}

/* The length of METRIC in a per-period statistic METRIC_p75, METRIC_mean ...; 0 else. */
static size_t stat_prefix(const struct pdb_result *r)
{
	const char *us = strrchr(r->metric, '_');

	if (!us || us == r->metric ||
	    (stat_percent(us + 1) < 0 && strcmp(us + 1, "mean") != 0 && strcmp(us + 1, "min") != 0))
		return 0;
	return (size_t)(us - r->metric);
}

/* Whether a and b are per-period statistics of one series (same benchmark, dims, METRIC). */
static int same_family(const struct pdb_result *a, const struct pdb_result *b, size_t len)
{
	return stat_prefix(b) == len && strncmp(a->metric, b->metric, len) == 0 &&
	       strcmp(a->benchmark, b->benchmark) == 0 && same_dims(a, b);
}

/* Whether r is a per-period statistic (METRIC_p75, METRIC_mean ...) of a
 * drawable series of its run: then it is that series, drawn over time
 * with it (p50, p99, p99.9, max), not a series of its own. */
static int is_sibling(const struct pdb_run *run, const struct pdb_result *r)
{
	size_t len = stat_prefix(r);

	if (len == 0)
		return 0;
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *p = &run->results[i];
		if (p != r && strlen(p->metric) == len && strncmp(p->metric, r->metric, len) == 0 &&
		    strcmp(p->benchmark, r->benchmark) == 0 && drawable(p) && same_dims(p, r))
			return 1;
	}
	return 0;
}

/* How many per-period percentile series (over time) r's family has. */
static size_t family_size(const struct pdb_run *run, const struct pdb_result *r, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *m = &run->results[i];
		n += same_family(r, m, len) && stat_percent(m->metric + len + 1) >= 0 &&
		     m->nsamples >= 2;
	}
	return n;
}

/* The spectrum of a family: at each percentile of its series, their median over the periods. */
static void spectrum_from_family(const struct pdb_chart_item *it, double **x, double **y, size_t *n)
{
	const struct pdb_run *run = it->run;

	*x = pdb_xmalloc((run->nresults + 1) * sizeof **x);
	*y = pdb_xmalloc((run->nresults + 1) * sizeof **y);
	*n = 0;
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *m = &run->results[i];
		double p, v;
		size_t k;
		if (!same_family(it->r, m, it->family) ||
		    (p = stat_percent(m->metric + it->family + 1)) < 0 ||
		    !isfinite(v = pdb_result_value(m)))
			continue;
		for (k = *n; k > 0 && (*x)[k - 1] > p; k--) {
			(*x)[k] = (*x)[k - 1];
			(*y)[k] = (*y)[k - 1];
		}
		(*x)[k] = p;
		(*y)[k] = v;
		(*n)++;
	}
}

/* The latency series of the runs: every time with samples or percentiles
 * that matches the globs, whatever its name; the latency-like ones that
 * cannot be drawn are counted and left out with the reason. */
static size_t pick_results(struct pdb_run **runs, size_t nruns, const struct pdb_plot_opts *opts,
			   struct pdb_chart *c, struct pdb_chart_item **out)
{
	size_t n = 0, cap = 0;

	*out = NULL;
	for (size_t k = 0; k < nruns; k++)
		for (size_t i = 0; i < runs[k]->nresults; i++) {
			const struct pdb_result *r = &runs[k]->results[i];
			size_t fam = stat_prefix(r), seen = 0;
			if (!pdb_dim_filter_pass(opts->dims, r->dims, r->ndims) ||
			    strcmp(r->unit, "s") != 0 || !pdb_glob_match(opts->bench_glob, r->benchmark) ||
			    !pdb_glob_match(opts->metric_glob, r->metric) || is_sibling(runs[k], r))
				continue;
			/* per-period percentiles with no series of their own: one series */
			for (size_t j = 0; fam && j < n && !seen; j++)
				seen = (*out)[j].run == runs[k] && (*out)[j].family == fam &&
				       same_family((*out)[j].r, r, fam);
			if (seen)
				continue;
			if (fam && family_size(runs[k], r, fam) >= 2) {
				pdb_grow((void **)out, &cap, n + 1, sizeof **out);
				(*out)[n].run = runs[k];
				(*out)[n].r = r;
				(*out)[n].family = fam;
				n++;
				pdb_chart_select(c);
			} else if (drawable(r) && !any_finite(r)) {
				/* NaN, null, ±Infinity only: no point has a place */
				struct pdb_chart_item it = { runs[k], r, 0 };
				char *key = pdb_chart_item_key(&it);
				pdb_chart_select(c);
				pdb_chart_skip(c, "%s: no finite value (NaN or infinite only): "
					       "nothing to draw", key);
				free(key);
			} else if (drawable(r)) {
				pdb_grow((void **)out, &cap, n + 1, sizeof **out);
				(*out)[n].run = runs[k];
				(*out)[n].r = r;
				(*out)[n].family = 0;
				n++;
				pdb_chart_select(c);
			} else if (opts->metric_glob || looks_latency(r)) {
				struct pdb_chart_item it = { runs[k], r, 0 };
				char *key = pdb_chart_item_key(&it);
				pdb_chart_select(c);
				pdb_chart_skip(c, "%s: no samples and fewer than two percentiles: "
					       "no spectrum to draw", key);
				free(key);
			}
		}
	return n;
}

/* A line of latency over time, before it has a panel. */
struct time_line {
	char *label;
	const char *key;
	int color;
	struct pdb_timeline tl;
};

/* Latency over time of a group of items (what its label says, "" for
 * all): each series' own timed samples, else its per-period percentile
 * series; a panel of at most PDB_CHART_PANEL_LINES lines, pages past that. */
static void latency_over_time(struct pdb_chart *c, const struct pdb_chart_item *it,
			      char *const *labels, char *const *keys, const int *colors, size_t n,
			      const char *group)
{
	struct time_line *lines = NULL;
	size_t nlines = 0, cap = 0, pages, *start;

	for (size_t i = 0; i < n; i++) {
		const struct pdb_result *own = it[i].r;
		/* a family has no samples of its own: its series are the lines */
		for (size_t k = it[i].family ? 1 : 0; k < NSUFFIXES + 1; k++) {
			const struct pdb_result *r = k == 0 ? own : sibling(it[i].run, own, name_len(&it[i]), k - 1);
			struct pdb_timeline tl;
			if (!r)
				continue;
			pdb_timeline_of(r, &tl);
			if (tl.n == 0) {
				pdb_timeline_free(&tl);
				continue;
			}
			pdb_grow((void **)&lines, &cap, nlines + 1, sizeof *lines);
			lines[nlines++] = (struct time_line){
				.label = k == 0 ? pdb_xstrdup(labels[i]) :
					 n > 1 ? pdb_xasprintf("%s %s", labels[i], suffixes[k - 1] + 1) :
					 pdb_xstrdup(suffixes[k - 1] + 1),
				.key = keys[i], .color = colors[i], .tl = tl };
			if (k == 0)
				break; /* its own samples say it all */
		}
	}
	/* pages of at most PDB_CHART_PANEL_LINES lines; a series' percentiles on one page
	 * where they fit */
	start = pdb_xmalloc((nlines + 2) * sizeof *start);
	pages = 0;
	for (size_t l = 0; l < nlines; l++) {
		size_t family = 1;
		while (l + family < nlines && lines[l + family].key == lines[l].key)
			family++;
		if (pages == 0 || l - start[pages - 1] + (family <= PDB_CHART_PANEL_LINES ? family : 1) > PDB_CHART_PANEL_LINES)
			start[pages++] = l;
	}
	start[pages] = nlines;
	for (size_t pg = 0; pg < pages; pg++) {
		struct pdb_chart_panel *p = pdb_chart_add_panel(c, "Latency over time", "time", "s",
								"latency", "s");
		struct pdb_reps_seen reps = { 0, 0 };
		char *note, *where = pages > 1 ? pdb_xasprintf("%s%s%zu of %zu", group, *group ? ", " : "",
							       pg + 1, pages) : pdb_xstrdup(group);
		size_t from = start[pg], to = start[pg + 1];
		int distinct = 1;
		/* lines that would share a colour (a series' per-period
		 * percentiles) take the page's colours in order */
		for (size_t l = from; l < to; l++)
			for (size_t j = from; j < l; j++)
				distinct &= lines[j].color != lines[l].color;
		for (size_t l = from; l < to; l++) {
			pdb_chart_add_timeline(p, lines[l].label, lines[l].key, distinct ? lines[l].color : (int)(l - from),
				 &lines[l].tl);
			pdb_reps_add(&reps, &lines[l].tl);
		}
		note = pdb_reps_note(&reps);
		pdb_chart_panel_title(p, "Latency over time", where, note);
		free(note);
		free(where);
	}
	for (size_t l = 0; l < nlines; l++) {
		free(lines[l].label);
		pdb_timeline_free(&lines[l].tl);
	}
	free(lines);
	free(start);
}

/* Rates: what throughput over time draws. */
static int is_rate(const struct pdb_result *r)
{
	return r->direction == PDB_DIR_HIGHER;
}

/* A lag (Kafka's consumer_lag): messages behind, a count named so. */
static int is_lag(const struct pdb_result *r)
{
	return strcmp(r->unit, "count") == 0 && strstr(r->metric, "lag") != NULL;
}

/* The lag panels (from lag on, the last) go right after the message rates:
 * the throughput panels from throughput on of its first unit (msg/s,
 * before B/s), every step's; whether a pipeline keeps up stays in the
 * chart when the height holds fewer panels. */
static void lag_after_rates(struct pdb_chart *c, size_t throughput, size_t lag)
{
	size_t at = throughput, n = c->npanels - lag;
	struct pdb_chart_panel *moved;

	while (at < lag && strcmp(c->panels[at].y.title, c->panels[throughput].y.title) == 0)
		at++;
	if (n == 0 || at == lag)
		return;
	moved = pdb_xmalloc(n * sizeof *moved);
	memcpy(moved, &c->panels[lag], n * sizeof *moved);
	memmove(&c->panels[at + n], &c->panels[at], (lag - at) * sizeof *moved);
	memcpy(&c->panels[at], moved, n * sizeof *moved);
	free(moved);
}

/* The chart grows to give every panel its usual room: none is left out. */
static void fit_panels(struct pdb_chart *c)
{
	if (pdb_chart_panels_room(c->height) < c->npanels)
		c->height = pdb_chart_panels_height(c->npanels);
}

/* The panels from first on share one time axis, from 0 to the end of the
 * longest run. */
static void whole_duration(struct pdb_chart *c, size_t first)
{
	double end = 0;

	for (size_t i = first; i < c->npanels; i++)
		for (size_t s = 0; s < c->panels[i].nseries; s++) {
			const struct pdb_chart_series *se = &c->panels[i].series[s];
			if (se->n > 0 && se->x[se->n - 1] > end)
				end = se->x[se->n - 1];
		}
	for (size_t i = first; i < c->npanels && end > 0; i++) {
		c->panels[i].x.min = 0;
		c->panels[i].x.max = end;
	}
}

/* The percentile spectrum of a group of the items, in a panel of its own. */
static void spectrum_panel(struct pdb_chart *c, struct pdb_run **runs, size_t nruns,
			   const struct pdb_chart_item *all, const struct pdb_chart_group *g)
{
	struct pdb_chart_item *it = pdb_xmalloc((g->n ? g->n : 1) * sizeof *it);
	int *colors = pdb_xmalloc((g->n ? g->n : 1) * sizeof *colors);
	struct pdb_chart_panel *p;
	char **labels, *title = *g->label ? pdb_xasprintf("Percentile spectrum (%s)", g->label) :
				pdb_xstrdup("Percentile spectrum");

	for (size_t i = 0; i < g->n; i++)
		it[i] = all[g->idx[i]];
	labels = pdb_chart_item_labels(it, g->n);
	pdb_chart_stage_colors(runs, nruns, it, g->n, colors);
	p = pdb_chart_add_panel(c, title, "percentile", "", "latency", "s");
	p->x.kind = PDB_AXIS_NINES;
	p->weight = 1.3;
	for (size_t i = 0; i < g->n; i++) {
		struct pdb_chart_series *s;
		char *key = pdb_chart_item_key(&it[i]);
		double *x, *y;
		size_t m;
		if (it[i].family)
			spectrum_from_family(&it[i], &x, &y, &m);
		else if (count_percentiles(it[i].r) >= 3 || it[i].r->nsamples < 2)
			spectrum_from_stats(it[i].r, &x, &y, &m);
		else
			spectrum_from_samples(it[i].r, &x, &y, &m);
		s = pdb_chart_add_series(p, labels[i], PDB_MARK_LINE | (m <= 12 ? PDB_MARK_POINTS : 0),
					 colors[i], x, y, NULL, NULL, m);
		pdb_chart_series_source(s, key);
		free(key);
		free(x);
		free(y);
	}
	pdb_chart_labels_free(labels, g->n);
	free(title);
	free(colors);
	free(it);
}

/* Latency over time of a group of the items. */
static void group_over_time(struct pdb_chart *c, struct pdb_run **runs, size_t nruns,
			    const struct pdb_chart_item *all, const struct pdb_chart_group *g)
{
	struct pdb_chart_item *it = pdb_xmalloc((g->n ? g->n : 1) * sizeof *it);
	int *colors = pdb_xmalloc((g->n ? g->n : 1) * sizeof *colors);
	char **labels, **keys = pdb_xcalloc(g->n ? g->n : 1, sizeof *keys);

	for (size_t i = 0; i < g->n; i++)
		it[i] = all[g->idx[i]];
	labels = pdb_chart_item_labels(it, g->n);
	for (size_t i = 0; i < g->n; i++)
		keys[i] = pdb_chart_item_key(&it[i]);
	pdb_chart_stage_colors(runs, nruns, it, g->n, colors);
	latency_over_time(c, it, labels, keys, colors, g->n, g->label);
	pdb_chart_labels_free(labels, g->n);
	pdb_chart_labels_free(keys, g->n);
	free(colors);
	free(it);
}

struct pdb_chart *pdb_latency_chart(struct pdb_run **runs, size_t nsel,
				    const struct pdb_plot_opts *opts, struct pdb_err *err)
{
	struct pdb_chart_item *it = NULL;
	struct pdb_chart *c;
	struct pdb_chart_group *g;
	size_t n = 0, ng, throughput, lag;
	int others = 0;

	c = pdb_chart_new("latency", NULL, opts->width, opts->height, opts->theme);
	n = pick_results(runs, nsel, opts, c, &it);
	if (n == 0 && !opts->metric_glob && pdb_chart_resource_panels(c, runs, nsel, opts) > 0) {
		/* no latency, but resources sampled over time: those alone */
		const char *bench = pdb_chart_resource_bench(runs, nsel, opts, &others);
		c->title = opts->title ? pdb_xstrdup(opts->title) :
			   pdb_xasprintf("Resources: %s%s", bench, others ? " and others" : "");
		whole_duration(c, 0);
		goto out;
	}
	if (n == 0) {
		if (c->nskipped > 0) /* the reason the one left out is not drawn */
			pdb_err_set(err, PDB_EXIT_INPUT, "no latency series to draw: %s%s", c->skipped[0],
				    c->nskipped > 1 ? " (and others)" : "");
		else
			pdb_err_set(err, PDB_EXIT_INPUT, "no latency series (a time metric with samples "
				    "or percentiles) in the runs given%s",
				    opts->bench_glob || opts->metric_glob || opts->dims ?
				    " (and --bench/--metric/--dim)" : "");
		pdb_chart_free(c);
		c = NULL;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		others |= strcmp(it[i].r->benchmark, it[0].r->benchmark) != 0;
	c->title = opts->title ? pdb_xstrdup(opts->title) :
		   pdb_xasprintf("Latency: %s%s", it[0].r->benchmark, others ? " and others" : "");
	ng = pdb_chart_groups(it, n, PDB_CHART_PANEL_LINES, &g);
	for (size_t k = 0; k < ng; k++)
		spectrum_panel(c, runs, nsel, it, &g[k]);
	shared_scale(c, 0, ng, 20);
	for (size_t k = 0; k < ng; k++)
		group_over_time(c, runs, nsel, it, &g[k]);
	pdb_chart_groups_free(g, ng);
	shared_scale(c, ng, c->npanels, 50);
	throughput = c->npanels;
	pdb_chart_timed_panels(c, runs, nsel, opts, is_rate, "Throughput");
	lag = c->npanels;
	pdb_chart_timed_panels(c, runs, nsel, opts, is_lag, "Lag");
	lag_after_rates(c, throughput, lag);
	fit_panels(c);
	pdb_chart_resource_panels(c, runs, nsel, opts); /* the chart grows for them */
	whole_duration(c, ng); /* the spectra apart */
out:
	free(it);
	return c;
}
