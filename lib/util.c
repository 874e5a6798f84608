/* Small helpers: allocation, bounded number parsing, growable buffers, ids, time, "did you mean". */
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

/* The one place the library speaks and stops: an allocation that fails leaves
 * nothing to return to (an open transaction is rolled back by SQLite itself).
 * Exit 4, a runtime failure, never SIGABRT or a bad-input status. */
static void out_of_memory(void)
{
	static const char msg[] = "perfdb: out of memory\n";

	if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) { /* nothing more to try */ }
	_exit(4);
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

char *pdb_xvasprintf(const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	return s;
}

char *pdb_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = pdb_xvasprintf(fmt, ap);
	va_end(ap);
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

/* r as a uuid of version (4, 8), variant RFC 9562. */
static void format_uuid(unsigned char r[16], int version, char out[37])
{
	r[6] = (unsigned char)((r[6] & 0x0f) | version << 4);
	r[8] = (unsigned char)((r[8] & 0x3f) | 0x80);
	snprintf(out, 37,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10],
		 r[11], r[12], r[13], r[14], r[15]);
}

void pdb_uuid_of_bytes(const void *data, size_t len, char out[37])
{
	unsigned char r[16];
	char hex[65];

	if (pdb_sha256_bytes(data, len, hex) < 0) {
		pdb_uuid4(out);
		return;
	}
	for (size_t i = 0; i < sizeof r; i++) {
		unsigned v;
		sscanf(hex + 2 * i, "%2x", &v);
		r[i] = (unsigned char)v;
	}
	format_uuid(r, 8, out);
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
	format_uuid(r, 4, out);
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

size_t pdb_edit_distance(const char *a, const char *b)
{
	size_t m = strlen(a), n = strlen(b), d;
	/* three rows of the table: i-2, i-1, i */
	size_t *block = pdb_xcalloc(3 * (n + 1), sizeof *block);
	size_t *prev2 = block, *prev = block + n + 1, *cur = prev + n + 1, *t;

	for (size_t j = 0; j <= n; j++)
		prev[j] = j;
	for (size_t i = 1; i <= m; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= n; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = prev[j - 1] + cost;
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[n];
	free(block);
	return d;
}

const char *pdb_closest(const char *word, const char *const *candidates, size_t n)
{
	const char *best = NULL;
	size_t best_d = 3, len = strlen(word);

	for (size_t i = 0; i < n; i++) {
		size_t d, clen = strlen(candidates[i]);
		if (clen > len + 2 || len > clen + 2)
			continue; /* the lengths alone are more than 2 apart */
		d = pdb_edit_distance(word, candidates[i]);
		if (d == 0)
			return NULL;
		if (d < best_d && d < len) {
			best = candidates[i];
			best_d = d;
		}
	}
	return best;
}

const char *pdb_closest_abbrev(const char *word, const char *const *candidates, size_t n)
{
	const char *best = pdb_closest(word, candidates, n);
	size_t len = strlen(word);

	if (best || len < 4)
		return best;
	for (size_t i = 0; i < n; i++)
		if (strcmp(word, candidates[i]) == 0)
			return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t clen = strlen(candidates[i]);
		/* a prefix one longer or shorter than word allows one insert or delete */
		for (size_t k = len - 1; k <= len + 1 && k <= clen; k++) {
			char *prefix = pdb_xstrndup(candidates[i], k);
			size_t d = pdb_edit_distance(word, prefix);
			free(prefix);
			if (d <= 1)
				return candidates[i];
		}
	}
	return NULL;
}

const char *pdb_did_you_mean(const char *word, const char *const *candidates, size_t n,
			     char *buf, size_t size)
{
	const char *near = pdb_closest(word, candidates, n);

	if (size)
		buf[0] = 0;
	if (near && size)
		snprintf(buf, size, " (did you mean %s?)", near);
	return buf;
}

size_t pdb_utf8_prefix(const char *s, size_t max)
{
	size_t n = strnlen(s, max + 1);

	if (n <= max)
		return n;
	/* s[max] is the first byte left out: a continuation byte there means
	 * the character it belongs to does not fit whole */
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	return max;
}

int pdb_utf8_copy(char *out, size_t size, const char *s)
{
	static const char ellipsis[] = "…";
	size_t len = strlen(s), keep;

	if (size == 0)
		return len > 0;
	if (len < size) {
		memmove(out, s, len + 1);
		return 0;
	}
	keep = pdb_utf8_prefix(s, size - 1 >= 2 * (sizeof ellipsis - 1) ? size - sizeof ellipsis
									 : size - 1);
	memmove(out, s, keep);
	out[keep] = 0;
	if (keep + sizeof ellipsis <= size)
		memcpy(out + keep, ellipsis, sizeof ellipsis);
	return 1;
}

size_t pdb_utf8_valid_len(const char *text, size_t n)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i];
		size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
			   : (c & 0xf8) == 0xf0 ? 4 : 0;
		unsigned cp;

		if (len == 0 || i + len > n)
			return i;
		cp = len == 1 ? c : c & (0xff >> (len + 1));
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return i;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return i;
		i += len;
	}
	return n;
}

char *pdb_glob_quote(const char *s)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	for (; *s; s++) {
		if (strchr("*?[]\\", *s))
			pdb_buf_puts(&b, "\\");
		pdb_buf_add(&b, s, 1);
	}
	return b.data;
}

int pdb_cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

char *pdb_read_file_capped(const char *path, size_t max)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = pdb_xmalloc(max + 1);
	n = fread(buf, 1, max, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}
