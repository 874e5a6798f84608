/* Report: the sections of the page as Markdown or HTML fragments, and the template variables. */
#include "compare_render.h"
#include "compare_text.h"
#include "report_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "template.h"
#include "units.h"

/* ---- text of values ---- */

static char *run_label(const struct pdb_run *run)
{
	return run->name ? pdb_xasprintf("run%lld (%s)", (long long)run->id, run->name)
			 : pdb_xasprintf("run%lld", (long long)run->id);
}

static char *point_label(const struct pdb_history_point *p)
{
	if (p->commit)
		return pdb_xasprintf("run%lld (%.*s)", (long long)p->run_id, /* whole characters */
				     (int)pdb_utf8_prefix(p->commit, 12), p->commit);
	if (p->run_name)
		return pdb_xasprintf("run%lld (%s)", (long long)p->run_id, p->run_name);
	return pdb_xasprintf("run%lld", (long long)p->run_id);
}

/* ---- tables in either format ---- */

struct table {
	int html;
	struct pdb_buf *b;
	const char *align;   /* 'l' or 'r' per column */
	size_t ncols;
	int verdict_col;     /* a column shown as a coloured verdict, or -1 */
	int unsettled;       /* the next row's verdict does not stand (a change
			      * point tentative, unconfirmed, or whose CPU time
			      * stayed steady): coloured as inconclusive */
};

static void text(const struct table *t, const char *s)
{
	if (t->html)
		pdb_escape_html(t->b, s);
	else
		pdb_escape_md(t->b, s);
}

static void table_begin(struct table *t, int html, struct pdb_buf *b, const char *cls,
			const char *align, const char *const *head)
{
	t->html = html;
	t->b = b;
	t->align = align;
	t->ncols = strlen(align);
	t->verdict_col = -1;
	if (html)
		pdb_buf_printf(b, "<table class=\"%s\">\n<thead><tr>", cls);
	for (size_t i = 0; i < t->ncols; i++) {
		if (html)
			pdb_buf_printf(b, "<th%s>", align[i] == 'r' ? " class=\"num\"" : "");
		else
			pdb_buf_puts(b, "| ");
		text(t, head[i]);
		pdb_buf_puts(b, html ? "</th>" : " ");
	}
	if (html) {
		pdb_buf_puts(b, "</tr></thead>\n<tbody>\n");
		return;
	}
	pdb_buf_puts(b, "|\n|");
	for (size_t i = 0; i < t->ncols; i++)
		pdb_buf_puts(b, align[i] == 'r' ? "--:|" : "---|");
	pdb_buf_puts(b, "\n");
}

static const char *verdict_mark(const char *verdict)
{
	if (strncmp(verdict, "failed", 6) == 0 || strncmp(verdict, "regression", 10) == 0)
		return "🔴";
	if (strncmp(verdict, "improvement", 11) == 0)
		return "🟢";
	if (strncmp(verdict, "inconclusive", 12) == 0)
		return "🟠";
	if (strncmp(verdict, "unchanged", 9) == 0)
		return "⚪";
	return "⚫";
}

/* A row; cells in emph (bit per column) are stressed (bold, or marked in
 * HTML); row_class is the HTML row's class or NULL. */
static void table_row(const struct table *t, const char *row_class, const char *const *cells,
		      unsigned emph)
{
	struct pdb_buf *b = t->b;

	if (t->html) {
		pdb_buf_puts(b, "<tr");
		if (row_class)
			pdb_buf_printf(b, " class=\"%s\"", row_class);
		pdb_buf_puts(b, ">");
	}
	for (size_t i = 0; i < t->ncols; i++) {
		int em = (emph >> i) & 1;
		if (t->html) {
			pdb_buf_printf(b, "<td%s%s%s>", t->align[i] == 'r' || em ? " class=\"" : "",
				       t->align[i] == 'r' ? (em ? "num em" : "num") : em ? "em" : "",
				       t->align[i] == 'r' || em ? "\"" : "");
			if ((int)i == t->verdict_col) {
				char cls[16];
				/* the verdict's name: "failed: REASON", "regression (warn)" */
				snprintf(cls, sizeof cls, "%s", t->unsettled ? "inconclusive" : cells[i]);
				cls[strcspn(cls, " :(")] = '\0';
				pdb_buf_printf(b, "<span class=\"badge %s\">", cls);
				text(t, cells[i]);
				pdb_buf_puts(b, "</span>");
			} else {
				text(t, cells[i]);
			}
			pdb_buf_puts(b, "</td>");
			continue;
		}
		pdb_buf_puts(b, "| ");
		if ((int)i == t->verdict_col)
			pdb_buf_printf(b, "%s ", verdict_mark(t->unsettled ? "inconclusive" : cells[i]));
		if (em && *cells[i])
			pdb_buf_puts(b, "**");
		text(t, cells[i]);
		if (em && *cells[i])
			pdb_buf_puts(b, "**");
		pdb_buf_puts(b, " ");
	}
	pdb_buf_puts(b, t->html ? "</tr>\n" : "|\n");
}

static void table_end(const struct table *t)
{
	if (t->html)
		pdb_buf_puts(t->b, "</tbody>\n</table>\n");
}

/* ---- sections ---- */

/* The page's verdict is compare's headline, gated as compare gates by
 * default: the same FAIL, PASS or NO COMPARISON and the same counts. The
 * class colours the banner (fail: red). */
static const char *page_class(const struct pdb_compare *c)
{
	switch (pdb_compare_outcome(c, PDB_FAIL_ON_DEFAULT)) {
	case PDB_OUTCOME_FAIL: return "fail";
	case PDB_OUTCOME_NONE: return "none";
	default: return c->counts[PDB_VERDICT_IMPROVEMENT] ? "improvement" : "unchanged";
	}
}

static void subtitle(const struct report *r, int html, struct pdb_buf *b)
{
	const struct pdb_run *runs[2] = { r->cand, r->base };
	const char *names[2] = { r->base ? "Candidate" : "Run", "baseline" };

	for (int k = 0; k < (r->base ? 2 : 1); k++) {
		const char *commit = pdb_run_get_attr(runs[k], "commit");
		const char *branch = pdb_run_get_attr(runs[k], "branch");
		char *label = run_label(runs[k]);
		struct table t = { .html = html, .b = b };

		pdb_buf_printf(b, "%s%s %s", k ? " against " : "", names[k], html ? "<b>" : "**");
		text(&t, label);
		pdb_buf_puts(b, html ? "</b>" : "**");
		pdb_buf_puts(b, " of ");
		text(&t, runs[k]->created_at);
		if (commit || branch) {
			pdb_buf_puts(b, ", ");
			text(&t, branch ? branch : "");
			pdb_buf_puts(b, branch && commit ? " at " : "");
			text(&t, commit ? commit : "");
		}
		free(label);
	}
	pdb_buf_puts(b, ".");
}

static void summary(const struct pdb_compare *c, struct pdb_buf *b)
{
	pdb_buf_printf(b, "%zu series compared (significance level %g).",
		       pdb_compare_in_common(c), c->alpha);
}

static void env_warning(const struct pdb_compare *c, int html, struct pdb_buf *b)
{
	struct table t = { .html = html, .b = b };

	if (c->nenv == 0)
		return;
	pdb_buf_puts(b, "The machines differ (");
	for (size_t i = 0; i < c->nenv; i++) {
		pdb_buf_puts(b, i ? ", " : "");
		text(&t, c->env[i].key);
	}
	pdb_buf_puts(b, "): the changes may come from the machine, not the code.");
}

static void geomean_table(const struct pdb_compare *c, int html, struct pdb_buf *b)
{
	static const char *const head[] = { "metric", "series", "worse-ratio", "interval", "change" };
	struct table t;

	if (c->ngeomean == 0)
		return;
	table_begin(&t, html, b, "geomean", "lrrrl", head);
	for (size_t i = 0; i < c->ngeomean; i++) {
		const struct pdb_compare_geomean *g = &c->geomean[i];
		char n[32], ratio[32], interval[64], change[96];
		const char *row[5] = { g->metric, n, ratio, interval, change };
		/* worse or better only as its interval says: a geomean of noisy
		 * medians is inconclusive, whatever its point */
		const char *word = g->verdict == PDB_VERDICT_REGRESSION ? "worse"
			: g->verdict == PDB_VERDICT_IMPROVEMENT ? "better" : NULL;

		snprintf(n, sizeof n, "%zu", g->n);
		snprintf(ratio, sizeof ratio, "%.4f", g->ratio);
		if (isnan(g->low))
			snprintf(interval, sizeof interval, "-");
		else
			snprintf(interval, sizeof interval, "[%.4f, %.4f]", g->low, g->high);
		pdb_pct_text(g->change_pct, change, sizeof change);
		snprintf(change + strlen(change), sizeof change - strlen(change), " %s", word ? word :
			 pdb_verdict_name(g->verdict));
		table_row(&t, word, row, 0);
	}
	table_end(&t);
}

static void chart(const struct report_chart *c, int html, struct pdb_buf *b)
{
	struct table t = { .html = html, .b = b };

	if (c->note) { /* what is left out, before what is drawn */
		pdb_buf_puts(b, html ? "<p class=\"note\">" : "");
		text(&t, c->note);
		pdb_buf_puts(b, html ? "</p>\n" : "\n\n");
	}
	if (!c->name)
		return;
	if (html) {
		pdb_buf_puts(b, "<figure class=\"chart\">\n");
		pdb_buf_puts(b, c->svg);
		pdb_buf_puts(b, "<figcaption>");
		text(&t, c->alt);
		pdb_buf_printf(b, " (<a href=\"%s.svg\">SVG</a>, <a href=\"%s.png\">PNG</a>)"
			       "</figcaption>\n</figure>\n", c->name, c->name);
		return;
	}
	pdb_buf_puts(b, "![");
	text(&t, c->alt);
	pdb_buf_printf(b, "](%s.png)\n", c->name);
}

static void scaling_table(const struct pdb_scaling *s, int html, struct pdb_buf *b)
{
	static const char *const head[] = { "dims", "vCPUs", "throughput", "per vCPU", "speed-up",
				      "efficiency" };
	int dims = s->nlines > 1;
	struct table t;

	table_begin(&t, html, b, "scaling", dims ? "lrrrrr" : "rrrrr", head + !dims);
	for (size_t l = 0; l < s->nlines; l++)
		for (size_t i = 0; i < s->lines[l].n; i++) {
			const struct pdb_scaling_row *r = &s->lines[l].rows[i];
			char c[5][48];
			const char *row[6] = { s->lines[l].label, c[0], c[1], c[2], c[3], c[4] };

			snprintf(c[0], sizeof c[0], "%g", r->vcpus);
			pdb_compare_value_text(r->throughput, s->unit, c[1], sizeof c[1]);
			pdb_compare_value_text(r->per_vcpu, s->unit, c[2], sizeof c[2]);
			pdb_speedup_text(r->speedup, c[3], sizeof c[3]);
			snprintf(c[4], sizeof c[4], "%.1f%%", r->efficiency);
			table_row(&t, NULL, row + !dims, 0);
		}
	table_end(&t);
}

static void scaling_text(const struct pdb_scaling *s, int html, struct pdb_buf *b)
{
	const struct pdb_scaling_line *ln = &s->lines[0];
	struct table t = { .html = html, .b = b };

	pdb_buf_puts(b, html ? "<b>" : "**");
	text(&t, s->benchmark);
	pdb_buf_puts(b, html ? "</b>, " : "**, ");
	text(&t, s->metric);
	pdb_buf_puts(b, s->from_time ? " (as runs per second)" : "");
	if (*s->held) {
		pdb_buf_puts(b, ", held fixed: ");
		text(&t, s->held);
	}
	if (*s->follows) {
		pdb_buf_puts(b, ", following vCPUs: ");
		text(&t, s->follows);
	}
	if (s->nlines > 1) {
		pdb_buf_printf(b, ", %zu lines by their other dims", s->nlines);
	} else if (ln->has_usl) {
		pdb_buf_printf(b, ". Universal Scalability Law fit: contention σ = %.4g, coherency "
			       "κ = %.4g, ", ln->usl.sigma, ln->usl.kappa);
		if (isfinite(ln->usl.peak_n))
			pdb_buf_printf(b, "peak at N* = %.1f vCPUs", ln->usl.peak_n);
		else
			pdb_buf_puts(b, "no peak");
		pdb_buf_printf(b, " (R² = %.3f)", ln->usl.r2);
	}
	pdb_buf_puts(b, ".");
}

static void history_section(const struct report_history *h, int html, struct pdb_buf *b)
{
	static const char *const head[] = { "last run before", "first run after", "mean before",
				      "mean after", "change", "p", "verdict" };
	const struct pdb_compare_row *r = h->row;
	struct table t = { .html = html, .b = b };
	char ch[64];

	pdb_buf_puts(b, html ? "<h3>" : "### ");
	text(&t, r->benchmark);
	if (*r->dims) {
		pdb_buf_puts(b, " [");
		text(&t, r->dims);
		pdb_buf_puts(b, "]");
	}
	pdb_buf_puts(b, html ? " &mdash; " : " — ");
	text(&t, r->metric);
	pdb_buf_puts(b, html ? "</h3>\n" : "\n\n");
	pdb_compare_change_text(r, ch, sizeof ch);
	pdb_buf_printf(b, "%sThis comparison: %s %s. ", html ? "<p>" : "",
		       pdb_verdict_name(r->verdict), ch);
	if (h->res.ncps == 0)
		pdb_buf_printf(b, "No change point in the last %zu runs.", h->n);
	else
		pdb_buf_printf(b, "%zu change point%s in the last %zu runs (dashed lines):",
			       h->res.ncps, h->res.ncps == 1 ? "" : "s", h->n);
	pdb_buf_puts(b, html ? "</p>\n" : "\n\n");
	chart(&h->chart, html, b);
	if (!html && h->chart.name)
		pdb_buf_puts(b, "\n");
	if (h->res.ncps == 0)
		return;
	table_begin(&t, html, b, "changes", "llrrrrl", head);
	t.verdict_col = 6;
	for (size_t k = 0; k < h->res.ncps; k++) {
		const struct pdb_change_point *cp = &h->res.cps[k];
		char *before = point_label(&h->pts[cp->index_before]);
		char *after = point_label(&h->pts[cp->index]);
		char mb[48], ma[48], pct[32], p[32], v[48];
		const char *row[7] = { before, after, mb, ma, pct, p, v };

		pdb_compare_value_text(cp->mean_before, r->unit, mb, sizeof mb);
		pdb_compare_value_text(cp->mean_after, r->unit, ma, sizeof ma);
		pdb_detect_change_text(cp, r->unit, pct, sizeof pct);
		pdb_compare_p_text(cp->p_value, p, sizeof p);
		pdb_detect_verdict_text(cp, v, sizeof v);
		t.unsettled = pdb_detect_standing(cp) != NULL;
		table_row(&t, NULL, row, 0);
		free(before);
		free(after);
	}
	table_end(&t);
	if (!html)
		pdb_buf_puts(b, "\n");
}

#define MAX_VALUE 72   /* characters of an attribute shown before "…" */

/* value, cut to MAX_VALUE characters (UTF-8 aware) with "…". Caller frees. */
static char *shorten(const char *value)
{
	size_t chars = 0, i = 0;

	for (; value[i]; i++) {
		if (((unsigned char)value[i] & 0xc0) != 0x80 && ++chars > MAX_VALUE)
			return pdb_xasprintf("%.*s…", (int)i, value);
	}
	return pdb_xstrdup(value);
}

/* The base names of a comma-separated list of files. Caller frees. */
static char *base_names(const char *paths)
{
	struct pdb_buf b;
	const char *p = paths;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	while (p && *p) {
		size_t n = strcspn(p, ",");
		const char *slash = p, *q;
		for (q = p; q < p + n; q++)
			if (*q == '/')
				slash = q + 1;
		pdb_buf_printf(&b, "%s%.*s", b.len ? ", " : "", (int)(p + n - slash), slash);
		p += n + (p[n] == ',');
	}
	return b.data;
}

/* Attributes the tool wrote ("fio.time", "jmh.jvm"): many, and not the
 * machine; they are counted, not listed. */
static int tool_attr(const char *key)
{
	return strchr(key, '.') != NULL;
}

static void env_row(struct table *t, const char *key, const char *vx, const char *vy)
{
	int differ = strcmp(vx, vy) != 0;
	char *sx = shorten(vx), *sy = shorten(vy);
	const char *row[4] = { differ ? "≠" : "", key, sx, sy };

	if (t->ncols == 2) /* one run: attribute and value */
		table_row(t, NULL, row + 1, 0);
	else
		table_row(t, differ ? "differs" : NULL, row, differ ? 0xeu : 0);
	free(sx);
	free(sy);
}

/* Both runs' identity and attributes side by side; attributes that
 * differ are stressed. */
static void environment_table(const struct report *r, int html, struct pdb_buf *b)
{
	static const char *const head[] = { "", "attribute", "baseline", "candidate" };
	static const char *names[] = { "run", "created", "tool", "format", "source" };
	/* a run's own report: its attributes beside themselves, shown once */
	const struct pdb_run *x = r->base ? r->base : r->cand, *y = r->cand;
	char *lx = run_label(x), *ly = run_label(y);
	char *fx = base_names(x->source), *fy = base_names(y->source);
	const char *rows[][2] = {
		{ lx, ly }, { x->created_at, y->created_at }, { x->tool, y->tool },
		{ x->format, y->format }, { fx, fy },
	};
	size_t i = 0, k = 0, ntool = 0, ntool_differ = 0;
	struct table t;

	static const char *const own_head[] = { "attribute", "value" };

	if (r->base)
		table_begin(&t, html, b, "environment", "llll", head);
	else
		table_begin(&t, html, b, "environment", "ll", own_head);
	for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
		const char *row[4] = { "", names[n], rows[n][0] ? rows[n][0] : "-",
				       rows[n][1] ? rows[n][1] : "-" };
		table_row(&t, "run", row + !r->base, 0);
	}
	/* attributes are kept sorted by key: merge the two lists */
	while (i < x->nattrs || k < y->nattrs) {
		int c = i == x->nattrs ? 1 : k == y->nattrs ? -1 :
			strcmp(x->attrs[i].key, y->attrs[k].key);
		const char *key = c <= 0 ? x->attrs[i].key : y->attrs[k].key;
		const char *vx = c <= 0 ? x->attrs[i].value : "-";
		const char *vy = c >= 0 ? y->attrs[k].value : "-";

		if (tool_attr(key)) {
			ntool++;
			ntool_differ += c != 0 || strcmp(vx, vy) != 0;
		} else {
			env_row(&t, key, vx, vy);
		}
		i += c <= 0;
		k += c >= 0;
	}
	table_end(&t);
	if (ntool && r->base)
		pdb_buf_printf(b, "%s%zu attribute%s that the tools wrote (keys with a dot) %s "
			       "not shown, %zu of them differ%s; `perfdb show` lists them.%s\n",
			       html ? "<p class=\"note\">" : "\n", ntool, ntool == 1 ? "" : "s",
			       ntool == 1 ? "is" : "are", ntool_differ, ntool_differ == 1 ? "s" : "",
			       html ? "</p>" : "");
	else if (ntool)
		pdb_buf_printf(b, "%s%zu attribute%s that the tools wrote (keys with a dot) %s "
			       "not shown; `perfdb show` lists them.%s\n", html ? "<p class=\"note\">"
			       : "\n", ntool, ntool == 1 ? "" : "s", ntool == 1 ? "is" : "are",
			       html ? "</p>" : "");
	free(lx);
	free(ly);
	free(fx);
	free(fy);
}

/* The outcome of each capacity search of the run (its attributes
 * capacity.BENCH[POINT], lib/runner/capacity.c), a row each. */
static void capacity_table(const struct pdb_run *run, int html, struct pdb_buf *b)
{
	static const char *const head[] = { "search", "outcome" };
	struct table t;
	int any = 0;

	for (size_t i = 0; i < run->nattrs; i++) {
		const char *key = run->attrs[i].key;
		const char *row[2] = { key + strlen("capacity."), run->attrs[i].value };
		if (strncmp(key, "capacity.", strlen("capacity.")) != 0)
			continue;
		if (!any++)
			table_begin(&t, html, b, "capacity", "ll", head);
		table_row(&t, NULL, row, 0);
	}
	if (any)
		table_end(&t);
}

/* ---- the template variables ---- */

enum {
	V_TITLE, V_SUBTITLE, V_VERDICT, V_VERDICT_CLASS, V_HEADLINE, V_VERDICT_DETAIL, V_SUMMARY, V_ENV_WARNING, V_GEOMEAN,
	V_COMPARE_TABLE, V_COMPARE_CHART, V_SCALING, V_SCALING_CHART, V_SCALING_TABLE,
	V_BY_POINT, V_LATENCY_CHART, V_HISTORY, V_ENVIRONMENT, V_GENERATED, V_BASELINE, V_CANDIDATE,
	V_COMPARED, V_OWN, V_CAPACITY, NVARS
};

static const char *const var_names[NVARS] = {
	"title", "subtitle", "verdict", "verdict_class", "headline", "verdict_detail", "summary", "env_warning",
	"geomean_table", "compare_table", "compare_chart", "scaling", "scaling_chart",
	"scaling_table", "by_point", "latency_chart", "history", "environment_table", "generated",
	"baseline", "candidate", "compared", "own", "capacity",
};

int pdb_report_fill(const struct report *r, int html, const char *tmpl, const char *source,
		    struct pdb_buf *out, struct pdb_err *err)
{
	struct pdb_buf v[NVARS];
	struct pdb_template_var vars[NVARS];
	struct table t = { .html = html };
	char now[32], *label, *colon;
	int rc;

	for (int i = 0; i < NVARS; i++)
		pdb_buf_init(&v[i]);
	t.b = &v[V_TITLE];
	text(&t, r->title);
	subtitle(r, html, &v[V_SUBTITLE]);
	pdb_report_by_point(r->cand, html, !r->base, &v[V_BY_POINT]);
	for (size_t i = 0; i < r->nlatency; i++)
		chart(&r->latency[i], html, &v[V_LATENCY_CHART]);
	capacity_table(r->cand, html, &v[V_CAPACITY]);
	environment_table(r, html, &v[V_ENVIRONMENT]);
	if (r->has_scaling) {
		scaling_text(&r->scaling, html, &v[V_SCALING]);
		chart(&r->scaling_chart, html, &v[V_SCALING_CHART]);
		scaling_table(&r->scaling, html, &v[V_SCALING_TABLE]);
	}
	pdb_now_iso(now);
	pdb_buf_puts(&v[V_GENERATED], now);
	t.b = &v[V_CANDIDATE];
	label = run_label(r->cand);
	text(&t, label);
	free(label);
	if (!r->base) { /* a run's own report: no comparison */
		pdb_buf_puts(&v[V_OWN], "1");
		goto fill;
	}
	pdb_buf_puts(&v[V_COMPARED], "1");
	pdb_compare_headline(&r->cmp, PDB_FAIL_ON_DEFAULT, &r->opts, html ? PDB_RENDER_HTML :
			     PDB_RENDER_MARKDOWN, &v[V_HEADLINE]);
	/* "FAIL" and "1 failed, ... (fails on ...)": the banner's two parts */
	colon = strstr(v[V_HEADLINE].data, ": ");
	pdb_buf_add(&v[V_VERDICT], v[V_HEADLINE].data, colon ? (size_t)(colon - v[V_HEADLINE].data)
							  : v[V_HEADLINE].len);
	pdb_buf_puts(&v[V_VERDICT_DETAIL], colon ? colon + 2 : "");
	pdb_buf_puts(&v[V_VERDICT_CLASS], page_class(&r->cmp));
	summary(&r->cmp, &v[V_SUMMARY]);
	env_warning(&r->cmp, html, &v[V_ENV_WARNING]);
	geomean_table(&r->cmp, html, &v[V_GEOMEAN]);
	pdb_compare_table_all(&r->cmp, html ? PDB_RENDER_HTML : PDB_RENDER_MARKDOWN, 0,
			      &v[V_COMPARE_TABLE]);
	chart(&r->compare_chart, html, &v[V_COMPARE_CHART]);
	for (size_t i = 0; i < r->nhist; i++)
		history_section(&r->hist[i], html, &v[V_HISTORY]);
	t.b = &v[V_BASELINE];
	label = run_label(r->base);
	text(&t, label);
	free(label);
fill:
	for (int i = 0; i < NVARS; i++) {
		/* a placeholder on its own line ends the line itself */
		while (v[i].len > 0 && v[i].data[v[i].len - 1] == '\n')
			v[i].data[--v[i].len] = '\0';
		vars[i].name = var_names[i];
		vars[i].value = v[i].data;
	}
	rc = pdb_template_fill(tmpl, source, vars, NVARS, out, err);
	for (int i = 0; i < NVARS; i++)
		pdb_buf_release(&v[i]);
	return rc;
}
