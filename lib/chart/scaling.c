/* Chart kinds: scaling — throughput against vCPUs, per vCPU, efficiency and a USL fit. */
#include "chart/kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/layout.h"
#include "util.h"

/* One measured value of a candidate series at a vCPU count. */
struct point {
	char *key;      /* benchmark \t dims without vcpus \t metric */
	const struct pdb_result *r;
	double vcpus, value;
};

static int vcpus_of(const struct pdb_run *run, const struct pdb_result *r, double *out)
{
	const char *v = pdb_result_get_dim(r, "vcpus");

	if (!v)
		v = pdb_run_get_attr(run, "vcpus");
	return v && pdb_parse_double(v, out) == 0 && *out > 0 ? 0 : -1;
}

static char *series_key(const struct pdb_result *r)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_printf(&b, "%s\t", r->benchmark);
	for (size_t i = 0; i < r->ndims; i++)
		if (strcmp(r->dims[i].key, "vcpus") != 0)
			pdb_buf_printf(&b, "%s=%s,", r->dims[i].key, r->dims[i].value);
	pdb_buf_printf(&b, "\t%s", r->metric);
	return b.data;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* How well a group of points suits a scaling chart: distinct counts, and
 * throughput-like metrics first. */
static int group_score(const struct point *pts, size_t n, const char *key, int *distinct)
{
	double *v = pdb_xmalloc((n ? n : 1) * sizeof *v);
	const struct pdb_result *r = NULL;
	size_t m = 0;
	int d = 0;

	for (size_t i = 0; i < n; i++)
		if (strcmp(pts[i].key, key) == 0) {
			v[m++] = pts[i].vcpus;
			r = pts[i].r;
		}
	qsort(v, m, sizeof *v, cmp_double);
	for (size_t i = 0; i < m; i++)
		d += i == 0 || v[i] != v[i - 1];
	free(v);
	*distinct = d;
	if (!r)
		return 0;
	return d * 4 + (r->direction == PDB_DIR_HIGHER ? 2 : strcmp(r->unit, "s") == 0 ? 1 : 0);
}

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Rows of the chosen group: one per vCPU count (the median when several). */
static void fill_rows(const struct point *pts, size_t n, const char *key, struct pdb_scaling *s)
{
	double *vals = pdb_xmalloc((n ? n : 1) * sizeof *vals);
	double *counts = pdb_xmalloc((n ? n : 1) * sizeof *counts);
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (strcmp(pts[i].key, key) == 0)
			counts[m++] = pts[i].vcpus;
	qsort(counts, m, sizeof *counts, cmp_double);
	s->rows = pdb_xcalloc(m ? m : 1, sizeof *s->rows);
	for (size_t c = 0; c < m; c++) {
		size_t k = 0;
		struct pdb_scaling_row *row;
		if (c > 0 && counts[c] == counts[c - 1])
			continue;
		for (size_t i = 0; i < n; i++)
			if (strcmp(pts[i].key, key) == 0 && pts[i].vcpus == counts[c])
				vals[k++] = s->from_time ? 1 / pts[i].value : pts[i].value;
		row = &s->rows[s->n++];
		row->vcpus = counts[c];
		row->throughput = median_of(vals, k);
	}
	for (size_t i = 0; i < s->n; i++) {
		struct pdb_scaling_row *row = &s->rows[i], *first = &s->rows[0];
		row->per_vcpu = row->throughput / row->vcpus;
		row->speedup = row->throughput / first->throughput;
		row->efficiency = 100 * row->per_vcpu / first->per_vcpu;
		row->increase = i == 0 ? NAN : (row->throughput - s->rows[i - 1].throughput) /
						(row->vcpus - s->rows[i - 1].vcpus);
	}
	free(vals);
	free(counts);
}

int pdb_scaling_gather(struct pdb_store *store, const char *const *sel, size_t nsel,
		       const struct pdb_plot_opts *opts, struct pdb_scaling *out,
		       struct pdb_err *err)
{
	struct pdb_run **runs = NULL;
	struct point *pts = NULL;
	size_t npts = 0, cap = 0;
	const char *best = NULL;
	const struct pdb_result *best_r = NULL;
	int best_score = 0, best_distinct = 0, ret = -1;

	memset(out, 0, sizeof *out);
	if (pdb_chart_load_runs(store, sel, nsel, &runs, err) < 0)
		return -1;
	for (size_t k = 0; k < nsel; k++)
		for (size_t i = 0; i < runs[k]->nresults; i++) {
			const struct pdb_result *r = &runs[k]->results[i];
			double vc, v = pdb_chart_result_value(r);
			if (!pdb_glob_match(opts->bench_glob, r->benchmark) ||
			    !pdb_glob_match(opts->metric_glob, r->metric) ||
			    vcpus_of(runs[k], r, &vc) < 0 || !(v > 0))
				continue;
			pdb_grow((void **)&pts, &cap, npts + 1, sizeof *pts);
			pts[npts].key = series_key(r);
			pts[npts].r = r;
			pts[npts].vcpus = vc;
			pts[npts].value = v;
			npts++;
		}
	for (size_t i = 0; i < npts; i++) {
		int distinct, score = group_score(pts, npts, pts[i].key, &distinct);
		if (score > best_score) {
			best_score = score;
			best = pts[i].key;
			best_r = pts[i].r;
			best_distinct = distinct;
		}
	}
	if (!best || best_distinct < 2) {
		pdb_err_set(err, PDB_EXIT_INPUT, "no series with a vcpus dimension or attribute at "
			    "two or more counts in the runs given%s",
			    opts->bench_glob || opts->metric_glob ? " (and --bench/--metric)" : "");
		goto out;
	}
	out->benchmark = pdb_xstrdup(best_r->benchmark);
	out->metric = pdb_xstrdup(best_r->metric);
	out->from_time = best_r->direction != PDB_DIR_HIGHER && strcmp(best_r->unit, "s") == 0;
	out->unit = pdb_xstrdup(out->from_time ? "runs/s" : best_r->unit);
	fill_rows(pts, npts, best, out);
	if (out->n >= 4) {
		double *nv = pdb_xmalloc(out->n * sizeof *nv), *xv = pdb_xmalloc(out->n * sizeof *xv);
		for (size_t i = 0; i < out->n; i++) {
			nv[i] = out->rows[i].vcpus;
			xv[i] = out->rows[i].throughput;
		}
		out->has_usl = pdb_usl_fit(nv, xv, out->n, &out->usl) == 0;
		free(nv);
		free(xv);
	}
	ret = 0;
out:
	for (size_t i = 0; i < npts; i++)
		free(pts[i].key);
	free(pts);
	pdb_chart_runs_free(runs, nsel);
	return ret;
}

void pdb_scaling_release(struct pdb_scaling *s)
{
	free(s->benchmark);
	free(s->metric);
	free(s->unit);
	free(s->rows);
	memset(s, 0, sizeof *s);
}

static void usl_curve(const struct pdb_scaling *s, struct pdb_chart_panel *p)
{
	double nmax = s->rows[s->n - 1].vcpus, nmin = s->rows[0].vcpus, x[101], y[101];
	char label[160];

	/* up to the peak when it is near, else a little past the data */
	if (isfinite(s->usl.peak_n) && s->usl.peak_n > nmax && s->usl.peak_n < 2 * nmax)
		nmax = s->usl.peak_n * 1.1;
	else
		nmax *= 1.15;
	for (int i = 0; i <= 100; i++) {
		x[i] = nmin + (nmax - nmin) * i / 100.0;
		y[i] = pdb_usl_eval(&s->usl, x[i]);
	}
	if (isfinite(s->usl.peak_n))
		snprintf(label, sizeof label, "USL fit: σ=%.3g κ=%.3g, peak at N*=%.3g",
			 s->usl.sigma, s->usl.kappa, s->usl.peak_n);
	else
		snprintf(label, sizeof label, "USL fit: σ=%.3g κ=0, no peak", s->usl.sigma);
	pdb_chart_add_series(p, label, PDB_MARK_LINE | PDB_MARK_DASHED, PDB_COLOR_VERMILLION,
			     x, y, NULL, NULL, 101);
}

/* Both panels share one x range: that of the first (with the USL curve). */
static void same_x(struct pdb_chart *c)
{
	const struct pdb_chart_panel *first = &c->panels[0];
	double lo = 0, hi = 0;

	for (size_t s = 0; s < first->nseries; s++)
		for (size_t i = 0; i < first->series[s].n; i++)
			if (first->series[s].x[i] > hi)
				hi = first->series[s].x[i];
	pdb_chart_nice_range(&lo, &hi, 8);
	for (size_t i = 0; i < c->npanels; i++) {
		c->panels[i].x.min = lo;
		c->panels[i].x.max = hi > 1 ? ceil(hi) : hi;
		c->panels[i].x.integer = 1;
	}
}

struct pdb_chart *pdb_scaling_chart(const struct pdb_scaling *s, const struct pdb_plot_opts *opts)
{
	double *n = pdb_xmalloc(s->n * sizeof *n), *x = pdb_xmalloc(s->n * sizeof *x);
	double *eff = pdb_xmalloc(s->n * sizeof *eff), ideal_x[2], ideal_y[2], top = 0;
	char *title = opts->title ? pdb_xstrdup(opts->title) :
		      pdb_xasprintf("Scaling: %s (%s)", s->benchmark, s->metric);
	struct pdb_chart *c = pdb_chart_new("scaling", title, opts->width, opts->height, opts->theme);
	struct pdb_chart_panel *p;
	char ideal[96], per[96];

	for (size_t i = 0; i < s->n; i++) {
		n[i] = s->rows[i].vcpus;
		x[i] = s->rows[i].throughput;
		eff[i] = s->rows[i].efficiency;
	}
	p = pdb_chart_add_panel(c, NULL, "vCPUs", "", "throughput", s->unit);
	p->weight = 1.7;
	p->x.include_zero = p->y.include_zero = 1;
	/* the ideal line stops a little above the highest measurement */
	ideal_x[0] = n[0];
	ideal_y[0] = x[0];
	ideal_x[1] = n[s->n - 1];
	for (size_t i = 0; i < s->n; i++)
		top = x[i] > top ? x[i] : top;
	if (x[0] * ideal_x[1] / n[0] > 1.25 * top)
		ideal_x[1] = 1.25 * top * n[0] / x[0];
	ideal_y[1] = x[0] * ideal_x[1] / n[0];
	snprintf(ideal, sizeof ideal, "ideal linear (from %g vCPU%s)", n[0], n[0] == 1 ? "" : "s");
	pdb_chart_add_series(p, ideal, PDB_MARK_LINE | PDB_MARK_DASHED, PDB_COLOR_GREY,
			     ideal_x, ideal_y, NULL, NULL, 2);
	if (s->has_usl)
		usl_curve(s, p);
	pdb_chart_add_series(p, "measured", PDB_MARK_LINE | PDB_MARK_POINTS, PDB_COLOR_BLUE,
			     n, x, NULL, NULL, s->n);
	p = pdb_chart_add_panel(c, NULL, "vCPUs", "", "parallel efficiency", "%");
	p->y.include_zero = 1;
	same_x(c);
	snprintf(per, sizeof per, "throughput per vCPU");
	pdb_chart_axis_second(&p->y, s->rows[0].per_vcpu / 100, per, s->unit);
	pdb_chart_add_hmark(p, 100);
	pdb_chart_add_series(p, "efficiency (left) = per vCPU (right)",
			     PDB_MARK_LINE | PDB_MARK_POINTS, PDB_COLOR_GREEN, n, eff, NULL, NULL, s->n);
	free(n);
	free(x);
	free(eff);
	free(title);
	return c;
}
