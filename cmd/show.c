/* perfdb show: one run, its attributes and every series. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "json_out.h"
#include "cmd.h"
#include "dim_filter.h"
#include "escape.h"
#include "sampled.h"
#include "util.h"

static int show_main(int argc, char **argv, struct cmd_ctx *ctx);

static const char *const formats[] = { "text", "json", NULL };

static const struct cmd_option options[] = {
	{ "format", 'F', "FMT", "text or json, the canonical form of the run",
	  .choices = formats, .def = "text" },
	{ "dim", 'd', "K=V", CMD_DIM_HELP },
	{ 0 },
};

const struct command cmd_show = {
	.name = "show", .run = show_main,
	.summary = "show a run: every series, then its attributes",
	.synopsis = "[--format text|json] [--dim K=V] RUN",
	.options = options,
	.text = "RUN: run42, 42, a name, latest, latest~N, latest:KEY=VALUE\n",
	.operand = CMD_OPERAND_RUN,
};

/* A table's cell: four significant digits always, so a row reads alike
 * ("3.610 s" beside "4.565 s", not "3.61 s"); whole counts stay whole. */
static void value_cell(double v, const char *unit, char *out, size_t size)
{
	if (isnan(v))
		snprintf(out, size, "-");
	else
		pdb_unit_format_fixed(v, unit, out, size);
}

/* The columns median, mean, min and max of a row and the tool's statistics
 * of those names (median or p50 for the median). */
static const char *const column_stats[][2] = {
	{ "median", "p50" }, { "mean", NULL }, { "min", NULL }, { "max", NULL },
};
#define NCOLUMNS (sizeof column_stats / sizeof column_stats[0])

/* The column a statistic's name is, or NCOLUMNS. */
static size_t stat_column(const char *name)
{
	size_t c = 0;

	while (c < NCOLUMNS && strcmp(column_stats[c][0], name) != 0 &&
	       !(column_stats[c][1] && strcmp(column_stats[c][1], name) == 0))
		c++;
	return c;
}

/* A row's cells median, mean, min and max: its samples', else (no sample:
 * a tool's aggregates only, as a Knox timer's duration) the tool's
 * statistics of those names, which its stats then do not repeat. */
static void column_cells(const struct pdb_result *r, const struct pdb_summary *s,
			 char cells[NCOLUMNS][48])
{
	const double from_samples[NCOLUMNS] = { s->median, s->mean, s->min, s->max };

	for (size_t c = 0; c < NCOLUMNS; c++) {
		double v = from_samples[c];
		if (s->n == 0 && pdb_result_get_stat(r, column_stats[c][0], &v) != 0 &&
		    !(column_stats[c][1] && pdb_result_get_stat(r, column_stats[c][1], &v) == 0))
			v = NAN;
		value_cell(v, r->unit, cells[c], sizeof cells[c]);
	}
}

/* The stats cell: each statistic, but one that a column says already (the
 * same name, the same number) once; one of a column's name with another
 * number (a meter's own mean rate beside its samples' mean) was reported
 * with the run, not computed from its samples, and says so. */
static void stats_cell(const struct pdb_result *r, char cells[NCOLUMNS][48], struct pdb_buf *out)
{
	int first = 1;

	pdb_buf_puts(out, "");
	for (size_t k = 0; k < r->nstats; k++) {
		size_t c = stat_column(r->stats[k].name);
		char v[48];
		value_cell(r->stats[k].value, pdb_stat_has_unit(r->stats[k].name) ? r->unit : "count",
			   v, sizeof v);
		if (c < NCOLUMNS && strcmp(v, cells[c]) == 0)
			continue;
		pdb_buf_printf(out, "%s%s%s=%s", first ? "" : " ", c < NCOLUMNS ? "reported " : "",
			       r->stats[k].name, v);
		first = 0;
	}
}

/* The headline of a Kafka benchmark (one with produce_rate): input rate
 * against output rate, the groups' lag and the e2e percentiles. */
static const char *const headline[] = { "produce_rate", "consume_rate", "consumer_lag", "e2e_latency" };
#define NHEADLINE (sizeof headline / sizeof headline[0])

struct row_order {
	size_t anchor, rank, index;
};

static int by_order(const void *a, const void *b)
{
	const struct row_order *x = a, *y = b;

	if (x->anchor != y->anchor)
		return x->anchor < y->anchor ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* Row order: a Kafka benchmark's headline metrics move up to its first
 * row, in headline order; everything else keeps its place. Caller frees. */
static struct row_order *row_order(const struct pdb_run *run)
{
	struct row_order *o = pdb_xcalloc(run->nresults + 1, sizeof *o);

	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		size_t first = i, k;
		int kafka = 0;
		o[i] = (struct row_order){ .anchor = i, .rank = NHEADLINE, .index = i };
		for (k = 0; k < NHEADLINE && strcmp(r->metric, headline[k]); k++)
			;
		if (k == NHEADLINE)
			continue;
		for (size_t j = 0; j < run->nresults; j++)
			if (strcmp(run->results[j].benchmark, r->benchmark) == 0) {
				first = j < first ? j : first;
				kafka |= strcmp(run->results[j].metric, "produce_rate") == 0;
			}
		if (kafka)
			o[i] = (struct row_order){ .anchor = first, .rank = k, .index = i };
	}
	qsort(o, run->nresults, sizeof *o, by_order);
	return o;
}

/* The attributes after the results: a tool may write dozens (fio, Knox). */
static void print_attrs(const struct pdb_run *run)
{
	struct pdb_buf b;

	if (!run->nattrs)
		return;
	pdb_buf_init(&b);
	pdb_buf_puts(&b, "\nattributes\n");
	for (size_t i = 0; i < run->nattrs; i++) {
		size_t len = b.len;
		pdb_escape_term(&b, run->attrs[i].key);
		pdb_buf_printf(&b, "%*s ", (int)(b.len - len < 8 ? 8 - (b.len - len) : 0), "");
		pdb_escape_term(&b, run->attrs[i].value);
		pdb_buf_puts(&b, "\n");
	}
	fputs(b.data, stdout);
	pdb_buf_release(&b);
}

/* With sampled processes (sample: of a run spec): the one with the
 * highest mean CPU, its benchmark and the point's other dims. */
static void print_busiest(const struct pdb_run *run)
{
	const struct pdb_result *r = pdb_sampled_busiest(run);
	struct pdb_attr dims[64];
	struct pdb_summary s;
	char cpu[48], *point, *line, *safe;
	size_t n = 0;

	if (!r)
		return;
	pdb_result_summary(r, &s);
	pdb_unit_format(s.mean, r->unit, cpu, sizeof cpu);
	for (size_t i = 0; i < r->ndims && n < 64; i++)
		if (strcmp(r->dims[i].key, "process") != 0)
			dims[n++] = r->dims[i];
	point = pdb_dims_display(dims, n);
	line = pdb_xasprintf("%s: mean CPU %s (%s%s%s%s)", pdb_result_get_dim(r, "process"), cpu, r->benchmark,
			     *point ? " [" : "", point, *point ? "]" : "");
	safe = cmd_escape_controls(line);
	printf("busiest  %s\n\n", safe);
	free(safe);
	free(line);
	free(point);
}

/* Which results and failures --dim keeps: keep[i] for results[i], then
 * keep[nresults + k] for failures[k]; -1 with err when a K is no dim of the run. */
static int kept(const struct pdb_run *run, struct pdb_dim_filter *dims, unsigned char *keep,
		struct pdb_err *err)
{
	for (size_t i = 0; i < run->nresults; i++)
		keep[i] = (unsigned char)pdb_dim_filter_pass(dims, run->results[i].dims,
							     run->results[i].ndims);
	for (size_t k = 0; k < run->nfailures; k++)
		keep[run->nresults + k] = (unsigned char)pdb_dim_filter_pass(
			dims, run->failures[k].dims, run->failures[k].ndims);
	return pdb_dim_filter_check(dims, err);
}

/* The canonical form of the run with only what --dim keeps. */
static json_t *canonical_kept(const struct pdb_run *run, const unsigned char *keep)
{
	json_t *doc = pdb_canonical_from_run(run);
	json_t *results = json_object_get(doc, "results"), *failures = json_object_get(doc, "failures");

	for (size_t i = run->nresults; i-- > 0;)
		if (!keep[i])
			json_array_remove(results, i);
	for (size_t k = run->nfailures; k-- > 0;)
		if (!keep[run->nresults + k])
			json_array_remove(failures, k);
	return doc;
}

static void print_text(const struct pdb_run *run, const unsigned char *keep)
{
	struct row_order *order = row_order(run);
	struct cmd_table t;
	static const char *header[] = { "benchmark", "dims", "metric", "n", "median",
					"mean", "min", "max", "stats" };

	struct pdb_buf head;

	/* the header quotes the run's file too: every string through pdb_escape_term */
	pdb_buf_init(&head);
	pdb_buf_printf(&head, "run%lld", (long long)run->id);
	if (run->name) {
		pdb_buf_puts(&head, " (");
		pdb_escape_term(&head, run->name);
		pdb_buf_puts(&head, ")");
	}
	pdb_buf_puts(&head, "  ");
	pdb_escape_term(&head, run->created_at);
	pdb_buf_puts(&head, "  ");
	pdb_escape_term(&head, run->tool ? run->tool : "-");
	pdb_buf_puts(&head, "  ");
	pdb_escape_term(&head, run->format ? run->format : "-");
	pdb_buf_printf(&head, "  %s\nuuid     ", run->status);
	pdb_escape_term(&head, run->uuid);
	pdb_buf_puts(&head, "\nsource   ");
	pdb_escape_term(&head, run->source ? run->source : "-");
	pdb_buf_puts(&head, "\n");
	fputs(head.data, stdout);
	pdb_buf_release(&head);
	putchar('\n');
	for (size_t i = 0; i < run->nfailures; i++) {
		const struct pdb_failure *f = &run->failures[i];
		if (!keep[run->nresults + i])
			continue;
		char *dims = pdb_dims_display(f->dims, f->ndims);
		char *line = pdb_xasprintf("%s%s%s%s: %s", f->benchmark, *dims ? " [" : "", dims,
					   *dims ? "]" : "", f->reason);
		char *safe = cmd_escape_controls(line);
		printf("FAILED   %s\n", safe);
		free(safe);
		free(line);
		free(dims);
	}
	if (run->nfailures)
		putchar('\n');
	print_busiest(run);
	cmd_table_init(&t, 9, "lllrrrrrl");
	cmd_table_add(&t, header);
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[order[i].index];
		struct pdb_summary s;
		struct pdb_buf stats;
		char n[32], cells[NCOLUMNS][48], *dims, metric[256];
		const char *row[9];

		if (!keep[order[i].index])
			continue;
		pdb_result_summary(r, &s);
		if (s.n == 0 && r->nstats > 0) /* the columns are the tool's: no sample counted */
			snprintf(n, sizeof n, "-");
		else
			snprintf(n, sizeof n, "%zu", s.n);
		column_cells(r, &s, cells);
		snprintf(metric, sizeof metric, "%s (%s)", r->metric, r->unit);
		pdb_buf_init(&stats);
		stats_cell(r, cells, &stats);
		dims = pdb_dims_display(r->dims, r->ndims);
		row[0] = r->benchmark; row[1] = dims; row[2] = metric; row[3] = n;
		row[4] = cells[0]; row[5] = cells[1]; row[6] = cells[2]; row[7] = cells[3];
		row[8] = stats.data;
		cmd_table_add(&t, row);
		free(dims);
		pdb_buf_release(&stats);
	}
	cmd_table_print(&t, stdout);
	cmd_table_release(&t);
	free(order);
	print_attrs(run);
}

static int show_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct pdb_store *store = NULL;
	struct pdb_run *run = NULL;
	struct pdb_dim_filter dims = { 0 };
	unsigned char *keep = NULL;
	struct pdb_err err;
	int c, format = cmd_default_choice(&cmd_show, "format"), status = PDB_EXIT_OK;
	int64_t id;

	while ((c = cmd_next_option(argc, argv, &cmd_show)) != -1) {
		if (c == 'F') {
			format = cmd_arg.choice;
		} else if (c == 'd') {
			if ((status = cmd_add_dim(&cmd_show, &dims, optarg)) >= 0)
				goto out;
			status = PDB_EXIT_OK;
		} else if ((status = cmd_common_option(&cmd_show, ctx, c)) >= 0) {
			goto out;
		} else {
			status = PDB_EXIT_OK;
		}
	}
	if (optind + 1 != argc) {
		status = cmd_usage_error(&cmd_show, "expected one RUN");
		goto out;
	}
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    pdb_store_resolve(store, argv[optind], &id, &err) < 0 ||
	    !(run = pdb_store_load_run(store, id, &err)) ||
	    kept(run, &dims, keep = pdb_xcalloc(run->nresults + run->nfailures + 1, 1), &err) < 0) {
		status = cmd_fail("show", &err);
		goto out;
	}
	if (format == 1) {
		json_t *doc = canonical_kept(run, keep);
		pdb_json_write(stdout, doc, 2);
		putchar('\n');
		json_decref(doc);
	} else {
		print_text(run, keep);
	}
out:
	free(keep);
	pdb_dim_filter_release(&dims);
	pdb_run_free(run);
	pdb_store_close(store);
	return status;
}
