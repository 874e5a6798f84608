/* Unit tests: the blob of a run's values (lib/run_values.c) reads back what
 * was packed, bit for bit, and a hostile blob (cut short at every byte, ids
 * not ascending, an unknown kind or format, random bytes) is refused or read
 * within its bytes, never past them; a NaN is a value, not an error. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run_values.h"

static int same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

/* Read all of blob into out (at most max); the count, or -1 and *why. */
static int read_all(const unsigned char *blob, size_t len, struct pdb_series_value *out,
		    size_t max, const char **why)
{
	struct pdb_run_values_cursor c;
	int n = 0, got;

	if (pdb_run_values_open(&c, blob, len, why) < 0)
		return -1;
	while ((got = pdb_run_values_next(&c, &out[n < (int)max ? n : 0], why)) == 1)
		n++;
	return got < 0 ? -1 : n;
}

static const struct pdb_series_value given[] = {
	{ 7, { 0, 5, 1.25, 1.0, 2.5 } },               /* quartiles */
	{ 2, { 0, 0, 0.75, NAN, NAN } },               /* a tool's value: no quartiles */
	{ 3, { 0, 1, 0.5, 0.5, 0.5 } },                /* one sample */
	{ 4, { 0, 3, NAN, NAN, NAN } },                /* no value at all */
	{ 300, { 0, 30, -0.0, -1e308, INFINITY } },
	{ -9, { 0, 2, 1e-300, 5e-324, 1 } },           /* an id below 1 (a foreign file) */
	{ INT64_MAX, { 0, 1000000, 3, 3, 4 } },
};
#define NGIVEN (sizeof given / sizeof *given)

static void test_round_trip(void **state)
{
	struct pdb_series_value v[NGIVEN], back[NGIVEN];
	unsigned char *blob;
	const char *why;
	size_t len;

	(void)state;
	memcpy(v, given, sizeof v);
	blob = pdb_run_values_pack(v, NGIVEN, &len);
	assert_int_equal(read_all(blob, len, back, NGIVEN, &why), NGIVEN);
	for (size_t i = 0; i < NGIVEN; i++) {
		assert_true(i == 0 || back[i].series_id > back[i - 1].series_id);
		assert_int_equal(back[i].series_id, v[i].series_id); /* v sorted by the pack */
		assert_int_equal(back[i].v.n, v[i].v.n);
		assert_true(same_bits(back[i].v.value, v[i].v.value));
		assert_true(same_bits(back[i].v.q1, v[i].v.q1));
		assert_true(same_bits(back[i].v.q3, v[i].v.q3));
	}
	/* the format byte, then each entry's step, n and kind, values: -9's
	 * step of 2^64 - 9 takes 10 bytes; a tool's value and one sample's
	 * (its quartiles its value) take 8 bytes of values, not 24 */
	assert_int_equal(len, 1 + (10 + 1 + 24) + (1 + 1 + 8) + (1 + 1 + 8) + (1 + 1 + 8) +
			 (1 + 1 + 24) + (2 + 1 + 24) + (9 + 4 + 24));
	free(blob);
	blob = pdb_run_values_pack(NULL, 0, &len);
	assert_int_equal(read_all(blob, len, back, NGIVEN, &why), 0);
	free(blob);
}

/* Every prefix of a blob: read to an entry's end, or refused as cut short. */
static void test_cut_short(void **state)
{
	struct pdb_series_value v[NGIVEN], back[NGIVEN];
	unsigned char *blob;
	const char *why;
	size_t len;
	int whole = 0;

	(void)state;
	memcpy(v, given, sizeof v);
	blob = pdb_run_values_pack(v, NGIVEN, &len);
	for (size_t k = 0; k < len; k++) {
		unsigned char *cut = malloc(k ? k : 1); /* ASan sees a read past it */
		int n;
		memcpy(cut, blob, k);
		n = read_all(cut, k, back, NGIVEN, &why);
		if (n < 0)
			assert_true(k == 0 ? strcmp(why, "empty") == 0 : strcmp(why, "cut short") == 0);
		else
			whole++;
		free(cut);
	}
	assert_int_equal(whole, NGIVEN); /* the format byte, then each entry's end but the last */
	free(blob);
}

static void test_hostile(void **state)
{
	static const struct {
		const char *what;
		unsigned char bytes[32];
		size_t len;
		int n;             /* entries read, or -1 */
		const char *why;
	} cases[] = {
		{ "the same id twice", { 1, 5, 4, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 4,
					 0, 0, 0, 0, 0, 0, 0xf0, 0x3f }, 21, -1,
		  "series ids not in ascending order" },
		{ "an id below the one before (a step that wraps)",
		  { 1, 5, 4, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f,
		    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 4,
		    0, 0, 0, 0, 0, 0, 0xf0, 0x3f }, 30, -1, "series ids not in ascending order" },
		{ "a kind it does not have", { 1, 1, 7, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f }, 11, -1,
		  "an entry of an unknown kind" },
		{ "a varint that never ends", { 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
						0x80, 0x80, 0x80, 0x80, 1 }, 14, -1, "cut short" },
		{ "a length not a whole entry", { 1, 1, 4, 0, 0, 0, 0, 0, 0, 0xf0 }, 10, -1,
		  "cut short" },
		{ "a format it does not write", { 2 }, 1, -1, "a format this perfdb does not write" },
		{ "a NaN value", { 1, 1, 4, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f }, 11, 1, NULL },
	};
	struct pdb_series_value back[4];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *why = NULL;
		int n = read_all(cases[i].bytes, cases[i].len, back, 4, &why);
		if (n != cases[i].n || (cases[i].why && strcmp(why, cases[i].why) != 0))
			fail_msg("%s: %d (%s)", cases[i].what, n, why ? why : "");
	}
	assert_true(isnan(back[0].v.value));
}

/* Random bytes after the format byte: refused or read, never past the end. */
static void test_random(void **state)
{
	uint64_t x = 42;
	struct pdb_series_value back[64];

	(void)state;
	for (int t = 0; t < 20000; t++) {
		size_t len = 1 + (size_t)(t % 60);
		unsigned char *b = malloc(len);
		const char *why;
		b[0] = 1;
		for (size_t k = 1; k < len; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			b[k] = (unsigned char)(x >> 56);
			if (t % 3 == 0 && k % 11 == 1)
				b[k] &= 0x7f; /* short varints: more entries read whole */
		}
		(void)read_all(b, len, back, 64, &why);
		free(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_cut_short),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
