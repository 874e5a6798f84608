/* Unit tests: quality of the compare gate (false alarms, power, single-sample history). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "compare.h"
#include "gather/compare_gather.h"
#include "model.h"
#include "store/store.h"
#include "util.h"

#define TRIALS 200
#define SIGMA 0.03

/* splitmix64 and Box-Muller: the same numbers on every machine. */
static uint64_t rng_state;

static double uniform(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double gaussian(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

static double lognormal(double median, double sigma)
{
	return median * exp(sigma * gaussian());
}

struct fixture {
	char path[64];
	struct pdb_store *store;
};

static int setup(void **state)
{
	struct fixture *f = pdb_xcalloc(1, sizeof *f);
	struct pdb_err err;
	int fd;

	snprintf(f->path, sizeof f->path, "/tmp/perfdb-gate-XXXXXX");
	if ((fd = mkstemp(f->path)) < 0)
		return -1;
	close(fd);
	unlink(f->path);
	if (!(f->store = pdb_store_open(f->path, &err)))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char wal[80];

	pdb_store_close(f->store);
	unlink(f->path);
	snprintf(wal, sizeof wal, "%s-wal", f->path);
	unlink(wal);
	snprintf(wal, sizeof wal, "%s-shm", f->path);
	unlink(wal);
	free(f);
	return 0;
}

/* A run of TRIALS series "b000".."b199" (time, lower is better), each
 * with n lognormal samples around median * factor. Returns its id. */
static int64_t add_run(struct pdb_store *store, size_t n, double factor)
{
	struct pdb_run *run = pdb_run_new();
	struct pdb_err err;
	int64_t id;

	pdb_set_str(&run->tool, "test");
	pdb_set_str(&run->format, "test");
	for (int s = 0; s < TRIALS; s++) {
		char name[16];
		struct pdb_result *r;

		snprintf(name, sizeof name, "b%03d", s);
		r = pdb_run_add_result(run, name, "time", "s");
		for (size_t i = 0; i < n; i++) {
			struct pdb_sample smp = PDB_SAMPLE(lognormal(0.1 * (1 + s % 7), SIGMA) * factor);
			pdb_result_add_sample(r, &smp);
		}
	}
	assert_int_equal(pdb_store_insert_run(store, run, 1, &err), 0);
	id = run->id;
	pdb_run_free(run);
	return id;
}

/* Compare base with cand: how many of the TRIALS series are regressions. */
/* The regressions of a comparison; run_noise_pct: perfdb.yaml's
 * `compare: run_noise:` (NaN: the default of each metric's role). */
static size_t regressions_at(struct pdb_store *store, int64_t base, int64_t cand,
			     double run_noise_pct, const char **band)
{
	struct pdb_compare_config cfg;
	struct pdb_compare_opts opts;
	struct pdb_compare c;
	struct pdb_err err;
	size_t n;

	pdb_compare_config_init(&cfg);
	cfg.run_noise_pct = run_noise_pct;
	pdb_compare_opts_init(&opts);
	opts.config = &cfg;
	assert_int_equal(pdb_compare_run_groups(store, &base, 1, &cand, 1, &opts, &c, &err), 0);
	assert_int_equal(c.nrows, TRIALS);
	n = c.counts[PDB_VERDICT_REGRESSION];
	*band = c.rows[0].band;
	pdb_compare_release(&c);
	return n;
}

static size_t regressions(struct pdb_store *store, int64_t base, int64_t cand,
			  const char **band)
{
	return regressions_at(store, base, cand, NAN, band);
}

static void test_false_alarms(void **state)
{
	struct fixture *f = *state;
	const char *band;
	int64_t a, b;
	size_t n;

	rng_state = 1;
	a = add_run(f->store, 10, 1.0);
	b = add_run(f->store, 10, 1.0);
	n = regressions(f->store, a, b, &band);
	print_message("A/A 10 vs 10, sigma 3%%: %zu of %d flagged\n", n, TRIALS);
	assert_string_equal(band, "samples+run noise");
	assert_true(n <= TRIALS / 100);
	/* a quiet machine's configuration: the samples alone */
	n = regressions_at(f->store, a, b, 0, &band);
	assert_string_equal(band, "samples");
	assert_true(n <= TRIALS / 100);
}

static void test_power(void **state)
{
	struct fixture *f = *state;
	const char *band;
	int64_t a, b;
	size_t n;

	rng_state = 2;
	a = add_run(f->store, 10, 1.0);
	b = add_run(f->store, 10, 1.10);
	/* two runs and no history: 10 % is inside the run-to-run noise
	 * assumed for a time (30 % a run), and is not called */
	n = regressions(f->store, a, b, &band);
	print_message("10%% slowdown 10 vs 10, sigma 3%%, no history: %zu of %d flagged\n", n,
		      TRIALS);
	assert_int_equal(n, 0);
	/* a quiet machine's configuration (run_noise: 0) sees it */
	n = regressions_at(f->store, a, b, 0, &band);
	print_message("the same with run_noise 0: %zu of %d flagged\n", n, TRIALS);
	assert_true(n >= TRIALS * 95 / 100);
	/* and a quadrupled time is beyond that noise */
	b = add_run(f->store, 10, 4.0);
	n = regressions(f->store, a, b, &band);
	print_message("4x slowdown, no history: %zu of %d flagged\n", n, TRIALS);
	assert_true(n >= TRIALS * 95 / 100);
}

/* One value a run: 30 runs of history, then A/A and a 40 % slowdown. The
 * band of 3 % noise is near 15 %, so some series pass 20 % and are called
 * noisy instead: the slowdown is flagged as a regression in most. */
static void test_single_sample_history(void **state)
{
	struct fixture *f = *state;
	const char *band;
	int64_t ids[32];
	size_t n;

	rng_state = 3;
	for (int i = 0; i < 31; i++)
		ids[i] = add_run(f->store, 1, 1.0);
	n = regressions(f->store, ids[29], ids[30], &band);
	print_message("single sample A/A with 30 runs of history: %zu of %d flagged\n", n,
		      TRIALS);
	assert_string_equal(band, "history");
	assert_true(n <= TRIALS * 2 / 100);
	ids[31] = add_run(f->store, 1, 1.40);
	n = regressions(f->store, ids[30], ids[31], &band);
	print_message("single sample 40%% slowdown: %zu of %d flagged\n", n, TRIALS);
	assert_true(n >= TRIALS * 80 / 100);
}

/* Without history one value a side has no spread: insufficient, never a
 * regression on a fixed band, however large the change. */
static void test_single_sample_static(void **state)
{
	struct fixture *f = *state;
	struct pdb_compare_opts opts;
	struct pdb_compare c;
	struct pdb_err err;
	int64_t a, b;

	rng_state = 4;
	a = add_run(f->store, 1, 1.0);
	b = add_run(f->store, 1, 1.5);
	pdb_compare_opts_init(&opts);
	assert_int_equal(pdb_compare_run_groups(f->store, &a, 1, &b, 1, &opts, &c, &err), 0);
	assert_int_equal(c.counts[PDB_VERDICT_INSUFFICIENT], TRIALS);
	assert_null(c.rows[0].test);
	pdb_compare_release(&c);
}

/* Runs of a branch whose location wanders from run to run: SEQ_SERIES
 * benchmarks, each run's median SEQ_TAU (log SD) off the branch's level,
 * its 10 samples 3 % around that. Within-run tests call most pairs of
 * runs different; the history test must not. */
#define SEQ_SERIES 100
#define SEQ_RUNS 30
#define SEQ_TAU 0.10
#define SHORT_HISTORY 8

static int64_t add_wandering_run(struct pdb_store *store, double factor)
{
	struct pdb_run *run = pdb_run_new();
	struct pdb_err err;
	int64_t id;

	pdb_set_str(&run->tool, "test");
	pdb_set_str(&run->format, "test");
	pdb_run_set_attr(run, "branch", "main");
	for (int s = 0; s < SEQ_SERIES; s++) {
		double level = 0.1 * (1 + s % 7) * exp(SEQ_TAU * gaussian()) * factor;
		struct pdb_result *r;
		char name[16];

		snprintf(name, sizeof name, "b%03d", s);
		r = pdb_run_add_result(run, name, "time", "s");
		for (int i = 0; i < 10; i++) {
			struct pdb_sample smp = PDB_SAMPLE(lognormal(level, SIGMA));
			pdb_result_add_sample(r, &smp);
		}
	}
	assert_int_equal(pdb_store_insert_run(store, run, 1, &err), 0);
	id = run->id;
	pdb_run_free(run);
	return id;
}

/* Gates base -> cand: the series that fail, and how many the history test
 * decided. */
static size_t history_gate(struct pdb_store *store, int64_t base, int64_t cand, size_t *by_history)
{
	struct pdb_compare_opts opts;
	struct pdb_compare c;
	struct pdb_err err;
	size_t n = 0;

	pdb_compare_opts_init(&opts);
	assert_int_equal(pdb_compare_run_groups(store, &base, 1, &cand, 1, &opts, &c, &err), 0);
	*by_history = 0;
	for (size_t i = 0; i < c.nrows; i++) {
		n += (size_t)pdb_compare_row_fails(&c.rows[i], PDB_FAIL_ON_DEFAULT);
		*by_history += c.rows[i].test && strcmp(c.rows[i].test, "history") == 0;
	}
	pdb_compare_release(&c);
	return n;
}

/* Sequential gating, each run against the one before, once the branch has
 * 5 runs: at most 1 % false alarms over 2,500 gates; a shift found as the
 * history grows (the bound for one run a side: a shift of k run-to-run SDs
 * is at best found with the probability of Z > 2.58 - k / sqrt(2)). */
static void test_sequential_history(void **state)
{
	struct fixture *f = *state;
	int64_t ids[SEQ_RUNS + 1];
	size_t alarms = 0, gates = 0, decided = 0, by_history, found[4], short_found = 0;
	static const double shifts[4] = { 2, 4, 6, 8 };

	rng_state = 6;
	for (int r = 0; r < SEQ_RUNS; r++) {
		ids[r] = add_wandering_run(f->store, 1.0);
		if (r == SHORT_HISTORY - 1) {
			/* 8 runs of history: a shift of 8 SDs is found, not left
			 * inconclusive for want of runs */
			ids[SEQ_RUNS] = add_wandering_run(f->store, exp(8 * SEQ_TAU));
			short_found = history_gate(f->store, ids[r], ids[SEQ_RUNS], &by_history);
			assert_int_equal(pdb_store_delete_run(f->store, ids[SEQ_RUNS],
							      &(struct pdb_err){ 0 }), 0);
		}
		if (r < 5)
			continue;
		alarms += history_gate(f->store, ids[r - 1], ids[r], &by_history);
		gates += SEQ_SERIES;
		decided += by_history;
	}
	for (int k = 0; k < 4; k++) {
		ids[SEQ_RUNS] = add_wandering_run(f->store, exp(shifts[k] * SEQ_TAU));
		found[k] = history_gate(f->store, ids[SEQ_RUNS - 1], ids[SEQ_RUNS], &by_history);
		decided += by_history;
		/* the shifted run leaves the branch's history for the next */
		assert_int_equal(pdb_store_delete_run(f->store, ids[SEQ_RUNS], &(struct pdb_err){ 0 }), 0);
	}
	print_message("sequential A/A with history (run-to-run SD %.0f %%): %zu of %zu gates fail, "
		      "%zu decided by history; shifts of 2, 4, 6, 8 SDs found in %zu, %zu, %zu, %zu of %d; "
		      "8 SDs with %d runs of history in %zu\n",
		      100 * SEQ_TAU, alarms, gates, decided, found[0], found[1], found[2], found[3],
		      SEQ_SERIES, SHORT_HISTORY, short_found);
	assert_int_equal(decided, gates + 4 * SEQ_SERIES);
	assert_true(alarms * 100 <= gates);
	assert_true(found[3] >= SEQ_SERIES * 95 / 100);
	assert_true(short_found >= SEQ_SERIES * 50 / 100);
}

/* A shared, loaded runner, from the first pair of runs on: each run's wall
 * times share the run's load (log SD 0.35 from run to run, and one run in
 * ten caught whole by a burst that doubles it), so its samples are not
 * independent; CPU time moves 5 % from run to run (7 % in a burst). Each
 * benchmark's sequential gate (wall_time and cpu_time, as perfdb run
 * records them) against the run before: at most 1 % fail, and a
 * benchmark that does twice the work fails in at least 95 %. */
#define LOADED_BENCHES 100
#define LOADED_RUNS 25

/* A run of tool "test" on branch, to fill with add_timed. */
static struct pdb_run *new_test_run(const char *branch)
{
	struct pdb_run *run = pdb_run_new();

	pdb_set_str(&run->tool, "test");
	pdb_set_str(&run->format, "test");
	pdb_run_set_attr(run, "branch", branch);
	return run;
}

/* Benchmark bNNN (s) of run as perfdb run records it: 10 repetitions of a
 * CPU time about cpu (2 % each), their wall times 1.1 x load x mult that
 * (8 % each). */
static void add_timed(struct pdb_run *run, int s, double cpu, double load, double mult)
{
	struct pdb_result *w, *c;
	char name[16];

	snprintf(name, sizeof name, "b%03d", s);
	w = pdb_run_add_result(run, name, "wall_time", "s");
	c = pdb_run_add_result(run, name, "cpu_time", "s");
	for (int i = 0; i < 10; i++) {
		double ci = lognormal(cpu, 0.02);
		struct pdb_sample ws = PDB_SAMPLE(ci * 1.1 * load * mult * exp(0.08 * gaussian()));
		struct pdb_sample cs = PDB_SAMPLE(ci);
		pdb_result_add_sample(w, &ws);
		pdb_result_add_sample(c, &cs);
	}
}

/* Stores run (and frees it); its id. */
static int64_t insert_run(struct pdb_store *store, struct pdb_run *run)
{
	struct pdb_err err;
	int64_t id;

	assert_int_equal(pdb_store_insert_run(store, run, 1, &err), 0);
	id = run->id;
	pdb_run_free(run);
	return id;
}

static int64_t add_loaded_run(struct pdb_store *store, double work)
{
	struct pdb_run *run = new_test_run("main");
	double load = exp(0.35 * gaussian()), burst = uniform() < 0.1;

	for (int s = 0; s < LOADED_BENCHES; s++)
		add_timed(run, s, 0.05 * (1 + s % 7) * work * exp((burst ? 0.07 : 0.05) * gaussian()),
			  load, burst ? 2 : 1);
	return insert_run(store, run);
}

/* The benchmarks whose gate fails in base -> cand. */
static size_t benches_failed(struct pdb_store *store, int64_t base, int64_t cand)
{
	struct pdb_compare_opts opts;
	struct pdb_compare c;
	struct pdb_err err;
	char failed[LOADED_BENCHES] = { 0 };
	size_t n = 0;

	pdb_compare_opts_init(&opts);
	assert_int_equal(pdb_compare_run_groups(store, &base, 1, &cand, 1, &opts, &c, &err), 0);
	for (size_t i = 0; i < c.nrows; i++)
		if (pdb_compare_row_fails(&c.rows[i], PDB_FAIL_ON_DEFAULT))
			failed[atoi(c.rows[i].benchmark + 1)] = 1;
	pdb_compare_release(&c);
	for (int s = 0; s < LOADED_BENCHES; s++)
		n += failed[s];
	return n;
}

static void test_loaded_runner(void **state)
{
	struct fixture *f = *state;
	size_t gates = 0, failed = 0, failed_early = 0, doubled_early, doubled;
	int64_t prev, id, slow;

	rng_state = 9;
	prev = add_loaded_run(f->store, 1.0);
	/* a doubled benchmark before any history */
	slow = add_loaded_run(f->store, 2.0);
	doubled_early = benches_failed(f->store, prev, slow);
	assert_int_equal(pdb_store_delete_run(f->store, slow, &(struct pdb_err){ 0 }), 0);
	for (int r = 1; r < LOADED_RUNS; r++) {
		size_t n;
		id = add_loaded_run(f->store, 1.0);
		n = benches_failed(f->store, prev, id);
		failed += n;
		failed_early += r < 5 ? n : 0;
		gates += LOADED_BENCHES;
		prev = id;
	}
	slow = add_loaded_run(f->store, 2.0);
	doubled = benches_failed(f->store, prev, slow);
	print_message("loaded runner, sequential from the first pair: %zu of %zu benchmark gates "
		      "fail (%zu in the first 4 pairs); twice the work fails %zu of %d without "
		      "history, %zu of %d with\n", failed, gates, failed_early, doubled_early,
		      LOADED_BENCHES, doubled, LOADED_BENCHES);
	assert_true(gates >= 2000);
	assert_true(failed * 100 <= gates);
	assert_true(doubled_early >= LOADED_BENCHES * 95 / 100);
	assert_true(doubled >= LOADED_BENCHES * 95 / 100);
}

/* A runner whose neighbours move every benchmark's CPU time at once (a
 * shared cache and memory bus, docs/gate-noise.md: D c11, G c16): each run
 * a shared factor of 3 % log SD, and one run in eight a burst of +20 %
 * on all; each benchmark 3 % of its own; wall time besides at the run's
 * load. SHARED_HISTORIES histories of SHARED_RUNS runs of SHARED_BENCHES
 * benchmarks, each run gated against the one before from the first pair on: at most 1 % of the benchmark gates fail, and
 * one benchmark doing twice the work fails in 95 % or more, alone or with
 * all the others. */
#define SHARED_BENCHES 6
#define SHARED_HISTORIES 4
#define SHARED_RUNS 90

static int64_t add_shared_run(struct pdb_store *store, const char *branch, const double *work)
{
	struct pdb_run *run = new_test_run(branch);
	double load = exp(0.35 * gaussian());
	double shared = exp(0.03 * gaussian() + (uniform() < 0.125 ? log(1.2) : 0));

	for (int s = 0; s < SHARED_BENCHES; s++)
		add_timed(run, s, 0.02 * (1 + s) * work[s] * shared * exp(0.03 * gaussian()), load, 1);
	return insert_run(store, run);
}

static void test_run_wide_moves(void **state)
{
	struct fixture *f = *state;
	static const double same[SHARED_BENCHES] = { 1, 1, 1, 1, 1, 1 };
	static const double one[SHARED_BENCHES] = { 1, 1, 2, 1, 1, 1 };
	static const double all[SHARED_BENCHES] = { 2, 2, 2, 2, 2, 2 };
	size_t gates = 0, failed = 0, one_failed = 0, all_failed = 0, tries = 0;
	int64_t prev, id, slow;

	rng_state = 17;
	for (int h = 0; h < SHARED_HISTORIES; h++) {
		char branch[16];
		snprintf(branch, sizeof branch, "main%d", h);
		prev = add_shared_run(f->store, branch, same);
		for (int r = 1; r < SHARED_RUNS; r++) {
			id = add_shared_run(f->store, branch, same);
			failed += benches_failed(f->store, prev, id);
			gates += SHARED_BENCHES;
			if (r % 6 == 0) { /* a pull request that doubles one, or all */
				tries++;
				slow = add_shared_run(f->store, "pr", one);
				one_failed += benches_failed(f->store, id, slow) >= 1;
				assert_int_equal(pdb_store_delete_run(f->store, slow, &(struct pdb_err){ 0 }), 0);
				slow = add_shared_run(f->store, "pr", all);
				all_failed += benches_failed(f->store, id, slow) == SHARED_BENCHES;
				assert_int_equal(pdb_store_delete_run(f->store, slow, &(struct pdb_err){ 0 }), 0);
			}
			prev = id;
		}
	}
	print_message("run-wide CPU moves: %zu of %zu benchmark gates fail; one benchmark doubled "
		      "fails %zu of %zu, all doubled %zu of %zu\n", failed, gates, one_failed, tries,
		      all_failed, tries);
	assert_true(gates >= 2000);
	assert_true(failed * 100 <= gates);
	assert_true(one_failed * 100 >= tries * 95);
	assert_true(all_failed * 100 >= tries * 95);
}

/* Three values a side: a rank test cannot reach p < 0.1, Welch's t on log
 * values can. Five times the time fails the gate (beyond the run-to-run
 * noise assumed for a time), 3 % noise does not. */
static void test_small_samples(void **state)
{
	struct fixture *f = *state;
	const char *band;
	int64_t a, b, c5;
	size_t same, slower;

	rng_state = 7;
	a = add_run(f->store, 3, 1.0);
	b = add_run(f->store, 3, 1.0);
	c5 = add_run(f->store, 3, 5.0);
	same = regressions(f->store, a, b, &band);
	slower = regressions(f->store, a, c5, &band);
	print_message("3 vs 3, sigma 3%%: A/A %zu of %d flagged, 5x %zu of %d\n", same, TRIALS,
		      slower, TRIALS);
	assert_true(same <= TRIALS / 100);
	assert_int_equal(slower, TRIALS);
}

/* A/B runs on a drifting, bursting machine: AB_SERIES benchmarks of
 * AB_PAIRS repetitions a variant, one execution a time slot. */
#define AB_SERIES 100
#define AB_PAIRS 50
#define AB_SIGMA 0.02

/* The machine over time: a random walk of 2 % an execution (about ±14 %
 * over a run of 100), and a CPU hog in bursts (on for 8 executions on
 * average, off for 12) that makes everything 30 % slower. Each execution
 * adds noise of its own (AB_SIGMA). With 30 pairs a 10 % slowdown failed the
 * gate in 97 of 100: 50 hold it at 99 or 100 over seeds 5 to 14. */
struct machine {
	double walk;
	int burst;
};

static double slowdown(struct machine *m)
{
	m->walk += 0.02 * gaussian();
	if (uniform() < (m->burst ? 1.0 / 8 : 1.0 / 12))
		m->burst = !m->burst;
	return exp(m->walk) * (m->burst ? 1.3 : 1.0);
}

/* The base and candidate runs of one A/B run: interleaved (pairs in ABBA
 * order, one ab id, as perfdb run stores them) or sequential (every base
 * repetition, then every candidate one: two runs without an ab id). The
 * candidate is shift times slower. */
static void add_ab_runs(struct pdb_store *store, int interleaved, double shift, int64_t ids[2])
{
	struct pdb_run *run[2] = { pdb_run_new(), pdb_run_new() };
	struct pdb_err err;

	for (int v = 0; v < 2; v++) {
		pdb_set_str(&run[v]->tool, "test");
		pdb_set_str(&run[v]->format, "test");
		if (interleaved)
			pdb_run_set_attr(run[v], "ab", "one-pair");
	}
	for (int s = 0; s < AB_SERIES; s++) {
		struct machine m = { 0, 0 };
		struct pdb_result *r[2];
		char name[16];

		snprintf(name, sizeof name, "b%03d", s);
		r[0] = pdb_run_add_result(run[0], name, "time", "s");
		r[1] = pdb_run_add_result(run[1], name, "time", "s");
		for (int slot = 0; slot < 2 * AB_PAIRS; slot++) {
			int pair = slot / 2, first = slot % 2 == 0;
			int v = interleaved ? (pair % 2 == 0) != first : slot >= AB_PAIRS;
			double x = lognormal(0.025 * (1 + s % 7) * slowdown(&m) * (v ? shift : 1), AB_SIGMA);
			struct pdb_sample smp = PDB_SAMPLE(x);
			pdb_result_add_sample(r[v], &smp);
		}
	}
	for (int v = 0; v < 2; v++) {
		assert_int_equal(pdb_store_insert_run(store, run[v], 1, &err), 0);
		ids[v] = run[v]->id;
		pdb_run_free(run[v]);
	}
}

/* How many of the AB_SERIES comparisons fail the default gate; how many
 * were tested paired. */
static size_t gate_failures(struct pdb_store *store, const int64_t ids[2], size_t *paired)
{
	struct pdb_compare_opts opts;
	struct pdb_compare c;
	struct pdb_err err;
	size_t n = 0;

	pdb_compare_opts_init(&opts);
	assert_int_equal(pdb_compare_run_groups(store, &ids[0], 1, &ids[1], 1, &opts, &c, &err), 0);
	assert_int_equal(c.nrows, AB_SERIES);
	for (size_t i = 0; i < c.nrows; i++)
		n += (size_t)pdb_compare_row_fails(&c.rows[i], PDB_FAIL_ON_DEFAULT);
	*paired = c.npaired;
	pdb_compare_release(&c);
	return n;
}

/* Interleaved A/A passes the gate in at least 99 of 100 comparisons, a 10 %
 * slowdown fails it in at least 99 of 100; run one after the other, the
 * same A/A (drift and bursts hit one side) is judged against the run-to-run
 * noise of the four runs before it, and passes too. */
static void test_ab_interleaved(void **state)
{
	struct fixture *f = *state;
	int64_t ids[2];
	size_t aa, slower, sequential, paired;

	rng_state = 5;
	add_ab_runs(f->store, 1, 1.0, ids);
	aa = gate_failures(f->store, ids, &paired);
	assert_int_equal(paired, AB_SERIES);
	add_ab_runs(f->store, 1, 1.10, ids);
	slower = gate_failures(f->store, ids, &paired);
	assert_int_equal(paired, AB_SERIES);
	add_ab_runs(f->store, 0, 1.0, ids);
	sequential = gate_failures(f->store, ids, &paired);
	assert_int_equal(paired, 0);
	print_message("A/B, %d pairs on a bursting machine: interleaved A/A fails the gate in %zu of %d, "
		      "a 10%% slowdown in %zu of %d; sequential A/A in %zu of %d\n", AB_PAIRS, aa, AB_SERIES,
		      slower, AB_SERIES, sequential, AB_SERIES);
	assert_true(aa <= AB_SERIES / 100);
	assert_true(slower >= AB_SERIES * 99 / 100);
	assert_true(sequential <= AB_SERIES / 100);
}

/* One run of one series "s" (metric m, lower is better) with the values
 * given, weighted by counts when counts is not NULL. */
static int64_t add_values(struct pdb_store *store, const char *metric, const double *v,
			  const double *counts, size_t n)
{
	struct pdb_run *run = pdb_run_new();
	struct pdb_result *r;
	struct pdb_err err;
	int64_t id;

	pdb_set_str(&run->tool, "test");
	pdb_set_str(&run->format, "test");
	r = pdb_run_add_result(run, "s", metric, "");
	r->direction = PDB_DIR_LOWER;
	for (size_t i = 0; i < n; i++) {
		struct pdb_sample smp = PDB_SAMPLE(v[i]);
		if (counts)
			smp.weight = counts[i];
		pdb_result_add_sample(r, &smp);
	}
	assert_int_equal(pdb_store_insert_run(store, run, 1, &err), 0);
	id = run->id;
	pdb_run_free(run);
	return id;
}

static int verdict(struct pdb_store *store, int64_t base, int64_t cand, const char **test)
{
	struct pdb_compare_opts opts;
	struct pdb_compare c;
	struct pdb_err err;
	int v;

	pdb_compare_opts_init(&opts);
	assert_int_equal(pdb_compare_run_groups(store, &base, 1, &cand, 1, &opts, &c, &err), 0);
	assert_int_equal(c.nrows, 1);
	v = c.rows[0].verdict;
	*test = c.rows[0].test;
	pdb_compare_release(&c);
	return v;
}

/* A zero on a side: absolute differences against the threshold as a
 * fraction of the larger median; a wide interval is never unchanged. */
static void test_zeros(void **state)
{
	struct fixture *f = *state;
	static const double base[] = { 0, 9, 10, 9, 10, 11, 9, 10, 10, 9 };
	static const double cand[] = { 0, 18, 19, 20, 17, 19, 18, 19, 21, 18 };
	static const double wide[] = { 0, 1, 18, 19, 20, 2, 19, 18, 3, 21 };
	static const double flat[] = { 0, 100, 100, 100, 100, 100, 100, 100, 100, 100 };
	const char *test;
	int64_t a = add_values(f->store, "errors", base, NULL, 10);
	int64_t b = add_values(f->store, "errors", cand, NULL, 10);
	int64_t w = add_values(f->store, "errors", wide, NULL, 10);
	int64_t c = add_values(f->store, "errors", flat, NULL, 10);
	int64_t d = add_values(f->store, "errors", flat, NULL, 10);

	assert_int_equal(verdict(f->store, a, b, &test), PDB_VERDICT_REGRESSION);
	/* an interval from about -1 to +10 errors: not significant, not unchanged */
	assert_int_equal(verdict(f->store, a, w, &test), PDB_VERDICT_INCONCLUSIVE);
	assert_int_equal(verdict(f->store, c, d, &test), PDB_VERDICT_UNCHANGED);
	/* errors 9.5 -> 18.5 with a zero and three values a side (issue 27) */
	a = add_values(f->store, "errors", (const double[]){ 0, 9.5, 10 }, NULL, 3);
	b = add_values(f->store, "errors", (const double[]){ 1, 18.5, 19 }, NULL, 3);
	assert_int_not_equal(verdict(f->store, a, b, &test), PDB_VERDICT_UNCHANGED);
}

/* One histogram a side (one run, many events): the interval of each
 * median from its counts decides; weights that are fractions are no counts. */
static void test_histogram(void **state)
{
	struct fixture *f = *state;
	static const double ms[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const double base[] = { 10, 200, 900, 2000, 900, 200, 50, 10 };
	static const double slow[] = { 0, 0, 10, 200, 900, 2000, 900, 200 };
	static const double frac[] = { 0.01, 0.05, 0.2, 0.4, 0.2, 0.1, 0.03, 0.01 };
	static const double frac2[] = { 0, 0.01, 0.05, 0.2, 0.4, 0.2, 0.1, 0.04 };
	const char *test;
	int64_t a = add_values(f->store, "latency", ms, base, 8);
	int64_t b = add_values(f->store, "latency", ms, base, 8);
	int64_t c = add_values(f->store, "latency", ms, slow, 8);

	assert_int_equal(verdict(f->store, a, c, &test), PDB_VERDICT_REGRESSION);
	assert_string_equal(test, "histogram");
	/* identical, but the median's bucket spans 3-4 ms: not unchanged at 5 % */
	assert_int_equal(verdict(f->store, a, b, &test), PDB_VERDICT_INCONCLUSIVE);
	a = add_values(f->store, "latency", ms, frac, 8);
	b = add_values(f->store, "latency", ms, frac2, 8);
	assert_int_equal(verdict(f->store, a, b, &test), PDB_VERDICT_INSUFFICIENT);
	assert_null(test);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_false_alarms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_power, setup, teardown),
		cmocka_unit_test_setup_teardown(test_single_sample_history, setup, teardown),
		cmocka_unit_test_setup_teardown(test_single_sample_static, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ab_interleaved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sequential_history, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loaded_runner, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_wide_moves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_small_samples, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zeros, setup, teardown),
		cmocka_unit_test_setup_teardown(test_histogram, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
