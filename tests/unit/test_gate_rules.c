/* The gate's rules as pure functions, table-driven, without a store: a
 * metric's role and default threshold (lib/metric_role.c) and wall time
 * checked against CPU time (lib/compare_cpu.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare_cpu.h"
#include "metric_role.h"

static void test_default_threshold(void **state)
{
	static const struct { const char *metric; double pct; } cases[] = {
		{ "time", 5 }, { "p99", 10 }, { "p95", 10 }, { "p50", 5 }, { "p9", 5 },
		{ "latency_p999", 10 }, { "P99.9", 10 }, { "p99.9.9", 5 }, { "p.99", 5 },
		{ "top99", 5 }, { "p100", 5 }, { "instructions", 1 },
		/* once a stack overflow of a 16-byte buffer (#43) */
		{ "p999999999999999", 10 }, { "p99999999999999999999999999999999999999", 10 },
		{ "x_p1234567890123456789012345678901234567890", 5 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double got = pdb_metric_default_threshold(cases[i].metric);
		if (got != cases[i].pct)
			fail_msg("%s: %g, want %g", cases[i].metric, got, cases[i].pct);
	}
}

static void test_roles(void **state)
{
	(void)state;
	assert_int_equal(pdb_metric_role("time", 0), PDB_ROLE_WALL);
	assert_int_equal(pdb_metric_role("wall_time", 0), PDB_ROLE_WALL);
	assert_int_equal(pdb_metric_role("real_time", 0), PDB_ROLE_WALL);
	assert_int_equal(pdb_metric_role("cpu_time", 0), PDB_ROLE_CPU);
	assert_int_equal(pdb_metric_role("instructions", 0), PDB_ROLE_COUNT_EXACT);
	assert_int_equal(pdb_metric_role("peak_rss", 0), PDB_ROLE_RESOURCE);
	assert_int_equal(pdb_metric_role("sys_time", 0), PDB_ROLE_RESOURCE);
	assert_int_equal(pdb_metric_role("throughput", 0), PDB_ROLE_PRIMARY);
	assert_int_equal(pdb_metric_role("iterations", 0), PDB_ROLE_BOOKKEEPING);
	assert_int_equal(pdb_metric_role("rounds", 0), PDB_ROLE_BOOKKEEPING);
	assert_int_equal(pdb_metric_role("cpu", 1), PDB_ROLE_RESOURCE);
	assert_int_equal(pdb_metric_role_of_series("cpu", "{\"process\":\"jq\"}"), PDB_ROLE_RESOURCE);
	assert_int_equal(pdb_metric_role_of_series("rate", "{\"a\":\"1\",\"process\":\"x\"}"),
			 PDB_ROLE_RESOURCE);
	/* a value that holds the text is not the key */
	assert_int_equal(pdb_metric_role_of_series("rate", "{\"a\":\"\\\"process\\\":\"}"),
			 PDB_ROLE_PRIMARY);
	/* stress-ng: its bogo-ops rates gate; the rates' parts, its memory and
	 * a stressor's own per-method rates are reported */
	assert_int_equal(pdb_metric_role("bogo-ops-per-second-real-time", 0), PDB_ROLE_PRIMARY);
	assert_int_equal(pdb_metric_role("bogo-ops-per-second-usr-sys-time", 0), PDB_ROLE_PRIMARY);
	assert_int_equal(pdb_metric_role("wall-clock-time", 0), PDB_ROLE_RESOURCE);
	assert_int_equal(pdb_metric_role("user-time", 0), PDB_ROLE_RESOURCE);
	assert_int_equal(pdb_metric_role("max-rss", 0), PDB_ROLE_RESOURCE);
	assert_int_equal(pdb_metric_role("add-matrix-ops-per-sec", 0), PDB_ROLE_RESOURCE);
	assert_int_equal(pdb_metric_role("cache-ops-per-second", 0), PDB_ROLE_RESOURCE);
	assert_int_equal(pdb_metric_role("items_per_second", 0), PDB_ROLE_PRIMARY);
	assert_true(pdb_metric_role_gated(PDB_ROLE_CPU));
	assert_false(pdb_metric_role_gated(PDB_ROLE_RESOURCE));
	assert_false(pdb_metric_role_gated(PDB_ROLE_BOOKKEEPING));
	assert_false(pdb_metric_series_by_default("iterations", "{}"));
	assert_false(pdb_metric_series_by_default("cpu", "{\"process\":\"jq\"}"));
	assert_true(pdb_metric_series_by_default("time", "{}"));
	assert_true(pdb_metric_series_by_default("cpu_time", "{}"));
	assert_string_equal(pdb_metric_cpu_of("time"), "cpu_time");
	assert_null(pdb_metric_cpu_of("throughput"));
	assert_true(pdb_metric_run_noise(PDB_ROLE_COUNT_EXACT) < pdb_metric_run_noise(PDB_ROLE_CPU));
	assert_true(pdb_metric_run_noise(PDB_ROLE_CPU) < pdb_metric_run_noise(PDB_ROLE_WALL));
}

/* A row of benchmark "b" with medians base -> cand, its change and verdict. */
static struct pdb_compare_row row(const char *metric, double base, double cand, int verdict)
{
	struct pdb_compare_row r;

	memset(&r, 0, sizeof r);
	r.benchmark = (char *)"b";
	r.dims = (char *)"";
	r.dims_json = (char *)"{}";
	r.metric = (char *)metric;
	r.direction = PDB_DIR_LOWER;
	r.median_base = base;
	r.median_cand = cand;
	r.change_pct = 100 * (cand / base - 1);
	r.threshold_pct = 5;
	r.verdict = verdict;
	r.gated = 1;
	return r;
}

static void test_wall_against_cpu(void **state)
{
	static const struct {
		const char *what;
		double wall_b, wall_c, cpu_b, cpu_c;
		int wall_v, cpu_v, paired, want_v;
		const char *want_by;
	} cases[] = {
		{ "load: wall +60 %, CPU unchanged", 1.0, 1.6, 0.2, 0.2, PDB_VERDICT_REGRESSION,
		  PDB_VERDICT_UNCHANGED, 0, PDB_VERDICT_INCONCLUSIVE, "cpu_time" },
		{ "load: wall +60 %, CPU inconclusive", 1.0, 1.6, 0.2, 0.21, PDB_VERDICT_REGRESSION,
		  PDB_VERDICT_INCONCLUSIVE, 0, PDB_VERDICT_INCONCLUSIVE, "cpu_time" },
		{ "real: both regressions", 1.0, 2.0, 0.9, 1.8, PDB_VERDICT_REGRESSION,
		  PDB_VERDICT_REGRESSION, 0, PDB_VERDICT_REGRESSION, NULL },
		{ "A/B pair: the load moved both sides", 1.0, 1.6, 0.2, 0.2, PDB_VERDICT_REGRESSION,
		  PDB_VERDICT_UNCHANGED, 1, PDB_VERDICT_REGRESSION, NULL },
		{ "it sleeps: CPU 1 % of wall, wall decides", 1.0, 1.6, 0.01, 0.01,
		  PDB_VERDICT_REGRESSION, PDB_VERDICT_UNCHANGED, 0, PDB_VERDICT_REGRESSION, NULL },
		{ "improvement by the load's leaving", 1.6, 1.0, 0.2, 0.2, PDB_VERDICT_IMPROVEMENT,
		  PDB_VERDICT_UNCHANGED, 0, PDB_VERDICT_INCONCLUSIVE, "cpu_time" },
		{ "wall hides a CPU regression", 1.0, 1.3, 0.5, 1.0, PDB_VERDICT_INCONCLUSIVE,
		  PDB_VERDICT_REGRESSION, 0, PDB_VERDICT_INCONCLUSIVE, "cpu_time" },
		{ "both unchanged", 1.0, 1.0, 0.5, 0.5, PDB_VERDICT_UNCHANGED,
		  PDB_VERDICT_UNCHANGED, 0, PDB_VERDICT_UNCHANGED, NULL },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pdb_compare_row rows[3] = {
			row("peak_rss", 1e6, 2e6, PDB_VERDICT_REGRESSION),
			row("time", cases[i].wall_b, cases[i].wall_c, cases[i].wall_v),
			row("cpu_time", cases[i].cpu_b, cases[i].cpu_c, cases[i].cpu_v),
		};
		pdb_compare_check_wall(rows, 3, cases[i].paired);
		if (rows[1].verdict != cases[i].want_v)
			fail_msg("%s: verdict %s, want %s", cases[i].what,
				 pdb_verdict_name(rows[1].verdict), pdb_verdict_name(cases[i].want_v));
		if ((rows[1].decided_by == NULL) != (cases[i].want_by == NULL))
			fail_msg("%s: decided by %s", cases[i].what,
				 rows[1].decided_by ? rows[1].decided_by : "(none)");
		if (cases[i].want_by && !rows[1].reason)
			fail_msg("%s: no reason said", cases[i].what);
		/* the CPU time and other rows are never changed */
		assert_int_equal(rows[2].verdict, cases[i].cpu_v);
		assert_int_equal(rows[0].verdict, PDB_VERDICT_REGRESSION);
		free(rows[1].reason);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_threshold),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_wall_against_cpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
