/* Runner: execute a plan and turn every repetition into samples of a run. */
#include "runner/runner.h"

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ingest.h"
#include "kafka/workload.h"
#include "logstream/workload.h"
#include "runner/capacity_run.h"
#include "runner/placeholder.h"
#include "runner/sampler.h"
#include "runner/stages.h"
#include "units.h"
#include "util.h"

#define STDOUT_READ_MAX (16 << 20)

int pdb_runner_check(const struct pdb_spec *spec, struct pdb_err *err)
{
	int cpus = pdb_exec_cpus_allowed();
	size_t variants = spec->nvariants ? spec->nvariants : 1;

	for (size_t b = 0; b < spec->nbenches; b++)
		for (size_t a = 0; a < spec->benches[b].naxes; a++) {
			const struct pdb_matrix_param *m = spec->benches[b].axes[a];
			for (size_t i = 0; strcmp(m->name, "vcpus") == 0 && i < m->nvalues; i++)
				if (atoi(m->values[i]) > cpus)
					return pdb_err_set(err, PDB_EXIT_USAGE, "%s%svcpus %s asked, but "
							   "only %d CPUs are available here",
							   m->where[i] ? m->where[i] : "",
							   m->where[i] ? ": " : "", m->values[i], cpus);
		}
	for (size_t b = 0; b < spec->nbenches; b++) {
		const struct pdb_kafka_spec *ks = spec->benches[b].kafka;
		if (ks && pdb_kafka_mock_parse(ks->brokers) < 0)
			return pdb_err_set(err, PDB_EXIT_USAGE, "benchmark '%s': brokers '%s': expected mock:N with N from 1 to 64",
					   spec->benches[b].name, ks->brokers);
		for (size_t p = 0; ks && p < pdb_plan_npoints(spec, b) * variants; p++) {
			char *rate = pdb_placeholder_expand(spec, b, p / variants, p % variants, ks->rate);
			double r;
			int bad = pdb_kafka_parse_rate(rate, &r, err);
			free(rate);
			if (bad < 0) {
				char msg[sizeof err->msg];
				snprintf(msg, sizeof msg, "%s", err->msg);
				return pdb_err_set(err, PDB_EXIT_USAGE, "benchmark '%s': %s", spec->benches[b].name, msg);
			}
		}
	}
	for (size_t b = 0; b < spec->nbenches; b++) {
		const struct pdb_logstream_spec *ls = spec->benches[b].stream;
		for (size_t p = 0; ls && p < pdb_plan_npoints(spec, b) * variants; p++) {
			char *rate = pdb_placeholder_expand(spec, b, p / variants, p % variants, ls->rate);
			double r;
			int bad = pdb_logstream_parse_rate(rate, &r, err);
			free(rate);
			if (bad < 0) {
				char msg[sizeof err->msg];
				snprintf(msg, sizeof msg, "%s", err->msg);
				return pdb_err_set(err, PDB_EXIT_USAGE, "benchmark '%s': %s", spec->benches[b].name, msg);
			}
		}
	}
	return 0;
}

/* Everything one step needs, with matrix values put into its texts. */
struct expanded {
	char **argv;
	char *shell, *cwd, *parse_file;
	struct pdb_attr *env;
	size_t nenv;
};

static void expand_command(const struct pdb_spec *spec, const struct pdb_step *s,
			   const struct pdb_command *c, struct expanded *x)
{
	if (c->shell) {
		x->shell = pdb_placeholder_expand(spec, s->bench, s->point, s->variant, c->shell);
		return;
	}
	size_t n = 0;
	if (!c->argv)
		return; /* a Kafka or stream benchmark's measured steps have no command */
	while (c->argv[n])
		n++;
	x->argv = pdb_xcalloc(n + 1, sizeof *x->argv);
	for (size_t i = 0; i < n; i++)
		x->argv[i] = pdb_placeholder_expand(spec, s->bench, s->point, s->variant, c->argv[i]);
}

static void expand(const struct pdb_spec *spec, const struct pdb_step *s, struct expanded *x)
{
	const struct pdb_bench_spec *b = &spec->benches[s->bench];
	const struct pdb_command *c = s->kind == PDB_STEP_SETUP ? &b->setup
				    : s->kind == PDB_STEP_TEARDOWN ? &b->teardown : &b->command;

	memset(x, 0, sizeof *x);
	expand_command(spec, s, c, x);
	x->cwd = b->cwd ? pdb_placeholder_expand(spec, s->bench, s->point, s->variant, b->cwd) : NULL;
	x->parse_file = b->parse_file ? pdb_placeholder_expand(spec, s->bench, s->point, s->variant, b->parse_file) : NULL;
	x->env = pdb_xcalloc(b->nenv + 1, sizeof *x->env);
	for (size_t i = 0; i < b->nenv; i++) {
		x->env[i].key = b->env[i].key;
		x->env[i].value = pdb_placeholder_expand(spec, s->bench, s->point, s->variant, b->env[i].value);
	}
	x->nenv = b->nenv;
}

static void expanded_release(struct expanded *x)
{
	for (size_t i = 0; x->argv && x->argv[i]; i++)
		free(x->argv[i]);
	free(x->argv);
	free(x->shell);
	free(x->cwd);
	free(x->parse_file);
	for (size_t i = 0; i < x->nenv; i++)
		free(x->env[i].value);
	free(x->env);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The values of a matrix point as dims (the strings stay the spec's): how many. */
static size_t point_dims(const struct pdb_spec *spec, size_t bench, size_t point, struct pdb_attr dims[32])
{
	size_t n = 0;

	for (size_t i = 0; i < spec->benches[bench].naxes && n < 32; i++, n++) {
		dims[n].key = spec->benches[bench].axes[i]->name;
		dims[n].value = (char *)pdb_plan_value(spec, bench, point, i);
	}
	return n;
}

/* The result of metric of step s's benchmark at its matrix point: the
 * point's values are dims. */
static struct pdb_result *series(struct pdb_run *run, const struct pdb_spec *spec,
				 const struct pdb_step *s, const char *metric, const char *unit)
{
	struct pdb_attr dims[32];
	size_t n = point_dims(spec, s->bench, s->point, dims);

	return pdb_run_result_with_dims(run, spec->benches[s->bench].name, dims, n, metric, unit);
}

static void add_value(struct pdb_run *run, const struct pdb_spec *spec, const struct pdb_step *s,
		      const char *metric, const char *unit, double v)
{
	pdb_result_add_raw(series(run, spec, s, metric, unit), v);
}

/* The instruments of measure: counts, fewer is better. */
static void add_counts(struct pdb_run *run, const struct pdb_spec *spec, const struct pdb_step *s,
		       unsigned mask, const double *values)
{
	struct pdb_attr dims[32];
	size_t n = point_dims(spec, s->bench, s->point, dims);

	for (int i = 0; i < PDB_MEASURE_COUNT; i++)
		if (mask & (1u << i))
			pdb_result_add_raw(pdb_run_series(run, spec->benches[s->bench].name, dims, n,
							  pdb_measure_metrics[i], "count", PDB_DIR_LOWER), values[i]);
}

/* A regex metric's value: its direction the spec's, when it gives one. */
static void add_metric(struct pdb_run *run, const struct pdb_spec *spec, const struct pdb_step *s,
		       const struct pdb_regex_metric *m, double v)
{
	struct pdb_result *r = series(run, spec, s, m->name, m->unit);

	if (m->has_direction)
		r->direction = m->direction;
	pdb_result_add_raw(r, v);
}

/* A workload (kafka: or stream:) that could not run: a failed repetition. */
static void workload_failed(struct pdb_exec_result *res, const struct pdb_err *err, double t0)
{
	pdb_err_format(err, res->stderr_tail, sizeof res->stderr_tail);
	res->status = 1;
	res->wall = now() - t0;
}

struct note_ctx {
	const struct pdb_runner_opts *opts;
	const char *bench;
};

/* A line of a capacity search for the user: "NAME: rate 2500 lines/s: ...". */
static void search_note(void *vctx, const char *line)
{
	const struct note_ctx *c = vctx;
	char msg[800];
	struct pdb_progress p = { .event = PDB_PROGRESS_NOTE, .message = msg };

	snprintf(msg, sizeof msg, "%s: %s", c->bench, line);
	if (c->opts->progress)
		c->opts->progress(c->opts->ctx, &p);
}

/* A measured step of a benchmark whose rate is a search: the search's
 * steps, each a point rate=R; its outcome as capacity.NAME[POINT]. */
static void run_search(struct pdb_run *run, const struct pdb_spec *spec, const struct pdb_step *s,
		       size_t index, const struct pdb_runner_opts *opts, struct pdb_exec_result *res)
{
	const struct pdb_bench_spec *b = &spec->benches[s->bench];
	struct note_ctx nc = { .opts = opts, .bench = b->name };
	struct pdb_capacity_notes notes = { .note = search_note, .ctx = &nc, .stop = opts->stop, .seed = index + 1 };
	struct pdb_capacity_outcome out;
	struct pdb_attr dims[32];
	struct pdb_err err;
	double t0 = now();
	size_t n = point_dims(spec, s->bench, s->point, dims);

	memset(res, 0, sizeof *res);
	if ((b->stream ? pdb_capacity_run_stream(b->stream, &notes, run, b->name, dims, n, &out, &err)
		       : pdb_capacity_run_kafka(b->kafka, &notes, run, b->name, dims, n, &out, &err)) < 0) {
		workload_failed(res, &err, t0);
		return;
	}
	res->wall = now() - t0;
	res->interrupted = out.interrupted;
	if (!out.interrupted) {
		char *point = pdb_plan_point_text(spec, s->bench, s->point);
		char *key = pdb_xasprintf("capacity.%s%s%s%s", b->name, *point ? "[" : "", point, *point ? "]" : "");
		struct pdb_progress p = { .event = out.sustained > 0 ? PDB_PROGRESS_NOTE : PDB_PROGRESS_WARNING };
		char msg[600];
		pdb_run_set_attr(run, key, out.text);
		snprintf(msg, sizeof msg, "%s: %s", b->name, out.text);
		p.message = msg;
		if (opts->progress)
			opts->progress(opts->ctx, &p);
		free(key);
		free(point);
	}
}

/* A warm-up or measured step of a Kafka benchmark: run the workload, add
 * its series (measured steps only). A workload that cannot run is a failed
 * repetition, like a command that fails. */
static void run_kafka(struct pdb_run *run, const struct pdb_spec *spec, const struct pdb_step *s,
		      size_t index, const struct pdb_runner_opts *opts, struct pdb_exec_result *res)
{
	const struct pdb_bench_spec *b = &spec->benches[s->bench];
	struct pdb_kafka_workload_opts wo = { .spec = b->kafka, .stop = opts->stop, .seed = index + 1 };
	struct pdb_kafka_result kr;
	struct pdb_attr dims[32];
	struct pdb_err err;
	char *rate;
	double t0 = now();
	size_t n;

	if (b->kafka->search && s->kind == PDB_STEP_MEASURE) {
		run_search(run, spec, s, index, opts, res);
		return;
	}
	rate = pdb_placeholder_expand(spec, s->bench, s->point, s->variant, b->kafka->rate);
	memset(res, 0, sizeof *res);
	if (pdb_kafka_parse_rate(rate, &wo.rate, &err) < 0 || pdb_kafka_workload_run(&wo, &kr, &err) < 0) {
		workload_failed(res, &err, t0);
		free(rate);
		return;
	}
	res->wall = now() - t0;
	res->interrupted = kr.interrupted;
	if (kr.warning[0] && opts->progress) {
		char msg[400];
		struct pdb_progress p = { .event = PDB_PROGRESS_WARNING, .message = msg };
		snprintf(msg, sizeof msg, "%s: %s", b->name, kr.warning);
		opts->progress(opts->ctx, &p);
	}
	n = point_dims(spec, s->bench, s->point, dims);
	if (s->kind == PDB_STEP_MEASURE && !kr.interrupted)
		pdb_kafka_result_to_run(&kr, run, b->name, dims, n);
	pdb_kafka_result_release(&kr);
	free(rate);
}

/* A warm-up or measured step of a log stream benchmark, like run_kafka. A
 * run whose every line failed to send is a failed repetition too. */
static void run_stream(struct pdb_run *run, const struct pdb_spec *spec, const struct pdb_step *s,
		       size_t index, const struct pdb_runner_opts *opts, struct pdb_exec_result *res)
{
	const struct pdb_bench_spec *b = &spec->benches[s->bench];
	struct pdb_logstream_opts lo = { .spec = b->stream, .stop = opts->stop, .seed = index + 1 };
	struct pdb_logstream_result lr;
	struct pdb_attr dims[32];
	struct pdb_err err;
	char *rate;
	double t0 = now();
	size_t n;

	if (b->stream->search && s->kind == PDB_STEP_MEASURE) {
		run_search(run, spec, s, index, opts, res);
		return;
	}
	rate = pdb_placeholder_expand(spec, s->bench, s->point, s->variant, b->stream->rate);
	memset(res, 0, sizeof *res);
	if (pdb_logstream_parse_rate(rate, &lo.rate, &err) < 0 || pdb_logstream_run(&lo, &lr, &err) < 0) {
		workload_failed(res, &err, t0);
		free(rate);
		return;
	}
	res->wall = now() - t0;
	res->interrupted = lr.interrupted;
	if (lr.sent == 0 && lr.errors > 0 && !lr.interrupted) {
		snprintf(res->stderr_tail, sizeof res->stderr_tail, "stream: nothing sent: %.400s", lr.error);
		res->status = 1;
	}
	if (lr.warning[0] && opts->progress && s->kind == PDB_STEP_MEASURE) {
		char msg[400];
		struct pdb_progress p = { .event = PDB_PROGRESS_WARNING, .message = msg };
		snprintf(msg, sizeof msg, "%s: %s", b->name, lr.warning);
		opts->progress(opts->ctx, &p);
	}
	n = point_dims(spec, s->bench, s->point, dims);
	if (s->kind == PDB_STEP_MEASURE && !lr.interrupted && res->status == 0)
		pdb_logstream_result_to_run(&lr, b->stream, run, b->name, dims, n);
	pdb_logstream_result_release(&lr);
	free(rate);
}

/* Regex metrics: the first group of the first match in stdout. A metric
 * that does not match is an error of that repetition. */
static int regex_metrics(struct pdb_run *run, const struct pdb_spec *spec,
			 const struct pdb_step *s, const char *out_path, char *why, size_t whysize)
{
	const struct pdb_bench_spec *b = &spec->benches[s->bench];
	char *text;
	int ok = 1;

	if (b->nmetrics == 0)
		return 0;
	if (!(text = pdb_read_file_capped(out_path, STDOUT_READ_MAX)))
		text = pdb_xstrdup("");
	for (size_t i = 0; i < b->nmetrics; i++) {
		regex_t re;
		regmatch_t m[2];
		double v;
		if (regcomp(&re, b->metrics[i].regex, REG_EXTENDED) != 0)
			continue; /* checked when the spec was read */
		if (regexec(&re, text, 2, m, 0) == 0 && m[1].rm_so >= 0) {
			char *num = pdb_xstrndup(text + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
			if (pdb_parse_double(num, &v) == 0)
				add_metric(run, spec, s, &b->metrics[i], v);
			else if (ok) {
				snprintf(why, whysize, "metric %s: '%s' is not a number", b->metrics[i].name, num);
				ok = 0;
			}
			free(num);
		} else if (ok) {
			snprintf(why, whysize, "metric %s: no match for '%s'", b->metrics[i].name,
				 b->metrics[i].regex);
			ok = 0;
		}
		regfree(&re);
	}
	free(text);
	return ok ? 0 : -1;
}

/* Statistics of a spread, whose direction is not their metric's. */
static int is_spread(const char *stat)
{
	return !strcmp(stat, "stddev") || !strcmp(stat, "variance") || !strcmp(stat, "mad") ||
	       !strcmp(stat, "cv");
}

/* The series a statistic of r becomes: METRIC_STAT, or METRIC_STAT_summary
 * when the tool itself gave a series METRIC_STAT of r's benchmark and dims
 * (parsed: the repetition's whole output), so that a series holds one
 * statistic: sysbench with --report-interval gives latency_p95 per interval
 * beside the whole run's p95 of latency. Caller frees. */
static char *stat_series(const struct pdb_run *parsed, const struct pdb_result *r, const char *stat)
{
	struct pdb_result probe = *r;
	char *name = pdb_xasprintf("%s_%s", r->metric, stat), *summary;

	probe.metric = name;
	if (!pdb_run_find_result(parsed, &probe))
		return name;
	summary = pdb_xasprintf("%s_summary", name);
	free(name);
	return summary;
}

/* One repetition's parsed result r (of the output parsed) into run as the
 * series of bench and dims: its samples appended to its series (unit,
 * sense and values as parsed: already canonical), each of its statistics
 * one sample of its series (stat_series), so that every repetition's p95
 * is kept and the series of N repetitions holds N values, not the last
 * one's. */
static void add_parsed(struct pdb_run *run, const char *bench, const struct pdb_attr *dims, size_t nd,
		       const struct pdb_run *parsed, const struct pdb_result *r)
{
	if (r->nsamples > 0 || r->nstats == 0) {
		struct pdb_result values = *r;
		values.nstats = 0; /* statistics: below */
		pdb_result_add_values(pdb_run_result_with_dims(run, bench, dims, nd, r->metric, r->unit), &values);
	}
	for (size_t k = 0; k < r->nstats; k++) {
		char *metric = stat_series(parsed, r, r->stats[k].name);
		struct pdb_result *dst = pdb_run_series(run, bench, dims, nd, metric, r->unit,
							is_spread(r->stats[k].name) ? PDB_DIR_NONE : r->direction);
		struct pdb_sample v = PDB_SAMPLE(r->stats[k].value);
		pdb_result_add_sample(dst, &v);
		free(metric);
	}
}

/* Parse the command's output with an ingest format into run, read as
 * `perfdb ingest --format FORMAT` reads it: a file, or a folder of them
 * (Knox's reports). */
static int parse_output(struct pdb_run *run, const struct pdb_spec *spec,
			const struct pdb_step *s, const struct expanded *x,
			const char *out_path, char *why, size_t whysize)
{
	const struct pdb_bench_spec *b = &spec->benches[s->bench];
	struct pdb_ingest_opts io = { .format = b->parse_format, .map_path = b->parse_map };
	struct pdb_run *tmp;
	struct pdb_err perr;
	char *path;

	if (!x->parse_file)
		path = pdb_xstrdup(out_path);
	else if (x->parse_file[0] != '/' && x->cwd)
		path = pdb_xasprintf("%s/%s", x->cwd, x->parse_file);
	else
		path = pdb_xstrdup(x->parse_file);
	if (!(tmp = pdb_ingest_files((const char *const *)&path, 1, &io, NULL, &perr))) {
		char msg[1200];
		pdb_err_format(&perr, msg, sizeof msg);
		snprintf(why, whysize, "parse %s: %.500s", b->parse_format, msg);
		free(path);
		return -1;
	}
	for (size_t i = 0; i < tmp->nresults; i++) {
		const struct pdb_result *r = &tmp->results[i];
		struct pdb_attr dims[96];
		size_t nd = 0;
		char *name = pdb_xasprintf("%s/%s", b->name, r->benchmark);
		for (size_t k = 0; k < r->ndims && nd < 64; k++)
			dims[nd++] = r->dims[k];
		nd += point_dims(spec, s->bench, s->point, dims + nd); /* 32 at most */
		add_parsed(run, name, dims, nd, tmp, r);
		free(name);
	}
	pdb_run_free(tmp);
	free(path);
	return 0;
}

static void record_failure(struct pdb_run *run, const struct pdb_spec *spec,
			   const struct pdb_step *s, const struct pdb_exec_result *res,
			   const char *why)
{
	char *point = pdb_plan_point_text(spec, s->bench, s->point);
	static const char *kinds[] = { "setup", "warmup", "rep", "teardown" };
	/* failed.NAME[vcpus=2].rep3 (no brackets without a matrix) */
	char *key = pdb_xasprintf("failed.%s%s%s%s.%s%d", spec->benches[s->bench].name,
				  *point ? "[" : "", point, *point ? "]" : "",
				  kinds[s->kind], s->rep + 1);
	char *value;

	value = why ? pdb_xstrdup(why)
		: pdb_xasprintf("%s %d%s%s", res->timed_out ? "timed out, status" : "exit status",
				res->status, res->stderr_tail[0] ? ": " : "", res->stderr_tail);
	pdb_run_set_attr(run, key, value);
	if (!spec->benches[s->bench].allow_failure) { /* the benchmark failed: compare's verdict */
		struct pdb_attr dims[32];
		size_t n = point_dims(spec, s->bench, s->point, dims);
		char *dims_text, *reason;

		dims_text = pdb_dims_text(dims, n);
		/* the first failing step names the failure; every one is an attribute */
		if (!pdb_run_find_failure(run, spec->benches[s->bench].name, dims_text)) {
			reason = pdb_xasprintf("%s %d: %s", kinds[s->kind], s->rep + 1, value);
			pdb_run_add_failure(run, spec->benches[s->bench].name, dims, n, reason);
			free(reason);
		}
		free(dims_text);
	}
	free(value);
	free(key);
	free(point);
}

/* A failure's reason, named by the first step that failed, says how many
 * of its repetitions failed when it had several: "2 of 5 repetitions
 * failed; the first: rep 2: exit status 1" (or "all 5 ..."). ran[i]: 1 when
 * step i ran, 2 when it failed. */
static void count_failed_reps(const struct pdb_spec *spec, const struct pdb_plan *plan,
			      const unsigned char *ran, size_t variant, struct pdb_run *run)
{
	size_t *reps = pdb_xcalloc(run->nfailures + 1, sizeof *reps);
	size_t *bad = pdb_xcalloc(run->nfailures + 1, sizeof *bad);

	for (size_t i = 0; i < plan->nsteps; i++) {
		const struct pdb_step *s = &plan->steps[i];
		const struct pdb_failure *f;
		struct pdb_attr dims[32];
		char *text;

		if (s->variant != variant || s->kind != PDB_STEP_MEASURE || !ran[i])
			continue;
		text = pdb_dims_text(dims, point_dims(spec, s->bench, s->point, dims));
		f = pdb_run_find_failure(run, spec->benches[s->bench].name, text);
		free(text);
		if (!f)
			continue;
		reps[f - run->failures]++;
		bad[f - run->failures] += ran[i] == 2;
	}
	for (size_t k = 0; k < run->nfailures; k++) {
		char *reason;
		if (reps[k] < 2 || bad[k] == 0)
			continue;
		reason = bad[k] == reps[k]
			? pdb_xasprintf("all %zu repetitions failed; the first: %s", reps[k],
					run->failures[k].reason)
			: pdb_xasprintf("%zu of %zu repetitions failed; the first: %s", bad[k], reps[k],
					run->failures[k].reason);
		pdb_set_str(&run->failures[k].reason, reason);
		free(reason);
	}
	free(reps);
	free(bad);
}

/* repetitions.NAME[POINT]: how many measured repetitions of each benchmark
 * and point succeeded, i.e. gave their values to its series. ran[i]: 1
 * when step i ran and succeeded. */
static void count_reps(const struct pdb_spec *spec, const struct pdb_plan *plan,
		       const unsigned char *ran, struct pdb_run *const *runs)
{
	for (size_t i = 0; i < plan->nsteps; i++) {
		const struct pdb_step *s = &plan->steps[i];
		char *point, *key, *text;
		const char *had;
		long n;

		if (s->kind != PDB_STEP_MEASURE || ran[i] != 1)
			continue;
		point = pdb_plan_point_text(spec, s->bench, s->point);
		key = pdb_xasprintf("repetitions.%s%s%s%s", spec->benches[s->bench].name, *point ? "[" : "",
				    point, *point ? "]" : "");
		had = pdb_run_get_attr(runs[s->variant], key);
		n = had ? strtol(had, NULL, 10) : 0;
		text = pdb_xasprintf("%ld", n + 1);
		pdb_run_set_attr(runs[s->variant], key, text);
		free(text);
		free(key);
		free(point);
	}
}

static void environment(struct pdb_run *const *runs, size_t nruns, const struct pdb_runner_opts *opts)
{
	char buf[128] = "";
	FILE *f;
	double load = 0;

	if ((f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "r"))) {
		if (fgets(buf, sizeof buf, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
		for (size_t i = 0; i < nruns && buf[0]; i++)
			pdb_run_set_attr(runs[i], "governor", buf);
	}
	if ((f = fopen("/proc/loadavg", "r"))) {
		if (fgets(buf, sizeof buf, f) && sscanf(buf, "%lf", &load) == 1) {
			buf[strcspn(buf, " ")] = '\0';
			for (size_t i = 0; i < nruns; i++)
				pdb_run_set_attr(runs[i], "loadavg", buf);
		}
		fclose(f);
	}
	for (int i = 0; opts->instruments && i < PDB_MEASURE_COUNT; i++)
		if (opts->instruments->mask & (1u << i)) {
			char *key = pdb_xasprintf("instrument.%s", pdb_measure_metrics[i]);
			for (size_t r = 0; r < nruns; r++)
				pdb_run_set_attr(runs[r], key, pdb_instruments_kind(opts->instruments, 1u << i));
			free(key);
		}
	if (load > pdb_exec_cpus_allowed() && opts->progress) {
		char msg[160];
		struct pdb_progress p = { .event = PDB_PROGRESS_WARNING, .message = msg };
		snprintf(msg, sizeof msg, "the machine is busy (load average %.2f, %d CPUs): results may be noisy",
			 load, pdb_exec_cpus_allowed());
		opts->progress(opts->ctx, &p);
	}
}

static void warn(const struct pdb_runner_opts *opts, const char *bench, const char *what)
{
	char msg[1200];
	struct pdb_progress p = { .event = PDB_PROGRESS_WARNING, .message = msg };

	if (!opts->progress)
		return;
	snprintf(msg, sizeof msg, "%s: %s", bench, what);
	opts->progress(opts->ctx, &p);
}

/* A sampler for a measured step of a benchmark with sample: (its own, else
 * the spec's), or NULL; one that cannot start is warned about. */
static struct pdb_sampler *sample_begin(const struct pdb_spec *spec, const struct pdb_step *s,
					const struct pdb_runner_opts *opts)
{
	const struct pdb_bench_spec *b = &spec->benches[s->bench];
	const struct pdb_sample_spec *ss = b->sample ? b->sample : spec->sample;
	struct pdb_sampler *smp;
	struct pdb_err err;

	if (!ss || s->kind != PDB_STEP_MEASURE)
		return NULL;
	if (!(smp = pdb_sampler_start(ss, &err)))
		warn(opts, b->name, err.msg);
	return smp;
}

/* Stop the step's sampler; a repetition that succeeded (ok) keeps its
 * readings as series. What the sampler warns of is said once, at the
 * first repetition. */
static void sample_end(struct pdb_sampler *smp, struct pdb_run *run, const struct pdb_spec *spec,
		       const struct pdb_step *s, int ok, const struct pdb_runner_opts *opts)
{
	const struct pdb_sample_readings *rd;
	struct pdb_attr dims[32];
	char warning[1024];

	if (!smp)
		return;
	rd = pdb_sampler_stop(smp);
	if (ok) {
		pdb_sample_readings_to_run(rd, run, spec->benches[s->bench].name, dims,
					   point_dims(spec, s->bench, s->point, dims), warning, sizeof warning);
		if (warning[0] && s->rep == 0)
			warn(opts, spec->benches[s->bench].name, warning);
	}
	pdb_sampler_free(smp);
}

/* The end of look k of an adaptive plan: the runs' status so far (an A/B
 * pair is tested paired only when both are complete), then the caller's
 * word on going on. Nonzero: stop. */
static int look(const struct pdb_plan *plan, size_t k, const struct pdb_runner_opts *opts,
		struct pdb_run *const *runs, size_t nruns, const int *failed, double elapsed)
{
	struct pdb_look l = { .look = k, .nlooks = plan->nlooks, .pairs = plan->looks[k],
			      .elapsed = elapsed };

	if (!opts->look)
		return 0;
	for (size_t v = 0; v < nruns; v++)
		pdb_set_str(&runs[v]->status, failed[v] ? "failed" : "complete");
	return opts->look(opts->ctx, &l);
}

int pdb_runner_execute(const struct pdb_spec *spec, const struct pdb_plan *plan,
		       const struct pdb_runner_opts *opts, struct pdb_run *const *runs,
		       struct pdb_err *err)
{
	const char *tmpdir = getenv("TMPDIR");
	size_t nruns = spec->nvariants ? spec->nvariants : 1;
	char out_path[4096];
	double t0 = now();
	int *failed = pdb_xcalloc(nruns, sizeof *failed), fd, ret = -1;
	unsigned char *ran = pdb_xcalloc(plan->nsteps + 1, 1);
	struct pdb_stages stages = { 0 };

	snprintf(out_path, sizeof out_path, "%s/perfdb-stdout-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if ((fd = mkstemp(out_path)) < 0) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "temporary file: %s", strerror(errno));
		goto out;
	}
	close(fd);
	environment(runs, nruns, opts);
	for (size_t i = 0; i < plan->nsteps && !(opts->stop && *opts->stop); i++) {
		const struct pdb_step *s = &plan->steps[i];
		const struct pdb_bench_spec *b = &spec->benches[s->bench];
		struct pdb_run *run = runs[s->variant];
		char *point = pdb_plan_point_text(spec, s->bench, s->point), why[600] = "";
		struct pdb_progress p = { .event = PDB_PROGRESS_START, .step = i, .nsteps = plan->nsteps,
					  .s = s, .bench = b->name, .point = point,
					  .variant = spec->nvariants ? spec->variants[s->variant].name : NULL };
		struct pdb_exec_result res;
		struct pdb_exec_opts eo;
		struct pdb_exec_group kept;
		struct pdb_sampler *smp;
		struct expanded x;
		int bad;

		if (plan->nlooks && i && s->look != plan->steps[i - 1].look &&
		    look(plan, plan->steps[i - 1].look, opts, runs, nruns, failed, now() - t0)) {
			free(point);
			break;
		}
		expand(spec, s, &x);
		eo = (struct pdb_exec_opts){ .argv = (const char *const *)x.argv, .shell = x.shell,
			.env = x.env, .nenv = x.nenv, .cwd = x.cwd, .vcpus = pdb_plan_vcpus(spec, s->bench, s->point),
			.timeout = b->timeout, .stop = opts->stop,
			/* a setup's stages live on: into the null device, not the next step's output */
			.stdout_path = s->kind == PDB_STEP_SETUP ? NULL : out_path,
			.keep = s->kind == PDB_STEP_SETUP ? &kept : NULL,
			.steady_env = b->measure && (s->kind == PDB_STEP_MEASURE || s->kind == PDB_STEP_WARMUP),
			.counters = s->kind == PDB_STEP_MEASURE && b->measure && !opts->instruments->valgrind
				    ? b->measure : 0 };
		p.elapsed = now() - t0;
		p.eta = i ? p.elapsed / (double)i * (double)(plan->nsteps - i) : 0;
		if (opts->progress)
			opts->progress(opts->ctx, &p);
		smp = sample_begin(spec, s, opts);
		if ((b->kafka || b->stream) && (s->kind == PDB_STEP_MEASURE || s->kind == PDB_STEP_WARMUP)) {
			if (b->kafka)
				run_kafka(run, spec, s, i, opts, &res);
			else
				run_stream(run, spec, s, i, opts, &res);
			if (res.status != 0)
				record_failure(run, spec, s, &res, res.stderr_tail);
			failed[s->variant] |= res.status != 0 && !b->allow_failure;
			ran[i] = res.status != 0 ? 2 : 1;
			if (res.status != 0)
				snprintf(why, sizeof why, "%s", res.stderr_tail);
			goto done;
		}
		if (pdb_exec_run(&eo, &res, err) < 0) {
			pdb_sampler_free(smp);
			expanded_release(&x);
			free(point);
			unlink(out_path);
			goto out;
		}
		if (s->kind == PDB_STEP_SETUP && kept.pgid > 0)
			pdb_stages_keep(&stages, plan, i, &kept);
		bad = res.status != 0 || res.timed_out;
		if (s->kind == PDB_STEP_MEASURE && !res.interrupted && !bad) {
			/* the repetition's values go into the run only when all of
			 * them could be read: a failed repetition stores none */
			struct pdb_run *rep = pdb_run_new();
			add_value(rep, spec, s, "wall_time", "s", res.wall);
			add_value(rep, spec, s, "user_time", "s", res.user);
			add_value(rep, spec, s, "sys_time", "s", res.sys);
			/* user + sys: the kernel keeps their sum exact (to the
			 * microsecond), their split only to the clock tick */
			add_value(rep, spec, s, "cpu_time", "s", res.user + res.sys);
			add_value(rep, spec, s, "peak_rss", "B", res.max_rss);
			bad = regex_metrics(rep, spec, s, out_path, why, sizeof why) < 0 ||
			      (b->parse_format && parse_output(rep, spec, s, &x, out_path, why, sizeof why) < 0);
			if (!bad && b->measure) {
				double counts[PDB_MEASURE_COUNT];
				if (smp)
					pdb_sampler_stop(smp); /* the readings are of the plain run */
				if (pdb_instruments_values(opts->instruments, b->measure, &eo, &res, counts, why,
							   sizeof why) < 0) {
					bad = 1;
					res.interrupted = opts->stop && *opts->stop;
				} else
					add_counts(rep, spec, s, b->measure, counts);
			}
			if (!bad)
				pdb_run_merge(run, rep);
			pdb_run_free(rep);
		}
		if (bad && !res.interrupted) {
			record_failure(run, spec, s, &res, why[0] ? why : NULL);
			failed[s->variant] |= !b->allow_failure;
		}
		if (!res.interrupted)
			ran[i] = bad ? 2 : 1;
done:
		sample_end(smp, run, spec, s, ran[i] == 1 && !res.interrupted, opts);
		pdb_stages_after(&stages, i);
		p.event = PDB_PROGRESS_DONE;
		p.res = &res;
		p.why = why[0] ? why : NULL;
		p.elapsed = now() - t0;
		p.eta = p.elapsed / (double)(i + 1) * (double)(plan->nsteps - i - 1);
		if (opts->progress)
			opts->progress(opts->ctx, &p);
		expanded_release(&x);
		free(point);
	}
	unlink(out_path);
	/* the last look: the caller says its verdicts (and there is no more to run) */
	if (plan->nlooks && plan->nsteps && !(opts->stop && *opts->stop) && ran[plan->nsteps - 1])
		look(plan, plan->steps[plan->nsteps - 1].look, opts, runs, nruns, failed, now() - t0);
	count_reps(spec, plan, ran, runs);
	for (size_t v = 0; v < nruns; v++) {
		count_failed_reps(spec, plan, ran, v, runs[v]);
		pdb_set_str(&runs[v]->status, opts->stop && *opts->stop ? "interrupted"
				: failed[v] ? "failed" : "complete");
	}
	ret = 0;
out:
	pdb_stages_stop_all(&stages);
	free(ran);
	free(failed);
	return ret;
}
