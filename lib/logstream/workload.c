/* Log stream workloads: templated lines paced by intended send time, counted by a probe. */
#include "logstream/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "loadgen/template.h"
#include "logstream/sender.h"
#include "util.h"

#define NS 1000000000LL
#define FLUSH_MAX 4096               /* lines per write when catching up */
#define HTTP_LINGER (NS / 10)        /* an http batch waits at most this for more lines */
#define NAP_MAX (20 * 1000000LL)     /* sleep at most this between looks at stop */
#define NAP_MIN 100000LL             /* and at least this */

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * NS + t.tv_nsec;
}

static int stopped(const struct pdb_logstream_opts *o)
{
	return o->stop && *o->stop;
}

/* Where this run's $SEQ starts: the last nine digits of its start in ms
 * since the epoch, x 10^6, so that a line of an earlier run (a straggler
 * of the repetition before) is never taken for one of this run: runs start
 * at least their duration apart, more than rate x duration / 10^6 ms at
 * any rate allowed. Below 10^15 + what a run sends, it stays under 2^53: a
 * stage that reads numbers as doubles (jq 1.6, JavaScript) keeps it
 * exact. The ms wrap every 11.6 days. */
static uint64_t seq_base(void)
{
	struct timespec wall;

	clock_gettime(CLOCK_REALTIME, &wall);
	return (((uint64_t)wall.tv_sec * 1000 + (uint64_t)wall.tv_nsec / 1000000) % 1000000000) * 1000000;
}

static int64_t due_of(const struct pdb_logstream_tally *t, uint64_t seq)
{
	return t->t0 + (int64_t)((double)seq * 1e9 / t->rate);
}

/* Send what is queued (lines first .. first + n - 1) and account for it;
 * of refused datagrams it is not known which, so the first ones count as sent. */
static void flush(struct pdb_logstream_sender *s, struct pdb_logstream_result *res, uint64_t first,
		  int64_t deadline)
{
	size_t n = pdb_logstream_sender_pending(s);
	uint64_t failed = pdb_logstream_sender_flush(s, deadline);
	int64_t sent = now_ns(), t0 = res->tally[0].t0;

	if (n == 0)
		return;
	if (failed)
		snprintf(res->error, sizeof res->error, "%s", pdb_logstream_sender_error(s));
	res->errors += failed;
	res->sent += n - failed;
	if (res->elapsed < (double)(sent - t0) / 1e9)
		res->elapsed = (double)(sent - t0) / 1e9;
	for (uint64_t k = 0; k < n; k++) {
		int64_t due = due_of(&res->tally[0], first + k);
		pdb_hist_record(res->send_delay, (uint64_t)(sent > due ? sent - due : 0));
	}
	if (n > failed) { /* by the second the target took them */
		size_t sec = (size_t)((sent - t0) / NS), old = res->cap_sent_sec;
		if (sec >= res->nsent_sec) {
			pdb_grow((void **)&res->sent_per_sec, &res->cap_sent_sec, sec + 1, sizeof *res->sent_per_sec);
			memset(res->sent_per_sec + old, 0, (res->cap_sent_sec - old) * sizeof *res->sent_per_sec);
			res->nsent_sec = sec + 1;
		}
		res->sent_per_sec[sec] += n - failed;
	}
}

/* The paced loop: every line when it is due; lines already due go together. */
static void send_all(const struct pdb_logstream_opts *o, struct pdb_logstream_sender *s,
		     struct pdb_kafka_template *tpl, struct pdb_logstream_result *res)
{
	const struct pdb_logstream_spec *ls = o->spec;
	struct pdb_logstream_tally *t = &res->tally[0];
	uint64_t total = (uint64_t)ceil(ls->duration * o->rate), seq = 0, first = 0;
	int64_t deadline = t->t0 + (int64_t)((ls->duration + ls->drain) * 1e9) + NS;
	int http = ls->target.kind == PDB_LOGSTREAM_HTTP;
	struct pdb_buf line;

	pdb_buf_init(&line);
	while (seq < total && !stopped(o)) {
		int64_t now = now_ns(), due = due_of(t, seq);
		size_t pending = pdb_logstream_sender_pending(s);
		if (due > now) {
			if (pending && (!http || (int64_t)pending >= ls->batch || due_of(t, first) + HTTP_LINGER <= now)) {
				flush(s, res, first, deadline);
				first = seq;
				continue;
			}
			/* at high rates, wake once per NAP_MIN and send what fell due together */
			nanosleep(&(struct timespec){ 0, due - now > NAP_MAX ? NAP_MAX : due - now < NAP_MIN ? NAP_MIN : due - now }, NULL);
			continue;
		}
		for (; seq < total && due_of(t, seq) <= now && pending < (http ? (size_t)ls->batch : FLUSH_MAX); pending++) {
			struct timespec wall;
			clock_gettime(CLOCK_REALTIME, &wall);
			pdb_kafka_template_render(tpl, t->base + seq, (int64_t)wall.tv_sec * 1000 + wall.tv_nsec / 1000000, &line);
			pdb_logstream_sender_add(s, line.data, line.len);
			seq++;
			for (size_t k = 0; k < res->ntally; k++)
				atomic_store(&res->tally[k].sent, seq);
		}
		if (!http || pending >= (size_t)ls->batch) {
			flush(s, res, first, deadline);
			first = seq;
		}
	}
	flush(s, res, first, deadline);
	pdb_buf_release(&line);
	if (res->elapsed < ls->duration && !stopped(o))
		res->elapsed = ls->duration;
}

/* Whether every probe has seen every line sent. */
static int all_arrived(struct pdb_logstream_result *res)
{
	for (size_t k = 0; k < res->nprobed; k++)
		if (atomic_load(&res->tally[k].received) < res->sent)
			return 0;
	return 1;
}

/* Wait until every line sent arrived at every probe, or the drain time passed. */
static void drain(const struct pdb_logstream_opts *o, struct pdb_logstream_result *res)
{
	int64_t until = now_ns() + (int64_t)(o->spec->drain * 1e9);

	while (!stopped(o) && !all_arrived(res) && now_ns() < until)
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
}

/* The spec's probes: probes:, or the one probe:; how many. */
static size_t probes_of(const struct pdb_logstream_spec *ls, const struct pdb_logstream_probe **out)
{
	*out = ls->nprobes ? ls->probes : &ls->probe;
	return ls->nprobes ? ls->nprobes : (size_t)ls->has_probe;
}

/* A counts-only probe that counted more than was sent counts something
 * else too (another source, an earlier run's backlog): missing is 0 only
 * as far as such a count can tell, and the run says so. */
static void excess_warning(struct pdb_logstream_result *res, const struct pdb_logstream_probe *p)
{
	for (size_t k = 0; k < res->nprobed && !res->warning[0]; k++) {
		uint64_t received = atomic_load(&res->tally[k].received);
		if (res->tally[k].matched || received <= res->sent || res->interrupted)
			continue;
		snprintf(res->warning, sizeof res->warning, "the probe%s%s counted %llu lines of %llu "
			 "sent: %llu in excess (stored as excess), lines of another source or an "
			 "earlier run; missing 0 is not known", p[k].name ? " " : "",
			 p[k].name ? p[k].name : "", (unsigned long long)received,
			 (unsigned long long)res->sent, (unsigned long long)(received - res->sent));
	}
}

/* A matching probe that saw values near this run's sequences but not one
 * of them, and sequences again: a stage rounds the numbers (or rewrote
 * them); its missing and duplicated are not the pipeline's loss, and the
 * run says so. */
static void rounded_warning(struct pdb_logstream_result *res, const struct pdb_logstream_probe *p)
{
	for (size_t k = 0; k < res->nprobed && !res->warning[0]; k++) {
		const struct pdb_logstream_tally *t = &res->tally[k];
		if (!pdb_logstream_rounded(t))
			continue;
		snprintf(res->warning, sizeof res->warning, "the probe%s%s saw %llu values near this run's $SEQ "
			 "but not one of them and %llu again: a stage rounds them (one that reads numbers as "
			 "floats or doubles?); its missing is not loss", p[k].name ? " " : "",
			 p[k].name ? p[k].name : "", (unsigned long long)t->near,
			 (unsigned long long)t->duplicated);
	}
}

int pdb_logstream_run(const struct pdb_logstream_opts *opts, struct pdb_logstream_result *res,
		      struct pdb_err *err)
{
	const struct pdb_logstream_spec *ls = opts->spec;
	struct pdb_kafka_template *tpl = NULL;
	struct pdb_logstream_sender *s = NULL;
	const struct pdb_logstream_probe *probes;
	size_t nprobes = probes_of(ls, &probes);
	struct pdb_logstream_prober **pr = pdb_xcalloc(nprobes + 1, sizeof *pr);
	int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0), ret = -1;
	uint64_t base = seq_base();
	int64_t t0;

	memset(res, 0, sizeof *res);
	res->send_delay = pdb_xcalloc(1, sizeof *res->send_delay);
	res->ntally = nprobes ? nprobes : 1;
	res->tally = pdb_xcalloc(res->ntally, sizeof *res->tally);
	for (size_t k = 0; k < res->ntally; k++) {
		res->tally[k].delay = pdb_xcalloc(1, sizeof *res->tally[k].delay);
		res->tally[k].rate = opts->rate;
		res->tally[k].base = base;
	}
	if (!(tpl = pdb_logstream_template_new(ls, opts->seed, err)) || !(s = pdb_logstream_sender_open(ls, err)))
		goto out;
	for (size_t k = 0; k < nprobes; k++)
		if (!(pr[k] = pdb_logstream_probe_open(&probes[k], &res->tally[k], err)))
			goto out;
	res->nprobed = nprobes;
	t0 = now_ns() + NS / 100; /* the probes are running when line 0 is due */
	for (size_t k = 0; k < res->ntally; k++)
		res->tally[k].t0 = t0;
	for (size_t k = 0; k < nprobes; k++)
		if (pdb_logstream_probe_start(pr[k], err) < 0)
			goto out;
	prctl(PR_SET_TIMERSLACK, 1000, 0, 0, 0);
	send_all(opts, s, tpl, res);
	if (slack > 0)
		prctl(PR_SET_TIMERSLACK, slack, 0, 0, 0);
	res->interrupted = stopped(opts);
	if (nprobes) {
		drain(opts, res);
		res->watched = (double)(now_ns() - t0) / 1e9;
		rounded_warning(res, probes);
		excess_warning(res, probes);
	}
	ret = 0;
out:
	for (size_t k = 0; k < nprobes; k++)
		pdb_logstream_probe_close(pr[k]);
	free(pr);
	pdb_logstream_sender_close(s);
	pdb_kafka_template_free(tpl);
	if (ret < 0)
		pdb_logstream_result_release(res);
	return ret;
}

void pdb_logstream_result_release(struct pdb_logstream_result *res)
{
	free(res->send_delay);
	free(res->sent_per_sec);
	for (size_t k = 0; k < res->ntally; k++) {
		free(res->tally[k].delay);
		free(res->tally[k].arrived);
		free(res->tally[k].delay_p99);
	}
	free(res->tally);
	memset(res, 0, sizeof *res);
}
