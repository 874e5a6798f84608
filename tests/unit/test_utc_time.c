/* Unit tests: the times tools write, read as UTC. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "utc_time.h"

static const struct {
	const char *text;
	int naive_is_utc;
	const char *utc; /* NULL: refused */
} times[] = {
	{ "2026-12-07T23:32:13+00:00", 0, "2026-12-07T23:32:13Z" }, /* Google Benchmark */
	{ "2026-12-07T23:32:13Z", 0, "2026-12-07T23:32:13Z" },
	{ "2026-12-08T01:02:03+02:00", 0, "2026-12-07T23:02:03Z" },  /* east of UTC */
	{ "2026-12-07T19:02:03-0530", 0, "2026-12-08T00:32:03Z" },   /* west, no colon */
	{ "2026-12-07T23:33:19.239459", 1, "2026-12-07T23:33:19Z" }, /* pytest-benchmark */
	{ "2026-12-07 23:33:19", 1, "2026-12-07T23:33:19Z" },
	{ "2026-12-07T23:33:19.239459", 0, NULL },  /* local time: which zone? */
	{ "2024-02-29T12:00:00Z", 0, "2024-02-29T12:00:00Z" },
	{ "2026-02-29T12:00:00Z", 0, NULL },        /* no such day */
	{ "2026-04-31T12:00:00Z", 0, NULL },
	{ "2026-12-07T24:00:00Z", 0, NULL },
	{ "2026-12-07T23:32:13+25:00", 0, NULL },
	{ "2026-12-07T23:32:13 UTC", 0, NULL },
	{ "2019/03/08-14:41:07", 0, NULL },          /* older Google Benchmark */
	{ "1969-12-31T23:59:59Z", 0, NULL },
	{ "", 0, NULL },
};

static void test_iso8601(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
		char out[32] = "";
		int rc = pdb_utc_from_iso8601(times[i].text, times[i].naive_is_utc, out);
		if (!times[i].utc && rc == 0)
			fail_msg("%s: read as %s, expected refused", times[i].text, out);
		if (times[i].utc && (rc != 0 || strcmp(out, times[i].utc) != 0))
			fail_msg("%s: %s (rc %d), expected %s", times[i].text, out, rc, times[i].utc);
	}
}

static void test_epoch(void **state)
{
	char out[32];

	(void)state;
	assert_int_equal(pdb_utc_from_epoch(1795991797, out), 0); /* fio's timestamp */
	assert_string_equal(out, "2026-11-29T22:36:37Z");
	assert_int_equal(pdb_utc_from_epoch(0, out), 0);
	assert_string_equal(out, "1970-01-01T00:00:00Z");
	assert_int_equal(pdb_utc_from_epoch(-1, out), -1);
	assert_int_equal(pdb_utc_from_epoch(INT64_C(253402300800), out), -1); /* year 10000 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iso8601),
		cmocka_unit_test(test_epoch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
