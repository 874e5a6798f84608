/* Unit tests: the history chart built from memory (what pdb_gather_history
 * reads, made here), no store: the choice of series and the chart. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "chart/kinds.h"
#include "metric_role.h"

static struct pdb_series series(int64_t id, const char *metric)
{
	return (struct pdb_series){ .id = id, .benchmark = "compress", .dims = "{}",
				    .metric = (char *)metric, .unit = "s",
				    .direction = PDB_DIR_LOWER };
}

/* Without --metric, the series detect splits are drawn (the wall time and
 * its CPU time) and a resource named as left out: chosen first, the other
 * after them; the chart of the chosen ones' points says so. */
static void test_detect_series(void **state)
{
	struct pdb_series s[3] = { series(1, "peak_rss"), series(2, PDB_METRIC_CPU), series(3, "time") };
	struct pdb_history_point pts[2][6];
	struct pdb_history_input in[2];
	struct pdb_plot_opts opts = { .width = 800, .height = 400 };
	struct pdb_history_model m = { .series = s, .total = 3 };
	struct pdb_chart *c;
	struct pdb_err err;

	(void)state;
	assert_int_equal(pdb_history_choose(s, 3, &opts, &m.n, &m.nleft, &err), 0);
	assert_int_equal(m.n, 2);
	assert_int_equal(m.nleft, 1);
	assert_string_equal(s[0].metric, PDB_METRIC_CPU);
	assert_string_equal(s[1].metric, "time");
	assert_string_equal(s[2].metric, "peak_rss");
	for (size_t k = 0; k < 2; k++) {
		for (size_t i = 0; i < 6; i++) {
			pdb_history_point_init(&pts[k][i], (int64_t)i + 1);
			pts[k][i].seq = (int64_t)i + 1;
			pts[k][i].value = (k + 1) * (i < 3 ? 1.0 : 1.2);
		}
		in[k] = (struct pdb_history_input){ .series = &s[k], .pts = pts[k], .npts = 6 };
	}
	m.in = in;
	assert_non_null(c = pdb_history_chart(&m, &opts, &err));
	assert_int_equal(c->nselected, 3);
	assert_int_equal(c->nskipped, 1);
	assert_non_null(strstr(c->skipped[0], "compress peak_rss: detect and the gate leave it out too"));
	assert_int_equal(c->npanels, 1);
	assert_string_equal(c->title, "History: compress");
	assert_int_equal(strncmp(c->panels[0].title, "6 runs;", 7), 0);
	pdb_chart_free(c);
}

/* More series than a chart holds is an error before any point is read. */
static void test_too_many(void **state)
{
	struct pdb_series s[PDB_HISTORY_MAX_LINES + 1];
	struct pdb_plot_opts opts = { .metric_glob = "*" };
	size_t n, nleft;
	struct pdb_err err;

	(void)state;
	for (size_t i = 0; i < PDB_HISTORY_MAX_LINES + 1; i++)
		s[i] = series((int64_t)i + 1, "time");
	assert_int_equal(pdb_history_choose(s, PDB_HISTORY_MAX_LINES + 1, &opts, &n, &nleft, &err), -1);
	assert_int_equal(err.code, PDB_EXIT_USAGE);
	assert_non_null(strstr(err.msg, "9 series match"));
}

/* A run without samples (a tool's aggregates only) has no spread known:
 * no band passes over it, and none is pinched to its point (lo == hi); the
 * runs either side keep theirs. */
static void test_band_gap(void **state)
{
	struct pdb_series s = series(1, "time");
	struct pdb_history_point pts[6];
	struct pdb_history_input in = { .series = &s, .pts = pts, .npts = 6 };
	struct pdb_plot_opts opts = { .width = 800, .height = 400 };
	struct pdb_chart *c;
	struct pdb_err err;
	size_t bands = 0;

	(void)state;
	for (size_t i = 0; i < 6; i++) {
		double v = 0.050 + 0.001 * (double)i;
		pdb_history_point_init(&pts[i], (int64_t)i + 1);
		pts[i].seq = (int64_t)i + 1;
		pts[i].value = v;
		if (i == 3)
			continue; /* the run of aggregates: a median, no samples */
		pts[i].n = 10;
		pts[i].min = pts[i].p5 = v - 0.004;
		pts[i].q1 = v - 0.002;
		pts[i].q3 = v + 0.002;
		pts[i].max = pts[i].p95 = v + 0.004;
	}
	assert_non_null(c = pdb_history_chart_of(&in, 1, &opts, &err));
	for (size_t k = 0; k < c->panels[0].nseries; k++) {
		const struct pdb_chart_series *se = &c->panels[0].series[k];
		if (!se->lo)
			continue;
		for (size_t i = 0; i < se->n; i++) {
			assert_true(se->hi[i] > se->lo[i]);
			assert_true(fabs(se->x[i] - 3) > 0.5); /* run 4 sits at x = 3 */
		}
		assert_true(se->x[se->n - 1] < 3 || se->x[0] > 3);
		bands++;
	}
	assert_int_equal(bands, 4); /* runs 1-3 and 5-6: p5 to p95, quartiles */
	pdb_chart_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect_series),
		cmocka_unit_test(test_too_many),
		cmocka_unit_test(test_band_gap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
