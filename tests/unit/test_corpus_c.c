/* Unit tests: the corpus files of wrk, wrk2 and sysbench ingested, with facts checked by hand. */
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

static void test_wrk(void **state)
{
	static const char *const files[] = { "wrk/local_wrk-4.1.0_latency.txt" };
	struct pdb_run *run = ingest(files, 1, "wrk");
	const char *url = "http://127.0.0.1:8099/index.html";
	const struct pdb_result *r;

	(void)state;
	if (!run)
		skip_without_corpus();
	assert_string_equal(run->tool, "wrk");
	assert_string_equal(pdb_run_get_attr(run, "duration"), "2s");
	/* latency, thread_throughput, requests, elapsed, bytes_read, throughput, transfer */
	assert_int_equal(run->nresults, 7);
	/* "Requests/sec:   1291.34" */
	r = find(run, url, "throughput", "connections", "10");
	assert_string_equal(pdb_result_get_dim(r, "threads"), "2");
	assert_string_equal(r->unit, "req/s");
	assert_int_equal(r->direction, PDB_DIR_HIGHER);
	assert_near(r->samples[0].value, 1291.34, 1e-9);
	/* "Latency     5.79ms   12.32ms 207.28ms", "99%   38.99ms" */
	r = find(run, url, "latency", NULL, NULL);
	assert_string_equal(r->unit, "s");
	assert_int_equal(r->nsamples, 0);
	assert_near(stat(r, "mean"), 5.79e-3, 1e-12);
	assert_near(stat(r, "stddev"), 12.32e-3, 1e-12);
	assert_near(stat(r, "max"), 207.28e-3, 1e-12);
	assert_near(stat(r, "p50"), 4.02e-3, 1e-12);
	assert_near(stat(r, "p99"), 38.99e-3, 1e-12);
	/* "Req/Sec   649.83    364.22     1.27k" */
	r = find(run, url, "thread_throughput", NULL, NULL);
	assert_near(stat(r, "max"), 1270, 1e-9);
	/* "2592 requests in 2.01s, 480.94KB read" (wrk's KB is 1024 bytes) */
	r = find(run, url, "requests", NULL, NULL);
	assert_near(r->samples[0].value, 2592, 0);
	r = find(run, url, "bytes_read", NULL, NULL);
	assert_near(r->samples[0].value, 480.94 * 1024, 1e-6);
	r = find(run, url, "transfer", NULL, NULL);
	assert_string_equal(r->unit, "B/s");
	assert_near(r->samples[0].value, 239.60 * 1024, 1e-6);
	pdb_run_free(run);
}

static void test_wrk2(void **state)
{
	static const char *const files[] = { "wrk/wrk2_readme_latency_example.txt" };
	struct pdb_run *run = ingest(files, 1, "wrk");
	const char *url = "http://127.0.0.1:80/index.html";
	const struct pdb_result *r;
	double weight = 0;

	(void)state;
	if (!run)
		skip_without_corpus();
	r = find(run, url, "latency", "connections", "100");
	/* "99.900%   12.30ms", "99.999%   12.50ms", "100.000%   12.50ms" */
	assert_near(stat(r, "p99.9"), 12.30e-3, 1e-12);
	assert_near(stat(r, "p99.999"), 12.50e-3, 1e-12);
	assert_near(stat(r, "max"), 12.50e-3, 1e-12);
	/* the spectrum: 81 rows, 67 that add requests; weights sum to
	 * "Total count    =        39500"; first row "0.921 0.000000 1" */
	assert_int_equal(r->nsamples, 67);
	for (size_t i = 0; i < r->nsamples; i++)
		weight += r->samples[i].weight;
	assert_near(weight, 39500, 0);
	assert_near(r->samples[0].value, 0.921e-3, 1e-12);
	assert_near(r->samples[0].weight, 1, 0);
	/* "4.053     0.100000         3951" */
	assert_near(r->samples[1].weight, 3950, 0);
	/* "60018 requests in 30.00s, 19.81MB read", "Requests/sec:   2000.28" */
	r = find(run, url, "bytes_read", NULL, NULL);
	assert_near(r->samples[0].value, 19.81 * 1048576, 1e-6);
	r = find(run, url, "throughput", NULL, NULL);
	assert_near(mean(r), 2000.28, 1e-9);
	pdb_run_free(run);
}

static void test_sysbench_cpu(void **state)
{
	static const char *const files[] = { "sysbench/local_sysbench-1.0.20_cpu.txt" };
	struct pdb_run *run = ingest(files, 1, "sysbench");
	const struct pdb_result *r;

	(void)state;
	if (!run)
		skip_without_corpus();
	assert_string_equal(run->tool, "sysbench");
	assert_string_equal(pdb_run_get_attr(run, "version"), "1.0.20");
	/* throughput, events, total_time, latency, thread_events, thread_time */
	assert_int_equal(run->nresults, 6);
	/* "events per second:  3901.89" */
	r = find(run, "cpu", "throughput", "threads", "2");
	assert_string_equal(r->unit, "events/s");
	assert_int_equal(r->direction, PDB_DIR_HIGHER);
	assert_near(mean(r), 3901.89, 1e-9);
	/* --percentile=99: "99th percentile:  4.57", "sum:  3985.11" */
	r = find(run, "cpu", "latency", NULL, NULL);
	assert_near(stat(r, "p99"), 4.57e-3, 1e-12);
	assert_near(stat(r, "sum"), 3.98511, 1e-12);
	assert_near(stat(r, "min"), 0.28e-3, 1e-12);
	/* "events (avg/stddev):           3912.5000/301.50" */
	r = find(run, "cpu", "thread_events", NULL, NULL);
	assert_near(stat(r, "stddev"), 301.5, 1e-9);
	r = find(run, "cpu", "events", NULL, NULL);
	assert_near(mean(r), 7825, 0);
	pdb_run_free(run);
}

static void test_sysbench_interval(void **state)
{
	static const char *const files[] = {
		"sysbench/local_sysbench-1.0.20_cpu_report-interval.txt"
	};
	struct pdb_run *run = ingest(files, 1, "sysbench");
	const struct pdb_result *r;

	(void)state;
	if (!run)
		skip_without_corpus();
	/* "[ 2s ] thds: 2 eps: 3664.11 lat (ms,95%): 1.79" */
	r = find(run, "cpu", "throughput", NULL, NULL);
	assert_int_equal(r->nsamples, 2);
	assert_near(r->samples[1].t, 2, 0);
	assert_near(r->samples[1].value, 3664.11, 1e-9);
	assert_near(stat(r, "mean"), 4231.20, 1e-9);
	r = find(run, "cpu", "latency_p95", NULL, NULL);
	assert_near(r->samples[1].value, 1.79e-3, 1e-12);
	r = find(run, "cpu", "total_time", NULL, NULL);
	assert_int_equal(r->direction, PDB_DIR_NONE);
	assert_near(mean(r), 3.0037, 1e-12);
	pdb_run_free(run);
}

static void test_sysbench_json_hook(void **state)
{
	static const char *const files[] = { "sysbench/local_sysbench-1.0.20_report_json_hook.txt" };
	struct pdb_run *run = ingest(files, 1, "sysbench");
	const struct pdb_result *r;

	(void)state;
	if (!run)
		skip_without_corpus();
	/* no "CPU speed:" section: the test is not named */
	r = find(run, "sysbench", "throughput", "threads", "1");
	/* "time": 1, "tps": 91175.92 */
	assert_int_equal(r->nsamples, 1);
	assert_near(r->samples[0].t, 1, 0);
	assert_near(r->samples[0].value, 91175.92, 1e-9);
	/* "latency": 0.01 at the summary's "95th percentile" */
	r = find(run, "sysbench", "latency_p95", NULL, NULL);
	assert_near(r->samples[0].value, 0.01e-3, 1e-15);
	r = find(run, "sysbench", "events", NULL, NULL);
	assert_near(mean(r), 184161, 0);
	pdb_run_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrk),
		cmocka_unit_test(test_wrk2),
		cmocka_unit_test(test_sysbench_cpu),
		cmocka_unit_test(test_sysbench_interval),
		cmocka_unit_test(test_sysbench_json_hook),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
