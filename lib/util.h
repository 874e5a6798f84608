/* Small helpers: allocation, bounded number parsing, growable buffers, ids, time. */
#ifndef PDB_UTIL_H
#define PDB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Allocation that aborts on out-of-memory (the only sane response in a CLI). */
void *pdb_xmalloc(size_t n);
void *pdb_xcalloc(size_t n, size_t size);
void *pdb_xrealloc(void *p, size_t n);
char *pdb_xstrdup(const char *s);           /* NULL -> NULL */
char *pdb_xstrndup(const char *s, size_t n);
char *pdb_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *pdb_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Grow *items (of item size) so that it holds at least need items. */
void pdb_grow(void **items, size_t *cap, size_t need, size_t size);

/* 64 bits at p, little-endian (the store's blobs), byte by byte so that
 * the compiler makes each one load or store on any host. */
static inline void pdb_put_le64(unsigned char *p, uint64_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
	p[4] = (unsigned char)(v >> 32);
	p[5] = (unsigned char)(v >> 40);
	p[6] = (unsigned char)(v >> 48);
	p[7] = (unsigned char)(v >> 56);
}
static inline uint64_t pdb_get_le64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
	       (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
	       (uint64_t)p[7] << 56;
}

/* qsort and bsearch order of int64_t (run ids) */
int pdb_cmp_int64(const void *a, const void *b);

/* The length of the longest prefix of s[0..n) that is valid UTF-8 (n when
 * all of it is): no overlong forms, surrogates or code points past U+10FFFF. */
size_t pdb_utf8_valid_len(const char *s, size_t n);

/* The length of the longest prefix of s of at most max bytes that ends
 * at the end of a UTF-8 character (strlen(s) when that is at most max). */
size_t pdb_utf8_prefix(const char *s, size_t max);
/* s copied into out (size bytes with the NUL; out may be s), cut when it
 * does not fit at the end of a whole UTF-8 character, never inside one
 * (cairo refuses a cut sequence and the chart with it), and then ending in
 * "…" when size leaves room for it. Returns 1 when cut, else 0. */
int pdb_utf8_copy(char *out, size_t size, const char *s);

/* Bounded parsing: the whole string must be a number in range. 0 or -1. */
int pdb_parse_double(const char *s, double *out);
int pdb_parse_int64(const char *s, int64_t min, int64_t max, int64_t *out);

/* A growable string. pdb_buf_init before use, pdb_buf_release after. */
struct pdb_buf {
	char *data;
	size_t len, cap;
};
void pdb_buf_init(struct pdb_buf *b);
void pdb_buf_release(struct pdb_buf *b);
void pdb_buf_add(struct pdb_buf *b, const char *s, size_t n);
void pdb_buf_puts(struct pdb_buf *b, const char *s);
void pdb_buf_printf(struct pdb_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Random version-4 UUID into out (37 bytes). */
void pdb_uuid4(char out[37]);
/* A uuid (version 8) from the sha256 of the len bytes at data: the same
 * bytes, the same uuid (a random one if the digest fails). */
void pdb_uuid_of_bytes(const void *data, size_t len, char out[37]);
/* Current UTC time (or SOURCE_DATE_EPOCH) as "YYYY-MM-DDTHH:MM:SSZ". */
void pdb_now_iso(char out[32]);

/* SHA-256 of a file as 64 hex characters; 0 or -1 (errno set). */
int pdb_sha256_file(const char *path, char out[65]);
/* The same of len bytes; 0 or -1. */
int pdb_sha256_bytes(const void *data, size_t len, char out[65]);
/* The first max bytes of a file, NUL-terminated (malloc'ed), or NULL when it
 * cannot be opened: a command's own output, read whole up to a bound. */
char *pdb_read_file_capped(const char *path, size_t max);

/* Shortest text that reads back as the same double ("%.17g" trimmed). */
void pdb_fmt_double(double v, char out[32]);

/* fnmatch-style glob; NULL pattern matches everything. */
int pdb_glob_match(const char *pattern, const char *s);
/* A glob that matches exactly s (its * ? [ ] \\ escaped). Caller frees. */
char *pdb_glob_quote(const char *s);

/* "Did you mean": Damerau-Levenshtein distance (optimal string alignment:
 * insert, delete, substitute, swap two neighbours; each costs 1). */
size_t pdb_edit_distance(const char *a, const char *b);
/* The candidate closest to word within distance 2 (and less than word's
 * length, so "x" suggests nothing), the first on a tie; NULL when none is
 * close or word is one of them. Returns one of candidates. */
const char *pdb_closest(const char *word, const char *const *candidates, size_t n);
/* Like pdb_closest, and when no candidate is close, one that word misspells
 * an abbreviation of (within distance 1 of a prefix, word of 4 or more
 * characters): for options getopt_long takes abbreviated, "tresh" -> "threshold". */
const char *pdb_closest_abbrev(const char *word, const char *const *candidates, size_t n);
/* " (did you mean KEY?)" for pdb_closest's answer, or "" when none: into
 * buf, which is returned. */
const char *pdb_did_you_mean(const char *word, const char *const *candidates, size_t n,
			     char *buf, size_t size);

#endif
