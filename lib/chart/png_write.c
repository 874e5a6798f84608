/* PNG writing with zlib alone: a chart is mostly flat colour, so rows go
 * unfiltered into deflate at level 1 (a fifth of libpng's default time). */
#include "chart/png_write.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util.h"

#define IDAT_SIZE 65536

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* A chunk: length, type, data, then the CRC of type and data. */
static void chunk(FILE *f, const char *type, const unsigned char *data, size_t n)
{
	unsigned char head[8], tail[4];
	uLong crc;

	put32(head, (uint32_t)n);
	memcpy(head + 4, type, 4);
	crc = crc32(0, head + 4, 4);
	if (n > 0)
		crc = crc32(crc, data, (uInt)n);
	put32(tail, (uint32_t)crc);
	fwrite(head, 1, sizeof head, f);
	if (n > 0)
		fwrite(data, 1, n, f);
	fwrite(tail, 1, sizeof tail, f);
}

/* One scanline: filter type 0 (none), then R, G, B of each pixel. */
static void scanline(unsigned char *out, const uint32_t *px, int width)
{
	*out++ = 0;
	for (int x = 0; x < width; x++, out += 3) {
		out[0] = (unsigned char)(px[x] >> 16);
		out[1] = (unsigned char)(px[x] >> 8);
		out[2] = (unsigned char)px[x];
	}
}

int pdb_png_write(const char *path, const unsigned char *pixels, int width, int height,
		  int stride, struct pdb_err *err)
{
	size_t len = 1 + 3 * (size_t)width;
	unsigned char *line = pdb_xmalloc(len), *idat = pdb_xmalloc(IDAT_SIZE), ihdr[13];
	z_stream z = { 0 };
	int ret = -1, rc = Z_OK, zinit = 0;
	FILE *f;

	if (!(f = fopen(path, "wb"))) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: cannot write the chart: %s", path, strerror(errno));
		goto out;
	}
	if (deflateInit(&z, 1) != Z_OK) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: cannot write the chart: zlib: out of memory", path);
		goto out;
	}
	zinit = 1;
	fwrite("\x89PNG\r\n\x1a\n", 1, 8, f);
	put32(ihdr, (uint32_t)width);
	put32(ihdr + 4, (uint32_t)height);
	memcpy(ihdr + 8, "\x08\x02\x00\x00\x00", 5); /* 8 bits, RGB, deflate, no filter, no interlace */
	chunk(f, "IHDR", ihdr, sizeof ihdr);
	z.next_out = idat;
	z.avail_out = IDAT_SIZE;
	for (int y = 0; y < height && rc == Z_OK; y++) {
		int flush = y + 1 < height ? Z_NO_FLUSH : Z_FINISH;
		scanline(line, (const uint32_t *)(pixels + (size_t)y * (size_t)stride), width);
		z.next_in = line;
		z.avail_in = (uInt)len;
		do {
			if (z.avail_out == 0) {
				chunk(f, "IDAT", idat, IDAT_SIZE);
				z.next_out = idat;
				z.avail_out = IDAT_SIZE;
			}
			rc = deflate(&z, flush);
		} while (rc == Z_OK && (z.avail_in > 0 || flush == Z_FINISH));
	}
	chunk(f, "IDAT", idat, IDAT_SIZE - z.avail_out);
	chunk(f, "IEND", NULL, 0);
	if (rc != Z_STREAM_END)
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: cannot write the chart: zlib error %d", path, rc);
	else if (ferror(f))
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: cannot write the chart: %s", path, strerror(errno));
	else
		ret = 0;
out:
	if (f && fclose(f) != 0 && ret == 0)
		ret = pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: cannot write the chart: %s", path,
				  strerror(errno));
	if (zinit)
		deflateEnd(&z);
	free(line);
	free(idat);
	return ret;
}
