/* Mock clusters: librdkafka's in-process Kafka brokers on loopback (brokers "mock:N"). */
#include "kafka/mock.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

struct pdb_kafka_mock {
	rd_kafka_t *rk;     /* the handle the cluster lives in */
	rd_kafka_mock_cluster_t *cluster;
	int nbrokers;
};

struct pdb_kafka_mock *pdb_kafka_mock_start(int nbrokers, struct pdb_err *err)
{
	struct pdb_kafka_mock *m = pdb_xcalloc(1, sizeof *m);
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	char errstr[512];

	m->nbrokers = nbrokers;
	rd_kafka_conf_set(conf, "log_level", "0", NULL, 0);
	if (!(m->rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr))) {
		rd_kafka_conf_destroy(conf);
		pdb_err_set(err, PDB_EXIT_RUNTIME, "mock cluster: %s", errstr);
		goto fail;
	}
	if (!(m->cluster = rd_kafka_mock_cluster_new(m->rk, nbrokers))) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "mock cluster: cannot start %d brokers", nbrokers);
		goto fail;
	}
	return m;
fail:
	pdb_kafka_mock_stop(m);
	return NULL;
}

void pdb_kafka_mock_stop(struct pdb_kafka_mock *m)
{
	if (!m)
		return;
	if (m->cluster)
		rd_kafka_mock_cluster_destroy(m->cluster);
	if (m->rk)
		rd_kafka_destroy(m->rk);
	free(m);
}

const char *pdb_kafka_mock_bootstraps(const struct pdb_kafka_mock *m)
{
	return rd_kafka_mock_cluster_bootstraps(m->cluster);
}

rd_kafka_mock_cluster_t *pdb_kafka_mock_cluster(const struct pdb_kafka_mock *m)
{
	return m->cluster;
}

int pdb_kafka_mock_topic(struct pdb_kafka_mock *m, const char *topic, int partitions,
			 struct pdb_err *err)
{
	int replicas = m->nbrokers < 3 ? m->nbrokers : 3;
	rd_kafka_resp_err_t e = rd_kafka_mock_topic_create(m->cluster, topic, partitions, replicas);

	if (e && e != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "mock cluster: topic %s: %s", topic, rd_kafka_err2str(e));
	return 0;
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
