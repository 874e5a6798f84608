/* Log streams: target parsing, syslog framing on the wire, the file and command probes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <netinet/in.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "logstream/probe.h"
#include "logstream/sender.h"
#include "logstream/spec.h"
#include "util.h"

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void nap_ms(int ms)
{
	nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000L }, NULL);
}

static char *temp_dir(void)
{
	char *dir = pdb_xstrdup("/tmp/perfdb-logstream-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return dir;
}

static void write_file(const char *path, const char *mode, const char *text)
{
	FILE *f = fopen(path, mode);
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A spec read from "stream: TEXT" in a file of dir: NULL with err on a spec error. */
static struct pdb_logstream_spec *read_spec(const char *dir, const char *text, struct pdb_err *err)
{
	char *path = pdb_xasprintf("%s/spec.yaml", dir);
	struct pdb_yaml_doc doc;
	struct pdb_logstream_spec *ls;

	write_file(path, "w", text);
	assert_int_equal(pdb_yaml_load(path, NULL, &doc, err), 0);
	ls = pdb_logstream_spec_read(&doc, doc.root, path, err);
	pdb_yaml_doc_release(&doc);
	free(path);
	return ls;
}

static void test_targets(void **state)
{
	static const struct {
		const char *target;
		int kind;
		const char *host, *port, *path;   /* NULL: none */
	} ok[] = {
		{ "tcp://127.0.0.1:10514", PDB_LOGSTREAM_TCP, "127.0.0.1", "10514", NULL },
		{ "udp://[::1]:514", PDB_LOGSTREAM_UDP, "::1", "514", NULL },
		{ "unix:/dev/log", PDB_LOGSTREAM_UNIX, NULL, NULL, "/dev/log" },
		{ "file:out.log", PDB_LOGSTREAM_FILE, NULL, NULL, "out.log" },
		{ "http://es:9200/logs/_bulk", PDB_LOGSTREAM_HTTP, "es", "9200", "/logs/_bulk" },
		{ "http://es", PDB_LOGSTREAM_HTTP, "es", "80", "/" },
	};
	static const char *const bad[] = {
		"tcp://127.0.0.1", "tcp://:514", "udp://h:0", "udp://h:65536", "tcp://h:1/x",
		"https://es:9200/", "unix:", "ftp://h:1", "http://[::1/x",
	};
	char *dir = temp_dir();
	struct pdb_err err;

	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char *text = pdb_xasprintf("{target: \"%s\", rate: 10}\n", ok[i].target);
		struct pdb_logstream_spec *ls = read_spec(dir, text, &err);
		assert_non_null(ls);
		assert_int_equal(ls->target.kind, ok[i].kind);
		if (ok[i].host)
			assert_string_equal(ls->target.host, ok[i].host);
		if (ok[i].port)
			assert_string_equal(ls->target.port, ok[i].port);
		if (ok[i].path)
			assert_string_equal(ls->target.path, ok[i].path);
		/* syslog on sockets, lines to files and http */
		assert_int_equal(ls->framing, ok[i].kind == PDB_LOGSTREAM_FILE || ok[i].kind == PDB_LOGSTREAM_HTTP
				 ? PDB_LOGSTREAM_LINES : PDB_LOGSTREAM_SYSLOG);
		pdb_logstream_spec_free(ls);
		free(text);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *text = pdb_xasprintf("{target: \"%s\", rate: 10}\n", bad[i]);
		assert_null(read_spec(dir, text, &err));
		assert_int_equal(err.code, PDB_EXIT_INPUT);
		assert_int_equal(err.line, 1);
		free(text);
	}
	free(dir);
}

static struct pdb_logstream_spec *spec_for(int kind, const char *text, int framing)
{
	struct pdb_logstream_spec *ls = pdb_xcalloc(1, sizeof *ls);

	ls->target.kind = kind;
	ls->target.text = pdb_xstrdup(text);
	ls->framing = framing;
	return ls;
}

/* RFC 5424 with octet counting on a stream socket: "LEN SP MSG", LEN the bytes of MSG. */
static void test_octet_counting(void **state)
{
	char *dir = temp_dir(), *path = pdb_xasprintf("%s/s.sock", dir), *text = pdb_xasprintf("unix:%s", path);
	struct pdb_logstream_spec *ls = spec_for(PDB_LOGSTREAM_UNIX, text, PDB_LOGSTREAM_SYSLOG);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	static const char *const msgs[] = { "seq=0 hello", "seq=1 caf\xc3\xa9 au lait" };
	struct pdb_logstream_sender *s;
	struct pdb_err err;
	char buf[4096], *p;
	size_t have = 0;
	regex_t re;
	int lfd, cfd;

	(void)state;
	ls->target.path = pdb_xstrdup(path);
	strcpy(sa.sun_path, path);
	assert_true((lfd = socket(AF_UNIX, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(bind(lfd, (struct sockaddr *)&sa, sizeof sa), 0);
	assert_int_equal(listen(lfd, 1), 0);
	assert_non_null(s = pdb_logstream_sender_open(ls, &err));
	for (size_t i = 0; i < 2; i++)
		pdb_logstream_sender_add(s, msgs[i], strlen(msgs[i]));
	assert_int_equal(pdb_logstream_sender_pending(s), 2);
	assert_int_equal(pdb_logstream_sender_flush(s, now_ns() + 1000000000LL), 0);
	assert_int_equal(pdb_logstream_sender_pending(s), 0);
	pdb_logstream_sender_close(s);
	assert_true((cfd = accept(lfd, NULL, NULL)) >= 0);
	for (ssize_t n; (n = read(cfd, buf + have, sizeof buf - 1 - have)) > 0;)
		have += (size_t)n;
	buf[have] = '\0';
	assert_int_equal(regcomp(&re, "^<134>1 [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}Z "
				 "[^ ]+ perfdb [0-9]+ - - ", REG_EXTENDED | REG_NOSUB), 0);
	p = buf;
	for (size_t i = 0; i < 2; i++) {
		char *end, *msg;
		long len = strtol(p, &end, 10);
		assert_true(end > p && *end == ' ');
		assert_true(end + 1 + len <= buf + have);
		msg = pdb_xstrndup(end + 1, (size_t)len);
		assert_int_equal(regexec(&re, msg, 0, NULL, 0), 0);
		assert_string_equal(msg + strlen(msg) - strlen(msgs[i]), msgs[i]);
		free(msg);
		p = end + 1 + len;
	}
	assert_ptr_equal(p, buf + have);
	regfree(&re);
	close(cfd);
	close(lfd);
	unlink(path);
	rmdir(dir);
	pdb_logstream_spec_free(ls);
	free(text);
	free(path);
	free(dir);
}

/* Plain lines over udp: one datagram each, no newline. */
static void test_udp_datagrams(void **state)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof sa;
	struct pdb_logstream_spec *ls;
	struct pdb_logstream_sender *s;
	struct pdb_err err;
	char buf[256], *text;
	int fd;

	(void)state;
	assert_true((fd = socket(AF_INET, SOCK_DGRAM, 0)) >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	text = pdb_xasprintf("udp://127.0.0.1:%d", ntohs(sa.sin_port));
	ls = spec_for(PDB_LOGSTREAM_UDP, text, PDB_LOGSTREAM_LINES);
	ls->target.host = pdb_xstrdup("127.0.0.1");
	ls->target.port = pdb_xasprintf("%d", ntohs(sa.sin_port));
	assert_non_null(s = pdb_logstream_sender_open(ls, &err));
	pdb_logstream_sender_add(s, "one", 3);
	pdb_logstream_sender_add(s, "two two", 7);
	pdb_logstream_sender_add(s, "3", 1);
	assert_int_equal(pdb_logstream_sender_flush(s, now_ns() + 1000000000LL), 0);
	pdb_logstream_sender_close(s);
	static const char *const want[] = { "one", "two two", "3" };
	for (size_t i = 0; i < 3; i++) {
		ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
		assert_true(n >= 0);
		buf[n] = '\0';
		assert_string_equal(buf, want[i]);
	}
	close(fd);
	pdb_logstream_spec_free(ls);
	free(text);
}

static void tally_init(struct pdb_logstream_tally *t)
{
	memset(t, 0, sizeof *t);
	t->delay = pdb_xcalloc(1, sizeof *t->delay);
	t->rate = 1000;
	t->t0 = now_ns();
}

static void tally_release(struct pdb_logstream_tally *t)
{
	free(t->delay);
	free(t->arrived);
	free(t->delay_p99);
}

/* Wait (up to 5 s) until the probe has received want. */
static void wait_received(struct pdb_logstream_tally *t, unsigned long long want)
{
	for (int i = 0; i < 500 && atomic_load(&t->received) < want; i++)
		nap_ms(10);
	assert_int_equal(atomic_load(&t->received), want);
}

/* A followed file: what it held before is not counted; duplicates, other
 * runs' sequences and lines that do not match are told apart; truncation
 * and rotation (a new file of that name) are followed. */
static void test_file_probe(void **state)
{
	char *dir = temp_dir(), *path = pdb_xasprintf("%s/out.log", dir), *old = pdb_xasprintf("%s.1", path);
	struct pdb_logstream_probe p = { .file = path, .match = "seq=([0-9]+)" };
	struct pdb_logstream_tally t;
	struct pdb_logstream_prober *pr;
	struct pdb_err err;

	(void)state;
	tally_init(&t);
	t.base = 100;                                   /* this run's $SEQ: 100, 101, ... */
	write_file(path, "w", "seq=100 before\nseq=101 before\n");
	assert_non_null(pr = pdb_logstream_probe_open(&p, &t, &err));
	assert_int_equal(t.matched, 1);
	atomic_store(&t.sent, 6);
	assert_int_equal(pdb_logstream_probe_start(pr, &err), 0);
	write_file(path, "a", "a seq=100\nb seq=101\nc seq=102\nseq=101 again\nseq=106 not sent\n"
		   "seq=5 an earlier run\nno number\npartial seq=");
	wait_received(&t, 3);
	write_file(path, "a", "103 end\n");
	wait_received(&t, 4);
	write_file(path, "w", "seq=104\n");           /* truncated */
	wait_received(&t, 5);
	assert_int_equal(rename(path, old), 0);         /* rotated */
	write_file(path, "w", "seq=105\nseq=102\n");
	wait_received(&t, 6);
	nap_ms(100);
	pdb_logstream_probe_close(pr);
	assert_int_equal(t.lines, 11);
	assert_int_equal(t.duplicated, 2);
	assert_int_equal(t.foreign, 2);
	assert_int_equal(t.delay->n, 6);
	assert_true(t.last_change > t.t0);
	tally_release(&t);
	unlink(path);
	unlink(old);
	rmdir(dir);
	free(old);
	free(path);
	free(dir);
}

/* n lines {"seq":base+k} passed through jq -c . (Debian's jq 1.6 reads
 * numbers as doubles) into a followed file: the probe's tally. 0, or -1
 * when jq cannot be run. */
static int through_jq(struct pdb_logstream_tally *t, uint64_t base, unsigned n)
{
	char *dir = temp_dir(), *in = pdb_xasprintf("%s/in.json", dir), *out = pdb_xasprintf("%s/out.log", dir);
	char *cmd = pdb_xasprintf("jq -c . %s >> %s 2>/dev/null", in, out);
	struct pdb_logstream_probe p = { .file = out, .match = "\"seq\":([0-9]+)" };
	struct pdb_logstream_prober *pr;
	struct pdb_err err;
	FILE *f = fopen(in, "w");
	int ret;

	assert_non_null(f);
	for (unsigned k = 0; k < n; k++)
		fprintf(f, "{\"seq\":%llu,\"app\":\"shop\"}\n", (unsigned long long)(base + k));
	fclose(f);
	write_file(out, "w", "");
	tally_init(t);
	t->base = base;
	atomic_store(&t->sent, n);
	assert_non_null(pr = pdb_logstream_probe_open(&p, t, &err));
	assert_int_equal(pdb_logstream_probe_start(pr, &err), 0);
	ret = system(cmd) == 0 ? 0 : -1;
	for (int i = 0; i < 100 && ret == 0 && t->lines < n; i++)
		nap_ms(10);
	nap_ms(50);
	pdb_logstream_probe_close(pr);
	unlink(in);
	unlink(out);
	rmdir(dir);
	free(cmd);
	free(out);
	free(in);
	free(dir);
	return ret;
}

/* A sequence above 2^53 (as $SEQ was, about 1.8e18) comes out of jq 1.6
 * rounded: values near ours but not ours, and ours again; the probe says
 * the stage rounds. Below 2^53 (where $SEQ is now) every line is itself. */
static void test_rounded_by_jq(void **state)
{
	struct pdb_logstream_tally t;

	(void)state;
	if (through_jq(&t, 1796137596918000000ULL, 2000) < 0) {
		tally_release(&t);
		skip();
	}
	assert_int_equal(t.lines, 2000);
	assert_true(atomic_load(&t.received) < 2000);
	assert_true(t.near > 0 && t.duplicated > 0);
	assert_true(pdb_logstream_rounded(&t));
	tally_release(&t);
	assert_int_equal(through_jq(&t, 999999999000000ULL, 2000), 0);
	assert_int_equal(atomic_load(&t.received), 2000);
	assert_int_equal(t.duplicated + t.foreign + t.near, 0);
	assert_false(pdb_logstream_rounded(&t));
	tally_release(&t);
}

/* A command probe counts the growth of its count from the first run. */
static void test_command_probe(void **state)
{
	char *dir = temp_dir(), *path = pdb_xasprintf("%s/count", dir), *cmd = pdb_xasprintf("cat %s", path);
	struct pdb_logstream_probe p = { .command = cmd, .value = "\"count\":([0-9]+)", .every = 0.05 };
	struct pdb_logstream_tally t;
	struct pdb_logstream_prober *pr;
	struct pdb_err err;

	(void)state;
	tally_init(&t);
	write_file(path, "w", "{\"count\":10}\n");
	assert_non_null(pr = pdb_logstream_probe_open(&p, &t, &err));
	assert_int_equal(t.matched, 0);
	assert_int_equal(t.command, 1);
	assert_int_equal(pdb_logstream_probe_start(pr, &err), 0);
	write_file(path, "w", "{\"count\":17}\n");
	wait_received(&t, 7);
	pdb_logstream_probe_close(pr);
	tally_release(&t);
	/* a command whose output has no count fails before anything is sent */
	tally_init(&t);
	write_file(path, "w", "{\"error\":true}\n");
	assert_null(pdb_logstream_probe_open(&p, &t, &err));
	assert_int_equal(err.code, PDB_EXIT_RUNTIME);
	tally_release(&t);
	unlink(path);
	rmdir(dir);
	free(cmd);
	free(path);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_octet_counting),
		cmocka_unit_test(test_udp_datagrams),
		cmocka_unit_test(test_file_probe),
		cmocka_unit_test(test_command_probe),
		cmocka_unit_test(test_rounded_by_jq),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
