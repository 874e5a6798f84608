/* Unit tests: the look schedule of adaptive A/B runs and its plan. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runner/adaptive.h"
#include "runner/plan.h"
#include "stats.h"

static void test_schedule_default(void **state)
{
	struct pdb_adaptive_schedule s;
	struct pdb_err err;
	static const int want[] = { 10, 15, 23, 35, 60 };
	(void)state;
	assert_int_equal(pdb_adaptive_schedule(0.01, 60, &s, &err), 0);
	assert_int_equal(s.nlooks, 5);
	for (size_t i = 0; i < s.nlooks; i++)
		assert_int_equal(s.looks[i], want[i]);
	assert_true(fabs(s.look_alpha - 0.01 / 5) < 1e-15);
}

/* Whatever alpha and max_repeat: the looks ascend to max_repeat, the first
 * can reach the look's alpha, and that alpha is alpha over the looks. */
static void test_schedule_invariants(void **state)
{
	static const double alphas[] = { 0.1, 0.05, 0.01, 0.001 };
	struct pdb_err err;
	(void)state;
	for (size_t a = 0; a < 4; a++)
		for (int max = 2; max <= 400; max++) {
			struct pdb_adaptive_schedule s;
			if (pdb_adaptive_schedule(alphas[a], max, &s, &err) < 0) {
				/* only when max cannot reach alpha at all */
				assert_true(pdb_stats_signed_rank_min_p((size_t)max) > alphas[a]);
				continue;
			}
			assert_true(s.nlooks >= 1);
			assert_int_equal(s.looks[s.nlooks - 1], max);
			for (size_t i = 1; i < s.nlooks; i++)
				assert_true(s.looks[i] > s.looks[i - 1]);
			assert_true(fabs(s.look_alpha * (double)s.nlooks - alphas[a]) < 1e-12);
			assert_true(pdb_stats_signed_rank_min_p((size_t)s.looks[0]) <= s.look_alpha);
		}
}

static void test_schedule_too_few(void **state)
{
	struct pdb_adaptive_schedule s;
	struct pdb_err err;
	(void)state;
	assert_int_equal(pdb_adaptive_schedule(0.01, 7, &s, &err), -1);
	assert_non_null(strstr(err.msg, "needs 8"));
}

/* Two variants, looks at 3 and 5 pairs: setup, warm-up, three pairs ABBA,
 * teardown, then again with pairs 4 and 5, the order going on. */
static void test_plan_looks(void **state)
{
	struct pdb_bench_spec b = { .name = "a", .warmup = 1, .repeat_auto = 1 };
	struct pdb_variant v[2] = { { .name = "x" }, { .name = "y" } };
	struct pdb_spec spec = { .benches = &b, .nbenches = 1, .variants = v, .nvariants = 2 };
	char *argv[] = { "true", NULL };
	struct pdb_plan plan;
	struct pdb_err err;
	static const int looks[] = { 3, 5 };
	/* kind, rep, variant, look */
	static const int want[][4] = {
		{ 0, 0, 0, 0 }, { 0, 0, 1, 0 }, { 1, 0, 0, 0 }, { 1, 0, 1, 0 },
		{ 2, 0, 0, 0 }, { 2, 0, 1, 0 }, { 2, 1, 1, 0 }, { 2, 1, 0, 0 }, { 2, 2, 0, 0 }, { 2, 2, 1, 0 },
		{ 3, 0, 0, 0 }, { 3, 0, 1, 0 },
		{ 0, 0, 0, 1 }, { 0, 0, 1, 1 }, { 1, 0, 0, 1 }, { 1, 0, 1, 1 },
		{ 2, 3, 1, 1 }, { 2, 3, 0, 1 }, { 2, 4, 0, 1 }, { 2, 4, 1, 1 },
		{ 3, 0, 0, 1 }, { 3, 0, 1, 1 },
	};
	(void)state;
	b.command.argv = argv;
	b.setup.argv = argv;
	b.teardown.argv = argv;
	assert_int_equal(pdb_plan_build(&spec, NULL, 0, &plan, &err), -1); /* auto needs looks */
	assert_int_equal(pdb_plan_build_looks(&spec, NULL, 0, looks, 2, &plan, &err), 0);
	assert_int_equal(plan.nsteps, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < plan.nsteps; i++) {
		assert_int_equal(plan.steps[i].kind, want[i][0]);
		assert_int_equal(plan.steps[i].rep, want[i][1]);
		assert_int_equal(plan.steps[i].variant, want[i][2]);
		assert_int_equal(plan.steps[i].look, want[i][3]);
	}
	assert_int_equal(plan.nmeasure, 10);
	pdb_plan_release(&plan);
	/* a fixed repeat runs all of it at the first look */
	b.repeat_auto = 0;
	b.repeat = 4;
	assert_int_equal(pdb_plan_build_looks(&spec, NULL, 0, looks, 2, &plan, &err), 0);
	assert_int_equal(plan.nmeasure, 8);
	for (size_t i = 0; i < plan.nsteps; i++)
		assert_int_equal(plan.steps[i].look, 0);
	pdb_plan_release(&plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedule_default),
		cmocka_unit_test(test_schedule_invariants),
		cmocka_unit_test(test_schedule_too_few),
		cmocka_unit_test(test_plan_looks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
