/* Site: the page of one run: its attributes, its comparison with the run before, its benchmarks. */
#include "site/site_internal.h"

#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report_internal.h"

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

static void counts(const struct pdb_compare *c, struct pdb_buf *b)
{
	int first = 1;

	pdb_buf_puts(b, "<p>");
	for (int v = 0; v < PDB_VERDICT_COUNT; v++) {
		if (!c->counts[v])
			continue;
		pdb_buf_printf(b, "%s%zu %s", first ? "" : ", ", c->counts[v], pdb_verdict_name(v));
		first = 0;
	}
	pdb_buf_printf(b, "%s (significance level %g).</p>\n", first ? "no series" : "", c->alpha);
}

/* The benchmarks of the run (from the comparison's rows), each a link to its page. */
static void benchmarks(const struct site *s, const struct pdb_compare *c, struct pdb_buf *b)
{
	const char *last = NULL;

	pdb_buf_puts(b, "<h2>Benchmarks of this run</h2>\n<ul class=\"benches\">\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		const struct site_bench *bench;
		if (r->verdict == PDB_VERDICT_MISSING || (last && strcmp(last, r->benchmark) == 0))
			continue;
		last = r->benchmark;
		if (!(bench = site_find_bench(s, r->benchmark)))
			continue;
		pdb_buf_printf(b, "<li><a href=\"../%s\">", bench->file);
		site_text(b, bench->name);
		pdb_buf_puts(b, "</a></li>\n");
	}
	pdb_buf_puts(b, "</ul>\n");
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
	int64_t base = run->prev ? run->prev : r->id;
	int rc = -1;

	pdb_compare_opts_init(&co);
	/* the first run is compared with itself: its rows are its series */
	if (pdb_compare_run_groups(s->store, &base, 1, &r->id, 1, &co, &cmp, err) < 0)
		goto out;
	site_page_begin(b, s, run->file, title, 1);
	pdb_buf_puts(b, "<h1>");
	site_text(b, label);
	pdb_buf_puts(b, "</h1>\n<p class=\"sub\">");
	site_text(b, r->created_at);
	pdb_buf_printf(b, ", %lld series.</p>\n", (long long)r->nseries);
	attributes(r, b);
	if (run->prev) {
		pdb_buf_puts(b, "<h2>Compared with ");
		site_run_link(b, s, run->prev, 1);
		pdb_buf_puts(b, "</h2>\n<p class=\"note\">The run before on the same branch (else the "
			     "run before). Worst first; change and interval are this run's change in "
			     "the metric's own direction.</p>\n");
		counts(&cmp, b);
		pdb_report_compare_table(&cmp, 1, b);
	} else {
		pdb_buf_puts(b, "<h2>Compared with</h2>\n<p>The first run of the site: there is "
			     "nothing before it to compare with.</p>\n");
	}
	benchmarks(s, &cmp, b);
	site_page_end(b);
	rc = 0;
out:
	pdb_compare_release(&cmp);
	free(label);
	free(title);
	return rc;
}
