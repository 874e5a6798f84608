/* Mock clusters: librdkafka's in-process Kafka brokers on loopback (brokers "mock:N"). */
#ifndef PDB_KAFKA_MOCK_H
#define PDB_KAFKA_MOCK_H

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include "err.h"

struct pdb_kafka_mock;

/* Start a cluster of nbrokers brokers. Caller stops it with
 * pdb_kafka_mock_stop. NULL with err (PDB_EXIT_RUNTIME). */
struct pdb_kafka_mock *pdb_kafka_mock_start(int nbrokers, struct pdb_err *err);
void pdb_kafka_mock_stop(struct pdb_kafka_mock *m); /* NULL-safe */

/* Its bootstrap list "127.0.0.1:PORT,..." (owned by m). */
const char *pdb_kafka_mock_bootstraps(const struct pdb_kafka_mock *m);
/* The librdkafka handle, to inject errors and delays (rdkafka_mock.h). */
rd_kafka_mock_cluster_t *pdb_kafka_mock_cluster(const struct pdb_kafka_mock *m);

/* Create topic with partitions (replicated on up to 3 brokers). 0 or -1. */
int pdb_kafka_mock_topic(struct pdb_kafka_mock *m, const char *topic, int partitions,
			 struct pdb_err *err);

/* "mock:N" -> N (1..64); 0 when brokers is not a mock list, -1 when it is
 * a bad one. */
int pdb_kafka_mock_parse(const char *brokers);

#endif
