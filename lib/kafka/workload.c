/* Kafka load workloads: paced producer, matching consumer, latency and loss accounting. */
#include "kafka/workload.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kafka/match.h"
#include "loadgen/template.h"
#include "util.h"

#define HEADER "perfdb"        /* token, sequence, due time: 3 x 8 bytes */
#define HEADER_LEN 24
#define PAYLOAD_POOL 65536
#define NS 1000000000LL
#define DUE_CHUNK 65536        /* due times of matched sequences, chunk by chunk */
#define DUE_CHUNKS 65536

/* Per-thread accounting of the measured seconds. */
struct side {
	struct pdb_kafka_second *sec;
	size_t nsec, cap;
	struct pdb_hist *window;    /* latencies of the second being filled */
	long window_sec;
	int e2e;                    /* window feeds e2e_p99, else delivery_p99 */
};

struct state {
	const struct pdb_kafka_workload_opts *opts;
	uint64_t token;
	int64_t warm_end;           /* monotonic ns */
	/* producer thread (delivery reports run there) */
	unsigned char *delivered_ok;
	size_t dcap;
	struct pdb_hist *delivery, *send_delay;
	struct side prod;
	uint64_t delivered, errors;
	/* consumer thread */
	unsigned char *seen;
	size_t scap;
	struct pdb_hist *e2e;
	struct side cons;
	uint64_t duplicated, unmatched, consume_errors, warm_received;
	uint64_t warm_tied;         /* read and tied to a sequence due in the warm-up */
	uint64_t warm_untied;       /* read during the warm-up and tied to none */
	atomic_ullong received;     /* every message read */
	atomic_ullong matched;      /* distinct sequences */
	atomic_ullong produced;     /* sequences handed out so far */
	atomic_ullong measured_from; /* 1 + the first sequence due after the warm-up; 0: none yet */
	atomic_int consumer_stop;
	rd_kafka_t *consumer;
	int tie;                    /* output tied to input by construction (match:, or the input topic) */
	int64_t **due;              /* with match: the due time of each sequence (DUE_CHUNKS chunks) */
	/* lag thread */
	rd_kafka_t **lag_rk;        /* one per group */
	struct pdb_kafka_lag *lags;
	int lag_parts;
	atomic_llong lag_now;       /* total over the groups at the last sample */
	atomic_llong lag_at;        /* when the last sample started (monotonic ns), 0: none yet */
	atomic_int lag_stop;
};

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * NS + t.tv_nsec;
}

static struct pdb_kafka_second *second_at(struct side *s, long sec)
{
	if ((size_t)sec >= s->nsec) {
		pdb_grow((void **)&s->sec, &s->cap, (size_t)sec + 1, sizeof *s->sec);
		memset(s->sec + s->nsec, 0, ((size_t)sec + 1 - s->nsec) * sizeof *s->sec);
		s->nsec = (size_t)sec + 1;
	}
	return &s->sec[sec];
}

static void window_flush(struct side *s)
{
	struct pdb_kafka_second *sec;

	if (s->window_sec < 0 || s->window->n == 0)
		return;
	sec = second_at(s, s->window_sec);
	*(s->e2e ? &sec->e2e_p99 : &sec->delivery_p99) = pdb_hist_percentile(s->window, 99) / 1e9;
	pdb_hist_reset(s->window);
}

static void window_record(struct side *s, long sec, uint64_t ns)
{
	if (sec != s->window_sec) {
		window_flush(s);
		s->window_sec = sec;
	}
	pdb_hist_record(s->window, ns);
}

static long second_of(const struct state *st, int64_t t)
{
	return t < st->warm_end ? -1 : (long)((t - st->warm_end) / NS);
}

static void set_bit(unsigned char **bits, size_t *cap, uint64_t i)
{
	size_t need = (size_t)(i / 8) + 1;

	if (need > *cap) {
		size_t old = *cap, want = need * 2;
		pdb_grow((void **)bits, cap, want, 1);
		memset(*bits + old, 0, *cap - old);
	}
	(*bits)[i / 8] |= (unsigned char)(1u << (i % 8));
}

static int get_bit(const unsigned char *bits, size_t cap, uint64_t i)
{
	return (size_t)(i / 8) < cap && (bits[i / 8] >> (i % 8)) & 1;
}

/* Our header of a message: 0, or -1 when it has none (or another run's). */
static int read_header(const struct state *st, const rd_kafka_message_t *m, uint64_t *seq, int64_t *due)
{
	rd_kafka_headers_t *h;
	const void *val;
	size_t size;
	uint64_t w[3];

	if (rd_kafka_message_headers(m, &h) != RD_KAFKA_RESP_ERR_NO_ERROR ||
	    rd_kafka_header_get_last(h, HEADER, &val, &size) != RD_KAFKA_RESP_ERR_NO_ERROR ||
	    size != HEADER_LEN)
		return -1;
	memcpy(w, val, sizeof w);
	if (w[0] != st->token)
		return -1;
	*seq = w[1];
	*due = (int64_t)w[2];
	return 0;
}

/* A delivery report; t is when its batch of reports arrived. */
static void on_delivery(struct state *st, const rd_kafka_message_t *m, int64_t t)
{
	int64_t due;
	uint64_t seq;
	long sec = second_of(st, t);

	if (m->err) {
		st->errors++;
		if (sec >= 0)
			second_at(&st->prod, sec)->errors++;
		return;
	}
	if (st->opts->spec->produce_only) {
		/* produce only: no header; the due time travels as the message opaque */
		due = (int64_t)(intptr_t)m->_private;
	} else {
		if (read_header(st, m, &seq, &due) < 0)
			return;
		set_bit(&st->delivered_ok, &st->dcap, seq);
	}
	st->delivered++;
	if (due >= st->warm_end && sec >= 0) {
		pdb_hist_record(st->delivery, (uint64_t)(t - due));
		window_record(&st->prod, sec, (uint64_t)(t - due));
		second_at(&st->prod, sec)->delivered++;
	}
}

/* Producer side: record when seq was due, before seq is handed out. */
static void due_set(struct state *st, uint64_t seq, int64_t due)
{
	uint64_t c = seq / DUE_CHUNK;

	if (!st->due || c >= DUE_CHUNKS)
		return;
	if (!st->due[c])
		st->due[c] = pdb_xmalloc(DUE_CHUNK * sizeof **st->due);
	st->due[c][seq % DUE_CHUNK] = due;
}

/* The sequence and due time of output message m: by our header, else by
 * the spec's match. 0, or -1 when m is tied to nothing this run sent. */
static int tie_message(struct state *st, const rd_kafka_message_t *m, uint64_t *seq, int64_t *due)
{
	uint64_t produced = atomic_load(&st->produced);

	if (read_header(st, m, seq, due) == 0)
		return *seq < produced ? 0 : -1;
	if (!st->due || pdb_kafka_match_seq(st->opts->spec, st->token, m->payload, m->len, seq) < 0 ||
	    *seq >= produced || *seq / DUE_CHUNK >= DUE_CHUNKS)
		return -1;
	*due = st->due[*seq / DUE_CHUNK][*seq % DUE_CHUNK];
	return 0;
}

/* Whether seq was due in the warm-up: not measured, neither sent nor received. */
static int is_warm(struct state *st, uint64_t seq)
{
	uint64_t from = atomic_load(&st->measured_from);

	return from == 0 || seq < from - 1;
}

static void consume_one(struct state *st, const rd_kafka_message_t *m)
{
	int64_t t = now_ns(), due;
	uint64_t seq;
	long sec = second_of(st, t);

	if (m->err) {
		if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF)
			st->consume_errors++;
		return;
	}
	atomic_fetch_add(&st->received, 1);
	if (sec >= 0) {
		struct pdb_kafka_second *s = second_at(&st->cons, sec);
		s->consumed++;
		s->consumed_bytes += m->len;
	} else {
		st->warm_received++;
	}
	if (tie_message(st, m, &seq, &due) < 0) {
		st->unmatched++;
		st->warm_untied += sec < 0;
		return;
	}
	if (is_warm(st, seq))
		st->warm_tied++;
	if (get_bit(st->seen, st->scap, seq)) {
		st->duplicated += !is_warm(st, seq);
		return;
	}
	set_bit(&st->seen, &st->scap, seq);
	atomic_fetch_add(&st->matched, 1);
	if (due >= st->warm_end && sec >= 0) {
		pdb_hist_record(st->e2e, (uint64_t)(t - due));
		window_record(&st->cons, sec, (uint64_t)(t - due));
	}
}

static void *consumer_main(void *arg)
{
	struct state *st = arg;
	rd_kafka_message_t *batch[512];
	rd_kafka_queue_t *q = rd_kafka_queue_get_consumer(st->consumer);

	while (!atomic_load(&st->consumer_stop)) {
		/* wait for one message, then take what else is there */
		rd_kafka_message_t *m = rd_kafka_consumer_poll(st->consumer, 100);
		ssize_t n;
		if (!m)
			continue;
		consume_one(st, m);
		rd_kafka_message_destroy(m);
		n = rd_kafka_consume_batch_queue(q, 0, batch, 512);
		for (ssize_t i = 0; i < n; i++) {
			consume_one(st, batch[i]);
			rd_kafka_message_destroy(batch[i]);
		}
	}
	rd_kafka_queue_destroy(q);
	return NULL;
}

static rd_kafka_conf_t *make_conf(const char *bootstraps, const struct pdb_attr *props, size_t n,
				  const char *what, struct pdb_err *err)
{
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	char errstr[512];

	if (rd_kafka_conf_set(conf, "bootstrap.servers", bootstraps, errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
		goto fail;
	for (size_t i = 0; i < n; i++)
		if (rd_kafka_conf_set(conf, props[i].key, props[i].value, errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
			goto fail;
	return conf;
fail:
	rd_kafka_conf_destroy(conf);
	pdb_err_set(err, PDB_EXIT_INPUT, "kafka %s: %s", what, errstr);
	return NULL;
}

/* A client of group (never subscribed: perfdb assigns its partitions, and a
 * lag probe only reads the group's offsets) with the spec's consumer
 * properties. */
static rd_kafka_t *new_consumer(struct state *st, const char *bootstraps, const char *group,
				struct pdb_err *err)
{
	const struct pdb_kafka_spec *ks = st->opts->spec;
	rd_kafka_conf_t *conf = make_conf(bootstraps, NULL, 0, "consumer", err);
	rd_kafka_t *rk;
	char errstr[512];

	if (!conf)
		return NULL;
	rd_kafka_conf_set(conf, "enable.auto.commit", "false", NULL, 0);
	rd_kafka_conf_set(conf, "fetch.wait.max.ms", "10", NULL, 0);
	for (size_t i = 0; i < ks->nconsumer; i++)
		if (rd_kafka_conf_set(conf, ks->consumer[i].key, ks->consumer[i].value, errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
			rd_kafka_conf_destroy(conf);
			pdb_err_set(err, PDB_EXIT_INPUT, "kafka consumer: %s", errstr);
			return NULL;
		}
	rd_kafka_conf_set(conf, "group.id", group, NULL, 0);
	if (!(rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr))) {
		rd_kafka_conf_destroy(conf);
		pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka consumer: %s", errstr);
		return NULL;
	}
	return rk;
}

/* The number of partitions of topic, waiting for it to appear. 0 with err. */
static int partition_count(struct state *st, rd_kafka_t *rk, const char *bootstraps, const char *topic,
			   struct pdb_err *err)
{
	const struct rd_kafka_metadata *md = NULL;
	rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, topic, NULL);
	int nparts = 0;

	for (int tries = 0; tries < 50 && nparts == 0; tries++) {
		rd_kafka_resp_err_t e = rd_kafka_metadata(rk, 0, rkt, &md, 2000);
		if (e == RD_KAFKA_RESP_ERR_NO_ERROR && md->topic_cnt == 1 && !md->topics[0].err)
			nparts = md->topics[0].partition_cnt;
		if (md)
			rd_kafka_metadata_destroy(md);
		md = NULL;
		if (nparts == 0 && (st->opts->stop && *st->opts->stop))
			break;
		if (nparts == 0)
			nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
	}
	rd_kafka_topic_destroy(rkt);
	if (nparts == 0)
		pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: topic %s: no partitions found on %s", topic, bootstraps);
	return nparts;
}

/* A consumer of topic positioned at its end (every partition's high
 * watermark), in a fresh group, before anything is produced. */
static rd_kafka_t *open_consumer(struct state *st, const char *bootstraps, const char *topic,
				 struct pdb_err *err)
{
	rd_kafka_topic_partition_list_t *parts = NULL;
	rd_kafka_t *rk;
	char group[64], uuid[37];
	int nparts;

	pdb_uuid4(uuid);
	snprintf(group, sizeof group, "perfdb-%s", uuid);
	if (!(rk = new_consumer(st, bootstraps, group, err)))
		return NULL;
	rd_kafka_poll_set_consumer(rk);
	if (!(nparts = partition_count(st, rk, bootstraps, topic, err)))
		goto fail;
	parts = rd_kafka_topic_partition_list_new(nparts);
	for (int p = 0; p < nparts; p++) {
		int64_t lo, hi;
		rd_kafka_resp_err_t e = rd_kafka_query_watermark_offsets(rk, topic, p, &lo, &hi, 10000);
		if (e) {
			pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: topic %s [%d]: %s", topic, p, rd_kafka_err2str(e));
			goto fail;
		}
		rd_kafka_topic_partition_list_add(parts, topic, p)->offset = hi;
	}
	if (rd_kafka_assign(rk, parts)) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: topic %s: cannot assign partitions", topic);
		goto fail;
	}
	rd_kafka_topic_partition_list_destroy(parts);
	return rk;
fail:
	if (parts)
		rd_kafka_topic_partition_list_destroy(parts);
	rd_kafka_destroy(rk);
	return NULL;
}

/* The lag of the group of rk on the input topic, whose partitions end at
 * end[] (-1: unknown), or -1 while the group has committed no offset there. */
static int64_t group_lag(struct state *st, rd_kafka_t *rk, const int64_t *end)
{
	const char *topic = st->opts->spec->topic;
	rd_kafka_topic_partition_list_t *parts = rd_kafka_topic_partition_list_new(st->lag_parts);
	int64_t lag = -1;

	for (int p = 0; p < st->lag_parts; p++)
		rd_kafka_topic_partition_list_add(parts, topic, p);
	if (rd_kafka_committed(rk, parts, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR)
		for (int i = 0; i < parts->cnt; i++) {
			const rd_kafka_topic_partition_t *tp = &parts->elems[i];
			int64_t hi = end[tp->partition];
			if (tp->err || tp->offset < 0 || hi < 0)
				continue;
			lag = (lag < 0 ? 0 : lag) + (hi > tp->offset ? hi - tp->offset : 0);
		}
	rd_kafka_topic_partition_list_destroy(parts);
	return lag;
}

/* One sample of every group: the end offsets first, then each group's
 * committed offsets. */
static void lag_sample(struct state *st)
{
	int64_t t = now_ns(), total = 0, lo;
	int64_t *end = pdb_xcalloc((size_t)st->lag_parts, sizeof *end);

	for (int p = 0; p < st->lag_parts; p++)
		if (rd_kafka_query_watermark_offsets(st->lag_rk[0], st->opts->spec->topic, p, &lo, &end[p], 5000))
			end[p] = -1;
	for (size_t g = 0; g < st->opts->spec->nlag_groups; g++) {
		struct pdb_kafka_lag *l = &st->lags[g];
		int64_t lag = group_lag(st, st->lag_rk[g], end);
		size_t cap = l->cap;
		if (lag < 0)
			continue;
		pdb_grow((void **)&l->t, &l->cap, l->n + 1, sizeof *l->t);
		if (l->cap != cap)
			l->lag = pdb_xrealloc(l->lag, l->cap * sizeof *l->lag);
		l->t[l->n] = (double)(t - st->warm_end) / 1e9;
		l->lag[l->n++] = (double)lag;
		total += lag;
	}
	free(end);
	atomic_store(&st->lag_now, total);
	atomic_store(&st->lag_at, t);
}

/* Sample every second of the measured period and the drain, and once more
 * when stopped. */
static void *lag_main(void *arg)
{
	struct state *st = arg;
	int64_t next = st->warm_end;

	while (!atomic_load(&st->lag_stop)) {
		int64_t t = now_ns();
		if (t < next) {
			nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
			continue;
		}
		lag_sample(st);
		while (next <= now_ns())
			next += NS;
	}
	if (now_ns() >= st->warm_end)
		lag_sample(st);
	return NULL;
}

/* The lag probes: one client per group, not a member of it. */
static int open_lag(struct state *st, const char *bootstraps, struct pdb_err *err)
{
	const struct pdb_kafka_spec *ks = st->opts->spec;

	st->lag_rk = pdb_xcalloc(ks->nlag_groups + 1, sizeof *st->lag_rk);
	for (size_t g = 0; g < ks->nlag_groups; g++) {
		st->lags[g].group = ks->lag_groups[g];
		if (!(st->lag_rk[g] = new_consumer(st, bootstraps, ks->lag_groups[g], err)))
			return -1;
	}
	return (st->lag_parts = partition_count(st, st->lag_rk[0], bootstraps, ks->topic, err)) ? 0 : -1;
}

/* What the producer loop works with. */
struct producer {
	rd_kafka_t *rk;
	rd_kafka_topic_t *rkt;
	rd_kafka_queue_t *reports;  /* delivery reports arrive here as events */
	struct pdb_kafka_template *tpl;
	char *pool;                 /* random printable payloads */
	struct pdb_buf msg;
	uint64_t rng;
};

static int open_producer(struct state *st, struct producer *p, const char *bootstraps, struct pdb_err *err)
{
	const struct pdb_kafka_spec *ks = st->opts->spec;
	rd_kafka_conf_t *conf = make_conf(bootstraps, ks->producer, ks->nproducer, "producer", err);
	char errstr[512];

	if (!conf)
		return -1;
	/* reports as events: a batch of them shares one clock reading */
	rd_kafka_conf_set_events(conf, RD_KAFKA_EVENT_DR);
	if (!(p->rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr))) {
		rd_kafka_conf_destroy(conf);
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka producer: %s", errstr);
	}
	p->reports = rd_kafka_queue_get_main(p->rk);
	p->rkt = rd_kafka_topic_new(p->rk, ks->topic, NULL);
	p->rng = st->opts->seed ^ 0x5eed;
	if (ks->template_path) {
		p->tpl = pdb_kafka_template_load(ks->template_path, ks->vars, ks->nvars,
						 ks->key == PDB_KAFKA_KEY_VAR ? ks->key_var : NULL,
						 st->opts->seed, err);
		if (!p->tpl)
			return -1;
		pdb_kafka_template_guid_key(p->tpl, st->token);
	} else {
		p->pool = pdb_xmalloc(PAYLOAD_POOL + (size_t)ks->size);
		for (size_t i = 0; i < PAYLOAD_POOL + (size_t)ks->size; i++)
			p->pool[i] = (char)(' ' + 1 + pdb_kafka_rand(&p->rng) % 94);
	}
	return 0;
}

static void close_producer(struct producer *p)
{
	if (p->reports)
		rd_kafka_queue_destroy(p->reports);
	if (p->rkt)
		rd_kafka_topic_destroy(p->rkt);
	if (p->rk)
		rd_kafka_destroy(p->rk);
	pdb_kafka_template_free(p->tpl);
	free(p->pool);
	pdb_buf_release(&p->msg);
}

static int stopped(const struct state *st)
{
	return st->opts->stop && *st->opts->stop;
}

/* Serve the delivery reports that have arrived, waiting up to timeout_ms
 * for the first: one clock reading per batch of reports. */
static void serve_reports(struct state *st, struct producer *p, int timeout_ms)
{
	rd_kafka_event_t *ev = rd_kafka_queue_poll(p->reports, timeout_ms);

	for (; ev; ev = rd_kafka_queue_poll(p->reports, 0)) {
		if (rd_kafka_event_type(ev) == RD_KAFKA_EVENT_DR) {
			int64_t t = now_ns();
			const rd_kafka_message_t *m;
			while ((m = rd_kafka_event_message_next(ev)))
				on_delivery(st, m, t);
		}
		rd_kafka_event_destroy(ev);
	}
}

/* Wait until due (monotonic ns), serving delivery reports meanwhile. */
static void wait_until(struct state *st, struct producer *p, int64_t due)
{
	int64_t left;

	serve_reports(st, p, 0);
	while ((left = due - now_ns()) > 0 && !stopped(st)) {
		if (left > 2000000)
			serve_reports(st, p, 1);
		else if (left > 200000)
			nanosleep(&(struct timespec){ 0, 100000 }, NULL);
	}
}

/* Produce message seq (due at due); retries while the queue is full. */
static int produce_one(struct state *st, struct producer *p, uint64_t seq, int64_t due, uint64_t *bytes)
{
	const struct pdb_kafka_spec *ks = st->opts->spec;
	uint64_t hdr[3] = { st->token, seq, (uint64_t)due };
	const char *value, *key = NULL;
	char seqkey[24];
	size_t len, keylen = 0;
	rd_kafka_resp_err_t e;

	if (p->tpl) {
		struct timespec wall;
		clock_gettime(CLOCK_REALTIME, &wall);
		pdb_kafka_template_render(p->tpl, seq, (int64_t)wall.tv_sec * 1000 + wall.tv_nsec / 1000000, &p->msg);
		value = p->msg.data;
		len = p->msg.len;
		if ((key = pdb_kafka_template_key(p->tpl)))
			keylen = strlen(key);
	} else {
		value = p->pool + (seq * 7919) % PAYLOAD_POOL;
		len = (size_t)ks->size;
	}
	if (ks->key == PDB_KAFKA_KEY_SEQ) {
		keylen = (size_t)snprintf(seqkey, sizeof seqkey, "%" PRIu64, seq);
		key = seqkey;
	}
	for (;;) {
		if (!ks->produce_only)
			e = rd_kafka_producev(p->rk, RD_KAFKA_V_RKT(p->rkt), RD_KAFKA_V_VALUE((void *)value, len),
					      RD_KAFKA_V_KEY(key, keylen), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
					      RD_KAFKA_V_HEADER(HEADER, hdr, HEADER_LEN), RD_KAFKA_V_END);
		else
			e = rd_kafka_producev(p->rk, RD_KAFKA_V_RKT(p->rkt), RD_KAFKA_V_VALUE((void *)value, len),
					      RD_KAFKA_V_KEY(key, keylen), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
					      RD_KAFKA_V_OPAQUE((void *)(intptr_t)due), RD_KAFKA_V_END);
		if (e != RD_KAFKA_RESP_ERR__QUEUE_FULL || stopped(st))
			break;
		serve_reports(st, p, 1);
	}
	if (e) {
		long sec = second_of(st, now_ns());
		st->errors++;
		if (sec >= 0)
			second_at(&st->prod, sec)->errors++;
		return -1;
	}
	*bytes = len;
	return 0;
}

/* The paced loop. Returns the time the last measured message was sent. */
static int64_t produce_all(struct state *st, struct producer *p, int64_t t0, struct pdb_kafka_result *res)
{
	const struct pdb_kafka_spec *ks = st->opts->spec;
	double rate = st->opts->rate;
	int64_t end = st->warm_end + (int64_t)(ks->duration * NS), last = st->warm_end;
	uint64_t seq = 0, measured = 0;

	for (;; seq++) {
		int64_t due = rate > 0 ? t0 + (int64_t)((double)seq * 1e9 / rate) : now_ns(), sent;
		uint64_t bytes = 0;
		long sec;
		if (ks->count == 0 && due >= end)
			break;
		if (ks->count > 0 && measured >= (uint64_t)ks->count)
			break;
		if (rate > 0)
			wait_until(st, p, due);
		else if ((seq & 63) == 0)
			serve_reports(st, p, 0);
		if (stopped(st))
			break;
		due_set(st, seq, due);
		if (due >= st->warm_end && atomic_load(&st->measured_from) == 0)
			atomic_store(&st->measured_from, seq + 1);
		atomic_store(&st->produced, seq + 1);
		if (produce_one(st, p, seq, due, &bytes) < 0)
			continue;
		res->produced++;
		if (due < st->warm_end) {
			res->warm_sent++;
			continue;
		}
		sec = second_of(st, due);
		measured++;
		res->sent++;
		res->bytes += bytes;
		second_at(&st->prod, sec)->sent++;
		st->prod.sec[sec].bytes += bytes;
		if (rate <= 0) /* no schedule, no pacing error */
			continue;
		sent = now_ns();
		if ((double)(sent - due) / 1e9 > st->prod.sec[sec].send_delay_max)
			st->prod.sec[sec].send_delay_max = (double)(sent - due) / 1e9;
		pdb_hist_record(st->send_delay, (uint64_t)(sent - due));
		last = sent;
	}
	if (rate <= 0 && measured > 0)
		last = now_ns(); /* the last message handed over */
	return ks->count > 0 || stopped(st) ? last : end;
}

/* Every delivered message came back (tied to its input when it can be,
 * else counted) and the groups' lag, sampled since `since`, is 0. */
static int drained(struct state *st, int64_t since)
{
	const struct pdb_kafka_spec *ks = st->opts->spec;

	if (!ks->produce_only) {
		uint64_t matched = atomic_load(&st->matched);
		if ((st->tie || matched ? matched : atomic_load(&st->received)) < st->delivered)
			return 0;
	}
	return ks->nlag_groups == 0 || (atomic_load(&st->lag_at) >= since && atomic_load(&st->lag_now) == 0);
}

/* Wait for the output and the groups to catch up, up to the drain time. */
static void drain(struct state *st, struct producer *p)
{
	const struct pdb_kafka_spec *ks = st->opts->spec;
	int64_t until = now_ns() + (stopped(st) ? NS : (int64_t)(ks->drain * NS) + NS), since;

	/* rd_kafka_flush does not serve reports that arrive as events */
	while (rd_kafka_outq_len(p->rk) > 0 && now_ns() < until)
		serve_reports(st, p, 10);
	since = now_ns();
	until = since + (int64_t)(ks->drain * NS);
	while (!stopped(st) && !drained(st, since) && now_ns() < until)
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
}

static void merge_seconds(struct state *st, struct pdb_kafka_result *res)
{
	size_t n = st->prod.nsec > st->cons.nsec ? st->prod.nsec : st->cons.nsec;

	if (n > (size_t)(res->watched + 0.999999))
		n = (size_t)(res->watched + 0.999999);
	res->seconds = pdb_xcalloc(n + 1, sizeof *res->seconds);
	res->nseconds = n;
	for (size_t i = 0; i < n; i++) {
		struct pdb_kafka_second *s = &res->seconds[i];
		if (i < st->prod.nsec)
			*s = st->prod.sec[i];
		if (i < st->cons.nsec) {
			s->consumed = st->cons.sec[i].consumed;
			s->consumed_bytes = st->cons.sec[i].consumed_bytes;
			s->e2e_p99 = st->cons.sec[i].e2e_p99;
		}
	}
}

/* Lost messages that are all the last ones delivered: a pipeline's stage
 * that holds its output in a buffer (sed, awk without fflush) still had
 * them when the drain ended, which the user should see beside the loss. */
static void say_lost_at_end(const struct state *st, struct pdb_kafka_result *res,
			    uint64_t produced)
{
	uint64_t tail = 0;

	for (uint64_t i = produced; i > 0 && tail < res->lost; i--) {
		if (!get_bit(st->delivered_ok, st->dcap, i - 1))
			continue; /* never delivered: not lost, not in the way */
		if (get_bit(st->seen, st->scap, i - 1))
			break;
		tail++;
	}
	if (res->lost > 0 && tail == res->lost && !res->warning[0])
		snprintf(res->warning, sizeof res->warning,
			 "the %" PRIu64 " lost were the last delivered: a stage may still have held "
			 "them when the drain of %g s ended (a buffered stage, or drain: longer)",
			 res->lost, st->opts->spec->drain);
}

/* Totals, loss when output is tied to input, and the warning of a run
 * whose output cannot tell latency or loss. */
static void count_lost(struct state *st, struct pdb_kafka_result *res)
{
	const struct pdb_kafka_spec *ks = st->opts->spec;
	const char *out = ks->output_topic ? ks->output_topic : ks->topic;
	uint64_t produced = atomic_load(&st->produced);

	res->delivered = st->delivered;
	res->errors = st->errors + st->consume_errors;
	res->received = atomic_load(&st->received) - st->warm_tied - st->warm_untied;
	res->matched = atomic_load(&st->matched);
	res->duplicated = st->duplicated;
	res->unmatched = st->unmatched;
	res->warm_received = st->warm_received;
	res->consumed = !ks->produce_only;
	res->matchable = res->consumed && (st->tie || res->matched > 0);
	if (!res->consumed || res->interrupted)
		return;
	if (res->received == 0 && res->delivered > 0)
		snprintf(res->warning, sizeof res->warning,
			 "nothing came back on topic %s (%" PRIu64 " delivered to %s)%s", out, res->delivered,
			 ks->topic, res->matchable ? "" : ": latency and loss unknown");
	else if (res->received > 0 && res->matched == 0 && ks->match)
		snprintf(res->warning, sizeof res->warning,
			 "none of the %" PRIu64 " messages read from %s matched '%s': latency and loss unknown",
			 res->received, out, ks->match_text);
	else if (!res->matchable)
		snprintf(res->warning, sizeof res->warning,
			 "the messages read from %s carry no perfdb header: latency and loss unknown (match: ties them by $SEQ or $GUID)",
			 out);
	if (res->received > 0 && res->matched == 0)
		res->matchable = 0;
	if (!res->matchable)
		return;
	for (uint64_t i = atomic_load(&st->measured_from); i > 0 && i - 1 < produced; i++)
		if (get_bit(st->delivered_ok, st->dcap, i - 1) && !get_bit(st->seen, st->scap, i - 1))
			res->lost++;
	say_lost_at_end(st, res, produced);
}

int pdb_kafka_workload_run(const struct pdb_kafka_workload_opts *opts,
			   struct pdb_kafka_result *res, struct pdb_err *err)
{
	const struct pdb_kafka_spec *ks = opts->spec;
	struct state st = { .opts = opts };
	struct producer p = { 0 };
	struct pdb_kafka_mock *mock = NULL;
	const char *bootstraps = ks->brokers;
	pthread_t consumer_thread, lag_thread;
	int nmock = pdb_kafka_mock_parse(ks->brokers), started = 0, lagging = 0, ready = 0, ret = -1;
	int64_t t0, last;
	uint64_t seed = opts->seed;

	memset(res, 0, sizeof *res);
	res->delivery = pdb_xcalloc(1, sizeof *res->delivery);
	res->e2e = pdb_xcalloc(1, sizeof *res->e2e);
	res->send_delay = pdb_xcalloc(1, sizeof *res->send_delay);
	st.delivery = res->delivery;
	st.e2e = res->e2e;
	st.send_delay = res->send_delay;
	st.prod.window = pdb_xcalloc(1, sizeof *st.prod.window);
	st.cons.window = pdb_xcalloc(1, sizeof *st.cons.window);
	st.prod.window_sec = st.cons.window_sec = -1;
	st.cons.e2e = 1;
	st.token = pdb_kafka_rand(&seed) ^ (uint64_t)now_ns();
	st.tie = ks->match || !ks->output_topic;
	if (ks->match)
		st.due = pdb_xcalloc(DUE_CHUNKS, sizeof *st.due);
	res->lags = st.lags = pdb_xcalloc(ks->nlag_groups + 1, sizeof *res->lags);
	res->nlags = ks->nlag_groups;
	if (nmock < 0) {
		pdb_err_set(err, PDB_EXIT_INPUT, "kafka: brokers '%s': expected mock:N with N from 1 to 64", ks->brokers);
		goto out;
	}
	if (nmock > 0) {
		if (!(mock = pdb_kafka_mock_start(nmock, err)) ||
		    pdb_kafka_mock_topic(mock, ks->topic, ks->partitions, err) < 0 ||
		    (ks->output_topic && pdb_kafka_mock_topic(mock, ks->output_topic, ks->partitions, err) < 0))
			goto out;
		bootstraps = pdb_kafka_mock_bootstraps(mock);
	}
	if (opts->on_ready)
		opts->on_ready(opts->ctx, bootstraps, mock);
	ready = 1;
	if (open_producer(&st, &p, bootstraps, err) < 0)
		goto out;
	if (!ks->produce_only) {
		if (!(st.consumer = open_consumer(&st, bootstraps,
						  ks->output_topic ? ks->output_topic : ks->topic, err)))
			goto out;
		if (pthread_create(&consumer_thread, NULL, consumer_main, &st) != 0) {
			pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: cannot start the consumer thread");
			goto out;
		}
		started = 1;
	}
	if (ks->nlag_groups && open_lag(&st, bootstraps, err) < 0)
		goto out;
	t0 = now_ns();
	st.warm_end = t0 + (int64_t)(ks->warmup * NS);
	if (ks->nlag_groups) {
		if (pthread_create(&lag_thread, NULL, lag_main, &st) != 0) {
			pdb_err_set(err, PDB_EXIT_RUNTIME, "kafka: cannot start the lag thread");
			goto out;
		}
		lagging = 1;
	}
	last = produce_all(&st, &p, t0, res);
	res->interrupted = stopped(&st);
	res->elapsed = (double)(last - st.warm_end) / 1e9;
	if (res->elapsed < 0)
		res->elapsed = 0;
	drain(&st, &p);
	res->watched = (double)(now_ns() - st.warm_end) / 1e9;
	if (res->watched < res->elapsed)
		res->watched = res->elapsed;
	ret = 0;
out:
	if (started) {
		atomic_store(&st.consumer_stop, 1);
		pthread_join(consumer_thread, NULL);
	}
	if (lagging) {
		atomic_store(&st.lag_stop, 1);
		pthread_join(lag_thread, NULL);
	}
	if (ret == 0) {
		window_flush(&st.prod);
		window_flush(&st.cons);
		merge_seconds(&st, res);
		count_lost(&st, res);
		for (size_t g = 0; g < res->nlags && !res->warning[0] && !res->interrupted; g++)
			if (res->lags[g].n == 0)
				snprintf(res->warning, sizeof res->warning,
					 "consumer group %s committed no offset on %s: its lag is unknown",
					 res->lags[g].group, ks->topic);
	}
	if (ready && opts->on_drained)
		opts->on_drained(opts->ctx);
	if (st.consumer) {
		rd_kafka_consumer_close(st.consumer);
		rd_kafka_destroy(st.consumer);
	}
	for (size_t g = 0; st.lag_rk && g < ks->nlag_groups; g++)
		if (st.lag_rk[g])
			rd_kafka_destroy(st.lag_rk[g]);
	free(st.lag_rk);
	for (size_t c = 0; st.due && c < DUE_CHUNKS; c++)
		free(st.due[c]);
	free(st.due);
	close_producer(&p);
	pdb_kafka_mock_stop(mock);
	free(st.prod.sec);
	free(st.cons.sec);
	free(st.prod.window);
	free(st.cons.window);
	free(st.delivered_ok);
	free(st.seen);
	if (ret < 0)
		pdb_kafka_result_release(res);
	return ret;
}
