/* The peer for bench-kafka.sh: a bare librdkafka produce loop on its own mock:3 cluster. */
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000000;
	char errstr[256], payload[100];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rd_kafka_t *holder = rd_kafka_new(RD_KAFKA_PRODUCER, rd_kafka_conf_new(), errstr, sizeof errstr), *rk;
	rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(holder, 3);
	rd_kafka_topic_t *rkt;
	struct timespec a, b;

	for (size_t i = 0; i < sizeof payload; i++)
		payload[i] = (char)('a' + i % 26);
	rd_kafka_mock_topic_create(mc, "bench", 3, 3);
	rd_kafka_conf_set(conf, "bootstrap.servers", rd_kafka_mock_cluster_bootstraps(mc), NULL, 0);
	rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
	rkt = rd_kafka_topic_new(rk, "bench", NULL);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++) {
		while (rd_kafka_produce(rkt, RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY, payload, sizeof payload,
					NULL, 0, NULL) != 0)
			rd_kafka_poll(rk, 1);
		if ((i & 63) == 0)
			rd_kafka_poll(rk, 0);
	}
	/* measured like perfdb's produce_rate: messages handed to librdkafka per
	 * second, up to the last one (the flush that follows is not timed) */
	clock_gettime(CLOCK_MONOTONIC, &b);
	rd_kafka_flush(rk, 60000);
	printf("%.0f\n", (double)n / ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9));
	rd_kafka_topic_destroy(rkt);
	rd_kafka_destroy(rk);
	rd_kafka_mock_cluster_destroy(mc);
	rd_kafka_destroy(holder);
	return 0;
}
