/* Chart kinds: history — one series across runs, its range band and change points. */
#include "chart/kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "util.h"

#define MAX_LINES 8

/* The x positions: every run any of the series has, by id. */
struct runs_axis {
	int64_t *ids;
	char **names;
	size_t n;
};

static void axis_add(struct runs_axis *a, const struct pdb_history_point *p)
{
	size_t k = 0;

	while (k < a->n && a->ids[k] < p->run_id)
		k++;
	if (k < a->n && a->ids[k] == p->run_id)
		return;
	a->ids = pdb_xrealloc(a->ids, (a->n + 1) * sizeof *a->ids);
	a->names = pdb_xrealloc(a->names, (a->n + 1) * sizeof *a->names);
	memmove(a->ids + k + 1, a->ids + k, (a->n - k) * sizeof *a->ids);
	memmove(a->names + k + 1, a->names + k, (a->n - k) * sizeof *a->names);
	a->ids[k] = p->run_id;
	if (p->commit)
		a->names[k] = pdb_xstrndup(p->commit, 7);
	else if (p->run_name)
		a->names[k] = pdb_xstrdup(p->run_name);
	else
		a->names[k] = pdb_xasprintf("run%lld", (long long)p->run_id);
	a->n++;
}

static double position(const struct runs_axis *a, int64_t id)
{
	for (size_t k = 0; k < a->n; k++)
		if (a->ids[k] == id)
			return (double)k;
	return NAN;
}

/* Change points of one series, drawn between the runs on either side. */
static size_t change_points(const struct pdb_history_point *pts, size_t n, int direction,
			    const struct runs_axis *axis, struct pdb_chart_panel *p)
{
	struct pdb_detect_opts o;
	struct pdb_detect_result res = { 0 };
	struct pdb_err err;
	double *x = pdb_xmalloc((n ? n : 1) * sizeof *x);
	size_t m = 0, found = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(pts[i].value))
			x[m++] = pts[i].value;
	pdb_detect_opts_init(&o);
	o.direction = direction;
	if (m == n && m >= 4 && pdb_detect(x, m, &o, NULL, NULL, &res, &err) == 0) {
		for (size_t k = 0; k < res.ncps; k++) {
			size_t i = res.cps[k].index;
			pdb_chart_add_vmark(p, (position(axis, pts[i - 1].run_id) +
						position(axis, pts[i].run_id)) / 2);
		}
		found = res.ncps;
	}
	pdb_detect_result_release(&res);
	free(x);
	return found;
}

/* Without --metric, leave out what is reported but never gated (exit
 * codes, counts) when something else is there. */
static void keep_gated(struct pdb_series *s, size_t *n)
{
	size_t kept = 0;

	for (size_t i = 0; i < *n; i++)
		kept += s[i].direction != PDB_DIR_NONE;
	if (kept == 0 || kept == *n)
		return;
	kept = 0;
	for (size_t i = 0; i < *n; i++) {
		if (s[i].direction != PDB_DIR_NONE) {
			struct pdb_series t = s[kept];
			s[kept++] = s[i];
			s[i] = t;
		}
	}
	*n = kept;
}

static int series_range(struct pdb_store *store, const char *const *sel, size_t nsel,
			int64_t *since, int64_t *until, struct pdb_err *err)
{
	*since = *until = 0;
	if (nsel > 2)
		return pdb_err_set(err, PDB_EXIT_USAGE, "history takes at most two runs: FROM [TO]");
	if (nsel >= 1 && pdb_store_resolve(store, sel[0], since, err) < 0)
		return -1;
	if (nsel == 2 && pdb_store_resolve(store, sel[1], until, err) < 0)
		return -1;
	return 0;
}

struct pdb_chart *pdb_history_chart(struct pdb_store *store, const char *const *sel,
				    size_t nsel, const struct pdb_plot_opts *opts,
				    struct pdb_err *err)
{
	struct pdb_series *series = NULL;
	struct pdb_history_point **pts = NULL;
	size_t nseries = 0, total = 0, *npts = NULL, ncp = 0;
	struct runs_axis axis = { 0 };
	struct pdb_chart *c = NULL;
	struct pdb_chart_panel *p;
	int64_t since, until;
	char *title = NULL, *panel = NULL;

	if (series_range(store, sel, nsel, &since, &until, err) < 0 ||
	    pdb_store_list_series(store, opts->bench_glob, opts->metric_glob, &series, &total, err) < 0)
		return NULL;
	nseries = total;
	if (!opts->metric_glob)
		keep_gated(series, &nseries);
	if (nseries == 0) {
		pdb_err_set(err, PDB_EXIT_INPUT, "no series match%s%s%s%s", opts->bench_glob ? " --bench " : "",
			    opts->bench_glob ? opts->bench_glob : "", opts->metric_glob ? " --metric " : "",
			    opts->metric_glob ? opts->metric_glob : "");
		goto out;
	}
	if (nseries > MAX_LINES) {
		pdb_err_set(err, PDB_EXIT_USAGE, "%zu series match; narrow them with --bench or "
			    "--metric (at most %d)", nseries, MAX_LINES);
		goto out;
	}
	for (size_t s = 1; s < nseries; s++)
		if (strcmp(series[s].unit, series[0].unit) != 0) {
			pdb_err_set(err, PDB_EXIT_USAGE, "the matching series have different units "
				    "(%s, %s); narrow them with --bench or --metric",
				    series[0].unit, series[s].unit);
			goto out;
		}
	pts = pdb_xcalloc(nseries, sizeof *pts);
	npts = pdb_xcalloc(nseries, sizeof *npts);
	for (size_t s = 0; s < nseries; s++) {
		if (pdb_store_series_history(store, series[s].id, NULL, since, until, &pts[s],
					     &npts[s], err) < 0)
			goto out;
		for (size_t i = 0; i < npts[s]; i++)
			axis_add(&axis, &pts[s][i]);
	}
	if (axis.n == 0) {
		pdb_err_set(err, PDB_EXIT_INPUT, "the matching series have no values in the runs given");
		goto out;
	}
	title = opts->title ? pdb_xstrdup(opts->title) :
		nseries == 1 ? pdb_xasprintf("History: %s%s%s (%s)", series[0].benchmark,
					     strcmp(series[0].dims, "{}") ? " " : "",
					     strcmp(series[0].dims, "{}") ? series[0].dims : "",
					     series[0].metric) :
		pdb_xasprintf("History: %zu series", nseries);
	c = pdb_chart_new("history", title, opts->width, opts->height, opts->theme);
	p = pdb_chart_add_panel(c, NULL, "run (commit, name or id)", "", series[0].metric,
				series[0].unit);
	pdb_chart_axis_categories(&p->x, (const char *const *)axis.names, axis.n);
	for (size_t s = 0; s < nseries; s++) {
		size_t n = npts[s];
		double *x = pdb_xmalloc((n ? n : 1) * sizeof *x), *y = pdb_xmalloc((n ? n : 1) * sizeof *y);
		double *lo = pdb_xmalloc((n ? n : 1) * sizeof *lo), *hi = pdb_xmalloc((n ? n : 1) * sizeof *hi);
		int band = 0;
		char *label;
		for (size_t i = 0; i < n; i++) {
			x[i] = position(&axis, pts[s][i].run_id);
			y[i] = pts[s][i].value;
			lo[i] = isfinite(pts[s][i].min) ? pts[s][i].min : y[i];
			hi[i] = isfinite(pts[s][i].max) ? pts[s][i].max : y[i];
			band |= lo[i] != hi[i];
		}
		label = nseries == 1 ? pdb_xstrdup(band ? "median, band: min to max" : "value") :
			pdb_xasprintf("%s %s %s", series[s].benchmark,
				      strcmp(series[s].dims, "{}") ? series[s].dims : "", series[s].metric);
		pdb_chart_add_series(p, label, PDB_MARK_LINE | PDB_MARK_POINTS | (band ? PDB_MARK_BAND : 0),
				     (int)s, x, y, band ? lo : NULL, band ? hi : NULL, n);
		ncp += change_points(pts[s], n, series[s].direction, &axis, p);
		free(label);
		free(x);
		free(y);
		free(lo);
		free(hi);
	}
	panel = pdb_xasprintf("%zu runs; %zu change point%s", axis.n, ncp,
			      ncp == 0 ? "s" : ncp == 1 ? " (dashed line)" : "s (dashed lines)");
	free(p->title);
	p->title = panel;
out:
	for (size_t s = 0; pts && s < nseries; s++)
		pdb_history_free(pts[s], npts[s]);
	free(pts);
	free(npts);
	for (size_t k = 0; k < axis.n; k++)
		free(axis.names[k]);
	free(axis.names);
	free(axis.ids);
	free(title);
	pdb_series_free(series, total);
	return c;
}
