/* Result streams: runs published to a Kafka topic and consumed into the store. */
#include "kafka/stream.h"

#include <jansson.h>
#include <librdkafka/rdkafka.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "canonical.h"
#include "store/store_uuid.h"
#include "util.h"

#define DEFAULT_GROUP "perfdb-ingest"
#define PUBLISH_TIMEOUT_MS 30000
/* The consumer's last offset commit and its leaving the group, each at most
 * this long: a dead broker must not hold the command. */
#define CLOSE_SECONDS 2

/* "BROKERS/TOPIC": the last '/' splits. */
static int split_target(const char *target, char **brokers, char **topic, struct pdb_err *err)
{
	const char *slash = strrchr(target, '/');

	if (!slash || slash == target || !slash[1])
		return pdb_err_set(err, PDB_EXIT_USAGE, "'%s': expected BROKERS/TOPIC (host:port,.../topic)", target);
	*brokers = pdb_xstrndup(target, (size_t)(slash - target));
	*topic = pdb_xstrdup(slash + 1);
	return 0;
}

static void on_published(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
	(void)rk;
	(void)opaque;
	*(rd_kafka_resp_err_t *)m->_private = m->err;
}

/* A consumer's error callback: every broker down (opaque: an int set to 1). */
static void on_error(rd_kafka_t *rk, int code, const char *reason, void *opaque)
{
	(void)rk;
	(void)reason;
	if (code == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN)
		*(volatile int *)opaque = 1;
}

/* down: for a consumer, set to 1 when every broker is down. */
static rd_kafka_t *client(rd_kafka_type_t type, const char *brokers, const char *const *props,
			  volatile int *down, struct pdb_err *err)
{
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	char errstr[512];
	rd_kafka_t *rk;

	if (rd_kafka_conf_set(conf, "bootstrap.servers", brokers, errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
		goto fail;
	if (type == RD_KAFKA_PRODUCER)
		rd_kafka_conf_set_dr_msg_cb(conf, on_published);
	if (down) {
		rd_kafka_conf_set_error_cb(conf, on_error);
		rd_kafka_conf_set_opaque(conf, (void *)down);
	}
	for (size_t i = 0; props && props[i]; i += 2)
		if (rd_kafka_conf_set(conf, props[i], props[i + 1], errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
			goto fail;
	if ((rk = rd_kafka_new(type, conf, errstr, sizeof errstr)))
		return rk;
fail:
	rd_kafka_conf_destroy(conf);
	pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: %s", errstr);
	return NULL;
}


int pdb_kafka_publish_run(const char *target, const struct pdb_run *run, struct pdb_err *err)
{
	static const char *const props[] = { "acks", "all", "enable.idempotence", "true", NULL };
	char *brokers = NULL, *topic = NULL, *text = NULL;
	rd_kafka_resp_err_t delivered = RD_KAFKA_RESP_ERR__IN_PROGRESS, e;
	rd_kafka_t *rk = NULL;
	json_t *doc = NULL;
	int ret = -1;

	if (split_target(target, &brokers, &topic, err) < 0 ||
	    !(rk = client(RD_KAFKA_PRODUCER, brokers, props, NULL, err)))
		goto out;
	doc = pdb_canonical_from_run(run);
	text = json_dumps(doc, JSON_COMPACT);
	e = rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_KEY(run->uuid, strlen(run->uuid)),
			      RD_KAFKA_V_VALUE(text, strlen(text)), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
			      RD_KAFKA_V_OPAQUE(&delivered), RD_KAFKA_V_END);
	if (e) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: %s: %s", target, rd_kafka_err2str(e));
		goto out;
	}
	rd_kafka_flush(rk, PUBLISH_TIMEOUT_MS);
	rd_kafka_poll(rk, 0);
	if (delivered == RD_KAFKA_RESP_ERR__IN_PROGRESS)
		delivered = RD_KAFKA_RESP_ERR__TIMED_OUT;
	if (delivered) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: %s: run %s not published: %s", target, run->uuid,
			    rd_kafka_err2str(delivered));
		goto out;
	}
	ret = 0;
out:
	if (rk)
		rd_kafka_destroy(rk);
	free(text);
	json_decref(doc);
	free(brokers);
	free(topic);
	return ret;
}

/* Per-message handling: store (or skip) the run the message holds. */
static int take(struct pdb_store *store, const struct pdb_kafka_consume_opts *o, const char *topic,
		const rd_kafka_message_t *m, struct pdb_kafka_consume_stats *stats, struct pdb_err *err)
{
	char source[600];
	struct pdb_run *run = pdb_run_new();
	struct pdb_err bad;
	char *text;
	int64_t id;
	int ret = -1;

	snprintf(source, sizeof source, "%s[%d]@%lld", topic, (int)m->partition, (long long)m->offset);
	text = pdb_xstrndup(m->payload ? m->payload : "", m->len);
	run->uuid[0] = '\0';
	if (pdb_canonical_read(text, m->len, run, source, &bad) < 0)
		goto skip;
	if (!run->nresults && !run->nfailures) { /* not a run: never stored, each delivery anew */
		pdb_err_set(&bad, PDB_EXIT_INPUT, "%s: no results and no failures: not a run", source);
		goto skip;
	}
	if (!run->uuid[0]) /* delivered again, the same bytes: the same run, a duplicate */
		pdb_uuid_of_bytes(m->payload ? m->payload : "", m->len, run->uuid);
	if (pdb_store_find_uuid(store, run->uuid, &id, err) < 0)
		goto out;
	if (id) {
		run->id = id;
		stats->duplicates++;
		if (o->on_run)
			o->on_run(o->ctx, run, 1);
	} else {
		if (pdb_store_insert_renaming(store, run, "kafka.renamed_from", &bad) < 0) {
			if (bad.code != PDB_EXIT_INPUT) { /* the database failed: stop, commit nothing */
				*err = bad;
				goto out;
			}
			goto skip; /* a run that cannot be stored must not block the ones behind it */
		}
		stats->stored++;
		if (o->on_run)
			o->on_run(o->ctx, run, 0);
	}
	ret = 0;
	goto out;
skip:
	stats->bad++;
	if (o->on_bad)
		o->on_bad(o->ctx, m->partition, m->offset, &bad);
	ret = 0;
out:
	free(text);
	pdb_run_free(run);
	return ret;
}

/* The crash test hook: _exit after the Nth database commit. */
static long crash_after(void)
{
	const char *v = getenv("PERFDB_TEST_CRASH_AFTER_DB_COMMIT");
	int64_t n;

	return v && pdb_parse_int64(v, 1, 1000000000, &n) == 0 ? (long)n : 0;
}

/* Every partition assigned to us has reported its end. */
static int all_at_end(rd_kafka_t *rk, const rd_kafka_topic_partition_list_t *eof)
{
	rd_kafka_topic_partition_list_t *a = NULL;
	int done;

	if (rd_kafka_assignment(rk, &a) || !a)
		return 0;
	done = a->cnt > 0;
	for (int i = 0; i < a->cnt && done; i++)
		done = rd_kafka_topic_partition_list_find(eof, a->elems[i].topic, a->elems[i].partition) != NULL;
	rd_kafka_topic_partition_list_destroy(a);
	return done;
}

/* Whether the group gave this consumer a partition: a broker answered. */
static int has_assignment(rd_kafka_t *rk)
{
	rd_kafka_topic_partition_list_t *a = NULL;
	int yes;

	if (rd_kafka_assignment(rk, &a) || !a)
		return 0;
	yes = a->cnt > 0;
	rd_kafka_topic_partition_list_destroy(a);
	return yes;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The next event of q of the type wanted within CLOSE_SECONDS (rebalances
 * served on the way), or NULL. The caller destroys it. */
static rd_kafka_event_t *await_event(rd_kafka_t *rk, rd_kafka_queue_t *q, int wanted)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (seconds_since(&t0) < CLOSE_SECONDS && !(wanted < 0 && rd_kafka_consumer_closed(rk))) {
		rd_kafka_event_t *ev = rd_kafka_queue_poll(q, 100);
		if (ev && rd_kafka_event_type(ev) == wanted)
			return ev;
		if (ev && rd_kafka_event_type(ev) == RD_KAFKA_EVENT_REBALANCE)
			rd_kafka_assign(rk, NULL);
		rd_kafka_event_destroy(ev);
	}
	return NULL;
}

/* The offsets of every message taken, committed (the per-message commits are
 * asynchronous), at most CLOSE_SECONDS: 0, or -1. */
static int commit_bounded(rd_kafka_t *rk)
{
	rd_kafka_queue_t *q = rd_kafka_queue_new(rk);
	rd_kafka_event_t *ev = NULL;
	int ok = 0;

	if (rd_kafka_commit_queue(rk, NULL, q, NULL, NULL) == RD_KAFKA_RESP_ERR_NO_ERROR &&
	    (ev = await_event(rk, q, RD_KAFKA_EVENT_OFFSET_COMMIT)))
		ok = !rd_kafka_event_error(ev) || rd_kafka_event_error(ev) == RD_KAFKA_RESP_ERR__NO_OFFSET;
	rd_kafka_event_destroy(ev);
	rd_kafka_queue_destroy(q);
	return ok ? 0 : -1;
}

/* Leave the group within CLOSE_SECONDS, else (a dead broker) go without:
 * the group moves the partitions on after its session timeout. */
static void close_bounded(rd_kafka_t *rk, int leave)
{
	rd_kafka_queue_t *q = leave ? rd_kafka_queue_new(rk) : NULL;
	rd_kafka_error_t *e = q ? rd_kafka_consumer_close_queue(rk, q) : NULL;

	if (q && !e)
		await_event(rk, q, -1);
	if (e)
		rd_kafka_error_destroy(e);
	if (q)
		rd_kafka_queue_destroy(q);
	rd_kafka_destroy_flags(rk, rd_kafka_consumer_closed(rk) ? 0
			       : RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
}

int pdb_kafka_consume_runs(struct pdb_store *store, const struct pdb_kafka_consume_opts *o,
			   struct pdb_kafka_consume_stats *stats, struct pdb_err *err)
{
	const char *props[] = { "group.id", o->group ? o->group : DEFAULT_GROUP, "enable.auto.commit", "false",
				"auto.offset.reset", "earliest", "enable.partition.eof", "true",
				/* a crashed ingester's partitions move on after 6 s, not 45 */
				"session.timeout.ms", "6000", "heartbeat.interval.ms", "1000", NULL };
	char *brokers = NULL, *topic = NULL;
	rd_kafka_topic_partition_list_t *subs = NULL, *eof = rd_kafka_topic_partition_list_new(8);
	rd_kafka_t *rk = NULL;
	long crash = crash_after(), commits = 0;
	struct timespec start, heard;
	size_t stored;
	volatile int down = 0;
	int ret = -1, assigned = 0;

	memset(stats, 0, sizeof *stats);
	if (split_target(o->target, &brokers, &topic, err) < 0 ||
	    !(rk = client(RD_KAFKA_CONSUMER, brokers, props, &down, err)))
		goto out;
	rd_kafka_poll_set_consumer(rk);
	subs = rd_kafka_topic_partition_list_new(1);
	rd_kafka_topic_partition_list_add(subs, topic, RD_KAFKA_PARTITION_UA);
	if (rd_kafka_subscribe(rk, subs)) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: cannot subscribe to %s", topic);
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	heard = start;
	while (!(o->stop && *o->stop)) {
		rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 200);
		if (!m && down && assigned && !o->follow)
			break; /* what was fetched is taken: the end */
		/* a broker killed between the last message and the end of the
		 * topic may never be reported down: silence past the broker
		 * timeout is taken for its going */
		if (!m && assigned && !o->follow && o->broker_timeout > 0 &&
		    seconds_since(&heard) > o->broker_timeout) {
			down = 1;
			break;
		}
		if (m)
			clock_gettime(CLOCK_MONOTONIC, &heard);
		if (!m) {
			if (!assigned && !o->follow && o->broker_timeout > 0 &&
			    !(assigned = has_assignment(rk)) && seconds_since(&start) > o->broker_timeout) {
				pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: %s: no partition assigned in "
					    "%g s: is a broker there, with the topic? (nothing stored)", o->target,
					    o->broker_timeout);
				goto out;
			}
			continue;
		}
		assigned = 1;
		if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
			if (!rd_kafka_topic_partition_list_find(eof, topic, m->partition))
				rd_kafka_topic_partition_list_add(eof, topic, m->partition);
			rd_kafka_message_destroy(m);
			if (!o->follow && all_at_end(rk, eof))
				break;
			continue;
		}
		if (m->err) {
			pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: %s: %s", o->target, rd_kafka_message_errstr(m));
			rd_kafka_message_destroy(m);
			goto out;
		}
		rd_kafka_topic_partition_list_del(eof, topic, m->partition);
		stored = stats->stored;
		if (take(store, o, topic, m, stats, err) < 0) {
			rd_kafka_message_destroy(m);
			goto out;
		}
		if (crash && stats->stored > stored && ++commits == crash)
			_exit(9);
		/* asynchronous, so that a broker gone cannot hold the command; the
		 * last one is awaited, bounded, at the end */
		if (rd_kafka_commit_message(rk, m, 1)) {
			pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: %s: offset commit failed", o->target);
			rd_kafka_message_destroy(m);
			goto out;
		}
		rd_kafka_message_destroy(m);
	}
	if (down && assigned && !(o->stop && *o->stop)) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: %s: every broker went away: %zu runs "
			    "stored, the rest (and their offsets) are read at the next start",
			    o->target, stats->stored);
		goto out;
	}
	if (assigned && !down && commit_bounded(rk) < 0) {
		down = 1; /* no broker answered: the group is not left either */
		pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: %s: offset commit failed in %d s (the "
			    "runs are stored; those read again are skipped as duplicates)", o->target,
			    CLOSE_SECONDS);
		goto out;
	}
	ret = 0;
out:
	if (rk)
		close_bounded(rk, !down);
	if (subs)
		rd_kafka_topic_partition_list_destroy(subs);
	rd_kafka_topic_partition_list_destroy(eof);
	free(brokers);
	free(topic);
	return ret;
}
