/* perfdb site: a static dashboard of the whole history (index, a page per benchmark and per run). */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare_config.h"
#include "runner/exec.h"
#include "site/site.h"
#include "util.h"

static int site_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_SINCE = CMD_LONG_ONLY, OPT_BASE_URL, OPT_TITLE };

static const struct cmd_option options[] = {
	{ "output", 'o', "DIR", "where to write the site (made when missing)" },
	{ "where", 'w', "K=V[,K=V]", "only runs with these attributes (repeatable: all must match)" },
	{ "since", OPT_SINCE, "RUN", "only runs from RUN on" },
	{ "title", OPT_TITLE, "TEXT", "the site's title", .def = PDB_SITE_TITLE },
	{ "base-url", OPT_BASE_URL, "URL", "where the site is published (http:// or https://),\n"
					   "for canonical links; the pages link to each other\n"
					   "by relative paths either way" },
	{ "config", 'c', "FILE", "the run pages' comparisons' thresholds, directions,\n"
				 "ignores, as compare's (default ./perfdb.yaml)" },
	{ "jobs", 'j', "N", "threads that draw the benchmark pages (default:\n"
			    "the CPUs perfdb may run on)", .type = CMD_COUNT, .min = 1, .max = 256 },
	{ 0 },
};

const struct command cmd_site = {
	.name = "site", .run = site_main,
	.summary = "write a static dashboard of the whole history",
	.synopsis = "-o DIR [OPTIONS]",
	.options = options,
	.text = "Writes DIR/index.html (every series by benchmark group, what needs attention\n"
		"first), DIR/b/BENCHMARK.html (history charts, change points, outliers,\n"
		"environment) and DIR/r/runN.html (attributes, comparison with the run before\n"
		"on its branch). No external scripts, fonts or styles: it works from file://.\n"
		"A rerun writes only the pages whose data changed (DIR/perfdb-site.manifest).\n"
		"Prints the index's path and what was written. Exit: 0, 2 usage, 3 unknown\n"
		"run, 4 database or file error.\n",
};

/* --where parts are gathered in where, which o->where points to. */
static int parse_options(int argc, char **argv, struct cmd_ctx *ctx, struct pdb_site_opts *o,
			 struct pdb_buf *where, const char **config)
{
	int c, status;

	o->title = cmd_default_text(&cmd_site, "title");
	while ((c = cmd_next_option(argc, argv, &cmd_site)) != -1) {
		switch (c) {
		case 'o': o->outdir = cmd_output_dir(optarg); break;
		case 'w':
			if ((status = cmd_add_where(&cmd_site, where, optarg)) >= 0)
				return status;
			o->where = where->data;
			break;
		case OPT_SINCE: o->since = optarg; break;
		case OPT_TITLE: o->title = optarg; break;
		case 'c': *config = optarg; break;
		case OPT_BASE_URL:
			if (strncmp(optarg, "http://", 7) != 0 && strncmp(optarg, "https://", 8) != 0)
				return cmd_usage_error(&cmd_site, "--base-url must start with http:// "
						       "or https://, got '%s'", optarg);
			o->base_url = optarg;
			break;
		case 'j': o->jobs = (int)cmd_arg.count; break;
		default:
			if ((status = cmd_common_option(&cmd_site, ctx, c)) >= 0)
				return status;
		}
	}
	if (optind != argc)
		return cmd_usage_error(&cmd_site, "unexpected argument '%s'", argv[optind]);
	if (!o->outdir || !*o->outdir)
		return cmd_usage_error(&cmd_site, "missing -o DIR");
	return -1;
}

static int site_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct pdb_site_opts o = { .jobs = pdb_exec_cpus_allowed() };
	struct pdb_site_stats st = { 0 };
	struct pdb_store *store = NULL;
	struct pdb_compare_config cfg;
	struct pdb_buf where;
	struct pdb_err err;
	const char *config = NULL;
	char *base = NULL;
	int status;

	pdb_buf_init(&where);
	pdb_compare_config_init(&cfg);
	if ((status = parse_options(argc, argv, ctx, &o, &where, &config)) >= 0)
		goto out;
	if (cmd_compare_config(config, &cfg, &o.config, &err) < 0) {
		status = cmd_fail("site", &err);
		goto out;
	}
	/* page paths are appended to the base: it ends with a slash */
	if (o.base_url && o.base_url[strlen(o.base_url) - 1] != '/')
		o.base_url = base = pdb_xasprintf("%s/", o.base_url);
	if (!(store = cmd_open_existing_store(ctx, &err)) || pdb_site_write(store, &o, &st, &err) < 0) {
		status = cmd_fail("site", &err);
		goto out;
	}
	for (size_t i = 0; i < st.nnotes; i++)
		cmd_say("site", "%s", st.notes[i]);
	printf("%s/index.html\n", o.outdir);
	printf("%zu page%s written, %zu up to date, %zu removed; index %.1f kB; %zu series in "
	       "%zu benchmark%s over %zu run%s\n", st.written, st.written == 1 ? "" : "s",
	       st.pages - st.written, st.removed, st.index_bytes / 1000.0, st.series,
	       st.benchmarks, st.benchmarks == 1 ? "" : "s", st.runs, st.runs == 1 ? "" : "s");
	status = PDB_EXIT_OK;
out:
	pdb_site_stats_release(&st);
	pdb_store_close(store);
	pdb_buf_release(&where);
	pdb_compare_config_release(&cfg);
	free(base);
	return status;
}
