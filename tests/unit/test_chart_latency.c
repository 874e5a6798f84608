/* Unit tests: the latency chart's over-time panels of runs with several repetitions. */
#include <math.h>
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
#include "chart/kinds.h"
#include "chart/layout.h"
#include "gather/chart_gather.h"
#include "model.h"
#include "store/store.h"

static char db_path[64];

static int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(db_path, sizeof db_path, "/tmp/perfdb-test-XXXXXX");
	fd = mkstemp(db_path);
	close(fd);
	unlink(db_path);
	return 0;
}

static int teardown(void **state)
{
	char path[80];

	(void)state;
	unlink(db_path);
	snprintf(path, sizeof path, "%s-wal", db_path);
	unlink(path);
	snprintf(path, sizeof path, "%s-shm", db_path);
	unlink(path);
	return 0;
}

static const struct pdb_chart_panel *panel(const struct pdb_chart *c, const char *title)
{
	for (size_t i = 0; i < c->npanels; i++)
		if (c->panels[i].title && strncmp(c->panels[i].title, title, strlen(title)) == 0)
			return &c->panels[i];
	return NULL;
}

/* run stored (then freed), read back as plot reads it, and its latency
 * chart at 1200 x 900. */
static struct pdb_chart *stored_chart(struct pdb_run *run)
{
	struct pdb_plot_opts opts = { .width = 1200, .height = 900 };
	const char *sel[] = { "latest" };
	struct pdb_store *store;
	struct pdb_chart *c;
	struct pdb_run **loaded;
	struct pdb_err err;

	assert_non_null(store = pdb_store_open(db_path, &err));
	assert_int_equal(pdb_store_insert_run(store, run, 0, &err), 0);
	pdb_run_free(run);
	assert_int_equal(pdb_gather_runs(store, sel, 1, &loaded, &err), 0);
	c = pdb_latency_chart(loaded, 1, &opts, &err);
	assert_non_null(c);
	pdb_gather_runs_free(loaded, 1);
	pdb_store_close(store);
	return c;
}

/* A run as a stream benchmark stores it with repeat: 3: every repetition's
 * per-second samples start at t = 0 and follow the repetition before; with
 * jitter, repetition k reads each second k * jitter late (its clock). */
static struct pdb_chart *three_repetitions(size_t nreps, double jitter)
{
	static const double rate[3][4] = { { 100, 110, 120, 130 }, { 300, 310, 320, 330 },
					   { 200, 210, 220, 230 } };
	static const double p99[3][4] = { { 0.01, 0.02, 0.03, 0.04 }, { 0.03, 0.04, 0.05, 0.06 },
					  { 0.02, 0.03, 0.04, 0.05 } };
	struct pdb_run *run = pdb_run_new();
	struct pdb_sample s = PDB_SAMPLE(0.001);

	for (size_t k = 0; k < nreps; k++)
		for (size_t t = 0; t < 4; t++) {
			double at = (double)t + (t ? jitter * (double)k : 0);
			pdb_result_add_at(pdb_run_series(run, "pipe", NULL, 0, "receive_rate", "lines/s",
							 PDB_DIR_HIGHER), at, rate[k][t]);
			pdb_result_add_at(pdb_run_series(run, "pipe", NULL, 0, "delivery_delay_p99", "s",
							 PDB_DIR_LOWER), at, p99[k][t]);
			pdb_result_add_at(pdb_run_series(run, "pipe", NULL, 0, "consumer_lag", "count",
							 PDB_DIR_LOWER), at, (double)(100 * k + 10 * t));
		}
	s.weight = 100;
	pdb_result_add_sample(pdb_run_series(run, "pipe", NULL, 0, "delivery_delay", "s", PDB_DIR_LOWER), &s);
	s.value = 0.05;
	s.weight = 1;
	pdb_result_add_sample(pdb_run_series(run, "pipe", NULL, 0, "delivery_delay", "s", PDB_DIR_LOWER), &s);
	return stored_chart(run);
}

/* Each drawn line runs forward in time: never back to t = 0 at a repetition's start. */
static void assert_forward(const struct pdb_chart_series *se)
{
	for (size_t i = 1; i < se->n; i++)
		assert_true(se->x[i] > se->x[i - 1]);
}

/* Three repetitions: one line, the per-second median, with a band from the
 * lowest to the highest repetition, and the panel says so. */
static void test_repetitions_median(void **state)
{
	struct pdb_chart *c = three_repetitions(3, 0);
	const struct pdb_chart_panel *p = panel(c, "Throughput over time"), *l = panel(c, "Latency over time");
	const struct pdb_chart_series *se;

	(void)state;
	assert_non_null(p);
	assert_non_null(l);
	assert_int_equal(p->nseries, 1);
	se = &p->series[0];
	assert_forward(se);
	assert_int_equal(se->n, 4); /* t = 0..3: the line ends at its last sample */
	assert_float_equal(se->x[3], 3, 1e-12);
	assert_true(se->marks & PDB_MARK_BAND);
	assert_non_null(se->lo);
	assert_non_null(se->hi);
	for (size_t t = 0; t < 4; t++) {
		assert_float_equal(se->x[t], (double)t, 1e-12);
		assert_float_equal(se->y[t], 200 + 10 * (double)t, 1e-9);
		assert_float_equal(se->lo[t], 100 + 10 * (double)t, 1e-9);
		assert_float_equal(se->hi[t], 300 + 10 * (double)t, 1e-9);
	}
	assert_non_null(strstr(p->title, "median of 3 repetitions"));
	assert_int_equal(l->nseries, 1);
	assert_forward(&l->series[0]);
	assert_float_equal(l->series[0].y[1], 0.03, 1e-12);
	assert_non_null(strstr(l->title, "median of 3 repetitions"));
	/* the lag over time in a panel of its own, after the rates */
	assert_non_null(p = panel(c, "Lag over time"));
	assert_true(p > panel(c, "Throughput over time"));
	assert_int_equal(p->nseries, 1);
	assert_forward(&p->series[0]);
	assert_float_equal(p->series[0].y[2], 120, 1e-9);
	pdb_chart_free(c);
}

/* Repetitions whose readings of a second come a few ms apart (each clock
 * starts anew) are one point a second, each the median across them: never
 * a vertical jump between near-equal times. */
static void test_repetitions_jitter(void **state)
{
	struct pdb_chart *c = three_repetitions(3, 0.003);
	const struct pdb_chart_panel *p = panel(c, "Throughput over time");
	const struct pdb_chart_series *se;

	(void)state;
	assert_non_null(p);
	se = &p->series[0];
	assert_forward(se);
	assert_int_equal(se->n, 4);
	for (size_t t = 0; t < 4; t++) {
		assert_float_equal(se->x[t], (double)t, 1e-12);
		assert_float_equal(se->y[t], 200 + 10 * (double)t, 1e-9);
		assert_float_equal(se->lo[t], 100 + 10 * (double)t, 1e-9);
		assert_float_equal(se->hi[t], 300 + 10 * (double)t, 1e-9);
	}
	pdb_chart_free(c);
}

/* One repetition: its own line, no band, the title as before. */
static void test_one_repetition(void **state)
{
	struct pdb_chart *c = three_repetitions(1, 0);
	const struct pdb_chart_panel *p = panel(c, "Throughput over time");

	(void)state;
	assert_non_null(p);
	assert_int_equal(p->nseries, 1);
	assert_forward(&p->series[0]);
	assert_false(p->series[0].marks & PDB_MARK_BAND);
	assert_float_equal(p->series[0].y[2], 120, 1e-9);
	assert_string_equal(p->title, "Throughput over time");
	pdb_chart_free(c);
}

/* A capacity search's six steps, drawn as small multiples (a panel per
 * rate): the step at 311 msg/s reads 1 ms to 1 s (log on its own), the
 * one at 331 reads 0.3 to 0.6 s (linear on its own). */
static struct pdb_chart *six_steps(void)
{
	static const char *const rates[] = { "200", "257", "292", "311", "331", "548" };
	static const char *const stages[] = { "e2e_latency", "delivery_latency" };
	struct pdb_run *run = pdb_run_new();

	for (size_t k = 0; k < 6; k++) {
		struct pdb_attr d[] = { { "rate", (char *)rates[k] } };
		struct pdb_attr g[] = { { "group", "enrich" }, { "rate", (char *)rates[k] } };
		double r = atof(rates[k]);
		for (size_t t = 0; t < 4; t++) {
			double lat = k == 3 ? pow(10, -3 + (double)t) : k == 4 ? 0.3 + 0.1 * (double)t : 0.01;
			for (size_t m = 0; m < 2; m++)
				pdb_result_add_at(pdb_run_series(run, "cap", d, 1, stages[m], "s",
								 PDB_DIR_LOWER), (double)t, lat);
			pdb_result_add_at(pdb_run_series(run, "cap", d, 1, "produce_rate", "msg/s",
							 PDB_DIR_HIGHER), (double)t, r);
			pdb_result_add_at(pdb_run_series(run, "cap", d, 1, "consume_rate", "msg/s",
							 PDB_DIR_HIGHER), (double)t, r - 1);
			pdb_result_add_at(pdb_run_series(run, "cap", d, 1, "produce_throughput", "B/s",
							 PDB_DIR_HIGHER), (double)t, 384 * r);
			pdb_result_add_at(pdb_run_series(run, "cap", d, 1, "consume_throughput", "B/s",
							 PDB_DIR_HIGHER), (double)t, 384 * (r - 1));
			pdb_result_add_at(pdb_run_series(run, "cap", g, 2, "consumer_lag", "count",
							 PDB_DIR_LOWER), (double)t, 10 * (double)t);
		}
	}
	return stored_chart(run);
}

/* The lag panel follows every step's message rates, before the B/s panels. */
static void test_multiples_lag_after_rates(void **state)
{
	struct pdb_chart *c = six_steps();
	size_t lag = 0, last_msg = 0, first_bytes = 0;

	(void)state;
	for (size_t i = 0; i < c->npanels; i++) {
		const char *t = c->panels[i].title;
		if (strncmp(t, "Lag over time", 13) == 0)
			lag = i;
		else if (strncmp(t, "Throughput over time: msg/s", 27) == 0)
			last_msg = i;
		else if (strncmp(t, "Throughput over time: B/s", 25) == 0 && !first_bytes)
			first_bytes = i;
	}
	assert_true(last_msg > 0 && first_bytes > 0);
	assert_int_equal(lag, last_msg + 1);
	assert_int_equal(first_bytes, lag + 1);
	pdb_chart_free(c);
}

/* Panels of one kind across the small multiples share their y axis: its
 * scale and its range, so that they compare by height. */
static void test_multiples_share_y(void **state)
{
	static const char *const kinds[] = { "Percentile spectrum (", "Latency over time (",
					     "Throughput over time: msg/s (", "Throughput over time: B/s (" };
	struct pdb_chart *c = six_steps();
	struct pdb_chart_layout *L = pdb_chart_layout(c);

	(void)state;
	assert_non_null(L);
	for (size_t k = 0; k < 4; k++) {
		const struct pdb_panel_layout *first = NULL;
		size_t seen = 0;
		for (size_t i = 0; i < c->npanels; i++) {
			if (strncmp(c->panels[i].title, kinds[k], strlen(kinds[k])) != 0)
				continue;
			seen++;
			if (!first) {
				first = &L->panels[i];
				continue;
			}
			assert_int_equal(L->panels[i].y.kind, first->y.kind);
			assert_float_equal(L->panels[i].y.lo, first->y.lo, 1e-12);
			assert_float_equal(L->panels[i].y.hi, first->y.hi, 1e-12);
		}
		assert_int_equal(seen, 6);
	}
	pdb_chart_layout_free(L);
	pdb_chart_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_repetitions_median, setup, teardown),
		cmocka_unit_test_setup_teardown(test_repetitions_jitter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_repetition, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multiples_lag_after_rates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multiples_share_y, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
