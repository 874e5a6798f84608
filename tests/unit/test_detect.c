/* Unit tests: energy statistic, t-test p-values, merge step, noise and confidence, excursions, agreement with Apache Otava. */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "skip_corpus.h"

#include "detect.h"
#include "detect_wall.h"
#include "metric_role.h"
#include "stats.h"

/* Q by hand: X=[0,0], Y=[1,1]: 2/4 * 4 = 2. X=[1], Y=[2,4]: 2/3*4 - 2*1/(3*1)*2 = 4/3. */
static void test_energy(void **state)
{
	static const double a[] = { 0, 0, 1, 1 }, b[] = { 1, 2, 4 };

	(void)state;
	assert_float_equal(pdb_detect_energy(a, 2, 4), 2.0, 1e-12);
	assert_float_equal(pdb_detect_energy(b, 1, 3), 4.0 / 3.0, 1e-12);
	/* X=[0], Y=[0,1,1]: 2/4*2 - 2*1/(4*2)*2 = 0.5 */
	assert_float_equal(pdb_detect_energy(a, 1, 4), 0.5, 1e-12);
}

/* The prefix-sum search agrees with the direct statistic on every pair. */
static void test_best_split(void **state)
{
	static const double a[] = { 0, 0, 1, 1 };
	static const double c[] = { 5, 3, 9, 8, 1, 7, 7, 2, 6, 4, 10, 0 };
	double q, best = -INFINITY;
	size_t tau, btau = 0;

	(void)state;
	tau = pdb_detect_best_split(a, 4, &q, NULL);
	assert_int_equal(tau, 2);
	assert_float_equal(q, 2.0, 1e-12);
	for (size_t t = 1; t < 12; t++) {
		for (size_t k = t + 1; k <= 12; k++) {
			double v = pdb_detect_energy(c, t, k);

			if (v > best + 1e-12) {
				best = v;
				btau = t;
			}
		}
	}
	tau = pdb_detect_best_split(c, 12, &q, NULL);
	assert_int_equal(tau, btau);
	assert_float_equal(q, best, 1e-9);
}

/* p by hand: df 2 → p = 1 - |t|/sqrt(t²+2); df 1 → p = 1 - 2/π atan|t|. */
static void test_ttest(void **state)
{
	(void)state;
	/* [1,3] vs [5,7]: means 2, 6, population sd 1, t = -4 */
	assert_float_equal(pdb_detect_ttest(2, 1, 2, 6, 1, 2),
			   1 - 4 / sqrt(18.0), 1e-12);
	/* [0,2] vs [4]: sd 1 and 0, df 1, t = -3/sqrt(1.5) */
	assert_float_equal(pdb_detect_ttest(1, 1, 2, 4, 0, 1),
			   1 - 2 / M_PI * atan(3 / sqrt(1.5)), 1e-12);
	/* [1,2] vs [11,12]: t = -20, df 2 */
	assert_float_equal(pdb_detect_ttest(1.5, 0.5, 2, 11.5, 0.5, 2),
			   1 - 20 / sqrt(402.0), 1e-12);
	assert_float_equal(pdb_detect_ttest(1, 0, 1, 2, 0, 1), 1.0, 0);
	assert_float_equal(pdb_detect_ttest(1, 0, 3, 2, 0, 3), 0.0, 0);
	assert_true(isnan(pdb_detect_ttest(1, 0, 3, 1, 0, 3)));
}

static void test_betai(void **state)
{
	(void)state;
	assert_float_equal(pdb_stats_betai(1, 1, 0.3), 0.3, 1e-14);
	assert_float_equal(pdb_stats_betai(3, 1, 0.5), 0.125, 1e-14);
	assert_float_equal(pdb_stats_betai(7.5, 7.5, 0.5), 0.5, 1e-14);
	assert_float_equal(pdb_stats_betai(2, 3, 0.4), 0.5248, 1e-13); /* 1-(0.6^4+4*0.4*0.6^3) */
	assert_float_equal(pdb_stats_betai(2, 3, 0), 0, 0);
	assert_float_equal(pdb_stats_betai(2, 3, 1), 1, 0);
}

/*
 * x = [1,2,1,2,11,12,11,12], weak [2,4,6], P = 0.01: p(2) = p(6) = 1, the
 * first of the tie (2) goes; then 6 (p 1) goes; 4 stays (p 0.0025, or less).
 */
static void test_merge(void **state)
{
	static const double x[] = { 1, 2, 1, 2, 11, 12, 11, 12 };
	static const double y[] = { 100, 101, 100, 101, 102, 103, 102, 103 };
	size_t idx[] = { 2, 4, 6 }, n = 3;
	size_t one[] = { 4 }, m = 1;

	(void)state;
	assert_int_equal(pdb_detect_merge(x, 8, idx, &n, 0.01, 0, 1), 0);
	assert_int_equal(n, 1);
	assert_int_equal(idx[0], 4);
	/* y: 100.5 -> 102.5, t = -2/sqrt(0.25*0.5), p = 0.0013 < 0.01, but the
	 * magnitude 2/100.5 = 2 % is below 5 %: removed; kept at 1 %. */
	assert_int_equal(pdb_detect_merge(y, 8, one, &m, 0.01, 0.05, 0), 0);
	assert_int_equal(m, 0);
	one[0] = 4;
	m = 1;
	assert_int_equal(pdb_detect_merge(y, 8, one, &m, 0.01, 0.01, 0), 0);
	assert_int_equal(m, 1);
}

/* A step and a one-run spike: by default the spike is an outlier and the
 * means leave it out; kept, it is averaged into the old regime. */
static void test_spike(void **state)
{
	double x[60];
	struct pdb_detect_opts o;
	struct pdb_detect_result r;
	struct pdb_err err;

	(void)state;
	for (int i = 0; i < 60; i++)
		x[i] = (i < 40 ? 100 : 120) + (i % 3) - 1;
	x[20] = 150;
	pdb_detect_opts_init(&o);
	o.direction = 1; /* lower is better: +20 % is a regression */
	assert_int_equal(pdb_detect(x, 60, &o, NULL, NULL, &r, &err), 0);
	assert_int_equal(r.noutliers, 1);
	assert_int_equal(r.outliers[0].index, 20);
	assert_int_equal(r.ncps, 1);
	assert_int_equal(r.cps[0].index, 40);
	assert_int_equal(r.cps[0].index_before, 39);
	assert_true(r.cps[0].regression);
	assert_false(r.cps[0].tentative);
	assert_float_equal(r.cps[0].change_pct, 20.0, 0.5);
	pdb_detect_result_release(&r);
	o.outliers = PDB_OUTLIERS_KEEP;
	assert_int_equal(pdb_detect(x, 60, &o, NULL, NULL, &r, &err), 0);
	assert_int_equal(r.noutliers, 0);
	assert_int_equal(r.ncps, 1);
	assert_int_equal(r.cps[0].index, 40);
	assert_true(r.cps[0].mean_before > 101); /* the spike is averaged in */
	pdb_detect_result_release(&r);
}

static json_t *load_corpus(void)
{
	const char *dir = getenv("CORPUS");
	char path[4096];
	json_t *doc;

	snprintf(path, sizeof path, "%s/otava/tigerbeetle.json",
		 dir ? dir : "../shared/corpus");
	doc = json_load_file(path, 0, NULL);
	return doc;
}

/* Otava's own test: its series and, per parameter set, its change points. */
static void test_otava_tigerbeetle(void **state)
{
	json_t *doc = load_corpus(), *series, *cases, *c;
	double *x;
	size_t n, i;

	(void)state;
	if (!doc)
		skip_without_corpus();
	series = json_object_get(doc, "series");
	cases = json_object_get(doc, "cases");
	n = json_array_size(series);
	assert_true(n > 300);
	x = calloc(n, sizeof *x);
	for (i = 0; i < n; i++)
		x[i] = json_number_value(json_array_get(series, i));
	assert_true(json_array_size(cases) >= 9);
	json_array_foreach(cases, i, c) {
		json_t *want = json_object_get(c, "expected_indexes");
		struct pdb_detect_opts o;
		struct pdb_detect_result r;
		struct pdb_err err;

		pdb_detect_opts_init(&o);
		o.window = (size_t)json_integer_value(json_object_get(c, "window"));
		o.pvalue = json_number_value(json_object_get(c, "max_pvalue"));
		o.magnitude = json_number_value(json_object_get(c, "min_magnitude"));
		o.outliers = PDB_OUTLIERS_KEEP;
		assert_int_equal(pdb_detect(x, n, &o, NULL, NULL, &r, &err), 0);
		print_message("%s: %zu change points\n",
			      json_string_value(json_object_get(c, "name")), r.ncps);
		assert_int_equal(r.ncps, json_array_size(want));
		for (size_t k = 0; k < r.ncps; k++)
			assert_int_equal(r.cps[k].index,
					 json_integer_value(json_array_get(want, k)));
		pdb_detect_result_release(&r);
	}
	free(x);
	json_decref(doc);
}

/* The same series by default: index 10 is an outlier, and 10, 11 are gone;
 * so is 363 (a two-run regime at the end, 31895 then 28915: within 1.5
 * standard deviations). Otava gives 10, 11, 15, 71, 363 here. */
static void test_tigerbeetle_outlier(void **state)
{
	json_t *doc = load_corpus(), *series;
	struct pdb_detect_opts o;
	struct pdb_detect_result r;
	struct pdb_err err;
	double *x;
	size_t n;

	(void)state;
	if (!doc)
		skip_without_corpus();
	series = json_object_get(doc, "series");
	n = json_array_size(series);
	x = calloc(n, sizeof *x);
	for (size_t i = 0; i < n; i++)
		x[i] = json_number_value(json_array_get(series, i));
	pdb_detect_opts_init(&o);
	o.window = 30;
	o.pvalue = 0.1;
	o.magnitude = 0.05;
	assert_int_equal(pdb_detect(x, n, &o, NULL, NULL, &r, &err), 0);
	assert_int_equal(r.noutliers, 1);
	assert_int_equal(r.outliers[0].index, 10);
	assert_int_equal(r.ncps, 2);
	assert_int_equal(r.cps[0].index, 15);
	assert_int_equal(r.cps[0].index_before, 14);
	assert_int_equal(r.cps[1].index, 71);
	assert_false(r.cps[1].tentative);
	pdb_detect_result_release(&r);
	free(x);
	json_decref(doc);
}

/* Noise from successive differences: 1.4826 · median |diff| / sqrt 2, or
 * when more than half of them are 0, sqrt(pi) / 2 · mean |diff|. */
static void test_noise(void **state)
{
	const double mad = 1.4826 / sqrt(2.0), mean = sqrt(M_PI) / 2.0;
	static const struct {
		double x[8];
		size_t n;
		double median_diff, mean_diff; /* one of them counts */
	} cases[] = {
		{ { 5 }, 1, 0, 0 },                          /* no difference */
		{ { 1, 3 }, 2, 2, 0 },                       /* one */
		{ { 1, 2, 4, 7 }, 4, 2, 0 },                 /* 1, 2, 3: odd count */
		{ { 0, 1, 3, 6, 10 }, 5, 2.5, 0 },           /* 1, 2, 3, 4: even */
		{ { 4, 1, 4, 1, 4, 1, 4, 1 }, 8, 3, 0 },     /* alternating */
		{ { 10, 10, 10, 30, 30, 30, 30 }, 7, 0, 20.0 / 6 }, /* mostly equal */
		{ { 7, 7, 7, 7 }, 4, 0, 0 },                 /* constant */
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_float_equal(pdb_detect_noise(cases[i].x, cases[i].n),
				   mad * cases[i].median_diff + mean * cases[i].mean_diff,
				   1e-12);
}

/* confidence = -log10(min(1, m · P(|Z| >= z))); the threshold inverts it. */
static void test_confidence(void **state)
{
	(void)state;
	/* P(|Z| >= 1.959964) = 0.05 */
	assert_float_equal(pdb_detect_confidence(1.959964, 1), -log10(0.05), 1e-5);
	assert_float_equal(pdb_detect_confidence(1.959964, 10), -log10(0.5), 1e-5);
	assert_float_equal(pdb_detect_confidence(1.959964, 40), 0.0, 0);
	/* P(|Z| >= 3.290527) = 0.001, times 1000 positions: 1 */
	assert_float_equal(pdb_detect_confidence(3.290527, 1000), 0.0, 1e-5);
	assert_float_equal(pdb_detect_confidence(3.290527, 10), 2.0, 1e-5);
	/* far out the asymptotic series continues erfc smoothly */
	assert_float_equal(pdb_detect_confidence(35.35, 1), -log10(erfc(35.35 / sqrt(2.0))), 1e-6);
	assert_true(pdb_detect_confidence(36, 1) > pdb_detect_confidence(35, 1));
	assert_true(isfinite(pdb_detect_confidence(1e6, 1)));
	/* P(|Z| >= 3.890592) = 1e-4 */
	assert_float_equal(pdb_detect_z_threshold(0.001, 10), 3.890592, 1e-5);
	assert_float_equal(pdb_detect_confidence(pdb_detect_z_threshold(0.01, 999), 999),
			   2.0, 1e-9);
	assert_float_equal(pdb_detect_z_threshold(1, 1), 0.0, 0);
}

/* Excursions of 2-5 runs are outliers, not change points; a regime of 12
 * runs is two change points; a step with 5 runs after it is tentative and
 * unconfirmed, with 6 confirmed. */
static void test_excursion(void **state)
{
	double x[120];
	struct pdb_detect_opts o;
	struct pdb_detect_result r;
	struct pdb_err err;

	(void)state;
	for (size_t len = 2; len <= 5; len++) {
		for (int i = 0; i < 120; i++)
			x[i] = 100 + ((i * 7) % 5) - 2 + (i >= 60 && i < 60 + (int)len ? 20 : 0);
		pdb_detect_opts_init(&o);
		assert_int_equal(pdb_detect(x, 120, &o, NULL, NULL, &r, &err), 0);
		assert_int_equal(r.ncps, 0);
		assert_int_equal(r.noutliers, len);
		assert_int_equal(r.outliers[0].index, 60);
		pdb_detect_result_release(&r);
	}
	for (int i = 0; i < 120; i++)
		x[i] = 100 + ((i * 7) % 5) - 2 + (i >= 60 && i < 72 ? 20 : 0);
	assert_int_equal(pdb_detect(x, 120, &o, NULL, NULL, &r, &err), 0);
	assert_int_equal(r.ncps, 2);
	assert_int_equal(r.cps[0].index, 60);
	assert_int_equal(r.cps[1].index, 72);
	assert_true(r.cps[0].confirmed && r.cps[1].confirmed);
	assert_true(r.cps[0].confidence > 2);
	pdb_detect_result_release(&r);
	for (int i = 0; i < 66; i++)
		x[i] = 100 + ((i * 7) % 5) - 2 + (i >= 60 ? 20 : 0);
	assert_int_equal(pdb_detect(x, 65, &o, NULL, NULL, &r, &err), 0);
	assert_int_equal(r.ncps, 1);
	assert_true(r.cps[0].tentative);
	assert_false(r.cps[0].confirmed);
	pdb_detect_result_release(&r);
	assert_int_equal(pdb_detect(x, 66, &o, NULL, NULL, &r, &err), 0);
	assert_int_equal(r.ncps, 1);
	assert_false(r.cps[0].tentative);
	assert_true(r.cps[0].confirmed);
	pdb_detect_result_release(&r);
}

static void test_bad_options(void **state)
{
	static const double x[] = { 1, 2, NAN };
	struct pdb_detect_opts o;
	struct pdb_detect_result r;
	struct pdb_err err;

	(void)state;
	pdb_detect_opts_init(&o);
	o.window = 1;
	assert_int_equal(pdb_detect(x, 2, &o, NULL, NULL, &r, &err), -1);
	pdb_detect_opts_init(&o);
	assert_int_equal(pdb_detect(x, 3, &o, NULL, NULL, &r, &err), -1);
	assert_int_equal(err.code, PDB_EXIT_INPUT);
	assert_int_equal(pdb_detect(x, 0, &o, NULL, NULL, &r, &err), 0);
	assert_int_equal(r.ncps, 0);
	pdb_detect_result_release(&r);
}

/* The split of CPU time into user and system time moves by a clock tick
 * with nothing changed: detect takes no change point of user_time or
 * sys_time smaller than a tick, from 0 either, and says a change from 0
 * in the unit (no percentage of nothing); a larger move stays. */
static void test_resolution(void **state)
{
	double x[30], y[30];
	struct pdb_detect_opts o;
	struct pdb_detect_result r = { 0 };
	struct pdb_err err;
	char text[48];

	(void)state;
	assert_float_equal(pdb_metric_resolution("sys_time", "s"), PDB_CPU_SPLIT_TICK, 0);
	assert_float_equal(pdb_metric_resolution("user_time", "s"), PDB_CPU_SPLIT_TICK, 0);
	assert_float_equal(pdb_metric_resolution("cpu_time", "s"), 0, 0);
	assert_float_equal(pdb_metric_resolution("sys_time", "B"), 0, 0);
	for (int i = 0; i < 30; i++) {
		x[i] = i < 15 ? 0 : 0.0018 + 1e-5 * (i % 3);
		y[i] = (i < 15 ? 0.010 : 0.020) + 1e-4 * (i % 3);
	}
	pdb_detect_opts_init(&o);
	assert_int_equal(pdb_detect(x, 30, &o, NULL, NULL, &r, &err), 0);
	assert_int_equal(r.ncps, 1);
	assert_true(isnan(r.cps[0].change_pct));
	pdb_detect_change_text(&r.cps[0], "s", text, sizeof text);
	assert_string_equal(text, "+1.81 ms");
	pdb_detect_result_release(&r);

	pdb_detect_opts_for(&o, "sys_time", "s", 0);
	assert_int_equal(pdb_detect(x, 30, &o, NULL, NULL, &r, &err), 0);
	assert_int_equal(r.ncps, 0);
	pdb_detect_result_release(&r);
	assert_int_equal(pdb_detect(y, 30, &o, NULL, NULL, &r, &err), 0);
	assert_int_equal(r.ncps, 1);
	assert_int_equal(r.cps[0].index, 15);
	pdb_detect_change_text(&r.cps[0], "s", text, sizeof text);
	assert_string_equal(text, "+99.0%");
	pdb_detect_result_release(&r);
}

/* A wall-time change point stands only when its benchmark's CPU time moved
 * the same way within two runs; without a CPU-time series, or for a
 * benchmark that waits more than it computes, the wall time decides. */
static void test_check_wall(void **state)
{
	static const int64_t ids[6] = { 1, 2, 3, 4, 5, 6 }, cpu_ids[5] = { 1, 2, 4, 5, 6 };
	static const double wall_v[6] = { 1, 1, 1, 2, 2, 2 }, cpu_v[6] = { .5, .5, .5, 1, 1, 1 };
	static const double idle_v[6] = { .01, .01, .01, .01, .01, .01 };
	/* the CPU time's change: at the same run (by run id: position 2 of
	 * cpu_ids), the other way, none, two runs off (the slack); a
	 * benchmark whose CPU time is 1 % of its wall time */
	static const struct { size_t cpu_at; int up, ncpu; const double *cpu; int stands; } c[] = {
		{ 2, 1, 1, cpu_v, 1 },
		{ 2, 0, 1, cpu_v, 0 },
		{ 0, 1, 0, cpu_v, 0 },
		{ 4, 1, 1, cpu_v, 1 },
		{ 0, 1, 0, idle_v, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct pdb_change_point wcp = { .index = 3, .mean_before = 1, .mean_after = 2,
						.regression = 1, .confirmed = 1 };
		struct pdb_change_point ccp = { .index = c[i].cpu_at, .mean_before = 0.5,
						.mean_after = c[i].up ? 1 : 0.25, .confirmed = 1 };
		struct pdb_detect_result wr = { .cps = &wcp, .ncps = 1 };
		struct pdb_detect_result cr = { .cps = &ccp, .ncps = (size_t)c[i].ncpu };
		struct pdb_detect_view v[2] = {
			{ "b", "{}", "time", ids, wall_v, 6, &wr },
			{ "b", "{}", "cpu_time", c[i].cpu == idle_v ? ids : cpu_ids, c[i].cpu,
			  c[i].cpu == idle_v ? 6 : 5, &cr },
		};

		pdb_detect_check_wall(v, 2);
		assert_int_equal(wcp.confirmed, c[i].stands);
		assert_int_equal(wcp.cpu_steady, !c[i].stands);
		assert_int_equal(ccp.confirmed, 1);
	}
	{
		struct pdb_change_point wcp = { .index = 3, .mean_before = 1, .mean_after = 2,
						.regression = 1, .confirmed = 1 };
		struct pdb_detect_result wr = { .cps = &wcp, .ncps = 1 }, cr = { 0 };
		struct pdb_detect_view v[2] = {
			{ "b", "{}", "time", ids, wall_v, 6, &wr },
			{ "other", "{}", "cpu_time", ids, cpu_v, 6, &cr },
		};

		pdb_detect_check_wall(v, 2);
		assert_int_equal(wcp.confirmed, 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_energy),
		cmocka_unit_test(test_best_split),
		cmocka_unit_test(test_ttest),
		cmocka_unit_test(test_betai),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_spike),
		cmocka_unit_test(test_otava_tigerbeetle),
		cmocka_unit_test(test_tigerbeetle_outlier),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_confidence),
		cmocka_unit_test(test_excursion),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_resolution),
		cmocka_unit_test(test_check_wall),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
