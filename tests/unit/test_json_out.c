/* Unit tests: a document written piece by piece reads as pdb_json_write
 * writes the same value; numbers rounded to significant digits as printf and
 * strtod round them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json_out.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double printf_rounded(double v, int digits)
{
	char text[64];

	snprintf(text, sizeof text, "%.*g", digits, v);
	return strtod(text, NULL) + 0.0;
}

static void check_round(double v, int digits)
{
	double want = printf_rounded(v, digits), got = pdb_round_significant(v, digits);

	if (memcmp(&want, &got, sizeof want) != 0 && !(want != want && got != got))
		fail_msg("%.17g at %d digits: %.17g, printf and strtod %.17g", v, digits, got,
			 want);
}

/* Any double's bits; percentages as compare prints them; decimal halves
 * (1.2345, 0.125: the ties printf breaks to even) and their neighbours. */
static void test_round_significant(void **state)
{
	(void)state;
	for (int i = 0; i < 100000; i++) {
		uint64_t bits = next();
		double v, pct = ((double)(next() >> 11) / 9007199254740992.0 - 0.5) * 2e4;
		memcpy(&v, &bits, sizeof v);
		for (int d = 1; d <= 17; d += 4)
			check_round(v, d);
		check_round(pct, 4);
		check_round(pct / 1e6, 4);
	}
	for (long n = -60000; n <= 60000; n++) {
		double half = (double)n / 8.0 + 0.0625, tie = (double)n * 1e-4 + 5e-5;
		check_round(half, 4);
		check_round(tie, 4);
		check_round(nextafter(tie, 1e9), 4);
		check_round(nextafter(tie, -1e9), 4);
	}
	check_round(0.0, 4);
	check_round(-0.0, 4);
	check_round(99995.0, 4);
	check_round(9999.5, 4);
	check_round(1e300, 4);
	check_round(4.9e-324, 4);
}

/* Streams v through the piece-by-piece calls, as a writer of a large
 * document would: arrays of numbers whole, everything else a piece at a
 * time. */
static void stream(struct pdb_json_stream *s, const json_t *v)
{
	const char *key;
	json_t *item;
	size_t i;
	int scalars = 1;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		pdb_json_begin_object(s);
		json_object_foreach((json_t *)v, key, item) {
			pdb_json_key(s, key);
			stream(s, item);
		}
		pdb_json_end_object(s);
		break;
	case JSON_ARRAY:
		json_array_foreach((json_t *)v, i, item)
			scalars = scalars && (json_is_number(item) || json_is_null(item));
		if (scalars && json_array_size(v)) {
			pdb_json_put_value(s, v);
			break;
		}
		pdb_json_begin_array(s);
		json_array_foreach((json_t *)v, i, item)
			stream(s, item);
		pdb_json_end_array(s);
		break;
	case JSON_STRING:
		pdb_json_put_string(s, json_string_value(v));
		break;
	case JSON_INTEGER:
		pdb_json_put_int(s, json_integer_value(v));
		break;
	case JSON_REAL:
		pdb_json_put_real(s, json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		pdb_json_put_bool(s, json_is_true(v));
		break;
	case JSON_NULL:
		pdb_json_put_null(s);
		break;
	}
}

static json_t *random_value(int depth)
{
	static const char *const words[] = { "a", "b\"q", "line\nbreak", "", "é", "tab\t" };
	int kind = (int)(next() % (depth > 4 ? 6 : 9));
	json_t *v;
	char key[16];

	switch (kind) {
	case 0: return json_string(words[next() % 6]);
	case 1: return json_integer((json_int_t)(next() % 2000001) - 1000000);
	case 2: return json_real((double)(int64_t)next() / 1e9);
	case 3: return json_boolean(next() & 1);
	case 4: return json_null();
	case 5: return json_real(-0.0);
	case 6:
		v = json_object();
		for (int i = (int)(next() % 4); i > 0; i--) {
			snprintf(key, sizeof key, "k%d", (int)(next() % 10));
			json_object_set_new(v, key, random_value(depth + 1));
		}
		return v;
	case 7: /* numbers only: one line */
		v = json_array();
		for (int i = (int)(next() % 4); i > 0; i--)
			json_array_append_new(v, json_real((double)(next() % 1000) / 7));
		return v;
	default:
		v = json_array();
		for (int i = (int)(next() % 4); i > 0; i--)
			json_array_append_new(v, random_value(depth + 1));
		return v;
	}
}

static char *written(const json_t *v, int indent, int pieces)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	if (pieces) {
		struct pdb_json_stream s;
		pdb_json_stream_init(&s, f, indent);
		stream(&s, v);
		pdb_json_stream_flush(&s);
	} else {
		pdb_json_write(f, v, indent);
	}
	fclose(f);
	return text;
}

static void test_stream_lays_out_as_whole(void **state)
{
	(void)state;
	for (int i = 0; i < 3000; i++) {
		json_t *doc = json_object();
		json_object_set_new(doc, "results", random_value(1));
		json_object_set_new(doc, "x", random_value(0));
		for (int indent = 0; indent <= 4; indent += 2) {
			char *whole = written(doc, indent, 0), *pieces = written(doc, indent, 1);
			if (strcmp(whole, pieces) != 0)
				fail_msg("document %d, indent %d:\n%s\npiece by piece:\n%s", i, indent,
					 whole, pieces);
			free(whole);
			free(pieces);
		}
		json_decref(doc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_significant),
		cmocka_unit_test(test_stream_lays_out_as_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
