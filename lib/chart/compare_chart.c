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
		pdb_chart_add_series(p, label, PDB_MARK_HBAR, color, x, y, lo, hi, n);
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
	pdb_chart_add_vmark(p, 0, PDB_COLOR_FOREGROUND, 0);
	for (size_t v = 0; v < sizeof verdict_colors / sizeof verdict_colors[0]; v++)
		verdict_series(p, cmp, rows, nrows, verdict_colors[v].verdict, verdict_colors[v].color);
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

static int resolve(struct pdb_store *store, const char *sel, int64_t **ids, size_t *n,
		   struct pdb_err *err)
{
	return pdb_store_resolve_group(store, sel, 0, ids, n, err);
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
	char *names[MAX_ROWS], *title = NULL;

	pdb_compare_opts_init(&co);
	co.bench_glob = opts->bench_glob;
	co.metric_glob = opts->metric_glob;
	if (resolve(store, base, &bids, &nb, err) < 0 || resolve(store, cand, &cids, &nc, err) < 0 ||
	    pdb_compare_run_groups(store, bids, nb, cids, nc, &co, &cmp, err) < 0)
		goto out;
	nrows = pdb_compare_chart_rows(&cmp, rows, MAX_ROWS, &shown);
	if (nrows == 0) {
		pdb_err_set(err, PDB_EXIT_INPUT, "no series with a change to show between %s and %s",
			    base, cand);
		goto out;
	}
	title = opts->title ? pdb_xstrdup(opts->title) :
		shown > nrows ? pdb_xasprintf("Compare: %s → %s (worst %zu of %zu)", base, cand, nrows, shown) :
		pdb_xasprintf("Compare: %s → %s", base, cand);
	c = pdb_chart_new("compare", title, opts->width, opts->height, opts->theme);
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
	free(title);
	return c;
}
