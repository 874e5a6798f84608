/* perfdb report: a candidate against its baseline as a Markdown and HTML page with charts. */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare_config.h"
#include "report.h"

static int report_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_TEMPLATES = CMD_LONG_ONLY, OPT_BASELINE, OPT_TITLE };

static const char *const formats[] = { "markdown", "html", "both", NULL };
/* what each of formats writes */
static const unsigned format_bits[] = { PDB_REPORT_MARKDOWN, PDB_REPORT_HTML,
					PDB_REPORT_MARKDOWN | PDB_REPORT_HTML };

static const struct cmd_option options[] = {
	{ "output", 'o', "DIR", "where to write index.md, index.html and the charts\n"
				"(NAME.png and NAME.svg); made when missing" },
	{ "baseline", OPT_BASELINE, "RUN", "the run to compare with (default: the newest run before\n"
					   "CANDIDATE with a series in common, on its branch, else\n"
					   "on any branch: the site's rule)" },
	{ "where", 'w', "K=V[,K=V]", "the runs of the history charts and of the default\n"
				     "baseline (default: the candidate's branch)" },
	{ "title", OPT_TITLE, "TEXT", "the page's title" },
	{ "format", 'F', "FMT", "markdown, html or both", .choices = formats, .def = "both" },
	{ "config", 'c', "FILE", "thresholds, directions, ignores (default ./perfdb.yaml)" },
	{ "templates", OPT_TEMPLATES, "DIR", "read report.md.tmpl and report.html.tmpl from DIR\n"
					     "instead of the built-in ones (see reports/)" },
	{ 0 },
};

const struct command cmd_report = {
	.name = "report", .run = report_main,
	.summary = "write a Markdown and HTML report of a candidate against its baseline, or of a run",
	.synopsis = "CANDIDATE -o DIR [OPTIONS]",
	.options = options,
	.text = "Sections: verdict and geometric means, the comparison (worst first), scaling\n"
		"(vcpus dimension), the candidate's tables by matrix point, latency percentiles\n"
		"and sampled resources, history of the series that changed with their change\n"
		"points, and both runs' environment side by side.\n"
		"Without a baseline (none given, and no run before has a series in common with\n"
		"CANDIDATE, which is said) the run's own report: the outcome of its capacity\n"
		"searches, a table per set of dims of each benchmark (a stream's sender, its\n"
		"stages, the processes sampled: means of the samples, a histogram's p50, p99\n"
		"and max), its charts and its attributes.\n"
		"Prints the files written. Exit: 0 written (whatever the verdict), 2 usage,\n"
		"3 unknown run or bad template, 4 database or file error.\n",
	.operand = CMD_OPERAND_RUN,
};

struct report_cli {
	const char *baseline, *config;
	struct pdb_buf where;
	struct pdb_report_opts opts;
};

static int parse_options(int argc, char **argv, struct cmd_ctx *ctx, struct report_cli *o)
{
	int c, status;

	o->opts.formats = format_bits[cmd_default_choice(&cmd_report, "format")];
	while ((c = cmd_next_option(argc, argv, &cmd_report)) != -1) {
		switch (c) {
		case 'o': o->opts.outdir = cmd_output_dir(optarg); break;
		case OPT_BASELINE: o->baseline = optarg; break;
		case OPT_TITLE: o->opts.title = optarg; break;
		case 'w':
			if ((status = cmd_add_where(&cmd_report, &o->where, optarg)) >= 0)
				return status;
			o->opts.where = o->where.data;
			break;
		case 'F': o->opts.formats = format_bits[cmd_arg.choice]; break;
		case 'c': o->config = optarg; break;
		case OPT_TEMPLATES: o->opts.templates_dir = optarg; break;
		default:
			if ((status = cmd_common_option(&cmd_report, ctx, c)) >= 0)
				return status;
		}
	}
	if (optind + 1 != argc)
		return cmd_usage_error(&cmd_report, optind >= argc ? "expected the CANDIDATE run"
				       : "expected one CANDIDATE run, got '%s' too", argv[argc - 1]);
	if (!o->opts.outdir || !*o->opts.outdir)
		return cmd_usage_error(&cmd_report, "missing -o DIR");
	return -1;
}

/* The default baseline, else 0: the run's own report, said, when no run
 * before has a series in common with it. */
static int own_or_baseline(struct pdb_store *store, int64_t cand, const char *where,
			   int64_t *base, struct pdb_err *err)
{
	if (pdb_report_default_baseline(store, cand, where, base, err) < 0)
		return -1;
	if (*base == 0)
		cmd_say("report", "no run before run%lld%s%s has a series in common with it: the "
			"run's own report, without a comparison (give a baseline with --baseline)",
			(long long)cand, where ? " matching " : "", where ? where : "");
	return 0;
}

static int report_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct report_cli o = { 0 };
	struct pdb_compare_config cfg;
	struct pdb_report_files files = { 0 };
	struct pdb_store *store = NULL;
	struct pdb_err err;
	int64_t base = 0, cand = 0;
	int status;

	pdb_compare_config_init(&cfg);
	pdb_buf_init(&o.where);
	if ((status = parse_options(argc, argv, ctx, &o)) >= 0)
		goto out;
	if (cmd_compare_config(o.config, &cfg, &o.opts.config, &err) < 0) {
		status = cmd_fail("report", &err);
		goto out;
	}
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    pdb_store_resolve(store, argv[optind], &cand, &err) < 0 ||
	    (o.baseline ? pdb_store_resolve(store, o.baseline, &base, &err)
			: own_or_baseline(store, cand, o.opts.where, &base, &err)) < 0 ||
	    pdb_report_write(store, base, cand, &o.opts, &files, &err) < 0) {
		status = cmd_fail("report", &err);
		goto out;
	}
	for (size_t i = 0; i < files.nnotes; i++)
		cmd_say("report", "%s", files.notes[i]);
	for (size_t i = 0; i < files.n; i++)
		printf("%s\n", files.paths[i]);
	status = PDB_EXIT_OK;
out:
	pdb_report_files_release(&files);
	pdb_buf_release(&o.where);
	pdb_compare_config_release(&cfg);
	pdb_store_close(store);
	return status;
}
