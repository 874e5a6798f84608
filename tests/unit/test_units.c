/* Unit tests: unit strings to canonical unit, scale and direction; value formatting. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "units.h"

static const struct {
	const char *raw, *canonical;
	double scale;
	int direction, known;
} cases[] = {
	{ "ns", "s", 1e-9, PDB_DIR_LOWER, 1 },
	{ "us", "s", 1e-6, PDB_DIR_LOWER, 1 },
	{ "µs", "s", 1e-6, PDB_DIR_LOWER, 1 },
	{ "μs", "s", 1e-6, PDB_DIR_LOWER, 1 },
	{ "ms", "s", 1e-3, PDB_DIR_LOWER, 1 },
	{ "s", "s", 1, PDB_DIR_LOWER, 1 },
	{ "min", "s", 60, PDB_DIR_LOWER, 1 },
	{ "ns/op", "s", 1e-9, PDB_DIR_LOWER, 1 },
	{ "ms/op", "s", 1e-3, PDB_DIR_LOWER, 1 },
	{ "B", "B", 1, PDB_DIR_LOWER, 1 },
	{ "KB", "B", 1e3, PDB_DIR_LOWER, 1 },
	{ "KiB", "B", 1024, PDB_DIR_LOWER, 1 },
	{ "MB", "B", 1e6, PDB_DIR_LOWER, 1 },
	{ "MiB", "B", 1048576, PDB_DIR_LOWER, 1 },
	{ "GB", "B", 1e9, PDB_DIR_LOWER, 1 },
	{ "B/op", "B/op", 1, PDB_DIR_LOWER, 1 },
	{ "B/s", "B/s", 1, PDB_DIR_HIGHER, 1 },
	{ "KiB/s", "B/s", 1024, PDB_DIR_HIGHER, 1 },
	{ "MB/s", "B/s", 1e6, PDB_DIR_HIGHER, 1 },
	{ "MB/sec", "B/s", 1e6, PDB_DIR_HIGHER, 1 },
	{ "GiB/s", "B/s", 1073741824.0, PDB_DIR_HIGHER, 1 },
	{ "Mbit/s", "B/s", 125000, PDB_DIR_HIGHER, 1 },
	{ "ops/s", "ops/s", 1, PDB_DIR_HIGHER, 1 },
	{ "ops/ms", "ops/s", 1000, PDB_DIR_HIGHER, 1 },
	{ "ops/us", "ops/s", 1e6, PDB_DIR_HIGHER, 1 },
	{ "req/s", "req/s", 1, PDB_DIR_HIGHER, 1 },
	{ "msg/s", "msg/s", 1, PDB_DIR_HIGHER, 1 },
	{ "docs/s", "docs/s", 1, PDB_DIR_HIGHER, 1 },
	{ "docs/min", "docs/s", 1.0 / 60, PDB_DIR_HIGHER, 1 },
	{ "Hz", "1/s", 1, PDB_DIR_HIGHER, 1 },
	{ "%", "%", 1, PDB_DIR_NONE, 1 },
	{ "count", "count", 1, PDB_DIR_NONE, 1 },
	{ " ms ", "s", 1e-3, PDB_DIR_LOWER, 1 },
	{ "furlongs", "furlongs", 1, PDB_DIR_NONE, 0 },
	{ "ms/ms", "ms/ms", 1, PDB_DIR_NONE, 0 },
};

static void test_parse_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pdb_unit u;
		int rc = pdb_unit_parse(cases[i].raw, &u);
		assert_int_equal(rc, cases[i].known ? 0 : -1);
		assert_string_equal(u.canonical, cases[i].canonical);
		assert_true(fabs(u.scale - cases[i].scale) <= 1e-12 * fabs(cases[i].scale));
		assert_int_equal(u.direction, cases[i].direction);
		assert_int_equal(u.known, cases[i].known);
	}
}

static void test_direction_names(void **state)
{
	int d;
	(void)state;
	assert_string_equal(pdb_direction_name(PDB_DIR_LOWER), "lower");
	assert_string_equal(pdb_direction_name(PDB_DIR_HIGHER), "higher");
	assert_string_equal(pdb_direction_name(PDB_DIR_NONE), "none");
	assert_int_equal(pdb_direction_parse("higher", &d), 0);
	assert_int_equal(d, PDB_DIR_HIGHER);
	assert_int_equal(pdb_direction_parse("sideways", &d), -1);
}

static void test_format(void **state)
{
	static const struct { double v; const char *unit, *text; } f[] = {
		{ 0.000250, "s", "250 µs" }, { 1.5, "s", "1.5 s" }, { 0.0123, "s", "12.3 ms" },
		{ 12500, "docs/s", "12.5k docs/s" }, { 3.2e6, "B/s", "3.2 MB/s" },
		{ 42, "count", "42" }, { 12500, "count", "12.5k" }, { 0, "s", "0 s" }, { 0.5, "ops/s", "0.5 ops/s" },
		/* a prefix only where four digits round up to it: not "0.9995k" */
		{ 999.5, "msg/s", "999.5 msg/s" }, { 999.96, "msg/s", "1k msg/s" },
		{ 0.9995, "s", "999.5 ms" }, { 1023.6, "B", "1024 B" },
	};
	char buf[64];
	(void)state;
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		pdb_unit_format(f[i].v, f[i].unit, buf, sizeof buf);
		assert_string_equal(buf, f[i].text);
	}
}

/* Percentages in words: three significant digits below 100, whole from
 * there, never an exponent; alone without trailing zeros, beside another
 * with the decimals of the larger. */
static void test_pct_words(void **state)
{
	static const struct {
		double v, beside;
		int sign;
		const char *text;
	} f[] = {
		{ 5, NAN, 0, "5 %" }, { 7.25, NAN, 0, "7.25 %" }, { 0.427, NAN, 0, "0.427 %" },
		{ 0.0123, NAN, 0, "0.0123 %" }, { 2670.4, NAN, 1, "+2670 %" }, { 11264.3, NAN, 1, "+11264 %" },
		{ 73, -42.2, 1, "+73.0 %" }, { -42.2, 73, 1, "-42.2 %" }, { -99.1, 11264.3, 1, "-99 %" },
		{ -0.0001, NAN, 1, "-0.0001 %" }, { 0, 1.5, 1, "0.00 %" },
	};
	char buf[48];

	(void)state;
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		pdb_pct_words(f[i].v, f[i].beside, f[i].sign, buf, sizeof buf);
		assert_string_equal(buf, f[i].text);
	}
	pdb_pct_interval(9.84, 6.1, 13.66, buf, sizeof buf);
	assert_string_equal(buf, "+9.8 % [+6.1, +13.7]");
	pdb_pct_change(-0.04, buf, sizeof buf);
	assert_string_equal(buf, "+0.0 %");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_table),
		cmocka_unit_test(test_direction_names),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_pct_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
