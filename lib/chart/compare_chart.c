/* Chart kinds: compare — the comparison it is given, a row per series: its change in % as a
 * bar with its interval, coloured by verdict, or its verdict alone when there is no change. */
#include "chart/kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "units.h"
#include "util.h"


static const struct {
	int verdict, color;
	int reported;       /* the rows compare reports, not gated (pdb_compare_row_reported) */
} verdict_colors[] = {
	/* Okabe–Ito, as the report's badges (reports/report.html.tmpl) */
	{ PDB_VERDICT_FAILED, PDB_COLOR_PURPLE, 0 },
	{ PDB_VERDICT_REGRESSION, PDB_COLOR_VERMILLION, 0 },
	{ PDB_VERDICT_IMPROVEMENT, PDB_COLOR_GREEN, 0 },
	{ PDB_VERDICT_INCONCLUSIVE, PDB_COLOR_ORANGE, 0 },
	{ PDB_VERDICT_UNCHANGED, PDB_COLOR_GREY, 0 },
	{ PDB_VERDICT_INSUFFICIENT, PDB_COLOR_SKY, 0 },
	{ 0, PDB_COLOR_BLUE, 1 },  /* as Markdown's 🔵 */
};

/* The axis: an interval end past PDB_COMPARE_AXIS_REACH times the largest
 * change or threshold drawn would flatten every bar (+31.6 % beside an
 * interval to +680 %), so the axis then ends at PDB_COMPARE_AXIS_ROOM times
 * it, and an interval past that ends in an arrow at the edge, its end
 * written in its row's label (docs/cmd/plot.md). */
#define PDB_COMPARE_AXIS_REACH 3.0
#define PDB_COMPARE_AXIS_ROOM 1.5

/* The bound past which intervals are cut (> 0), or 0 when every one fits. */
static double axis_bound(const struct pdb_compare *cmp, const size_t *rows, size_t nrows)
{
	double big = 0, reach = 0;

	for (size_t k = 0; k < nrows; k++) {
		const struct pdb_compare_row *r = &cmp->rows[rows[k]];
		if (!isfinite(r->change_pct))
			continue;
		big = fmax(big, fabs(r->change_pct));
		if (isfinite(r->threshold_pct))
			big = fmax(big, r->threshold_pct);
		reach = fmax(reach, fmax(isfinite(r->ci_low_pct) ? fabs(r->ci_low_pct) : 0,
					 isfinite(r->ci_high_pct) ? fabs(r->ci_high_pct) : 0));
	}
	return big > 0 && reach > PDB_COMPARE_AXIS_REACH * big ? PDB_COMPARE_AXIS_ROOM * big : 0;
}

static int in_group(const struct pdb_compare_row *r, int verdict, int reported)
{
	return reported ? pdb_compare_row_reported(r) : r->verdict == verdict && !pdb_compare_row_reported(r);
}

static void verdict_series(struct pdb_chart_panel *p, const struct pdb_compare *cmp,
			   const size_t *rows, size_t nrows, size_t v, double bound)
{
	double *x = pdb_xmalloc(nrows * sizeof *x), *y = pdb_xmalloc(nrows * sizeof *y);
	double *lo = pdb_xmalloc(nrows * sizeof *lo), *hi = pdb_xmalloc(nrows * sizeof *hi);
	size_t n = 0;
	char *label;

	for (size_t k = 0; k < nrows; k++) {
		const struct pdb_compare_row *r = &cmp->rows[rows[k]];
		if (!in_group(r, verdict_colors[v].verdict, verdict_colors[v].reported) ||
		    !isfinite(r->change_pct))
			continue;
		x[n] = r->change_pct;
		y[n] = (double)k;
		lo[n] = isfinite(r->ci_low_pct) ? r->ci_low_pct : r->change_pct;
		hi[n] = isfinite(r->ci_high_pct) ? r->ci_high_pct : r->change_pct;
		if (bound > 0) { /* an end at the edge is drawn as an arrow */
			lo[n] = fmax(lo[n], -bound);
			hi[n] = fmin(hi[n], bound);
		}
		n++;
	}
	if (n > 0) {
		label = verdict_colors[v].reported ? pdb_xasprintf("reported, not gated (%zu)", n)
			: pdb_xasprintf("%s (%zu)", pdb_verdict_name(verdict_colors[v].verdict), n);
		struct pdb_chart_series *se = pdb_chart_add_series(p, label, PDB_MARK_HBAR | PDB_MARK_VALUES |
								   (bound > 0 ? PDB_MARK_CUT : 0),
								   verdict_colors[v].color, x, y, lo, hi, n);
		se->cut = bound;
		pdb_chart_series_source(se, label);
		free(label);
	}
	free(x);
	free(y);
	free(lo);
	free(hi);
}

/* The zero line, the ±threshold lines, and one series of bars with their
 * intervals and values per verdict, coloured by verdict; rows[k] is drawn
 * on category k (rows without a change in % get no bar). */
static void bars(struct pdb_chart_panel *p, const struct pdb_compare *cmp, const size_t *rows,
		 size_t nrows, double bound)
{
	double thresholds[2];
	char said[2][32];
	size_t nt = 0;

	pdb_chart_add_vmark(p, 0, PDB_COLOR_FOREGROUND, 0);
	/* the thresholds the rows were judged by (5 %, and 10 % for p95 and beyond) */
	for (size_t k = 0; k < nrows; k++) {
		double t = cmp->rows[rows[k]].threshold_pct;
		int seen = 0;
		for (size_t i = 0; i < nt; i++)
			seen |= thresholds[i] == t;
		if (isfinite(t) && t > 0 && !seen && nt < 2) {
			pdb_chart_add_vmark(p, -t, PDB_COLOR_GREY, 1);
			pdb_chart_add_vmark(p, t, PDB_COLOR_GREY, 1);
			thresholds[nt++] = t;
		}
	}
	for (size_t v = 0; v < sizeof verdict_colors / sizeof verdict_colors[0]; v++)
		verdict_series(p, cmp, rows, nrows, v, bound);
	free(p->x.title);
	for (size_t i = 0; i < nt; i++)
		pdb_pct_words(thresholds[i], NAN, 0, said[i], sizeof said[i]);
	p->x.title = nt == 0 ? pdb_xstrdup("change of the candidate, with its interval") :
		     nt == 1 ? pdb_xasprintf("change, with its interval (dashed: ±%s threshold)", said[0]) :
		     pdb_xasprintf("change, with its interval (dashed: ±%s and ±%s thresholds)", said[0],
				   said[1]);
}

/* Whether another drawn row has the same benchmark and metric (then the
 * dims tell them apart; else they only make the label long). */
static int twin(const struct pdb_compare *cmp, const size_t *rows, size_t nrows, size_t k)
{
	const struct pdb_compare_row *a = &cmp->rows[rows[k]];

	for (size_t i = 0; i < nrows; i++) {
		const struct pdb_compare_row *b = &cmp->rows[rows[i]];
		if (i != k && strcmp(a->benchmark, b->benchmark) == 0 &&
		    strcmp(a->metric, b->metric) == 0)
			return 1;
	}
	return 0;
}

/* A row's label: "parse time [file=big.json]", and the verdict when there
 * is no bar to show it ("startup time: failed"). */
static char *row_label(const struct pdb_compare *cmp, const size_t *rows, size_t nrows, size_t k,
		       double bound)
{
	const struct pdb_compare_row *r = &cmp->rows[rows[k]];
	char past[80] = "";
	int dims = *r->dims && twin(cmp, rows, nrows, k);
	const char *why = isfinite(r->change_pct) ? NULL :
			  r->verdict == PDB_VERDICT_NEW ? "new, only in the candidate" :
			  r->verdict == PDB_VERDICT_MISSING ? "missing from the candidate" :
			  r->verdict == PDB_VERDICT_FAILED ? "failed" : NULL;
	char *what = why ? pdb_xstrdup(why) :
		     isfinite(r->change_pct) ? NULL :
		     pdb_xasprintf("%s, no change in %% to draw", pdb_verdict_name(r->verdict));
	char *label;

	if (bound > 0 && isfinite(r->change_pct) && (r->ci_low_pct < -bound || r->ci_high_pct > bound)) {
		char lo[32], hi[32];
		pdb_pct_text(r->ci_low_pct, lo, sizeof lo);
		pdb_pct_text(r->ci_high_pct, hi, sizeof hi);
		snprintf(past, sizeof past, " [%s, %s]", lo, hi); /* its interval, cut at the edge */
	}
	label = pdb_xasprintf("%s %s%s%s%s%s%s%s", r->benchmark, r->metric, dims ? " [" : "",
			      dims ? r->dims : "", dims ? "]" : "", what ? ": " : "", what ? what : "", past);

	free(what);
	return label;
}

/* The title from the runs: "Compare: v1 → v2" by their names (else ids), or
 * "3 runs vs 2 runs" with the runs as the subtitle. */
static void titles(struct pdb_chart *c, const struct pdb_compare *cmp, const char *worst)
{
	struct pdb_buf b, k;

	pdb_buf_init(&b);
	pdb_buf_init(&k);
	pdb_buf_puts(&b, "");
	pdb_buf_puts(&k, "");
	for (size_t i = 0; i < cmp->nbase; i++)
		pdb_buf_printf(&b, "%srun%lld", i ? ", " : "", (long long)cmp->base[i].id);
	for (size_t i = 0; i < cmp->ncand; i++)
		pdb_buf_printf(&k, "%srun%lld", i ? ", " : "", (long long)cmp->cand[i].id);
	if (cmp->nbase == 1 && cmp->ncand == 1)
		c->title = pdb_xasprintf("Compare: %s → %s%s", cmp->base[0].name ? cmp->base[0].name
					 : b.data, cmp->cand[0].name ? cmp->cand[0].name : k.data,
					 worst);
	else {
		c->title = pdb_xasprintf("Compare: %zu run%s vs %zu run%s%s", cmp->nbase,
					 cmp->nbase == 1 ? "" : "s", cmp->ncand,
					 cmp->ncand == 1 ? "" : "s", worst);
		c->subtitle = pdb_xasprintf("baseline %s; candidate %s", b.data, k.data);
	}
	pdb_buf_release(&b);
	pdb_buf_release(&k);
}

struct pdb_chart *pdb_compare_chart(const struct pdb_compare *cmp, size_t max_rows,
				    const struct pdb_plot_opts *opts)
{
	size_t *rows = pdb_xcalloc(max_rows ? max_rows : 1, sizeof *rows), nrows = 0, shown = 0;
	char **names, worst[64] = "";
	double bound;
	struct pdb_chart_panel *p;
	struct pdb_chart *c;

	/* every verdict the table shows, worst first as cmp is sorted */
	for (size_t i = 0; i < cmp->nrows; i++)
		if (cmp->rows[i].hidden == PDB_SHOWN && shown++ < max_rows)
			rows[nrows++] = i;
	if (shown > nrows)
		snprintf(worst, sizeof worst, " (worst %zu of %zu)", nrows, shown);
	c = pdb_chart_new("compare", NULL, opts->width, opts->height, opts->theme);
	if (opts->title)
		c->title = pdb_xasprintf("%s%s", opts->title, worst);
	else
		titles(c, cmp, worst);
	for (size_t i = 0, k = 0; i < cmp->nrows; i++) {
		const struct pdb_compare_row *r = &cmp->rows[i];
		if (r->hidden)
			continue;
		pdb_chart_select(c);
		if (k < nrows && rows[k] == i) {
			k++;
			continue;
		}
		pdb_chart_skip(c, "%s%s%s%s %s: past the worst rows the chart has room for",
			       r->benchmark, *r->dims ? " [" : "", r->dims, *r->dims ? "]" : "",
			       r->metric);
	}
	p = pdb_chart_add_panel(c, NULL, "change of the candidate, with its interval", "%", "", "");
	p->x.include_zero = 1;
	bound = axis_bound(cmp, rows, nrows);
	names = pdb_xcalloc(nrows ? nrows : 1, sizeof *names);
	for (size_t k = 0; k < nrows; k++)
		names[k] = row_label(cmp, rows, nrows, k, bound);
	pdb_chart_axis_categories(&p->y, (const char *const *)names, nrows);
	for (size_t k = 0; k < nrows; k++)
		free(names[k]);
	free(names);
	bars(p, cmp, rows, nrows, bound);
	free(rows);
	return c;
}
