/* Decompress: gzip, zstd and xz result files (and a UTF-8 byte order mark), recognised by their first bytes, to a temporary file. */
#include "decompress.h"

#include <errno.h>
#include <lzma.h>
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

/* Each inflater reads in, writes out; 0, or -1 with a reason in why. */
static int gunzip(FILE *in, FILE *out, const char **why)
{
	unsigned char ibuf[CHUNK], obuf[CHUNK];
	z_stream z = { 0 };
	int rc = Z_OK, ret = -1;

	if (inflateInit2(&z, 15 + 32) != Z_OK) { /* +32: gzip header */
		*why = "cannot start zlib";
		return -1;
	}
	for (;;) {
		if (z.avail_in == 0) {
			z.avail_in = (uInt)fread(ibuf, 1, sizeof ibuf, in);
			z.next_in = ibuf;
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
		if (fwrite(obuf, 1, sizeof obuf - z.avail_out, out) != sizeof obuf - z.avail_out) {
			*why = strerror(errno);
			goto out;
		}
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

static int unzstd(FILE *in, FILE *out, const char **why)
{
	unsigned char ibuf[CHUNK], obuf[CHUNK];
	ZSTD_DCtx *z = ZSTD_createDCtx();
	size_t left = 1, n;
	int ret = -1;

	if (!z) {
		*why = "cannot start zstd";
		return -1;
	}
	while ((n = fread(ibuf, 1, sizeof ibuf, in)) > 0) {
		ZSTD_inBuffer ib = { ibuf, n, 0 };
		while (ib.pos < ib.size) {
			ZSTD_outBuffer ob = { obuf, sizeof obuf, 0 };
			left = ZSTD_decompressStream(z, &ob, &ib);
			if (ZSTD_isError(left)) {
				*why = "corrupt zstd data";
				goto out;
			}
			if (fwrite(obuf, 1, ob.pos, out) != ob.pos) {
				*why = strerror(errno);
				goto out;
			}
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

static int unxz(FILE *in, FILE *out, const char **why)
{
	unsigned char ibuf[CHUNK], obuf[CHUNK];
	lzma_stream z = LZMA_STREAM_INIT;
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
		if (fwrite(obuf, 1, sizeof obuf - z.avail_out, out) != sizeof obuf - z.avail_out) {
			*why = strerror(errno);
			goto out;
		}
	} while (rc != LZMA_STREAM_END);
	ret = 0;
out:
	lzma_end(&z);
	return ret;
}

/* A text file that starts with a byte order mark (Windows tools write one): the
 * rest of it, which every parser reads as plain UTF-8. */
static int drop_bom(FILE *in, FILE *out, const char **why)
{
	char buf[CHUNK];
	size_t n;

	if (fread(buf, 1, 3, in) != 3) {
		*why = "cannot read the byte order mark";
		return -1;
	}
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out) != n) {
			*why = strerror(errno);
			return -1;
		}
	return 0;
}

int pdb_decompress_to_temp(const char *path, const char *name, const unsigned char *head,
			   size_t head_len, char *out_path, size_t size, struct pdb_err *err)
{
	enum kind kind = kind_of(head, head_len);
	const char *dir = getenv("TMPDIR"), *why = NULL;
	FILE *in = NULL, *out = NULL;
	int fd, rc = -1;

	out_path[0] = '\0';
	if (kind == NONE)
		return 0;
	snprintf(out_path, size, "%s/perfdb-unpacked-XXXXXX", dir && *dir ? dir : "/tmp");
	if ((fd = mkstemp(out_path)) < 0) {
		out_path[0] = '\0';
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "temporary file: %s", strerror(errno));
	}
	if (!(out = fdopen(fd, "wb"))) {
		close(fd);
		why = strerror(errno);
		goto out;
	}
	if (!(in = fopen(path, "rb"))) {
		why = strerror(errno);
		goto out;
	}
	rc = kind == GZIP ? gunzip(in, out, &why) : kind == ZSTD ? unzstd(in, out, &why)
	   : kind == XZ ? unxz(in, out, &why) : drop_bom(in, out, &why);
	if (fclose(out) != 0 && rc == 0) {
		why = strerror(errno);
		rc = -1;
	}
	out = NULL;
out:
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	if (rc < 0) {
		unlink(out_path);
		out_path[0] = '\0';
		return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "%s", why ? why : "cannot decompress");
	}
	return 1;
}
