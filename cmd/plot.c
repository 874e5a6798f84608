/* perfdb plot: scaling, latency, history and compare charts as PNG, SVG or PDF. */
#include <jansson.h>
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "chart/kinds.h"
#include "chart/layout.h"
#include "chart/render.h"
#include "branches.h"
#include "cmd.h"
#include "compare.h"
#include "compare_render.h"
#include "gather/compare_gather.h"
#include "dim_filter.h"
#include "json_out.h"
#include "util.h"

static int plot_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_THEME = CMD_LONG_ONLY, OPT_LAYOUT, OPT_LAST, OPT_CAND_LAST, OPT_TITLE };

static const char *const kinds[] = { "scaling", "latency", "history", "compare", NULL };
static const char *const formats[] = { "text", "json", NULL };
static const char *const themes[] = { "light", "dark", NULL };

static const struct cmd_option options[] = {
	{ "output", 'o', "FILE", "the image: .png, .svg or .pdf", NULL },
	{ "bench", 'b', "GLOB", "only benchmarks matching GLOB", NULL },
	{ "metric", 'm', "GLOB", "only metrics matching GLOB", NULL },
	{ "dim", 'd', "K=V", CMD_DIM_HELP, NULL },
	{ "title", OPT_TITLE, "TEXT", "the chart's title", NULL },
	{ "where", 'w', "K=V[,K=V]", "history: only runs with these attributes\n"
				     "(--where branch=main: one branch's history)", NULL },
	{ "width", 'W', "PX", "width in pixels (default 1200)", NULL },
	{ "height", 'H', "PX", "height in pixels (default 700)", NULL },
	{ "theme", OPT_THEME, "NAME", "light (default) or dark", themes },
	{ "layout", OPT_LAYOUT, NULL, "print the computed layout (axes, ticks, legend) as text", NULL },
	{ "config", 'c', "FILE", "compare: thresholds, directions, ignores (default\n"
				 "./perfdb.yaml), as perfdb compare reads them", NULL },
	{ "threshold", 't', "PCT", "compare: fail level in % (as perfdb compare -t)", NULL },
	{ "last", OPT_LAST, "N", "compare: BASE is the last N runs matching its selector", NULL },
	{ "cand-last", OPT_CAND_LAST, "N", "compare: CAND is the last N runs matching its selector", NULL },
	{ "format", 'F', "FMT", "scaling without -o: print the table as text or json", formats },
	{ 0 },
};

const struct command cmd_plot = {
	.name = "plot", .run = plot_main,
	.summary = "draw scaling, latency, history and compare charts (PNG, SVG, PDF)",
	.synopsis = "KIND [RUNS...] -o FILE [OPTIONS]",
	.options = options,
	.text = "KIND:\n"
		"  scaling RUN...        throughput against vCPUs (vcpus dimension or attribute),\n"
		"                        ideal line, per vCPU, efficiency, USL fit with >= 4 counts\n"
		"  latency RUN...        percentile spectrum (nines axis), latency over time\n"
		"  history [FROM [TO]]   a series across runs with its band and change points\n"
		"  compare BASE CAND     change % per series with its interval, by verdict\n"
		"RUN: run42, 42, a name, latest, latest~N, latest:KEY=VALUE; BASE and CAND may\n"
		"be comma-separated lists of runs. Every series selected is drawn, or named on\n"
		"stderr with the reason it was left out. compare draws the comparison perfdb\n"
		"compare makes, every verdict a row; exit 3 when there is nothing to compare.\n",
	.operand = CMD_OPERAND_RUN,
	.kinds = kinds,
};

#define COMPARE_MAX_ROWS 40

struct plot_opts {
	struct pdb_plot_opts chart;
	const char *config;   /* compare: --config, NULL: ./perfdb.yaml when it exists */
	double threshold_pct; /* compare: --threshold, NaN: none */
	const char *output;
	struct pdb_buf where; /* --where's parts, which chart.where points to */
	struct pdb_dim_filter dims; /* --dim's, which chart.dims points to */
	int layout, format; /* format: -1 none, 0 text, 1 json */
};

/* A table's cell: four significant digits always, so a row reads alike
 * ("3.610 s" beside "4.565 s", not "3.61 s"); whole counts stay whole. */
static void cell(char *out, size_t size, double v, const char *unit)
{
	if (isnan(v))
		snprintf(out, size, "-");
	else
		pdb_unit_format_fixed(v, unit, out, size);
}

static void scaling_text(const struct pdb_scaling *s)
{
	static const char *header[] = { "vCPUs", "throughput", "per vCPU", "speed-up",
					"efficiency", "added per vCPU" };

	printf("%s (%s: %s)%s%s\n", s->benchmark, s->metric, s->why, *s->held ? ", held fixed: " : "",
	       s->held);
	for (size_t l = 0; l < s->nlines; l++) {
		const struct pdb_scaling_line *ln = &s->lines[l];
		struct cmd_table t;
		if (*ln->label)
			printf("%s%s\n", l ? "\n" : "", ln->label);
		cmd_table_init(&t, 6, "rrrrrr");
		cmd_table_add(&t, header);
		for (size_t i = 0; i < ln->n; i++) {
			const struct pdb_scaling_row *r = &ln->rows[i];
			char c[6][48];
			const char *row[6] = { c[0], c[1], c[2], c[3], c[4], c[5] };
			snprintf(c[0], sizeof c[0], "%g", r->vcpus);
			cell(c[1], sizeof c[1], r->throughput, s->unit);
			cell(c[2], sizeof c[2], r->per_vcpu, s->unit);
			snprintf(c[3], sizeof c[3], "%.2fx", r->speedup);
			snprintf(c[4], sizeof c[4], "%.1f%%", r->efficiency);
			cell(c[5], sizeof c[5], r->increase, s->unit);
			cmd_table_add(&t, row);
		}
		cmd_table_print(&t, stdout);
		cmd_table_release(&t);
		if (ln->has_usl)
			printf("USL: lambda %.6g, sigma %.4g, kappa %.4g, peak N* %.4g, R² %.4f\n",
			       ln->usl.lambda, ln->usl.sigma, ln->usl.kappa, ln->usl.peak_n, ln->usl.r2);
	}
}

static json_t *scaling_line_json(const struct pdb_scaling_line *ln)
{
	json_t *o = json_object(), *rows = json_array();

	json_object_set_new(o, "dims", json_string(ln->label));
	for (size_t i = 0; i < ln->n; i++) {
		const struct pdb_scaling_row *r = &ln->rows[i];
		json_t *row = json_object();
		json_object_set_new(row, "vcpus", pdb_json_number(r->vcpus));
		json_object_set_new(row, "throughput", pdb_json_number(r->throughput));
		json_object_set_new(row, "per_vcpu", pdb_json_number(r->per_vcpu));
		json_object_set_new(row, "speedup", pdb_json_number(r->speedup));
		json_object_set_new(row, "efficiency_pct", pdb_json_number(r->efficiency));
		json_object_set_new(row, "added_per_vcpu", pdb_json_number(r->increase));
		json_array_append_new(rows, row);
	}
	json_object_set_new(o, "rows", rows);
	if (ln->has_usl) {
		json_t *u = json_object();
		json_object_set_new(u, "lambda", pdb_json_number(ln->usl.lambda));
		json_object_set_new(u, "sigma", pdb_json_number(ln->usl.sigma));
		json_object_set_new(u, "kappa", pdb_json_number(ln->usl.kappa));
		json_object_set_new(u, "peak_n", pdb_json_number(ln->usl.peak_n));
		json_object_set_new(u, "r2", pdb_json_number(ln->usl.r2));
		json_object_set_new(o, "usl", u);
	}
	return o;
}

static void scaling_json(const struct pdb_scaling *s)
{
	json_t *doc = json_object(), *lines = json_array(), *skipped = json_array();

	json_object_set_new(doc, "benchmark", json_string(s->benchmark));
	json_object_set_new(doc, "metric", json_string(s->metric));
	json_object_set_new(doc, "why", json_string(s->why));
	json_object_set_new(doc, "unit", json_string(s->unit));
	json_object_set_new(doc, "from_time", json_boolean(s->from_time));
	json_object_set_new(doc, "held_fixed", json_string(s->held));
	for (size_t l = 0; l < s->nlines; l++)
		json_array_append_new(lines, scaling_line_json(&s->lines[l]));
	json_object_set_new(doc, "lines", lines);
	for (size_t i = 0; i < s->nskipped; i++)
		json_array_append_new(skipped, json_string(s->skipped[i]));
	json_object_set_new(doc, "left_out", skipped);
	pdb_json_write(stdout, doc, 2);
	putchar('\n');
	json_decref(doc);
}

static int parse_size(const char *text, const char *what, int *out)
{
	int64_t v;

	if (pdb_parse_int64(text, 100, 10000, &v) < 0)
		return cmd_usage_error(&cmd_plot, "%s must be a number of pixels from 100 to 10000, not '%s'",
				       what, text);
	*out = (int)v;
	return -1;
}

static int parse_options(int argc, char **argv, struct cmd_ctx *ctx, struct plot_opts *o)
{
	int64_t n;
	int c, status;

	while ((c = cmd_next_option(argc, argv, &cmd_plot)) != -1) {
		switch (c) {
		case 'o': o->output = optarg; break;
		case 'b': o->chart.bench_glob = optarg; break;
		case 'm': o->chart.metric_glob = optarg; break;
		case OPT_TITLE: o->chart.title = optarg; break;
		case 'd':
			if ((status = cmd_add_dim(&cmd_plot, &o->dims, optarg)) >= 0)
				return status;
			o->chart.dims = &o->dims;
			break;
		case 'w':
			if ((status = cmd_add_where(&cmd_plot, &o->where, optarg)) >= 0)
				return status;
			o->chart.where = o->where.data;
			break;
		case 'W':
			if ((status = parse_size(optarg, "--width", &o->chart.width)) >= 0)
				return status;
			break;
		case 'H':
			if ((status = parse_size(optarg, "--height", &o->chart.height)) >= 0)
				return status;
			break;
		case 'F':
			if ((o->format = cmd_parse_format(optarg, formats)) < 0)
				return cmd_usage_error(&cmd_plot, "unknown format '%s'", optarg);
			break;
		case OPT_THEME:
			if ((o->chart.theme = cmd_parse_format(optarg, themes)) < 0)
				return cmd_usage_error(&cmd_plot, "unknown theme '%s' (light or dark)", optarg);
			break;
		case OPT_LAYOUT: o->layout = 1; break;
		case 'c': o->config = optarg; break;
		case 't':
			if (pdb_parse_double(optarg, &o->threshold_pct) < 0 || o->threshold_pct < 0 ||
			    o->threshold_pct > 1e6)
				return cmd_usage_error(&cmd_plot, "--threshold: expected a percentage, "
						       "not '%s'", optarg);
			break;
		case OPT_LAST:
		case OPT_CAND_LAST:
			if (pdb_parse_int64(optarg, 1, 100000, &n) < 0)
				return cmd_usage_error(&cmd_plot, "--%s: expected a count, not '%s'",
						       c == OPT_LAST ? "last" : "cand-last", optarg);
			*(c == OPT_LAST ? &o->chart.last : &o->chart.cand_last) = (int)n;
			break;
		default:
			if ((status = cmd_common_option(&cmd_plot, ctx, c)) >= 0)
				return status;
		}
	}
	return -1;
}

/* The data series with values the chart has no place for (NaN, infinite,
 * not above 0 on a log axis): drawn without them, and said so. */
static void say_undrawn(const struct pdb_chart *c, const struct pdb_chart_layout *L)
{
	for (size_t i = 0; i < L->npanels; i++)
		for (size_t s = 0; s < L->panels[i].nseries; s++) {
			const struct pdb_chart_series *se = &c->panels[i].series[s];
			size_t n = L->panels[i].series[s].n_undrawn;
			if (n > 0 && se->source)
				fprintf(stderr, "perfdb: plot: %s: %zu of %zu values not drawn "
					"(NaN, infinite or, on a log axis, not above 0)\n",
					se->source, n, se->n);
		}
}

/* Check the kind and how many runs it takes; -1 when fine, else a status. */
static int check_args(const char *kind, int nruns, const struct plot_opts *o)
{
	int min = 1, max = 1 << 20;

	if (strcmp(kind, "history") == 0) {
		min = 0;
		max = 2;
	} else if (strcmp(kind, "compare") == 0) {
		min = max = 2;
	} else if (cmd_parse_format(kind, kinds) < 0) {
		return cmd_usage_error(&cmd_plot, "unknown chart '%s' (scaling, latency, history, compare)", kind);
	}
	if (nruns < min || nruns > max)
		return cmd_usage_error(&cmd_plot, "%s takes %s", kind,
				       min == 0 ? "at most two runs: FROM [TO]" :
				       min == 2 ? "two runs: BASE CAND" : "one or more runs");
	if ((o->chart.last || o->chart.cand_last) && strcmp(kind, "compare") != 0)
		return cmd_usage_error(&cmd_plot, "--last and --cand-last go with 'plot compare'");
	if (o->chart.where && strcmp(kind, "history") != 0)
		return cmd_usage_error(&cmd_plot, "--where goes with 'plot history' (the other "
				       "charts take the runs named)");
	if ((o->config || !isnan(o->threshold_pct)) && strcmp(kind, "compare") != 0)
		return cmd_usage_error(&cmd_plot, "--config and --threshold go with 'plot compare'");
	if (o->format >= 0 && (strcmp(kind, "scaling") != 0 || o->output))
		return cmd_usage_error(&cmd_plot, "--format prints the scaling table: use it with "
				       "'plot scaling' and without -o");
	if (!o->output && !o->layout && o->format < 0)
		return cmd_usage_error(&cmd_plot, "missing -o FILE (.png, .svg or .pdf)");
	if (o->output && pdb_chart_format_of(o->output) < 0)
		return cmd_usage_error(&cmd_plot, "%s: unknown image format (use .png, .svg or .pdf)",
				       o->output);
	return -1;
}

/* The comparison perfdb compare makes of base and cand (its configuration,
 * threshold, --bench and --metric), drawn; NULL with err (PDB_EXIT_INPUT)
 * when there is nothing to compare, said as compare's headline says it. */
static struct pdb_chart *compare_chart(struct pdb_store *store, const char *base,
				       const char *cand, const struct plot_opts *o,
				       struct pdb_err *err)
{
	struct pdb_compare_config cfg;
	struct pdb_compare_opts co;
	struct pdb_compare cmp = { 0 };
	struct pdb_chart *chart = NULL;
	int64_t *bids = NULL, *cids = NULL;
	size_t nb = 0, nc = 0;
	struct pdb_buf why;

	pdb_compare_config_init(&cfg);
	pdb_compare_opts_init(&co);
	co.bench_glob = o->chart.bench_glob;
	co.metric_glob = o->chart.metric_glob;
	co.dims = o->chart.dims;
	co.threshold_pct = o->threshold_pct;
	if (cmd_compare_config(o->config, &cfg, &co.config, err) < 0 ||
	    pdb_store_resolve_group(store, base, o->chart.last, &bids, &nb, err) < 0 ||
	    pdb_store_resolve_group(store, cand, o->chart.cand_last, &cids, &nc, err) < 0 ||
	    pdb_compare_run_groups(store, bids, nb, cids, nc, &co, &cmp, err) < 0)
		goto out;
	if (pdb_compare_outcome(&cmp, PDB_FAIL_ON_DEFAULT) == PDB_OUTCOME_NONE) {
		pdb_buf_init(&why);
		pdb_compare_headline(&cmp, PDB_FAIL_ON_DEFAULT, &co, PDB_RENDER_PLAIN, &why);
		pdb_err_set(err, PDB_EXIT_INPUT, "nothing to compare between %s and %s: %s", base,
			    cand, why.data + strlen("NO COMPARISON: "));
		pdb_buf_release(&why);
		goto out;
	}
	if (cmp.nhidden == cmp.nrows) {
		pdb_err_set(err, PDB_EXIT_INPUT, "nothing to draw between %s and %s: the %zu series "
			    "in common are constant or bookkeeping (perfdb compare --all lists them)",
			    base, cand, cmp.nrows);
		goto out;
	}
	chart = pdb_compare_chart(&cmp, COMPARE_MAX_ROWS, &o->chart);
out:
	pdb_compare_release(&cmp);
	pdb_compare_config_release(&cfg);
	free(bids);
	free(cids);
	return chart;
}

/* "perfdb: plot: left out WHAT" on stderr, escaped: WHAT names data. */
static void left_out(const char *what)
{
	char *safe = cmd_escape_controls(what);

	fprintf(stderr, "perfdb: plot: left out %s\n", safe);
	free(safe);
}

static struct pdb_chart *build(struct pdb_store *store, const char *kind, const char *const *runs,
			       size_t nruns, const struct plot_opts *o, struct pdb_err *err)
{
	struct pdb_scaling s;
	struct pdb_chart *chart;

	if (strcmp(kind, "latency") == 0)
		return pdb_latency_chart(store, runs, nruns, &o->chart, err);
	if (strcmp(kind, "history") == 0)
		return pdb_history_chart(store, runs, nruns, &o->chart, err);
	if (strcmp(kind, "compare") == 0)
		return compare_chart(store, runs[0], runs[1], o, err);
	if (pdb_scaling_gather(store, runs, nruns, &o->chart, &s, err) < 0)
		return NULL;
	for (size_t i = 0; o->format >= 0 && i < s.nskipped; i++)
		left_out(s.skipped[i]);
	if (o->format == 0)
		scaling_text(&s);
	else if (o->format == 1)
		scaling_json(&s);
	chart = o->format >= 0 ? NULL : pdb_scaling_chart(&s, NULL, &o->chart);
	pdb_scaling_release(&s);
	return chart;
}

static int plot_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct plot_opts o = { .chart = { .width = 1200, .height = 700 }, .format = -1,
			       .threshold_pct = NAN };
	struct pdb_store *store = NULL;
	struct pdb_chart *chart = NULL;
	struct pdb_chart_layout *layout = NULL;
	struct pdb_err err;
	const char *kind;
	char *where = NULL, *note = NULL;
	int status;

	/* large sample arrays come and go: reuse freed heap rather than map
	 * fresh (page-faulting) memory for each */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	pdb_buf_init(&o.where);
	if ((status = parse_options(argc, argv, ctx, &o)) >= 0)
		goto out;
	if (optind >= argc) {
		status = cmd_usage_error(&cmd_plot, "expected a chart: scaling, latency, history or compare");
		goto out;
	}
	kind = argv[optind];
	if ((status = check_args(kind, argc - optind - 1, &o)) >= 0)
		goto out;
	status = PDB_EXIT_OK;
	pdb_err_clear(&err);
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    (strcmp(kind, "history") == 0 &&
	     pdb_history_where(store, o.chart.where, 0, &where, &note, &err) < 0)) {
		status = cmd_fail("plot", &err);
		goto out;
	}
	if (note)
		cmd_say("plot", "%s", note);
	if (where)
		o.chart.where = where;
	chart = build(store, kind, (const char *const *)argv + optind + 1,
		      (size_t)(argc - optind - 1), &o, &err);
	if (pdb_dim_filter_check(o.chart.dims, &err) < 0) { /* before what it left empty */
		status = cmd_fail("plot", &err);
		goto out;
	}
	if (!chart) {
		if (o.format < 0 || err.msg[0])
			status = cmd_fail("plot", &err);
		goto out;
	}
	for (size_t i = 0; i < chart->nskipped; i++)
		left_out(chart->skipped[i]);
	layout = pdb_chart_layout(chart);
	say_undrawn(chart, layout);
	if (o.layout) {
		struct pdb_buf text;
		pdb_buf_init(&text);
		pdb_chart_layout_text(chart, layout, &text);
		fwrite(text.data, 1, text.len, stdout);
		pdb_buf_release(&text);
	}
	if (o.output && pdb_chart_render(chart, layout, o.output, PDB_OUT_GIVEN,
					 pdb_chart_format_of(o.output), &err) < 0)
		status = cmd_fail("plot", &err);
out:
	pdb_chart_layout_free(layout);
	pdb_chart_free(chart);
	pdb_store_close(store);
	pdb_buf_release(&o.where);
	pdb_dim_filter_release(&o.dims);
	free(where);
	free(note);
	return status;
}
