/* perfdb detect: change points in the history of every series. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "branches.h"
#include "cmd.h"
#include "gather/detect_gather.h"
#include "escape.h"
#include "detect.h"
#include "detect_wall.h"
#include "metric_role.h"
#include "json_out.h"
#include "units.h"
#include "util.h"

static int detect_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_SINCE = CMD_LONG_ONLY, OPT_WINDOW, OPT_MAGNITUDE, OPT_OUTLIERS, OPT_FAIL_RECENT,
       OPT_NO_CACHE };
enum { FMT_TEXT, FMT_JSON, FMT_MARKDOWN };

static const char *const formats[] = { "text", "json", "markdown", NULL };
/* --outliers, and what each word means */
static const char *const outlier_modes[] = { "report", "keep", NULL };
static const int outlier_mode[] = { PDB_OUTLIERS_REPORT, PDB_OUTLIERS_KEEP };

static const struct cmd_option options[] = {
	{ "bench", 'b', "GLOB", "benchmarks to look at (default: all)" },
	{ "metric", 'm', "GLOB", "metrics to look at (default: those the gate gates, not\n"
	  "resources or bookkeeping such as iterations)" },
	{ "where", 'w', "K=V[,K=V]", "only runs with these attributes (repeatable: all must match)" },
	{ "since", OPT_SINCE, "RUN", "only runs from RUN on" },
	{ "window", OPT_WINDOW, "N", "split window, in runs",
	  .type = CMD_COUNT, .min = 2, .max = 1000000, .def = "50" },
	{ "pvalue", 'p', "P", "significance of a change point in its series; a looser\n"
			      "P keeps what a stricter one finds",
	  .type = CMD_NUMBER, .min = 0, .above = 1, .max = 1, .def = "0.001" },
	{ "magnitude", OPT_MAGNITUDE, "PCT", "smallest change that counts, %",
	  .type = CMD_NUMBER, .min = 0, .max = 1e6, .def = "0" },
	{ "outliers", OPT_OUTLIERS, "MODE", "report: a one-run spike or an excursion of up to 5 runs\n"
					    "is an outlier, and a change point must hold for the\n"
					    "whole series; keep: every run counts (Apache Otava)",
	  .choices = outlier_modes, .def = "report" },
	{ "format", 'F', "FMT", "text, json or markdown", .choices = formats, .def = "text" },
	{ "fail-recent", OPT_FAIL_RECENT, "N", "exit 1 when a confirmed regression (6 runs on) lies in\n"
					       "the newest N runs",
	  .type = CMD_COUNT, .min = 1, .max = INFINITY },
	{ "no-cache", OPT_NO_CACHE, NULL, "recompute every split (the cache is still written)" },
	{ 0 },
};

const struct command cmd_detect = {
	.name = "detect", .run = detect_main,
	.summary = "find change points (regressions, improvements) in series history",
	.synopsis = "[OPTIONS]",
	.options = options,
};


struct detect_cli {
	const char *bench, *metric, *where, *since;
	struct pdb_buf where_parts;   /* --where's, which where points to */
	struct pdb_detect_opts opts;
	int format, no_cache;
	int64_t fail_recent;   /* 0: off */
};

static char *run_label(const struct pdb_history_point *p)
{
	return pdb_xasprintf("run%lld", (long long)p->run_id);
}

/* "run41 (name, commit abc123)" for people. */
static char *run_long(const struct pdb_history_point *p)
{
	if (p->run_name && p->commit)
		return pdb_xasprintf("run%lld (%s, %s)", (long long)p->run_id,
				     p->run_name, p->commit);
	if (p->run_name || p->commit)
		return pdb_xasprintf("run%lld (%s)", (long long)p->run_id,
				     p->run_name ? p->run_name : p->commit);
	return run_label(p);
}


static json_t *series_json(const struct pdb_detect_found *f)
{
	json_t *s = json_object(), *cps = json_array(), *outs = json_array();
	json_t *dims = json_loads(f->series->dims, 0, NULL);

	json_object_set_new(s, "benchmark", json_string(f->series->benchmark));
	json_object_set_new(s, "dims", dims ? dims : json_object());
	json_object_set_new(s, "metric", json_string(f->series->metric));
	json_object_set_new(s, "unit", json_string(f->series->unit));
	json_object_set_new(s, "direction",
			    json_string(pdb_direction_name(f->series->direction)));
	json_object_set_new(s, "n", json_integer((json_int_t)f->values.v.n));
	for (size_t i = 0; i < f->res.ncps; i++) {
		const struct pdb_change_point *cp = &f->res.cps[i];
		json_t *c = json_object();

		json_object_set_new(c, "index", json_integer((json_int_t)cp->index));
		json_object_set_new(c, "run_before",
			json_sprintf("run%lld", (long long)f->values.v.run_ids[cp->index_before]));
		json_object_set_new(c, "run_after",
			json_sprintf("run%lld", (long long)f->values.v.run_ids[cp->index]));
		json_object_set_new(c, "mean_before", json_real(cp->mean_before));
		json_object_set_new(c, "mean_after", json_real(cp->mean_after));
		json_object_set_new(c, "stddev_before", json_real(cp->stddev_before));
		json_object_set_new(c, "stddev_after", json_real(cp->stddev_after));
		json_object_set_new(c, "change_pct", isnan(cp->change_pct) ? json_null() :
				    json_real(cp->change_pct));
		json_object_set_new(c, "p_value", json_real(cp->p_value));
		json_object_set_new(c, "confidence", json_real(cp->confidence));
		json_object_set_new(c, "verdict", json_string(pdb_detect_verdict(cp)));
		json_object_set_new(c, "tentative", json_boolean(cp->tentative));
		json_object_set_new(c, "confirmed", json_boolean(cp->confirmed));
		json_object_set_new(c, "cpu_steady", json_boolean(cp->cpu_steady));
		json_array_append_new(cps, c);
	}
	for (size_t i = 0; i < f->res.noutliers; i++) {
		const struct pdb_outlier *o = &f->res.outliers[i];
		json_t *c = json_object();

		json_object_set_new(c, "index", json_integer((json_int_t)o->index));
		json_object_set_new(c, "run",
			json_sprintf("run%lld", (long long)f->values.v.run_ids[o->index]));
		json_object_set_new(c, "value", json_real(o->value));
		json_array_append_new(outs, c);
	}
	json_object_set_new(s, "change_points", cps);
	json_object_set_new(s, "outliers", outs);
	return s;
}

static void print_json(const struct pdb_detect_found *fs, size_t n, const char *where)
{
	json_t *doc = json_object(), *arr = json_array();

	json_object_set_new(doc, "where", where ? json_string(where) : json_null());
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, series_json(&fs[i]));
	json_object_set_new(doc, "series", arr);
	pdb_json_write(stdout, doc, 2);
	putchar('\n');
	json_decref(doc);
}

/* Markdown: a table row of cells separated by pipes, each through
 * pdb_escape_md (names from the data are text, never markup). */
static void md_row(const char *const *cells, size_t n)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	for (size_t i = 0; i < n; i++) {
		pdb_buf_puts(&b, "| ");
		pdb_escape_md(&b, cells[i] ? cells[i] : "");
		pdb_buf_puts(&b, " ");
	}
	pdb_buf_puts(&b, "|\n");
	fputs(b.data, stdout);
	pdb_buf_release(&b);
}

static void add_row(struct cmd_table *t, const char *const *row, size_t n, int md)
{
	if (md)
		md_row(row, n);
	else
		cmd_table_add(t, row);
}

static void print_tables(const struct pdb_detect_found *fs, size_t n, int md)
{
	static const char *cp_head[] = { "benchmark", "dims", "metric", "index", "before",
					 "after", "mean before", "mean after", "change",
					 "p", "verdict" };
	static const char *out_head[] = { "benchmark", "dims", "metric", "index", "run",
					  "value" };
	size_t ncp = 0, nreg = 0, nout = 0;
	struct cmd_table t;

	cmd_table_init(&t, 11, "lllrllrrrrl");
	for (size_t i = 0; i < n; i++)
		ncp += fs[i].res.ncps, nout += fs[i].res.noutliers;
	if (ncp > 0) {
		if (md) {
			md_row(cp_head, 11);
			printf("|---|---|---|--:|---|---|--:|--:|--:|--:|---|\n");
		} else {
			cmd_table_add(&t, cp_head);
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct pdb_detect_found *f = &fs[i];
		char *dims = pdb_dims_json_display(f->series->dims);

		for (size_t k = 0; k < f->res.ncps; k++) {
			const struct pdb_change_point *cp = &f->res.cps[k];
			char idx[32], mb[48], ma[48], ch[32], p[32], v[48];
			char *rb = run_long(pdb_detect_found_label(f, cp->index_before));
			char *ra = run_long(pdb_detect_found_label(f, cp->index));
			const char *row[11];

			snprintf(idx, sizeof idx, "%zu", cp->index);
			pdb_unit_format_fixed(cp->mean_before, f->series->unit, mb, sizeof mb);
			pdb_unit_format_fixed(cp->mean_after, f->series->unit, ma, sizeof ma);
			pdb_detect_change_text(cp, f->series->unit, ch, sizeof ch);
			snprintf(p, sizeof p, "%.2g", cp->p_value);
			pdb_detect_verdict_text(cp, v, sizeof v);
			nreg += cp->regression;
			row[0] = f->series->benchmark; row[1] = dims; row[2] = f->series->metric;
			row[3] = idx; row[4] = rb; row[5] = ra; row[6] = mb; row[7] = ma;
			row[8] = ch; row[9] = p; row[10] = v;
			add_row(&t, row, 11, md);
			free(rb);
			free(ra);
		}
		free(dims);
	}
	if (!md)
		cmd_table_print(&t, stdout);
	cmd_table_release(&t);
	if (nout > 0) {
		printf("%soutliers (one-run spikes and excursions of up to %d runs, not change points):\n\n",
		       ncp ? "\n" : "", PDB_DETECT_MAX_EXCURSION);
		cmd_table_init(&t, 6, "lllrlr");
		if (md) {
			md_row(out_head, 6);
			printf("|---|---|---|--:|---|--:|\n");
		} else {
			cmd_table_add(&t, out_head);
		}
		for (size_t i = 0; i < n; i++) {
			const struct pdb_detect_found *f = &fs[i];
			char *dims = pdb_dims_json_display(f->series->dims);

			for (size_t k = 0; k < f->res.noutliers; k++) {
				const struct pdb_outlier *o = &f->res.outliers[k];
				char idx[32], val[48];
				char *run = run_long(pdb_detect_found_label(f, o->index));
				const char *row[6];

				snprintf(idx, sizeof idx, "%zu", o->index);
				pdb_unit_format_fixed(o->value, f->series->unit, val, sizeof val);
				row[0] = f->series->benchmark; row[1] = dims;
				row[2] = f->series->metric; row[3] = idx; row[4] = run;
				row[5] = val;
				add_row(&t, row, 6, md);
				free(run);
			}
			free(dims);
		}
		if (!md)
			cmd_table_print(&t, stdout);
		cmd_table_release(&t);
	}
	printf("%s%zu series, %zu change point%s (%zu regression%s), %zu outlier%s\n",
	       ncp || nout ? "\n" : "", n, ncp, ncp == 1 ? "" : "s", nreg,
	       nreg == 1 ? "" : "s", nout, nout == 1 ? "" : "s");
}

/* Wall-time change points against the CPU time of their benchmark. */
static void check_wall(struct pdb_detect_found *fs, size_t n)
{
	struct pdb_detect_view *v = pdb_xcalloc(n + 1, sizeof *v);

	for (size_t i = 0; i < n; i++)
		v[i] = (struct pdb_detect_view){ .benchmark = fs[i].series->benchmark,
			.dims = fs[i].series->dims, .metric = fs[i].series->metric,
			.run_ids = fs[i].values.v.run_ids, .values = fs[i].values.v.values,
			.n = fs[i].values.v.n, .res = &fs[i].res };
	pdb_detect_check_wall(v, n);
	free(v);
}

static int parse_options(int argc, char **argv, struct cmd_ctx *ctx,
			 struct detect_cli *cli)
{
	int c, status;

	cli->opts.window = (size_t)cmd_default_count(&cmd_detect, "window");
	cli->opts.pvalue = cmd_default_number(&cmd_detect, "pvalue");
	cli->opts.magnitude = cmd_default_number(&cmd_detect, "magnitude") / 100.0;
	cli->opts.outliers = outlier_mode[cmd_default_choice(&cmd_detect, "outliers")];
	cli->format = cmd_default_choice(&cmd_detect, "format");
	while ((c = cmd_next_option(argc, argv, &cmd_detect)) != -1) {
		switch (c) {
		case 'b': cli->bench = optarg; break;
		case 'm': cli->metric = optarg; break;
		case 'w':
			if ((status = cmd_add_where(&cmd_detect, &cli->where_parts, optarg)) >= 0)
				return status;
			cli->where = cli->where_parts.data;
			break;
		case OPT_SINCE: cli->since = optarg; break;
		case OPT_WINDOW: cli->opts.window = (size_t)cmd_arg.count; break;
		case 'p': cli->opts.pvalue = cmd_arg.number; break;
		case OPT_MAGNITUDE: cli->opts.magnitude = cmd_arg.number / 100.0; break;
		case OPT_OUTLIERS: cli->opts.outliers = outlier_mode[cmd_arg.choice]; break;
		case 'F': cli->format = cmd_arg.choice; break;
		case OPT_FAIL_RECENT: cli->fail_recent = cmd_arg.count; break;
		case OPT_NO_CACHE: cli->no_cache = 1; break;
		default:
			if ((status = cmd_common_option(&cmd_detect, ctx, c)) >= 0)
				return status;
		}
	}
	if (optind != argc)
		return cmd_usage_error(&cmd_detect, "unexpected argument '%s'", argv[optind]);
	if (cli->fail_recent > 0 && cli->fail_recent <= PDB_DETECT_MAX_EXCURSION)
		fprintf(stderr, "perfdb: detect: warning: --fail-recent %lld never fails: a "
			"regression is confirmed once %d runs follow it\n",
			(long long)cli->fail_recent, PDB_DETECT_MAX_EXCURSION + 1);
	return -1;
}

/* Without --metric, the series the gate gates by default only (lib/metric_role.h):
 * resources and bookkeeping are moved past *n (still freed with the rest);
 * their number. */
static size_t leave_out_resources(struct pdb_series *s, size_t *n)
{
	size_t kept = 0, all = *n;

	for (size_t i = 0; i < all; i++)
		if (pdb_metric_series_by_default(s[i].metric, s[i].dims)) {
			struct pdb_series t = s[kept];
			s[kept++] = s[i];
			s[i] = t;
		}
	*n = kept;
	return all - kept;
}

/* A regression between runs several commits apart: the command that
 * finds which commit made it, once per pair of commits (series that
 * changed between the same runs share it, and each pair asks git). */
static void bisect_notes(const struct pdb_detect_found *fs, size_t nseries)
{
	const char **seen = NULL;
	size_t nseen = 0, cap = 0;

	for (size_t i = 0; i < nseries; i++)
		for (size_t k = 0; k < fs[i].res.ncps; k++) {
			const struct pdb_change_point *cp = &fs[i].res.cps[k];
			const struct pdb_history_point *a = pdb_detect_found_label(&fs[i], cp->index_before);
			const struct pdb_history_point *b = pdb_detect_found_label(&fs[i], cp->index);
			size_t j = 0;
			if (!cp->regression || !a || !b || !a->commit || !b->commit)
				continue;
			while (j < nseen && !(strcmp(seen[2 * j], a->commit) == 0 &&
					      strcmp(seen[2 * j + 1], b->commit) == 0))
				j++;
			if (j < nseen)
				continue;
			pdb_grow((void **)&seen, &cap, 2 * nseen + 2, sizeof *seen);
			seen[2 * nseen] = a->commit;
			seen[2 * nseen++ + 1] = b->commit;
			cmd_bisect_hint("detect", fs[i].series->benchmark, "the runs of its change",
					a->commit, b->commit);
		}
	free(seen);
}

/* The confirmed regressions that start within the newest n runs (none when n
 * is 0), each said on stderr as the reason of the exit status; their count. */
static size_t fail_recent(const struct pdb_detect_found *fs, size_t nseries, int64_t n)
{
	size_t nfail = 0;

	for (size_t i = 0; n > 0 && i < nseries; i++) {
		const struct pdb_detect_found *f = &fs[i];

		for (size_t k = 0; k < f->res.ncps; k++) {
			const struct pdb_change_point *cp = &f->res.cps[k];
			size_t ago = f->values.v.n - cp->index;
			char *dims, *run, *what, *safe, ch[48];

			if (!cp->regression || !cp->confirmed || ago > (uint64_t)n)
				continue;
			dims = pdb_dims_json_display(f->series->dims);
			run = run_long(pdb_detect_found_label(f, cp->index));
			what = pdb_xasprintf("%s%s%s %s", f->series->benchmark, *dims ? " " : "", dims,
					     f->series->metric);
			safe = cmd_escape_controls(what);
			pdb_detect_change_text(cp, f->series->unit, ch, sizeof ch);
			fprintf(stderr, "perfdb: detect: fail: %s: %s, a confirmed "
				"regression since %s, the newest %zu run%s (--fail-recent %lld)\n",
				safe, ch, run, ago, ago == 1 ? "" : "s", (long long)n);
			free(what);
			free(safe);
			free(dims);
			free(run);
			nfail++;
		}
	}
	return nfail;
}

/* A --where that selects no run is a typo more often than not: exit 3 with
 * its reason (*status), rather than "0 change points" over nothing. */
static int where_matches_nothing(struct pdb_store *store, const char *where, struct pdb_err *err,
				 int *status)
{
	int64_t *ids = NULL;
	size_t n = 0;

	if (pdb_store_run_ids(store, where, &ids, &n, err) < 0) {
		*status = cmd_fail("detect", err);
		return 1;
	}
	free(ids);
	if (n > 0)
		return 0;
	pdb_err_set(err, PDB_EXIT_INPUT, "--where %s: no run matches", where);
	*status = cmd_fail("detect", err);
	return 1;
}

static int detect_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct detect_cli cli = { 0 };
	struct pdb_store *store = NULL;
	struct pdb_series *series = NULL;
	struct pdb_detect_found *fs = NULL;
	struct pdb_detect_cache_entry *entries = NULL;
	struct pdb_detect_gather gather;
	struct pdb_err err;
	size_t nseries = 0, fewer = 0, nresource = 0;
	int64_t since_id = 0;
	char *params = NULL, *selection = NULL, *where = NULL, *note = NULL;
	const char *saved_note;
	int status;

	pdb_detect_opts_init(&cli.opts);
	pdb_buf_init(&cli.where_parts);
	if ((status = parse_options(argc, argv, ctx, &cli)) >= 0)
		goto out;
	status = PDB_EXIT_OK;
	/* one read transaction: the cache written at the end holds only what
	 * was read, even when another process removes runs meanwhile */
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    pdb_store_begin_read(store, &err) < 0 ||
	    (cli.since && pdb_store_resolve_since(store, cli.since, &since_id, &fewer, &err) < 0) ||
	    pdb_store_list_series(store, cli.bench, cli.metric, &series, &nseries, &err) < 0 ||
	    pdb_history_where(store, cli.where, since_id, &where, &note, &err) < 0) {
		status = cmd_fail("detect", &err);
		goto out;
	}
	if (note)
		cmd_say("detect", "%s", note);
	if (!cli.metric)
		nresource = leave_out_resources(series, &nseries);
	if (nresource)
		cmd_say("detect", "%zu resource or bookkeeping series (memory, the user and system "
			"split of CPU time, iterations) left out: name them with --metric",
			nresource);
	cli.where = where;
	if (cli.where && where_matches_nothing(store, cli.where, &err, &status))
		goto out;
	if (fewer)
		cmd_say("detect", "--since %s: only %zu run%s match%s: all of them, "
			"from run%lld", cli.since, fewer, fewer == 1 ? "" : "s",
			fewer == 1 ? "es" : "", (long long)since_id);
	params = pdb_detect_params(&cli.opts, since_id, cli.where);
	selection = pdb_store_detect_selection(since_id, cli.where);
	gather = (struct pdb_detect_gather){ .opts = &cli.opts, .where = cli.where,
		.since_id = since_id, .params = params, .selection = selection,
		.use_cache = !cli.no_cache, .labels = cli.format != FMT_JSON || cli.fail_recent > 0 };
	fs = pdb_xcalloc(nseries + 1, sizeof *fs);
	entries = pdb_xcalloc(nseries + 1, sizeof *entries);
	for (size_t i = 0; i < nseries; i++) {
		fs[i].series = &series[i];
		if (pdb_gather_detect(store, &gather, &fs[i], &err) < 0) {
			status = cmd_fail("detect", &err);
			goto out;
		}
		entries[i].series_id = series[i].id;
		entries[i].state = &fs[i].state;
		entries[i].values = &fs[i].values;
	}
	check_wall(fs, nseries);
	if (pdb_detect_cache_save(store, params, selection, entries, nseries, &saved_note,
				  &err) < 0) {
		status = cmd_fail("detect", &err);
		goto out;
	}
	if (saved_note)
		cmd_say("detect", "%s", saved_note);
	if (cli.format == FMT_JSON)
		print_json(fs, nseries, cli.where);
	else
		print_tables(fs, nseries, cli.format == FMT_MARKDOWN);
	bisect_notes(fs, nseries);
	if (fail_recent(fs, nseries, cli.fail_recent) > 0)
		status = PDB_EXIT_REGRESSION;
out:
	for (size_t i = 0; fs && i < nseries; i++)
		pdb_detect_found_release(&fs[i]);
	free(fs);
	free(entries);
	free(params);
	free(selection);
	pdb_series_free(series, nseries + nresource);
	pdb_store_close(store);
	pdb_buf_release(&cli.where_parts);
	free(where);
	free(note);
	return status;
}
