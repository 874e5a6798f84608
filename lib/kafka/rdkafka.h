/* The module kafka.so (mock.c, stream.c, workload.c): what talks to Kafka
 * through librdkafka. Called through the functions of mock.h, stream.h and
 * workload.h (client.c), which load the module when first needed; each
 * does what the function of the same name without "rd" says there. */
#ifndef PDB_KAFKA_RDKAFKA_H
#define PDB_KAFKA_RDKAFKA_H

#include "kafka/mock.h"
#include "kafka/stream.h"
#include "kafka/workload.h"

typedef struct pdb_kafka_mock *pdb_rdkafka_mock_start_fn(int nbrokers, struct pdb_err *err);
typedef void pdb_rdkafka_mock_stop_fn(struct pdb_kafka_mock *m);
typedef const char *pdb_rdkafka_mock_bootstraps_fn(const struct pdb_kafka_mock *m);
typedef int pdb_rdkafka_mock_topic_fn(struct pdb_kafka_mock *m, const char *topic,
				      int partitions, struct pdb_err *err);
typedef int pdb_rdkafka_publish_run_fn(const char *target, const struct pdb_run *run,
				       struct pdb_err *err);
typedef int pdb_rdkafka_consume_runs_fn(struct pdb_store *store,
					const struct pdb_kafka_consume_opts *opts,
					struct pdb_kafka_consume_stats *stats, struct pdb_err *err);
typedef int pdb_rdkafka_workload_run_fn(const struct pdb_kafka_workload_opts *opts,
					struct pdb_kafka_result *res, struct pdb_err *err);

pdb_rdkafka_mock_start_fn pdb_rdkafka_mock_start;
pdb_rdkafka_mock_stop_fn pdb_rdkafka_mock_stop;
pdb_rdkafka_mock_bootstraps_fn pdb_rdkafka_mock_bootstraps;
pdb_rdkafka_mock_topic_fn pdb_rdkafka_mock_topic;
pdb_rdkafka_publish_run_fn pdb_rdkafka_publish_run;
pdb_rdkafka_consume_runs_fn pdb_rdkafka_consume_runs;
pdb_rdkafka_workload_run_fn pdb_rdkafka_workload_run;

#endif
