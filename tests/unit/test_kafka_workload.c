/* Kafka workloads end to end on mock:3: a relay copies input to output; rates, loss, latency, errors, payload matches, consumer lag. */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "kafka/workload.h"

/* The pipeline under test: consume "in" from the start, produce every
 * message (value, key, headers) to "out". */
struct relay {
	char bootstraps[512];
	pthread_t thread;
	atomic_int stop;
	int started;
	long copied;
	int push_errors;   /* inject produce errors through the mock cluster */
	int strip;         /* forward no headers, as real pipelines do */
	int commit;        /* commit offsets as group "relay" */
};

static rd_kafka_t *client(rd_kafka_type_t type, const char *bootstraps)
{
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	char errstr[256];
	rd_kafka_t *rk;

	assert_int_equal(rd_kafka_conf_set(conf, "bootstrap.servers", bootstraps, errstr, sizeof errstr), RD_KAFKA_CONF_OK);
	if (type == RD_KAFKA_CONSUMER) {
		rd_kafka_conf_set(conf, "group.id", "relay", NULL, 0);
		rd_kafka_conf_set(conf, "fetch.wait.max.ms", "10", NULL, 0);
	} else {
		rd_kafka_conf_set(conf, "linger.ms", "1", NULL, 0);
	}
	rk = rd_kafka_new(type, conf, errstr, sizeof errstr);
	assert_non_null(rk);
	return rk;
}

static void *relay_main(void *arg)
{
	struct relay *r = arg;
	rd_kafka_t *in = client(RD_KAFKA_CONSUMER, r->bootstraps), *out = client(RD_KAFKA_PRODUCER, r->bootstraps);
	rd_kafka_topic_partition_list_t *parts = rd_kafka_topic_partition_list_new(3);

	for (int p = 0; p < 3; p++)
		rd_kafka_topic_partition_list_add(parts, "in", p)->offset = RD_KAFKA_OFFSET_BEGINNING;
	rd_kafka_poll_set_consumer(in);
	rd_kafka_assign(in, parts);
	rd_kafka_topic_partition_list_destroy(parts);
	while (!atomic_load(&r->stop)) {
		rd_kafka_message_t *m = rd_kafka_consumer_poll(in, 50);
		rd_kafka_headers_t *h = NULL;
		if (!m)
			goto serve;
		if (!m->err) {
			if (!r->strip)
				rd_kafka_message_detach_headers(m, &h);
			while (rd_kafka_producev(out, RD_KAFKA_V_TOPIC("out"), RD_KAFKA_V_VALUE(m->payload, m->len),
						 RD_KAFKA_V_KEY(m->key, m->key_len), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
						 RD_KAFKA_V_HEADERS(h), RD_KAFKA_V_END) == RD_KAFKA_RESP_ERR__QUEUE_FULL)
				rd_kafka_poll(out, 10);
			r->copied++;
			if (r->commit)
				rd_kafka_commit_message(in, m, 1);
		}
		rd_kafka_message_destroy(m);
serve:
		rd_kafka_poll(out, 0);
	}
	rd_kafka_flush(out, 5000);
	rd_kafka_consumer_close(in);
	rd_kafka_destroy(in);
	rd_kafka_destroy(out);
	return NULL;
}

static void on_ready(void *ctx, const char *bootstraps, struct pdb_kafka_mock *mock)
{
	struct relay *r = ctx;

	assert_non_null(mock);
	snprintf(r->bootstraps, sizeof r->bootstraps, "%s", bootstraps);
	if (r->push_errors)
		/* the next produce requests fail for good (not retriable) */
		rd_kafka_mock_push_request_errors(pdb_kafka_mock_cluster(mock), 0 /* Produce */, 3,
						  RD_KAFKA_RESP_ERR_INVALID_MSG, RD_KAFKA_RESP_ERR_INVALID_MSG,
						  RD_KAFKA_RESP_ERR_INVALID_MSG);
	assert_int_equal(pthread_create(&r->thread, NULL, relay_main, r), 0);
	r->started = 1;
}

static void on_drained(void *ctx)
{
	struct relay *r = ctx;

	atomic_store(&r->stop, 1);
	if (r->started)
		pthread_join(r->thread, NULL);
}

static struct pdb_kafka_spec pipeline_spec(void)
{
	static char brokers[] = "mock:3", in[] = "in", out[] = "out", rate[] = "5000";
	return (struct pdb_kafka_spec){ .brokers = brokers, .topic = in, .output_topic = out,
		.partitions = 3, .size = 100, .rate = rate, .duration = 2, .warmup = 0.5, .drain = 10 };
}

static void test_pipeline_rates_loss_latency(void **state)
{
	struct pdb_kafka_spec ks = pipeline_spec();
	struct relay r = { 0 };
	struct pdb_kafka_workload_opts o = { .spec = &ks, .rate = 5000, .seed = 1,
					     .on_ready = on_ready, .on_drained = on_drained, .ctx = &r };
	struct pdb_kafka_result res;
	struct pdb_err err;
	double rate, p50, p99, p999;

	(void)state;
	assert_int_equal(pdb_kafka_workload_run(&o, &res, &err), 0);
	rate = (double)res.sent / res.elapsed;
	assert_true(rate > 5000 * 0.99 && rate < 5000 * 1.01);
	assert_int_equal(res.errors, 0);
	assert_int_equal(res.lost, 0);
	assert_int_equal(res.duplicated, 0);
	/* the warm-up's 0.5 s neither sent nor received: measured alone */
	assert_true(res.warm_sent >= 2400 && res.warm_sent <= 2600);
	assert_int_equal(res.produced, res.sent + res.warm_sent);
	assert_int_equal(res.received, res.sent);
	assert_int_equal(r.copied, (long)res.produced);
	assert_true(res.produced >= 12400 && res.produced <= 12600); /* 2.5 s at 5000/s */
	/* every measured message has an end-to-end latency, a delivery
	 * latency and, paced, a pacing error */
	assert_int_equal(res.e2e->n, res.sent);
	assert_int_equal(res.delivery->n, res.sent);
	assert_int_equal(res.send_delay->n, res.sent);
	p50 = pdb_hist_percentile(res.e2e, 50);
	p99 = pdb_hist_percentile(res.e2e, 99);
	p999 = pdb_hist_percentile(res.e2e, 99.9);
	assert_true(p50 > 0 && p50 <= p99 && p99 <= p999 && p999 <= (double)res.e2e->max);
	assert_true(p99 < 2e9); /* a relay on loopback: well under 2 s */
	/* the seconds sent, and those of the drain after them */
	assert_true(res.watched >= res.elapsed);
	assert_true(res.nseconds >= 2 && res.nseconds <= (size_t)ceil(res.watched));
	assert_true(res.seconds[0].sent >= 4990 && res.seconds[0].sent <= 5010);
	pdb_kafka_result_release(&res);
}

static void test_broker_errors_counted_not_lost(void **state)
{
	struct pdb_kafka_spec ks = pipeline_spec();
	struct relay r = { .push_errors = 1 };
	struct pdb_kafka_workload_opts o = { .spec = &ks, .rate = 5000, .seed = 2,
					     .on_ready = on_ready, .on_drained = on_drained, .ctx = &r };
	struct pdb_kafka_result res;
	struct pdb_err err;

	(void)state;
	ks.duration = 1;
	ks.warmup = 0; /* every message measured: delivered ones all received */
	assert_int_equal(pdb_kafka_workload_run(&o, &res, &err), 0);
	assert_true(res.errors > 0);
	assert_int_equal(res.delivered + res.errors, res.produced);
	assert_int_equal(res.lost, 0);
	assert_int_equal(res.duplicated, 0);
	assert_int_equal(res.received, res.delivered);
	pdb_kafka_result_release(&res);
}

static void test_input_topic_flat_out_count(void **state)
{
	static char brokers[] = "mock:3", in[] = "in", rate[] = "0";
	struct pdb_kafka_spec ks = { .brokers = brokers, .topic = in, .partitions = 3, .size = 100,
				     .rate = rate, .count = 50000, .drain = 10, .key = PDB_KAFKA_KEY_SEQ };
	struct pdb_kafka_workload_opts o = { .spec = &ks, .seed = 3 };
	struct pdb_kafka_result res;
	struct pdb_err err;
	struct pdb_run *run = pdb_run_new();
	double p99, lost;

	(void)state;
	assert_int_equal(pdb_kafka_workload_run(&o, &res, &err), 0);
	assert_int_equal(res.sent, 50000);
	assert_int_equal(res.received, 50000);
	assert_int_equal(res.lost, 0);
	pdb_kafka_result_to_run(&res, run, "flat", NULL, 0);
	assert_int_equal(pdb_result_get_stat(pdb_run_add_result(run, "flat", "e2e_latency", "s"), "p99", &p99), 0);
	assert_true(p99 > 0);
	lost = pdb_run_add_result(run, "flat", "lost", "count")->samples[0].value;
	assert_true(lost == 0);
	pdb_kafka_result_release(&res);
	pdb_run_free(run);
}

/* consume: false: delivery latency from the message opaque, nothing
 * received, no e2e, lost or consume series. */
static void test_produce_only(void **state)
{
	static char brokers[] = "mock:3", in[] = "in", rate[] = "0";
	struct pdb_kafka_spec ks = { .brokers = brokers, .topic = in, .partitions = 3, .size = 100,
				     .rate = rate, .count = 20000, .drain = 10, .produce_only = 1 };
	struct pdb_kafka_workload_opts o = { .spec = &ks, .seed = 4 };
	struct pdb_kafka_result res;
	struct pdb_err err;
	struct pdb_run *run = pdb_run_new();
	double p99;

	(void)state;
	assert_int_equal(pdb_kafka_workload_run(&o, &res, &err), 0);
	assert_int_equal(res.sent, 20000);
	assert_int_equal(res.delivered, 20000);
	assert_int_equal(res.delivery->n, 20000);
	assert_int_equal(res.send_delay->n, 0); /* unpaced: no schedule to miss */
	assert_int_equal(res.received, 0);
	assert_false(res.consumed);
	pdb_kafka_result_to_run(&res, run, "p", NULL, 0);
	assert_int_equal(pdb_result_get_stat(pdb_run_add_result(run, "p", "delivery_latency", "s"), "p99", &p99), 0);
	assert_true(p99 > 0 && p99 < 60);
	assert_int_equal(pdb_run_add_result(run, "p", "lost", "count")->nsamples, 0);
	assert_int_equal(pdb_run_add_result(run, "p", "e2e_latency", "s")->nsamples, 0);
	pdb_kafka_result_release(&res);
	pdb_run_free(run);
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

/* Headers stripped: every message counts, tied to its input by the
 * $GUID it kept; the relay's group lag is sampled and ends at 0. */
static void test_payload_match_and_lag(void **state)
{
	static char lag_group[] = "relay", *groups[] = { lag_group };
	struct pdb_kafka_spec ks = pipeline_spec();
	struct relay r = { .strip = 1, .commit = 1 };
	struct pdb_kafka_workload_opts o = { .spec = &ks, .rate = 5000, .seed = 5,
					     .on_ready = on_ready, .on_drained = on_drained, .ctx = &r };
	struct pdb_kafka_result res;
	struct pdb_err err;
	struct pdb_run *run = pdb_run_new();
	struct pdb_attr dim = { "group", "relay" };
	double max;
	const char *what;

	(void)state;
	ks.template_path = write_temp("{\"id\":\"$GUID\",\"seq\":$SEQ}\n");
	ks.duration = 1;
	ks.match = PDB_KAFKA_MATCH_PATH;
	assert_int_equal(pdb_map_path_parse("$.id", &ks.match_steps, &ks.nmatch_steps, &what), 0);
	ks.lag_groups = groups;
	ks.nlag_groups = 1;
	assert_int_equal(pdb_kafka_workload_run(&o, &res, &err), 0);
	assert_int_equal(res.received, res.sent); /* tied by $GUID: the warm-up's left out */
	assert_int_equal(res.matched, res.produced);
	assert_int_equal(res.unmatched, 0);
	assert_int_equal(res.lost, 0);
	assert_true(res.matchable);
	assert_string_equal(res.warning, "");
	assert_int_equal(res.e2e->n, res.sent);
	assert_int_equal(res.nlags, 1);
	assert_true(res.lags[0].n >= 1);
	assert_true(res.lags[0].lag[res.lags[0].n - 1] == 0);
	pdb_kafka_result_to_run(&res, run, "m", NULL, 0);
	assert_int_equal(pdb_result_get_stat(pdb_run_result_with_dims(run, "m", &dim, 1, "consumer_lag", "count"),
					     "max", &max), 0);
	assert_true(max >= 0);
	/* bytes over the seconds of the messages' rate (lib/loadgen/rate.c) */
	assert_true(pdb_run_add_result(run, "m", "produce_throughput", "B/s")->nsamples ==
		    pdb_run_add_result(run, "m", "produce_rate", "msg/s")->nsamples);
	assert_true(pdb_run_add_result(run, "m", "consume_throughput", "B/s")->nsamples ==
		    pdb_run_add_result(run, "m", "consume_rate", "msg/s")->nsamples);
	assert_true(pdb_run_add_result(run, "m", "consume_rate", "msg/s")->nsamples >= 1);
	pdb_kafka_result_release(&res);
	pdb_run_free(run);
	pdb_map_steps_free(ks.match_steps, ks.nmatch_steps);
	unlink(ks.template_path);
	free(ks.template_path);
}

/* Headers stripped and no match: counted, but latency and loss unknown
 * (never "all lost"), with a warning. */
static void test_no_match_is_unknown(void **state)
{
	struct pdb_kafka_spec ks = pipeline_spec();
	struct relay r = { .strip = 1 };
	struct pdb_kafka_workload_opts o = { .spec = &ks, .rate = 5000, .seed = 6,
					     .on_ready = on_ready, .on_drained = on_drained, .ctx = &r };
	struct pdb_kafka_result res;
	struct pdb_err err;
	struct pdb_run *run = pdb_run_new();

	(void)state;
	ks.duration = 1;
	assert_int_equal(pdb_kafka_workload_run(&o, &res, &err), 0);
	/* tied to nothing: what was read during the warm-up is left out */
	assert_int_equal(res.received + res.warm_received, res.produced);
	assert_int_equal(res.matched, 0);
	assert_false(res.matchable);
	assert_non_null(strstr(res.warning, "no perfdb header"));
	pdb_kafka_result_to_run(&res, run, "u", NULL, 0);
	assert_true(pdb_run_add_result(run, "u", "consume_rate", "msg/s")->nsamples == 1);
	assert_true(pdb_run_add_result(run, "u", "received", "count")->samples[0].value == (double)res.received);
	assert_int_equal(pdb_run_add_result(run, "u", "lost", "count")->nsamples, 0);
	assert_int_equal(pdb_run_add_result(run, "u", "e2e_latency", "s")->nsamples, 0);
	pdb_kafka_result_release(&res);
	pdb_run_free(run);
}

static void test_bad_brokers(void **state)
{
	static char brokers[] = "mock:0", in[] = "in", rate[] = "0";
	struct pdb_kafka_spec ks = { .brokers = brokers, .topic = in, .size = 10, .rate = rate, .count = 1 };
	struct pdb_kafka_workload_opts o = { .spec = &ks };
	struct pdb_kafka_result res;
	struct pdb_err err;

	(void)state;
	assert_int_equal(pdb_kafka_workload_run(&o, &res, &err), -1);
	assert_int_equal(err.code, PDB_EXIT_INPUT);
	assert_non_null(strstr(err.msg, "mock:N"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipeline_rates_loss_latency),
		cmocka_unit_test(test_broker_errors_counted_not_lost),
		cmocka_unit_test(test_input_topic_flat_out_count),
		cmocka_unit_test(test_produce_only),
		cmocka_unit_test(test_payload_match_and_lag),
		cmocka_unit_test(test_no_match_is_unknown),
		cmocka_unit_test(test_bad_brokers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
