/* perfdb mock-kafka: serve librdkafka's mock cluster on loopback for trying real clients. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "kafka/mock.h"
#include "util.h"

static int mock_kafka_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_BROKERS = CMD_LONG_ONLY, OPT_TOPICS };

static const struct cmd_option options[] = {
	{ "brokers", OPT_BROKERS, "N", "brokers in the cluster",
	  .type = CMD_COUNT, .min = 1, .max = 64, .def = "3" },
	{ "topics", OPT_TOPICS, "T:P,...", "create topics with P partitions (default 3)" },
	{ "db", CMD_OPT_DB, "FILE", "not read: the cluster lives in memory" },
	{ 0 },
};

const struct command cmd_mock_kafka = {
	.name = "mock-kafka", .run = mock_kafka_main,
	.summary = "serve a mock Kafka cluster on loopback (for kcat and other clients)",
	.synopsis = "[OPTIONS]",
	.options = options,
	.text = "Prints the bootstrap list on stdout, then serves until SIGINT/SIGTERM.\n"
		"Data lives in memory only: it is gone when perfdb exits.\n",
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* "T:P,T2" -> topics created on m; -1 with err on a bad list. */
static int create_topics(struct pdb_kafka_mock *m, const char *list, struct pdb_err *err)
{
	char *copy = pdb_xstrdup(list), *save = NULL, *tok;
	int ret = 0;

	for (tok = strtok_r(copy, ",", &save); tok && ret == 0; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		int64_t parts = 3;
		if (colon) {
			*colon = '\0';
			if (pdb_parse_int64(colon + 1, 1, 10000, &parts) < 0) {
				ret = pdb_err_set(err, PDB_EXIT_USAGE, "--topics: '%s': partitions must be 1 to 10000", colon + 1);
				break;
			}
		}
		if (!*tok)
			ret = pdb_err_set(err, PDB_EXIT_USAGE, "--topics: empty topic name");
		else
			ret = pdb_kafka_mock_topic(m, tok, (int)parts, err);
	}
	free(copy);
	return ret;
}

static int mock_kafka_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, old;
	struct pdb_kafka_mock *m = NULL;
	const char *topics = NULL;
	struct pdb_err err;
	int64_t brokers = cmd_default_count(&cmd_mock_kafka, "brokers");
	int c, status = PDB_EXIT_OK;

	while ((c = cmd_next_option(argc, argv, &cmd_mock_kafka)) != -1) {
		switch (c) {
		case OPT_BROKERS: brokers = cmd_arg.count; break;
		case OPT_TOPICS: topics = optarg; break;
		default:
			if ((status = cmd_common_option(&cmd_mock_kafka, ctx, c)) >= 0)
				goto out;
			status = PDB_EXIT_OK;
		}
	}
	if (optind != argc) {
		status = cmd_usage_error(&cmd_mock_kafka, "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	/* the broker threads inherit a mask without SIGINT/SIGTERM: the
	 * signals reach this thread, waiting in sigsuspend */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	if (!(m = pdb_kafka_mock_start((int)brokers, &err)) || (topics && create_topics(m, topics, &err) < 0)) {
		status = cmd_fail("mock-kafka", &err);
		goto out;
	}
	printf("%s\n", pdb_kafka_mock_bootstraps(m));
	fflush(stdout);
	while (!stop_requested)
		sigsuspend(&old);
out:
	pdb_kafka_mock_stop(m);
	return status;
}
