/* Unit tests: the corpus files of redis-benchmark, Locust and JMeter ingested, with facts checked by hand. */
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

#include "skip_corpus.h"

#include "corpus.h"

static void test_redis_benchmark(void **state)
{
	static const char *const files[] = { "redis-benchmark/local_redis-benchmark-7.0.15.csv" };
	struct pdb_run *run = ingest(files, 1, "redis-benchmark");
	const struct pdb_result *r;

	(void)state;
	if (!run)
		skip_without_corpus();
	assert_string_equal(run->tool, "redis-benchmark");
	/* SET, GET, INCR, LPUSH: throughput and latency each */
	assert_int_equal(run->nresults, 8);
	r = find(run, "SET", "throughput", NULL, NULL);
	assert_string_equal(r->unit, "req/s");
	assert_int_equal(r->direction, PDB_DIR_HIGHER);
	assert_int_equal(r->nsamples, 1);
	assert_near(r->samples[0].value, 37037.04, 1e-9);
	/* "INCR",...,"max_latency_ms" = "2.303" */
	r = find(run, "INCR", "latency", NULL, NULL);
	assert_string_equal(r->unit, "s");
	assert_string_equal(r->raw_unit, "ms");
	assert_int_equal(r->nsamples, 0);
	assert_int_equal(r->nstats, 6);
	assert_near(stat(r, "max"), 0.002303, 1e-12);
	assert_near(stat(r, "mean"), 0.000123, 1e-12);
	assert_near(stat(r, "p99"), 0.000327, 1e-12);
	pdb_run_free(run);
}

static void test_locust(void **state)
{
	static const char *const files[] = {
		"locust/local_locust-2.12.1_stats.csv",
		"locust/local_locust-2.12.1_stats_history.csv",
		"locust/local_locust-2.12.1_failures.csv",
	};
	struct pdb_run *run = ingest(files, 3, "locust");
	const struct pdb_result *r;

	(void)state;
	if (!run)
		skip_without_corpus();
	/* stats: 3 rows x 6 metrics; history: 3 names x 21 columns; failures: 1 */
	assert_int_equal(run->nresults, 18 + 63 + 1);
	assert_string_equal(pdb_run_get_attr(run, "start_time"), "2026-11-29T21:45:46Z");
	r = find(run, "Aggregated", "throughput", NULL, NULL);
	assert_int_equal(r->ndims, 0);
	assert_near(r->samples[0].value, 48.11620700847053, 1e-12);
	r = find(run, "/index.html", "response_time", "type", "GET");
	assert_string_equal(r->unit, "s");
	assert_near(stat(r, "mean"), 0.006079684121002826, 1e-15);
	assert_near(stat(r, "p99.9"), 0.016, 1e-15);
	r = find(run, "/missing", "errors", "type", "GET");
	assert_string_equal(pdb_result_get_dim(r, "error"),
			    "HTTPError('404 Client Error: File not found for url: /missing')");
	assert_int_equal(r->direction, PDB_DIR_LOWER);
	assert_near(r->samples[0].value, 140, 0);
	/* history: 11 seconds of Aggregated rows, the last at t = 10 with 3 users */
	r = find(run, "Aggregated", "users", NULL, NULL);
	assert_int_equal(r->nsamples, 11);
	assert_true(pdb_sample_has_t(&r->samples[10]));
	assert_near(r->samples[10].t, 10, 0);
	assert_near(r->samples[10].value, 3, 0);
	/* the first Aggregated row has N/A percentiles: left out, not zero */
	r = find(run, "Aggregated", "response_time_p50", NULL, NULL);
	assert_int_equal(r->nsamples, 10);
	assert_near(r->samples[0].t, 1, 0);
	pdb_run_free(run);
}

static void test_jmeter(void **state)
{
	static const char *const files[] = { "jmeter/jmeter_HTMLReportTestFile.jtl.csv" };
	struct pdb_run *run = ingest(files, 1, "jmeter");
	const struct pdb_result *r;

	(void)state;
	if (!run)
		skip_without_corpus();
	/* JR-OK and JR-KO: elapsed, latency, connect, errors, bytes, sent_bytes,
	 * group_threads, all_threads, idle_time */
	assert_int_equal(run->nresults, 18);
	/* jmeter_dashboard_statistics_expected.json: JR-OK 252 samples, mean
	 * 235.90079365079367 ms; JR-KO 3 samples, 3 errors, min 100, max 329 */
	r = find(run, "JR-OK", "elapsed", NULL, NULL);
	assert_string_equal(r->unit, "s");
	assert_string_equal(r->raw_unit, "ms");
	assert_int_equal(r->nsamples, 252);
	assert_near(mean(r), 0.23590079365079367, 1e-12);
	assert_near(r->samples[1].t, 0.352, 1e-12);
	r = find(run, "JR-KO", "elapsed", NULL, NULL);
	assert_int_equal(r->nsamples, 3);
	assert_near(mean(r), 0.19966666666666666, 1e-12);
	r = find(run, "JR-KO", "errors", NULL, NULL);
	assert_near(r->samples[0].value, 3, 0);
	r = find(run, "JR-OK", "errors", NULL, NULL);
	assert_near(r->samples[0].value, 0, 0);
	r = find(run, "JR-OK", "bytes", NULL, NULL);
	assert_near(r->samples[0].value, 252 * 18, 0);
	pdb_run_free(run);
}

static void test_jmeter_false(void **state)
{
	static const char *const files[] = { "jmeter/jmeter_HTMLReportFalseTestFile.jtl.csv" };
	struct pdb_run *run = ingest(files, 1, "jmeter");
	const struct pdb_result *r;

	(void)state;
	if (!run)
		skip_without_corpus();
	/* one label, no responseCode column; all 50 samples failed */
	assert_int_equal(run->nresults, 9);
	r = find(run, "Requ\xc3\xaate HTTP", "errors", NULL, NULL);
	assert_near(r->samples[0].value, 50, 0);
	r = find(run, "Requ\xc3\xaate HTTP", "elapsed", NULL, NULL);
	assert_int_equal(r->nsamples, 50);
	/* rows are 1549967385359 .. 1549967385737 */
	assert_near(r->samples[49].t, 0.378, 1e-12);
	pdb_run_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_redis_benchmark),
		cmocka_unit_test(test_locust),
		cmocka_unit_test(test_jmeter),
		cmocka_unit_test(test_jmeter_false),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
