/* perfdb compare: two runs (or run groups), a verdict per series, an exit status for CI. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "compare_output.h"
#include "util.h"

static int compare_main(int argc, char **argv, struct cmd_ctx *ctx);

const struct command cmd_compare = {
	"compare", compare_main,
	"perfdb compare [OPTIONS] BASE CANDIDATE\n"
	"  -F, --format FMT     text (default), markdown, json, junit or csv\n"
	"  -t, --threshold PCT  fail level in % (default 5, 10 for p95 and beyond)\n"
	"  -a, --alpha A        significance level (default 0.01)\n"
	"  -c, --config FILE    thresholds, directions, ignores (default ./perfdb.yaml)\n"
	"  -m, --metric GLOB    only metrics matching GLOB\n"
	"  -b, --bench GLOB     only benchmarks matching GLOB\n"
	"      --fail-on LIST   verdicts that fail the gate, comma-separated (default\n"
	"                       regression,failed; add missing, insufficient,\n"
	"                       inconclusive; never: report only)\n"
	"      --all            also show constant and bookkeeping series\n"
	"      --holm           Holm-adjust p-values across series\n"
	"      --strict-env     exit 3 when cpu_model, vcpus or host differ\n"
	"  -n, --last N         BASE is the last N runs matching its selector\n"
	"      --cand-last N    CANDIDATE is the last N runs matching its selector\n"
	"      --db FILE        the database\n"
	"BASE, CANDIDATE: a run selector (run42, latest~1, latest:branch=main) or a\n"
	"comma-separated group (run40,run41,run42); a group's runs give one value each.\n"
	"Exit: 0 pass, 1 the gate fails (a regression, a failed benchmark, or a run that\n"
	"ended failed), 2 usage, 3 unknown run or no series in common, 4 database error.\n",
	"compare two runs or run groups, exit 1 on a regression",
};

enum { FMT_TEXT, FMT_MARKDOWN, FMT_JSON, FMT_JUNIT, FMT_CSV };
enum { OPT_FAIL_ON = 0x2000, OPT_HOLM, OPT_STRICT_ENV, OPT_CAND_LAST, OPT_ALL };

struct compare_opts {
	int format, strict_env, last, cand_last;
	const char *config;
	struct compare_view view;
	struct pdb_compare_opts cmp;
};

/* ---- main ---- */

/* --fail-on: a comma list of verdicts, or never. 0, or -1 with the bad word in bad. */
static int parse_fail_on(const char *text, unsigned *out, char *bad, size_t size)
{
	char *copy = pdb_xstrdup(text), *save = NULL;
	int ret = 0;

	*out = 0;
	for (char *w = strtok_r(copy, ",", &save); w && ret == 0; w = strtok_r(NULL, ",", &save)) {
		int v = pdb_verdict_parse(w);
		if (strcmp(w, "never") == 0 && !strchr(text, ','))
			*out = 0;
		else if (v >= 0 && v != PDB_VERDICT_UNCHANGED && v != PDB_VERDICT_IMPROVEMENT &&
			 v != PDB_VERDICT_NEW)
			*out |= 1u << v;
		else {
			snprintf(bad, size, "%s", w);
			ret = -1;
		}
	}
	if (ret == 0 && !*copy) {
		snprintf(bad, size, "%s", text);
		ret = -1;
	}
	free(copy);
	return ret;
}

static int parse_pct(const char *s, double lo, double hi, double *out)
{
	return pdb_parse_double(s, out) == 0 && *out >= lo && *out <= hi ? 0 : -1;
}

static int parse_options(int argc, char **argv, struct cmd_ctx *ctx, struct compare_opts *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, 0, 'F' },
		{ "threshold", required_argument, 0, 't' },
		{ "alpha", required_argument, 0, 'a' },
		{ "config", required_argument, 0, 'c' },
		{ "metric", required_argument, 0, 'm' },
		{ "bench", required_argument, 0, 'b' },
		{ "last", required_argument, 0, 'n' },
		{ "cand-last", required_argument, 0, OPT_CAND_LAST },
		{ "fail-on", required_argument, 0, OPT_FAIL_ON },
		{ "holm", no_argument, 0, OPT_HOLM },
		{ "strict-env", no_argument, 0, OPT_STRICT_ENV },
		{ "all", no_argument, 0, OPT_ALL },
		CMD_COMMON_OPTIONS,
		{ 0, 0, 0, 0 },
	};
	static const char *const formats[] = { "text", "markdown", "json", "junit", "csv", NULL };
	char bad[128];
	int c, status;
	int64_t n;

	while ((c = cmd_getopt(argc, argv, "F:t:a:c:m:b:n:h", longopts, &cmd_compare)) != -1) {
		switch (c) {
		case 'F':
			if ((o->format = cmd_parse_format(optarg, formats)) < 0)
				return cmd_usage_error(&cmd_compare, "unknown format '%s'", optarg);
			break;
		case 't':
			if (parse_pct(optarg, 0, 1e6, &o->cmp.threshold_pct) < 0)
				return cmd_usage_error(&cmd_compare,
						       "--threshold: expected a percentage, not '%s'",
						       optarg);
			break;
		case 'a':
			if (parse_pct(optarg, 1e-12, 0.5, &o->cmp.alpha) < 0)
				return cmd_usage_error(&cmd_compare,
						       "--alpha: expected a number in (0, 0.5], not '%s'",
						       optarg);
			break;
		case 'c': o->config = optarg; break;
		case 'm': o->cmp.metric_glob = optarg; break;
		case 'b': o->cmp.bench_glob = optarg; break;
		case 'n':
		case OPT_CAND_LAST:
			if (pdb_parse_int64(optarg, 1, 100000, &n) < 0)
				return cmd_usage_error(&cmd_compare, "--%s: expected a count, not '%s'",
						       c == 'n' ? "last" : "cand-last", optarg);
			*(c == 'n' ? &o->last : &o->cand_last) = (int)n;
			break;
		case OPT_FAIL_ON:
			if (parse_fail_on(optarg, &o->view.fail_on, bad, sizeof bad) < 0)
				return cmd_usage_error(&cmd_compare,
						       "--fail-on: unknown verdict '%s' (expected a comma "
						       "list of failed, regression, missing, insufficient, "
						       "inconclusive, or never)", bad);
			break;
		case OPT_ALL: o->view.all = 1; break;
		case OPT_HOLM: o->cmp.holm = 1; break;
		case OPT_STRICT_ENV: o->strict_env = 1; break;
		default:
			if ((status = cmd_common_option(&cmd_compare, ctx, c)) >= 0)
				return status;
		}
	}
	if (optind + 2 != argc)
		return cmd_usage_error(&cmd_compare, "expected BASE and CANDIDATE");
	return -1;
}

static int env_check(const struct pdb_compare *c, int strict)
{
	for (size_t i = 0; i < c->nenv; i++)
		fprintf(stderr, "perfdb: compare: %senvironments differ: %s '%s' (baseline) vs "
			"'%s' (candidate)\n", strict ? "" : "warning: ", c->env[i].key,
			c->env[i].base, c->env[i].cand);
	return strict && c->nenv ? -1 : 0;
}

/* One line on stderr for each thing the table alone could hide: runs that did
 * not complete, series too small to judge. */
static void warn(const struct pdb_compare *c)
{
	size_t small = 0, other = 0;
	const char *first = NULL;

	for (size_t side = 0; side < 2; side++) {
		const struct pdb_compare_run *runs = side ? c->cand : c->base;
		size_t n = side ? c->ncand : c->nbase;
		for (size_t i = 0; i < n; i++)
			if (strcmp(runs[i].status, "complete") != 0)
				fprintf(stderr, "perfdb: compare: warning: %s run%lld ended %s: its "
					"benchmarks may not have run\n", side ? "candidate" : "baseline",
					(long long)runs[i].id, runs[i].status);
	}
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		if (r->verdict != PDB_VERDICT_INSUFFICIENT)
			continue;
		if (r->n_base >= 2 && r->n_cand >= 2 && (r->n_base < c->min_n || r->n_cand < c->min_n))
			small++;
		else if (!other++)
			first = r->reason;
	}
	if (small)
		fprintf(stderr, "perfdb: compare: %zu series insufficient: the exact test needs at "
			"least %zu values a side at alpha %g (more repetitions, or --alpha)\n",
			small, c->min_n, c->alpha);
	if (other)
		fprintf(stderr, "perfdb: compare: %zu series insufficient: %s\n", other,
			first ? first : "too few values");
}

static int compare_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct compare_opts o = { .view = { .fail_on = PDB_FAIL_ON_DEFAULT } };
	struct pdb_compare_config cfg;
	struct pdb_store *store = NULL;
	struct pdb_compare result = { 0 };
	struct pdb_err err;
	int64_t *base = NULL, *cand = NULL;
	size_t nbase = 0, ncand = 0;
	int status;

	pdb_compare_opts_init(&o.cmp);
	pdb_compare_config_init(&cfg);
	if ((status = parse_options(argc, argv, ctx, &o)) >= 0)
		goto out;
	if (cmd_compare_config(o.config, &cfg, &o.cmp.config, &err) < 0) {
		status = cmd_fail("compare", &err);
		goto out;
	}
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    pdb_store_resolve_group(store, argv[optind], o.last, &base, &nbase, &err) < 0 ||
	    pdb_store_resolve_group(store, argv[optind + 1], o.cand_last, &cand, &ncand,
				    &err) < 0 ||
	    pdb_compare_run_groups(store, base, nbase, cand, ncand, &o.cmp, &result, &err) < 0) {
		status = cmd_fail("compare", &err);
		goto out;
	}
	if (env_check(&result, o.strict_env) < 0) {
		status = PDB_EXIT_INPUT;
		goto out;
	}
	o.view.failed = pdb_compare_failed(&result, o.view.fail_on);
	switch (o.format) {
	case FMT_TEXT: compare_print_text(&result, &o.view, stdout); break;
	case FMT_MARKDOWN: compare_print_markdown(&result, &o.view, stdout); break;
	case FMT_JSON: compare_print_json(&result, &o.view, stdout); break;
	case FMT_JUNIT: compare_print_junit(&result, &o.view, stdout); break;
	default: compare_print_csv(&result, &o.view, stdout); break;
	}
	warn(&result);
	status = o.view.failed ? PDB_EXIT_REGRESSION : PDB_EXIT_OK;
	if (!o.view.failed && pdb_compare_in_common(&result) == 0) {
		fprintf(stderr, "perfdb: compare: no series in common: %zu new, %zu missing "
			"(were the benchmarks renamed, or filtered out?)\n",
			result.counts[PDB_VERDICT_NEW], result.counts[PDB_VERDICT_MISSING]);
		status = PDB_EXIT_INPUT;
	}
out:
	pdb_compare_release(&result);
	pdb_compare_config_release(&cfg);
	free(base);
	free(cand);
	pdb_store_close(store);
	return status;
}
