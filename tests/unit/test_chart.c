/* Unit tests: chart layout — nice ticks, SI labels, nines axis, reduction, legend placement. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "chart/chart.h"
#include "chart/layout.h"

static void test_nice_step(void **state)
{
	static const struct {
		double span;
		int target;
		double step;
	} cases[] = {
		{ 10, 5, 2 }, { 100, 5, 20 }, { 1, 4, 0.2 }, { 7, 7, 1 }, { 35, 7, 5 },
		{ 0.003, 6, 0.0005 }, { 12500, 5, 2000 }, { 9, 3, 2 }, { 1e6, 4, 2e5 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_float_equal(pdb_chart_nice_step(cases[i].span, cases[i].target),
				   cases[i].step, cases[i].step * 1e-9);
}

static void test_nice_range(void **state)
{
	double lo = 3, hi = 97, step;

	(void)state;
	step = pdb_chart_nice_range(&lo, &hi, 5);
	assert_float_equal(step, 20, 1e-12);
	assert_float_equal(lo, 0, 1e-12);
	assert_float_equal(hi, 100, 1e-12);
	lo = hi = 5; /* a zero span is widened around the value */
	step = pdb_chart_nice_range(&lo, &hi, 4);
	assert_true(lo < 5 && hi > 5);
	assert_float_equal(step, 0.2, 1e-12);
	lo = 0.00021;
	hi = 0.00089;
	step = pdb_chart_nice_range(&lo, &hi, 6);
	assert_float_equal(step, 0.0001, 1e-15);
	assert_float_equal(lo, 0.0002, 1e-15);
	assert_float_equal(hi, 0.0009, 1e-15);
}

static void labels(const double *v, size_t n, const char *unit, int per_tick, double step,
		   const char *const *want)
{
	struct pdb_tick t[16];

	for (size_t i = 0; i < n; i++)
		t[i].value = v[i];
	pdb_chart_tick_labels(t, n, unit, per_tick, step);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(t[i].label, want[i]);
}

static void test_tick_labels(void **state)
{
	static const double rate[] = { 0, 5000, 10000, 15000 };
	static const char *const rate_l[] = { "0", "5k", "10k", "15k" };
	static const double half[] = { 0, 2500, 5000, 7500, 10000, 12500 };
	static const char *const half_l[] = { "0", "2.5k", "5.0k", "7.5k", "10.0k", "12.5k" };
	static const double lat[] = { 0, 0.00025, 0.0005, 0.00075 };
	static const char *const lat_l[] = { "0", "250 µs", "500 µs", "750 µs" };
	static const double ms[] = { 0.001, 0.0015, 0.002 };
	static const char *const ms_l[] = { "1.0 ms", "1.5 ms", "2.0 ms" };
	static const double logt[] = { 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1 };
	static const char *const logt_l[] = { "1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms", "1 s" };
	static const double pct[] = { -20, -10, 0, 10 };
	static const char *const pct_l[] = { "-20%", "-10%", "0%", "10%" };
	static const double big[] = { 0, 2e6, 4e6 };
	static const char *const big_l[] = { "0", "2M", "4M" };

	(void)state;
	labels(rate, 4, "docs/s", 0, 5000, rate_l);
	labels(half, 6, "ops/s", 0, 2500, half_l);
	labels(lat, 4, "s", 0, 0.00025, lat_l);
	labels(ms, 3, "s", 0, 0.0005, ms_l);
	labels(logt, 7, "s", 1, 1, logt_l);
	labels(pct, 4, "%", 0, 10, pct_l);
	labels(big, 3, "B/s", 0, 2e6, big_l);
}

static void test_nines(void **state)
{
	(void)state;
	assert_float_equal(pdb_chart_nines(50), log10(2), 1e-12);
	assert_float_equal(pdb_chart_nines(90), 1, 1e-12);
	assert_float_equal(pdb_chart_nines(99), 2, 1e-9);
	assert_float_equal(pdb_chart_nines(99.9), 3, 1e-9);
	assert_float_equal(pdb_chart_nines(99.99), 4, 1e-8);
}

/* The reduced line has the same extent in every pixel column, starts and
 * ends where the full line does and keeps at most four points a column. */
static void test_reduce(void **state)
{
	size_t n = 100000, m;
	double *px = malloc(n * sizeof *px), *py = malloc(n * sizeof *py);
	double *ox = malloc(n * sizeof *ox), *oy = malloc(n * sizeof *oy);
	double fmin[1200], fmax[1200], rmin[1200], rmax[1200];

	(void)state;
	srand(7);
	for (size_t i = 0; i < n; i++) {
		px[i] = 50 + 1100.0 * (double)i / (double)n;
		py[i] = 300 + 100 * sin((double)i / 500) + (rand() % 1000) / 10.0;
	}
	m = pdb_chart_reduce(px, py, n, ox, oy);
	assert_true(m <= 4 * 1101);
	assert_true(m >= 2 * 1100);
	assert_float_equal(ox[0], px[0], 0);
	assert_float_equal(oy[m - 1], py[n - 1], 0);
	for (int c = 0; c < 1200; c++) {
		fmin[c] = rmin[c] = INFINITY;
		fmax[c] = rmax[c] = -INFINITY;
	}
	for (size_t i = 0; i < n; i++) {
		int c = (int)floor(px[i]);
		fmin[c] = fmin[c] < py[i] ? fmin[c] : py[i];
		fmax[c] = fmax[c] > py[i] ? fmax[c] : py[i];
	}
	for (size_t i = 0; i < m; i++) {
		int c = (int)floor(ox[i]);
		rmin[c] = rmin[c] < oy[i] ? rmin[c] : oy[i];
		rmax[c] = rmax[c] > oy[i] ? rmax[c] : oy[i];
		if (i > 0)
			assert_true(ox[i] >= ox[i - 1]);
	}
	for (int c = 0; c < 1200; c++) {
		assert_float_equal(rmin[c], fmin[c], 0);
		assert_float_equal(rmax[c], fmax[c], 0);
	}
	free(px);
	free(py);
	free(ox);
	free(oy);
}

/* A rising line leaves the top-left corner free; a line across the top sends
 * the legend to the first free corner, bottom-right. */
static void test_legend_corner(void **state)
{
	static const double x[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	static const double up[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	static const double high[] = { 9.6, 9.2, 9.6, 9.2, 9.6, 9.2, 9.6, 9.2, 9.6, 9.2, 9.6 };
	struct pdb_chart *c = pdb_chart_new("test", "t", 800, 500, PDB_THEME_LIGHT);
	struct pdb_chart_panel *p = pdb_chart_add_panel(c, NULL, "x", "", "y", "ops/s");
	struct pdb_chart_layout *L;

	(void)state;
	p->y.include_zero = 1;
	pdb_chart_add_series(p, "rising", PDB_MARK_LINE, 0, x, up, NULL, NULL, 11);
	L = pdb_chart_layout(c);
	assert_string_equal(L->panels[0].legend.where, "top-left");
	assert_int_equal(L->panels[0].legend.n, 1);
	pdb_chart_layout_free(L);
	pdb_chart_free(c);

	c = pdb_chart_new("test", "t", 800, 500, PDB_THEME_LIGHT);
	p = pdb_chart_add_panel(c, NULL, "x", "", "y", "ops/s");
	p->y.include_zero = 1;
	pdb_chart_add_series(p, "high", PDB_MARK_LINE | PDB_MARK_POINTS, 0, x, high, NULL, NULL, 11);
	L = pdb_chart_layout(c);
	assert_string_equal(L->panels[0].legend.where, "bottom-right");
	pdb_chart_layout_free(L);
	pdb_chart_free(c);
}

/* Axis ticks lie inside the plot area, in order, and the nines axis puts
 * 99% right of 90% with "max" last. */
static void test_layout_axes(void **state)
{
	static const double p[] = { 50, 90, 99, 99.9, 100 };
	static const double v[] = { 0.001, 0.002, 0.004, 0.02, 0.05 };
	struct pdb_chart *c = pdb_chart_new("latency", "t", 1200, 700, PDB_THEME_DARK);
	struct pdb_chart_panel *pn = pdb_chart_add_panel(c, NULL, "percentile", "", "latency", "s");
	struct pdb_chart_layout *L;
	const struct pdb_panel_layout *pl;

	(void)state;
	pn->x.kind = PDB_AXIS_NINES;
	pn->y.kind = PDB_AXIS_LOG;
	pdb_chart_add_series(pn, "a", PDB_MARK_LINE, 0, p, v, NULL, NULL, 5);
	L = pdb_chart_layout(c);
	pl = &L->panels[0];
	assert_true(pl->left > 0 && pl->right < 1200 && pl->top > 0 && pl->bottom < 700);
	assert_string_equal(pl->x.ticks[0].label, "50%");
	assert_string_equal(pl->x.ticks[pl->x.nticks - 1].label, "max");
	for (size_t i = 1; i < pl->x.nticks; i++)
		assert_true(pl->x.ticks[i].px > pl->x.ticks[i - 1].px);
	for (size_t i = 0; i < pl->y.nticks; i++)
		assert_true(pl->y.ticks[i].px >= pl->top - 0.01 && pl->y.ticks[i].px <= pl->bottom + 0.01);
	assert_string_equal(pl->y.ticks[0].label, "1 ms");
	assert_float_equal(pl->series[0].px[0], pl->x.ticks[0].px, 1e-9);
	pdb_chart_layout_free(L);
	pdb_chart_free(c);
}

/* Every axis of any stored values is finite, its ticks bounded and placed,
 * and the points that can be drawn have finite pixels (issue 31: DBL_MAX
 * made the tick loop endless, denormals a step of 0). */
static void test_extreme_axes(void **state)
{
	static const double sets[][3] = {
		{ 0.5, 1.7976931348623157e308, 1 }, { -1.7976931348623157e308, 1.7976931348623157e308, 0 },
		{ 5e-324, 5e-324, 5e-324 }, { 5e-324, 1e-323, 0 }, { 0, -0.0, 0 },
		{ 1, 1.0000000000000002, 1 }, { NAN, INFINITY, -INFINITY }, { 1e308, -1e308, NAN },
		{ 1.7976931348623157e308, 1.7976931348623157e308, 1.7976931348623157e308 },
		{ -1.7976931348623157e308, -1.7976931348623157e308, -1.7976931348623157e308 },
	};
	static const int kinds[] = { PDB_AXIS_LINEAR, PDB_AXIS_LOG, PDB_AXIS_LOG2 };
	static const double x[] = { 1, 2, 3 };
	double v[PDB_MAX_TICKS], step;

	(void)state;
	assert_true(pdb_chart_nice_step(INFINITY, 3) > 0 && isfinite(pdb_chart_nice_step(INFINITY, 3)));
	assert_true(pdb_chart_nice_step(5e-324, 9) > 0);
	step = 1e-17; /* below the precision of 1: counted, not added up */
	assert_true(pdb_chart_tick_values(1, 2, &step, v, PDB_MAX_TICKS) <= PDB_MAX_TICKS);
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
			struct pdb_chart *c = pdb_chart_new("history", "t", 800, 500, PDB_THEME_LIGHT);
			struct pdb_chart_panel *pn = pdb_chart_add_panel(c, NULL, "x", "", "y", i % 2 ? "s" : "B");
			struct pdb_chart_layout *L;
			const struct pdb_panel_layout *pl;
			pn->y.kind = kinds[k];
			pn->y.scale2 = k == 0 ? 1000 : 0;
			if (i == 4 && k > 0) /* a forced end with no logarithm */
				pn->y.min = 0;
			pdb_chart_add_series(pn, "a", PDB_MARK_LINE | PDB_MARK_POINTS | PDB_MARK_VALUES, 0,
					     x, sets[i], NULL, NULL, 3);
			L = pdb_chart_layout(c);
			pl = &L->panels[0];
			assert_true(isfinite(pl->y.lo) && isfinite(pl->y.hi) && pl->y.hi > pl->y.lo);
			assert_true(pl->y.nticks <= PDB_MAX_TICKS && pl->y2.nticks <= PDB_MAX_TICKS);
			for (size_t t = 0; t < pl->y.nticks; t++)
				assert_true(isfinite(pl->y.ticks[t].px) && isfinite(pl->y.ticks[t].value));
			for (size_t t = 0; t < pl->series[0].n; t++)
				assert_true(isfinite(pl->series[0].px[t]) && isfinite(pl->series[0].py[t]));
			pdb_chart_layout_free(L);
			pdb_chart_free(c);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice_step),
		cmocka_unit_test(test_nice_range),
		cmocka_unit_test(test_tick_labels),
		cmocka_unit_test(test_nines),
		cmocka_unit_test(test_reduce),
		cmocka_unit_test(test_legend_corner),
		cmocka_unit_test(test_layout_axes),
		cmocka_unit_test(test_extreme_axes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
