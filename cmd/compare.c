/* perfdb compare: two runs (or run groups), a verdict per series, an exit status for CI. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "compare_gate.h"
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
	"      --title TEXT     markdown: a heading above the summary (shards appending\n"
	"                       to one file stay apart)\n"
	"      --holm           Holm-adjust p-values across series\n"
	"      --strict-env     exit 3 when cpu_model, vcpus or host differ\n"
	"  -n, --last N         BASE is the last N runs matching its selector\n"
	"      --cand-last N    CANDIDATE is the last N runs matching its selector\n"
	"      --db FILE        the database\n"
	"BASE, CANDIDATE: a run selector (run42, latest~1, latest:branch=main) or a\n"
	"comma-separated group (run40,run41,run42); a group's runs give one value each.\n"
	"Exit: 0 pass, 1 the gate fails (a regression, a failed benchmark, or a candidate\n"
	"run that ended failed), 2 usage, 3 unknown run or no series in common, 4 database\n"
	"error.\n",
	"compare two runs or run groups, exit 1 on a regression",
};

enum { OPT_CAND_LAST = 0x2000 };

struct compare_opts {
	int last, cand_last;
	struct compare_gate gate;
};

static int parse_options(int argc, char **argv, struct cmd_ctx *ctx, struct compare_opts *o)
{
	static const struct option longopts[] = {
		COMPARE_GATE_OPTIONS,
		{ "last", required_argument, 0, 'n' },
		{ "cand-last", required_argument, 0, OPT_CAND_LAST },
		CMD_COMMON_OPTIONS,
		{ 0, 0, 0, 0 },
	};
	int c, status;
	int64_t n;

	while ((c = cmd_getopt(argc, argv, "F:t:a:c:m:b:n:h", longopts, &cmd_compare)) != -1) {
		const char *letter = c > 0 && c < 0x100 ? strchr(COMPARE_GATE_LETTERS, c) : NULL;
		if (letter)
			c = GATE_FORMAT + (int)(letter - COMPARE_GATE_LETTERS);
		if ((status = compare_gate_option(&o->gate, &cmd_compare, c, optarg)) >= 0) {
			if (status)
				return status;
			continue;
		}
		switch (c) {
		case 'n':
		case OPT_CAND_LAST:
			if (pdb_parse_int64(optarg, 1, 100000, &n) < 0)
				return cmd_usage_error(&cmd_compare, "--%s: expected a count, not '%s'",
						       c == 'n' ? "last" : "cand-last", optarg);
			*(c == 'n' ? &o->last : &o->cand_last) = (int)n;
			break;
		default:
			if ((status = cmd_common_option(&cmd_compare, ctx, c)) >= 0)
				return status;
		}
	}
	if (optind + 2 != argc)
		return cmd_usage_error(&cmd_compare, "expected BASE and CANDIDATE");
	return -1;
}

/* A run in both groups (latest:branch=main and latest on main) is compared
 * with itself: say so, since nothing else would. */
static void warn_same_run(const int64_t *base, size_t nbase, const int64_t *cand, size_t ncand)
{
	for (size_t i = 0; i < nbase; i++)
		for (size_t k = 0; k < ncand; k++)
			if (base[i] == cand[k]) {
				fprintf(stderr, "perfdb: compare: warning: run%lld is both the baseline "
					"and the candidate: it is compared with itself\n", (long long)base[i]);
				return;
			}
}

static int compare_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct compare_opts o = { 0 };
	struct pdb_store *store = NULL;
	struct pdb_err err;
	int64_t *base = NULL, *cand = NULL;
	size_t nbase = 0, ncand = 0;
	int status;

	compare_gate_init(&o.gate);
	if ((status = parse_options(argc, argv, ctx, &o)) >= 0 ||
	    (status = compare_gate_config(&o.gate, "compare")) != 0)
		goto out;
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    pdb_store_resolve_group(store, argv[optind], o.last, &base, &nbase, &err) < 0 ||
	    pdb_store_resolve_group(store, argv[optind + 1], o.cand_last, &cand, &ncand,
				    &err) < 0) {
		status = cmd_fail("compare", &err);
		goto out;
	}
	warn_same_run(base, nbase, cand, ncand);
	status = compare_gate_run(&o.gate, store, base, nbase, cand, ncand, "compare");
out:
	compare_gate_release(&o.gate);
	free(base);
	free(cand);
	pdb_store_close(store);
	return status;
}
