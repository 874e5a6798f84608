/* Unit tests: chart texts — cutting to width, dims order, labels, drawn counts, overlap checks. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "chart/chart.h"
#include "chart/kinds.h"
#include "chart/layout.h"

static void test_fit(void **state)
{
	static const struct {
		const char *in;
		double width;
		const char *out;
	} cases[] = {
		{ "throughput", 100, "throughput" },         /* 61.7 px: fits */
		{ "throughput (docs/s)", 70, "throughpu…" },  /* 68.4 px with the … */
		{ "σ=0.0338 κ=0.0009", 50, "σ=0.0…" },       /* UTF-8: whole characters */
		{ "a b c d", 30, "a b…" },                   /* no space before the ellipsis */
		{ "", 10, "" },
	};
	char out[64];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		pdb_chart_fit(out, sizeof out, cases[i].in, 11, 0, cases[i].width);
		assert_string_equal(out, cases[i].out);
		assert_true(pdb_chart_text_width(out, 11) <= cases[i].width || !*cases[i].in);
	}
	/* in place, as the layout cuts its own labels; bold is wider */
	snprintf(out, sizeof out, "%s", "parallel efficiency");
	pdb_chart_fit(out, sizeof out, out, 12, 0, 60);
	assert_string_equal(out, "parallel…");
	assert_true(pdb_chart_text_width_bold("History", 17) > pdb_chart_text_width("History", 17));
	/* DejaVu Sans' digits are 0.636 em */
	assert_float_equal(pdb_chart_text_width("100", 10), 3 * 6.36, 1e-9);
}

static void test_cmp_dims(void **state)
{
	static const char *const sorted[] = { "batch=100", "batch=1000", "batch=10000,shards=1",
					      "batch=10000,shards=2", "batch=10000,shards=16",
					      "vcpus=2", "vcpus=16", "zone=a" };

	(void)state;
	for (size_t i = 0; i + 1 < sizeof sorted / sizeof sorted[0]; i++) {
		assert_true(pdb_chart_cmp_dims(sorted[i], sorted[i + 1]) < 0);
		assert_true(pdb_chart_cmp_dims(sorted[i + 1], sorted[i]) > 0);
	}
	assert_int_equal(pdb_chart_cmp_dims("vcpus=4", "vcpus=4"), 0);
}

static void test_drawn(void **state)
{
	struct pdb_chart *c = pdb_chart_new("latency", "t", 600, 400, PDB_THEME_LIGHT);
	struct pdb_chart_panel *p = pdb_chart_add_panel(c, NULL, "x", "", "y", "");
	double x[2] = { 1, 2 }, y[2] = { 3, 4 };

	(void)state;
	pdb_chart_series_source(pdb_chart_add_series(p, "a", PDB_MARK_LINE, 0, x, y, NULL, NULL, 2), "A");
	pdb_chart_series_source(pdb_chart_add_series(p, "b", PDB_MARK_LINE, 1, x, y, NULL, NULL, 2), "B");
	pdb_chart_add_series(p, "ideal", PDB_MARK_LINE, 7, x, y, NULL, NULL, 2); /* reference */
	p = pdb_chart_add_panel(c, NULL, "x", "", "y", "");
	pdb_chart_series_source(pdb_chart_add_series(p, "a again", PDB_MARK_LINE, 0, x, y, NULL, NULL, 2), "A");
	assert_int_equal(pdb_chart_drawn(c), 2);
	/* each bar of an HBAR series is a series of its own */
	pdb_chart_series_source(pdb_chart_add_series(p, "bars", PDB_MARK_HBAR, 0, x, y, x, y, 2), "bars");
	assert_int_equal(pdb_chart_drawn(c), 4);
	pdb_chart_skip(c, "%s: %s", "C", "why");
	assert_int_equal(c->nskipped, 1);
	assert_string_equal(c->skipped[0], "C: why");
	pdb_chart_pop_panel(c);
	assert_int_equal(c->npanels, 1);
	assert_int_equal(pdb_chart_drawn(c), 2);
	pdb_chart_free(c);
}

static void test_overlap(void **state)
{
	struct pdb_text_box a = { 0, 0, 10, 10, "a" }, b = { 9, 9, 5, 5, "b" }, d = { 10, 0, 5, 5, "d" };

	(void)state;
	assert_true(pdb_chart_boxes_overlap(&a, &b));
	assert_false(pdb_chart_boxes_overlap(&a, &d)); /* touching edges do not overlap */
}

/* A bar's value label reads in the x axis' unit: a change in % signed as
 * the compare chart draws it, a time as a time (not "+1.5%"). */
static void test_bar_values(void **state)
{
	static const struct {
		const char *unit;
		double x;
		const char *label;
	} cases[] = {
		{ "%", 4.2, "+4.2%" },
		{ "%", -12.345, "-12.3%" },
		{ "s", 1.5, "1.5 s" },
		{ "s", 0.0123, "12.3 ms" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pdb_chart *c = pdb_chart_new("bars", "t", 900, 400, PDB_THEME_LIGHT);
		struct pdb_chart_panel *p = pdb_chart_add_panel(c, NULL, "x", cases[i].unit, "", "");
		static const char *const names[] = { "row" };
		double y = 0;
		struct pdb_chart_layout *L;

		p->x.include_zero = 1;
		pdb_chart_axis_categories(&p->y, names, 1);
		pdb_chart_add_series(p, "bar", PDB_MARK_HBAR | PDB_MARK_VALUES, 0, &cases[i].x, &y,
				     NULL, NULL, 1);
		L = pdb_chart_layout(c);
		assert_int_equal(L->panels[0].series[0].nvalues, 1);
		assert_string_equal(L->panels[0].series[0].values[0].text, cases[i].label);
		pdb_chart_layout_free(L);
		pdb_chart_free(c);
	}
}

/* A legend taller than its panel's room stops at "and N more" instead of
 * running into the panel below, and the layout check passes; a text moved
 * onto another fails it. */
static void test_legend_room(void **state)
{
	struct pdb_chart *c = pdb_chart_new("latency", "t", 900, 400, PDB_THEME_LIGHT);
	struct pdb_chart_layout *L;
	struct pdb_err err;
	double x[2] = { 1, 2 }, y[2] = { 3, 4 };

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct pdb_chart_panel *p = pdb_chart_add_panel(c, "CPU of processes", "x", "", "y", "");
		for (int i = 0; i < 20; i++) {
			char label[32];
			double yi[2] = { y[0] + i, y[1] + i };
			snprintf(label, sizeof label, "process=worker-%02d", i);
			pdb_chart_add_series(p, label, PDB_MARK_LINE, i, x, yi, NULL, NULL, 2);
		}
	}
	L = pdb_chart_layout(c);
	for (size_t i = 0; i < L->npanels; i++) {
		const struct pdb_panel_layout *pl = &L->panels[i];
		assert_string_equal(pl->legend.where, "outside");
		assert_true(pl->legend.more > 0);
		assert_int_equal(pl->legend.n + pl->legend.more, 20);
		if (i + 1 < L->npanels)
			assert_true(pl->legend.y + pl->legend.h < L->panels[i + 1].top - PDB_FONT_PANEL);
	}
	assert_int_equal(pdb_chart_layout_check(L, &err), 0);
	L->panels[0].legend.y = L->panels[1].top - 20; /* onto the next panel's title */
	assert_int_equal(pdb_chart_layout_check(L, &err), -1);
	assert_non_null(strstr(err.msg, "overlap"));
	pdb_chart_layout_free(L);
	pdb_chart_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_cmp_dims),
		cmocka_unit_test(test_drawn),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_legend_room),
		cmocka_unit_test(test_bar_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
