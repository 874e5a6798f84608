/* perfdb run: run a benchmark spec (matrix, warm-ups, repetitions) and store the run. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "fingerprint.h"
#include "kafka/workload_spec.h"
#include "logstream/spec.h"
#include "runner/runner.h"
#include "util.h"

static int run_main(int argc, char **argv, struct cmd_ctx *ctx);

const struct command cmd_run = {
	"run", run_main,
	"perfdb run [OPTIONS] SPEC.yaml\n"
	"  -n, --name NAME     a unique name for the run\n"
	"  -a, --attr K=V      set a run attribute (repeatable)\n"
	"  -o, --only GLOB     run only the benchmarks whose name matches\n"
	"  -r, --repeat N      repetitions of every benchmark (overrides the spec)\n"
	"      --dry-run       print the expanded plan and run nothing\n"
	"      --db FILE       the database\n"
	"Prints the new run's id. Ctrl-C stores what finished (status interrupted), exit 130.\n",
	"run a benchmark spec and store the measurements as a run",
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
		     plan->steps[i].point == s->point;
	return n;
}

static void progress(void *vctx, const struct pdb_progress *p)
{
	struct progress_ctx *c = vctx;
	char where[256];

	if (p->event == PDB_PROGRESS_WARNING) {
		fprintf(stderr, "%sperfdb: run: warning: %s\n", c->tty ? "\r\033[K" : "", p->message);
		return;
	}
	snprintf(where, sizeof where, "%s%s%s %s %d/%d", p->bench, *p->point ? " " : "", p->point,
		 step_name(p->s->kind), p->s->rep + 1, reps_of(c->plan, p->s));
	if (c->tty) {
		int width = 24, done = (int)(width * (p->step + (p->event == PDB_PROGRESS_DONE)) / p->nsteps);
		fprintf(stderr, "\r\033[K[%.*s%*s] %zu/%zu %s  ETA %d:%02d", done,
			"########################", width - done, "", p->step + 1, p->nsteps, where,
			(int)p->eta / 60, (int)p->eta % 60);
		if (p->event == PDB_PROGRESS_DONE && p->step + 1 == p->nsteps)
			fputs("\r\033[K", stderr);
	} else if (p->event == PDB_PROGRESS_DONE) {
		fprintf(stderr, "perfdb: run: [%zu/%zu] %s: %s %.3f s%s\n", p->step + 1, p->nsteps, where,
			p->res->status == 0 && !p->res->timed_out ? "ok" : "FAILED", p->res->wall,
			p->res->timed_out ? " (timed out)" : "");
	}
}

static void print_command(const struct pdb_spec *spec, const struct pdb_step *s)
{
	const struct pdb_bench_spec *b = &spec->benches[s->bench];
	const struct pdb_command *c = s->kind == PDB_STEP_SETUP ? &b->setup
				    : s->kind == PDB_STEP_TEARDOWN ? &b->teardown : &b->command;
	char *text;

	if (b->kafka && (s->kind == PDB_STEP_MEASURE || s->kind == PDB_STEP_WARMUP)) {
		const struct pdb_kafka_spec *k = b->kafka;
		text = pdb_plan_expand(spec, s->point, k->rate);
		printf("kafka %s %s%s%s, ", k->brokers, k->topic, k->output_topic ? " -> " : "",
		       k->output_topic ? k->output_topic : "");
		if (k->template_path)
			printf("template %s", k->template_path);
		else
			printf("%ld-byte messages", k->size);
		printf(strcmp(text, "0") ? ", %s msg/s" : ", as fast as possible", text);
		if (k->count)
			printf(", %lld messages", k->count);
		else
			printf(", %g s", k->duration);
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
		text = pdb_plan_expand(spec, s->point, ls->rate);
		printf("stream to %s (%s), template %s, %s lines/s, %g s", ls->target.text,
		       ls->framing == PDB_LOGSTREAM_SYSLOG ? "syslog" : "lines",
		       ls->template_path ? ls->template_path : "perfdb seq=$SEQ ts=$TS", text, ls->duration);
		if (ls->has_probe)
			printf(", probe %s", ls->probe.file ? ls->probe.file : ls->probe.command);
		free(text);
		return;
	}
	if (c->shell) {
		text = pdb_plan_expand(spec, s->point, c->shell);
		printf("%s", text);
		free(text);
		return;
	}
	for (size_t i = 0; c->argv[i]; i++) {
		text = pdb_plan_expand(spec, s->point, c->argv[i]);
		printf(strpbrk(text, " \t'\"$") ? "%s'%s'" : "%s%s", i ? " " : "", text);
		free(text);
	}
}

static void print_plan(const struct pdb_spec *spec, const struct pdb_plan *plan)
{
	for (size_t i = 0; i < plan->nsteps; i++) {
		const struct pdb_step *s = &plan->steps[i];
		char *point = pdb_plan_point_text(spec, s->point);
		int vcpus = pdb_plan_vcpus(spec, s->point);
		printf("%-8s %s%s%s", step_name(s->kind), spec->benches[s->bench].name,
		       *point ? " " : "", point);
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
}

static int run_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	enum { OPT_DRY_RUN = 1 };
	static const struct option longopts[] = {
		{ "name", required_argument, 0, 'n' },
		{ "attr", required_argument, 0, 'a' },
		{ "only", required_argument, 0, 'o' },
		{ "repeat", required_argument, 0, 'r' },
		{ "dry-run", no_argument, 0, OPT_DRY_RUN },
		CMD_COMMON_OPTIONS,
		{ 0, 0, 0, 0 },
	};
	struct pdb_spec spec = { 0 };
	struct pdb_plan plan = { 0 };
	struct pdb_store *store = NULL;
	struct pdb_run *run = pdb_run_new();
	struct progress_ctx pc = { .tty = isatty(2), .spec = &spec, .plan = &plan };
	struct pdb_runner_opts ro = { .progress = progress, .ctx = &pc, .stop = &stop_requested };
	struct sigaction sa = { .sa_handler = on_signal };
	const char *only = NULL, *name = NULL, *fp = getenv("PERFDB_FINGERPRINT");
	struct pdb_err err;
	int c, dry_run = 0, status = PDB_EXIT_OK;
	int64_t repeat = 0;

	while ((c = cmd_getopt(argc, argv, "n:a:o:r:h", longopts, &cmd_run)) != -1) {
		char *k, *v;
		switch (c) {
		case 'n': name = optarg; break;
		case 'o': only = optarg; break;
		case OPT_DRY_RUN: dry_run = 1; break;
		case 'r':
			if (pdb_parse_int64(optarg, 1, 1000000, &repeat) < 0) {
				status = cmd_usage_error(&cmd_run, "--repeat takes a positive number, got '%s'", optarg);
				goto out;
			}
			break;
		case 'a':
			if (cmd_split_kv(optarg, &k, &v) < 0) {
				status = cmd_usage_error(&cmd_run, "expected KEY=VALUE, got '%s'", optarg);
				goto out;
			}
			pdb_run_set_attr(run, k, v);
			free(k);
			free(v);
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
	if (pdb_spec_load(argv[optind], &spec, &err) < 0 ||
	    pdb_plan_build(&spec, only, (int)repeat, &plan, &err) < 0 ||
	    pdb_runner_check(&spec, &plan, &err) < 0) {
		status = cmd_fail("run", &err);
		goto out;
	}
	if (dry_run) {
		print_plan(&spec, &plan);
		goto out;
	}
	/* open the database first: a bad --db fails before minutes of running */
	if (!(store = cmd_open_store(ctx, &err))) {
		status = cmd_fail("run", &err);
		goto out;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* a closed terminal or ssh session: stop as for TERM */
	if (pdb_runner_execute(&spec, &plan, &ro, run, &err) < 0) {
		status = cmd_fail("run", &err);
		goto out;
	}
	pdb_set_str(&run->tool, "perfdb");
	pdb_set_str(&run->format, "run");
	pdb_set_str(&run->source, argv[optind]);
	if (name)
		pdb_set_str(&run->name, name);
	if (!(fp && (strcmp(fp, "0") == 0 || strcmp(fp, "off") == 0)))
		pdb_fingerprint_capture(run);
	if (pdb_store_insert_run(store, run, 0, &err) < 0) {
		status = cmd_fail("run", &err);
		goto out;
	}
	printf("run%lld\n", (long long)run->id);
	if (strcmp(run->status, "interrupted") == 0) {
		fprintf(stderr, "perfdb: run: interrupted; what finished is stored as run%lld\n", (long long)run->id);
		status = 130;
	} else if (strcmp(run->status, "failed") == 0) {
		fprintf(stderr, "perfdb: run: a benchmark failed (see the failed.* attributes of run%lld)\n",
			(long long)run->id);
		status = PDB_EXIT_RUNTIME;
	}
out:
	pdb_plan_release(&plan);
	pdb_spec_release(&spec);
	pdb_run_free(run);
	pdb_store_close(store);
	return status;
}
