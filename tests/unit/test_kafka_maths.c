/* Kafka maths: histogram error bounds and percentiles, template rendering, hot-set skew, GUIDs and payload matches. */
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

#include "kafka/match.h"
#include "loadgen/histogram.h"
#include "loadgen/template.h"

/* Every value from 1 µs to 1 h, sampled geometrically: its bucket's value
 * is within 1 % (in fact 1/256) of it, and buckets are monotonic. */
static void test_hist_relative_error(void **state)
{
	size_t prev = 0;

	(void)state;
	for (double v = 1000; v <= 3.6e12; v *= 1.0007) {
		uint64_t ns = (uint64_t)v;
		size_t b = pdb_hist_bucket(ns);
		double rep = pdb_hist_bucket_value(b);
		assert_true(b < PDB_HIST_BUCKETS);
		assert_true(b >= prev);
		assert_true(fabs(rep - (double)ns) / (double)ns <= 1.0 / 256 + 1e-12);
		prev = b;
	}
	/* exact below 256 ns; the top bucket takes what is beyond */
	assert_int_equal(pdb_hist_bucket(255), 255);
	assert_true(pdb_hist_bucket_value(255) == 255);
	assert_int_equal(pdb_hist_bucket(UINT64_MAX), PDB_HIST_BUCKETS - 1);
}

static const struct {
	double p, want;     /* values 1..1000 µs, one each */
} pct[] = {
	{ 50, 500e3 }, { 90, 900e3 }, { 99, 990e3 }, { 99.9, 999e3 }, { 100, 1000e3 }, { 0, 1e3 },
};

static void test_hist_percentiles(void **state)
{
	struct pdb_hist *h = calloc(1, sizeof *h), *h2 = calloc(1, sizeof *h2);

	(void)state;
	assert_true(pdb_hist_percentile(h, 50) == 0);
	for (int i = 1; i <= 1000; i++)
		pdb_hist_record(i <= 500 ? h : h2, (uint64_t)i * 1000);
	pdb_hist_merge(h, h2);
	assert_int_equal(h->n, 1000);
	assert_int_equal(h->min, 1000);
	assert_int_equal(h->max, 1000000);
	for (size_t i = 0; i < sizeof pct / sizeof pct[0]; i++) {
		double got = pdb_hist_percentile(h, pct[i].p);
		assert_true(fabs(got - pct[i].want) / pct[i].want < 0.01);
	}
	assert_true(fabs(pdb_hist_mean(h) - 500500) < 1e-6);
	free(h);
	free(h2);
}

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/perfdb-kafka-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_template_render(void **state)
{
	char *csv = write_temp("name,addr\nh1,10.0.0.1\nh2,10.0.0.2\n");
	struct pdb_kafka_var var = { .name = "DST", .csv = csv, .column = 2, .header = 1 };
	struct pdb_err err;
	struct pdb_buf out;
	struct pdb_kafka_template *t;

	(void)state;
	t = pdb_kafka_template_new("{\"seq\":$SEQ,\"ts\":${TS},\"id\":\"$GUID\",\"dst\":\"$DST\",\"again\":\"$DST\",\"usd\":\"$$5\"}",
				   "t.json", &var, 1, "DST", 7, &err);
	assert_non_null(t);
	pdb_buf_init(&out);
	pdb_kafka_template_render(t, 42, 1700000000123LL, &out);
	{
		char dst[32], again[32], guid[40];
		assert_int_equal(sscanf(out.data, "{\"seq\":42,\"ts\":1700000000123,\"id\":\"%36[^\"]\",\"dst\":\"%31[^\"]\",\"again\":\"%31[^\"]\",\"usd\":\"$5\"}",
					guid, dst, again), 3);
		assert_int_equal(strlen(guid), 36);
		assert_int_equal(guid[14], '4');
		{
			uint64_t seq;
			assert_int_equal(pdb_kafka_guid_seq(7, guid, 36, &seq), 0); /* under the seed */
			assert_true(seq == 42);
		}
		assert_true(strcmp(dst, "10.0.0.1") == 0 || strcmp(dst, "10.0.0.2") == 0);
		assert_string_equal(dst, again);
		assert_string_equal(pdb_kafka_template_key(t), dst);
	}
	pdb_buf_release(&out);
	pdb_kafka_template_free(t);
	unlink(csv);
	free(csv);
}

static void test_template_errors(void **state)
{
	struct pdb_err err;

	(void)state;
	assert_null(pdb_kafka_template_new("a\nb $NOPE", "t.txt", NULL, 0, NULL, 1, &err));
	assert_string_equal(err.source, "t.txt");
	assert_int_equal(err.line, 2);
	assert_int_equal(err.col, 3);
	assert_null(pdb_kafka_template_new("x ${SEQ", "t.txt", NULL, 0, NULL, 1, &err));
	assert_int_equal(err.col, 3);
}

/* 10 % of 1000 values picked 80 % of the time: the share of hot picks over
 * 200000 draws is 0.80 within 4 standard deviations; hot values are the
 * first 100 in file order. */
static void test_hot_set_skew(void **state)
{
	struct pdb_buf text;
	char *csv;
	struct pdb_kafka_var var = { .name = "H", .column = 1 };
	struct pdb_kafka_values v;
	struct pdb_err err;
	uint64_t rng = 99;
	long hot = 0, n = 200000;
	double share, sd = sqrt(0.8 * 0.2 / (double)n);

	(void)state;
	pdb_buf_init(&text);
	for (int i = 0; i < 1000; i++)
		pdb_buf_printf(&text, "host%d\n", i);
	csv = write_temp(text.data);
	var.csv = csv;
	assert_int_equal(pdb_kafka_parse_hot("10%:80%", &var.hot_values, &var.hot_share), 0);
	assert_int_equal(pdb_kafka_values_load(&var, &v, &err), 0);
	assert_int_equal(v.n, 1000);
	assert_int_equal(v.nhot, 100);
	for (long i = 0; i < n; i++)
		hot += pdb_kafka_values_pick(&v, &rng) < 100;
	share = (double)hot / (double)n;
	assert_true(fabs(share - 0.8) < 4 * sd);
	assert_int_equal(pdb_kafka_parse_hot("10:80%", &var.hot_values, &var.hot_share), -1);
	assert_int_equal(pdb_kafka_parse_hot("0%:80%", &var.hot_values, &var.hot_share), -1);
	pdb_kafka_values_release(&v);
	pdb_buf_release(&text);
	unlink(csv);
	free(csv);
}

/* A $GUID is a version-4, variant-10 UUID that gives its sequence back
 * under its key only. */
static void test_guid_roundtrip(void **state)
{
	static const uint64_t seqs[] = { 0, 1, 2, 41, 65535, 65536, 123456789, (1ULL << 60) - 1 };
	char prev[36] = "", g[36];
	uint64_t seq;

	(void)state;
	for (uint64_t key = 1; key < 1ULL << 62; key = key * 977 + 13)
		for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
			pdb_kafka_guid(key, seqs[i], g);
			assert_true(g[8] == '-' && g[13] == '-' && g[18] == '-' && g[23] == '-');
			assert_int_equal(g[14], '4');
			assert_non_null(strchr("89ab", g[19]));
			assert_int_equal(pdb_kafka_guid_seq(key, g, 36, &seq), 0);
			assert_true(seq == seqs[i]);
			assert_int_equal(pdb_kafka_guid_seq(key + 1, g, 36, &seq), -1);
			assert_true(memcmp(g, prev, 36) != 0);
			memcpy(prev, g, 36);
		}
	assert_int_equal(pdb_kafka_guid_seq(1, "not-a-guid", 10, &seq), -1);
	assert_int_equal(pdb_kafka_guid_seq(1, "0123456789abcdef0123456789abcdef0123", 36, &seq), -1);
}

static void test_match_seq(void **state)
{
	struct pdb_kafka_spec ks = { .match = PDB_KAFKA_MATCH_PATH };
	const char *what;
	char g[36], doc[128];
	uint64_t seq = 0;

	(void)state;
	assert_int_equal(pdb_map_path_parse("$.seq", &ks.match_steps, &ks.nmatch_steps, &what), 0);
	assert_int_equal(pdb_kafka_match_seq(&ks, 7, "{\"seq\":42,\"x\":1}  ", 18, &seq), 0);
	assert_true(seq == 42);
	assert_int_equal(pdb_kafka_match_seq(&ks, 7, "{\"seq\":\"43\"}", 12, &seq), 0);
	assert_true(seq == 43);
	assert_int_equal(pdb_kafka_match_seq(&ks, 7, "{\"seq\":-1}", 10, &seq), -1);
	assert_int_equal(pdb_kafka_match_seq(&ks, 7, "{\"other\":1}", 11, &seq), -1);
	assert_int_equal(pdb_kafka_match_seq(&ks, 7, "seq=5", 5, &seq), -1);
	assert_int_equal(pdb_kafka_match_seq(&ks, 7, NULL, 0, &seq), -1);
	pdb_map_steps_free(ks.match_steps, ks.nmatch_steps);
	/* a GUID in a nested object */
	assert_int_equal(pdb_map_path_parse("$.a[1].id", &ks.match_steps, &ks.nmatch_steps, &what), 0);
	pdb_kafka_guid(7, 99, g);
	snprintf(doc, sizeof doc, "{\"a\":[0,{\"id\":\"%.36s\"}]}", g);
	assert_int_equal(pdb_kafka_match_seq(&ks, 7, doc, strlen(doc), &seq), 0);
	assert_true(seq == 99);
	assert_int_equal(pdb_kafka_match_seq(&ks, 8, doc, strlen(doc), &seq), -1); /* another run's */
	pdb_map_steps_free(ks.match_steps, ks.nmatch_steps);
	/* a regex: its first group, in a payload that is not terminated */
	ks.match = PDB_KAFKA_MATCH_REGEX;
	assert_int_equal(regcomp(&ks.match_re, "seq=([0-9]+)", REG_EXTENDED), 0);
	assert_int_equal(pdb_kafka_match_seq(&ks, 7, "host=a seq=1234 seq=9", 15, &seq), 0);
	assert_true(seq == 1234);
	assert_int_equal(pdb_kafka_match_seq(&ks, 7, "host=a seq=1234", 9, &seq), -1);
	regfree(&ks.match_re);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_relative_error),
		cmocka_unit_test(test_hist_percentiles),
		cmocka_unit_test(test_template_render),
		cmocka_unit_test(test_template_errors),
		cmocka_unit_test(test_hot_set_skew),
		cmocka_unit_test(test_guid_roundtrip),
		cmocka_unit_test(test_match_seq),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
