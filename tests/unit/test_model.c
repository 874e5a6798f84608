/* Unit tests: run attributes set at once (pdb_run_set_attrs) as one at a time would. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model.h"

static void test_merge_replaces_and_sorts(void **state)
{
	struct pdb_run *run = pdb_run_new();
	const struct pdb_attr kv[] = {
		{ "c", "x" }, { "a", "y" }, { "d", "z" }, { "c", "w" },
	};
	static const char *const want[][2] = { { "a", "y" }, { "b", "1" }, { "c", "w" }, { "d", "z" } };

	(void)state;
	pdb_run_set_attr(run, "b", "1");
	pdb_run_set_attr(run, "d", "2");
	pdb_run_set_attrs(run, kv, 4);
	assert_int_equal(run->nattrs, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(run->attrs[i].key, want[i][0]);
		assert_string_equal(run->attrs[i].value, want[i][1]);
	}
	pdb_run_set_attrs(run, kv, 0);
	assert_int_equal(run->nattrs, 4);
	pdb_run_free(run);
}

/* Random batches of keys (repeats included) into one run, one key at a
 * time into another: the same attributes, in the same order. */
static void test_batches_equal_one_at_a_time(void **state)
{
	struct pdb_run *batched = pdb_run_new(), *single = pdb_run_new();
	struct pdb_attr kv[50];
	char keys[50][48], values[50][48];

	(void)state;
	srand(7);
	for (int round = 0; round < 40; round++) {
		size_t n = (size_t)(rand() % 50);
		for (size_t i = 0; i < n; i++) {
			snprintf(keys[i], sizeof keys[i], "k%d", rand() % 300);
			snprintf(values[i], sizeof values[i], "v%d.%zu", round, i);
			kv[i] = (struct pdb_attr){ keys[i], values[i] };
			pdb_run_set_attr(single, keys[i], values[i]);
		}
		pdb_run_set_attrs(batched, kv, n);
	}
	assert_int_equal(batched->nattrs, single->nattrs);
	for (size_t i = 0; i < single->nattrs; i++) {
		assert_string_equal(batched->attrs[i].key, single->attrs[i].key);
		assert_string_equal(batched->attrs[i].value, single->attrs[i].value);
		assert_string_equal(pdb_run_get_attr(batched, single->attrs[i].key),
				    single->attrs[i].value);
	}
	pdb_run_free(batched);
	pdb_run_free(single);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_replaces_and_sorts),
		cmocka_unit_test(test_batches_equal_one_at_a_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
