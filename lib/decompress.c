/* Decompress: gzip, zstd and xz result files (and a UTF-8 byte order mark),
 * recognised by their first bytes, and pipes, into temporary files that have
 * no name, within limits of size and ratio. */
#include "decompress.h"

#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define CHUNK 65536

enum kind { NONE, GZIP, ZSTD, XZ, BOM };

static enum kind kind_of(const unsigned char *head, size_t len)
{
	if (len >= 2 && head[0] == 0x1f && head[1] == 0x8b)
		return GZIP;
	if (len >= 4 && memcmp(head, "\x28\xb5\x2f\xfd", 4) == 0)
		return ZSTD;
	if (len >= 6 && memcmp(head, "\xfd" "7zXZ\0", 6) == 0)
		return XZ;
	if (len >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
		return BOM;
	return NONE;
}

const char *pdb_compression_of(const unsigned char *head, size_t len)
{
	static const char *const names[] = { NULL, "gzip", "zstd", "xz", NULL };
	return names[kind_of(head, len)];
}

struct pdb_input_limits pdb_input_limits_or_default(const struct pdb_input_limits *l)
{
	struct pdb_input_limits r = l ? *l : (struct pdb_input_limits){ 0 };

	if (r.max_bytes == 0)
		r.max_bytes = PDB_MAX_BYTES_DEFAULT;
	if (!(r.max_ratio > 0))
		r.max_ratio = PDB_MAX_RATIO_DEFAULT;
	return r;
}

void pdb_format_bytes(uint64_t n, char *buf, size_t size)
{
	static const char *const units[] = { "TiB", "GiB", "MiB", "KiB" };

	for (int i = 0; i < 4; i++) {
		uint64_t u = (uint64_t)1 << (10 * (4 - i));
		if (n >= u && n % u == 0) {
			snprintf(buf, size, "%llu %s", (unsigned long long)(n / u), units[i]);
			return;
		}
	}
	snprintf(buf, size, "%llu bytes", (unsigned long long)n);
}

void pdb_temp_init(struct pdb_temp *t)
{
	t->fd = -1;
	t->path[0] = '\0';
}

void pdb_temp_close(struct pdb_temp *t)
{
	if (t->fd >= 0)
		close(t->fd);
	pdb_temp_init(t);
}

static int temp_open(struct pdb_temp *t, struct pdb_err *err)
{
	const char *dir = getenv("TMPDIR");
	char name[4096];

	dir = dir && *dir ? dir : "/tmp";
	snprintf(name, sizeof name, "%s/perfdb-XXXXXX", dir);
	if ((t->fd = mkstemp(name)) < 0)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "temporary file in %s: %s", dir, strerror(errno));
	unlink(name); /* gone with the last descriptor, however perfdb ends */
	snprintf(t->path, sizeof t->path, "/proc/self/fd/%d", t->fd);
	return 0;
}

/* Where decompressed bytes go: the temporary file, within the limits. */
struct sink {
	FILE *out;
	struct pdb_input_limits lim;
	uint64_t origin_size; /* the ratio's base, or 0: the bytes read so far */
	uint64_t written;
	enum { FITS, TOO_BIG, TOO_DENSE } over;
	const char *why;      /* a write error */
};

/* Write n bytes of out, read bytes of input consumed so far: 0, or -1 past
 * a limit (over) or on a write error (why). */
static int put(struct sink *s, const void *buf, size_t n, uint64_t read)
{
	uint64_t base = s->origin_size ? s->origin_size : read;

	s->written += n;
	if (s->written > s->lim.max_bytes)
		s->over = TOO_BIG;
	else if (s->written > PDB_RATIO_FLOOR && (double)s->written > s->lim.max_ratio * (double)base)
		s->over = TOO_DENSE;
	if (s->over != FITS)
		return -1;
	if (n && fwrite(buf, 1, n, s->out) != n) {
		s->why = strerror(errno);
		return -1;
	}
	return 0;
}

/* Each inflater reads in, writes to s; 0, or -1 with a reason in why (or
 * in s: past a limit, a write error). */
static int gunzip(FILE *in, struct sink *s, const char **why)
{
	unsigned char ibuf[CHUNK], obuf[CHUNK];
	z_stream z = { 0 };
	uint64_t read = 0;
	int rc = Z_OK, ret = -1;

	if (inflateInit2(&z, 15 + 32) != Z_OK) { /* +32: gzip header */
		*why = "cannot start zlib";
		return -1;
	}
	for (;;) {
		if (z.avail_in == 0) {
			z.avail_in = (uInt)fread(ibuf, 1, sizeof ibuf, in);
			z.next_in = ibuf;
			read += z.avail_in;
			if (z.avail_in == 0)
				break;
		}
		if (rc == Z_STREAM_END) /* concatenated gzip members, as `cat a.gz b.gz` */
			inflateReset(&z);
		z.next_out = obuf;
		z.avail_out = sizeof obuf;
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
			*why = "corrupt gzip data";
			goto out;
		}
		if (put(s, obuf, sizeof obuf - z.avail_out, read) < 0)
			goto out;
	}
	if (rc != Z_STREAM_END) {
		*why = "truncated gzip data";
		goto out;
	}
	ret = 0;
out:
	inflateEnd(&z);
	return ret;
}

static int unzstd(FILE *in, struct sink *s, const char **why)
{
	unsigned char ibuf[CHUNK], obuf[CHUNK];
	ZSTD_DCtx *z = ZSTD_createDCtx();
	size_t left = 1, n;
	uint64_t read = 0;
	int ret = -1;

	if (!z) {
		*why = "cannot start zstd";
		return -1;
	}
	while ((n = fread(ibuf, 1, sizeof ibuf, in)) > 0) {
		ZSTD_inBuffer ib = { ibuf, n, 0 };
		read += n;
		while (ib.pos < ib.size) {
			ZSTD_outBuffer ob = { obuf, sizeof obuf, 0 };
			left = ZSTD_decompressStream(z, &ob, &ib);
			if (ZSTD_isError(left)) {
				*why = "corrupt zstd data";
				goto out;
			}
			if (put(s, obuf, ob.pos, read) < 0)
				goto out;
		}
	}
	if (left != 0) {
		*why = "truncated zstd data";
		goto out;
	}
	ret = 0;
out:
	ZSTD_freeDCtx(z);
	return ret;
}

static int unxz(FILE *in, struct sink *s, const char **why)
{
	unsigned char ibuf[CHUNK], obuf[CHUNK];
	lzma_stream z = LZMA_STREAM_INIT;
	uint64_t read = 0;
	lzma_action action = LZMA_RUN;
	lzma_ret rc;
	int ret = -1;

	if (lzma_stream_decoder(&z, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
		*why = "cannot start xz";
		return -1;
	}
	do {
		if (z.avail_in == 0 && action == LZMA_RUN) {
			z.avail_in = fread(ibuf, 1, sizeof ibuf, in);
			z.next_in = ibuf;
			read += z.avail_in;
			if (z.avail_in == 0)
				action = LZMA_FINISH;
		}
		z.next_out = obuf;
		z.avail_out = sizeof obuf;
		rc = lzma_code(&z, action);
		if (rc != LZMA_OK && rc != LZMA_STREAM_END) {
			*why = rc == LZMA_BUF_ERROR ? "truncated xz data" : "corrupt xz data";
			goto out;
		}
		if (put(s, obuf, sizeof obuf - z.avail_out, read) < 0)
			goto out;
	} while (rc != LZMA_STREAM_END);
	ret = 0;
out:
	lzma_end(&z);
	return ret;
}

/* A text file that starts with a byte order mark (Windows tools write one): the
 * rest of it, which every parser reads as plain UTF-8. */
static int drop_bom(FILE *in, struct sink *s, const char **why)
{
	char buf[CHUNK];
	uint64_t read = 3;
	size_t n;

	if (fread(buf, 1, 3, in) != 3) {
		*why = "cannot read the byte order mark";
		return -1;
	}
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		if (put(s, buf, n, read += n) < 0)
			return -1;
	return 0;
}

/* The error for a sink that stopped, or for why. */
static int sink_error(const struct sink *s, const char *name, const char *why, struct pdb_err *err)
{
	char limit[32];

	pdb_format_bytes(s->lim.max_bytes, limit, sizeof limit);
	if (s->over == TOO_BIG)
		return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "more than %s once %s (the limit: "
				  "--max-input SIZE or PERFDB_MAX_INPUT raises it)", limit,
				  isinf(s->lim.max_ratio) ? "read" : "decompressed");
	if (s->over == TOO_DENSE)
		return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "decompresses to more than %g times "
				  "its size, a compression bomb? (the limit: --max-ratio N or "
				  "PERFDB_MAX_RATIO raises it)", s->lim.max_ratio);
	if (s->why)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "temporary file: %s", s->why);
	return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "%s", why ? why : "cannot decompress");
}

/* A sink on a new temporary file t: 0, or -1 with err. */
static int sink_open(struct sink *s, struct pdb_temp *t, const struct pdb_input_limits *lim,
		     struct pdb_err *err)
{
	int fd;

	memset(s, 0, sizeof *s);
	s->lim = pdb_input_limits_or_default(lim);
	if (temp_open(t, err) < 0)
		return -1;
	if ((fd = dup(t->fd)) < 0 || !(s->out = fdopen(fd, "wb"))) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "temporary file: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		pdb_temp_close(t);
		return -1;
	}
	return 0;
}

/* Close s after rc (0 or -1 from the writer): 0, or -1 with err and t closed. */
static int sink_close(struct sink *s, int rc, struct pdb_temp *t, const char *name,
		      const char *why, struct pdb_err *err)
{
	if (fclose(s->out) != 0 && rc == 0) {
		s->why = strerror(errno);
		rc = -1;
	}
	if (rc < 0) {
		sink_error(s, name, why, err);
		pdb_temp_close(t);
	}
	return rc;
}

int pdb_decompress_to_temp(const char *path, const char *name, const unsigned char *head,
			   size_t head_len, uint64_t origin_size,
			   const struct pdb_input_limits *lim, struct pdb_temp *out,
			   struct pdb_err *err)
{
	enum kind kind = kind_of(head, head_len);
	const char *why = NULL;
	struct sink s;
	FILE *in;
	int rc = -1;

	pdb_temp_init(out);
	if (kind == NONE)
		return 0;
	if (sink_open(&s, out, lim, err) < 0)
		return -1;
	s.origin_size = origin_size;
	if (kind == BOM)
		s.lim.max_ratio = INFINITY; /* no compression: only the size counts */
	if (!(in = fopen(path, "rb")))
		why = strerror(errno);
	else {
		rc = kind == GZIP ? gunzip(in, &s, &why) : kind == ZSTD ? unzstd(in, &s, &why)
		   : kind == XZ ? unxz(in, &s, &why) : drop_bom(in, &s, &why);
		fclose(in);
	}
	return sink_close(&s, rc, out, name, why, err) < 0 ? -1 : 1;
}

int pdb_spool_to_temp(int fd, const char *name, const struct pdb_input_limits *lim,
		      struct pdb_temp *out, struct pdb_err *err)
{
	char buf[CHUNK];
	const char *why = NULL;
	struct sink s;
	uint64_t read_total = 0;
	ssize_t n;
	int rc = 0;

	pdb_temp_init(out);
	if (sink_open(&s, out, lim, err) < 0)
		return -1;
	s.lim.max_ratio = INFINITY;
	while (rc == 0 && (n = read(fd, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			why = strerror(errno);
			rc = -1;
		} else
			rc = put(&s, buf, (size_t)n, read_total += (uint64_t)n);
	}
	return sink_close(&s, rc, out, name, why, err);
}
