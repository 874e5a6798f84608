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
#include "gather/chart_gather.h"
#include "gather/compare_gather.h"
#include "dim_filter.h"
#include "json_out.h"
#include "util.h"

static int plot_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_THEME = CMD_LONG_ONLY, OPT_LAYOUT, OPT_LAST, OPT_CAND_LAST, OPT_TITLE };

/* The chart kinds, in the order -h and the completions list them: its name,
 * how many runs it takes (least, most, as said), the options only it takes
 * (TAKES_*), and its build (below: gather, then the kind's builder of
 * lib/chart/kinds.h). The one list: kinds[] and plot_kinds[] are made of it. */
#define MANY_RUNS (1 << 20)
#define PLOT_KINDS(K) \
	K(scaling, 1, MANY_RUNS, "one or more runs", TAKES_FORMAT, build_scaling) \
	K(latency, 1, MANY_RUNS, "one or more runs", 0, build_latency) \
	K(history, 0, 2, "at most two runs: FROM [TO]", TAKES_WHERE, build_history) \
	K(compare, 2, 2, "two runs: BASE CAND", TAKES_COMPARE, build_compare)
enum {
	TAKES_WHERE = 1,   /* --where, and the history rule when it is not given */
	TAKES_COMPARE = 2, /* --config, --threshold, --last, --cand-last */
	TAKES_FORMAT = 4,  /* --format: the table printed instead of a chart */
};
#define KIND_NAME(name, min, max, runs, takes, build) #name,
static const char *const kinds[] = { PLOT_KINDS(KIND_NAME) NULL };
static const char *const formats[] = { "text", "json", NULL };
static const char *const themes[] = { "light", "dark", NULL };

static const struct cmd_option options[] = {
	{ "output", 'o', "FILE", "the image: .png, .svg or .pdf" },
	{ "bench", 'b', "GLOB", "only benchmarks matching GLOB" },
	{ "metric", 'm', "GLOB", "only metrics matching GLOB" },
	{ "dim", 'd', "K=V", CMD_DIM_HELP },
	{ "title", OPT_TITLE, "TEXT", "the chart's title" },
	{ "where", 'w', "K=V[,K=V]", "history: only runs with these attributes\n"
				     "(--where branch=main: one branch's history)" },
	{ "width", 'W', "PX", "width in pixels",
	  .type = CMD_COUNT, .min = 100, .max = 10000, .def = "1200" },
	{ "height", 'H', "PX", "height in pixels",
	  .type = CMD_COUNT, .min = 100, .max = 10000, .def = "700" },
	{ "theme", OPT_THEME, "NAME", "light or dark", .choices = themes, .def = "light" },
	{ "layout", OPT_LAYOUT, NULL, "print the computed layout (axes, ticks, legend) as text" },
	{ "config", 'c', "FILE", "compare: thresholds, directions, ignores (default\n"
				 "./perfdb.yaml), as perfdb compare reads them" },
	{ "threshold", 't', "PCT", "compare: fail level in % (as perfdb compare -t)",
	  .type = CMD_NUMBER, .min = 0, .max = 1e6 },
	{ "last", OPT_LAST, "N", "compare: BASE is the last N runs matching its selector",
	  .type = CMD_COUNT, .min = 1, .max = 100000 },
	{ "cand-last", OPT_CAND_LAST, "N", "compare: CAND is the last N runs matching its selector",
	  .type = CMD_COUNT, .min = 1, .max = 100000 },
	{ "format", 'F', "FMT", "scaling without -o: print the table as text or json", .choices = formats },
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

	printf("%s (%s: %s)%s%s%s%s\n", s->benchmark, s->metric, s->why,
	       *s->held ? ", held fixed: " : "", s->held, *s->follows ? ", following vCPUs: " : "",
	       s->follows);
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
			pdb_speedup_text(r->speedup, c[3], sizeof c[3]);
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
	json_object_set_new(doc, "following_vcpus", json_string(s->follows));
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

static int parse_options(int argc, char **argv, struct cmd_ctx *ctx, struct plot_opts *o)
{
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
		case 'W': o->chart.width = (int)cmd_arg.count; break;
		case 'H': o->chart.height = (int)cmd_arg.count; break;
		case 'F': o->format = cmd_arg.choice; break;
		case OPT_THEME: o->chart.theme = cmd_arg.choice; break;
		case OPT_LAYOUT: o->layout = 1; break;
		case 'c': o->config = optarg; break;
		case 't': o->threshold_pct = cmd_arg.number; break;
		case OPT_LAST: o->chart.last = (int)cmd_arg.count; break;
		case OPT_CAND_LAST: o->chart.cand_last = (int)cmd_arg.count; break;
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

/* The comparison perfdb compare makes of base and cand (its configuration,
 * threshold, --bench and --metric), drawn; NULL with err (PDB_EXIT_INPUT)
 * when there is nothing to compare, said as compare's headline says it. */
static struct pdb_chart *build_compare(struct pdb_store *store, const char *const *runs,
				       size_t nruns, const struct plot_opts *o, struct pdb_err *err)
{
	const char *base = runs[0], *cand = runs[nruns - 1];
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

static struct pdb_chart *build_latency(struct pdb_store *store, const char *const *sel,
				       size_t nsel, const struct plot_opts *o, struct pdb_err *err)
{
	struct pdb_run **runs;
	struct pdb_chart *chart;

	if (pdb_gather_runs(store, sel, nsel, &runs, err) < 0)
		return NULL;
	chart = pdb_latency_chart(runs, nsel, &o->chart, err);
	pdb_gather_runs_free(runs, nsel);
	return chart;
}

static struct pdb_chart *build_history(struct pdb_store *store, const char *const *sel,
				       size_t nsel, const struct plot_opts *o, struct pdb_err *err)
{
	struct pdb_history_model m;
	struct pdb_chart *chart = NULL;

	if (pdb_gather_history(store, sel, nsel, &o->chart, &m, err) == 0)
		chart = pdb_history_chart(&m, &o->chart, err);
	pdb_gather_history_release(&m);
	return chart;
}

/* The scaling chart, or its table printed (--format). */
static struct pdb_chart *build_scaling(struct pdb_store *store, const char *const *sel,
				       size_t nsel, const struct plot_opts *o, struct pdb_err *err)
{
	struct pdb_run **runs;
	struct pdb_scaling s;
	struct pdb_chart *chart = NULL;

	if (pdb_gather_runs(store, sel, nsel, &runs, err) < 0)
		return NULL;
	if (pdb_scaling_of(runs, nsel, &o->chart, &s, err) == 0) {
		for (size_t i = 0; o->format >= 0 && i < s.nskipped; i++)
			left_out(s.skipped[i]);
		if (o->format == 0)
			scaling_text(&s);
		else if (o->format == 1)
			scaling_json(&s);
		chart = o->format >= 0 ? NULL : pdb_scaling_chart(&s, NULL, &o->chart);
		pdb_scaling_release(&s);
	}
	pdb_gather_runs_free(runs, nsel);
	return chart;
}

struct plot_kind {
	const char *name;
	int min, max;      /* runs */
	const char *runs;  /* the same, said */
	unsigned takes;    /* TAKES_* */
	struct pdb_chart *(*build)(struct pdb_store *store, const char *const *runs, size_t nruns,
				   const struct plot_opts *o, struct pdb_err *err);
};
#define KIND_ROW(name, min, max, runs, takes, build) { #name, min, max, runs, takes, build },
static const struct plot_kind plot_kinds[] = { PLOT_KINDS(KIND_ROW) };
#define NKINDS (sizeof plot_kinds / sizeof plot_kinds[0])

/* The kinds' names, "A, B, C" (last NULL) or "A, B or C" (last " or "). */
static char *kind_names(const char *last)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	for (size_t i = 0; i < NKINDS; i++)
		pdb_buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == NKINDS && last ? last : ", ",
			       plot_kinds[i].name);
	return b.data;
}

/* The name of the kind that takes an option (TAKES_*). */
static const char *taker(unsigned takes)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (plot_kinds[i].takes & takes)
			return plot_kinds[i].name;
	return "";
}

/* Check the kind and how many runs it takes; -1 when fine (*k the kind),
 * else a status. */
static int check_args(const char *kind, int nruns, const struct plot_opts *o,
		      const struct plot_kind **k)
{
	int i = cmd_parse_format(kind, kinds);

	if (i < 0) {
		char *names = kind_names(NULL);
		int status = cmd_usage_error(&cmd_plot, "unknown chart '%s' (%s)", kind, names);
		free(names);
		return status;
	}
	*k = &plot_kinds[i];
	if (nruns < (*k)->min || nruns > (*k)->max)
		return cmd_usage_error(&cmd_plot, "%s takes %s", kind, (*k)->runs);
	if ((o->chart.last || o->chart.cand_last) && !((*k)->takes & TAKES_COMPARE))
		return cmd_usage_error(&cmd_plot, "--last and --cand-last go with 'plot %s'",
				       taker(TAKES_COMPARE));
	if (o->chart.where && !((*k)->takes & TAKES_WHERE))
		return cmd_usage_error(&cmd_plot, "--where goes with 'plot %s' (the other "
				       "charts take the runs named)", taker(TAKES_WHERE));
	if ((o->config || !isnan(o->threshold_pct)) && !((*k)->takes & TAKES_COMPARE))
		return cmd_usage_error(&cmd_plot, "--config and --threshold go with 'plot %s'",
				       taker(TAKES_COMPARE));
	if (o->format >= 0 && (!((*k)->takes & TAKES_FORMAT) || o->output))
		return cmd_usage_error(&cmd_plot, "--format prints the %s table: use it with "
				       "'plot %s' and without -o", taker(TAKES_FORMAT),
				       taker(TAKES_FORMAT));
	if (!o->output && !o->layout && o->format < 0)
		return cmd_usage_error(&cmd_plot, "missing -o FILE (.png, .svg or .pdf)");
	if (o->output && pdb_chart_format_of(o->output) < 0)
		return cmd_usage_error(&cmd_plot, "%s: unknown image format (use .png, .svg or .pdf)",
				       o->output);
	return -1;
}

static int plot_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct plot_opts o = { .chart = { .width = (int)cmd_default_count(&cmd_plot, "width"),
					  .height = (int)cmd_default_count(&cmd_plot, "height"),
					  .theme = cmd_default_choice(&cmd_plot, "theme") },
			       .format = -1,
			       .threshold_pct = NAN };
	struct pdb_store *store = NULL;
	struct pdb_chart *chart = NULL;
	struct pdb_chart_layout *layout = NULL;
	struct pdb_err err;
	const struct plot_kind *k = NULL;
	char *where = NULL, *note = NULL, *names;
	int status;

	/* large sample arrays come and go: reuse freed heap rather than map
	 * fresh (page-faulting) memory for each */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	pdb_buf_init(&o.where);
	if ((status = parse_options(argc, argv, ctx, &o)) >= 0)
		goto out;
	if (optind >= argc) {
		names = kind_names(" or ");
		status = cmd_usage_error(&cmd_plot, "expected a chart: %s", names);
		free(names);
		goto out;
	}
	if ((status = check_args(argv[optind], argc - optind - 1, &o, &k)) >= 0)
		goto out;
	status = PDB_EXIT_OK;
	pdb_err_clear(&err);
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    ((k->takes & TAKES_WHERE) &&
	     pdb_history_where(store, o.chart.where, 0, &where, &note, &err) < 0)) {
		status = cmd_fail("plot", &err);
		goto out;
	}
	if (note)
		cmd_say("plot", "%s", note);
	if (where)
		o.chart.where = where;
	chart = k->build(store, (const char *const *)argv + optind + 1,
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
