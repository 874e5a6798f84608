/* Unit tests: store round trip of a run (samples with offsets and weights,
 * stats, attributes), selectors, sample packing, and the fingerprint. */
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
		cmocka_unit_test(test_fingerprint),
		cmocka_unit_test(test_summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
