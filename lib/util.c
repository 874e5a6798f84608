/* Small helpers: allocation, bounded number parsing, growable buffers, ids, time. */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void out_of_memory(void)
{
	fputs("perfdb: out of memory\n", stderr);
	abort();
}

void *pdb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *pdb_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *pdb_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *pdb_xstrdup(const char *s)
{
	return s ? pdb_xstrndup(s, strlen(s)) : NULL;
}

char *pdb_xstrndup(const char *s, size_t n)
{
	char *p = pdb_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *pdb_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		out_of_memory();
	return s;
}

void pdb_grow(void **items, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 8;

	if (need <= *cap)
		return;
	while (c < need)
		c *= 2;
	*items = pdb_xrealloc(*items, c * size);
	*cap = c;
}

int pdb_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || (errno == ERANGE && fabs(v) > 1.0))
		return -1;
	*out = v;
	return 0;
}

int pdb_parse_int64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0' || errno == ERANGE || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

void pdb_buf_init(struct pdb_buf *b)
{
	b->data = NULL;
	b->len = b->cap = 0;
}

void pdb_buf_release(struct pdb_buf *b)
{
	free(b->data);
	pdb_buf_init(b);
}

void pdb_buf_add(struct pdb_buf *b, const char *s, size_t n)
{
	pdb_grow((void **)&b->data, &b->cap, b->len + n + 1, 1);
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void pdb_buf_puts(struct pdb_buf *b, const char *s)
{
	pdb_buf_add(b, s, strlen(s));
}

void pdb_buf_printf(struct pdb_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	pdb_grow((void **)&b->data, &b->cap, b->len + (size_t)n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void pdb_uuid4(char out[37])
{
	unsigned char r[16];
	size_t got = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		ssize_t n;
		while (got < sizeof r && (n = read(fd, r + got, sizeof r - got)) > 0)
			got += (size_t)n;
		close(fd);
	}
	if (got < sizeof r) {  /* no /dev/urandom: time and pid, still unique enough */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		srand((unsigned)(ts.tv_nsec ^ ts.tv_sec ^ getpid()));
		for (size_t i = 0; i < sizeof r; i++)
			r[i] = (unsigned char)rand();
	}
	r[6] = (unsigned char)((r[6] & 0x0f) | 0x40);
	r[8] = (unsigned char)((r[8] & 0x3f) | 0x80);
	snprintf(out, 37,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10],
		 r[11], r[12], r[13], r[14], r[15]);
}

void pdb_now_iso(char out[32])
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	int64_t fixed;
	time_t t = time(NULL);
	struct tm tm;

	if (epoch && pdb_parse_int64(epoch, 0, INT64_MAX / 2, &fixed) == 0)
		t = (time_t)fixed;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* SHA-256 (FIPS 180-4). */
struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char block[64];
	size_t fill;
};

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
			      ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
		uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
			      ((a & b) ^ (a & c) ^ (b & c));
		h = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static void sha256_init(struct sha256 *s)
{
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372,
		0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	memcpy(s->h, h0, sizeof h0);
	s->len = 0;
	s->fill = 0;
}

static void sha256_update(struct sha256 *s, const unsigned char *p, size_t n)
{
	s->len += n;
	while (n > 0) {
		size_t take = 64 - s->fill < n ? 64 - s->fill : n;
		memcpy(s->block + s->fill, p, take);
		s->fill += take;
		p += take;
		n -= take;
		if (s->fill == 64) {
			sha256_block(s, s->block);
			s->fill = 0;
		}
	}
}

static void sha256_final(struct sha256 *s, char out[65])
{
	uint64_t bits = s->len * 8;
	unsigned char pad = 0x80, zero = 0, len[8];

	sha256_update(s, &pad, 1);
	while (s->fill != 56)
		sha256_update(s, &zero, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(s, len, 8);
	for (int i = 0; i < 8; i++)
		snprintf(out + 8 * i, 9, "%08x", s->h[i]);
}

int pdb_sha256_file(const char *path, char out[65])
{
	unsigned char buf[65536];
	struct sha256 s;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	sha256_init(&s);
	while ((n = read(fd, buf, sizeof buf)) > 0)
		sha256_update(&s, buf, (size_t)n);
	close(fd);
	if (n < 0)
		return -1;
	sha256_final(&s, out);
	return 0;
}

void pdb_fmt_double(double v, char out[32])
{
	if (isnan(v)) {
		snprintf(out, 32, "nan");
		return;
	}
	if (isinf(v)) {
		snprintf(out, 32, v > 0 ? "inf" : "-inf");
		return;
	}
	/* most doubles need 15 to 17 digits; %g drops trailing zeros, so 0.1
	 * still prints as "0.1" at 15 */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(out, 32, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			return;
	}
}

int pdb_glob_match(const char *pattern, const char *s)
{
	return !pattern || fnmatch(pattern, s, 0) == 0;
}
