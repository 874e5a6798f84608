/* Unit tests: store round trip of a run (samples with offsets and weights,
 * stats, attributes), selectors, sample packing, the run values kept with
 * each run, and the fingerprint. */
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

#include "fingerprint.h"
#include "model.h"
#include "run_values.h"
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

static struct pdb_run *sample_run(const char *branch)
{
	struct pdb_run *run = pdb_run_new();
	struct pdb_result *r;
	struct pdb_sample s = PDB_SAMPLE(0.5);

	s.t = 10;
	pdb_run_set_attr(run, "branch", branch);
	r = pdb_run_add_result(run, "parse", "time", "ms");
	pdb_result_add_raw(r, 1.5);
	pdb_result_add_raw(r, 2.5);
	pdb_result_set_stat_raw(r, "p99", 3);
	r = pdb_run_add_result(run, "load", "latency", "s");
	pdb_result_set_dim(r, "vcpus", "4");
	pdb_result_add_sample(r, &s);
	s.t = NAN;
	s.weight = 7;
	s.value = NAN;
	pdb_result_add_sample(r, &s);
	return run;
}

static void test_round_trip(void **state)
{
	struct pdb_err err;
	struct pdb_store *store = pdb_store_open(db_path, &err);
	struct pdb_run *run = sample_run("main"), *back;
	const struct pdb_result *r;
	double v;

	(void)state;
	assert_non_null(store);
	assert_int_equal(pdb_store_insert_run(store, run, 0, &err), 0);
	assert_int_equal(run->id, 1);
	back = pdb_store_load_run(store, run->id, &err);
	assert_non_null(back);
	assert_string_equal(back->uuid, run->uuid);
	assert_string_equal(pdb_run_get_attr(back, "branch"), "main");
	assert_int_equal(back->nresults, 2);
	r = &back->results[0];
	assert_string_equal(r->benchmark, "parse");
	assert_string_equal(r->unit, "s");
	assert_string_equal(r->raw_unit, "ms");
	assert_int_equal(r->nsamples, 2);
	assert_true(r->samples[0].value == 1.5e-3);
	assert_false(pdb_sample_has_t(&r->samples[0]));
	assert_int_equal(pdb_result_get_stat(r, "p99", &v), 0);
	assert_true(v == 3e-3);
	r = &back->results[1];
	assert_string_equal(pdb_result_get_dim(r, "vcpus"), "4");
	assert_true(pdb_sample_has_t(&r->samples[0]) && r->samples[0].t == 10);
	assert_false(pdb_sample_has_weight(&r->samples[0]));
	assert_true(isnan(r->samples[1].value));
	assert_true(pdb_sample_has_weight(&r->samples[1]) && r->samples[1].weight == 7);
	assert_false(pdb_sample_has_t(&r->samples[1]));
	/* the same uuid again is refused as bad input */
	assert_int_equal(pdb_store_insert_run(store, run, 1, &err), -1);
	assert_int_equal(err.code, PDB_EXIT_INPUT);
	pdb_run_free(run);
	pdb_run_free(back);
	pdb_store_close(store);
}

static void test_groups(void **state)
{
	struct pdb_err err;
	struct pdb_store *store = pdb_store_open(db_path, &err);
	int64_t *ids, id;
	size_t n;

	(void)state;
	for (int i = 0; i < 6; i++) {
		struct pdb_run *run = sample_run(i % 2 ? "dev" : "main");
		assert_int_equal(pdb_store_insert_run(store, run, 0, &err), 0);
		pdb_run_free(run);
	}
	/* runs 1..6, main = 1,3,5 */
	assert_int_equal(pdb_store_resolve_group(store, "latest:branch=main", 2, &ids, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], 3);
	assert_int_equal(ids[1], 5);
	free(ids);
	assert_int_equal(pdb_store_resolve_group(store, "run1,run4,latest", 0, &ids, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(ids[2], 6);
	free(ids);
	assert_int_equal(pdb_store_resolve_group(store, "run4", 3, &ids, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(ids[0], 2);
	free(ids);
	assert_int_equal(pdb_store_resolve(store, "latest~2:branch=dev", &id, &err), 0);
	assert_int_equal(id, 2);
	assert_int_equal(pdb_store_resolve_group(store, "run1,run99", 0, &ids, &n, &err), -1);
	assert_int_equal(err.code, PDB_EXIT_INPUT);
	pdb_store_close(store);
}

static void test_history(void **state)
{
	struct pdb_err err;
	struct pdb_store *store = pdb_store_open(db_path, &err);
	struct pdb_series *series;
	struct pdb_history_point *pts;
	size_t ns, np;

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct pdb_run *run = sample_run(i == 1 ? "dev" : "main");
		assert_int_equal(pdb_store_insert_run(store, run, 0, &err), 0);
		pdb_run_free(run);
	}
	assert_int_equal(pdb_store_list_series(store, "par*", NULL, &series, &ns, &err), 0);
	assert_int_equal(ns, 1);
	assert_string_equal(series[0].dims, "{}");
	assert_int_equal(pdb_store_series_history(store, series[0].id, "branch=main", 0, 0,
						  &pts, &np, &err), 0);
	assert_int_equal(np, 2);
	assert_int_equal(pts[0].run_id, 1);
	assert_int_equal(pts[1].run_id, 3);
	assert_true(fabs(pts[0].value - 2e-3) < 1e-15); /* median of 1.5 and 2.5 ms */
	pdb_history_free(pts, np);
	pdb_series_free(series, ns);
	pdb_store_close(store);
}

/* What test_run_values saw of one run's stored values. */
struct seen_run {
	int64_t run_id;
	struct pdb_series_value v[16];
	size_t n;
	int64_t failed[16];
	size_t nfailed;
};
struct seen {
	struct seen_run runs[4];
	size_t n;
};

static int see_run(void *ctx, const struct pdb_stored_run_values *rv, struct pdb_err *err)
{
	struct seen *s = ctx;
	struct seen_run *r = &s->runs[s->n++];
	struct pdb_run_values_cursor c;
	const char *why;
	int got;

	(void)err;
	r->run_id = rv->run_id;
	assert_int_equal(pdb_run_values_open(&c, rv->vals, rv->len, &why), 0);
	while ((got = pdb_run_values_next(&c, &r->v[r->n], &why)) == 1)
		r->n++;
	assert_int_equal(got, 0);
	r->nfailed = rv->nfailed;
	if (rv->nfailed > 0) /* (failed is NULL without) */
		memcpy(r->failed, rv->failed, rv->nfailed * sizeof *rv->failed);
	return 0;
}

static int same_double(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* The run values kept with each run (schema 10) are, series by series, the
 * values a history point computes from the stored samples or statistics:
 * samples odd and even in number, weighted buckets, one sample, a NaN among
 * them, results without samples valued by their median, p50 (the median
 * NaN) or mean, or by nothing; a benchmark that failed in a run is named
 * as such beside its run's blob, and a where filter leaves runs out. (After
 * perf43's test of its table of run values.) */
static void test_run_values(void **state)
{
	struct pdb_err err;
	struct pdb_store *store = pdb_store_open(db_path, &err);
	struct pdb_series *series;
	struct seen seen = { 0 };
	size_t ns;

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct pdb_run *run = pdb_run_new();
		struct pdb_result *r;
		struct pdb_sample s = PDB_SAMPLE(NAN);

		pdb_run_set_attr(run, "branch", i == 2 ? "other" : "main");
		r = pdb_run_add_result(run, "odd", "time", "s");
		for (int k = 0; k < 7; k++)
			pdb_result_add_raw(r, 1.0 + (k * 37 % 11) / 10.0 + i);
		r = pdb_run_add_result(run, "even", "time", "s");
		for (int k = 0; k < 30; k++)
			pdb_result_add_raw(r, 0.25 + (k * 13 % 30) / 100.0 + i / 7.0);
		r = pdb_run_add_result(run, "one", "time", "s");
		pdb_result_add_raw(r, 0.5 + i);
		r = pdb_run_add_result(run, "nan", "time", "s");
		pdb_result_add_raw(r, 3);
		pdb_result_add_raw(r, NAN);
		pdb_result_add_raw(r, 1);
		r = pdb_run_add_result(run, "buckets", "latency", "s");
		s.value = 0.001; s.weight = 90 + i; pdb_result_add_sample(r, &s);
		s.value = 0.005; s.weight = 9; pdb_result_add_sample(r, &s);
		s.value = 0.010; s.weight = 1; pdb_result_add_sample(r, &s);
		r = pdb_run_add_result(run, "median", "time", "s");
		pdb_result_set_stat(r, "mean", 2);
		pdb_result_set_stat(r, "median", 1.5 + i);
		r = pdb_run_add_result(run, "p50", "time", "s");
		pdb_result_set_stat(r, "median", NAN);
		pdb_result_set_stat(r, "p50", 0.75);
		pdb_result_set_stat(r, "mean", 2);
		r = pdb_run_add_result(run, "mean", "time", "s");
		pdb_result_set_stat(r, "mean", 4 + i);
		pdb_result_set_stat(r, "p99", 9);
		r = pdb_run_add_result(run, "none", "time", "s");
		pdb_result_set_stat(r, "p99", 9);
		if (i == 1)
			pdb_run_add_failure(run, "odd", NULL, 0, "exit 1");
		assert_int_equal(pdb_store_insert_run(store, run, 0, &err), 0);
		pdb_run_free(run);
	}
	assert_int_equal(pdb_store_each_run_values(store, NULL, 0, see_run, &seen, &err), 0);
	assert_int_equal(seen.n, 3);
	for (size_t r = 0; r < 3; r++) {
		assert_int_equal(seen.runs[r].run_id, 3 - (int64_t)r); /* newest first */
		assert_int_equal(seen.runs[r].n, 9);
		assert_int_equal(seen.runs[r].nfailed, r == 1);
	}
	assert_int_equal(pdb_store_list_series(store, NULL, NULL, &series, &ns, &err), 0);
	assert_int_equal(ns, 9);
	for (size_t i = 0; i < ns; i++) {
		struct pdb_history_point *pts;
		size_t np;

		assert_int_equal(pdb_store_series_history(store, series[i].id, NULL, 0, 0, &pts,
							  &np, &err), 0);
		assert_int_equal(np, strcmp(series[i].benchmark, "odd") == 0 ? 2 : 3);
		for (size_t k = 0; k < np; k++) {
			const struct seen_run *r = &seen.runs[3 - pts[k].run_id];
			const struct pdb_series_value *v = NULL;

			for (size_t j = 0; j < r->n; j++)
				if (r->v[j].series_id == series[i].id)
					v = &r->v[j];
			assert_non_null(v);
			assert_int_equal(v->v.n, pts[k].n);
			assert_true(same_double(v->v.value, pts[k].value));
			assert_true(same_double(v->v.q1, pts[k].q1));
			assert_true(same_double(v->v.q3, pts[k].q3));
		}
		if (strcmp(series[i].benchmark, "odd") == 0)
			assert_int_equal(seen.runs[1].failed[0], series[i].id);
		if (strcmp(series[i].benchmark, "p50") == 0)
			assert_true(pts[0].value == 0.75);
		if (strcmp(series[i].benchmark, "none") == 0)
			assert_true(isnan(pts[0].value));
		pdb_history_free(pts, np);
	}
	pdb_series_free(series, ns);
	/* the runs of branch main up to run 2 */
	memset(&seen, 0, sizeof seen);
	assert_int_equal(pdb_store_each_run_values(store, "branch=main", 2, see_run, &seen,
						   &err), 0);
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.runs[0].run_id, 2);
	assert_int_equal(pdb_store_delete_run(store, 1, &err), 0);
	memset(&seen, 0, sizeof seen);
	assert_int_equal(pdb_store_each_run_values(store, NULL, 0, see_run, &seen, &err), 0);
	assert_int_equal(seen.n, 2);
	pdb_store_close(store);
}

static void test_fingerprint(void **state)
{
	struct pdb_run *run = pdb_run_new();
	char vcpus[32];

	(void)state;
	pdb_run_set_attr(run, "host", "given");
	pdb_fingerprint_capture(run, NULL);
	assert_string_equal(pdb_run_get_attr(run, "host"), "given");
	snprintf(vcpus, sizeof vcpus, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	assert_string_equal(pdb_run_get_attr(run, "vcpus"), vcpus);
	assert_non_null(pdb_run_get_attr(run, "arch"));
	assert_non_null(pdb_run_get_attr(run, "kernel"));
	pdb_run_free(run);
}

static void test_summary(void **state)
{
	struct pdb_run *run = pdb_run_new();
	struct pdb_result *r = pdb_run_add_result(run, "b", "latency", "s");
	struct pdb_sample s = PDB_SAMPLE(NAN);
	struct pdb_summary sum;

	(void)state;
	s.value = 1; s.weight = 90; pdb_result_add_sample(r, &s);
	s.value = 5; s.weight = 9; pdb_result_add_sample(r, &s);
	s.value = 10; s.weight = 1; pdb_result_add_sample(r, &s);
	pdb_result_summary(r, &sum);
	assert_true(sum.median == 1);
	assert_true(fabs(sum.mean - 1.45) < 1e-12);
	assert_true(sum.min == 1 && sum.max == 10);
	assert_true(sum.n == 100); /* the events the buckets count, not the 3 buckets */
	pdb_run_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_history, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_values, setup, teardown),
		cmocka_unit_test(test_fingerprint),
		cmocka_unit_test(test_summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
