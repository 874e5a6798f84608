/* Chart kinds: latency — percentile spectrum on a nines axis, and latency over time. */
#include "chart/kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/sort.h"
#include "util.h"

#define MAX_LINES 8

struct pick {
	const struct pdb_run *run;
	const struct pdb_result *r;
	char *label;
};

/* The percentile of a stat name: p50, p99.9, median, max; -1 otherwise. */
static double stat_percent(const char *name)
{
	double p;

	if (strcmp(name, "median") == 0)
		return 50;
	if (strcmp(name, "max") == 0)
		return 100;
	if (name[0] == 'p' && pdb_parse_double(name + 1, &p) == 0 && p > 0 && p < 100)
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

static int is_latency(const struct pdb_result *r)
{
	return strcmp(r->unit, "s") == 0 && (r->nsamples >= 2 || count_percentiles(r) >= 2);
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
	struct pdb_weighted *s = pdb_xmalloc(r->nsamples * sizeof *s);
	double *cum = pdb_xmalloc(r->nsamples * sizeof *cum), total = 0, tmax;
	size_t cap, k = 0;

	for (size_t i = 0; i < r->nsamples; i++) {
		s[i].v = r->samples[i].value;
		s[i].w = pdb_sample_has_weight(&r->samples[i]) ? r->samples[i].weight : 1;
	}
	pdb_chart_sort_weighted(s, r->nsamples);
	for (size_t i = 0; i < r->nsamples; i++)
		cum[i] = total += s[i].w;
	tmax = log10(total);
	cap = (size_t)((tmax > 0.3 ? tmax : 0.3) / 0.02) + 4;
	*x = pdb_xmalloc(cap * sizeof **x);
	*y = pdb_xmalloc(cap * sizeof **y);
	for (double t = log10(2); t <= tmax + 1e-9 && k + 1 < cap; t += 0.02) {
		double p = 100 * (1 - pow(10, -t)), want = p / 100 * total;
		size_t lo = 0, hi = r->nsamples - 1;
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
	(*y)[k] = s[r->nsamples - 1].v;
	*n = k + 1;
	free(s);
	free(cum);
}

static int cmp_sample_t(const void *a, const void *b)
{
	double x = ((const struct pdb_sample *)a)->t, y = ((const struct pdb_sample *)b)->t;
	return x < y ? -1 : x > y;
}

/* Points (t, value) of samples that carry time offsets; 0 when fewer than 2. */
static size_t over_time(const struct pdb_result *r, double **x, double **y)
{
	struct pdb_sample *s = pdb_xmalloc((r->nsamples ? r->nsamples : 1) * sizeof *s);
	size_t n = 0;

	for (size_t i = 0; i < r->nsamples; i++)
		if (pdb_sample_has_t(&r->samples[i]))
			s[n++] = r->samples[i];
	for (size_t i = 1; i < n; i++)
		if (s[i].t < s[i - 1].t) { /* samples usually come in time order */
			qsort(s, n, sizeof *s, cmp_sample_t);
			break;
		}
	*x = pdb_xmalloc((n ? n : 1) * sizeof **x);
	*y = pdb_xmalloc((n ? n : 1) * sizeof **y);
	for (size_t i = 0; i < n; i++) {
		(*x)[i] = s[i].t;
		(*y)[i] = s[i].value;
	}
	free(s);
	return n >= 2 ? n : 0;
}

/* Log scale when the values span a factor of limit or more. */
static void auto_log(struct pdb_chart_panel *p, double limit)
{
	double lo = INFINITY, hi = 0;

	for (size_t s = 0; s < p->nseries; s++)
		for (size_t i = 0; i < p->series[s].n; i++) {
			double v = p->series[s].y[i];
			if (v > 0 && v < lo)
				lo = v;
			if (v > hi)
				hi = v;
		}
	if (hi > 0 && hi / lo >= limit)
		p->y.kind = PDB_AXIS_LOG;
	else
		p->y.include_zero = 1;
}

static char *pick_label(const struct pick *pk, int by_run, int by_bench, int by_metric)
{
	struct pdb_buf b;
	char *run = pdb_chart_run_label(pk->run), *dims = pdb_dims_display(pk->r->dims, pk->r->ndims);

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	if (by_run)
		pdb_buf_puts(&b, run);
	if (by_bench)
		pdb_buf_printf(&b, "%s%s%s%s%s", b.len ? " " : "", pk->r->benchmark,
			       *dims ? " [" : "", dims, *dims ? "]" : "");
	if (by_metric || (!by_run && !by_bench))
		pdb_buf_printf(&b, "%s%s", b.len ? " " : "", pk->r->metric);
	free(run);
	free(dims);
	return b.data;
}

/* The latency results of the runs: those matching the globs, and when no
 * metric was named those whose metric mentions latency if any do, and of
 * those the ones with the tool's percentiles if any have them. */
static size_t pick_results(struct pdb_run **runs, size_t nruns, const struct pdb_plot_opts *opts,
			   struct pick **out)
{
	size_t n = 0, cap = 0;
	int named = 0, spectra = 0;

	for (size_t k = 0; k < nruns && !opts->metric_glob; k++)
		for (size_t i = 0; i < runs[k]->nresults; i++) {
			const struct pdb_result *r = &runs[k]->results[i];
			if (!is_latency(r) || !pdb_glob_match(opts->bench_glob, r->benchmark))
				continue;
			named |= strstr(r->metric, "latency") != NULL;
			spectra |= count_percentiles(r) >= 3;
		}
	*out = NULL;
	for (size_t k = 0; k < nruns; k++)
		for (size_t i = 0; i < runs[k]->nresults; i++) {
			const struct pdb_result *r = &runs[k]->results[i];
			if (!is_latency(r) || !pdb_glob_match(opts->bench_glob, r->benchmark) ||
			    !pdb_glob_match(opts->metric_glob, r->metric) ||
			    (named && !strstr(r->metric, "latency")) ||
			    (spectra && count_percentiles(r) < 3))
				continue;
			pdb_grow((void **)out, &cap, n + 1, sizeof **out);
			(*out)[n].run = runs[k];
			(*out)[n].r = r;
			(*out)[n].label = NULL;
			n++;
		}
	return n;
}

static void label_picks(struct pick *pk, size_t n)
{
	int by_run = 0, by_bench = 0, by_metric = 0;

	for (size_t i = 1; i < n; i++) {
		char *a = pdb_dims_text(pk[i].r->dims, pk[i].r->ndims);
		char *b = pdb_dims_text(pk[0].r->dims, pk[0].r->ndims);
		by_run |= pk[i].run != pk[0].run;
		by_bench |= strcmp(pk[i].r->benchmark, pk[0].r->benchmark) != 0 || strcmp(a, b) != 0;
		by_metric |= strcmp(pk[i].r->metric, pk[0].r->metric) != 0;
		free(a);
		free(b);
	}
	for (size_t i = 0; i < n; i++)
		pk[i].label = pick_label(&pk[i], by_run, by_bench, by_metric);
}

/* A tool that reports each period's percentiles as series of their own
 * (METRIC_p50, METRIC_p99, ... with time offsets): those of the first
 * latency series over time. */
static void sibling_series(struct pdb_chart *c, struct pdb_chart_panel **panel,
			   const struct pick *pk, int prefix)
{
	static const char *const suffixes[] = { "_p50", "_p99", "_p99.9", "_max" };
	struct pdb_chart_panel *p = *panel;
	size_t len = strlen(pk->r->metric);

	for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++)
		for (size_t i = 0; i < pk->run->nresults; i++) {
			const struct pdb_result *r = &pk->run->results[i];
			char *a, *b;
			double *x, *y;
			size_t n;
			int same;
			if (strncmp(r->metric, pk->r->metric, len) != 0 ||
			    strcmp(r->metric + len, suffixes[k]) != 0 ||
			    strcmp(r->benchmark, pk->r->benchmark) != 0)
				continue;
			a = pdb_dims_text(r->dims, r->ndims);
			b = pdb_dims_text(pk->r->dims, pk->r->ndims);
			same = strcmp(a, b) == 0;
			free(a);
			free(b);
			if (!same)
				continue;
			if ((n = over_time(r, &x, &y)) > 0) {
				if (!p)
					p = pdb_chart_add_panel(c, "Latency over time", "time", "s",
								"latency", "s");
				char *label = prefix ? pdb_xasprintf("%s %s", pk->label, suffixes[k] + 1) :
						       pdb_xstrdup(suffixes[k] + 1);
				pdb_chart_add_series(p, label, PDB_MARK_LINE,
						     (int)k, x, y,
						     NULL, NULL, n);
				free(label);
			}
			free(x);
			free(y);
		}
	*panel = p;
}

static void percentiles_over_time(struct pdb_chart *c, const struct pick *pk, size_t npk)
{
	struct pdb_chart_panel *p = NULL;

	sibling_series(c, &p, &pk[0], npk > 1);
	if (p)
		auto_log(p, 50);
}

/* Throughput over time of the runs: rates whose samples carry time
 * offsets, in the unit of the first (msg/s and B/s share no axis). */
static void throughput_panel(struct pdb_chart *c, struct pdb_run **runs, size_t nruns,
			     const struct pdb_plot_opts *opts, int by_run)
{
	struct pdb_chart_panel *p = NULL;
	const char *unit = NULL;
	int color = 0;

	for (size_t k = 0; k < nruns; k++)
		for (size_t i = 0; i < runs[k]->nresults && color < MAX_LINES; i++) {
			const struct pdb_result *r = &runs[k]->results[i];
			double *x, *y;
			size_t n;
			if (r->direction != PDB_DIR_HIGHER || !pdb_glob_match(opts->bench_glob, r->benchmark) ||
			    (unit && strcmp(r->unit, unit) != 0))
				continue;
			if ((n = over_time(r, &x, &y)) > 0) {
				unit = r->unit;
				char *run = pdb_chart_run_label(runs[k]);
				char *label = by_run ? pdb_xasprintf("%s %s", run, r->metric) : pdb_xstrdup(r->metric);
				if (!p) {
					p = pdb_chart_add_panel(c, "Throughput over time", "time", "s",
								"throughput", r->unit);
					p->y.include_zero = 1;
				}
				pdb_chart_add_series(p, label, PDB_MARK_LINE, color++, x, y, NULL, NULL, n);
				free(run);
				free(label);
			}
			free(x);
			free(y);
		}
}

struct pdb_chart *pdb_latency_chart(struct pdb_store *store, const char *const *sel,
				    size_t nsel, const struct pdb_plot_opts *opts,
				    struct pdb_err *err)
{
	struct pdb_run **runs = NULL;
	struct pick *pk = NULL;
	struct pdb_chart *c = NULL;
	struct pdb_chart_panel *p, *time = NULL;
	size_t npk = 0;
	char *title = NULL;
	int others = 0;

	if (pdb_chart_load_runs(store, sel, nsel, &runs, err) < 0)
		return NULL;
	npk = pick_results(runs, nsel, opts, &pk);
	if (npk == 0) {
		pdb_err_set(err, PDB_EXIT_INPUT, "no latency series (a time metric with samples or "
			    "percentiles) in the runs given%s",
			    opts->bench_glob || opts->metric_glob ? " (and --bench/--metric)" : "");
		goto out;
	}
	if (npk > MAX_LINES) {
		pdb_err_set(err, PDB_EXIT_USAGE, "%zu latency series match; narrow them with "
			    "--bench or --metric (at most %d)", npk, MAX_LINES);
		goto out;
	}
	label_picks(pk, npk);
	for (size_t i = 1; i < npk; i++)
		others |= strcmp(pk[i].r->benchmark, pk[0].r->benchmark) != 0;
	title = opts->title ? pdb_xstrdup(opts->title) :
		pdb_xasprintf("Latency: %s%s", pk[0].r->benchmark, others ? " and others" : "");
	c = pdb_chart_new("latency", title, opts->width, opts->height, opts->theme);
	p = pdb_chart_add_panel(c, "Percentile spectrum", "percentile", "", "latency", "s");
	p->x.kind = PDB_AXIS_NINES;
	p->weight = 1.3;
	for (size_t i = 0; i < npk; i++) {
		double *x, *y;
		size_t n;
		if (count_percentiles(pk[i].r) >= 3 || pk[i].r->nsamples < 2)
			spectrum_from_stats(pk[i].r, &x, &y, &n);
		else
			spectrum_from_samples(pk[i].r, &x, &y, &n);
		pdb_chart_add_series(p, pk[i].label, PDB_MARK_LINE | (n <= 12 ? PDB_MARK_POINTS : 0),
				     (int)i, x, y, NULL, NULL, n);
		free(x);
		free(y);
	}
	auto_log(p, 20);
	for (size_t i = 0; i < npk; i++) {
		double *x, *y;
		size_t n = over_time(pk[i].r, &x, &y);
		if (n > 0) {
			if (!time)
				time = pdb_chart_add_panel(c, "Latency over time", "time", "s", "latency", "s");
			pdb_chart_add_series(time, pk[i].label, PDB_MARK_LINE, (int)i, x, y, NULL, NULL, n);
		}
		free(x);
		free(y);
	}
	if (time)
		auto_log(time, 50);
	else
		percentiles_over_time(c, pk, npk);
	throughput_panel(c, runs, nsel, opts, nsel > 1);
out:
	for (size_t i = 0; i < npk; i++)
		free(pk[i].label);
	free(pk);
	free(title);
	pdb_chart_runs_free(runs, nsel);
	return c;
}
