/* perfdb table: a run's series as a table, a row per matrix point and a
 * column per metric and statistic (lib/table.c computes it); several runs
 * whose series differ by a dim are read as one. */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dim_filter.h"
#include "json_out.h"
#include "table.h"
#include "util.h"

static int table_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_ROWS = CMD_LONG_ONLY, OPT_COLS, OPT_UNIT };

static const char *const formats[] = { "text", "markdown", "csv", "json", "html", NULL };

static const struct cmd_option options[] = {
	{ "rows", OPT_ROWS, "DIM[,DIM]", "a row per value of DIM (numbers in numeric order)" },
	{ "cols", OPT_COLS, "COL,...", "the columns: [LABEL=]METRIC[:STAT], or speedup (the\n"
				      "column before it against the first row, as 1.22x)" },
	{ "unit", OPT_UNIT, "COL=UNIT", "show column COL (a LABEL or METRIC) in UNIT, such as\n"
				       "throughput=GB/h (repeatable)" },
	{ "bench", 'b', "GLOB", "the benchmark, when several have the dims and metrics" },
	{ "dim", 'd', "K=V", CMD_DIM_HELP },
	{ "format", 'F', "FMT", "text, markdown, csv, json or html",
	  .choices = formats, .def = "text" },
	{ 0 },
};

const struct command cmd_table = {
	.name = "table", .run = table_main,
	.summary = "a run's series as a table: a row per matrix point, a column per metric",
	.synopsis = "RUN... --rows DIM --cols METRIC[:STAT],... [OPTIONS]",
	.options = options,
	.text = "RUN: run42, 42, a name, latest, latest~N, latest:KEY=VALUE; several RUNs\n"
		"are one table when no series is in two of them (runs ingested apart with\n"
		"--dim threads=1, threads=4: --rows threads).\n"
		"STAT: mean, median, min, max, stddev, stddev_pop, count, pN (p99, p99.9),\n"
		"computed over the series' samples (a histogram's and a result's without\n"
		"samples: the tool's own); none: the series' value as compare takes it.\n"
		"Text, Markdown and HTML give one unit and precision a column; CSV and JSON\n"
		"every digit, in the series' unit or --unit's.\n",
	.operand = CMD_OPERAND_RUN,
};

struct table_opts {
	struct pdb_table_spec spec;
	struct pdb_table_unit *units;
	struct pdb_dim_filter dims;
	char **owned;
	size_t nowned;
	int format;
};

static char *keep(struct table_opts *o, char *s)
{
	o->owned = pdb_xrealloc(o->owned, (o->nowned + 1) * sizeof *o->owned);
	return o->owned[o->nowned++] = s;
}

/* K=V of --unit into two strings kept until the end; -1 when not K=V. */
static int pair(struct table_opts *o, const char *text, const char **k, const char **v)
{
	char *key, *value;

	if (cmd_split_kv(text, &key, &value) < 0)
		return -1;
	*k = keep(o, key);
	*v = keep(o, value);
	if (!*value)
		return -1;
	return 0;
}

static int parse(int argc, char **argv, struct table_opts *o, struct cmd_ctx *ctx)
{
	int c, status;

	o->format = cmd_default_choice(&cmd_table, "format");
	while ((c = cmd_next_option(argc, argv, &cmd_table)) != -1) {
		switch (c) {
		case OPT_ROWS: o->spec.rows = optarg; break;
		case OPT_COLS: o->spec.cols = optarg; break;
		case 'b': o->spec.benchmark = optarg; break;
		case OPT_UNIT:
			o->units = pdb_xrealloc(o->units, (o->spec.nunits + 1) * sizeof *o->units);
			if (pair(o, optarg, &o->units[o->spec.nunits].name, &o->units[o->spec.nunits].unit) < 0)
				return cmd_usage_error(&cmd_table, "--unit '%s': expected COL=UNIT", optarg);
			o->spec.nunits++;
			break;
		case 'd':
			if ((status = cmd_add_dim(&cmd_table, &o->dims, optarg)) >= 0)
				return status;
			break;
		case 'F': o->format = cmd_arg.choice; break;
		default:
			if ((status = cmd_common_option(&cmd_table, ctx, c)) >= 0)
				return status;
		}
	}
	o->spec.units = o->units;
	o->spec.dims = &o->dims;
	if (optind >= argc)
		return cmd_usage_error(&cmd_table, "expected a RUN");
	if (!o->spec.rows)
		return cmd_usage_error(&cmd_table, "--rows DIM is needed");
	if (!o->spec.cols)
		return cmd_usage_error(&cmd_table, "--cols METRIC[:STAT],... is needed");
	return -1;
}

static const int format_of[] = { PDB_TABLE_TEXT, PDB_TABLE_MARKDOWN, PDB_TABLE_CSV,
				  PDB_TABLE_JSON, PDB_TABLE_HTML };

static int table_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct table_opts o = { 0 };
	struct pdb_store *store = NULL;
	struct pdb_run *run = NULL, *more = NULL;
	struct pdb_table t = { 0 };
	struct pdb_err err;
	int64_t id;
	int status;

	if ((status = parse(argc, argv, &o, ctx)) >= 0)
		goto out;
	status = PDB_EXIT_OK;
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    pdb_store_resolve(store, argv[optind], &id, &err) < 0 ||
	    !(run = pdb_store_load_run(store, id, &err))) {
		status = cmd_fail("table", &err);
		goto out;
	}
	for (int i = optind + 1; i < argc; i++) {
		if (pdb_store_resolve(store, argv[i], &id, &err) < 0 ||
		    !(more = pdb_store_load_run(store, id, &err)) ||
		    pdb_table_merge_run(run, more, &err) < 0) {
			status = err.code == PDB_EXIT_USAGE
				? cmd_usage_error(&cmd_table, "%s", err.msg) : cmd_fail("table", &err);
			goto out;
		}
		pdb_run_free(more);
		more = NULL;
	}
	if (pdb_table_build(run, &o.spec, &t, &err) < 0) {
		status = err.code == PDB_EXIT_USAGE
			? cmd_usage_error(&cmd_table, "%s", err.msg) : cmd_fail("table", &err);
		goto out;
	}
	if (format_of[o.format] == PDB_TABLE_JSON) {
		json_t *doc = pdb_table_json(&t);
		pdb_json_write(stdout, doc, 2);
		putchar('\n');
		json_decref(doc);
	} else {
		struct pdb_buf b;
		pdb_buf_init(&b);
		pdb_table_render(&t, format_of[o.format], &b);
		fwrite(b.data, 1, b.len, stdout);
		pdb_buf_release(&b);
	}
out:
	pdb_table_release(&t);
	pdb_run_free(more);
	pdb_run_free(run);
	pdb_store_close(store);
	for (size_t i = 0; i < o.nowned; i++)
		free(o.owned[i]);
	free(o.owned);
	free(o.units);
	pdb_dim_filter_release(&o.dims);
	return status;
}
