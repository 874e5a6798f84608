/* Unit tests: lib/dim_filter.c, which series --dim K=V keeps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dim_filter.h"

/* Another value of K leaves a series out, no dim K keeps it; every K=V
 * must hold; the dims as the store keeps them (JSON) read the same. */
static void test_pass(void **state)
{
	struct pdb_dim_filter f = { 0 };
	struct pdb_attr jq500[] = { { "rate", "500" }, { "stage", "jq" } };
	struct pdb_attr sq500[] = { { "rate", "500" }, { "stage", "sqlite" } };
	struct pdb_attr sent1k[] = { { "rate", "1000" } };
	struct pdb_attr sent500[] = { { "rate", "500" } };
	struct pdb_err err;
	(void)state;

	assert_true(pdb_dim_filter_pass(NULL, jq500, 2));
	assert_true(pdb_dim_filter_pass(&f, jq500, 2));
	assert_int_equal(pdb_dim_filter_add(&f, "rate=500", &err), 0);
	assert_int_equal(pdb_dim_filter_add(&f, "stage=jq", &err), 0);
	assert_true(pdb_dim_filter_pass(&f, jq500, 2));
	assert_false(pdb_dim_filter_pass(&f, sq500, 2));
	assert_false(pdb_dim_filter_pass(&f, sent1k, 1));
	assert_true(pdb_dim_filter_pass(&f, sent500, 1));
	assert_true(pdb_dim_filter_pass(&f, NULL, 0));
	assert_true(pdb_dim_filter_pass_json(&f, "{\"rate\":\"500\",\"stage\":\"jq\"}"));
	assert_false(pdb_dim_filter_pass_json(&f, "{\"rate\":\"500\",\"stage\":\"sqlite\"}"));
	assert_true(pdb_dim_filter_pass_json(&f, "{}"));
	assert_int_equal(pdb_dim_filter_check(&f, &err), 0);
	pdb_dim_filter_release(&f);
}

/* A K no series looked at has is an error naming the dims they have;
 * K=V is checked as it is parsed. */
static void test_errors(void **state)
{
	struct pdb_dim_filter f = { 0 };
	struct pdb_attr d[] = { { "rate", "500" }, { "stage", "jq" } };
	struct pdb_err err;
	(void)state;

	assert_int_equal(pdb_dim_filter_add(&f, "rte=500", &err), 0);
	assert_true(pdb_dim_filter_pass(&f, d, 2));
	assert_int_equal(pdb_dim_filter_check(&f, &err), -1);
	assert_int_equal(err.code, PDB_EXIT_INPUT);
	assert_string_equal(err.msg, "--dim rte=500: no series has a dim 'rte' (their dims: rate, stage)");
	pdb_dim_filter_release(&f);
	assert_int_equal(pdb_dim_filter_add(&f, "rte=1", &err), 0);
	assert_int_equal(pdb_dim_filter_check(&f, &err), -1);
	assert_string_equal(err.msg, "--dim rte=1: no series has a dim 'rte' (they have no dims)");
	pdb_dim_filter_release(&f);
	assert_int_equal(pdb_dim_filter_add(&f, "rate", &err), -1);
	assert_int_equal(err.code, PDB_EXIT_USAGE);
	assert_int_equal(pdb_dim_filter_add(&f, "=5", &err), -1);
	assert_int_equal(pdb_dim_filter_add(&f, "rate=", &err), -1);
	assert_int_equal(f.n, 0);
	pdb_dim_filter_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
