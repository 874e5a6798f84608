/* perfdb compare: two runs (or run groups), a verdict per series, an exit status for CI. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "compare_against.h"
#include "compare_gate.h"
#include "dim_filter.h"
#include "util.h"

static int compare_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_LAST = CMD_LONG_ONLY, OPT_CAND_LAST, OPT_AGAINST };

static const struct cmd_option options[] = {
	COMPARE_GATE_OPTIONS,
	{ "last", OPT_LAST, "N", "BASE is the last N runs matching its selector",
	  .type = CMD_COUNT, .min = 1, .max = 100000 },
	{ "cand-last", OPT_CAND_LAST, "N", "CANDIDATE is the last N runs matching its selector",
	  .type = CMD_COUNT, .min = 1, .max = 100000 },
	{ "against", OPT_AGAINST, "BENCH", "compare the benchmark --bench names (the candidate)\n"
					   "against BENCH (the baseline), in one RUN or from\n"
					   "BASE and CANDIDATE" },
	{ "dim", 'd', "K=V", CMD_DIM_HELP },
	{ 0 },
};

const struct command cmd_compare = {
	.name = "compare", .run = compare_main,
	.summary = "compare two runs or run groups, exit 1 on a regression",
	.synopsis = "[OPTIONS] BASE CANDIDATE | RUN --bench A --against B",
	.options = options,
	.text = "BASE, CANDIDATE: a run selector (run42, latest~1, latest:branch=main) or a\n"
		"comma-separated group (run40,run41,run42); a group's runs give one value each.\n"
		"--against: two benchmarks side by side, series matched by metric and dims,\n"
		"shown as 'A against B' (trace against log: the first's change from the\n"
		"second's); A and B each an exact name or a glob matching one benchmark.\n"
		"Exit: 0 pass, 1 the gate fails (a regression, a failed benchmark, or a candidate\n"
		"run that ended failed), 2 usage, 3 unknown run or no series in common, 4 database\n"
		"error.\n",
	.operand = CMD_OPERAND_RUN,
};

struct compare_opts {
	int last, cand_last;
	const char *against;
	struct compare_gate gate;
	struct pdb_dim_filter dims;
};

static int parse_options(int argc, char **argv, struct cmd_ctx *ctx, struct compare_opts *o)
{
	int c, status;

	while ((c = cmd_next_option(argc, argv, &cmd_compare)) != -1) {
		if ((status = compare_gate_option(&o->gate, &cmd_compare, c)) >= 0) {
			if (status)
				return status;
			continue;
		}
		switch (c) {
		case OPT_LAST: o->last = (int)cmd_arg.count; break;
		case OPT_CAND_LAST: o->cand_last = (int)cmd_arg.count; break;
		case OPT_AGAINST:
			o->against = optarg;
			break;
		case 'd':
			if ((status = cmd_add_dim(&cmd_compare, &o->dims, optarg)) >= 0)
				return status;
			o->gate.cmp.dims = &o->dims;
			break;
		default:
			if ((status = cmd_common_option(&cmd_compare, ctx, c)) >= 0)
				return status;
		}
	}
	if (o->against && !o->gate.cmp.bench_glob)
		return cmd_usage_error(&cmd_compare, "--against B compares the benchmark --bench A names: "
				       "give --bench");
	if (o->against && optind + 1 == argc)
		return -1; /* one run: both benchmarks of it */
	if (optind + 2 != argc)
		return cmd_usage_error(&cmd_compare, o->against ? "expected RUN, or BASE and CANDIDATE"
				       : "expected BASE and CANDIDATE");
	return -1;
}

/* A run in both groups (latest:branch=main and latest on main) is compared
 * with itself: say so, since nothing else would (the headline does when the
 * groups are the same runs). */
static void warn_same_run(const int64_t *base, size_t nbase, const int64_t *cand, size_t ncand)
{
	size_t same = 0;

	for (size_t i = 0; nbase == ncand && i < ncand; i++)
		for (size_t k = 0; k < nbase; k++)
			same += base[k] == cand[i];
	if (nbase == ncand && same == ncand)
		return;
	for (size_t i = 0; i < nbase; i++)
		for (size_t k = 0; k < ncand; k++)
			if (base[i] == cand[k]) {
				fprintf(stderr, "perfdb: compare: warning: run%lld is both the baseline "
					"and the candidate: it is compared with itself\n", (long long)base[i]);
				return;
			}
}

/* The runs of ids as sides of --against: each the benchmark bench names, as label. */
static int against_sides(struct pdb_store *store, const int64_t *ids, size_t n, const char *bench,
			 const char *label, struct pdb_run ***out, struct pdb_err *err)
{
	*out = pdb_xcalloc(n + 1, sizeof **out);
	for (size_t i = 0; i < n; i++) {
		struct pdb_run *run = pdb_store_load_run(store, ids[i], err);
		int rc = run ? pdb_compare_bench_side(run, bench, label, &(*out)[i], err) : -1;
		pdb_run_free(run);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static void free_sides(struct pdb_run **runs, size_t n)
{
	for (size_t i = 0; runs && i < n; i++)
		pdb_run_free(runs[i]);
	free(runs);
}

/* compare --bench A --against B: B's series of BASE (or RUN) against A's of CANDIDATE (or RUN). */
static int compare_against(struct compare_opts *o, struct pdb_store *store, const int64_t *base,
			   size_t nbase, const int64_t *cand, size_t ncand)
{
	const char *a = o->gate.cmp.bench_glob;
	char *label = strcmp(a, o->against) == 0 ? pdb_xstrdup(a) : pdb_xasprintf("%s against %s", a, o->against);
	struct pdb_run **bruns = NULL, **cruns = NULL;
	struct pdb_err err;
	int status;

	o->gate.cmp.bench_glob = NULL; /* each side holds its one benchmark */
	if (against_sides(store, base, nbase, o->against, label, &bruns, &err) < 0 ||
	    against_sides(store, cand, ncand, a, label, &cruns, &err) < 0)
		status = cmd_fail("compare", &err);
	else
		status = compare_gate_run_runs(&o->gate, store, bruns, nbase, cruns, ncand, "compare");
	o->gate.cmp.bench_glob = a;
	free_sides(bruns, nbase);
	free_sides(cruns, ncand);
	free(label);
	return status;
}

static int compare_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct compare_opts o = { 0 };
	struct pdb_store *store = NULL;
	struct pdb_err err;
	int64_t *base = NULL, *cand = NULL;
	size_t nbase = 0, ncand = 0;
	int status;

	compare_gate_init(&o.gate, &cmd_compare);
	if ((status = parse_options(argc, argv, ctx, &o)) >= 0 ||
	    (status = compare_gate_config(&o.gate, "compare")) != 0)
		goto out;
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    pdb_store_resolve_group(store, argv[optind], o.last, &base, &nbase, &err) < 0 ||
	    pdb_store_resolve_group(store, argv[optind + (optind + 1 < argc)], o.cand_last, &cand, &ncand,
				    &err) < 0) {
		status = cmd_fail("compare", &err);
		goto out;
	}
	if (o.against) {
		status = compare_against(&o, store, base, nbase, cand, ncand);
		goto out;
	}
	warn_same_run(base, nbase, cand, ncand);
	status = compare_gate_run(&o.gate, store, base, nbase, cand, ncand, "compare");
out:
	compare_gate_release(&o.gate);
	pdb_dim_filter_release(&o.dims);
	free(base);
	free(cand);
	pdb_store_close(store);
	return status;
}
