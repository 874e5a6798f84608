/* Tables by matrix point (lib/table_points.c): a benchmark page's, of its
 * newest run, and a run page's, of each of its benchmarks; a row per point
 * and a column per metric, made from the points the site has read (no
 * store access: pages are drawn on several threads). */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "site/site_internal.h"
#include "table.h"

/* The newest run's values of the benchmark's series, as a run of results
 * with only their values (the tool's median, which lib/table.c takes). */
static struct pdb_run *newest_values(const struct site *s, const struct site_bench *bench,
				     int64_t run_id)
{
	const struct site_run *run = site_find_run(s, run_id);
	struct pdb_run *r = pdb_run_new();

	for (size_t i = 0; run && i < bench->n; i++) {
		const struct site_series *ss = &s->series[bench->series[i]];
		const struct pdb_history_point *p = site_point_at(ss, run);
		json_t *dims = json_loads(ss->s->dims, 0, NULL);
		struct pdb_attr *kv = NULL;
		size_t n = 0;
		const char *key;
		json_t *value;
		struct pdb_result *res;

		if (!p || !json_is_object(dims)) {
			json_decref(dims);
			continue;
		}
		kv = pdb_xcalloc(json_object_size(dims) + 1, sizeof *kv);
		json_object_foreach(dims, key, value)
			if (json_is_string(value))
				kv[n++] = (struct pdb_attr){ (char *)key, (char *)json_string_value(value) };
		res = pdb_run_series(r, ss->s->benchmark, kv, n, ss->s->metric, ss->s->unit,
				     ss->s->direction);
		pdb_result_set_stat(res, "median", p->value);
		free(kv);
		json_decref(dims);
	}
	return r;
}

/* ", by rate and stage": the dims of a table, after its benchmark's name. */
static void dims_heading(struct pdb_buf *b, const struct pdb_table *t)
{
	for (size_t d = 0; d < t->ndims; d++) {
		pdb_buf_puts(b, d == 0 ? ", by " : d + 1 == t->ndims ? " and " : ", ");
		site_text(b, t->dims[d]);
	}
}

int site_bench_points(struct pdb_buf *b, const struct site *s, const struct site_bench *bench,
		      int64_t run_id, int depth)
{
	struct pdb_run *run = newest_values(s, bench, run_id);
	struct pdb_table *t = NULL;
	size_t n = 0;
	struct pdb_err err;
	int shown = 0;

	pdb_err_clear(&err);
	if (run->nresults &&
	    pdb_table_by_point(run, bench->name, PDB_CELLS_VALUE, 2, &t, &n, &err) == 0 && n) {
		pdb_buf_puts(b, "<h2>By matrix point</h2>\n<p class=\"sub\">The values of ");
		site_run_link(b, s, run_id, depth);
		pdb_buf_printf(b, ", its newest run: a row per point, a column per metric%s.</p>\n",
			       n > 1 ? ", a table per set of dims its series have" : "");
		for (size_t k = 0; k < n; k++) {
			if (n > 1) { /* which of its tables: "pipeline, by rate and stage" */
				pdb_buf_puts(b, "<h3>");
				site_text(b, t[k].benchmark);
				dims_heading(b, &t[k]);
				pdb_buf_puts(b, "</h3>\n");
			}
			pdb_table_render(&t[k], PDB_TABLE_HTML, b);
		}
		shown = 1;
	}
	pdb_tables_release(t, n);
	pdb_run_free(run);
	return shown;
}

/* The "By matrix point" section of a run page: a heading and the tables
 * of each benchmark of the run, in the order of its values (grouped by
 * benchmark); a benchmark whose tables cannot be made says why. */
void site_run_points(struct pdb_buf *b, const struct site *s, const struct site_run *run,
		     const size_t *order)
{
	size_t last = SIZE_MAX;
	int any = 0;

	for (size_t i = 0; i < run->nvalues; i++) {
		size_t bench = s->series[run->values[order[i]].series].bench;
		struct pdb_run *values;
		struct pdb_table *t = NULL;
		size_t n = 0;
		struct pdb_err err;

		if (bench == last)
			continue;
		last = bench;
		values = newest_values(s, &s->benches[bench], run->row->id);
		pdb_err_clear(&err);
		if (pdb_table_by_point(values, s->benches[bench].name, PDB_CELLS_VALUE, 2, &t, &n,
				       &err) < 0) {
			pdb_buf_puts(b, any++ ? "" : "<h2>By matrix point</h2>\n");
			pdb_buf_puts(b, "<p class=\"note\">");
			site_text(b, s->benches[bench].name);
			pdb_buf_puts(b, ": no table by point: ");
			site_text(b, err.msg);
			pdb_buf_puts(b, "</p>\n");
		}
		for (size_t k = 0; k < n; k++) {
			if (!any++)
				pdb_buf_puts(b, "<h2>By matrix point</h2>\n<p class=\"note\">A table per "
					     "benchmark and set of dims of its series (a stream's sender, "
					     "its stages, the processes sampled) with two points or more: "
					     "a row per point, a column per metric, each value the median "
					     "of the run's samples.</p>\n");
			pdb_buf_printf(b, "<h3><a href=\"../%s\">", s->benches[bench].file);
			site_text(b, t[k].benchmark);
			pdb_buf_puts(b, "</a>");
			dims_heading(b, &t[k]);
			pdb_buf_puts(b, "</h3>\n");
			pdb_table_render(&t[k], PDB_TABLE_HTML, b);
		}
		pdb_tables_release(t, n);
		pdb_run_free(values);
	}
}
