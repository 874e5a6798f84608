/* Log stream senders: framed lines to tcp, udp, unix sockets, a file or an http endpoint. */
#include "logstream/sender.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

#define PRI "<134>"             /* local0.info */
#define RESPONSE_MAX 65536

struct pdb_logstream_sender {
	const struct pdb_logstream_spec *ls;
	int fd;
	int dgram;                  /* one datagram per message */
	struct pdb_buf out;         /* framed messages (http: the body) */
	struct pdb_buf msg;         /* one message being framed */
	size_t *ends;               /* datagrams: where each message ends in out */
	size_t nends, capends, pending;
	char host[256];
	long pid;
	time_t stamp_sec;           /* the second stamp holds */
	char stamp[32];             /* "2026-12-01T14:42:24" */
	char error[256];
};

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int fail(struct pdb_logstream_sender *s, const char *what)
{
	snprintf(s->error, sizeof s->error, "%s: %s: %s", s->ls->target.text, what, strerror(errno));
	return -1;
}

static int connect_inet(struct pdb_logstream_sender *s, int type)
{
	const struct pdb_logstream_target *t = &s->ls->target;
	struct addrinfo hints = { .ai_socktype = type }, *res = NULL, *a;
	int e = getaddrinfo(t->host, t->port, &hints, &res), fd = -1;

	if (e) {
		snprintf(s->error, sizeof s->error, "%s: %s", t->text, gai_strerror(e));
		return -1;
	}
	for (a = res; a && fd < 0; a = a->ai_next) {
		if ((fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol)) < 0)
			continue;
		if (connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
			fail(s, "connect");
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0 && !s->error[0])
		fail(s, "socket");
	return fd;
}

static int connect_unix(struct pdb_logstream_sender *s)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(s->ls->target.path) >= sizeof sa.sun_path) {
		snprintf(s->error, sizeof s->error, "%s: path too long for a socket", s->ls->target.text);
		return -1;
	}
	strcpy(sa.sun_path, s->ls->target.path);
	/* a stream socket, else (like /dev/log) a datagram socket */
	for (int type = SOCK_STREAM; ; type = SOCK_DGRAM) {
		if ((fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0)) < 0)
			return fail(s, "socket");
		if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
			s->dgram = type == SOCK_DGRAM;
			return fd;
		}
		close(fd);
		if (errno != EPROTOTYPE || type == SOCK_DGRAM)
			return fail(s, "connect");
	}
}

static int reconnect(struct pdb_logstream_sender *s)
{
	const struct pdb_logstream_target *t = &s->ls->target;

	if (s->fd >= 0)
		return 0;
	s->error[0] = '\0';
	switch (t->kind) {
	case PDB_LOGSTREAM_TCP: s->fd = connect_inet(s, SOCK_STREAM); break;
	case PDB_LOGSTREAM_HTTP:
		/* a request's head and body go out at once, not after a delayed ack */
		if ((s->fd = connect_inet(s, SOCK_STREAM)) >= 0)
			setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &(int){ 1 }, sizeof(int));
		break;
	case PDB_LOGSTREAM_UDP: s->fd = connect_inet(s, SOCK_DGRAM); break;
	case PDB_LOGSTREAM_UNIX: s->fd = connect_unix(s); break;
	case PDB_LOGSTREAM_FILE:
		if ((s->fd = open(t->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) < 0)
			fail(s, "open");
		break;
	}
	return s->fd < 0 ? -1 : 0;
}

struct pdb_logstream_sender *pdb_logstream_sender_open(const struct pdb_logstream_spec *ls,
						       struct pdb_err *err)
{
	struct pdb_logstream_sender *s = pdb_xcalloc(1, sizeof *s);

	s->ls = ls;
	s->fd = -1;
	s->dgram = ls->target.kind == PDB_LOGSTREAM_UDP;
	s->stamp_sec = -1;
	s->pid = (long)getpid();
	pdb_buf_init(&s->out);
	pdb_buf_init(&s->msg);
	if (gethostname(s->host, sizeof s->host - 1) < 0 || !s->host[0])
		strcpy(s->host, "-");
	s->host[strcspn(s->host, " ")] = '\0';
	if (reconnect(s) < 0) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "stream: %s", s->error);
		pdb_logstream_sender_close(s);
		return NULL;
	}
	return s;
}

void pdb_logstream_sender_close(struct pdb_logstream_sender *s)
{
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	pdb_buf_release(&s->out);
	pdb_buf_release(&s->msg);
	free(s->ends);
	free(s);
}

/* "<134>1 2026-12-01T14:42:24.123456Z HOST perfdb PID - - " */
static void syslog_header(struct pdb_logstream_sender *s, struct pdb_buf *b)
{
	struct timespec wall;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &wall);
	if (wall.tv_sec != s->stamp_sec) {
		gmtime_r(&wall.tv_sec, &tm);
		strftime(s->stamp, sizeof s->stamp, "%Y-%m-%dT%H:%M:%S", &tm);
		s->stamp_sec = wall.tv_sec;
	}
	pdb_buf_printf(b, PRI "1 %s.%06ldZ %s perfdb %ld - - ", s->stamp, wall.tv_nsec / 1000, s->host, s->pid);
}

void pdb_logstream_sender_add(struct pdb_logstream_sender *s, const char *msg, size_t len)
{
	int octets = !s->dgram && s->ls->framing == PDB_LOGSTREAM_SYSLOG &&
		     (s->ls->target.kind == PDB_LOGSTREAM_TCP || s->ls->target.kind == PDB_LOGSTREAM_UNIX);

	if (octets) {
		/* octet counting: "LEN SP MSG" */
		s->msg.len = 0;
		syslog_header(s, &s->msg);
		pdb_buf_add(&s->msg, msg, len);
		pdb_buf_printf(&s->out, "%zu ", s->msg.len);
		pdb_buf_add(&s->out, s->msg.data, s->msg.len);
	} else {
		if (s->ls->framing == PDB_LOGSTREAM_SYSLOG)
			syslog_header(s, &s->out);
		pdb_buf_add(&s->out, msg, len);
		if (!s->dgram)
			pdb_buf_add(&s->out, "\n", 1);
	}
	if (s->dgram) {
		pdb_grow((void **)&s->ends, &s->capends, s->nends + 1, sizeof *s->ends);
		s->ends[s->nends++] = s->out.len;
	}
	s->pending++;
}

size_t pdb_logstream_sender_pending(const struct pdb_logstream_sender *s)
{
	return s->pending;
}

/* Wait until fd is ready for events, up to deadline: 0, or -1 (timed out). */
static int wait_fd(int fd, short events, int64_t deadline_ns)
{
	struct pollfd p = { .fd = fd, .events = events };

	for (;;) {
		int64_t left = (deadline_ns - now_ns()) / 1000000;
		int n = poll(&p, 1, left < 0 ? 0 : left > 1000 ? 1000 : (int)left + 1);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -1;
		if (n == 0 && now_ns() >= deadline_ns)
			return -1;
	}
}

/* Write all of data to a stream. 0, or -1 with s->error. */
static int write_all(struct pdb_logstream_sender *s, const char *data, size_t len, int64_t deadline_ns)
{
	int sock = s->ls->target.kind != PDB_LOGSTREAM_FILE;

	while (len > 0) {
		ssize_t n = sock ? send(s->fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT) : write(s->fd, data, len);
		if (n > 0) {
			data += n;
			len -= (size_t)n;
		} else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (wait_fd(s->fd, POLLOUT, deadline_ns) < 0) {
				snprintf(s->error, sizeof s->error, "%s: blocked past the end of the run", s->ls->target.text);
				return -1;
			}
		} else if (n < 0 && errno != EINTR) {
			return fail(s, "send");
		}
	}
	return 0;
}

/* The value of header name (with its colon) in head, up to the line's end, or NULL. */
static const char *header(const char *head, const char *end, const char *name, size_t *len)
{
	size_t n = strlen(name);

	for (const char *p = head; p && p < end; p = strstr(p, "\r\n"), p = p ? p + 2 : NULL)
		if (!strncasecmp(p, name, n)) {
			p += n;
			while (*p == ' ')
				p++;
			*len = strcspn(p, "\r");
			return p;
		}
	return NULL;
}

/* Read an http response on s->fd: its status code, or -1. The connection
 * is closed unless it is kept alive and the body's end was found. */
static int http_response(struct pdb_logstream_sender *s, int64_t deadline_ns)
{
	char *buf = pdb_xmalloc(RESPONSE_MAX + 1), num[24];
	const char *body = NULL, *v;
	size_t have = 0, len;
	int status = -1, keep = 0, chunked = 0;
	int64_t clen = -1;

	for (;;) {
		ssize_t n;
		buf[have] = '\0';
		if (!body && (body = strstr(buf, "\r\n\r\n"))) {
			body += 4;
			/* "HTTP/1.1 200 OK": three digits after the version */
			if (strncmp(buf, "HTTP/1.", 7) || !isdigit((unsigned char)buf[7]) || buf[8] != ' ' ||
			    !isdigit((unsigned char)buf[9]) || !isdigit((unsigned char)buf[10]) ||
			    !isdigit((unsigned char)buf[11]))
				break;
			status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
			keep = !((v = header(buf, body, "connection:", &len)) && len == 5 && !strncasecmp(v, "close", 5));
			chunked = (v = header(buf, body, "transfer-encoding:", &len)) && len == 7 && !strncasecmp(v, "chunked", 7);
			if ((v = header(buf, body, "content-length:", &len)) && len < sizeof num) {
				memcpy(num, v, len);
				num[len] = '\0';
				if (pdb_parse_int64(num, 0, RESPONSE_MAX, &clen) < 0)
					break;
			}
			keep &= clen >= 0 || chunked;
		}
		if (body && clen >= 0 && have >= (size_t)(body - buf) + (size_t)clen)
			break;
		if (body && chunked && (!strncmp(body, "0\r\n\r\n", 5) || strstr(body, "\r\n0\r\n\r\n")))
			break;
		if (have >= RESPONSE_MAX || wait_fd(s->fd, POLLIN, deadline_ns) < 0) {
			keep = 0;
			break;
		}
		if ((n = recv(s->fd, buf + have, RESPONSE_MAX - have, 0)) < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			keep = 0;
			break;
		}
		have += (size_t)n;
	}
	free(buf);
	if (!keep) {
		close(s->fd);
		s->fd = -1;
	}
	return status;
}

static int post(struct pdb_logstream_sender *s, int64_t deadline_ns)
{
	const struct pdb_logstream_spec *ls = s->ls;
	struct pdb_buf head;
	int ret, status;

	pdb_buf_init(&head);
	pdb_buf_printf(&head, "POST %s HTTP/1.1\r\nHost: %s:%s\r\nUser-Agent: perfdb\r\n"
		       "Content-Type: %s\r\nContent-Length: %zu\r\n\r\n",
		       ls->target.path, ls->target.host, ls->target.port, ls->content_type, s->out.len);
	ret = write_all(s, head.data, head.len, deadline_ns);
	pdb_buf_release(&head);
	if (ret < 0 || write_all(s, s->out.data, s->out.len, deadline_ns) < 0)
		return -1;
	if ((status = http_response(s, deadline_ns)) < 200 || status > 299) {
		if (status < 0)
			snprintf(s->error, sizeof s->error, "%s: no http response", ls->target.text);
		else
			snprintf(s->error, sizeof s->error, "%s: http status %d", ls->target.text, status);
		return -1;
	}
	return 0;
}

uint64_t pdb_logstream_sender_flush(struct pdb_logstream_sender *s, int64_t deadline_ns)
{
	uint64_t failed = 0;
	size_t start = 0;

	if (s->pending == 0)
		return 0;
	if (reconnect(s) < 0) {
		failed = s->pending;
		goto out;
	}
	if (s->dgram) {
		for (size_t i = 0; i < s->nends; start = s->ends[i++])
			if (send(s->fd, s->out.data + start, s->ends[i] - start, MSG_NOSIGNAL) < 0) {
				fail(s, "send");
				failed++;
			}
	} else if (s->ls->target.kind == PDB_LOGSTREAM_HTTP ? post(s, deadline_ns) < 0
		   : write_all(s, s->out.data, s->out.len, deadline_ns) < 0) {
		failed = s->pending;
		if (s->fd >= 0 && s->ls->target.kind != PDB_LOGSTREAM_HTTP) {
			close(s->fd); /* a stream broken mid-message: start afresh */
			s->fd = -1;
		}
	}
out:
	s->out.len = 0;
	s->nends = 0;
	s->pending = 0;
	return failed;
}

const char *pdb_logstream_sender_error(const struct pdb_logstream_sender *s)
{
	return s->error;
}
