/* The Kafka functions the rest of perfdb calls: each forwards to the module
 * kafka.so (rdkafka.h), loaded when first needed, or to its code linked in
 * (unit tests, fuzzing); and the two that need no broker. */
#include <stdlib.h>
#include <string.h>

#include "kafka/rdkafka.h"
#include "module.h"
#include "util.h"

#pragma weak pdb_rdkafka_mock_start
#pragma weak pdb_rdkafka_mock_stop
#pragma weak pdb_rdkafka_mock_bootstraps
#pragma weak pdb_rdkafka_mock_topic
#pragma weak pdb_rdkafka_publish_run
#pragma weak pdb_rdkafka_consume_runs
#pragma weak pdb_rdkafka_workload_run

#define RDKAFKA(fn, err) PDB_MODULE_FN("kafka", fn, err)

struct pdb_kafka_mock *pdb_kafka_mock_start(int nbrokers, struct pdb_err *err)
{
	pdb_rdkafka_mock_start_fn *fn = RDKAFKA(pdb_rdkafka_mock_start, err);

	return fn ? fn(nbrokers, err) : NULL;
}

/* a cluster exists only when the module was loaded: it is there to stop it */
void pdb_kafka_mock_stop(struct pdb_kafka_mock *m)
{
	struct pdb_err err;
	pdb_rdkafka_mock_stop_fn *fn;

	if (m && (fn = RDKAFKA(pdb_rdkafka_mock_stop, &err)))
		fn(m);
}

const char *pdb_kafka_mock_bootstraps(const struct pdb_kafka_mock *m)
{
	struct pdb_err err;
	pdb_rdkafka_mock_bootstraps_fn *fn = RDKAFKA(pdb_rdkafka_mock_bootstraps, &err);

	return fn ? fn(m) : "";
}

int pdb_kafka_mock_topic(struct pdb_kafka_mock *m, const char *topic, int partitions,
			 struct pdb_err *err)
{
	pdb_rdkafka_mock_topic_fn *fn = RDKAFKA(pdb_rdkafka_mock_topic, err);

	return fn ? fn(m, topic, partitions, err) : -1;
}

int pdb_kafka_publish_run(const char *target, const struct pdb_run *run, struct pdb_err *err)
{
	pdb_rdkafka_publish_run_fn *fn = RDKAFKA(pdb_rdkafka_publish_run, err);

	return fn ? fn(target, run, err) : -1;
}

int pdb_kafka_consume_runs(struct pdb_store *store, const struct pdb_kafka_consume_opts *opts,
			   struct pdb_kafka_consume_stats *stats, struct pdb_err *err)
{
	pdb_rdkafka_consume_runs_fn *fn = RDKAFKA(pdb_rdkafka_consume_runs, err);

	return fn ? fn(store, opts, stats, err) : -1;
}

int pdb_kafka_workload_run(const struct pdb_kafka_workload_opts *opts,
			   struct pdb_kafka_result *res, struct pdb_err *err)
{
	pdb_rdkafka_workload_run_fn *fn = RDKAFKA(pdb_rdkafka_workload_run, err);

	return fn ? fn(opts, res, err) : -1;
}

int pdb_kafka_mock_parse(const char *brokers)
{
	int64_t n;

	if (strncmp(brokers, "mock:", 5) != 0)
		return 0;
	if (pdb_parse_int64(brokers + 5, 1, 64, &n) < 0)
		return -1;
	return (int)n;
}

void pdb_kafka_result_release(struct pdb_kafka_result *res)
{
	free(res->delivery);
	free(res->e2e);
	free(res->send_delay);
	free(res->seconds);
	for (size_t g = 0; g < res->nlags; g++) {
		free(res->lags[g].t);
		free(res->lags[g].lag);
	}
	free(res->lags);
	memset(res, 0, sizeof *res);
}
