/* Site: the page of one benchmark: its series, history charts, change points, outliers, environment and runs. */
#include "site/site_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/kinds.h"
#include "chart/layout.h"
#include "chart/render.h"
#include "svg_inline.h"

#define CHART_WIDTH 1000
#define CHART_HEIGHT 380
#define RECENT_RUNS 30      /* runs in the table of values */
#define MAX_VALUES 10       /* distinct values of an attribute listed */

static void series_name(struct pdb_buf *b, const struct site_series *ss)
{
	site_text(b, ss->s->metric);
	if (*ss->dims) {
		pdb_buf_puts(b, " <span class=\"dims\">");
		site_text(b, ss->dims);
		pdb_buf_puts(b, "</span>");
	}
}

/* The runs in which the benchmark failed with these dims (as series.dims),
 * as points without a value labelled like the series' points. */
static struct pdb_history_point *failed_points(const struct site *s, const struct site_bench *bench,
					       const char *dims, size_t *n)
{
	struct pdb_history_point *pts = pdb_xcalloc(bench->nfailed + 1, sizeof *pts);

	*n = 0;
	for (size_t i = 0; i < s->nfailures && bench->nfailed; i++) {
		const struct site_failure *f = &s->failures[i];
		const struct pdb_run_row *r;
		const char *commit;
		struct pdb_history_point *p;

		if (f->bench != bench || strcmp(f->row->dims, dims) != 0)
			continue;
		r = site_find_run(s, f->row->run_id)->row;
		commit = pdb_run_row_attr(r, "commit");
		p = &pts[(*n)++];
		pdb_history_point_init(p, r->id);
		p->seq = r->seq;
		p->run_name = r->name ? pdb_xstrdup(r->name) : NULL;
		p->created_at = pdb_xstrdup(r->created_at);
		p->commit = commit ? pdb_xstrdup(commit) : NULL;
	}
	return pts;
}

/* The end of the caption: what the chart of these series lacks where the
 * benchmark failed, ", a cross where it failed (no value): rows=1000 in 2
 * runs.", else "." */
static void failed_runs(struct pdb_buf *b, const struct pdb_history_input *in,
			const char *const *dims, size_t n)
{
	int first = 1;

	for (size_t k = 0; k < n; k++) {
		if (in[k].nfailed == 0)
			continue;
		if (first)
			pdb_buf_puts(b, ", a cross where it failed (no value; see Failures)");
		pdb_buf_puts(b, !first ? ", " : *dims[k] ? ": " : " ");
		if (*dims[k]) {
			site_text(b, dims[k]);
			pdb_buf_puts(b, " ");
		}
		pdb_buf_printf(b, "in %zu run%s", in[k].nfailed, in[k].nfailed == 1 ? "" : "s");
		first = 0;
	}
	pdb_buf_puts(b, ".");
}

/* The history chart of one metric of the benchmark (all its dims), as `plot history` draws
 * it, of the points and change points already read. */
static int chart(struct site *s, const struct site_bench *bench, const char *metric, size_t k,
		 struct pdb_buf *b, struct pdb_err *err)
{
	struct pdb_history_input *in = pdb_xcalloc(bench->n + 1, sizeof *in);
	const char **dims = pdb_xcalloc(bench->n + 1, sizeof *dims);
	size_t n = 0;
	struct pdb_plot_opts o = { .width = CHART_WIDTH, .height = CHART_HEIGHT,
				   .theme = PDB_THEME_LIGHT };
	struct pdb_chart *c;
	struct pdb_chart_layout *layout = NULL;
	struct pdb_buf svg;
	char *prefix;
	int rc = -1;

	for (size_t i = 0; i < bench->n; i++) {
		const struct site_series *ss = &s->series[bench->series[i]];

		if (strcmp(ss->s->metric, metric) != 0)
			continue;
		dims[n] = ss->dims;
		in[n] = (struct pdb_history_input){ .series = ss->s, .pts = ss->pts, .npts = ss->n,
						    .res = &ss->res };
		in[n].failed = failed_points(s, bench, ss->s->dims, &in[n].nfailed);
		n++;
	}
	c = pdb_history_chart_of(in, n, &o, err);

	pdb_buf_init(&svg);
	if (!c) {
		if (err->code != PDB_EXIT_INPUT && err->code != PDB_EXIT_USAGE)
			goto out;
		/* the chart's advice is for plot's options: what it says before it */
		err->msg[strcspn(err->msg, ";")] = '\0';
		pdb_buf_puts(b, "<p class=\"note\">No chart of ");
		site_text(b, metric);
		pdb_buf_puts(b, ": ");
		site_text(b, err->msg);
		pdb_buf_printf(b, " (a history chart draws up to %d lines of one unit; the tables "
			       "have every series).</p>\n", PDB_HISTORY_MAX_LINES);
		site_note(s, "%s: %s: no chart: %s", bench->file, metric, err->msg);
		pdb_err_clear(err);
		rc = 0;
		goto out;
	}
	layout = pdb_chart_layout(c);
	if (pdb_chart_render_svg(c, layout, &svg, err) < 0)
		goto out;
	prefix = pdb_xasprintf("c%zu", k);
	{
		char *inl = pdb_report_inline_svg(svg.data ? svg.data : "", prefix);
		pdb_buf_puts(b, "<figure class=\"chart\">\n");
		pdb_buf_puts(b, inl);
		pdb_buf_puts(b, "<figcaption>");
		site_text(b, c->title);
		pdb_buf_puts(b, ": the value of each run, change points dashed, outliers circled");
		failed_runs(b, in, dims, n);
		pdb_buf_puts(b, "</figcaption>\n</figure>\n");
		free(inl);
	}
	free(prefix);
	rc = 0;
out:
	pdb_buf_release(&svg);
	pdb_chart_layout_free(layout);
	pdb_chart_free(c);
	for (size_t i = 0; i < n; i++)
		pdb_history_free((struct pdb_history_point *)in[i].failed, in[i].nfailed);
	free(in);
	free(dims);
	return rc;
}

static int charts(struct site *s, const struct site_bench *bench, struct pdb_buf *b,
		  struct pdb_err *err)
{
	const char **metrics = pdb_xcalloc(bench->n + 1, sizeof *metrics);
	size_t nm = 0;
	int rc = 0;

	pdb_buf_puts(b, "<h2>History</h2>\n");
	for (size_t i = 0; i < bench->n && rc == 0; i++) {
		const char *metric = s->series[bench->series[i]].s->metric;
		size_t k = 0;
		while (k < nm && strcmp(metrics[k], metric) != 0)
			k++;
		if (k < nm)
			continue;
		metrics[nm++] = metric;
		rc = chart(s, bench, metric, k, b, err);
	}
	free(metrics);
	return rc;
}

static void point_link(struct pdb_buf *b, const struct site *s, const struct pdb_history_point *p)
{
	site_run_link(b, s, p->run_id, 1);
	if (p->commit) {
		pdb_buf_puts(b, " <span class=\"dims\">");
		site_text(b, p->commit);
		pdb_buf_puts(b, "</span>");
	}
}

static void change_points(const struct site *s, const struct site_bench *bench, struct pdb_buf *b)
{
	size_t ncp = 0, nout = 0;

	for (size_t i = 0; i < bench->n; i++) {
		ncp += s->series[bench->series[i]].res.ncps;
		nout += s->series[bench->series[i]].res.noutliers;
	}
	pdb_buf_puts(b, "<h2>Change points</h2>\n");
	if (ncp == 0)
		pdb_buf_puts(b, "<p>None.</p>\n");
	else
		pdb_buf_puts(b, "<table class=\"changes\">\n<thead><tr><th>series</th>"
			     "<th>last run before</th><th>first run after</th><th class=\"num\">mean "
			     "before</th><th class=\"num\">mean after</th><th class=\"num\">change</th>"
			     "<th class=\"num\">p</th><th class=\"num\">confidence</th><th>verdict</th>"
			     "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < bench->n; i++) {
		const struct site_series *ss = &s->series[bench->series[i]];
		for (size_t k = ss->res.ncps; k-- > 0;) {
			const struct pdb_change_point *cp = &ss->res.cps[k];
			char ch[48], v[48];

			pdb_buf_printf(b, "<tr class=\"%s\"><td>", cp->regression ? "a0" : "");
			series_name(b, ss);
			pdb_buf_puts(b, "</td><td>");
			point_link(b, s, &ss->pts[cp->index_before]);
			pdb_buf_puts(b, "</td><td>");
			point_link(b, s, &ss->pts[cp->index]);
			pdb_buf_puts(b, "</td><td class=\"num\">");
			site_value(b, cp->mean_before, ss->s->unit);
			pdb_buf_puts(b, "</td><td class=\"num\">");
			site_value(b, cp->mean_after, ss->s->unit);
			pdb_detect_change_text(cp, ss->s->unit, ch, sizeof ch);
			pdb_detect_verdict_text(cp, v, sizeof v);
			pdb_buf_printf(b, "</td><td class=\"num\">%s</td><td class=\"num\">%.2g</td>"
				       "<td class=\"num\">%.1f</td><td><span class=\"badge %s\">%s</span>"
				       "</td></tr>\n", ch, cp->p_value, cp->confidence,
				       cp->confirmed ? pdb_detect_verdict(cp) : "tentative", v);
		}
	}
	if (ncp)
		pdb_buf_puts(b, "</tbody>\n</table>\n");
	pdb_buf_printf(b, "<h2>Outliers</h2>\n<p class=\"note\">One-run spikes and excursions of up "
		       "to %d runs, set apart by change point detection.</p>\n",
		       PDB_DETECT_MAX_EXCURSION);
	if (nout == 0) {
		pdb_buf_puts(b, "<p>None.</p>\n");
		return;
	}
	pdb_buf_puts(b, "<table class=\"outliers\">\n<thead><tr><th>series</th><th>run</th>"
		     "<th class=\"num\">value</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < bench->n; i++) {
		const struct site_series *ss = &s->series[bench->series[i]];
		for (size_t k = ss->res.noutliers; k-- > 0;) {
			const struct pdb_outlier *o = &ss->res.outliers[k];
			pdb_buf_puts(b, "<tr><td>");
			series_name(b, ss);
			pdb_buf_puts(b, "</td><td>");
			point_link(b, s, &ss->pts[o->index]);
			pdb_buf_puts(b, "</td><td class=\"num\">");
			site_value(b, o->value, ss->s->unit);
			pdb_buf_puts(b, "</td></tr>\n");
		}
	}
	pdb_buf_puts(b, "</tbody>\n</table>\n");
}

/* The runs the benchmark ran in, in order: its series' points and its failures. */
static size_t bench_runs(const struct site *s, const struct site_bench *bench, int64_t **out)
{
	size_t cap = 0, n = 0;
	char *has = pdb_xcalloc(s->nruns + 1, 1);

	for (size_t i = 0; i < bench->n; i++) {
		const struct site_series *ss = &s->series[bench->series[i]];
		for (size_t k = 0; k < ss->n; k++) {
			const struct site_run *r = site_find_run(s, ss->pts[k].run_id);
			if (r)
				has[r - s->runs] = 1;
		}
	}
	for (size_t i = 0; i < s->nfailures && bench->nfailed; i++) /* and those it failed in */
		if (s->failures[i].bench == bench)
			has[site_find_run(s, s->failures[i].row->run_id) - s->runs] = 1;
	*out = NULL;
	for (size_t i = 0; i < s->nruns; i++)
		if (has[i]) {
			pdb_grow((void **)out, &cap, n + 1, sizeof **out);
			(*out)[n++] = s->runs[i].row->id;
		}
	free(has);
	return n;
}

/* Each attribute of the runs (not those the tools wrote, with a dot) with
 * its values, how many runs had each and the first and last of them. */
struct value_seen {
	const char *value;
	size_t n;
	int64_t first, last;
};

static void environment(const struct site *s, const int64_t *ids, size_t nids, struct pdb_buf *b)
{
	const char **keys = NULL;
	size_t nkeys = 0, cap = 0;

	for (size_t i = 0; i < nids; i++) {
		const struct pdb_run_row *r = site_find_run(s, ids[i])->row;
		for (size_t a = 0; a < r->nattrs; a++) {
			size_t k = 0;
			if (strchr(r->attrs[a].key, '.'))
				continue;
			while (k < nkeys && strcmp(keys[k], r->attrs[a].key) != 0)
				k++;
			if (k == nkeys) {
				pdb_grow((void **)&keys, &cap, nkeys + 1, sizeof *keys);
				keys[nkeys++] = r->attrs[a].key;
			}
		}
	}
	pdb_buf_puts(b, "<h2>Environment</h2>\n");
	if (nkeys == 0) {
		pdb_buf_puts(b, "<p>The runs have no attributes.</p>\n");
		return;
	}
	pdb_buf_puts(b, "<p class=\"note\">The attributes of the runs (those the tools wrote, "
		     "with a dot in their name, are on the run pages).</p>\n<table class=\"environment\">"
		     "\n<thead><tr><th>attribute</th><th>value</th><th class=\"num\">runs</th>"
		     "<th>first</th><th>last</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < nkeys; k++) {
		struct value_seen *vals = NULL;
		size_t nvals = 0, vcap = 0;
		for (size_t i = 0; i < nids; i++) {
			const struct pdb_run_row *r = site_find_run(s, ids[i])->row;
			const char *v = NULL;
			size_t j = 0;
			for (size_t a = 0; a < r->nattrs && !v; a++)
				if (strcmp(r->attrs[a].key, keys[k]) == 0)
					v = r->attrs[a].value;
			if (!v)
				continue;
			while (j < nvals && strcmp(vals[j].value, v) != 0)
				j++;
			if (j == nvals) {
				pdb_grow((void **)&vals, &vcap, nvals + 1, sizeof *vals);
				vals[nvals++] = (struct value_seen){ v, 0, ids[i], ids[i] };
			}
			vals[j].n++;
			vals[j].last = ids[i];
		}
		for (size_t j = 0; j < nvals && j < MAX_VALUES; j++) {
			pdb_buf_puts(b, "<tr><td>");
			site_text(b, keys[k]);
			pdb_buf_puts(b, "</td><td class=\"name\">");
			site_text(b, vals[j].value);
			pdb_buf_printf(b, "</td><td class=\"num\">%zu</td><td>", vals[j].n);
			site_run_link(b, s, vals[j].first, 1);
			pdb_buf_puts(b, "</td><td>");
			site_run_link(b, s, vals[j].last, 1);
			pdb_buf_puts(b, "</td></tr>\n");
		}
		if (nvals > MAX_VALUES) {
			pdb_buf_puts(b, "<tr><td>");
			site_text(b, keys[k]);
			pdb_buf_printf(b, "</td><td colspan=\"4\">and %zu more values</td></tr>\n",
				       nvals - MAX_VALUES);
		}
		free(vals);
	}
	pdb_buf_puts(b, "</tbody>\n</table>\n");
	free(keys);
}

/* The newest runs with the value of each series. */
static void recent_runs(const struct site *s, const struct site_bench *bench, const int64_t *ids,
			size_t nids, struct pdb_buf *b)
{
	size_t first = nids > RECENT_RUNS ? nids - RECENT_RUNS : 0;

	pdb_buf_printf(b, "<h2>Runs</h2>\n<p class=\"note\">The newest %zu of %zu runs, newest "
		       "first.</p>\n<table class=\"runs\">\n<thead><tr><th>run</th><th>created</th>",
		       nids - first, nids);
	for (size_t i = 0; i < bench->n; i++) {
		pdb_buf_puts(b, "<th class=\"num\">");
		series_name(b, &s->series[bench->series[i]]);
		pdb_buf_puts(b, "</th>");
	}
	pdb_buf_puts(b, "</tr></thead>\n<tbody>\n");
	for (size_t r = nids; r-- > first;) {
		const struct pdb_run_row *row = site_find_run(s, ids[r])->row;
		pdb_buf_puts(b, "<tr><td>");
		site_run_link(b, s, ids[r], 1);
		pdb_buf_puts(b, "</td><td>");
		site_text(b, row->created_at);
		pdb_buf_puts(b, "</td>");
		for (size_t i = 0; i < bench->n; i++) {
			const struct site_series *ss = &s->series[bench->series[i]];
			const struct pdb_history_point *p = site_point_at(ss, site_find_run(s, ids[r]));
			pdb_buf_puts(b, "<td class=\"num\">");
			if (!p && site_series_failed_in(s, ss, site_find_run(s, ids[r])))
				pdb_buf_puts(b, "<span class=\"badge failed\">failed</span>");
			else
				site_value(b, p ? p->value : NAN, ss->s->unit);
			pdb_buf_puts(b, "</td>");
		}
		pdb_buf_puts(b, "</tr>\n");
	}
	pdb_buf_puts(b, "</tbody>\n</table>\n");
}

/* The runs in which the benchmark failed, newest first, the last SITE_FAILURES_SHOWN. */
#define SITE_FAILURES_SHOWN 50
static void failures(const struct site *s, const struct site_bench *bench, struct pdb_buf *b)
{
	const struct site_failure **list = pdb_xcalloc(SITE_FAILURES_SHOWN + 1, sizeof *list);
	size_t n = 0;

	for (size_t i = s->nfailures; i-- > 0 && n < SITE_FAILURES_SHOWN;)
		if (s->failures[i].bench == bench)
			list[n++] = &s->failures[i];
	pdb_buf_printf(b, "<h2 id=\"failures\">Failures</h2>\n<p class=\"note\">%zu failure%s "
		       "(of a run and dims each)", bench->nfailed, bench->nfailed == 1 ? "" : "s");
	if (n < bench->nfailed)
		pdb_buf_printf(b, "; the newest %zu here, the others on their run pages", n);
	pdb_buf_puts(b, ".</p>\n");
	site_failure_table(b, s, list, n, 1, 0, 1);
	free(list);
}

int site_bench_page(struct site *s, const struct site_bench *bench, struct pdb_buf *b,
		    struct pdb_err *err)
{
	char *title = pdb_xasprintf("%s — %s", bench->name, s->title);
	int64_t *ids = NULL;
	size_t nids = bench_runs(s, bench, &ids);
	int rc;

	site_page_begin(b, s, bench->file, title, 1);
	pdb_buf_puts(b, "<h1>");
	site_text(b, bench->name);
	pdb_buf_printf(b, "</h1>\n<p class=\"sub\">%zu series over %zu run%s.</p>\n", bench->n, nids,
		       nids == 1 ? "" : "s");
	if (nids && site_bench_points(b, s, bench, ids[nids - 1], 1)) {
		/* a matrix reads as its table; its series, one a row, stay a click away */
		pdb_buf_printf(b, "<details class=\"series\"><summary>Every series (%zu), with its "
			       "history</summary>\n", bench->n);
		site_series_table(b, s, bench->series, bench->n, 1, 0);
		pdb_buf_puts(b, "</details>\n");
	} else {
		site_series_table(b, s, bench->series, bench->n, 1, 0);
	}
	if (bench->nfailed)
		failures(s, bench, b);
	rc = charts(s, bench, b, err);
	if (rc == 0) {
		change_points(s, bench, b);
		environment(s, ids, nids, b);
		recent_runs(s, bench, ids, nids, b);
		site_page_end(b);
	}
	free(ids);
	free(title);
	return rc;
}
