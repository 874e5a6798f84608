/* Capacity searches: the bisection's steps and outcome against pipelines of
 * known capacity (fake steps), and how a step is judged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "runner/capacity.h"
#include "util.h"

/* A pipeline that delivers everything up to capacity lines/s and drops
 * what is above it; two stages, the second the bottleneck. */
struct fake {
	double capacity;
	double rates[64];
	int nsteps;
	int fail_at;            /* the step (1-based) that cannot run, 0: none */
	char notes[4096];
};

static int fake_step(void *ctx, double rate, struct pdb_run *const runs[2], const char *bench,
		     const struct pdb_attr *dims, size_t ndims, struct pdb_err *err)
{
	struct fake *f = ctx;
	double missing = rate > f->capacity ? 100 * (rate - f->capacity) / rate : 0;

	f->rates[f->nsteps++] = rate;
	if (f->nsteps == f->fail_at)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "target unreachable");
	for (int i = 0; i < 2; i++) {
		struct pdb_attr d[8];
		memcpy(d, dims, ndims * sizeof *d);
		d[ndims] = (struct pdb_attr){ .key = "stage", .value = "first" };
		pdb_result_add_raw(pdb_run_series(runs[i], bench, d, ndims + 1, "missing_pct", "%", PDB_DIR_LOWER), 0);
		d[ndims].value = "second";
		pdb_result_add_raw(pdb_run_series(runs[i], bench, d, ndims + 1, "missing_pct", "%", PDB_DIR_LOWER),
				   missing);
	}
	return 0;
}

static void fake_note(void *ctx, const char *line)
{
	struct fake *f = ctx;
	size_t len = strlen(f->notes);
	snprintf(f->notes + len, sizeof f->notes - len, "%s\n", line);
}

static struct pdb_capacity *search(double low, double high, double tolerance)
{
	static struct pdb_capacity_limit until = { "missing_pct", 1 };
	static struct pdb_capacity c;

	c = (struct pdb_capacity){ .low = low, .high = high, .until = &until, .nuntil = 1, .tolerance = tolerance };
	return &c;
}

static const struct pdb_result *find(const struct pdb_run *run, const char *metric, const char *rate)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const char *r = pdb_result_get_dim(&run->results[i], "rate");
		if (!strcmp(run->results[i].metric, metric) && (rate ? r && !strcmp(r, rate) : !r))
			return &run->results[i];
	}
	return NULL;
}

static void finds_the_capacity(void **state)
{
	struct fake f = { .capacity = 700 };
	struct pdb_capacity_ops ops = { .step = fake_step, .note = fake_note, .ctx = &f, .unit = "lines/s" };
	struct pdb_capacity_outcome out;
	struct pdb_run *run = pdb_run_new();
	struct pdb_err err;
	const struct pdb_result *r;

	(void)state;
	assert_int_equal(pdb_capacity_search(search(200, 2000, 5), &ops, run, "p", NULL, 0, &out, &err), 0);
	/* LOW, then the geometric middles: 632, 1124, 843, 730, 701, 715 ... */
	assert_true(f.rates[0] == 200 && f.rates[1] == 632 && f.rates[2] == 1124);
	/* 1 % missing is allowed: up to 707 passes */
	assert_true(out.sustained <= 707 && out.sustained >= 707 / 1.05);
	assert_true(out.failed > 707 && (out.failed - out.sustained) / out.sustained <= 0.05);
	assert_int_equal(out.steps, f.nsteps);
	assert_true(f.nsteps <= 9);
	assert_non_null(r = find(run, "max_sustained_rate", NULL));
	assert_true(r->nsamples == 1 && r->samples[0].value == out.sustained);
	assert_string_equal(r->unit, "lines/s");
	/* each step a point rate=R of its own, with both stages */
	for (int i = 0; i < f.nsteps; i++) {
		char rate[32];
		snprintf(rate, sizeof rate, "%.0f", f.rates[i]);
		assert_non_null(find(run, "missing_pct", rate));
	}
	assert_non_null(strstr(f.notes, "rate 200 lines/s: missing_pct 0 % - pass\n"));
	assert_non_null(strstr(f.notes, "rate 1124 lines/s: missing_pct 37.72 % (second) - FAIL "
			       "(missing_pct 37.72 % (second) > 1 %)\n"));
	assert_non_null(strstr(out.text, " lines/s sustained; "));
	pdb_run_free(run);
}

static void low_fails(void **state)
{
	struct fake f = { .capacity = 100 };
	struct pdb_capacity_ops ops = { .step = fake_step, .note = fake_note, .ctx = &f, .unit = "msg/s" };
	struct pdb_capacity_outcome out;
	struct pdb_run *run = pdb_run_new();
	struct pdb_err err;

	(void)state;
	assert_int_equal(pdb_capacity_search(search(200, 2000, 5), &ops, run, "p", NULL, 0, &out, &err), 0);
	assert_int_equal(f.nsteps, 1);
	assert_true(out.sustained == 0 && out.failed == 200);
	assert_null(find(run, "max_sustained_rate", NULL)); /* nothing misleading */
	assert_non_null(find(run, "missing_pct", "200"));    /* the step itself is a measurement */
	assert_string_equal(out.text, "no rate sustained: the lowest searched, 200 msg/s, failed "
			    "(missing_pct 50 % (second) > 1 %)");
	pdb_run_free(run);
}

static void high_passes(void **state)
{
	struct fake f = { .capacity = 1e6 };
	struct pdb_capacity_ops ops = { .step = fake_step, .note = fake_note, .ctx = &f, .unit = "msg/s" };
	struct pdb_capacity_outcome out;
	struct pdb_run *run = pdb_run_new();
	struct pdb_err err;

	(void)state;
	assert_int_equal(pdb_capacity_search(search(100, 400, 50), &ops, run, "p", NULL, 0, &out, &err), 0);
	/* 100, 200, 283 (within 50 % of 400), then 400 itself */
	assert_int_equal(f.nsteps, 4);
	assert_true(f.rates[1] == 200 && f.rates[2] == 283 && f.rates[3] == 400);
	assert_true(out.sustained == 400 && out.failed == 0);
	assert_string_equal(out.text, "at least 400 msg/s: the highest rate searched passed");
	pdb_run_free(run);
}

static void step_error_stops(void **state)
{
	struct fake f = { .capacity = 700, .fail_at = 3 };
	struct pdb_capacity_ops ops = { .step = fake_step, .note = fake_note, .ctx = &f, .unit = "msg/s" };
	struct pdb_capacity_outcome out;
	struct pdb_run *run = pdb_run_new();
	struct pdb_err err;

	(void)state;
	assert_int_equal(pdb_capacity_search(search(200, 2000, 5), &ops, run, "p", NULL, 0, &out, &err), -1);
	assert_int_equal(f.nsteps, 3);
	assert_string_equal(err.msg, "target unreachable");
	assert_null(find(run, "max_sustained_rate", NULL));
	pdb_run_free(run);
}

/* METRIC_STAT is judged on the histogram's statistic as well as on its
 * per-second series; a metric not measured fails. */
static void judge_rules(void **state)
{
	static struct pdb_capacity_limit until[] = { { "delivery_delay_p99", 0.5 }, { "missing", 0 } };
	struct pdb_capacity c = { .low = 1, .high = 2, .until = until, .nuntil = 1, .tolerance = 5 };
	struct pdb_run *step = pdb_run_new();
	struct pdb_result *h;
	char line[512], why[200];

	(void)state;
	pdb_result_add_at(pdb_run_series(step, "p", NULL, 0, "delivery_delay_p99", "s", PDB_DIR_LOWER), 0, 0.1);
	pdb_result_add_at(pdb_run_series(step, "p", NULL, 0, "delivery_delay_p99", "s", PDB_DIR_LOWER), 1, 0.2);
	assert_true(pdb_capacity_judge(&c, step, "p", line, sizeof line, why, sizeof why));
	assert_string_equal(why, "");
	h = pdb_run_series(step, "p", NULL, 0, "delivery_delay", "s", PDB_DIR_LOWER);
	pdb_result_set_stat(h, "p99", 0.7); /* the last lines, in no whole second */
	assert_false(pdb_capacity_judge(&c, step, "p", line, sizeof line, why, sizeof why));
	assert_string_equal(why, "delivery_delay_p99 700 ms > 500 ms");
	c.nuntil = 2;
	pdb_result_set_stat(h, "p99", 0.3);
	assert_false(pdb_capacity_judge(&c, step, "p", line, sizeof line, why, sizeof why));
	assert_string_equal(line, "delivery_delay_p99 300 ms, missing not measured - FAIL (missing not measured)");
	pdb_run_free(step);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_the_capacity),
		cmocka_unit_test(low_fails),
		cmocka_unit_test(high_passes),
		cmocka_unit_test(step_error_stops),
		cmocka_unit_test(judge_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
