/* Unit tests: lib/table.c, the tables of a run by matrix point. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dim_filter.h"
#include "table.h"

static struct pdb_result *series(struct pdb_run *run, const char *bench, const char *dims,
				 const char *metric, const char *unit)
{
	struct pdb_attr kv[4];
	char *copy = strdup(dims), *p = copy, *tok;
	size_t n = 0;
	struct pdb_result *r;

	while ((tok = strsep(&p, ",")) && *tok) {
		char *eq = strchr(tok, '=');
		*eq = '\0';
		kv[n++] = (struct pdb_attr){ tok, eq + 1 };
	}
	r = pdb_run_result_with_dims(run, bench, kv, n, metric, unit);
	free(copy);
	return r;
}

/* Rows sort as numbers (2 before 10), words after them. */
static void test_numeric_rows(void **state)
{
	static const char *const rates[] = { "10", "2", "many", "100", "2.5" };
	struct pdb_run *run = pdb_run_new();
	struct pdb_table_spec spec = { .rows = "rate", .cols = "rcv" };
	struct pdb_table t;
	struct pdb_err err;
	(void)state;

	for (size_t i = 0; i < 5; i++) {
		char dims[32];
		snprintf(dims, sizeof dims, "rate=%s", rates[i]);
		pdb_result_add_raw(series(run, "b", dims, "rcv", "count"), (double)i);
	}
	assert_int_equal(pdb_table_build(run, &spec, &t, &err), 0);
	assert_int_equal(t.nrows, 5);
	assert_string_equal(t.keys[0], "2");
	assert_string_equal(t.keys[1], "2.5");
	assert_string_equal(t.keys[2], "10");
	assert_string_equal(t.keys[3], "100");
	assert_string_equal(t.keys[4], "many");
	assert_true(t.values[0] == 1 && t.values[2] == 0 && t.values[4] == 2);
	pdb_table_release(&t);
	pdb_run_free(run);
}

/* A histogram (weighted samples): the tool's p99 when it stored one, else
 * the first bucket whose cumulative weight reaches 99 %; its count is the
 * events, its mean weighted. */
static void test_histogram(void **state)
{
	struct pdb_run *run = pdb_run_new();
	struct pdb_table_spec spec = { .rows = "rate", .cols = "d:p99,d:p50,d:count,d:mean,e:p99" };
	struct pdb_table t;
	struct pdb_err err;
	struct pdb_result *d, *e;
	(void)state;

	d = series(run, "b", "rate=1", "d", "s");
	e = series(run, "b", "rate=1", "e", "s");
	for (int i = 1; i <= 4; i++) {
		struct pdb_sample s = PDB_SAMPLE(i);
		s.weight = i == 4 ? 1 : 33; /* 100 events: 33 of 1, 2 and 3 s, 1 of 4 s */
		pdb_result_add_sample(d, &s);
		pdb_result_add_sample(e, &s);
	}
	pdb_result_set_stat(d, "p99", 3.5);
	series(run, "b", "rate=2", "d", "s");
	pdb_result_add_raw(series(run, "b", "rate=2", "e", "s"), 7);
	assert_int_equal(pdb_table_build(run, &spec, &t, &err), 0);
	assert_int_equal(t.nrows, 2);
	assert_true(t.values[0] == 3.5);   /* the tool's */
	assert_true(t.values[1] == 2);     /* the 50th event of 100 is in the 2 s bucket */
	assert_true(t.values[2] == 100);
	assert_true(fabs(t.values[3] - (33 + 66 + 99 + 4) / 100.0) < 1e-12);
	assert_true(t.values[4] == 3);     /* the 99th event of 100, no p99 stored */
	assert_true(isnan(t.values[5]));   /* rate=2's d has no value at all */
	assert_true(t.values[9] == 7);
	pdb_table_release(&t);
	pdb_run_free(run);
}

/* Two series a row can take (they differ in a dim not in --rows) are refused;
 * --dim holds one; a series without the dim fills every row. */
static void test_ambiguous(void **state)
{
	struct pdb_run *run = pdb_run_new();
	struct pdb_table_spec spec = { .rows = "rate", .cols = "rcv,sent" };
	struct pdb_dim_filter hold = { 0 };
	struct pdb_table t;
	struct pdb_err err;
	(void)state;

	pdb_result_add_raw(series(run, "b", "rate=1,stage=a", "rcv", "count"), 1);
	pdb_result_add_raw(series(run, "b", "rate=1,stage=b", "rcv", "count"), 2);
	pdb_result_add_raw(series(run, "b", "rate=1", "sent", "count"), 3);
	assert_int_equal(pdb_table_build(run, &spec, &t, &err), -1);
	assert_int_equal(err.code, PDB_EXIT_INPUT);
	assert_non_null(strstr(err.msg, "several series of 'rcv' at rate=1"));
	assert_int_equal(pdb_dim_filter_add(&hold, "stage=a", &err), 0);
	spec.dims = &hold;
	assert_int_equal(pdb_table_build(run, &spec, &t, &err), 0);
	assert_true(t.nrows == 1 && t.values[0] == 1 && t.values[1] == 3);
	pdb_table_release(&t);
	spec.rows = "rate,stage";
	spec.dims = NULL;
	assert_int_equal(pdb_table_build(run, &spec, &t, &err), 0);
	assert_true(t.nrows == 2 && t.values[1] == 3 && t.values[3] == 3 && t.values[2] == 2);
	pdb_table_release(&t);
	pdb_dim_filter_release(&hold);
	pdb_run_free(run);
}

/* One step and one precision a column: times in the step of the smallest,
 * three significant digits of it. */
static void test_shown(void **state)
{
	static const double v[] = { 0.00177, 0.247, 1.612 };
	struct pdb_run *run = pdb_run_new();
	struct pdb_table_spec spec = { .rows = "rate", .cols = "d,d,speedup" };
	struct pdb_table t;
	struct pdb_err err;
	char *cell;
	(void)state;

	for (int i = 0; i < 3; i++) {
		char dims[32];
		snprintf(dims, sizeof dims, "rate=%d", i);
		pdb_result_add_raw(series(run, "b", dims, "d", "s"), v[i]);
	}
	assert_int_equal(pdb_table_build(run, &spec, &t, &err), 0);
	assert_string_equal(t.cols[0].shown_unit, "ms");
	assert_int_equal(t.cols[0].decimals, 2);
	cell = pdb_table_cell(&t, 2, 0);
	assert_string_equal(cell, "1612.00");
	free(cell);
	cell = pdb_table_cell(&t, 1, 2); /* a time: lower is better, 0.00177 / 0.247 */
	assert_string_equal(cell, "0.0072x");
	free(cell);
	cell = pdb_table_cell(&t, 2, 2); /* 0.00177 / 1.612, printed as plot scaling prints it */
	assert_string_equal(cell, "0.0011x");
	free(cell);
	pdb_table_release(&t);
	pdb_run_free(run);
}

/* By point: a table per set of dims (the sender without stage, the stages,
 * a process), the matrix's dims first, stages in the order first seen; means of the samples, a
 * histogram's p50, p99 and max; min_rows leaves one-row tables out. */
static void test_by_point(void **state)
{
	struct pdb_run *run = pdb_run_new();
	struct pdb_table *t;
	struct pdb_result *h;
	struct pdb_err err;
	size_t n;
	(void)state;

	for (int rate = 100; rate <= 200; rate += 100) {
		char dims[64];
		snprintf(dims, sizeof dims, "rate=%d", rate);
		pdb_result_add_raw(series(run, "p", dims, "sent", "count"), rate * 4);
		for (int k = 0; k < 2; k++) {
			snprintf(dims, sizeof dims, "rate=%d,stage=%s", rate, k ? "a" : "z");
			pdb_result_add_raw(series(run, "p", dims, "received", "count"), rate * 4 - k);
			h = series(run, "p", dims, "delay", "s");
			pdb_result_add_sample(h, &(struct pdb_sample){ .value = 0.001, .t = NAN,
								      .weight = 99 });
			pdb_result_add_sample(h, &(struct pdb_sample){ .value = 0.5, .t = NAN,
								      .weight = 1 });
		}
		snprintf(dims, sizeof dims, "process=x,rate=%d", rate);
		pdb_result_add_raw(series(run, "p", dims, "cpu", "%"), 10);
		pdb_result_add_raw(series(run, "p", dims, "cpu", "%"), 20);
	}
	pdb_result_add_raw(series(run, "p", "", "max_sustained_rate", "lines/s"), 150);
	assert_int_equal(pdb_table_by_point(run, "p", PDB_CELLS_MEAN, 1, &t, &n, &err), 0);
	assert_int_equal(n, 4);
	assert_int_equal(t[0].ndims, 1);
	assert_string_equal(t[0].dims[0], "rate");
	assert_true(t[0].nrows == 2 && t[0].values[0] == 400 && t[0].values[1] == 800);
	assert_int_equal(t[1].ndims, 2);
	assert_string_equal(t[1].dims[1], "stage");
	assert_int_equal(t[1].nrows, 4);
	assert_int_equal(t[1].ncols, 4);          /* received, delay:p50, delay:p99, delay:max */
	assert_string_equal(t[1].cols[2].name, "delay:p99");
	assert_string_equal(t[1].keys[1], "z");     /* stages as first seen (the pipeline's order) */
	assert_string_equal(t[1].keys[3], "a");
	assert_true(t[1].values[1 * 4 + 0] == 399); /* rate=100, stage=a */
	assert_true(fabs(t[1].values[2] - 0.001) < 1e-12 && t[1].values[3] == 0.5); /* s */
	assert_string_equal(t[2].dims[0], "rate"); /* the matrix's dim before process */
	assert_string_equal(t[2].dims[1], "process");
	assert_true(t[2].values[0] == 15);          /* the mean of 10 and 20 */
	assert_true(t[3].ndims == 0 && t[3].nrows == 1 && t[3].values[0] == 150);
	pdb_tables_release(t, n);
	/* a comparison's report: the values compare takes, tables of two rows or more */
	assert_int_equal(pdb_table_by_point(run, "p", PDB_CELLS_VALUE, 2, &t, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(t[1].ncols, 2);          /* received, delay */
	pdb_tables_release(t, n);
	pdb_run_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numeric_rows),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_ambiguous),
		cmocka_unit_test(test_shown),
		cmocka_unit_test(test_by_point),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
