/* perfdb run: run a benchmark spec (matrix, warm-ups, repetitions) and store the run. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "compare_gate.h"
#include "fingerprint.h"
#include "kafka/workload_spec.h"
#include "logstream/spec.h"
#include "run_adaptive.h"
#include "runner/checkout.h"
#include "runner/placeholder.h"
#include "runner/runner.h"
#include "util.h"

static int run_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_DRY_RUN = CMD_LONG_ONLY, OPT_VARIANT, OPT_COMPARE, OPT_BUDGET, OPT_MAX_REPEAT, OPT_ONLY, OPT_MEASURE };

static const struct cmd_option options[] = {
	{ "name", 'n', "NAME", "a unique name for the run" },
	{ "attr", 'a', "K=V", "set a run attribute (repeatable)" },
	{ "only", OPT_ONLY, "GLOB", "run only the benchmarks whose name matches" },
	{ "repeat", 'r', "N|auto", "repetitions of every benchmark (overrides the spec);\n"
				   "auto, with two variants: add pairs (ABBA) until every\n"
				   "gated series is conclusive, looking at a fixed schedule\n"
				   "of pair counts, each look at alpha / looks (Bonferroni)" },
	{ "measure", OPT_MEASURE, "LIST", "instruments every benchmark's measured repetitions run\n"
					  "under (overrides the spec's measure:), comma-separated:\n"
					  "instructions (hardware counters, else valgrind's\n"
					  "cachegrind in a second run of each), cycles,\n"
					  "branch-misses, cache-misses (counters only); none" },
	{ "max-repeat", OPT_MAX_REPEAT, "N", "pairs of --repeat auto at most (spec max_repeat:, 1000:\n"
					   "the budget is the bound)",
	  .type = CMD_COUNT, .min = 2, .max = 1000000 },
	{ "budget", OPT_BUDGET, "SECONDS", "measuring time of --repeat auto: no look starts whose\n"
					   "pairs would not fit (spec budget:, 300)",
	  .type = CMD_NUMBER, .min = 0, .above = 1, .max = INFINITY },
	{ "variant", OPT_VARIANT, "NAME:KEY=VALUE", "an A/B variant, its {KEY} in commands\n"
						   "(repeatable; the first NAME is the base, the second\n"
						   "the candidate; replaces the spec's variants);\n"
						   "NAME:git=REV checks REV out into a temporary\n"
						   "worktree, {dir}, and runs the spec's build there\n"
						   "(alone: the candidate is the current checkout)", NULL },
	{ "dry-run", OPT_DRY_RUN, NULL, "print the expanded plan and run nothing" },
	{ "compare", OPT_COMPARE, NULL, "after an A/B run, compare the candidate with the base\n"
					"and exit with compare's status; the options below are\n"
					"compare's (perfdb compare -h), and need --compare" },
	COMPARE_GATE_OPTIONS,
	{ 0 },
};

const struct command cmd_run = {
	.name = "run", .run = run_main,
	.summary = "run a benchmark spec and store the measurements as a run",
	.synopsis = "[OPTIONS] SPEC.yaml",
	.options = options,
	.text = "Prints the new run's id; with two variants both (\"run7 base\", \"run8 cand\",\n"
		"on stderr with --compare), stored as NAME-base and NAME-cand with --name.\n"
		"Ctrl-C stores what finished (status interrupted), exit 130.\n"
		"What a setup leaves running (cmd &) lives through its benchmark's matrix\n"
		"point and is stopped by process group after the teardown (and on Ctrl-C).\n",
	.operand = CMD_OPERAND_FILE,
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct progress_ctx {
	int tty;
	const struct pdb_spec *spec;
	const struct pdb_plan *plan;
	struct adaptive *adaptive;         /* --repeat auto, or NULL */
};

static const char *step_name(int kind)
{
	static const char *names[] = { "setup", "warmup", "rep", "teardown" };
	return names[kind];
}

static int reps_of(const struct pdb_plan *plan, const struct pdb_step *s)
{
	int n = 0;
	for (size_t i = 0; i < plan->nsteps; i++)
		n += plan->steps[i].kind == s->kind && plan->steps[i].bench == s->bench &&
		     plan->steps[i].point == s->point && plan->steps[i].variant == s->variant;
	return n;
}

/* Every string of a progress line (benchmark names, points, variants, the
 * benchmark's own messages) escaped for the terminal. */
static void progress(void *vctx, const struct pdb_progress *p)
{
	struct progress_ctx *c = vctx;
	char raw[256], *where, *why;
	int failed;

	if (p->event == PDB_PROGRESS_WARNING || p->event == PDB_PROGRESS_NOTE) {
		char *msg = cmd_escape_controls(p->message);
		fprintf(stderr, "%sperfdb: run: %s%s\n", c->tty ? "\r\033[K" : "",
			p->event == PDB_PROGRESS_WARNING ? "warning: " : "", msg);
		free(msg);
		return;
	}
	snprintf(raw, sizeof raw, "%s%s%s%s%s%s %s %d/%d", p->bench, *p->point ? " " : "", p->point,
		 p->variant ? " (" : "", p->variant ? p->variant : "", p->variant ? ")" : "",
		 step_name(p->s->kind), p->s->rep + 1, reps_of(c->plan, p->s));
	where = cmd_escape_controls(raw);
	why = p->why ? cmd_escape_controls(p->why) : NULL;
	failed = p->event == PDB_PROGRESS_DONE && (p->res->status != 0 || p->res->timed_out || p->why);
	if (c->tty && !failed) {
		int width = 24, done = (int)(width * (p->step + (p->event == PDB_PROGRESS_DONE)) / p->nsteps);
		fprintf(stderr, "\r\033[K[%.*s%*s] %zu/%zu %s  ETA %d:%02d", done,
			"########################", width - done, "", p->step + 1, p->nsteps, where,
			(int)p->eta / 60, (int)p->eta % 60);
		if (p->event == PDB_PROGRESS_DONE && p->step + 1 == p->nsteps)
			fputs("\r\033[K", stderr);
	} else if (p->event == PDB_PROGRESS_DONE) { /* a failure is a line of its own, at once */
		fprintf(stderr, "%sperfdb: run: [%zu/%zu] %s: %s %.3f s%s%s%s\n", c->tty ? "\r\033[K" : "",
			p->step + 1, p->nsteps, where, failed ? "FAILED" : "ok", p->res->wall,
			p->res->timed_out ? " (timed out)" : "", why ? ": " : "", why ? why : "");
	}
	free(where);
	free(why);
}

static int on_look(void *vctx, const struct pdb_look *l)
{
	struct progress_ctx *c = vctx;
	return adaptive_look(c->adaptive, l);
}

/* The command of a build or step, its {KEY}s those of variant v at point. */
static void print_argv(const struct pdb_spec *spec, size_t bench, size_t point, size_t v,
		       const struct pdb_command *c)
{
	char *text;

	if (c->shell) {
		text = pdb_placeholder_expand(spec, bench, point, v, c->shell);
		printf("%s", text);
		free(text);
		return;
	}
	for (size_t i = 0; c->argv[i]; i++) {
		text = pdb_placeholder_expand(spec, bench, point, v, c->argv[i]);
		printf(strpbrk(text, " \t'\"$") ? "%s'%s'" : "%s%s", i ? " " : "", text);
		free(text);
	}
}

/* A capacity search as --dry-run says it. */
static void print_search(const struct pdb_capacity *c, double duration, double drain, const char *unit,
			 int settles)
{
	char until[512], tolerance[32];

	pdb_capacity_until_text(c, until, sizeof until);
	pdb_pct_words(c->tolerance, NAN, 0, tolerance, sizeof tolerance);
	printf("capacity search %s %s: steps of %g s (+ up to %g s drain), first at %.0f, then by bisection "
	       "(the geometric middle of the highest passing and the lowest failing rate) to within %s, "
	       "until %s", c->text, unit, c->step > 0 ? c->step : duration, drain, c->low, tolerance, until);
	if (settles && c->settle > 0)
		printf(", up to %g s settling after a step with lines outstanding", c->settle);
}

static void print_command(const struct pdb_spec *spec, const struct pdb_step *s)
{
	const struct pdb_bench_spec *b = &spec->benches[s->bench];
	const struct pdb_command *c = s->kind == PDB_STEP_SETUP ? &b->setup
				    : s->kind == PDB_STEP_TEARDOWN ? &b->teardown : &b->command;
	char *text;

	if (b->kafka && (s->kind == PDB_STEP_MEASURE || s->kind == PDB_STEP_WARMUP)) {
		const struct pdb_kafka_spec *k = b->kafka;
		text = pdb_placeholder_expand(spec, s->bench, s->point, s->variant, k->rate);
		printf("kafka %s %s%s%s, ", k->brokers, k->topic, k->output_topic ? " -> " : "",
		       k->output_topic ? k->output_topic : "");
		if (k->template_path)
			printf("template %s", k->template_path);
		else
			printf("%ld-byte messages", k->size);
		if (k->search && s->kind == PDB_STEP_MEASURE) {
			printf(", ");
			print_search(k->search, k->duration, k->drain, "msg/s", 0);
		} else {
			printf(strcmp(text, "0") ? ", %s msg/s" : ", as fast as possible", text);
			if (k->count)
				printf(", %lld messages", k->count);
			else
				printf(", %g s", k->duration);
		}
		if (k->warmup > 0)
			printf(" after %g s warm-up", k->warmup);
		if (k->match)
			printf(", matched by %s", k->match_text);
		for (size_t g = 0; g < k->nlag_groups; g++)
			printf("%s%s", g ? ", " : ", lag of ", k->lag_groups[g]);
		free(text);
		return;
	}
	if (b->stream && (s->kind == PDB_STEP_MEASURE || s->kind == PDB_STEP_WARMUP)) {
		const struct pdb_logstream_spec *ls = b->stream;
		text = pdb_placeholder_expand(spec, s->bench, s->point, s->variant, ls->rate);
		printf("stream to %s (%s), template %s, ", ls->target.text,
		       ls->framing == PDB_LOGSTREAM_SYSLOG ? "syslog" : "lines",
		       ls->template_path ? ls->template_path : "perfdb seq=$SEQ ts=$TS");
		if (ls->search && s->kind == PDB_STEP_MEASURE)
			print_search(ls->search, ls->duration, ls->drain, "lines/s", 1);
		else
			printf("%s lines/s, %g s", text, ls->duration);
		if (ls->has_probe)
			printf(", probe %s", ls->probe.file ? ls->probe.file : ls->probe.command);
		for (size_t k = 0; k < ls->nprobes; k++)
			printf("%s %s %s", k ? "," : ", probes", ls->probes[k].name,
			       ls->probes[k].file ? ls->probes[k].file : ls->probes[k].command);
		free(text);
		return;
	}
	print_argv(spec, s->bench, s->point, s->variant, c);
}

/* With a matrix: the points each planned benchmark runs at, from the
 * parameters it names ("load: 4 points: vcpus 1, 2 x batch 10, 500"). */
static void print_points(const struct pdb_spec *spec, const struct pdb_plan *plan)
{
	int any = spec->nmatrix > 0;

	for (size_t b = 0; b < spec->nbenches; b++)
		any |= spec->benches[b].nmatrix > 0;
	for (size_t b = 0; any && b < spec->nbenches; b++) {
		const struct pdb_bench_spec *bs = &spec->benches[b];
		size_t i, n = pdb_plan_npoints(spec, b);
		for (i = 0; i < plan->nsteps && plan->steps[i].bench != b; i++)
			;
		if (i == plan->nsteps)
			continue; /* not planned (--only) */
		printf("%s: %zu point%s%s", bs->name, n, n == 1 ? "" : "s", bs->naxes ? ": " : " (no matrix parameter)");
		for (size_t a = 0; a < bs->naxes; a++) {
			printf("%s%s ", a ? " x " : "", bs->axes[a]->name);
			for (size_t v = 0; v < bs->axes[a]->nvalues; v++)
				printf("%s%s", v ? ", " : "", bs->axes[a]->values[v]);
		}
		putchar('\n');
	}
}

/* The instruments each planned benchmark's repetitions run under. */
static void print_measure(const struct pdb_spec *spec, const struct pdb_plan *plan)
{
	char names[120];

	for (size_t b = 0; b < spec->nbenches; b++) {
		size_t i;
		for (i = 0; i < plan->nsteps && plan->steps[i].bench != b; i++)
			;
		if (i < plan->nsteps && spec->benches[b].measure)
			printf("%s: measured under %s\n", spec->benches[b].name,
			       pdb_measure_text(spec->benches[b].measure, names, sizeof names));
	}
}

static void print_plan(const struct pdb_spec *spec, const struct pdb_plan *plan,
		       const struct pdb_checkouts *co, const struct adaptive *ad)
{
	char text[512];

	if (!pdb_spec_has_git(spec) && (spec->build.argv || spec->build.shell)) {
		if (co->here_commit)
			printf("checkout HEAD = %.12s: the current checkout, {dir}", co->here_commit);
		else
			printf("checkout: the current directory, {dir}");
		printf("; build: ");
		print_argv(spec, 0, PDB_PLAN_NO_POINT, spec->nvariants, &spec->build);
		putchar('\n');
	}
	for (size_t v = 0; pdb_spec_has_git(spec) && v < spec->nvariants; v++) {
		const struct pdb_variant *var = &spec->variants[v];
		printf("checkout (%s) %s = %.12s: %s", var->name, var->git ? var->git : "HEAD", co->commit[v],
		       var->git ? "a temporary worktree, {dir}" : "the current checkout, {dir}");
		if (spec->build.argv || spec->build.shell) {
			printf("; build: ");
			print_argv(spec, 0, PDB_PLAN_NO_POINT, v, &spec->build);
		}
		putchar('\n');
	}
	for (size_t i = 0; i < plan->nsteps; i++) {
		const struct pdb_step *s = &plan->steps[i];
		char *point = pdb_plan_point_text(spec, s->bench, s->point);
		int vcpus = pdb_plan_vcpus(spec, s->bench, s->point);
		if (ad && i && s->look != plan->steps[i - 1].look)
			printf("look %zu/%zu at %d pairs: the run ends here when every gated series is conclusive,\n"
			       "  or when the next look's pairs would not fit the budget\n", s->look,
			       plan->nlooks, plan->looks[s->look - 1]);
		printf("%-8s %s%s%s", step_name(s->kind), spec->benches[s->bench].name,
		       *point ? " " : "", point);
		if (spec->nvariants)
			printf(" (%s)", spec->variants[s->variant].name);
		if (s->kind == PDB_STEP_MEASURE || s->kind == PDB_STEP_WARMUP)
			printf(" %d/%d", s->rep + 1, reps_of(plan, s));
		if (vcpus)
			printf(" [%d CPU%s]", vcpus, vcpus > 1 ? "s" : "");
		printf(": ");
		print_command(spec, s);
		putchar('\n');
		free(point);
	}
	printf("%zu steps, %zu measured\n", plan->nsteps, plan->nmeasure);
	print_points(spec, plan);
	print_measure(spec, plan);
	if (spec->interleave)
		printf("interleaved: each repetition runs every benchmark at each of its matrix points in turn, "
		       "every setup first\n");
	if (ad) {
		adaptive_schedule_text(ad, text, sizeof text);
		printf("adaptive: %s; budget %g s of measuring; the steps above are those up to the last look\n",
		       text, ad->budget);
	}
}

/* Finish the runs and store them; print their ids (on stderr when the
 * comparison has stdout). An exit status, or -1 to go on. */
static int store_runs(struct pdb_store *store, struct pdb_run *const *runs, const struct pdb_spec *spec,
		      const struct pdb_checkouts *co, const char *source, int compare)
{
	size_t nruns = spec->nvariants ? spec->nvariants : 1;
	const char *fp = getenv("PERFDB_FINGERPRINT");
	struct pdb_err err;
	int interrupted = 0, failed = 0;

	for (size_t v = 0; v < nruns; v++) {
		pdb_set_str(&runs[v]->tool, "perfdb");
		pdb_set_str(&runs[v]->format, "run");
		pdb_set_str(&runs[v]->source, source);
		if (!(fp && (strcmp(fp, "0") == 0 || strcmp(fp, "off") == 0)))
			pdb_fingerprint_capture(runs[v], co->added[v] ? co->dir[v] : NULL);
		if (pdb_store_insert_run(store, runs[v], 0, &err) < 0)
			return cmd_fail("run", &err);
		interrupted |= strcmp(runs[v]->status, "interrupted") == 0;
		failed |= strcmp(runs[v]->status, "failed") == 0;
	}
	if (!spec->nvariants)
		printf("run%lld\n", (long long)runs[0]->id);
	else if (!compare)
		for (size_t v = 0; v < nruns; v++)
			printf("run%lld %s\n", (long long)runs[v]->id, spec->variants[v].name);
	else
		fprintf(stderr, "perfdb: run: stored run%lld (%s) and run%lld (%s)\n", (long long)runs[0]->id,
			spec->variants[0].name, (long long)runs[1]->id, spec->variants[1].name);
	fflush(stdout);
	if (interrupted) {
		fprintf(stderr, "perfdb: run: interrupted; what finished is stored as run%lld%s", (long long)runs[0]->id,
			nruns > 1 ? "" : "\n");
		if (nruns > 1)
			fprintf(stderr, " and run%lld\n", (long long)runs[1]->id);
		return 130;
	}
	for (size_t v = 0; v < nruns && failed && !compare; v++)
		if (strcmp(runs[v]->status, "failed") == 0)
			fprintf(stderr, "perfdb: run: a benchmark failed (see the failed.* attributes of run%lld)\n",
				(long long)runs[v]->id);
	return failed && !compare ? PDB_EXIT_RUNTIME : -1;
}

/* Without git: variants: the spec's build, once in the current checkout,
 * whose commit each run records unless --attr gave one. An exit status, or
 * -1 to go on. */
static int build_here(const struct pdb_spec *spec, const struct pdb_checkouts *co,
		      struct pdb_run *const *runs, size_t nruns)
{
	struct pdb_err err;
	int built;

	if (!spec->build.argv && !spec->build.shell)
		return -1;
	for (size_t r = 0; co->here_commit && r < nruns; r++)
		if (!pdb_run_get_attr(runs[r], "commit"))
			pdb_run_set_attr(runs[r], "commit", co->here_commit);
	if (co->here_commit)
		fprintf(stderr, "perfdb: run: building HEAD (%.12s) in %s\n", co->here_commit, co->top);
	else
		fprintf(stderr, "perfdb: run: building in %s\n", co->top);
	if ((built = pdb_checkouts_build_here(spec, co, &stop_requested, &err)) < 0)
		return cmd_fail("run", &err);
	if (built) {
		fprintf(stderr, "perfdb: run: interrupted while building; nothing was measured\n");
		return 130;
	}
	return -1;
}

/* Check each variant's git: REV out and build it there; record its commit
 * (without git: variants, build_here). An exit status, or -1 to go on. */
static int check_out(struct pdb_spec *spec, struct pdb_checkouts *co, struct pdb_run *const *runs,
		     size_t nruns)
{
	struct pdb_err err;
	int built;

	if (!pdb_spec_has_git(spec))
		return build_here(spec, co, runs, nruns);
	if (pdb_checkouts_add(spec, co, &err) < 0)
		return cmd_fail("run", &err);
	for (size_t v = 0; v < spec->nvariants; v++) {
		const struct pdb_variant *var = &spec->variants[v];
		pdb_run_set_attr(runs[v], "commit", co->commit[v]);
		if (var->git)
			pdb_run_set_attr(runs[v], "git_rev", var->git);
		if (co->branch[v])
			pdb_run_set_attr(runs[v], "branch", co->branch[v]);
		if (!spec->build.argv && !spec->build.shell)
			continue;
		fprintf(stderr, "perfdb: run: building %s (%s, %.12s) in %s\n", var->name, var->git ? var->git : "HEAD",
			co->commit[v], co->dir[v]);
		if ((built = pdb_checkouts_build(spec, co, v, &stop_requested, &err)) < 0)
			return cmd_fail("run", &err);
		if (built) {
			fprintf(stderr, "perfdb: run: interrupted while building %s; nothing was measured\n", var->name);
			return 130;
		}
	}
	return -1;
}

/* Whether a benchmark of the run adds pairs look by look. */
static int is_adaptive(const struct pdb_spec *spec, const char *only, int repeat)
{
	for (size_t b = 0; b < spec->nbenches; b++)
		if (pdb_glob_match(only, spec->benches[b].name) && pdb_plan_is_auto(spec, b, repeat))
			return 1;
	return 0;
}

/* An adaptive run's schedule and budget, from the flags, the spec and the
 * comparison's alpha (--alpha, the config's, PDB_ALPHA_DEFAULT); the looks and the
 * comparison after the run then test at the looks' corrected alpha. An
 * exit status, or -1 to go on. */
static int plan_adaptive(const struct pdb_spec *spec, int repeat, struct compare_gate *gate,
			 int max_repeat, double budget, struct adaptive *ad)
{
	const struct pdb_compare_config *cfg = gate->cmp.config;
	double alpha = !isnan(gate->cmp.alpha) ? gate->cmp.alpha
		: cfg && !isnan(cfg->alpha) ? cfg->alpha : PDB_ALPHA_DEFAULT;
	struct pdb_err err;

	if (spec->nvariants != 2) {
		if (repeat == PDB_PLAN_AUTO || !spec->auto_where)
			pdb_err_set(&err, PDB_EXIT_USAGE, "--repeat auto needs two variants: it adds A/B pairs "
				    "until the comparison is conclusive (--variant twice, or the spec's variants)");
		else
			pdb_err_set(&err, PDB_EXIT_USAGE, "%s: repeat: auto needs two variants: it adds A/B pairs "
				    "until the comparison is conclusive (--variant twice, or the spec's variants)",
				    spec->auto_where);
		return cmd_fail("run", &err);
	}
	if (!max_repeat)
		max_repeat = spec->max_repeat ? spec->max_repeat : PDB_ADAPTIVE_MAX_REPEAT;
	if (pdb_adaptive_schedule(alpha, max_repeat, &ad->sched, &err) < 0)
		return cmd_fail("run", &err);
	ad->budget = budget > 0 ? budget : spec->budget > 0 ? spec->budget : PDB_ADAPTIVE_BUDGET;
	gate->cmp.alpha = ad->sched.look_alpha;
	return -1;
}

/* A list of option values (pointers into argv). */
static void push(const char ***list, size_t *n, size_t *cap, const char *value)
{
	pdb_grow((void **)list, cap, *n + 1, sizeof **list);
	(*list)[(*n)++] = value;
}

static int run_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct pdb_spec spec = { 0 };
	struct pdb_plan plan = { 0 };
	struct pdb_store *store = NULL;
	struct pdb_run *runs[2] = { NULL, NULL }; /* one per variant (two at most) */
	struct progress_ctx pc = { .tty = isatty(2), .spec = &spec, .plan = &plan };
	struct pdb_runner_opts ro = { .progress = progress, .ctx = &pc, .stop = &stop_requested };
	struct sigaction sa = { .sa_handler = on_signal };
	struct compare_gate gate;
	struct pdb_checkouts co = { 0 };
	struct adaptive ad = { .tty = isatty(2) };
	struct pdb_instruments inst = { 0 };
	const char *only = NULL, *name = NULL, **variants = NULL, **attrs = NULL, *measure = NULL;
	size_t nvariants = 0, capvariants = 0, nattrs = 0, capattrs = 0, nruns;
	struct pdb_err err;
	int c, dry_run = 0, compare = 0, gate_opts = 0, adaptive, status = PDB_EXIT_OK;
	int64_t repeat = 0, max_repeat = 0;
	unsigned measure_mask = 0;
	double budget = 0;
	char ab[37], text[512], end[256], note[128], foot[800];

	compare_gate_init(&gate, &cmd_run);
	while ((c = cmd_next_option(argc, argv, &cmd_run)) != -1) {
		char *k, *v;
		if ((status = compare_gate_option(&gate, &cmd_run, c)) >= 0) {
			if (status)
				goto out;
			gate_opts = 1;
			continue;
		}
		status = PDB_EXIT_OK;
		switch (c) {
		case 'n': name = optarg; break;
		case OPT_ONLY: only = optarg; break;
		case OPT_DRY_RUN: dry_run = 1; break;
		case OPT_VARIANT: push(&variants, &nvariants, &capvariants, optarg); break;
		case OPT_COMPARE: compare = 1; break;
		case OPT_MEASURE: measure = optarg; break;
		case 'r':
			if (strcmp(optarg, "auto") == 0)
				repeat = PDB_PLAN_AUTO;
			else if (pdb_parse_int64(optarg, 1, 1000000, &repeat) < 0) {
				status = cmd_usage_error(&cmd_run, "--repeat takes a positive number or auto, got '%s'", optarg);
				goto out;
			}
			break;
		case OPT_MAX_REPEAT: max_repeat = cmd_arg.count; break;
		case OPT_BUDGET: budget = cmd_arg.number; break;
		case 'a':
			if (cmd_split_kv(optarg, &k, &v) < 0) {
				status = cmd_usage_error(&cmd_run, "expected KEY=VALUE, got '%s'", optarg);
				goto out;
			}
			free(k);
			free(v);
			push(&attrs, &nattrs, &capattrs, optarg);
			break;
		default:
			if ((status = cmd_common_option(&cmd_run, ctx, c)) >= 0)
				goto out;
			status = PDB_EXIT_OK;
		}
	}
	if (optind + 1 != argc) {
		status = cmd_usage_error(&cmd_run, "expected one SPEC.yaml");
		goto out;
	}
	if (gate_opts && !compare) {
		status = cmd_usage_error(&cmd_run, "compare's options (--format, --threshold, ...) need --compare");
		goto out;
	}
	if (measure) {
		char why[300];
		unsigned mask;
		if (pdb_measure_parse_list(measure, &mask, why, sizeof why) < 0) {
			status = cmd_usage_error(&cmd_run, "--measure: %s", why);
			goto out;
		}
		measure_mask = mask;
	}
	if (pdb_spec_load(argv[optind], &spec, &err) < 0 ||
	    (nvariants && pdb_spec_set_variants(&spec, variants, nvariants, &err) < 0)) {
		status = cmd_fail("run", &err);
		goto out;
	}
	if (measure)
		pdb_spec_set_measure(&spec, measure_mask);
	adaptive = is_adaptive(&spec, only, (int)repeat);
	if ((max_repeat || budget > 0) && !adaptive) {
		status = cmd_usage_error(&cmd_run, "--max-repeat and --budget are for --repeat auto (or repeat: auto in the spec)");
		goto out;
	}
	/* the looks compare as compare will: its alpha and thresholds are the config's */
	if ((compare || adaptive) && (status = compare_gate_config(&gate, "run")) != 0)
		goto out;
	if (adaptive && (status = plan_adaptive(&spec, (int)repeat, &gate, (int)max_repeat, budget, &ad)) >= 0)
		goto out;
	status = PDB_EXIT_OK;
	if (pdb_plan_build_looks(&spec, only, (int)repeat, adaptive ? ad.sched.looks : NULL,
				 adaptive ? ad.sched.nlooks : 0, &plan, &err) < 0 ||
	    pdb_runner_check(&spec, &err) < 0) {
		status = cmd_fail("run", &err);
		goto out;
	}
	if (pdb_spec_has_git(&spec) ? pdb_checkouts_resolve(&spec, &co, &err) < 0
				    : pdb_checkouts_here(&spec, &co, &err) < 0) {
		status = cmd_fail("run", &err);
		goto out;
	}
	if (compare && spec.nvariants != 2) {
		status = cmd_usage_error(&cmd_run, "--compare needs two variants (the spec's variants, or --variant)");
		goto out;
	}
	if (pdb_placeholder_check(&spec, &err) < 0) {
		status = cmd_fail("run", &err);
		goto out;
	}
	if (dry_run) {
		print_plan(&spec, &plan, &co, adaptive ? &ad : NULL);
		goto out;
	}
	if (pdb_instruments_choose(&spec, &plan, &inst, &err) < 0) {
		status = cmd_fail("run", &err);
		goto out;
	}
	ro.instruments = &inst;
	if (!(store = cmd_open_store(ctx, &err))) {
		status = cmd_fail("run", &err);
		goto out;
	}
	nruns = spec.nvariants ? spec.nvariants : 1;
	pdb_uuid4(ab);
	for (size_t r = 0; r < nruns; r++) {
		runs[r] = pdb_run_new();
		for (size_t i = 0; i < nattrs; i++) {
			char *k, *v;
			cmd_split_kv(attrs[i], &k, &v); /* checked when the option was read */
			pdb_run_set_attr(runs[r], k, v);
			free(k);
			free(v);
		}
		if (spec.nvariants) {
			pdb_run_set_attr(runs[r], "variant", spec.variants[r].name);
			pdb_run_set_attr(runs[r], "ab", ab);
		}
		if (adaptive) {
			/* the looks' alpha: a later compare of the pair gives
			 * the interval the gate gave */
			char alpha[32];
			snprintf(alpha, sizeof alpha, "%.17g", gate.cmp.alpha);
			pdb_run_set_attr(runs[r], "ab_alpha", alpha);
		}
		if (name && spec.nvariants)
			runs[r]->name = pdb_xasprintf("%s-%s", name, spec.variants[r].name);
		else if (name)
			pdb_set_str(&runs[r]->name, name);
	}
	/* a name taken is refused before anything runs, not after the suite */
	for (size_t r = 0; r < nruns; r++) {
		int64_t taken;
		if (!runs[r]->name)
			continue;
		if (pdb_store_run_named(store, runs[r]->name, &taken, &err) < 0 ||
		    (taken && pdb_err_set(&err, PDB_EXIT_INPUT, "a run named '%s' exists already "
					  "(run%lld): nothing was run", runs[r]->name,
					  (long long)taken) < 0)) {
			status = cmd_fail("run", &err);
			goto out;
		}
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* a closed terminal or ssh session: stop as for TERM */
	if (co.top && (status = check_out(&spec, &co, runs, nruns)) >= 0)
		goto out;
	status = PDB_EXIT_OK;
	if (adaptive) {
		ad.store = store;
		ad.runs = runs;
		ad.cmp = &gate.cmp;
		ad.fail_on = gate.view.fail_on;
		pc.adaptive = &ad;
		ro.look = on_look;
		adaptive_schedule_text(&ad, text, sizeof text);
		fprintf(stderr, "perfdb: run: adaptive: %s; budget %g s\n", text, ad.budget);
	}
	if (inst.note[0])
		fprintf(stderr, "perfdb: run: %s\n", inst.note);
	if (pdb_runner_execute(&spec, &plan, &ro, runs, &err) < 0) {
		status = cmd_fail("run", &err);
		goto out;
	}
	if (adaptive && ad.end != ADAPTIVE_RUNNING) {
		adaptive_end_text(&ad, end, sizeof end);
		fprintf(stderr, "perfdb: run: adaptive: %s\n", end);
		snprintf(foot, sizeof foot, "adaptive: %s; %s", text, end);
		gate.footnote = foot;
		gate.open_note = adaptive_open_note(&ad, note, sizeof note);
	}
	if ((status = store_runs(store, runs, &spec, &co, argv[optind], compare)) >= 0)
		goto out;
	status = compare ? compare_gate_run(&gate, store, &runs[0]->id, 1, &runs[1]->id, 1, "run")
			 : PDB_EXIT_OK;
out:
	if (pdb_checkouts_release(&co, &err) < 0) {
		char msg[1200];
		pdb_err_format(&err, msg, sizeof msg);
		fprintf(stderr, "perfdb: run: warning: %s\n", msg);
	}
	pdb_plan_release(&plan);
	pdb_spec_release(&spec);
	pdb_instruments_release(&inst);
	pdb_run_free(runs[0]);
	pdb_run_free(runs[1]);
	free(variants);
	free(attrs);
	compare_gate_release(&gate);
	pdb_store_close(store);
	return status;
}
