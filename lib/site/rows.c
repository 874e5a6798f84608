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

static const char *cp_verdict(const struct pdb_change_point *cp)
{
	return cp->regression ? "regression" : cp->improvement ? "improvement" : "change";
}

void site_change_cell(struct pdb_buf *b, double before, double after, int direction)
{
	double pct = (after / before - 1) * 100;
	const char *word;

	if (!isfinite(before) || before == 0 || !isfinite(pct)) {
		pdb_buf_puts(b, "<td class=\"num\">-</td>");
		return;
	}
	word = fabs(pct) < 0.05 || direction == PDB_DIR_NONE ? "" :
	       (pct > 0) == (direction == PDB_DIR_LOWER) ? "worse" : "better";
	pdb_buf_printf(b, "<td class=\"num%s%s\">%+.1f%%%s%s</td>", *word ? " " : "", word, pct,
		       *word ? " " : "", word);
}

/* The newest confirmed change point, and a newer unconfirmed one. */
static void change_point_cell(struct pdb_buf *b, const struct site *s,
			      const struct site_series *ss, int depth)
{
	const struct pdb_change_point *confirmed = NULL, *newer = NULL;

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
	if (!confirmed && !newer)
		pdb_buf_puts(b, "none");
	if (confirmed) {
		pdb_buf_printf(b, "<span class=\"badge %s\">%s</span> %+.1f%% at ", cp_verdict(confirmed),
			       cp_verdict(confirmed), confirmed->change_pct);
		site_run_link(b, s, ss->pts[confirmed->index].run_id, depth);
		pdb_buf_printf(b, ", %zu runs ago", ss->n - confirmed->index);
	}
	if (newer) {
		pdb_buf_printf(b, "%s<span class=\"badge tentative\">%s, %s</span> %+.1f%% at ",
			       confirmed ? "<br>" : "", cp_verdict(newer),
			       newer->tentative ? "tentative" : "unconfirmed", newer->change_pct);
		site_run_link(b, s, ss->pts[newer->index].run_id, depth);
	}
	pdb_buf_puts(b, "</td>");
}

void site_series_table(struct pdb_buf *b, const struct site *s, const size_t *series,
		       size_t n, int depth, int with_bench)
{
	pdb_buf_puts(b, "<table class=\"series\">\n<thead><tr><th>series</th>"
		     "<th>recent history</th><th>direction</th><th class=\"num\">latest</th>"
		     "<th class=\"num\">vs previous run</th><th>last change point</th></tr></thead>\n"
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
		site_value(b, ss->pts[ss->n - 1].value, ss->s->unit);
		pdb_buf_puts(b, "</td>");
		site_change_cell(b, ss->n >= 2 ? ss->pts[ss->n - 2].value : NAN,
				 ss->pts[ss->n - 1].value, ss->s->direction);
		change_point_cell(b, s, ss, depth);
		pdb_buf_puts(b, "</tr>\n");
	}
	pdb_buf_puts(b, "</tbody>\n</table>\n");
}
