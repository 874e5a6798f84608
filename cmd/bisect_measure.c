/* perfdb bisect: one measurement, a revision alone or an A/B run of two, stored. */
#include "bisect_measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "fingerprint.h"
#include "gather/compare_gather.h"
#include "run_adaptive.h"
#include "runner/runner.h"
#include "util.h"

/* The looks of an A/B run: the schedule and budget, and the judge. */
struct looks {
	const struct bisect_env *env;
	struct adaptive ad;                /* the schedule, budget and runs */
	bisect_judge judge;
	void *ctx;
	int decided;
};

static int on_look(void *vctx, const struct pdb_look *l)
{
	struct looks *k = vctx;
	int stop;

	k->ad.pairs = l->pairs;
	k->ad.elapsed = l->elapsed;
	fprintf(stderr, "%sperfdb: bisect: look %zu/%zu: %d triples, %.0f s\n", k->env->tty ? "\r\033[K" : "",
		l->look + 1, l->nlooks, l->pairs, l->elapsed);
	stop = k->decided = k->judge(k->ctx, k->ad.runs, l);
	return stop || l->look + 1 >= l->nlooks || !adaptive_next_fits(&k->ad, l);
}

/* Store the runs measured; their ids into m. An exit status, or 0. */
static int store_runs(const struct bisect_env *env, struct pdb_run *const *runs, size_t nruns,
		      const char *const *commits, const char *const *dirs, struct bisect_measured *m)
{
	const char *fp = getenv("PERFDB_FINGERPRINT");
	struct pdb_err err;
	int interrupted = 0;

	for (size_t v = 0; v < nruns; v++) {
		pdb_set_str(&runs[v]->tool, "perfdb");
		pdb_set_str(&runs[v]->format, "run");
		pdb_set_str(&runs[v]->source, env->spec_path);
		if (!(fp && (strcmp(fp, "0") == 0 || strcmp(fp, "off") == 0)))
			pdb_fingerprint_capture(runs[v], dirs[v]);
		if (pdb_store_insert_run(env->store, runs[v], 0, &err) < 0)
			return cmd_fail("bisect", &err);
		interrupted |= strcmp(runs[v]->status, "interrupted") == 0;
		fprintf(stderr, "perfdb: bisect: stored run%lld (%s, %.12s)\n", (long long)runs[v]->id,
			env->spec->variants[v].name, commits[v]);
	}
	for (size_t v = 0; v < nruns; v++)
		m->runs[v] = runs[v]->id;
	m->nruns = nruns;
	if (interrupted) {
		fprintf(stderr, "perfdb: bisect: interrupted; what finished is stored\n");
		return 130;
	}
	for (size_t v = 0; v < nruns; v++)
		if (strcmp(runs[v]->status, "failed") == 0) {
			fprintf(stderr, "perfdb: bisect: a benchmark failed at %.12s (see the failed.* attributes "
				"of run%lld): this bisection cannot measure it\n", commits[v],
				(long long)runs[v]->id);
			return PDB_EXIT_RUNTIME;
		}
	return 0;
}

/* The spec's variants names[0..n) at commits revs, each {dir} its worktree,
 * checked out and built the first time the bisection asks for it. 0, or an
 * exit status. */
static int set_variants(const struct bisect_env *env, const char *const *names, const char *const *revs,
			size_t n, const char **dirs)
{
	int status;

	for (size_t v = 0; v < n; v++)
		if ((status = bisect_trees_get(env->trees, env->spec, revs[v], env->stop, &dirs[v])) != 0)
			return status;
	pdb_spec_set_revisions(env->spec, names, revs, n);
	for (size_t v = 0; v < n; v++)
		pdb_variant_set(&env->spec->variants[v], "dir", dirs[v]);
	return 0;
}

/* Run the plan over the spec's variants (revs, in their worktrees dirs)
 * and store the runs. */
static int measure(const struct bisect_env *env, const struct pdb_plan *plan, struct looks *looks,
		   const char *const *revs, const char *const *dirs, struct bisect_measured *m)
{
	struct pdb_spec *spec = env->spec;
	struct pdb_instruments inst = { 0 };
	struct pdb_run *runs[PDB_CHECKOUTS_MAX] = { NULL };
	struct pdb_runner_opts ro = { .stop = env->stop, .look = looks ? on_look : NULL, .ctx = looks };
	struct pdb_err err;
	char ab[37];
	int status = 0;

	if (pdb_instruments_choose(spec, plan, &inst, &err) < 0) {
		status = cmd_fail("bisect", &err);
		goto out;
	}
	pdb_uuid4(ab);
	for (size_t v = 0; v < spec->nvariants; v++) {
		runs[v] = pdb_run_new();
		pdb_run_set_attr(runs[v], "commit", revs[v]);
		pdb_run_set_attr(runs[v], "bisect", env->id);
		pdb_run_set_attr(runs[v], "variant", spec->variants[v].name);
		if (spec->nvariants > 1)
			pdb_run_set_attr(runs[v], "ab", ab);
	}
	if (looks) {
		char alpha[32];
		snprintf(alpha, sizeof alpha, "%.17g", looks->ad.sched.look_alpha);
		for (size_t v = 0; v < spec->nvariants; v++)
			pdb_run_set_attr(runs[v], "ab_alpha", alpha);
		looks->ad.runs = runs;
	}
	ro.instruments = &inst;
	if (pdb_runner_execute(spec, plan, &ro, runs, &err) < 0) {
		status = cmd_fail("bisect", &err);
		goto out;
	}
	if (looks) {
		m->reps = looks->ad.pairs;
		m->seconds = looks->ad.elapsed;
		m->decided = looks->decided;
	}
	status = store_runs(env, runs, spec->nvariants, revs, dirs, m);
out:
	pdb_instruments_release(&inst);
	for (size_t v = 0; v < PDB_CHECKOUTS_MAX; v++)
		pdb_run_free(runs[v]);
	return status;
}

/* "23 looks at 16, 20, ... 1000 triples, a sequential sign test at alpha A" */
static void looks_text(const struct pdb_bisect_looks *s, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "%zu look%s at ", s->n, s->n > 1 ? "s" : "");

	for (size_t i = 0; i < s->n && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%d", i ? ", " : "", s->at[i]);
	if (n < size)
		snprintf(buf + n, size - n, " triples, a sequential sign test at alpha %g (%.2g a look)", s->alpha,
			 2 * s->tail);
}

int bisect_measure_triples(const struct bisect_env *env, const char *good, const char *mid, const char *bad,
			   const struct pdb_bisect_looks *schedule, double budget, bisect_judge judge, void *ctx,
			   struct bisect_measured *m)
{
	static const char *const names[3] = { "good", "mid", "bad" };
	const char *revs[3] = { good, mid, bad }, *dirs[3];
	struct looks looks = { .env = env, .judge = judge, .ctx = ctx };
	struct pdb_plan plan = { 0 };
	struct pdb_err err;
	char text[1024];
	int status;

	memset(m, 0, sizeof *m);
	looks.ad.who = "bisect";
	looks.ad.tty = env->tty;
	looks.ad.budget = budget;
	looks.ad.sched.nlooks = schedule->n;
	memcpy(looks.ad.sched.looks, schedule->at, schedule->n * sizeof *schedule->at);
	looks.ad.sched.alpha = schedule->alpha;
	looks.ad.sched.look_alpha = 2 * schedule->tail;
	if ((status = set_variants(env, names, revs, 3, dirs)) != 0)
		return status;
	if (pdb_plan_build_looks(env->spec, env->only, PDB_PLAN_AUTO, schedule->at, schedule->n, &plan, &err) < 0) {
		status = cmd_fail("bisect", &err);
		goto out;
	}
	looks_text(schedule, text, sizeof text);
	fprintf(stderr, "perfdb: bisect: %.12s between %.12s and %.12s: %s; budget %.0f s\n", mid, good, bad,
		text, budget);
	status = measure(env, &plan, &looks, revs, dirs, m);
out:
	pdb_plan_release(&plan);
	return status;
}

int bisect_measure_one(const struct bisect_env *env, const char *name, const char *commit,
		       struct bisect_measured *m)
{
	struct pdb_plan plan = { 0 };
	struct pdb_err err;
	const char *dir;
	int status;

	memset(m, 0, sizeof *m);
	if ((status = set_variants(env, &name, &commit, 1, &dir)) != 0)
		return status;
	if (pdb_plan_build(env->spec, env->only, 0, &plan, &err) < 0)
		status = cmd_fail("bisect", &err);
	else
		status = measure(env, &plan, NULL, &commit, &dir, m);
	pdb_plan_release(&plan);
	return status;
}

int bisect_same_row(const struct bisect_row *a, const struct bisect_row *b)
{
	return strcmp(a->benchmark, b->benchmark) == 0 && strcmp(a->dims, b->dims) == 0 &&
	       strcmp(a->metric, b->metric) == 0;
}

const struct pdb_compare_row *bisect_find_row(const struct pdb_compare *c, const struct bisect_row *row)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (strcmp(c->rows[i].benchmark, row->benchmark) == 0 && strcmp(c->rows[i].dims, row->dims) == 0 &&
		    strcmp(c->rows[i].metric, row->metric) == 0)
			return &c->rows[i];
	return NULL;
}

void bisect_row_set(struct bisect_row *row, const struct pdb_compare_row *r)
{
	row->direction = r->direction;
	row->lo = log1p(r->ci_low_pct / 100);
	row->est = log1p(r->change_pct / 100);
	row->hi = log1p(r->ci_high_pct / 100);
}

int bisect_row_worse(const struct bisect_row *row)
{
	return row->direction == PDB_DIR_NONE || pdb_direction_worse_sign(row->direction) * row->est > 0;
}

size_t bisect_row_logs(const struct pdb_run *run, const struct bisect_row *row, double **logs)
{
	*logs = NULL;
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		char *dims;
		int same;
		if (strcmp(r->benchmark, row->benchmark) != 0 || strcmp(r->metric, row->metric) != 0)
			continue;
		dims = pdb_dims_display(r->dims, r->ndims);
		same = strcmp(dims, row->dims) == 0;
		free(dims);
		if (!same || !r->nsamples)
			continue;
		*logs = pdb_xcalloc(r->nsamples, sizeof **logs);
		for (size_t k = 0; k < r->nsamples; k++)
			(*logs)[k] = r->samples[k].value > 0 ? log(r->samples[k].value) : NAN;
		return r->nsamples;
	}
	return 0;
}
