/* Kafka load workloads: paced producer, matching consumer, latency and loss accounting. */
#ifndef PDB_KAFKA_WORKLOAD_H
#define PDB_KAFKA_WORKLOAD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "kafka/mock.h"
#include "kafka/workload_spec.h"
#include "loadgen/histogram.h"
#include "model.h"

struct pdb_kafka_workload_opts {
	const struct pdb_kafka_spec *spec;
	double rate;                 /* msg/s after matrix expansion; 0: flat out */
	volatile sig_atomic_t *stop; /* set on SIGINT/SIGTERM: stop producing, report */
	uint64_t seed;               /* payloads, template picks */
	/* Optional hooks (tests): once the brokers are known and the topics
	 * exist (mock is NULL unless brokers is mock:N), and after the drain,
	 * before a mock cluster goes away. */
	void (*on_ready)(void *ctx, const char *bootstraps, struct pdb_kafka_mock *mock);
	void (*on_drained)(void *ctx);
	void *ctx;
};

/* One second of the measured period (index = seconds after the warm-up). */
struct pdb_kafka_second {
	uint64_t sent, bytes, delivered, errors;
	uint64_t consumed, consumed_bytes; /* every message read, matched or not */
	double delivery_p99, e2e_p99;  /* seconds; 0 when nothing was measured */
	double send_delay_max;         /* seconds the producer ran late */
};

/* A consumer group's lag on the input topic (end offsets minus its
 * committed offsets, summed over the partitions it has committed), sampled
 * once a second from the measured period to the end of the drain. */
struct pdb_kafka_lag {
	const char *group;             /* the spec's */
	double *t, *lag;               /* seconds after the warm-up, messages */
	size_t n, cap;
};

struct pdb_kafka_result {
	double elapsed;                /* seconds measured */
	double watched;                /* seconds from the warm-up's end to the drain's */
	uint64_t sent, bytes;          /* measured: due after the warm-up */
	/* all messages, warm-up included: handed to librdkafka, delivered,
	 * failed (produce, delivery or consume), tied to a sequence once, read
	 * but tied to nothing */
	uint64_t produced, delivered, errors, matched, unmatched;
	/* measured, as sent: read from the output topic (but those tied to a
	 * sequence due in the warm-up, and those tied to none read during it),
	 * delivered but never tied, tied again */
	uint64_t received, lost, duplicated;
	uint64_t warm_sent, warm_received; /* produced due in the warm-up; read during it */
	struct pdb_hist *delivery;     /* due -> delivery report */
	struct pdb_hist *e2e;          /* due -> consumed */
	struct pdb_hist *send_delay;   /* due -> handed to librdkafka (pacing error) */
	struct pdb_kafka_second *seconds;
	size_t nseconds;
	struct pdb_kafka_lag *lags;    /* one per spec lag_groups entry */
	size_t nlags;
	int interrupted;
	int consumed;                  /* 0: produce only, nothing received or lost measured */
	int matchable;                 /* output tied to input (header or match:): e2e and lost known */
	char warning[256];             /* "" or one line for the user (output silent, nothing tied) */
};

/* Run the workload of opts->spec: produce (paced by intended send time),
 * consume the output topic (or the input topic), tie each message to its
 * input by perfdb's header or else by the spec's match, sample the lag
 * of lag_groups, drain (until every delivered message came back and the
 * groups' lag is 0, or the drain time is up). 0 with res filled (release with pdb_kafka_result_release),
 * or -1 with err (PDB_EXIT_RUNTIME: broker, topic). */
int pdb_kafka_workload_run(const struct pdb_kafka_workload_opts *opts,
			   struct pdb_kafka_result *res, struct pdb_err *err);
void pdb_kafka_result_release(struct pdb_kafka_result *res);

/* Add res to run as the series of bench with dims: time series per second
 * (produce_rate, produce_throughput, errors, delivery_latency_p99 over the
 * seconds sent; consume_rate, consume_throughput, backlog, e2e_latency_p99
 * over the drain too; consumer_lag with dim group and stats max and final), latency histograms as weighted
 * samples with percentile stats, and totals (sent, received; lost,
 * duplicated and unmatched when output is tied to input). Repetitions
 * accumulate. */
void pdb_kafka_result_to_run(const struct pdb_kafka_result *res, struct pdb_run *run,
			     const char *bench, const struct pdb_attr *dims, size_t ndims);

#endif
