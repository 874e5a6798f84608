/* Chart kinds: compare — change % per series as bars with their interval, by verdict. */
#include "chart/kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "util.h"

#define MAX_ROWS 40

static const struct {
	int verdict, color;
} verdict_colors[] = {
	/* Okabe–Ito, as the report's badges (reports/report.html.tmpl) */
	{ PDB_VERDICT_FAILED, PDB_COLOR_PURPLE },
	{ PDB_VERDICT_REGRESSION, PDB_COLOR_VERMILLION },
	{ PDB_VERDICT_IMPROVEMENT, PDB_COLOR_GREEN },
	{ PDB_VERDICT_INCONCLUSIVE, PDB_COLOR_ORANGE },
	{ PDB_VERDICT_UNCHANGED, PDB_COLOR_GREY },
	{ PDB_VERDICT_INSUFFICIENT, PDB_COLOR_SKY },
};

static char *row_name(const struct pdb_compare_row *r)
{
	return pdb_xasprintf("%s%s%s%s %s", r->benchmark, *r->dims ? " [" : "", r->dims,
			     *r->dims ? "]" : "", r->metric);
}

static void verdict_series(struct pdb_chart_panel *p, const struct pdb_compare *cmp,
			   const size_t *rows, size_t nrows, int verdict, int color)
{
	double *x = pdb_xmalloc(nrows * sizeof *x), *y = pdb_xmalloc(nrows * sizeof *y);
	double *lo = pdb_xmalloc(nrows * sizeof *lo), *hi = pdb_xmalloc(nrows * sizeof *hi);
	size_t n = 0;
	char *label;

	for (size_t k = 0; k < nrows; k++) {
		const struct pdb_compare_row *r = &cmp->rows[rows[k]];
		if (r->verdict != verdict)
			continue;
		x[n] = r->change_pct;
		y[n] = (double)k;
		lo[n] = isfinite(r->ci_low_pct) ? r->ci_low_pct : r->change_pct;
		hi[n] = isfinite(r->ci_high_pct) ? r->ci_high_pct : r->change_pct;
		n++;
	}
	if (n > 0) {
		label = pdb_xasprintf("%s (%zu)", pdb_verdict_name(verdict), n);
		pdb_chart_series_source(pdb_chart_add_series(p, label, PDB_MARK_HBAR | PDB_MARK_VALUES,
							     color, x, y, lo, hi, n), label);
		free(label);
	}
	free(x);
	free(y);
	free(lo);
	free(hi);
}

void pdb_compare_chart_bars(struct pdb_chart_panel *p, const struct pdb_compare *cmp,
			    const size_t *rows, size_t nrows)
{
	double thresholds[2];
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
		verdict_series(p, cmp, rows, nrows, verdict_colors[v].verdict, verdict_colors[v].color);
	free(p->x.title);
	p->x.title = nt == 0 ? pdb_xstrdup("change of the candidate, with its interval") :
		     nt == 1 ? pdb_xasprintf("change, with its interval (dashed: ±%g%% threshold)",
					     thresholds[0]) :
		     pdb_xasprintf("change, with its interval (dashed: ±%g%% and ±%g%% thresholds)",
				   thresholds[0], thresholds[1]);
}

size_t pdb_compare_chart_rows(const struct pdb_compare *cmp, size_t *rows, size_t max,
			      size_t *shown)
{
	size_t n = 0;

	*shown = 0;
	for (size_t i = 0; i < cmp->nrows; i++)
		if (isfinite(cmp->rows[i].change_pct)) {
			if (n < max)
				rows[n++] = i;
			(*shown)++;
		}
	return n;
}

static char *ids_text(const int64_t *ids, size_t n)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	for (size_t i = 0; i < n; i++)
		pdb_buf_printf(&b, "%srun%lld", i ? ", " : "", (long long)ids[i]);
	return b.data;
}

/* The title, and with run groups "3 runs vs 2 runs" with the runs below. */
static void titles(struct pdb_chart *c, const char *base, const char *cand, const int64_t *bids,
		   size_t nb, const int64_t *cids, size_t nc, size_t nrows, size_t shown)
{
	char worst[64] = "";

	if (shown > nrows)
		snprintf(worst, sizeof worst, " (worst %zu of %zu)", nrows, shown);
	if (nb == 1 && nc == 1) {
		c->title = pdb_xasprintf("Compare: %s → %s%s", base, cand, worst);
		return;
	}
	char *b = ids_text(bids, nb), *k = ids_text(cids, nc);
	c->title = pdb_xasprintf("Compare: %zu run%s vs %zu run%s%s", nb, nb == 1 ? "" : "s", nc,
				 nc == 1 ? "" : "s", worst);
	c->subtitle = pdb_xasprintf("baseline %s; candidate %s", b, k);
	free(b);
	free(k);
}

struct pdb_chart *pdb_compare_chart(struct pdb_store *store, const char *base,
				    const char *cand, const struct pdb_plot_opts *opts,
				    struct pdb_err *err)
{
	struct pdb_compare cmp = { 0 };
	struct pdb_compare_opts co;
	struct pdb_chart *c = NULL;
	struct pdb_chart_panel *p;
	int64_t *bids = NULL, *cids = NULL;
	size_t nb = 0, nc = 0, rows[MAX_ROWS], nrows, shown;
	char *names[MAX_ROWS];

	pdb_compare_opts_init(&co);
	co.bench_glob = opts->bench_glob;
	co.metric_glob = opts->metric_glob;
	if (pdb_store_resolve_group(store, base, opts->last, &bids, &nb, err) < 0 ||
	    pdb_store_resolve_group(store, cand, opts->cand_last, &cids, &nc, err) < 0 ||
	    pdb_compare_run_groups(store, bids, nb, cids, nc, &co, &cmp, err) < 0)
		goto out;
	nrows = pdb_compare_chart_rows(&cmp, rows, MAX_ROWS, &shown);
	if (nrows == 0) {
		pdb_err_set(err, PDB_EXIT_INPUT, "no series with a change to show between %s and %s",
			    base, cand);
		goto out;
	}
	c = pdb_chart_new("compare", NULL, opts->width, opts->height, opts->theme);
	titles(c, base, cand, bids, nb, cids, nc, nrows, shown);
	if (opts->title) {
		free(c->title);
		c->title = pdb_xstrdup(opts->title);
	}
	for (size_t i = 0, k = 0; i < cmp.nrows; i++) {
		const struct pdb_compare_row *r = &cmp.rows[i];
		char *name;
		if (k < nrows && rows[k] == i) {
			pdb_chart_select(c);
			k++;
			continue;
		}
		if (r->hidden)
			continue;
		pdb_chart_select(c);
		name = row_name(r);
		pdb_chart_skip(c, "%s: %s", name, !isfinite(r->change_pct) ?
			       (r->verdict == PDB_VERDICT_NEW ? "only in the candidate, no change to draw" :
				r->verdict == PDB_VERDICT_MISSING ? "only in the baseline, no change to draw" :
				"no change in % to draw") : "past the worst rows the chart has room for");
		free(name);
	}
	p = pdb_chart_add_panel(c, NULL, "change of the candidate, with its interval", "%", "", "");
	p->x.include_zero = 1;
	for (size_t k = 0; k < nrows; k++)
		names[k] = row_name(&cmp.rows[rows[k]]);
	pdb_chart_axis_categories(&p->y, (const char *const *)names, nrows);
	for (size_t k = 0; k < nrows; k++)
		free(names[k]);
	pdb_compare_chart_bars(p, &cmp, rows, nrows);
out:
	pdb_compare_release(&cmp);
	free(bids);
	free(cids);
	return c;
}
