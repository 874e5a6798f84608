/* Site: index.html, the latest runs and every series by benchmark group, what needs attention first. */
#include "site/site_internal.h"

#include <stdlib.h>
#include <string.h>

/* Filters the rows by the words typed (all of them, in any case); the page
 * works without it. #q=WORDS in the address fills the box. */
static const char filter_script[] =
	"<script>\n(function(){\n"
	"var box=document.getElementById('filter'),shown=document.getElementById('shown');\n"
	"var rows=document.querySelectorAll('tr[data-name]');\n"
	"function apply(){var words=box.value.toLowerCase().split(/\\s+/).filter(Boolean),n=0;\n"
	"rows.forEach(function(r){var name=r.getAttribute('data-name').toLowerCase();\n"
	"var ok=words.every(function(w){return name.indexOf(w)>=0;});r.hidden=!ok;n+=ok;});\n"
	"shown.textContent=words.length?n+' of '+rows.length+' series shown':'';}\n"
	"var m=/^#q=(.*)$/.exec(location.hash);if(m)box.value=decodeURIComponent(m[1]);\n"
	"box.addEventListener('input',apply);apply();\n})();\n</script>\n";

/* The newest run of each branch (or the newest run when no run names one). */
static void latest_runs(struct pdb_buf *b, const struct site *s)
{
	const char **seen = pdb_xcalloc(s->nruns + 1, sizeof *seen);
	size_t nseen = 0;

	pdb_buf_puts(b, "<h2>Latest runs</h2>\n<table class=\"latest\">\n<thead><tr><th>branch</th>"
		     "<th>run</th><th>created</th><th>commit</th><th>status</th>"
		     "<th class=\"num\">series</th><th class=\"num\">failed</th></tr></thead>\n"
		     "<tbody>\n");
	for (size_t i = s->nruns; i-- > 0;) {
		const struct site_run *run = &s->runs[i];
		const struct pdb_run_row *r = run->row;
		const char *branch = pdb_run_row_attr(r, "branch"), *commit = pdb_run_row_attr(r, "commit");
		size_t k = 0;

		while (k < nseen && strcmp(seen[k], branch ? branch : "") != 0)
			k++;
		if (k < nseen)
			continue;
		seen[nseen++] = branch ? branch : "";
		pdb_buf_puts(b, "<tr><td>");
		site_text(b, branch ? branch : "(no branch)");
		pdb_buf_puts(b, "</td><td>");
		site_run_link(b, s, r->id, 0);
		pdb_buf_puts(b, "</td><td>");
		site_text(b, r->created_at);
		pdb_buf_puts(b, "</td><td>");
		site_text(b, commit ? commit : "-");
		pdb_buf_puts(b, "</td><td>");
		site_text(b, r->status);
		pdb_buf_printf(b, "</td><td class=\"num\">%lld</td><td class=\"num\">", (long long)r->nseries);
		if (run->nfail)
			pdb_buf_printf(b, "<a href=\"%s#failures\">%zu</a>", run->file, run->nfail);
		else
			pdb_buf_puts(b, "0");
		pdb_buf_puts(b, "</td></tr>\n");
	}
	pdb_buf_puts(b, "</tbody>\n</table>\n");
	free(seen);
}

static void summary(struct pdb_buf *b, const struct site *s)
{
	size_t count[ATT_NONE + 1] = { 0 };
	int worst = ATT_NONE;

	for (size_t i = 0; i < s->nseries; i++) {
		count[s->series[i].changed]++;
		worst = s->series[i].attention < worst ? s->series[i].attention : worst;
	}
	if (s->nfailing)
		worst = ATT_FAILED;
	pdb_buf_printf(b, "<div class=\"summary a%d\">", worst);
	if (s->nfailing)
		pdb_buf_printf(b, "<strong>%zu benchmark%s failing</strong> in the newest run of %s "
			       "branch that ran %s (<a href=\"#failing\">below</a>), ", s->nfailing,
			       s->nfailing == 1 ? "" : "s", s->nfailing == 1 ? "its" : "their",
			       s->nfailing == 1 ? "it" : "them");
	pdb_buf_printf(b, "<strong>%zu series with a recent regression</strong>, %zu with another "
		       "recent change point, %zu without (recent: in their last %d runs).</div>\n",
		       count[ATT_REGRESSION], count[ATT_CHANGE], count[ATT_NONE],
		       SITE_RECENT);
}

/* What fails now, newest run first. */
static void failing_now(struct pdb_buf *b, const struct site *s)
{
	const struct site_failure **list = pdb_xcalloc(s->nfailing + 1, sizeof *list);

	for (size_t i = 0; i < s->nfailing; i++)
		list[i] = s->failing[s->nfailing - 1 - i];
	pdb_buf_puts(b, "<h2 id=\"failing\">Failing now</h2>\n<p class=\"note\">Benchmarks that "
		     "failed in the newest run of their branch that ran them, and the run their "
		     "failures began (runs that did not run the benchmark neither end them nor "
		     "hide them).</p>\n");
	site_failure_table(b, s, list, s->nfailing, 0, 1, 1);
	free(list);
}

/* for qsort, which has no context argument; one per thread, as lib/table.c's */
static _Thread_local const struct site *sort_site;

/* By attention, then as listed (benchmark, dims, metric). */
static int cmp_row(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int d = sort_site->series[a].attention - sort_site->series[b].attention;

	return d ? d : a < b ? -1 : 1;
}

/* One table per group of benchmarks (the name before its first '/'). */
static void groups(struct pdb_buf *b, const struct site *s)
{
	size_t *rows = pdb_xmalloc((s->nseries + 1) * sizeof *rows);

	sort_site = s;
	for (size_t i = 0, j; i < s->nbenches; i = j) {
		const char *group = s->benches[i].group;
		size_t n = 0, nb = 0;

		for (j = i; j < s->nbenches && strcmp(s->benches[j].group, group) == 0; j++, nb++)
			for (size_t k = 0; k < s->benches[j].n; k++)
				rows[n++] = s->benches[j].series[k];
		qsort(rows, n, sizeof *rows, cmp_row);
		pdb_buf_printf(b, "<h2 id=\"g%zu\">", i);
		if (*group) {
			site_text(b, group);
			pdb_buf_puts(b, "/*");
		} else {
			pdb_buf_puts(b, "Benchmarks without a group");
		}
		pdb_buf_printf(b, " <span class=\"sub\">%zu benchmark%s, %zu series</span></h2>\n", nb,
			       nb == 1 ? "" : "s", n);
		site_series_table(b, s, rows, n, 0, 1);
	}
	free(rows);
}

int site_index_page(struct site *s, struct pdb_buf *b, struct pdb_err *err)
{
	const struct pdb_run_row *first = s->nruns ? s->runs[0].row : NULL;
	const struct pdb_run_row *last = s->nruns ? s->runs[s->nruns - 1].row : NULL;

	(void)err;
	site_page_begin(b, s, "index.html", s->title, 0);
	pdb_buf_puts(b, "<h1>");
	site_text(b, s->title);
	pdb_buf_printf(b, "</h1>\n<p class=\"sub\">%zu series in %zu benchmark%s over %zu run%s",
		       s->nseries, s->nbenches, s->nbenches == 1 ? "" : "s", s->nruns,
		       s->nruns == 1 ? "" : "s");
	if (first) {
		pdb_buf_puts(b, ", from ");
		site_text(b, first->created_at);
		pdb_buf_puts(b, " to ");
		site_text(b, last->created_at);
	}
	if (s->where) {
		pdb_buf_puts(b, "; runs with ");
		site_text(b, s->where);
	}
	pdb_buf_puts(b, ".</p>\n");
	if (s->nbranches) {
		pdb_buf_printf(b, "<p class=\"note\">The runs have %zu branches, and each is a history "
			       "of its own: this site shows ", s->nbranches);
		site_text(b, s->branches[0].name);
		pdb_buf_puts(b, "; the others");
		for (size_t k = 1; k < s->nbranches; k++) {
			pdb_buf_puts(b, k == 1 ? ": " : ", ");
			site_text(b, s->branches[k].name);
			pdb_buf_printf(b, " (%zu run%s)", s->branches[k].runs,
				       s->branches[k].runs == 1 ? "" : "s");
		}
		pdb_buf_puts(b, " have sites of their own: <code>perfdb site --where branch=NAME</code>."
			     "</p>\n");
	}
	if (s->nruns)
		latest_runs(b, s);
	summary(b, s);
	if (s->nfailing)
		failing_now(b, s);
	pdb_buf_printf(b, "<p><label>Filter by name: <input type=\"search\" id=\"filter\" "
		     "placeholder=\"benchmark, dims or metric\"></label> <span id=\"shown\" "
		     "class=\"note\"></span></p>\n<p class=\"note\">Series that need attention come "
		     "first: failing now, then a recent regression, then another "
		     "recent change point. A change point "
		     "is confirmed once it has held for %d runs; newer ones are shown as tentative.</p>\n",
		     PDB_DETECT_MAX_EXCURSION + 1);
	groups(b, s);
	pdb_buf_puts(b, filter_script);
	site_page_end(b);
	return 0;
}
