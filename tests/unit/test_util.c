/* Unit tests: edit distance and the "did you mean" candidates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util.h"

static const struct {
	const char *a, *b;
	size_t d;
} distances[] = {
	{ "", "", 0 },
	{ "", "abc", 3 },
	{ "abc", "", 3 },
	{ "compare", "compare", 0 },
	{ "comapre", "compare", 1 },  /* one swap of neighbours */
	{ "compaer", "compare", 1 },
	{ "cmopare", "compare", 1 },
	{ "compar", "compare", 1 },   /* one delete */
	{ "comparee", "compare", 1 }, /* one insert */
	{ "compore", "compare", 1 },  /* one substitution */
	{ "repeats", "repeat", 1 },
	{ "treshold", "threshold", 1 },
	{ "tresh", "threshold", 4 },
	{ "ca", "abc", 3 },           /* optimal string alignment, not full Damerau */
	{ "kitten", "sitting", 3 },
	{ "ab", "ba", 1 },
	{ "abcd", "badc", 2 },
};

static void test_distance_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof distances / sizeof distances[0]; i++) {
		size_t d = pdb_edit_distance(distances[i].a, distances[i].b);
		if (d != distances[i].d)
			fail_msg("%s -> %s: %zu, expected %zu", distances[i].a, distances[i].b, d,
				 distances[i].d);
		assert_int_equal(pdb_edit_distance(distances[i].b, distances[i].a), d);
	}
}

static const char *const commands[] = {
	"run", "ingest", "runs", "show", "rm", "compare", "plot", "detect", "mock-kafka", "report", "help",
};
static const char *const options[] = {
	"format", "threshold", "alpha", "config", "metric", "bench", "last", "cand-last",
	"fail-on", "holm", "strict-env", "db", "help",
};

static const struct {
	const char *word;
	const char *const *list;
	size_t n;
	const char *closest, *abbrev; /* NULL: none */
} closest[] = {
	{ "comapre", commands, 11, "compare", "compare" },
	{ "compar", commands, 11, "compare", "compare" },
	{ "ingset", commands, 11, "ingest", "ingest" },
	{ "reprot", commands, 11, "report", "report" },
	{ "shwo", commands, 11, "show", "show" },
	{ "rn", commands, 11, "run", "run" },          /* run and rm are 1 away: the first */
	{ "nosuch", commands, 11, NULL, NULL },
	{ "x", commands, 11, NULL, NULL },             /* no shorter than the distance */
	{ "compare", commands, 11, NULL, NULL },       /* an exact match needs no hint */
	{ "mock_kafka", commands, 11, "mock-kafka", "mock-kafka" },
	{ "tresh", options, 13, NULL, "threshold" },   /* a misspelt abbreviation */
	{ "treshold", options, 13, "threshold", "threshold" },
	{ "fromat", options, 13, "format", "format" },
	{ "hlom", options, 13, "holm", "holm" },
	{ "strict", options, 13, NULL, "strict-env" },
	{ "frobnicate", options, 13, NULL, NULL },
	{ "d", options, 13, NULL, NULL },
	{ "dbb", options, 13, "db", "db" },
	{ "zzz", options, 13, NULL, NULL },            /* too short for abbreviations */
	{ "word", options, 0, NULL, NULL },
};

static void test_closest_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof closest / sizeof closest[0]; i++) {
		const char *c = pdb_closest(closest[i].word, closest[i].list, closest[i].n);
		const char *a = pdb_closest_abbrev(closest[i].word, closest[i].list, closest[i].n);
		if ((c == NULL) != (closest[i].closest == NULL) ||
		    (c && strcmp(c, closest[i].closest) != 0))
			fail_msg("closest %s: %s, expected %s", closest[i].word, c ? c : "none",
				 closest[i].closest ? closest[i].closest : "none");
		if ((a == NULL) != (closest[i].abbrev == NULL) ||
		    (a && strcmp(a, closest[i].abbrev) != 0))
			fail_msg("abbrev %s: %s, expected %s", closest[i].word, a ? a : "none",
				 closest[i].abbrev ? closest[i].abbrev : "none");
	}
}

static void test_did_you_mean(void **state)
{
	char buf[64];
	static const char *const keys[] = { "warmup", "repeat", "interleave", "matrix", "benchmarks" };

	(void)state;
	assert_string_equal(pdb_did_you_mean("repeats", keys, 5, buf, sizeof buf),
			    " (did you mean repeat?)");
	assert_string_equal(pdb_did_you_mean("nothing", keys, 5, buf, sizeof buf), "");
	assert_string_equal(pdb_did_you_mean("matrix", keys, 5, buf, sizeof buf), "");
	/* a short buffer truncates, never overflows */
	assert_string_equal(pdb_did_you_mean("benchmark", keys, 5, buf, 8), " (did y");
}

/* Cut to a buffer, a string ends after a whole UTF-8 character (issue 31:
 * a cut sequence made cairo refuse the chart), with "…" when there is room. */
static void test_utf8_copy(void **state)
{
	char out[64], in[512] = "";
	const char *chars[] = { "Ж", "🚀", "a", "é", "€" };

	(void)state;
	assert_int_equal(pdb_utf8_copy(out, sizeof out, "short"), 0);
	assert_string_equal(out, "short");
	for (size_t c = 0; c < sizeof chars / sizeof chars[0]; c++)
		for (size_t size = 1; size <= sizeof out; size++) {
			in[0] = 0;
			for (int i = 0; i < 100; i++)
				strcat(in, chars[(c + (size_t)i) % 5]);
			assert_int_equal(pdb_utf8_copy(out, size, in), 1);
			assert_true(strlen(out) < size);
			assert_int_equal(pdb_utf8_valid_len(out, strlen(out)), strlen(out));
		}
	pdb_utf8_copy(out, 8, "ЖЖЖЖЖЖЖЖ"); /* 16 bytes into 8: 2 letters and "…" */
	assert_string_equal(out, "ЖЖ…");
	assert_int_equal(pdb_utf8_prefix("aЖ", 2), 1);
	assert_int_equal(pdb_utf8_prefix("aЖ", 3), 3);
	assert_int_equal(pdb_utf8_prefix("🚀", 3), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance_table),
		cmocka_unit_test(test_closest_table),
		cmocka_unit_test(test_did_you_mean),
		cmocka_unit_test(test_utf8_copy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
