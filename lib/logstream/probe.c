/* Log stream probes: count delivered lines in a followed file or by a polled command. */
#include "logstream/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

#define NS 1000000000LL
#define READ_CHUNK 65536
#define OUTPUT_MAX (1 << 20)

struct pdb_logstream_prober {
	const struct pdb_logstream_probe *p;
	struct pdb_logstream_tally *t;
	regex_t re;
	int compiled;
	pthread_t thread;
	int started;
	atomic_int stop;
	/* file probe */
	int fd;
	dev_t dev;
	ino_t ino;
	off_t pos;
	char *buf;
	size_t have;
	unsigned char *seen;
	size_t capseen;
	struct pdb_hist *window;    /* delays of the second being filled */
	long window_sec;
	/* command probe */
	double base;
};

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * NS + t.tv_nsec;
}

static void nap(long ns)
{
	nanosleep(&(struct timespec){ ns / NS, ns % NS }, NULL);
}

static uint64_t *arrived_at(struct pdb_logstream_tally *t, long sec)
{
	if ((size_t)sec >= t->nsec) {
		size_t old = t->capsec;
		pdb_grow((void **)&t->arrived, &t->capsec, (size_t)sec + 1, sizeof *t->arrived);
		t->delay_p99 = pdb_xrealloc(t->delay_p99, t->capsec * sizeof *t->delay_p99);
		memset(t->arrived + old, 0, (t->capsec - old) * sizeof *t->arrived);
		memset(t->delay_p99 + old, 0, (t->capsec - old) * sizeof *t->delay_p99);
		t->nsec = (size_t)sec + 1;
	}
	return &t->arrived[sec];
}

static long second_of(const struct pdb_logstream_tally *t, int64_t at)
{
	return at < t->t0 ? 0 : (long)((at - t->t0) / NS);
}

static void window_flush(struct pdb_logstream_prober *pr)
{
	if (pr->window_sec < 0 || pr->window->n == 0)
		return;
	arrived_at(pr->t, pr->window_sec);
	pr->t->delay_p99[pr->window_sec] = pdb_hist_percentile(pr->window, 99) / 1e9;
	pdb_hist_reset(pr->window);
}

/* Whether value, not one of this run's sequences, is within a float's
 * relative precision (2^-22, a little coarser than a float's 2^-24) of
 * them: what a stage that rounds them writes. */
static int near_ours(const struct pdb_logstream_tally *t, uint64_t value)
{
	uint64_t hi = t->base + atomic_load(&t->sent), off = value < t->base ? t->base - value : value + 1 - hi;

	return off <= value >> 22;
}

int pdb_logstream_rounded(const struct pdb_logstream_tally *t)
{
	return t->matched && t->near > 0 && t->duplicated > 0;
}

/* $SEQ value seen at arrival time at: line value - base of this run. */
static void seen_seq(struct pdb_logstream_prober *pr, uint64_t value, int64_t at)
{
	struct pdb_logstream_tally *t = pr->t;
	uint64_t seq = value - t->base;
	int64_t due = t->t0 + (int64_t)((double)seq * 1e9 / t->rate);
	long sec = second_of(t, at);
	size_t byte = (size_t)(seq / 8);

	if (value < t->base || seq >= atomic_load(&t->sent)) {
		t->foreign++;
		t->near += (uint64_t)near_ours(t, value);
		return;
	}
	if (byte >= pr->capseen) {
		size_t old = pr->capseen;
		pdb_grow((void **)&pr->seen, &pr->capseen, byte * 2 + 1, 1);
		memset(pr->seen + old, 0, pr->capseen - old);
	}
	if (pr->seen[byte] & (1u << (seq % 8))) {
		t->duplicated++;
		return;
	}
	pr->seen[byte] |= (unsigned char)(1u << (seq % 8));
	(*arrived_at(t, sec))++;
	atomic_fetch_add(&t->received, 1);
	t->last_change = at;
	if (at < due)
		at = due; /* clocks agree: a line cannot arrive before it was due */
	pdb_hist_record(t->delay, (uint64_t)(at - due));
	if (sec != pr->window_sec) {
		window_flush(pr);
		pr->window_sec = sec;
	}
	pdb_hist_record(pr->window, (uint64_t)(at - due));
}

static void one_line(struct pdb_logstream_prober *pr, char *line, int64_t at)
{
	struct pdb_logstream_tally *t = pr->t;
	regmatch_t m[2];
	int64_t seq;

	t->lines++;
	if (!t->matched) { /* counts only: every line */
		(*arrived_at(t, second_of(t, at)))++;
		atomic_fetch_add(&t->received, 1);
		t->last_change = at;
		return;
	}
	if (regexec(&pr->re, line, 2, m, 0) != 0 || m[1].rm_so < 0)
		return;
	line[m[1].rm_eo] = '\0';
	if (pdb_parse_int64(line + m[1].rm_so, 0, INT64_MAX, &seq) < 0)
		return;
	seen_seq(pr, (uint64_t)seq, at);
}

/* The lines complete in pr->buf, read at at; a partial one stays. */
static void lines_of_buffer(struct pdb_logstream_prober *pr, int64_t at)
{
	char *p = pr->buf, *end = pr->buf + pr->have, *nl;

	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		*nl = '\0';
		one_line(pr, p, at);
		p = nl + 1;
	}
	if (p == pr->buf && pr->have == READ_CHUNK) { /* a line longer than the buffer */
		pr->buf[READ_CHUNK] = '\0';
		one_line(pr, pr->buf, at);
		p = end;
	}
	pr->have = (size_t)(end - p);
	memmove(pr->buf, p, pr->have);
}

/* Open the probe's file (at its end when at_end), remembering which file it is. */
static void open_file(struct pdb_logstream_prober *pr, int at_end)
{
	struct stat st;

	if ((pr->fd = open(pr->p->file, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	if (fstat(pr->fd, &st) == 0) {
		pr->dev = st.st_dev;
		pr->ino = st.st_ino;
	}
	pr->pos = at_end ? lseek(pr->fd, 0, SEEK_END) : 0;
	pr->have = 0;
}

/* Like tail -F: read to the end; then follow a new file of that name (a
 * rotation) from its start, or the same one from its start when it shrank. */
static void *follow_main(void *arg)
{
	struct pdb_logstream_prober *pr = arg;

	while (!atomic_load(&pr->stop)) {
		struct stat st;
		ssize_t n;
		if (pr->fd >= 0 && (n = read(pr->fd, pr->buf + pr->have, READ_CHUNK - pr->have)) > 0) {
			pr->pos += n;
			pr->have += (size_t)n;
			lines_of_buffer(pr, now_ns());
			continue;
		}
		if (stat(pr->p->file, &st) == 0) {
			if (pr->fd < 0 || st.st_ino != pr->ino || st.st_dev != pr->dev) {
				if (pr->fd >= 0)
					close(pr->fd);
				open_file(pr, 0);
				continue;
			}
			if (st.st_size < pr->pos) {
				pr->pos = lseek(pr->fd, 0, SEEK_SET);
				pr->have = 0;
				continue;
			}
		}
		nap(1000000);
	}
	window_flush(pr);
	return NULL;
}

/* Run the probe command: its count, or -1 with t->error. */
static int poll_count(struct pdb_logstream_prober *pr, double *count)
{
	FILE *f = popen(pr->p->command, "r");
	char *out = pdb_xmalloc(OUTPUT_MAX + 1);
	size_t n = 0, got;
	regmatch_t m[2];
	int ret = -1, status;

	if (!f) {
		snprintf(pr->t->error, sizeof pr->t->error, "probe: cannot run the command: %s", strerror(errno));
		goto out;
	}
	while (n < OUTPUT_MAX && (got = fread(out + n, 1, OUTPUT_MAX - n, f)) > 0)
		n += got;
	out[n] = '\0';
	status = pclose(f);
	if (regexec(&pr->re, out, 2, m, 0) != 0 || m[1].rm_so < 0) {
		snprintf(pr->t->error, sizeof pr->t->error, "probe: no match for value in the command's output (exit status %d)",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		goto out;
	}
	out[m[1].rm_eo] = '\0';
	if (pdb_parse_double(out + m[1].rm_so, count) < 0) {
		snprintf(pr->t->error, sizeof pr->t->error, "probe: '%.40s' is not a count", out + m[1].rm_so);
		goto out;
	}
	ret = 0;
out:
	free(out);
	return ret;
}

/* n lines a count found grown between from and to (ns), spread over the
 * seconds of that interval in proportion: a count polled once a second
 * puts the lines of second 0 in second 0, not in second 1. */
static void spread(struct pdb_logstream_tally *t, int64_t from, int64_t to, uint64_t n)
{
	uint64_t given = 0;

	for (long sec = second_of(t, from); given < n; sec++) {
		int64_t end = t->t0 + (sec + 1) * NS;
		uint64_t upto = end >= to ? n : (uint64_t)((double)n * (double)(end - from) / (double)(to - from) + 0.5);
		*arrived_at(t, sec) += upto - given;
		given = upto;
	}
}

static void *command_main(void *arg)
{
	struct pdb_logstream_prober *pr = arg;
	struct pdb_logstream_tally *t = pr->t;
	int64_t every = (int64_t)(pr->p->every * 1e9), next = t->t0 + every, prev = t->t0;
	uint64_t last = 0;

	while (!atomic_load(&pr->stop)) {
		double count;
		int64_t at;
		if (now_ns() < next) {
			int64_t left = next - now_ns();
			nap(left > 20000000 ? 20000000 : left);
			continue;
		}
		next += every;
		if (poll_count(pr, &count) < 0) {
			t->probe_errors++;
			continue;
		}
		at = now_ns();
		count -= pr->base;
		if (count > (double)last) {
			uint64_t c = (uint64_t)(count + 0.5);
			spread(t, prev, at, c - last);
			last = c;
			atomic_store(&t->received, c);
			t->last_change = at;
		}
		prev = at;
	}
	return NULL;
}

struct pdb_logstream_prober *pdb_logstream_probe_open(const struct pdb_logstream_probe *p,
						      struct pdb_logstream_tally *tally,
						      struct pdb_err *err)
{
	struct pdb_logstream_prober *pr = pdb_xcalloc(1, sizeof *pr);
	const char *re = p->file ? p->match : p->value;

	pr->p = p;
	pr->t = tally;
	pr->fd = -1;
	pr->window_sec = -1;
	tally->matched = p->file && p->match;
	tally->command = p->command != NULL;
	if (re) {
		if (regcomp(&pr->re, re, REG_EXTENDED) != 0) {
			pdb_err_set(err, PDB_EXIT_INPUT, "probe: '%s' is not a valid regular expression", re);
			goto fail;
		}
		pr->compiled = 1;
	}
	if (p->file) {
		pr->buf = pdb_xmalloc(READ_CHUNK + 1);
		pr->window = pdb_xcalloc(1, sizeof *pr->window);
		open_file(pr, 1);
	} else if (poll_count(pr, &pr->base) < 0) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "stream: %s: %s", p->command, tally->error);
		goto fail;
	}
	return pr;
fail:
	pdb_logstream_probe_close(pr);
	return NULL;
}

int pdb_logstream_probe_start(struct pdb_logstream_prober *pr, struct pdb_err *err)
{
	if (pthread_create(&pr->thread, NULL, pr->p->file ? follow_main : command_main, pr) != 0)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "stream: cannot start the probe thread");
	pr->started = 1;
	return 0;
}

void pdb_logstream_probe_close(struct pdb_logstream_prober *pr)
{
	if (!pr)
		return;
	if (pr->started) {
		atomic_store(&pr->stop, 1);
		pthread_join(pr->thread, NULL);
	}
	if (pr->fd >= 0)
		close(pr->fd);
	if (pr->compiled)
		regfree(&pr->re);
	free(pr->buf);
	free(pr->seen);
	free(pr->window);
	free(pr);
}
