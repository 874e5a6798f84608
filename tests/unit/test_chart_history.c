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

/* Without --metric, the benchmark's own measure is drawn and its CPU time
 * named as left out: chosen first, the other after it; the chart of the
 * chosen one's points says so. */
static void test_own_measure(void **state)
{
	struct pdb_series s[2] = { series(1, PDB_METRIC_CPU), series(2, "time") };
	struct pdb_history_point pts[6];
	struct pdb_history_input in = { 0 };
	struct pdb_plot_opts opts = { .width = 800, .height = 400 };
	struct pdb_history_model m = { .series = s, .total = 2 };
	struct pdb_chart *c;
	struct pdb_err err;

	(void)state;
	assert_int_equal(pdb_history_choose(s, 2, &opts, &m.n, &m.nleft, &err), 0);
	assert_int_equal(m.n, 1);
	assert_int_equal(m.nleft, 1);
	assert_string_equal(s[0].metric, "time");
	assert_string_equal(s[1].metric, PDB_METRIC_CPU);
	for (size_t i = 0; i < 6; i++) {
		pdb_history_point_init(&pts[i], (int64_t)i + 1);
		pts[i].seq = (int64_t)i + 1;
		pts[i].value = i < 3 ? 1.0 : 1.2;
	}
	in = (struct pdb_history_input){ .series = &s[0], .pts = pts, .npts = 6 };
	m.in = &in;
	assert_non_null(c = pdb_history_chart(&m, &opts, &err));
	assert_int_equal(c->nselected, 2);
	assert_int_equal(c->nskipped, 1);
	assert_non_null(strstr(c->skipped[0], "compress " PDB_METRIC_CPU
					      ": not the benchmark's own measure"));
	assert_int_equal(c->npanels, 1);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_measure),
		cmocka_unit_test(test_too_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
