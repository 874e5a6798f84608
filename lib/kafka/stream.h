/* Result streams: runs published to a Kafka topic and consumed into the store. */
#ifndef PDB_KAFKA_STREAM_H
#define PDB_KAFKA_STREAM_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "model.h"
#include "store/store.h"

/* Publish run as canonical JSON (key: its uuid) to target "BROKERS/TOPIC"
 * and wait for the broker's acknowledgement. 0, or -1 with err. */
int pdb_kafka_publish_run(const char *target, const struct pdb_run *run, struct pdb_err *err);

struct pdb_kafka_consume_opts {
	const char *target;          /* "BROKERS/TOPIC" */
	const char *group;           /* consumer group */
	int follow;                  /* keep waiting at the end of the topic */
	double broker_timeout;       /* without follow: seconds to wait for a partition
				      * (no broker answered: an error), and for a message
				      * or the topic's end once assigned (silence: the
				      * broker is taken for gone); 0: forever */
	volatile sig_atomic_t *stop; /* set on SIGINT/SIGTERM */
	/* Told about every message: a run stored (id) or already there
	 * (duplicate), or a malformed one (err says why) that is skipped. */
	void (*on_run)(void *ctx, const struct pdb_run *run, int duplicate);
	void (*on_bad)(void *ctx, int32_t partition, int64_t offset, const struct pdb_err *err);
	void *ctx;
};

struct pdb_kafka_consume_stats {
	size_t stored, duplicates, bad;
};

/* Consume runs from the committed offsets of the group (the beginning for a
 * new group) into store: each run in its own transaction, deduplicated by
 * uuid (a message without one takes the uuid of its bytes, so that a second
 * delivery is a duplicate; one with neither results nor failures is skipped
 * as malformed); a message's offset is committed only after its run is in the
 * database, so a crash in between means the run is seen again and skipped
 * as a duplicate. Offsets are committed asynchronously, the last ones
 * awaited at the end, and the group left, each at most a few seconds: a
 * broker gone never holds the command, nor keeps a stop from ending it.
 * Without follow, stops at the end of every partition, or with an error
 * when every broker went away before it.
 * Test hook: PERFDB_TEST_CRASH_AFTER_DB_COMMIT=N makes the process _exit(9)
 * right after the Nth database commit, before its offset commit.
 * 0, or -1 with err (broker or database failures). */
int pdb_kafka_consume_runs(struct pdb_store *store, const struct pdb_kafka_consume_opts *opts,
			   struct pdb_kafka_consume_stats *stats, struct pdb_err *err);

#endif
