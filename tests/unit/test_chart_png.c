/* Unit tests: PNG writing — chunks and CRCs, the pixels read back through zlib, several IDAT chunks, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "chart/png_write.h"

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* An xRGB test picture: each pixel's colour from its position (and noise
 * when noisy, which deflate cannot shrink); the padding at the end of each
 * row and the unused top byte hold garbage the file must not show. */
static unsigned char *picture(int w, int h, int stride, int noisy)
{
	unsigned char *px = malloc((size_t)stride * (size_t)h);
	uint32_t seed = 1;

	memset(px, 0xA5, (size_t)stride * (size_t)h);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint32_t c = (uint32_t)(x * 7) << 16 | (uint32_t)(y * 3) << 8 | (uint32_t)(x ^ y);
			seed = seed * 1103515245u + 12345u;
			if (noisy)
				c = seed >> 8;
			c |= 0xEEu << 24;
			memcpy(px + (size_t)y * (size_t)stride + 4 * (size_t)x, &c, 4);
		}
	return px;
}

/* Read path back: check the signature, IHDR, every chunk's CRC, that IEND
 * ends it, inflate the IDATs and compare each pixel with px. Returns the
 * number of IDAT chunks. */
static int check_png(const char *path, const unsigned char *px, int w, int h, int stride)
{
	size_t len = 1 + 3 * (size_t)w, raw_size = len * (size_t)h, pos = 8;
	unsigned char *file, *raw = malloc(raw_size);
	z_stream z = { 0 };
	int nidat = 0, ended = 0;
	long size;
	FILE *f;

	assert_non_null(f = fopen(path, "rb"));
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	file = malloc((size_t)size);
	assert_int_equal(fread(file, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	assert_memory_equal(file, "\x89PNG\r\n\x1a\n", 8);
	assert_int_equal(inflateInit(&z), Z_OK);
	z.next_out = raw;
	z.avail_out = (uInt)raw_size;
	while (!ended) {
		uint32_t n;
		assert_true(pos + 12 <= (size_t)size);
		n = get32(file + pos);
		assert_true(pos + 12 + n <= (size_t)size);
		assert_int_equal(crc32(0, file + pos + 4, 4 + n), get32(file + pos + 8 + n));
		if (pos == 8) {
			assert_memory_equal(file + pos + 4, "IHDR", 4);
			assert_int_equal(n, 13);
			assert_int_equal(get32(file + pos + 8), w);
			assert_int_equal(get32(file + pos + 12), h);
			assert_memory_equal(file + pos + 16, "\x08\x02\x00\x00\x00", 5);
		} else if (memcmp(file + pos + 4, "IDAT", 4) == 0) {
			z.next_in = file + pos + 8;
			z.avail_in = n;
			assert_true(inflate(&z, Z_NO_FLUSH) >= 0);
			nidat++;
		} else {
			assert_memory_equal(file + pos + 4, "IEND", 4);
			assert_int_equal(n, 0);
			ended = 1;
		}
		pos += 12 + n;
	}
	assert_int_equal(pos, (size_t)size);
	assert_int_equal(z.total_out, raw_size);
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	inflateEnd(&z);
	for (int y = 0; y < h; y++) {
		const unsigned char *row = raw + (size_t)y * len;
		assert_int_equal(row[0], 0);
		for (int x = 0; x < w; x++) {
			uint32_t c;
			memcpy(&c, px + (size_t)y * (size_t)stride + 4 * (size_t)x, 4);
			assert_int_equal(row[1 + 3 * x], (c >> 16) & 0xff);
			assert_int_equal(row[2 + 3 * x], (c >> 8) & 0xff);
			assert_int_equal(row[3 + 3 * x], c & 0xff);
		}
	}
	free(file);
	free(raw);
	return nidat;
}

static void write_and_check(int w, int h, int stride, int noisy, int min_idat)
{
	char path[] = "/tmp/pdb-png-XXXXXX";
	unsigned char *px = picture(w, h, stride, noisy);
	struct pdb_err err;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pdb_png_write(path, px, w, h, stride, &err), 0);
	assert_true(check_png(path, px, w, h, stride) >= min_idat);
	unlink(path);
	free(px);
}

/* A small picture whose rows carry padding. */
static void test_png_small(void **state)
{
	(void)state;
	write_and_check(37, 11, 37 * 4 + 12, 0, 1);
	write_and_check(1, 1, 4, 0, 1);
}

/* Noise does not compress: the data spans several 64 KiB IDAT chunks. */
static void test_png_chunks(void **state)
{
	(void)state;
	write_and_check(300, 200, 1200, 1, 2);
}

static void test_png_error(void **state)
{
	unsigned char px[4] = { 0 };
	struct pdb_err err;

	(void)state;
	assert_int_equal(pdb_png_write("/nonexistent-dir/x.png", px, 1, 1, 4, &err), -1);
	assert_int_equal(err.code, 4);
	assert_non_null(strstr(err.msg, "/nonexistent-dir/x.png: cannot write the chart: "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_png_small),
		cmocka_unit_test(test_png_chunks),
		cmocka_unit_test(test_png_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
