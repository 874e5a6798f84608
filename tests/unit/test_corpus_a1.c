/* Unit tests: the shared corpus through the hyperfine, Google Benchmark, pytest-benchmark and go adapters. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "skip_corpus.h"

#include "ingest.h"
#include "model.h"
#include "util.h"

/* The corpus lives beside the project: $ROOT/../shared/corpus. */
static char *corpus_path(const char *rel)
{
	const char *root = getenv("ROOT");

	return pdb_xasprintf("%s/../shared/corpus/%s", root && *root ? root : ".", rel);
}

/* Ingest one corpus file with detection; skips the test when absent. */
static struct pdb_run *ingest(const char *rel, const char *want_format)
{
	struct pdb_ingest_opts opts = { 0 };
	struct pdb_err err;
	struct pdb_run *run;
	const char *detected = NULL;
	char *path = corpus_path(rel);
	struct stat sb;

	if (stat(path, &sb) < 0) {
		free(path);
		skip_without_corpus();
	}
	run = pdb_ingest_files((const char *const *)&path, 1, &opts, &detected, &err);
	if (!run)
		fprintf(stderr, "%s: %s\n", rel, err.msg);
	assert_non_null(run);
	assert_string_equal(detected, want_format);
	free(path);
	return run;
}

/* The result of (benchmark, metric) having dim key=value (key NULL: any). */
static const struct pdb_result *find(const struct pdb_run *run, const char *bench,
				     const char *metric, const char *key, const char *value)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		const char *v;
		if (strcmp(r->benchmark, bench) != 0 || strcmp(r->metric, metric) != 0)
			continue;
		if (key && (!(v = pdb_result_get_dim(r, key)) || strcmp(v, value) != 0))
			continue;
		return r;
	}
	fail_msg("no result %s %s", bench, metric);
	return NULL;
}

static double stat_of(const struct pdb_result *r, const char *name)
{
	double v = NAN;

	assert_int_equal(pdb_result_get_stat(r, name, &v), 0);
	return v;
}

#define assert_close(a, b) assert_true(fabs((double)(a) - (double)(b)) <= 1e-12 * fabs((double)(b)) + 1e-300)

static void test_hyperfine_json(void **state)
{
	struct pdb_run *run = ingest("hyperfine/bencher_two.json", "hyperfine");
	const struct pdb_result *r;

	(void)state;
	assert_string_equal(run->tool, "hyperfine");
	/* time, user_time, sys_time and cpu_time of 2 commands; exit codes are a status */
	assert_int_equal(run->nresults, 8);
	assert_int_equal(run->nfailures, 0);
	r = find(run, "sleep 0.1", "time", NULL, NULL);
	assert_string_equal(r->unit, "s");
	assert_int_equal(r->nsamples, 27);
	assert_close(r->samples[0].value, 0.10586876872);
	assert_close(stat_of(r, "mean"), 0.10753446442370372);
	assert_close(stat_of(find(run, "sleep 0.1", "sys_time", NULL, NULL), "mean"),
		     0.0013508844444444443);
	assert_close(stat_of(find(run, "sleep 0.1", "cpu_time", NULL, NULL), "mean"),
		     stat_of(find(run, "sleep 0.1", "user_time", NULL, NULL), "mean") +
		     0.0013508844444444443);
	assert_int_equal(find(run, "sleep 0.2", "time", NULL, NULL)->nsamples, 13);
	pdb_run_free(run);

	run = ingest("hyperfine/bencher_one.json", "hyperfine");
	r = find(run, "sleep 0.01", "time", NULL, NULL);
	assert_int_equal(r->nsamples, 214);
	assert_close(r->samples[0].value, 0.01074585146);
	assert_close(stat_of(r, "mean"), 0.013317239025420563);
	pdb_run_free(run);

	run = ingest("hyperfine/local_hyperfine-1.15.0_param_scan.json", "hyperfine");
	r = find(run, "sleep 0.0{n}", "time", "n", "2"); /* a scan: one benchmark, its template */
	assert_int_equal(r->nsamples, 5);
	assert_close(stat_of(r, "mean"), 0.021787209600000003);
	assert_close(r->samples[4].value, 0.021820666000000002);
	pdb_run_free(run);
}

static void test_hyperfine_csv(void **state)
{
	struct pdb_run *run = ingest("hyperfine/local_hyperfine-1.15.0_param_scan.csv", "hyperfine-csv");
	const struct pdb_result *r;

	(void)state;
	assert_int_equal(run->nresults, 12); /* time, user_time, sys_time, cpu_time of 3 */
	r = find(run, "sleep 0.0{n}", "time", "n", "2"); /* a scan: one benchmark, its template */
	assert_int_equal(r->nsamples, 0);
	assert_close(stat_of(r, "stddev"), 0.00004512642767603064);
	assert_close(stat_of(r, "max"), 0.021844602);
	pdb_run_free(run);

	run = ingest("hyperfine/local_hyperfine-1.15.0_two.csv", "hyperfine-csv");
	assert_int_equal(run->nresults, 8);
	r = find(run, "true", "time", NULL, NULL);
	assert_close(stat_of(r, "mean"), 0.002691790333333334);
	assert_true(stat_of(find(run, "true", "sys_time", NULL, NULL), "mean") == 0);
	pdb_run_free(run);
}

static void test_gbench_json(void **state)
{
	struct pdb_run *run = ingest("google-benchmark/gab_googlecpp_output.json", "google-benchmark");
	const struct pdb_result *r;

	(void)state;
	assert_string_equal(run->tool, "google-benchmark");
	assert_int_equal(run->nresults, 6); /* real, cpu, iterations of fib_10 and fib_20 */
	r = find(run, "fib_10", "real_time", NULL, NULL);
	assert_string_equal(r->unit, "s");
	assert_string_equal(r->raw_unit, "ns");
	assert_close(r->samples[0].value, 2.1498980114547953e-07);
	assert_string_equal(pdb_run_get_attr(run, "host"), "Corgi.local");
	assert_string_equal(pdb_run_get_attr(run, "caches"),
			    "L1 Data 32 KiB (x2), L1 Instruction 32 KiB (x2), "
			    "L2 Unified 256 KiB (x2), L3 Unified 3072 KiB (x1)");
	pdb_run_free(run);

	run = ingest("google-benchmark/googlebenchmark_tools_gbench_test1_run1.json", "google-benchmark");
	assert_close(find(run, "BM_NotBadTimeUnit", "real_time", NULL, NULL)->samples[0].value, 0.4);
	r = find(run, "MyComplexityTest", "real_time_coefficient", "big_o", "N");
	assert_close(r->samples[0].value, 6.4789275289789780e-09);
	r = find(run, "MyComplexityTest", "cpu_time_rms", "big_o", "N");
	assert_close(r->samples[0].value, 4.5097802512472874e-03);
	assert_string_equal(pdb_run_get_attr(run, "label[BM_hasLabel]"), "a label");
	pdb_run_free(run);

	run = ingest("google-benchmark/local_libbenchmark-1.7.1_repetitions_counters_bigO.json",
		     "google-benchmark");
	r = find(run, "BM_StringCopy/64", "real_time", NULL, NULL);
	assert_int_equal(r->nsamples, 3);
	assert_close(r->samples[0].value, 3.8548273205067616e-08);
	assert_close(stat_of(r, "mean"), 3.7804618507792092e-08);
	assert_close(stat_of(r, "cv"), 2.0853911348247489e-02); /* a ratio: not scaled */
	r = find(run, "BM_StringCopy/64", "items_per_second", NULL, NULL);
	assert_string_equal(r->unit, "items/s");
	assert_int_equal(r->direction, PDB_DIR_HIGHER);
	r = find(run, "BM_StringCopy/64", "custom_rate", NULL, NULL);
	assert_string_equal(r->unit, "count");
	assert_int_equal(r->direction, PDB_DIR_NONE);
	r = find(run, "BM_VectorPush", "cpu_time_rms", "big_o", "N");
	assert_close(r->samples[0].value, 3.7565326365880070e-01);
	assert_string_equal(pdb_run_get_attr(run, "commit"), "abc123");
	assert_string_equal(pdb_run_get_attr(run, "vcpus"), "2");
	pdb_run_free(run);
}

static void test_gbench_csv(void **state)
{
	struct pdb_run *run = ingest("google-benchmark/local_libbenchmark-1.7.1_repetitions.csv",
				     "google-benchmark-csv");
	const struct pdb_result *r;

	(void)state;
	r = find(run, "BM_StringCopy/64", "real_time", NULL, NULL);
	assert_int_equal(r->nsamples, 3);
	assert_close(r->samples[0].value, 21.6672e-9);
	assert_close(stat_of(r, "stddev"), 1.16364e-9);
	/* 1.7.1 writes it scaled (1.68903e+07): the stddev over the mean */
	assert_close(stat_of(r, "cv"), 1.16364 / 22.9647);
	r = find(run, "BM_StringCopy/64", "custom_rate", NULL, NULL);
	assert_close(stat_of(r, "mean"), 68.9824);
	assert_close(stat_of(r, "cv"), 0.0508462);
	r = find(run, "BM_VectorPush", "real_time_coefficient", "big_o", "N");
	assert_close(r->samples[0].value, 1.45287e-9);
	r = find(run, "BM_VectorPush", "real_time_rms", "big_o", "N");
	assert_close(r->samples[0].value, 0.197869);
	assert_string_equal(pdb_run_get_attr(run, "num_cpus"), "2");
	assert_string_equal(pdb_run_get_attr(run, "load_avg"), "1.43,1.24,0.58");
	assert_string_equal(pdb_run_get_attr(run, "label[BM_VectorPush/16]"), "push_back");
	pdb_run_free(run);
}

static void test_pytest(void **state)
{
	struct pdb_run *run = ingest("pytest-benchmark/local_pytest-benchmark-3.2.2_params_pedantic.json",
				     "pytest-benchmark");
	const struct pdb_result *r;

	(void)state;
	assert_string_equal(run->tool, "pytest-benchmark");
	r = find(run, "test_fib", "time", "n", "5");
	assert_string_equal(r->raw_name, "test_fib[5]");
	assert_int_equal(r->nsamples, 166);
	assert_close(r->samples[0].value, 2.5150000055873534e-06);
	assert_close(stat_of(r, "mean"), 1.1955542128449801e-06);
	assert_close(stat_of(find(run, "test_fib", "ops", "n", "5"), "mean"), 836432.1661502635);
	assert_string_equal(pdb_run_get_attr(run, "machine.cpu.brand"), "AMD EPYC");
	assert_string_equal(pdb_run_get_attr(run, "commit.project"), "pyb");
	pdb_run_free(run);

	run = ingest("pytest-benchmark/bencher_four.json", "pytest-benchmark");
	r = find(run, "test_fib_1", "time", NULL, NULL);
	assert_int_equal(r->nsamples, 4); /* the fifth entry is an elision note */
	assert_close(r->samples[0].value, 1.4538999999924586e-7);
	assert_string_equal(pdb_run_get_attr(run, "data_skipped[test_fib_1]"), "1");
	pdb_run_free(run);
}

static void test_go(void **state)
{
	struct pdb_run *run = ingest("go-bench/golang-perf_suffixarray.bench", "go-bench");
	const struct pdb_result *r;
	size_t ntime = 0;

	(void)state;
	assert_string_equal(run->tool, "go");
	for (size_t i = 0; i < run->nresults; i++)
		ntime += strcmp(run->results[i].metric, "time") == 0;
	assert_int_equal(ntime, 42); /* 42 distinct benchmark lines, 10 each */
	r = find(run, "BenchmarkNew", "time", "size", "100K");
	assert_string_equal(pdb_result_get_dim(r, "text"), "opticks");
	assert_string_equal(pdb_result_get_dim(r, "bits"), "32");
	assert_string_equal(pdb_result_get_dim(r, "procs"), "8");
	assert_int_equal(r->nsamples, 10);
	assert_close(r->samples[0].value, 0.004052123);
	r = find(run, "BenchmarkNew", "throughput", "size", "100K");
	assert_close(r->samples[0].value, 24.68e6);
	assert_string_equal(pdb_run_get_attr(run, "cpu"), "Intel(R) Core(TM) i7-8665U CPU @ 1.90GHz");
	pdb_run_free(run);

	run = ingest("go-bench/bencher_five.txt", "go-bench");
	r = find(run, "BenchmarkFib10", "time", "procs", "8");
	assert_close(r->samples[0].value, 325e-9);
	find(run, "BenchmarkFib20", "time", "procs", "1");
	r = find(run, "BenchmarkFib/my/tabled/benchmark_-_20", "time", NULL, NULL);
	assert_close(r->samples[0].value, 40537.456e-9);
	pdb_run_free(run);

	run = ingest("go-bench/gab_go_output.txt", "go-bench");
	r = find(run, "BenchmarkFib22", "auxMetricUnits", "procs", "16");
	assert_close(r->samples[0].value, 4);
	pdb_run_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hyperfine_json),
		cmocka_unit_test(test_hyperfine_csv),
		cmocka_unit_test(test_gbench_json),
		cmocka_unit_test(test_gbench_csv),
		cmocka_unit_test(test_pytest),
		cmocka_unit_test(test_go),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
