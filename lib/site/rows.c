/* Site: the table of series that the index and the benchmark pages share: sparkline, direction, latest value, change, change point. */
#include "site/site_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

static const char *direction_words(int direction)
{
	return direction == PDB_DIR_LOWER ? "lower is better" :
	       direction == PDB_DIR_HIGHER ? "higher is better" : "not gated";
}

void site_change_cell(struct pdb_buf *b, double before, double after, int direction)
{
	double pct = (after / before - 1) * 100;
	if (!isfinite(before) || before == 0 || !isfinite(pct)) {
		pdb_buf_puts(b, "<td class=\"num\">-</td>");
		return;
	}
	/* a change of two values has no test: a number, never "worse" or
	 * "better" (the change-point column carries the verdict) */
	(void)direction;
	{
		char t[48];
		pdb_pct_text(pct, t, sizeof t);
		pdb_buf_printf(b, "<td class=\"num\">%s</td>", t);
	}
}

/* The newest confirmed change point, and a newer unconfirmed one. */
static void change_point_cell(struct pdb_buf *b, const struct site *s,
			      const struct site_series *ss, int depth)
{
	const struct pdb_change_point *confirmed = NULL, *newer = NULL;
	char ch[48], nch[48];

	for (size_t k = ss->res.ncps; k-- > 0;) {
		const struct pdb_change_point *cp = &ss->res.cps[k];
		if (cp->confirmed) {
			confirmed = cp;
			break;
		}
		if (!newer)
			newer = cp;
	}
	pdb_buf_puts(b, "<td class=\"cp\">");
	if (confirmed)
		pdb_detect_change_text(confirmed, ss->s->unit, ch, sizeof ch);
	if (newer)
		pdb_detect_change_text(newer, ss->s->unit, nch, sizeof nch);
	if (!confirmed && !newer)
		pdb_buf_puts(b, "none");
	if (confirmed) {
		pdb_buf_printf(b, "<span class=\"badge %s\">%s</span> %s at ", pdb_detect_verdict(confirmed),
			       pdb_detect_verdict(confirmed), ch);
		site_run_link(b, s, ss->pts[confirmed->index].run_id, depth);
		pdb_buf_printf(b, ", %zu runs ago", ss->n - confirmed->index);
	}
	if (newer) {
		pdb_buf_printf(b, "%s<span class=\"badge tentative\">%s, %s</span> %s at ",
			       confirmed ? "<br>" : "", pdb_detect_verdict(newer),
			       pdb_detect_standing(newer), nch);
		site_run_link(b, s, ss->pts[newer->index].run_id, depth);
	}
	pdb_buf_puts(b, "</td>");
}

/* After a since that the site's first run bounds: " or before (the site starts at runN)". */
static void since_open(struct pdb_buf *b, const struct site *s, int depth)
{
	pdb_buf_puts(b, " or before (the site starts at ");
	site_run_link(b, s, s->runs[0].row->id, depth);
	pdb_buf_puts(b, ")");
}

void site_failed_since(struct pdb_buf *b, const struct site *s, const struct site_failure *f,
		       int depth)
{
	pdb_buf_puts(b, "<span class=\"badge failed\">failed</span> in ");
	site_run_link(b, s, f->row->run_id, depth);
	if (f->since && f->since != f->row->run_id) {
		pdb_buf_puts(b, ", since ");
		site_run_link(b, s, f->since, depth);
	}
	if (f->since_open)
		since_open(b, s, depth);
}

void site_series_table(struct pdb_buf *b, const struct site *s, const size_t *series,
		       size_t n, int depth, int with_bench)
{
	pdb_buf_puts(b, "<table class=\"series\">\n<thead><tr><th>series</th>"
		     "<th>recent history</th><th>direction</th><th class=\"num\">latest</th>"
		     "<th class=\"num\">vs the value before</th><th>last change point</th></tr></thead>\n"
		     "<tbody>\n");
	for (size_t i = 0; i < n; i++) {
		const struct site_series *ss = &s->series[series[i]];
		const struct site_bench *bench = &s->benches[ss->bench];

		pdb_buf_printf(b, "<tr class=\"a%d\" data-name=\"", ss->attention);
		site_text(b, ss->s->benchmark);
		pdb_buf_puts(b, " ");
		site_text(b, ss->dims);
		pdb_buf_puts(b, " ");
		site_text(b, ss->s->metric);
		pdb_buf_puts(b, "\"><td class=\"name\">");
		if (with_bench) {
			pdb_buf_printf(b, "<a href=\"%s%s\">", depth ? "../" : "", bench->file);
			site_text(b, ss->s->benchmark);
			pdb_buf_puts(b, "</a> ");
		}
		site_text(b, ss->s->metric);
		if (*ss->dims) {
			pdb_buf_puts(b, " <span class=\"dims\">");
			site_text(b, ss->dims);
			pdb_buf_puts(b, "</span>");
		}
		pdb_buf_puts(b, "</td><td>");
		site_sparkline(b, ss);
		pdb_buf_printf(b, "</td><td class=\"dir\">%s</td><td class=\"num\">", direction_words(ss->s->direction));
		if (ss->failing) {
			/* no value in the newest run: what failed, since when */
			site_failed_since(b, s, ss->failing, depth);
			pdb_buf_puts(b, "</td><td class=\"num\">-</td>");
		} else {
			site_value(b, ss->pts[ss->n - 1].value, ss->s->unit);
			pdb_buf_puts(b, "</td>");
			site_change_cell(b, ss->n >= 2 ? ss->pts[ss->n - 2].value : NAN,
					 ss->pts[ss->n - 1].value, ss->s->direction);
		}
		change_point_cell(b, s, ss, depth);
		pdb_buf_puts(b, "</tr>\n");
	}
	pdb_buf_puts(b, "</tbody>\n</table>\n");
}

void site_failure_table(struct pdb_buf *b, const struct site *s,
			const struct site_failure *const *failures, size_t n, int depth,
			int with_bench, int with_run)
{
	int with_since = 0;

	for (size_t i = 0; i < n; i++)
		with_since |= failures[i]->since != 0;
	with_run = with_run ? 1 + s->branches_mixed : 0; /* 2: and its branch */
	pdb_buf_printf(b, "<table class=\"failures\">\n<thead><tr>%s%s%s<th>dims</th><th>reason</th>"
		       "%s</tr></thead>\n<tbody>\n", with_run == 2 ? "<th>branch</th>" : "",
		       with_run ? "<th>run</th>" : "", with_bench ? "<th>benchmark</th>" : "",
		       with_since ? "<th>failing since</th>" : "");
	for (size_t i = 0; i < n; i++) {
		const struct site_failure *f = failures[i];

		pdb_buf_puts(b, "<tr>");
		if (with_run == 2) {
			const char *branch = pdb_run_row_attr(site_find_run(s, f->row->run_id)->row,
							   "branch");
			pdb_buf_puts(b, "<td>");
			site_text(b, branch ? branch : "-");
			pdb_buf_puts(b, "</td>");
		}
		if (with_run) {
			pdb_buf_puts(b, "<td>");
			site_run_link(b, s, f->row->run_id, depth);
			pdb_buf_puts(b, "</td>");
		}
		if (with_bench) {
			pdb_buf_puts(b, "<td class=\"name\">");
			if (f->bench)
				pdb_buf_printf(b, "<a href=\"%s%s\">", depth ? "../" : "", f->bench->file);
			site_text(b, f->row->benchmark);
			pdb_buf_puts(b, f->bench ? "</a></td>" : "</td>");
		}
		pdb_buf_puts(b, "<td class=\"dims\">");
		site_text(b, *f->dims ? f->dims : "-");
		pdb_buf_puts(b, "</td><td class=\"name\">");
		site_text(b, f->row->reason);
		pdb_buf_puts(b, "</td>");
		if (with_since) {
			pdb_buf_puts(b, "<td>");
			if (f->since)
				site_run_link(b, s, f->since, depth);
			else
				pdb_buf_puts(b, "-");
			if (f->since_open)
				since_open(b, s, depth);
			pdb_buf_puts(b, "</td>");
		}
		pdb_buf_puts(b, "</tr>\n");
	}
	pdb_buf_puts(b, "</tbody>\n</table>\n");
}
