/* Chart kinds: history — one series across runs, its range band and change points. */
#include "chart/kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "chart/layout.h"
#include "detect.h"
#include "metric_role.h"
#include "dim_filter.h"
#include "util.h"

#define MAX_MARKED 120   /* runs on the x axis up to which each point is marked */

/* The x positions: every run any of the series has, in the order of runs
 * (by seq: lib/series.h). */
struct runs_axis {
	int64_t *seqs, *ids;
	char **names;
	size_t n;
};

static void axis_add(struct runs_axis *a, const struct pdb_history_point *p)
{
	size_t k = 0;

	while (k < a->n && a->seqs[k] < p->seq)
		k++;
	if (k < a->n && a->seqs[k] == p->seq)
		return;
	a->seqs = pdb_xrealloc(a->seqs, (a->n + 1) * sizeof *a->seqs);
	a->ids = pdb_xrealloc(a->ids, (a->n + 1) * sizeof *a->ids);
	a->names = pdb_xrealloc(a->names, (a->n + 1) * sizeof *a->names);
	memmove(a->seqs + k + 1, a->seqs + k, (a->n - k) * sizeof *a->seqs);
	memmove(a->ids + k + 1, a->ids + k, (a->n - k) * sizeof *a->ids);
	memmove(a->names + k + 1, a->names + k, (a->n - k) * sizeof *a->names);
	a->seqs[k] = p->seq;
	a->ids[k] = p->run_id;
	if (p->commit)
		a->names[k] = pdb_xstrndup(p->commit, pdb_utf8_prefix(p->commit, 7)); /* whole characters */
	else if (p->run_name)
		a->names[k] = pdb_xstrdup(p->run_name);
	else
		a->names[k] = pdb_xasprintf("run%lld", (long long)p->run_id);
	a->n++;
}

static int cmp_name_ref(const void *a, const void *b)
{
	return strcmp(**(char **const *)a, **(char **const *)b);
}

/* Runs of one commit (or name) each read "c012 (run17)", so that the ticks
 * tell them apart (sorted by name: the axis may have 100,000 runs). */
static void axis_tell_apart(struct runs_axis *a)
{
	char ***by_name = pdb_xcalloc(a->n + 1, sizeof *by_name);
	int *repeats = pdb_xcalloc(a->n + 1, sizeof *repeats);

	for (size_t k = 0; k < a->n; k++)
		by_name[k] = &a->names[k];
	qsort(by_name, a->n, sizeof *by_name, cmp_name_ref);
	for (size_t k = 1; k < a->n; k++)
		if (strcmp(*by_name[k - 1], *by_name[k]) == 0)
			repeats[by_name[k - 1] - a->names] = repeats[by_name[k] - a->names] = 1;
	for (size_t k = 0; k < a->n; k++)
		if (repeats[k]) {
			char *both = pdb_xasprintf("%s (run%lld)", a->names[k], (long long)a->ids[k]);
			free(a->names[k]);
			a->names[k] = both;
		}
	free(by_name);
	free(repeats);
}

/* The x of the run at place seq. */
static double position(const struct runs_axis *a, int64_t seq)
{
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->seqs[mid] < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->n && a->seqs[lo] == seq ? (double)lo : NAN;
}

/* Change points of one series, drawn between the runs on either side in
 * the series' colour, and the outliers detect set apart, marked. */
static size_t change_points(const struct pdb_history_point *pts, size_t n,
			    const struct pdb_series *series,
			    const struct pdb_detect_result *given, int color,
			    const struct runs_axis *axis, struct pdb_chart_panel *p,
			    const char *outlier_label, const char *cp_label, size_t *noutliers)
{
	struct pdb_detect_opts o;
	struct pdb_detect_result own = { 0 };
	const struct pdb_detect_result *res = &own;
	struct pdb_err err;
	double *x = pdb_xmalloc((n ? n : 1) * sizeof *x), *ox, *oy;
	size_t m = 0, found = 0;
	int ok;

	for (size_t i = 0; i < n; i++)
		if (isfinite(pts[i].value))
			x[m++] = pts[i].value;
	pdb_detect_opts_init(&o);
	pdb_detect_opts_for(&o, series->metric, series->unit, series->direction);
	*noutliers = 0;
	/* detect's result when the caller has it, for the same points */
	ok = m == n && m >= 4;
	if (ok && given)
		res = given;
	else if (ok)
		ok = pdb_detect(x, m, &o, NULL, NULL, &own, &err) == 0;
	if (ok) {
		for (size_t k = 0; k < res->ncps; k++) {
			size_t i = res->cps[k].index;
			pdb_chart_add_vmark(p, (position(axis, pts[i - 1].seq) +
						position(axis, pts[i].seq)) / 2, color, 1);
			if (cp_label) /* whose change point it is, where several share a chart */
				pdb_chart_vmark_label(p, cp_label);
		}
		found = res->ncps;
		ox = pdb_xmalloc((res->noutliers ? res->noutliers : 1) * sizeof *ox);
		oy = pdb_xmalloc((res->noutliers ? res->noutliers : 1) * sizeof *oy);
		for (size_t k = 0; k < res->noutliers; k++) {
			ox[k] = position(axis, pts[res->outliers[k].index].seq);
			oy[k] = res->outliers[k].value;
		}
		if (res->noutliers > 0)
			pdb_chart_add_series(p, outlier_label, PDB_MARK_RING, color, ox, oy, NULL, NULL,
					     res->noutliers);
		*noutliers = res->noutliers;
		free(ox);
		free(oy);
	}
	pdb_detect_result_release(&own);
	free(x);
	return found;
}


/* A series in the drawing order, with its dims for display. */
struct drawn {
	size_t i;
	const struct pdb_series *s;
	const char *dims;
};

/* By benchmark, metric, then dims with numbers as numbers (vcpus=2 before vcpus=16). */
static int cmp_drawn(const void *pa, const void *pb)
{
	const struct drawn *a = pa, *b = pb;
	int c = strcmp(a->s->benchmark, b->s->benchmark);

	if (!c)
		c = strcmp(a->s->metric, b->s->metric);
	return c ? c : pdb_chart_cmp_dims(a->dims, b->dims);
}

/* Whether a series is drawn without --metric: one that detect splits
 * without it (lib/metric_role.h), so that the chart has its change points,
 * and a measure (an exit code, of no direction, is not: its unit is none). */
static int drawn_by_default(const struct pdb_series *s)
{
	return s->direction != PDB_DIR_NONE && pdb_metric_series_by_default(s->metric, s->dims);
}

/* Without --metric, leave out what detect leaves out (resources, counts of
 * how it ran) when something else is there: those drawn first, *n of
 * them, the *left others behind them (to be named). */
static void keep_drawn(struct pdb_series *s, size_t *n, size_t *left)
{
	size_t kept = 0;

	*left = 0;
	for (size_t i = 0; i < *n; i++)
		kept += drawn_by_default(&s[i]);
	if (kept == 0 || kept == *n)
		return;
	kept = 0;
	for (size_t i = 0; i < *n; i++) {
		if (drawn_by_default(&s[i])) {
			struct pdb_series t = s[kept];
			s[kept++] = s[i];
			s[i] = t;
		}
	}
	*left = *n - kept;
	*n = kept;
}

/* Each series keep_drawn left out, named on c. */
static void name_left(struct pdb_chart *c, const struct pdb_series *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *dims = pdb_dims_json_display(s[i].dims);
		pdb_chart_select(c);
		pdb_chart_skip(c, "%s%s%s%s %s: detect and the gate leave it out too: name it with --metric",
			       s[i].benchmark, *dims ? " [" : "", dims, *dims ? "]" : "", s[i].metric);
		free(dims);
	}
}

/* --dim: the series the filter passes first, *n of them (the others stay
 * behind them, to be freed). */
static void dims_only(struct pdb_series *s, size_t *n, struct pdb_dim_filter *dims)
{
	size_t kept = 0;

	for (size_t i = 0; i < *n; i++)
		if (pdb_dim_filter_pass_json(dims, s[i].dims)) {
			struct pdb_series t = s[kept];
			s[kept++] = s[i];
			s[i] = t;
		}
	*n = kept;
}

/* What labels the x axis: commits, run names, run ids, or a mix. */
static const char *x_title(const struct pdb_history_input *in, size_t n)
{
	int commits = 1, names = 1, ids = 1;

	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < in[s].npts + in[s].nfailed; i++) {
			const struct pdb_history_point *p = i < in[s].npts ? &in[s].pts[i]
									  : &in[s].failed[i - in[s].npts];
			commits &= p->commit != NULL;
			names &= !p->commit && p->run_name;
			ids &= !p->commit && !p->run_name;
		}
	return commits ? "commit" : names ? "run name" : ids ? "run" : "run (commit, name or id)";
}

/* The band of a series: the tool's lower to upper bounds (Bencher) where
 * it gave them; else the interquartile range with a lighter p5 to p95 band
 * when most runs have 8 samples or more; else min to max (alone on the
 * chart: several min-max bands hide each other and the medians); none
 * when all runs have one value, or the series one run (a band one point wide
 * is not drawn, and would only stretch the axis away from the value). */
enum band { BAND_NONE, BAND_BOUNDS, BAND_IQR, BAND_RANGE };

static enum band band_of(const struct pdb_history_point *pts, size_t n, int alone)
{
	size_t many = 0, spread = 0, bounds = 0;

	for (size_t i = 0; i < n; i++) {
		many += pts[i].n >= 8;
		spread += isfinite(pts[i].min) && isfinite(pts[i].max) && pts[i].min != pts[i].max;
		bounds += isfinite(pts[i].lower) && isfinite(pts[i].upper);
	}
	if (n < 2)
		return BAND_NONE;
	if (bounds > 0)
		return BAND_BOUNDS;
	return spread == 0 ? BAND_NONE : 2 * many >= n ? BAND_IQR : alone ? BAND_RANGE : BAND_NONE;
}

static const char *const band_labels[] = {
	[BAND_NONE] = NULL,
	[BAND_BOUNDS] = "value, band: the tool's lower to upper bound",
	[BAND_IQR] = "median, band: interquartile range",
	[BAND_RANGE] = "median, band: min to max",
};

/* Whether a point's band from a to b is known: the tool's bounds, or the
 * statistics of two samples or more (or the tool's own, apart). A run of
 * one value or of aggregates only has no spread known: it is not drawn as
 * a band pinched to the line (no spread), but as a gap in the band. */
static int band_known(const struct pdb_history_point *pt, double a, double b, enum band band)
{
	return isfinite(a) && isfinite(b) && (band == BAND_BOUNDS || pt->n >= 2 || a != b);
}

/* Half the width of the band of a run whose neighbours' bands are not
 * known, in runs: a band one point wide would not show. */
#define LONE_BAND 0.2

/* The band of points [0, n) as pieces over the runs where it is known (a
 * run alone between runs without, LONE_BAND either side of it), no legend. */
static void band_pieces(struct pdb_chart_panel *p, const double *x, const double *y,
			const double *lo, const double *hi, const int *known, size_t n, int marks,
			int color)
{
	for (size_t i = 0; i < n;) {
		size_t end = i;
		while (end < n && known[end])
			end++;
		if (end - i >= 2) {
			pdb_chart_add_series(p, NULL, marks, color, x + i, y + i, lo + i, hi + i, end - i);
		} else if (end - i == 1) {
			double lx[2] = { x[i] - LONE_BAND, x[i] + LONE_BAND }, ly[2] = { y[i], y[i] };
			double llo[2] = { lo[i], lo[i] }, lhi[2] = { hi[i], hi[i] };
			pdb_chart_add_series(p, NULL, marks, color, lx, ly, llo, lhi, 2);
		}
		i = end > i ? end : i + 1;
	}
}

/* The band of points [0, n) whole (every bound known) or in pieces. */
static const double *band_whole(struct pdb_chart_panel *p, const double *x, const double *y,
				const double *lo, const double *hi, const int *known, size_t n,
				int marks, int color)
{
	for (size_t i = 0; i < n; i++)
		if (!known[i]) {
			band_pieces(p, x, y, lo, hi, known, n, marks, color);
			return NULL;
		}
	return lo;
}

/* One stretch of a series' points (with the band of the whole series);
 * legend: 0 for a stretch after the first (one legend entry a series). */
static void add_history_stretch(struct pdb_chart_panel *p, const struct pdb_history_point *pts,
				size_t n, const struct runs_axis *axis, const char *label,
				int color, const char *source, enum band band, int legend)
{
	double *x = pdb_xmalloc((n ? n : 1) * sizeof *x), *y = pdb_xmalloc((n ? n : 1) * sizeof *y);
	double *lo = pdb_xmalloc((n ? n : 1) * sizeof *lo), *hi = pdb_xmalloc((n ? n : 1) * sizeof *hi);
	int *known = pdb_xmalloc((n ? n : 1) * sizeof *known);
	const double *whole = NULL;
	struct pdb_chart_series *se;

	for (size_t i = 0; i < n; i++) {
		x[i] = position(axis, pts[i].seq);
		y[i] = pts[i].value;
	}
	if (band == BAND_IQR) {
		const char *light = legend && p->nseries == 0 && label == NULL ? "p5 to p95" : NULL;
		for (size_t i = 0; i < n; i++) {
			known[i] = band_known(&pts[i], pts[i].p5, pts[i].p95, band);
			lo[i] = pts[i].p5;
			hi[i] = pts[i].p95;
		}
		if (band_whole(p, x, y, lo, hi, known, n, PDB_MARK_BAND | PDB_MARK_LIGHT, color))
			pdb_chart_add_series(p, light, PDB_MARK_BAND | PDB_MARK_LIGHT, color, x, y, lo, hi, n);
		else if (light) /* its legend entry, the pieces drawn */
			pdb_chart_add_series(p, light, PDB_MARK_BAND | PDB_MARK_LIGHT, color, NULL, NULL,
					     NULL, NULL, 0);
	}
	for (size_t i = 0; i < n && band; i++) {
		lo[i] = band == BAND_BOUNDS ? pts[i].lower : band == BAND_IQR ? pts[i].q1 : pts[i].min;
		hi[i] = band == BAND_BOUNDS ? pts[i].upper : band == BAND_IQR ? pts[i].q3 : pts[i].max;
		known[i] = band_known(&pts[i], lo[i], hi[i], band);
	}
	if (band)
		whole = band_whole(p, x, y, lo, hi, known, n, PDB_MARK_BAND, color);
	/* markers where they stand apart; denser, they only hide the line */
	se = pdb_chart_add_series(p, !legend ? NULL : label ? label : band_labels[band],
				  PDB_MARK_LINE | (axis->n <= MAX_MARKED ? PDB_MARK_POINTS : 0) |
				  (band ? PDB_MARK_BAND : 0), color,
				  x, y, whole ? lo : NULL, whole ? hi : NULL, n);
	pdb_chart_series_source(se, source);
	free(x);
	free(y);
	free(lo);
	free(hi);
	free(known);
}

/* A series' line, broken where its benchmark failed (failed, in run order):
 * a run without a value is not bridged as if it had been measured. */
static enum band add_history_series(struct pdb_chart_panel *p, const struct pdb_history_input *in,
				    const struct runs_axis *axis, const char *label, int color,
				    const char *source)
{
	enum band band = band_of(in->pts, in->npts, label == NULL);
	size_t start = 0, f = 0;

	for (size_t i = 0; i < in->npts; i++) {
		int end = i + 1 == in->npts;
		while (!end && f < in->nfailed && in->failed[f].seq < in->pts[i].seq)
			f++;
		end = end || (f < in->nfailed && in->failed[f].seq < in->pts[i + 1].seq);
		if (!end)
			continue;
		add_history_stretch(p, in->pts + start, i + 1 - start, axis, label, color, source,
				    band, start == 0);
		start = i + 1;
	}
	return band;
}

/* What the bands of a panel's lines are (bands: a bit for each enum band
 * drawn), in grey at the end of its legend, where the lines' entries name
 * their series, not their bands: "band: interquartile range", "lighter
 * band: p5 to p95". */
static void band_notes(struct pdb_chart_panel *p, unsigned bands)
{
	if (bands & (1u << BAND_BOUNDS))
		pdb_chart_add_series(p, "band: the tool's lower to upper bound", PDB_MARK_BAND,
				     PDB_COLOR_GREY, NULL, NULL, NULL, NULL, 0);
	if (bands & (1u << BAND_IQR)) {
		pdb_chart_add_series(p, "band: interquartile range", PDB_MARK_BAND, PDB_COLOR_GREY,
				     NULL, NULL, NULL, NULL, 0);
		pdb_chart_add_series(p, "lighter band: p5 to p95", PDB_MARK_BAND | PDB_MARK_LIGHT,
				     PDB_COLOR_GREY, NULL, NULL, NULL, NULL, 0);
	}
	if (bands & (1u << BAND_RANGE))
		pdb_chart_add_series(p, "band: min to max", PDB_MARK_BAND, PDB_COLOR_GREY, NULL, NULL,
				     NULL, NULL, 0);
}

/* Legend labels of several series: the benchmark, dims and metric where they differ. */
static char *series_label(const struct pdb_series *s, size_t n, size_t i, char *const *dims)
{
	int by_bench = 0, by_metric = 0;
	struct pdb_buf b;

	for (size_t k = 1; k < n; k++) {
		by_bench |= strcmp(s[k].benchmark, s[0].benchmark) != 0;
		by_metric |= strcmp(s[k].metric, s[0].metric) != 0;
	}
	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	if (by_bench)
		pdb_buf_puts(&b, s[i].benchmark);
	if (*dims[i])
		pdb_buf_printf(&b, "%s%s", b.len ? " " : "", dims[i]);
	if (by_metric || b.len == 0)
		pdb_buf_printf(&b, "%s%s", b.len ? " " : "", s[i].metric);
	return b.data;
}

static char *chart_title(const struct pdb_series *s, size_t n, char *const *dims)
{
	int same = 1;

	for (size_t k = 1; k < n; k++)
		same &= strcmp(s[k].benchmark, s[0].benchmark) == 0 && strcmp(s[k].metric, s[0].metric) == 0;
	if (n == 1 && *dims[0])
		return pdb_xasprintf("History: %s %s (%s)", s[0].benchmark, s[0].metric, dims[0]);
	if (same)
		return pdb_xasprintf("History: %s %s", s[0].benchmark, s[0].metric);
	for (size_t k = 1; k < n; k++)
		if (strcmp(s[k].benchmark, s[0].benchmark) != 0)
			return pdb_xasprintf("History: %zu series", n);
	return pdb_xasprintf("History: %s", s[0].benchmark); /* its metrics in the legend */
}

static int cmp_text(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The y axis' title: the metric, or the metrics drawn (up to three:
 * "cpu_time / wall_time"), else none (the legend names them). */
static char *y_title(const struct pdb_series *s, size_t n)
{
	const char *seen[3];
	size_t nseen = 0;
	struct pdb_buf b;

	for (size_t k = 0; k < n; k++) {
		size_t i = 0;
		while (i < nseen && strcmp(seen[i], s[k].metric) != 0)
			i++;
		if (i < nseen)
			continue;
		if (nseen == sizeof seen / sizeof seen[0])
			return pdb_xstrdup("");
		seen[nseen++] = s[k].metric;
	}
	qsort(seen, nseen, sizeof *seen, cmp_text);
	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	for (size_t i = 0; i < nseen; i++)
		pdb_buf_printf(&b, "%s%s", i ? " / " : "", seen[i]);
	return b.data;
}

/* Whether the failures of the k-th series drawn are counted already: a
 * failure is of a benchmark at its dims, whichever of its metrics shows it. */
static int failures_counted(const struct pdb_series *series, const struct drawn *order, size_t k)
{
	const struct pdb_series *s = &series[order[k].i];

	for (size_t j = 0; j < k; j++)
		if (strcmp(series[order[j].i].benchmark, s->benchmark) == 0 &&
		    strcmp(series[order[j].i].dims, s->dims) == 0)
			return 1;
	return 0;
}

/* A cross at each run where the series' benchmark failed, at the value it
 * had before (else after): where its line breaks off. */
static void failed_marks(const struct pdb_history_input *in, int color,
			 const struct runs_axis *axis, struct pdb_chart_panel *p, const char *label)
{
	double *x = pdb_xmalloc((in->nfailed + 1) * sizeof *x);
	double *y = pdb_xmalloc((in->nfailed + 1) * sizeof *y);
	size_t k = 0, m = 0;

	for (size_t i = 0; i < in->nfailed && in->npts > 0; i++) {
		int64_t run = in->failed[i].seq;
		while (k + 1 < in->npts && in->pts[k + 1].seq < run)
			k++;
		x[m] = position(axis, run);
		y[m++] = in->pts[k].value;
	}
	if (m > 0)
		pdb_chart_add_series(p, label, PDB_MARK_CROSS, color, x, y, NULL, NULL, m);
	free(x);
	free(y);
}

/* Whether series fit one panel: at most PDB_HISTORY_MAX_LINES, of one unit. */
static int one_panel(const struct pdb_series *series, size_t n)
{
	for (size_t s = 1; s < n; s++)
		if (strcmp(series[s].unit, series[0].unit) != 0)
			return 0;
	return n <= PDB_HISTORY_MAX_LINES;
}

/* Whether each benchmark's series fit a panel of their own. */
static int panel_a_benchmark(const struct pdb_series *series, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t same = 0;
		for (size_t k = 0; k < n; k++) {
			if (strcmp(series[k].benchmark, series[i].benchmark) != 0)
				continue;
			if (strcmp(series[k].unit, series[i].unit) != 0)
				return 0;
			same++;
		}
		if (same > PDB_HISTORY_MAX_LINES)
			return 0;
	}
	return 1;
}

/* Whether the series are drawn a panel a benchmark: without --metric
 * (may_split), when one panel cannot hold them and each benchmark's can. */
static int split_by_benchmark(const struct pdb_series *series, size_t n, int may_split)
{
	return may_split && !one_panel(series, n) && panel_a_benchmark(series, n);
}

/* At most PDB_HISTORY_MAX_LINES series a panel, all of one unit (a panel a
 * benchmark, split_by_benchmark, when one cannot hold them). */
static int check_series(const struct pdb_series *series, size_t n, int may_split, struct pdb_err *err)
{
	if (split_by_benchmark(series, n, may_split))
		return 0;
	if (n > PDB_HISTORY_MAX_LINES)
		return pdb_err_set(err, PDB_EXIT_USAGE, "%zu series match; narrow them with --bench or "
				   "--metric (at most %d)", n, PDB_HISTORY_MAX_LINES);
	for (size_t s = 1; s < n; s++)
		if (strcmp(series[s].unit, series[0].unit) != 0)
			return pdb_err_set(err, PDB_EXIT_USAGE, "the matching series have different units "
					   "(%s, %s); narrow them with --bench or --metric",
					   series[0].unit, series[s].unit);
	return 0;
}

static int cmp_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The middle of a series' values (NaN without one). */
static double level_of(const struct pdb_history_input *in)
{
	double *v = pdb_xmalloc((in->npts + 1) * sizeof *v), mid = NAN;
	size_t m = 0;

	for (size_t i = 0; i < in->npts; i++)
		if (isfinite(in->pts[i].value))
			v[m++] = in->pts[i].value;
	if (m > 0) {
		qsort(v, m, sizeof *v, cmp_value);
		mid = v[m / 2];
	}
	free(v);
	return mid;
}

/* Several series whose levels lie more than SPREAD apart: on one linear
 * axis the fast ones are a flat line at the bottom (six series of 40 to
 * 600 ms), so each gets a panel of its own. */
#define SPREAD 10.0
static int levels_apart(const struct pdb_history_input *in, size_t n)
{
	double lo = INFINITY, hi = 0;

	for (size_t s = 0; s < n; s++) {
		double l = fabs(level_of(&in[s]));
		if (isfinite(l) && l > 0) {
			lo = l < lo ? l : lo;
			hi = l > hi ? l : hi;
		}
	}
	return n > 1 && hi > 0 && hi / lo > SPREAD;
}

/* A log y axis where the values of the series sharing a panel (all above
 * 0) span more than SPREAD. */
static void log_when_spread(struct pdb_chart_panel *p)
{
	double lo = INFINITY, hi = 0;

	for (size_t s = 0; s < p->nseries; s++)
		for (size_t i = 0; i < p->series[s].n; i++) {
			double v = p->series[s].y[i];
			if (!isfinite(v))
				continue;
			if (v <= 0)
				return;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	if (hi > 0 && hi / lo > SPREAD)
		p->y.kind = PDB_AXIS_LOG;
}

/* "12 runs; 2 change points (dashed lines); 1 failure (cross)", after "WHAT: ". */
static char *counts_title(const char *what, size_t runs, size_t ncp, size_t nfailed)
{
	char failed[48] = "";

	if (nfailed == 1)
		snprintf(failed, sizeof failed, "; 1 failure (cross)");
	else if (nfailed > 1)
		snprintf(failed, sizeof failed, "; %zu failures (crosses)", nfailed);
	return pdb_xasprintf("%s%s%zu run%s; %zu change point%s%s", what ? what : "", what ? ": " : "",
			     runs, runs == 1 ? "" : "s", ncp,
			     ncp == 0 ? "s" : ncp == 1 ? " (dashed line)" : "s (dashed lines)", failed);
}

/* A panel's title when it is done: its benchmark (a panel a benchmark),
 * the runs, its change points and failures; a log axis where its series'
 * values span more than SPREAD. */
static void close_panel(struct pdb_chart_panel *p, const char *benchmark, size_t runs, size_t ncp,
			size_t nfailed, size_t nlines)
{
	free(p->title);
	p->title = counts_title(benchmark, runs, ncp, nfailed);
	if (nlines > 1)
		log_when_spread(p);
}

/* The y title of the panel that order[k] opens: of every series drawn, or
 * (split) of those of its benchmark, which follow it in order. */
static char *panel_y_title(const struct pdb_series *series, const struct drawn *order, size_t n, size_t k,
			   int split)
{
	struct pdb_series *group = pdb_xcalloc(n + 1, sizeof *group);
	size_t m = 0;
	char *y;

	for (size_t i = split ? k : 0; i < n; i++) {
		if (split && strcmp(series[order[i].i].benchmark, series[order[k].i].benchmark) != 0)
			break;
		group[m++] = series[order[i].i];
	}
	y = y_title(group, m);
	free(group);
	return y;
}

/* Draw the series' points and failures (and detect's results where given) on c. */
static int draw(struct pdb_chart *c, const struct pdb_history_input *in, size_t nseries,
		const struct pdb_plot_opts *opts, struct pdb_err *err)
{
	struct runs_axis axis = { 0 };
	struct drawn *order = pdb_xcalloc(nseries + 1, sizeof *order);
	struct pdb_series *series = pdb_xcalloc(nseries + 1, sizeof *series);
	char **dims = pdb_xcalloc(nseries + 1, sizeof *dims);
	struct pdb_chart_panel *p = NULL;
	size_t pcp = 0, pout = 0, pfailed = 0, plines = 0; /* of the panel drawn */
	unsigned pbands = 0; /* the bands of its labelled lines (band_notes) */
	int rc = -1, each, split;

	for (size_t s = 0; s < nseries; s++) {
		series[s] = *in[s].series;
		dims[s] = pdb_dims_json_display(series[s].dims);
		order[s] = (struct drawn){ s, &series[s], dims[s] };
		for (size_t i = 0; i < in[s].npts; i++)
			axis_add(&axis, &in[s].pts[i]);
		for (size_t i = 0; i < in[s].nfailed; i++)
			axis_add(&axis, &in[s].failed[i]);
	}
	if (check_series(series, nseries, !opts->metric_glob, err) < 0)
		goto out;
	split = split_by_benchmark(series, nseries, !opts->metric_glob);
	qsort(order, nseries, sizeof *order, cmp_drawn);
	if (axis.n == 0) {
		pdb_err_set(err, PDB_EXIT_INPUT, "the matching series have no values in the runs given");
		goto out;
	}
	axis_tell_apart(&axis);
	c->title = opts->title ? pdb_xstrdup(opts->title) : chart_title(series, nseries, dims);
	/* more series than a panel holds, or of two units (no --metric): a panel a benchmark */
	each = !split && levels_apart(in, nseries);
	for (size_t k = 0; k < nseries; k++) {
		size_t s = order[k].i, no, cps;
		/* a panel a benchmark is titled with it: its lines by dims and metric */
		char *label = nseries == 1 ? NULL
			      : split ? pdb_xasprintf("%s%s%s", dims[s], *dims[s] ? " " : "", series[s].metric)
			      : series_label(series, nseries, s, dims);
		if (k == 0 || each ||
		    (split && strcmp(series[s].benchmark, series[order[k - 1].i].benchmark) != 0)) {
			char *y;
			if (p && !each) {
				band_notes(p, pbands);
				close_panel(p, split ? series[order[k - 1].i].benchmark : NULL, axis.n, pcp,
					    pfailed, plines);
			}
			y = each ? pdb_xstrdup(series[s].metric) : panel_y_title(series, order, nseries, k, split);
			p = pdb_chart_add_panel(c, NULL, x_title(in, nseries), "", y, series[s].unit);
			free(y);
			pdb_chart_axis_categories(&p->x, (const char *const *)axis.names, axis.n);
			pcp = pout = pfailed = plines = 0;
			pbands = 0;
		}
		plines++;
		/* unique by the id, read by its name where stderr names it */
		char *source = pdb_xasprintf("%s%s%s%s %s (series %lld)", series[s].benchmark,
					     *dims[s] ? " [" : "", dims[s], *dims[s] ? "]" : "",
					     series[s].metric, (long long)series[s].id);
		pdb_chart_select(c);
		if (in[s].npts == 0)
			pdb_chart_skip(c, "%s%s%s%s %s: no values in the runs given%s", series[s].benchmark,
				       *dims[s] ? " [" : "", dims[s], *dims[s] ? "]" : "", series[s].metric,
				       in[s].nfailed ? ", only failures" : "");
		else if (label)
			pbands |= 1u << add_history_series(p, &in[s], &axis, label, (int)k, source);
		else
			add_history_series(p, &in[s], &axis, label, (int)k, source);
		cps = change_points(in[s].pts, in[s].npts, &series[s], in[s].res, (int)k, &axis, p,
				    pout && !each ? NULL : "outlier (set apart by detect)", label, &no);
		pcp += cps;
		pout += no;
		failed_marks(&in[s], (int)k, &axis, p,
			     pfailed && !each ? NULL : "failed (no value; at the value before)");
		if (!failures_counted(series, order, k))
			pfailed += in[s].npts ? in[s].nfailed : 0;
		if (each) { /* a panel each: its title names the series and counts its own */
			band_notes(p, pbands);
			pbands = 0;
			free(p->title);
			p->title = counts_title(label, axis.n, cps, in[s].npts ? in[s].nfailed : 0);
		}
		free(label);
		free(source);
	}
	if (!each) {
		band_notes(p, pbands);
		close_panel(p, split ? series[order[nseries - 1].i].benchmark : NULL, axis.n, pcp, pfailed,
			    plines);
	}
	if ((each || split) && pdb_chart_panels_room(c->height) < c->npanels)
		c->height = pdb_chart_panels_height(c->npanels);
	rc = 0;
out:
	for (size_t s = 0; s < nseries; s++)
		free(dims[s]);
	free(dims);
	free(series);
	free(order);
	for (size_t k = 0; k < axis.n; k++)
		free(axis.names[k]);
	free(axis.names);
	free(axis.ids);
	free(axis.seqs);
	return rc;
}

/* A chart of in (n series), the left series named first. */
static struct pdb_chart *chart_of(const struct pdb_series *left, size_t nleft,
				  const struct pdb_history_input *in, size_t n,
				  const struct pdb_plot_opts *opts, struct pdb_err *err)
{
	struct pdb_chart *c = pdb_chart_new("history", NULL, opts->width, opts->height, opts->theme);

	name_left(c, left, nleft);
	if (n == 0 || draw(c, in, n, opts, err) < 0) {
		if (n == 0)
			pdb_err_set(err, PDB_EXIT_INPUT, "no series to draw");
		pdb_chart_free(c);
		return NULL;
	}
	return c;
}

struct pdb_chart *pdb_history_chart_of(const struct pdb_history_input *in, size_t n,
				       const struct pdb_plot_opts *opts, struct pdb_err *err)
{
	return chart_of(NULL, 0, in, n, opts, err);
}

struct pdb_chart *pdb_history_chart(const struct pdb_history_model *m,
				    const struct pdb_plot_opts *opts, struct pdb_err *err)
{
	return chart_of(m->series + m->n, m->nleft, m->in, m->n, opts, err);
}

int pdb_history_choose(struct pdb_series *series, size_t total, const struct pdb_plot_opts *opts,
		       size_t *n, size_t *nleft, struct pdb_err *err)
{
	*n = total;
	*nleft = 0;
	dims_only(series, n, opts->dims);
	if (!opts->metric_glob)
		keep_drawn(series, n, nleft);
	if (*n == 0)
		return pdb_err_set(err, PDB_EXIT_INPUT, "no series match%s%s%s%s",
				   opts->bench_glob ? " --bench " : "", opts->bench_glob ? opts->bench_glob : "",
				   opts->metric_glob ? " --metric " : "",
				   opts->metric_glob ? opts->metric_glob : "");
	return check_series(series, *n, !opts->metric_glob, err);
}
