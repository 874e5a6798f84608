/* Unit tests: the corpus files of dropwizard, omb, fio and iperf3 ingested, with facts checked by hand. */
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

#include "ingest.h"
#include "model.h"

static struct pdb_run *ingest(const char *rel, const char *format)
{
	const char *root = getenv("ROOT");
	char path[4096];
	const char *paths[1] = { path };
	struct pdb_ingest_opts opts = { .format = format };
	const char *detected = NULL;
	struct pdb_err err;
	struct pdb_run *run;

	snprintf(path, sizeof path, "%s/../shared/corpus/%s", root ? root : ".", rel);
	if (access(path, R_OK) != 0)
		return NULL;
	pdb_err_clear(&err);
	run = pdb_ingest_files(paths, 1, &opts, &detected, &err);
	assert_non_null(run);
	assert_string_equal(detected, format); /* detection picks this adapter */
	return run;
}

static const struct pdb_result *find(const struct pdb_run *run, const char *bench,
				     const char *metric, const char *dim, const char *value)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		const char *d = dim ? pdb_result_get_dim(r, dim) : NULL;
		if (strcmp(r->benchmark, bench) == 0 && strcmp(r->metric, metric) == 0 &&
		    (!dim || (d && strcmp(d, value) == 0)))
			return r;
	}
	fail_msg("no result %s %s", bench, metric);
	return NULL;
}

/* |got - want| <= eps, or fail naming both. */
static void near(double got, double want, double eps)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("got %.17g, want %.17g (within %g)", got, want, eps);
}

static double stat(const struct pdb_result *r, const char *name)
{
	double v = NAN;

	assert_int_equal(pdb_result_get_stat(r, name, &v), 0);
	return v;
}

static void test_omb(void **state)
{
	struct pdb_run *run = ingest("omb/redpanda_blog_kafka_latency_sync-200k.json", "omb");
	const char *bench = "100-partitions-200K-rate-4-producer";
	const struct pdb_result *r;
	double total = 0;

	(void)state;
	if (!run)
		skip_without_corpus();
	r = find(run, bench, "publish_latency", NULL, NULL);
	assert_string_equal(r->unit, "s");
	near(stat(r, "p99"), 0.019712, 1e-12);  /* aggregatedPublishLatency99pct 19.712 ms */
	near(stat(r, "p99.99"), 0.210828, 1e-12);
	near(stat(r, "max"), 0.330533, 1e-12);
	assert_int_equal(r->nsamples, 1946);                     /* aggregatedPublishLatencyQuantiles */
	for (size_t i = 0; i < r->nsamples; i++)
		total += r->samples[i].weight;
	near(total, 1.0, 1e-9);                  /* weights: fractions up to 100 % */
	r = find(run, bench, "publish_rate", NULL, NULL);
	assert_int_equal(r->nsamples, 60);                       /* 60 periods of 10 s */
	assert_true(pdb_sample_has_t(&r->samples[59]));
	near(r->samples[59].t, 590, 0);
	near(r->samples[0].value, 203974.153890742, 1e-6);
	r = find(run, bench, "end_to_end_latency", NULL, NULL);
	near(stat(r, "p50"), 0.004, 1e-12);
	assert_string_equal(pdb_run_get_attr(run, "omb.driver"), "Kafka");
	pdb_run_free(run);
}

static void test_fio(void **state)
{
	struct pdb_run *run = ingest("fio/local_fio-3.33_randread_seqwrite.json", "fio");
	const struct pdb_result *r;

	(void)state;
	if (!run)
		skip_without_corpus();
	r = find(run, "randread", "iops", "dir", "read");
	near(r->samples[0].value, 4246.630055, 1e-9);
	r = find(run, "randread", "bw", "dir", "read");
	assert_string_equal(r->unit, "B/s");
	near(r->samples[0].value, 17394196, 0);
	near(stat(r, "interval_min"), 14632 * 1024.0, 1e-6); /* bw_min is KiB/s */
	r = find(run, "randread", "clat", "dir", "read");
	near(stat(r, "p99"), 3915776e-9, 1e-15);
	near(stat(r, "p99.99"), 22937600e-9, 1e-15);
	r = find(run, "seqwrite", "iops", "dir", "write");
	near(r->samples[0].value, 49815.092454, 1e-6);
	/* no I/O: no read results for the write job, no write results for the read job */
	for (size_t i = 0; i < run->nresults; i++) {
		const char *dir = pdb_result_get_dim(&run->results[i], "dir");
		if (strcmp(run->results[i].benchmark, "seqwrite") == 0)
			assert_true(!dir || strcmp(dir, "write") == 0);
		else
			assert_true(!dir || strcmp(dir, "read") == 0);
	}
	assert_string_equal(pdb_run_get_attr(run, "fio.fio version"), "fio-3.33");
	pdb_run_free(run);
}

static void test_iperf3(void **state)
{
	struct pdb_run *run = ingest("iperf3/local_iperf3-3.12_tcp_loopback.json", "iperf3");
	const struct pdb_result *r;

	(void)state;
	if (!run)
		skip_without_corpus();
	r = find(run, "iperf3", "throughput", NULL, NULL);
	assert_string_equal(r->unit, "B/s");
	assert_int_equal(r->nsamples, 2);                        /* -t 2 -i 1 */
	near(r->samples[0].value, 14215648685.902271 / 8, 1e-3);
	near(r->samples[1].t, r->samples[0].t + 1.000214, 1e-6);
	r = find(run, "iperf3", "received_throughput", NULL, NULL);
	near(r->samples[0].value, 17610992856.069443 / 8, 1e-3);
	r = find(run, "iperf3", "sent_retransmits", NULL, NULL);
	near(r->samples[0].value, 1, 0);
	assert_string_equal(pdb_result_get_dim(r, "protocol"), "TCP");
	assert_string_equal(pdb_run_get_attr(run, "iperf3.start.version"), "iperf 3.12");
	pdb_run_free(run);
}

static void test_dropwizard(void **state)
{
	struct pdb_run *run = ingest("dropwizard/telegraf_dropwizard_test_oneMetricPerType.json",
				     "dropwizard");
	const char *timer = "org.eclipse.jetty.server.HttpConnectionFactory.8081.connections";
	const struct pdb_result *r;

	(void)state;
	if (!run)
		skip_without_corpus();
	r = find(run, timer, "duration", NULL, NULL);
	assert_string_equal(r->unit, "s");                       /* duration_units: seconds */
	near(stat(r, "p99.9"), 82.058711464, 1e-12);
	near(stat(r, "mean"), 50.13867439111584, 1e-12);
	r = find(run, timer, "rate", NULL, NULL);
	assert_string_equal(r->unit, "calls/s");
	near(stat(r, "m1_rate"), 0.01354432563862594, 1e-15);
	r = find(run, timer, "count", NULL, NULL);
	near(r->samples[0].value, 2, 0);
	r = find(run, "jvm.memory.total.used", "value", NULL, NULL);
	near(r->samples[0].value, 77233584, 0);
	assert_string_equal(pdb_run_get_attr(run, "dropwizard.version"), "3.1.3");
	pdb_run_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_omb),
		cmocka_unit_test(test_fio),
		cmocka_unit_test(test_iperf3),
		cmocka_unit_test(test_dropwizard),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
