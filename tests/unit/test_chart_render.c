/* Unit tests: rendering — formats by extension, files of the asked size, several charts per process. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "chart/chart.h"
#include "chart/layout.h"
#include "chart/render.h"

static void test_format_of(void **state)
{
	(void)state;
	assert_int_equal(pdb_chart_format_of("a.png"), PDB_CHART_PNG);
	assert_int_equal(pdb_chart_format_of("dir.x/A.SVG"), PDB_CHART_SVG);
	assert_int_equal(pdb_chart_format_of("r.pdf"), PDB_CHART_PDF);
	assert_int_equal(pdb_chart_format_of("r.gif"), -1);
	assert_int_equal(pdb_chart_format_of("png"), -1);
	assert_int_equal(pdb_chart_format_of("dir.png/chart"), -1);
}

static struct pdb_chart *small_chart(int theme)
{
	static const double x[] = { 1, 2, 4, 8 }, y[] = { 10, 19, 35, 60 };
	struct pdb_chart *c = pdb_chart_new("test", "µs and ±", 321, 207, theme);
	struct pdb_chart_panel *p = pdb_chart_add_panel(c, "panel", "vCPUs", "", "rate", "ops/s");

	pdb_chart_add_series(p, "measured", PDB_MARK_LINE | PDB_MARK_POINTS, 0, x, y, NULL, NULL, 4);
	return c;
}

/* PNG, SVG and PDF one after another in one process (fonts are set up and
 * released per chart); the PNG's IHDR holds the asked size. */
static void test_render_three(void **state)
{
	char dir[] = "/tmp/pdb-chart-XXXXXX", path[64];
	unsigned char head[24];
	struct pdb_err err;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (int fmt = PDB_CHART_PNG; fmt <= PDB_CHART_PDF; fmt++) {
		struct pdb_chart *c = small_chart(fmt == PDB_CHART_SVG);
		struct pdb_chart_layout *L = pdb_chart_layout(c);
		snprintf(path, sizeof path, "%s/c%d", dir, fmt);
		assert_int_equal(pdb_chart_render(c, L, path, PDB_OUT_GIVEN, fmt, &err), 0);
		pdb_chart_layout_free(L);
		pdb_chart_free(c);
		assert_non_null(f = fopen(path, "rb"));
		assert_int_equal(fread(head, 1, sizeof head, f), sizeof head);
		fclose(f);
		if (fmt == PDB_CHART_PNG) {
			assert_memory_equal(head + 12, "IHDR", 4);
			assert_int_equal((head[16] << 24) | (head[17] << 16) | (head[18] << 8) | head[19], 321);
			assert_int_equal((head[20] << 24) | (head[21] << 16) | (head[22] << 8) | head[23], 207);
		} else if (fmt == PDB_CHART_PDF) {
			assert_memory_equal(head, "%PDF-", 5);
		} else {
			assert_memory_equal(head, "<?xml", 5);
		}
		unlink(path);
	}
	rmdir(dir);
}

/* A file that cannot be written is an error, not a crash. */
static void test_render_error(void **state)
{
	struct pdb_chart *c = small_chart(0);
	struct pdb_chart_layout *L = pdb_chart_layout(c);
	struct pdb_err err;

	(void)state;
	assert_int_equal(pdb_chart_render(c, L, "/nonexistent-dir/x.png", PDB_OUT_GIVEN,
					  PDB_CHART_PNG, &err), -1);
	assert_int_equal(err.code, 4);
	assert_string_equal(err.msg, "/nonexistent-dir/x.png: No such file or directory");
	pdb_chart_layout_free(L);
	pdb_chart_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_of),
		cmocka_unit_test(test_render_three),
		cmocka_unit_test(test_render_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
