/* Report: the charts of the page (compare, scaling, latency, history), drawn as PNG and SVG. */
#include "report_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/layout.h"
#include "chart/render.h"
#include "detect_wall.h"
#include "gather/chart_gather.h"
#include "metric_role.h"
#include "sampled.h"
#include "svg_inline.h"
#include "units.h"

#define WIDTH 1000
#define MAX_COMPARE_ROWS 30
#define MAX_HISTORY 6
#define HISTORY_POINTS 60
#define MIN_HISTORY 4   /* runs a history needs to be worth a chart */

void pdb_report_chart_release(struct report_chart *c)
{
	free(c->name);
	free(c->alt);
	free(c->svg);
	free(c->note);
	memset(c, 0, sizeof *c);
}

void pdb_report_history_release(struct report_history *h)
{
	pdb_history_free(h->pts, h->n);
	pdb_detect_result_release(&h->res);
	pdb_report_chart_release(&h->chart);
}

static void add_file(struct pdb_report_files *files, char *path)
{
	files->paths = pdb_xrealloc(files->paths, (files->n + 1) * sizeof *files->paths);
	files->paths[files->n++] = path;
}

static int read_file(const char *path, struct pdb_buf *b, struct pdb_err *err)
{
	FILE *f = fopen(path, "rb");
	char chunk[8192];
	size_t n;
	int rc = 0;

	if (!f)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		pdb_buf_add(b, chunk, n);
	if (ferror(f))
		rc = pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: read error", path);
	fclose(f);
	return rc;
}

/* Lay out and draw chart (freed here) as dir/name.png and dir/name.svg. */
static int render(struct pdb_chart *chart, const char *dir, const char *name, const char *alt,
		  struct report_chart *out, struct pdb_report_files *files, struct pdb_err *err)
{
	struct pdb_chart_layout *layout = pdb_chart_layout(chart);
	char *png = pdb_xasprintf("%s/%s.png", dir, name);
	char *svg = pdb_xasprintf("%s/%s.svg", dir, name);
	struct pdb_buf text;
	int rc = -1;

	pdb_buf_init(&text);
	if (pdb_chart_render(chart, layout, png, PDB_OUT_OWN, PDB_CHART_PNG, err) < 0)
		goto out;
	add_file(files, png);
	png = NULL;
	if (pdb_chart_render(chart, layout, svg, PDB_OUT_OWN, PDB_CHART_SVG, err) < 0)
		goto out;
	add_file(files, pdb_xstrdup(svg));
	if (read_file(svg, &text, err) < 0)
		goto out;
	out->name = pdb_xstrdup(name);
	out->alt = pdb_xstrdup(alt);
	out->svg = pdb_report_inline_svg(text.data ? text.data : "", name);
	rc = 0;
out:
	pdb_buf_release(&text);
	pdb_chart_layout_free(layout);
	pdb_chart_free(chart);
	free(png);
	free(svg);
	return rc;
}

/* ---- compare: the change of every series with its interval, by verdict ---- */

/* The chart draws the report's comparison itself, every verdict a row. */
static int compare_chart(struct report *r, const char *dir, struct pdb_report_files *files,
			 struct pdb_err *err)
{
	struct pdb_plot_opts o = { .width = WIDTH, .theme = PDB_THEME_LIGHT,
				   .title = "Change per series" };
	size_t shown = 0;
	struct pdb_chart *c;
	char *alt;
	int rc;

	for (size_t i = 0; i < r->cmp.nrows; i++)
		shown += r->cmp.rows[i].hidden == PDB_SHOWN;
	if (shown == 0)
		return 0;
	o.height = 150 + 30 * (int)(shown < MAX_COMPARE_ROWS ? shown : MAX_COMPARE_ROWS);
	if (o.height < 300)
		o.height = 300;
	c = pdb_compare_chart(&r->cmp, MAX_COMPARE_ROWS, &o);
	alt = pdb_xasprintf("%s: the change of the candidate in %%, with its interval, "
			    "coloured by verdict; series without a change (failed, missing, new) "
			    "by their verdict", c->title);
	rc = render(c, dir, "compare", alt, &r->compare_chart, files, err);
	free(alt);
	return rc;
}

/* ---- scaling and latency: the chart kinds, when the runs have the data ---- */

/* A missing kind of data is no error: clear it and draw nothing. */
static int absent(struct pdb_err *err)
{
	if (err->code != PDB_EXIT_INPUT && err->code != PDB_EXIT_USAGE)
		return -1;
	pdb_err_clear(err);
	return 0;
}

/* The scaling of the one run sel names. */
static int scaling_of(struct pdb_store *store, const char *const *sel,
		      const struct pdb_plot_opts *o, struct pdb_scaling *out, struct pdb_err *err)
{
	struct pdb_run **runs;
	int rc;

	memset(out, 0, sizeof *out);
	if (pdb_gather_runs(store, sel, 1, &runs, err) < 0)
		return -1;
	rc = pdb_scaling_of(runs, 1, o, out, err);
	pdb_gather_runs_free(runs, 1);
	return rc;
}

/* The candidate's scaling, and the baseline's of the same benchmark and
 * metric drawn beside it when it has one. */
static int scaling_chart(struct pdb_store *store, struct report *r, const char *dir,
			 struct pdb_report_files *files, struct pdb_err *err)
{
	struct pdb_plot_opts o = { .width = WIDTH, .height = 620, .theme = PDB_THEME_LIGHT };
	char *sel = pdb_xasprintf("run%lld", (long long)r->cand->id), *alt, *bench, *metric;
	char *bsel = r->base ? pdb_xasprintf("run%lld", (long long)r->base->id) : NULL;
	const char *runs[1] = { sel }, *bruns[1] = { bsel };
	struct pdb_scaling base = { 0 };
	struct pdb_plot_opts bo = o;
	int rc, has_base = 0;

	rc = scaling_of(store, runs, &o, &r->scaling, err);
	free(sel);
	if (rc < 0) {
		free(bsel);
		return absent(err);
	}
	r->has_scaling = 1;
	bench = pdb_glob_quote(r->scaling.benchmark);
	metric = pdb_glob_quote(r->scaling.metric);
	bo.bench_glob = bench;
	bo.metric_glob = metric;
	if (bsel) {
		has_base = scaling_of(store, bruns, &bo, &base, err) == 0;
		if (!has_base && absent(err) < 0) {
			free(bsel);
			free(bench);
			free(metric);
			return -1;
		}
	}
	free(bsel);
	free(bench);
	free(metric);
	alt = pdb_xasprintf("Scaling of %s (%s) with vCPUs: throughput, ideal line and "
			    "parallel efficiency%s", r->scaling.benchmark, r->scaling.metric,
			    has_base ? ", the baseline's dashed" : "");
	rc = render(pdb_scaling_chart(&r->scaling, has_base ? &base : NULL, &o), dir, "scaling",
		    alt, &r->scaling_chart, files, err);
	if (has_base)
		pdb_scaling_release(&base);
	free(alt);
	return rc;
}

/* A latency series: a time named so ("latency", fio's "clat"), or with
 * the tool's percentiles; or a resource sampled during the run (the
 * latency chart's panels over time). */
static int latency_result(const struct pdb_result *r)
{
	size_t np = 0;
	double v;

	if (pdb_sampled_kind(r))
		return 1;
	if (strcmp(r->unit, "s") != 0)
		return 0;
	if (strstr(r->metric, "lat"))
		return 1;
	for (size_t k = 0; k < r->nstats; k++)
		np += r->stats[k].name[0] == 'p' && pdb_parse_double(r->stats[k].name + 1, &v) == 0;
	return np >= 3 || (r->nsamples && pdb_sample_has_weight(&r->samples[0]));
}

static int has_latency(const struct pdb_run *run)
{
	for (size_t i = 0; run && i < run->nresults; i++)
		if (latency_result(&run->results[i]))
			return 1;
	return 0;
}

/* The runs' latency and resources, one figure: more series than a panel
 * holds are small multiples (pdb_chart_groups), never left out; a series
 * with nothing to draw is said in the figure's note, and on stderr. */
static int latency_charts(struct pdb_store *store, struct report *r, const char *dir,
			  struct pdb_report_files *files, struct pdb_err *err)
{
	struct pdb_plot_opts o = { .width = WIDTH, .height = 560, .theme = PDB_THEME_LIGHT,
				   .title = "Latency" };
	char *bsel = r->base ? pdb_xasprintf("run%lld", (long long)r->base->id) : NULL;
	char *csel = pdb_xasprintf("run%lld", (long long)r->cand->id);
	const char *runs[2] = { bsel ? bsel : csel, csel };
	const char *who = r->base ? "the baseline and the candidate" : "the run";
	struct report_chart *f;
	struct pdb_chart *c;
	struct pdb_run **loaded;
	size_t nruns = bsel ? 2 : 1;
	char *alt;
	int rc = 0, resources;

	if (!has_latency(r->base) && !has_latency(r->cand))
		goto out;
	if (pdb_gather_runs(store, runs, nruns, &loaded, err) < 0) {
		rc = absent(err);
		goto out;
	}
	c = pdb_latency_chart(loaded, nruns, &o, err);
	pdb_gather_runs_free(loaded, nruns);
	if (!c) {
		rc = absent(err);
		goto out;
	}
	resources = c->npanels && strncmp(c->panels[0].title, "Percentile spectrum", 19) != 0;
	r->latency = pdb_xcalloc(1, sizeof *r->latency);
	f = &r->latency[r->nlatency++];
	pdb_set_str(&c->title, resources ? r->base ? "Resources (baseline and candidate)" : "Resources"
				 : r->base ? "Latency percentiles (baseline and candidate)"
				 : "Latency percentiles");
	if (c->nskipped) {
		char *list = pdb_xstrdup(c->skipped[0]);
		for (size_t i = 1; i < c->nskipped; i++) {
			char *l = pdb_xasprintf("%s; %s", list, c->skipped[i]);
			free(list);
			list = l;
		}
		f->note = pdb_xasprintf("Left out of the figure below: %s.", list);
		files->notes = pdb_xrealloc(files->notes, (files->nnotes + 1) * sizeof *files->notes);
		files->notes[files->nnotes++] = pdb_xstrdup(f->note);
		free(list);
	}
	alt = resources ? pdb_xasprintf("Resources sampled during %s, over time", who)
			: pdb_xasprintf("Latency percentile spectrum of %s on a nines axis", who);
	rc = render(c, dir, "latency", alt, f, files, err);
	free(alt);
out:
	free(bsel);
	free(csel);
	return rc;
}

/* ---- history: the series that changed, with their change points ---- */

static int cmp_series_key(const void *key, const void *elem)
{
	const struct pdb_compare_row *row = key;
	const struct pdb_series *s = elem;
	int c = strcmp(row->benchmark, s->benchmark);

	if (!c)
		c = strcmp(row->dims_json, s->dims);
	return c ? c : strcmp(row->metric, s->metric);
}

/* The series of a row, in s as pdb_store_list_series orders it (by
 * benchmark, dims, metric: SQLite's binary order is strcmp's). */
static const struct pdb_series *find_series(const struct pdb_series *s, size_t n,
					    const struct pdb_compare_row *row)
{
	return bsearch(row, s, n, sizeof *s, cmp_series_key);
}

/* Keep the last HISTORY_POINTS points that have a value. */
static void keep_recent(struct report_history *h)
{
	size_t k = 0, first;

	for (size_t i = 0; i < h->n; i++) {
		if (isfinite(h->pts[i].value)) {
			h->pts[k++] = h->pts[i];
		} else {
			free(h->pts[i].run_name);
			free(h->pts[i].created_at);
			free(h->pts[i].commit);
		}
	}
	h->n = k;
	first = k > HISTORY_POINTS ? k - HISTORY_POINTS : 0;
	for (size_t i = 0; i < first; i++) {
		free(h->pts[i].run_name);
		free(h->pts[i].created_at);
		free(h->pts[i].commit);
	}
	memmove(h->pts, h->pts + first, (k - first) * sizeof *h->pts);
	h->n = k - first;
}

/* Whether the series changed: its verdict says so, or a change point lies
 * between the baseline and the candidate. */
static int changed(const struct report *r, const struct report_history *h)
{
	if (h->row->verdict == PDB_VERDICT_REGRESSION || h->row->verdict == PDB_VERDICT_IMPROVEMENT)
		return 1;
	for (size_t k = 0; k < h->res.ncps; k++)
		if (h->pts[h->res.cps[k].index].seq > r->base->seq)
			return 1;
	return 0;
}

static int detect_history(struct pdb_store *store, const struct report *r,
			  const struct pdb_series *s, struct report_history *h,
			  struct pdb_err *err)
{
	struct pdb_detect_opts o;
	double *x;
	int rc = 0;

	if (pdb_store_series_history(store, s->id, r->where, 0, r->cand->id, &h->pts, &h->n, err) < 0)
		return -1;
	keep_recent(h);
	if (h->n < 4)
		return 0;
	x = pdb_xmalloc(h->n * sizeof *x);
	for (size_t i = 0; i < h->n; i++)
		x[i] = h->pts[i].value;
	pdb_detect_opts_init(&o);
	pdb_detect_opts_for(&o, s->metric, s->unit, s->direction);
	rc = pdb_detect(x, h->n, &o, NULL, NULL, &h->res, err);
	free(x);
	return rc;
}

/* A history's points as detect's view of them (arrays the caller frees). */
static void view_of(struct report_history *h, const struct pdb_compare_row *row,
		    struct pdb_detect_view *v)
{
	int64_t *ids = pdb_xmalloc((h->n ? h->n : 1) * sizeof *ids);
	double *x = pdb_xmalloc((h->n ? h->n : 1) * sizeof *x);

	for (size_t i = 0; i < h->n; i++) {
		ids[i] = h->pts[i].run_id;
		x[i] = h->pts[i].value;
	}
	*v = (struct pdb_detect_view){ row->benchmark, row->dims_json, row->metric, ids, x, h->n,
				       &h->res };
}

/* A wall-time history's change points checked against its benchmark's CPU
 * time over the same runs (pdb_detect_check_wall), as detect and the site
 * check them. */
static int check_wall(struct pdb_store *store, const struct report *r,
		      const struct pdb_series *series, size_t nseries, struct report_history *h,
		      struct pdb_err *err)
{
	struct pdb_compare_row key = *h->row;
	const struct pdb_series *cs;
	struct report_history cpu = { .row = &key };
	struct pdb_detect_view v[2];
	int rc = 0;

	if (!h->res.ncps || !pdb_metric_cpu_of(h->row->metric))
		return 0;
	key.metric = (char *)PDB_METRIC_CPU;
	if ((cs = find_series(series, nseries, &key)) == NULL)
		return 0;
	if (detect_history(store, r, cs, &cpu, err) < 0) {
		rc = -1;
	} else if (cpu.n >= MIN_HISTORY) {
		view_of(h, h->row, &v[0]);
		view_of(&cpu, &key, &v[1]);
		pdb_detect_check_wall(v, 2);
		for (int i = 0; i < 2; i++) {
			free((void *)v[i].run_ids);
			free((void *)v[i].values);
		}
	}
	pdb_report_history_release(&cpu);
	return rc;
}

/* Whether an earlier history has the same benchmark and metric (one chart
 * shows all the dims of a benchmark's metric). */
static int charted(const struct report *r, const struct pdb_compare_row *row)
{
	for (size_t i = 0; i < r->nhist; i++)
		if (strcmp(r->hist[i].row->benchmark, row->benchmark) == 0 &&
		    strcmp(r->hist[i].row->metric, row->metric) == 0)
			return 1;
	return 0;
}

static int history_chart(struct pdb_store *store, const struct report *r,
			 struct report_history *h, size_t index, const char *dir,
			 struct pdb_report_files *files, struct pdb_err *err)
{
	char *from = pdb_xasprintf("run%lld", (long long)h->pts[0].run_id);
	char *to = pdb_xasprintf("run%lld", (long long)r->cand->id);
	char *bench = pdb_glob_quote(h->row->benchmark), *metric = pdb_glob_quote(h->row->metric);
	char *title = pdb_xasprintf("History: %s (%s)", h->row->benchmark, h->row->metric);
	char *name = pdb_xasprintf("history-%zu", index + 1);
	struct pdb_plot_opts o = { .bench_glob = bench, .metric_glob = metric, .title = title,
				   .where = r->where,
				   .width = WIDTH, .height = 380, .theme = PDB_THEME_LIGHT };
	const char *runs[2] = { from, to };
	struct pdb_history_model m;
	struct pdb_chart *c = NULL;
	int rc;

	if (pdb_gather_history(store, runs, 2, &o, &m, err) == 0)
		c = pdb_history_chart(&m, &o, err);
	pdb_gather_history_release(&m);
	if (!c) {
		rc = absent(err);
	} else {
		char *alt = pdb_xasprintf("%s over the last %zu runs, change points dashed",
					  title, h->n);
		rc = render(c, dir, name, alt, &h->chart, files, err);
		free(alt);
	}
	free(from);
	free(to);
	free(bench);
	free(metric);
	free(title);
	free(name);
	return rc;
}

static int histories(struct pdb_store *store, struct report *r, const char *dir,
		     struct pdb_report_files *files, struct pdb_err *err)
{
	struct pdb_series *series = NULL;
	size_t nseries = 0;
	int rc = -1;

	if (pdb_store_list_series(store, NULL, NULL, &series, &nseries, err) < 0)
		return -1;
	r->hist = pdb_xcalloc(MAX_HISTORY, sizeof *r->hist);
	for (size_t i = 0; i < r->cmp.nrows && r->nhist < MAX_HISTORY; i++) {
		const struct pdb_compare_row *row = &r->cmp.rows[i];
		const struct pdb_series *s = find_series(series, nseries, row);
		struct report_history *h = &r->hist[r->nhist];

		if (!s || row->direction == PDB_DIR_NONE || row->verdict == PDB_VERDICT_MISSING ||
		    charted(r, row))
			continue;
		h->row = row;
		if (detect_history(store, r, s, h, err) < 0 ||
		    check_wall(store, r, series, nseries, h, err) < 0) {
			pdb_report_history_release(h);
			goto out;
		}
		if (h->n < MIN_HISTORY || !changed(r, h)) {
			pdb_report_history_release(h);
			memset(h, 0, sizeof *h);
			continue;
		}
		r->nhist++;
		if (history_chart(store, r, h, r->nhist - 1, dir, files, err) < 0)
			goto out;
	}
	rc = 0;
out:
	pdb_series_free(series, nseries);
	return rc;
}

int pdb_report_charts(struct pdb_store *store, struct report *r, const char *dir,
		      struct pdb_report_files *files, struct pdb_err *err)
{
	if (compare_chart(r, dir, files, err) < 0 ||
	    scaling_chart(store, r, dir, files, err) < 0 ||
	    latency_charts(store, r, dir, files, err) < 0 ||
	    (r->base && histories(store, r, dir, files, err) < 0))
		return -1;
	return 0;
}
