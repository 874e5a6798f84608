/* Site: the page of one run: its attributes, its comparison with the run before, its benchmarks. */
#include "site/site_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_render.h"
#include "gather/compare_gather.h"

static void attributes(const struct pdb_run_row *r, struct pdb_buf *b)
{
	const char *fixed[][2] = { { "created", r->created_at }, { "tool", r->tool },
				   { "format", r->format }, { "status", r->status } };

	pdb_buf_puts(b, "<h2>Attributes</h2>\n<table class=\"environment\">\n<thead><tr>"
		     "<th>attribute</th><th>value</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		pdb_buf_puts(b, "<tr><td>");
		site_text(b, fixed[i][0]);
		pdb_buf_puts(b, "</td><td class=\"name\">");
		site_text(b, fixed[i][1] ? fixed[i][1] : "-");
		pdb_buf_puts(b, "</td></tr>\n");
	}
	for (size_t i = 0; i < r->nattrs; i++) {
		pdb_buf_puts(b, "<tr><td>");
		site_text(b, r->attrs[i].key);
		pdb_buf_puts(b, "</td><td class=\"name\">");
		site_text(b, r->attrs[i].value);
		pdb_buf_puts(b, "</td></tr>\n");
	}
	pdb_buf_puts(b, "</tbody>\n</table>\n");
}

/* compare's headline: "FAIL: 1 regression, 2 unchanged (fails on ...)". */
static void counts(const struct pdb_compare *c, const struct pdb_compare_opts *co,
		   struct pdb_buf *b)
{
	pdb_buf_puts(b, "<p><strong>");
	pdb_compare_headline(c, PDB_FAIL_ON_DEFAULT, co, PDB_RENDER_HTML, b);
	pdb_buf_printf(b, "</strong> (significance level %g).</p>\n", c->alpha);
}

/* What detect found at the k-th point of a series: a change point or an outlier. */
static void found_at(struct pdb_buf *b, const struct site_series *ss, size_t k)
{
	for (size_t c = 0; c < ss->res.ncps; c++) {
		const struct pdb_change_point *cp = &ss->res.cps[c];
		const char *v = pdb_detect_verdict(cp);
		if (cp->index == k)
			pdb_buf_printf(b, "<span class=\"badge %s\">%s%s</span> from here",
				       cp->confirmed ? v : "tentative", v,
				       cp->confirmed ? "" : cp->tentative ? " (tentative)" : " (unconfirmed)");
	}
	for (size_t o = 0; o < ss->res.noutliers; o++)
		if (ss->res.outliers[o].index == k)
			pdb_buf_puts(b, "outlier");
}

/* The stage of a series ("" when none): the series of a benchmark are
 * shown by stage, a stream's sender first. */
static const char *stage_of(const struct site_series *ss)
{
	const char *p = strstr(ss->dims, "stage=");

	while (p && p != ss->dims && p[-1] != ',')
		p = strstr(p + 1, "stage=");
	return p ? p + strlen("stage=") : "";
}

static _Thread_local const struct site *order_site;
static _Thread_local const struct site_run *order_run;

/* The values by benchmark (in the order of their first value), then stage,
 * then as they were. */
static int by_bench_stage(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const struct site_series *sx = &order_site->series[order_run->values[x].series];
	const struct site_series *sy = &order_site->series[order_run->values[y].series];
	const char *px = stage_of(sx), *py = stage_of(sy);
	size_t lx = strcspn(px, ","), ly = strcspn(py, ",");
	int c;

	if (sx->bench != sy->bench)
		return sx->bench < sy->bench ? -1 : 1;
	c = memcmp(px, py, lx < ly ? lx : ly);
	if (!c && lx != ly)
		c = lx < ly ? -1 : 1;
	return c ? c : (x > y) - (x < y);
}

/* run->values' indices, by benchmark and stage. Caller frees. */
static size_t *value_order(const struct site *s, const struct site_run *run)
{
	size_t *order = pdb_xmalloc((run->nvalues + 1) * sizeof *order);

	for (size_t i = 0; i < run->nvalues; i++)
		order[i] = i;
	order_site = s;
	order_run = run;
	qsort(order, run->nvalues, sizeof *order, by_bench_stage);
	return order;
}

/* Every series of the run: its value, the value in the run compared with,
 * the change; a heading row for each benchmark, and each stage of it. */
static void values(const struct site *s, const struct site_run *run, const size_t *order,
		   struct pdb_buf *b)
{
	const struct site_series *prev = NULL;

	pdb_buf_printf(b, "<h2>Series</h2>\n<p class=\"note\">%zu series; the change is against ",
		       run->nvalues);
	if (run->prev)
		site_run_link(b, s, run->prev, 1);
	else
		pdb_buf_puts(b, "nothing (no run before has a series of it)");
	pdb_buf_puts(b, "; each value is the median of the run's samples, its change the "
		     "percentage from the value before");
	if (run->prev && run->newest)
		pdb_buf_puts(b, " (the comparison above estimates the change from all the samples, "
			     "Hodges-Lehmann, so the two can differ)");
	pdb_buf_puts(b, "; change points and outliers as change point detection placed them in "
		     "each series' history (their sizes are on the benchmark pages).</p>\n"
		     "<table class=\"values\">\n<thead><tr><th>benchmark</th><th>dims</th>"
		     "<th>metric</th><th class=\"num\">value</th><th class=\"num\">before</th>"
		     "<th class=\"num\">value change</th><th>detect</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < run->nvalues; i++) {
		const struct site_value *v = &run->values[order[i]];
		const struct site_series *ss = &s->series[v->series];
		const struct pdb_history_point *p = &ss->pts[v->k];
		const struct pdb_history_point *q = run->prev ? site_point_at(ss, site_find_run(s, run->prev)) : NULL;
		const char *stage = stage_of(ss);
		size_t nstage = strcspn(stage, ",");

		if (!prev || prev->bench != ss->bench || strcspn(stage_of(prev), ",") != nstage ||
		    strncmp(stage_of(prev), stage, nstage) != 0) {
			pdb_buf_puts(b, "<tr class=\"group\"><th colspan=\"7\">");
			site_text(b, ss->s->benchmark);
			if (nstage) {
				char *name = pdb_xasprintf("%.*s", (int)nstage, stage);
				pdb_buf_puts(b, ", stage ");
				site_text(b, name);
				free(name);
			}
			pdb_buf_puts(b, "</th></tr>\n");
		}
		prev = ss;
		pdb_buf_printf(b, "<tr><td class=\"name\"><a href=\"../%s\">", s->benches[ss->bench].file);
		site_text(b, ss->s->benchmark);
		pdb_buf_puts(b, "</a></td><td class=\"dims\">");
		site_text(b, ss->dims);
		pdb_buf_puts(b, "</td><td>");
		site_text(b, ss->s->metric);
		pdb_buf_puts(b, "</td><td class=\"num\">");
		site_value(b, p->value, ss->s->unit);
		pdb_buf_puts(b, "</td><td class=\"num\">");
		if (!q && run->prev && site_series_failed_in(s, ss, site_find_run(s, run->prev)))
			pdb_buf_puts(b, "<span class=\"badge failed\">failed</span>");
		else
			site_value(b, q ? q->value : NAN, ss->s->unit);
		pdb_buf_puts(b, "</td>");
		site_change_cell(b, q ? q->value : NAN, p->value, ss->s->direction);
		pdb_buf_puts(b, "<td>");
		found_at(b, ss, v->k);
		pdb_buf_puts(b, "</td></tr>\n");
	}
	pdb_buf_puts(b, "</tbody>\n</table>\n");
}

/* The benchmarks that failed in the run (with since when, for those that fail now). */
static void failures(const struct site *s, const struct site_run *run, struct pdb_buf *b)
{
	const struct site_failure **list = pdb_xcalloc(run->nfail + 1, sizeof *list);

	for (size_t i = 0; i < run->nfail; i++)
		list[i] = &s->failures[run->fail + i];
	pdb_buf_printf(b, "<h2 id=\"failures\">Failures</h2>\n<p class=\"note\">%zu benchmark%s "
		       "failed in this run.</p>\n", run->nfail, run->nfail == 1 ? "" : "s");
	site_failure_table(b, s, list, run->nfail, 1, 1, 0);
	free(list);
}

/* Which run it is compared with, and why that one. */
static void before(const struct site *s, const struct site_run *run, struct pdb_buf *b)
{
	const struct pdb_run_row *p = site_find_run(s, run->prev)->row;
	const char *mine = pdb_run_row_attr(run->row, "branch"), *theirs = pdb_run_row_attr(p, "branch");

	if (mine ? theirs && strcmp(mine, theirs) == 0 : !theirs) {
		pdb_buf_puts(b, "</h2>\n<p class=\"note\">The run before on the same branch with a "
			     "series in common.");
		return;
	}
	pdb_buf_puts(b, "</h2>\n<p class=\"note\">No run before on ");
	site_text(b, mine ? mine : "no branch");
	pdb_buf_puts(b, " has a series in common: the run before with one, on ");
	site_text(b, theirs ? theirs : "no branch");
	pdb_buf_puts(b, ".");
}

int site_run_page(struct site *s, const struct site_run *run, struct pdb_buf *b,
		  struct pdb_err *err)
{
	const struct pdb_run_row *r = run->row;
	char *label = r->name ? pdb_xasprintf("run%lld (%s)", (long long)r->id, r->name)
			      : pdb_xasprintf("run%lld", (long long)r->id);
	char *title = pdb_xasprintf("%s — %s", label, s->title);
	struct pdb_compare_opts co;
	struct pdb_compare cmp = { 0 };
	size_t *order;
	int rc = -1;

	pdb_compare_opts_init(&co);
	co.config = s->opts->config;
	/* the statistical comparison costs a second a run of 2,000 series: the
	 * newest run of each branch has it, the others say how to get it */
	if (run->prev && run->newest &&
	    pdb_compare_run_groups(s->store, &run->prev, 1, &r->id, 1, &co, &cmp, err) < 0)
		goto out;
	site_page_begin(b, s, run->file, title, 1);
	pdb_buf_puts(b, "<h1>");
	site_text(b, label);
	pdb_buf_puts(b, "</h1>\n<p class=\"sub\">");
	site_text(b, r->created_at);
	pdb_buf_printf(b, ", %lld series", (long long)r->nseries);
	if (run->nfail)
		pdb_buf_printf(b, ", <a href=\"#failures\">%zu benchmark%s failed</a>", run->nfail,
			       run->nfail == 1 ? "" : "s");
	pdb_buf_puts(b, ".</p>\n");
	if (run->nfail)
		failures(s, run, b);
	attributes(r, b);
	if (run->prev) {
		pdb_buf_puts(b, "<h2>Compared with ");
		site_run_link(b, s, run->prev, 1);
		before(s, run, b);
	}
	if (run->prev && run->newest) {
		pdb_buf_puts(b, " Worst first; change and interval are this run's change in the "
			     "metric's own direction.</p>\n");
		counts(&cmp, &co, b);
		pdb_compare_table_all(&cmp, PDB_RENDER_HTML, 0, b);
	} else if (run->prev) {
		pdb_buf_printf(b, " The newest run of each branch has the statistical comparison here; "
			       "for this one run <code>perfdb compare run%lld run%lld</code> or "
			       "<code>perfdb report run%lld</code>.</p>\n", (long long)run->prev,
			       (long long)r->id, (long long)r->id);
	}
	order = value_order(s, run);
	site_run_points(b, s, run, order);
	values(s, run, order, b);
	free(order);
	site_page_end(b);
	rc = 0;
out:
	pdb_compare_release(&cmp);
	free(label);
	free(title);
	return rc;
}
