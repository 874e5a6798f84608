/* Unit tests: criterion, JMH, BenchmarkDotNet, BMF and github-action-benchmark corpus files ingested, facts checked by hand. */
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

#define MAX_FILES 3

/* One ingestion and what it must give: the number of series, then one
 * value of the series named by benchmark (+ dim) and metric. */
static const struct corpus_case {
	const char *files[MAX_FILES];
	const char *format;       /* forced, or NULL to detect */
	const char *detected;     /* expected adapter */
	size_t nseries;
	const char *benchmark, *dim_key, *dim_value, *metric, *unit;
	int direction;
	size_t nsamples;
	double sample0;           /* first sample, canonical unit */
	const char *stat;         /* a stat and its value, or NULL */
	double stat_value;
} cases[] = {
	{ { "jmh/bencher_six.json" }, NULL, "jmh", 6,
	  "com.github.caffeine.caffeine.cache.ComputeBenchmark.compute_sameKey",
	  "computeType", "Caffeine", "throughput", "ops/s", PDB_DIR_HIGHER, 3,
	  1.524957059947031E8, "mean", 1.5252013234402195E8 },
	{ { "jmh/bencher_throughput.json" }, NULL, "jmh", 1,
	  "org.openjdk.jmh.samples.JMHSample_01_HelloWorld.wellHelloThere", NULL, NULL,
	  "throughput", "ops/s", PDB_DIR_HIGHER, 3, 3.376842765688582E9, "min", 3.375353964729294E9 },
	{ { "jmh/gab_jmh_output_2_params.json" }, NULL, "jmh", 1,
	  "org.openjdk.jmh.samples.JMHSample_01_HelloWorld.wellHelloThere", "paramB", "33",
	  "throughput", "ops/s", PDB_DIR_HIGHER, 3, 3.376842765688582E9, "p50", 3.37651988895058E9 },
	{ { "benchmarkdotnet/bencher_memory.json" }, NULL, "benchmarkdotnet", 20,
	  "BenchmarkDotNet.Samples.Memory.AllocEmptyList", NULL, NULL, "time", "s", PDB_DIR_LOWER,
	  3, 640542200.0 / 8388608 * 1e-9, "mean", 77.49449412027995e-9 },
	{ { "benchmarkdotnet/bencher_memory.json" }, NULL, "benchmarkdotnet", 20,
	  "BenchmarkDotNet.Samples.Memory.AllocExactList", NULL, NULL, "allocated", "B/op",
	  PDB_DIR_LOWER, 1, 184, NULL, 0 },
	{ { "benchmarkdotnet/bencher_two.json" }, NULL, "benchmarkdotnet", 2,
	  "BenchmarkDotNet.Samples.Intro.IntroJsonExport.Sleep10", NULL, NULL, "time", "s",
	  PDB_DIR_LOWER, 0, 0, "mean", 10362283.085796878e-9 },
	{ { "bmf/bencher_docs_bmf_example.json" }, NULL, "bmf", 4, "benchmark_name", NULL, NULL,
	  "latency", "s", PDB_DIR_LOWER, 1, 88e-9, "lower_value", 87.42e-9 },
	{ { "bmf/bencher_report_bmf_mixed.json" }, NULL, "bmf", 3, "benchmark-b", NULL, NULL,
	  "latency", "s", PDB_DIR_LOWER, 1, 3443e-9, "upper_value", 2275e-9 },
	{ { "bmf/bencher_report_dhat.json" }, NULL, "bmf", 6, "bench_play_game", NULL, NULL,
	  "Total Bytes", "count", PDB_DIR_NONE, 1, 662, NULL, 0 },
	{ { "github-action-benchmark/customBiggerIsBetter_output.json" }, NULL, "gab", 2,
	  "My Custom Bigger Is Better Benchmark - Throughput", NULL, NULL, "value", "req/s",
	  PDB_DIR_HIGHER, 1, 70, NULL, 0 },
	{ { "github-action-benchmark/customSmallerIsBetter_output.json" }, "gab-smaller",
	  "gab-smaller", 2, "My Custom Smaller Is Better Benchmark - Memory Used", NULL, NULL,
	  "value", "Megabytes", PDB_DIR_LOWER, 1, 100, NULL, 0 },
	{ { "github-action-benchmark/customSmallerIsBetter_output2.json" }, NULL, "gab", 4,
	  "Binary file", NULL, NULL, "value", "s", PDB_DIR_LOWER, 1, 3886.75e-9,
	  "range", 87.1657e-9 },
	{ { "criterion/local_criterion-0.3.6_target_criterion" }, NULL, "criterion", 3,
	  "fib 10", NULL, NULL, "time", "s", PDB_DIR_LOWER, 10, 7683378.0 / 45575 * 1e-9,
	  "slope", 228.3554872160204e-9 },
	{ { "criterion/local_criterion-0.3.6_target_criterion" }, NULL, "criterion", 3,
	  "fib_group", "param", "12", "time", "s", PDB_DIR_LOWER, 10, 7664122.0 / 11373 * 1e-9, "mean_ci_high",
	  936.9404077640025e-9 },
	{ { "criterion/local_criterion-0.3.6_target_criterion/fib_group/5/new/raw.csv" }, NULL,
	  "criterion", 1, "fib_group", "param", "5", "time", "s", PDB_DIR_LOWER, 10,
	  11873304.0 / 479204 * 1e-9, NULL, 0 },
	{ { "criterion/book_legacy_pre0.3_sample.json", "criterion/book_legacy_pre0.3_estimates.json" },
	  NULL, "criterion", 1, "Fibonacci/Iterative", NULL, NULL, "time", "s", PDB_DIR_LOWER, 100,
	  1128000.0 / 209454 * 1e-9, "stddev", 0.1802894617505479e-9 },
};

static char *corpus_path(const char *rel)
{
	const char *root = getenv("ROOT");
	char *p = NULL;

	if (asprintf(&p, "%s/../shared/corpus/%s", root && *root ? root : ".", rel) < 0)
		return NULL;
	return p;
}

static const struct pdb_result *find(const struct pdb_run *run, const struct corpus_case *c)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		const char *v = c->dim_key ? pdb_result_get_dim(r, c->dim_key) : NULL;
		if (strcmp(r->benchmark, c->benchmark) == 0 && strcmp(r->metric, c->metric) == 0 &&
		    (!c->dim_key || (v && strcmp(v, c->dim_value) == 0)))
			return r;
	}
	return NULL;
}

static void check_close(double got, double want)
{
	if (fabs(got - want) > 1e-12 * fabs(want))
		fail_msg("got %.17g, want %.17g", got, want);
}

static void test_corpus(void **state)
{
	size_t ran = 0;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct corpus_case *c = &cases[i];
		struct pdb_ingest_opts opts = { .format = c->format };
		char *paths[MAX_FILES] = { 0 };
		const char *detected = NULL;
		const struct pdb_result *r;
		struct pdb_run *run;
		struct pdb_err err;
		struct stat sb;
		size_t n = 0;
		int present = 1;
		double v;

		while (n < MAX_FILES && c->files[n]) {
			paths[n] = corpus_path(c->files[n]);
			present = present && paths[n] && stat(paths[n], &sb) == 0;
			n++;
		}
		if (present) {
			run = pdb_ingest_files((const char *const *)paths, n, &opts, &detected, &err);
			if (!run)
				fail_msg("%s: %s", c->files[0], err.msg);
			assert_string_equal(detected, c->detected);
			assert_int_equal(run->nresults, c->nseries);
			r = find(run, c);
			if (!r)
				fail_msg("%s: no series %s %s", c->files[0], c->benchmark, c->metric);
			assert_string_equal(r->unit, c->unit);
			assert_int_equal(r->direction, c->direction);
			assert_int_equal(r->nsamples, c->nsamples);
			if (c->nsamples)
				check_close(r->samples[0].value, c->sample0);
			if (c->stat) {
				assert_int_equal(pdb_result_get_stat(r, c->stat, &v), 0);
				check_close(v, c->stat_value);
			}
			pdb_run_free(run);
			ran++;
		}
		for (size_t k = 0; k < n; k++)
			free(paths[k]);
	}
	if (ran == 0)
		skip_without_corpus();
}

/* Files that are not results of these tools stay unclaimed. */
static void test_not_claimed(void **state)
{
	static const char *const others[] = {
		"bmf/bencher_bmf_v0_schema.json",
		"github-action-benchmark/gab_gh-pages_data.js",
		"julia-benchmarktools/gab_julia_output.json",
		"criterion/local_criterion-0.3.6_cargo_bench_stdout.txt",
	};
	size_t ran = 0;

	(void)state;
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		char *p = corpus_path(others[i]);
		const char *paths[1] = { p };
		struct pdb_ingest_opts opts = { 0 };
		const char *detected = NULL;
		struct pdb_run *run;
		struct pdb_err err;
		struct stat sb;

		if (p && stat(p, &sb) == 0) {
			run = pdb_ingest_files(paths, 1, &opts, &detected, &err);
			if (run) {
				const char *mine[] = { "criterion", "jmh", "benchmarkdotnet", "bmf", "gab" };
				for (size_t k = 0; k < sizeof mine / sizeof mine[0]; k++)
					if (strcmp(detected, mine[k]) == 0)
						fail_msg("%s claimed by %s", others[i], detected);
				pdb_run_free(run);
			}
			ran++;
		}
		free(p);
	}
	if (ran == 0)
		skip_without_corpus();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_not_claimed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
