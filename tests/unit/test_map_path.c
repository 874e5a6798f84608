/* Unit tests: MAP.yaml record and field paths ("$.results[*]", "stats.p99") split into steps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "formats/map_spec.h"

/* Steps written back as "key", "#N" (index) or "*", joined by spaces. */
static const struct {
	const char *path, *steps; /* steps NULL: the path is refused */
} cases[] = {
	{ "$", "" },
	{ "", "" },
	{ "$.results", "results" },
	{ "results", "results" },
	{ "results[*]", "results *" },
	{ "$.results[*]", "results *" },
	{ "$[*]", "*" },
	{ "[*]", "*" },
	{ "runs[0].time", "runs #0 time" },
	{ "latency_ms.p50", "latency_ms p50" },
	{ "a.b.c[12][3]", "a b c #12 #3" },
	{ "missing %", "missing %" },
	{ "$results", NULL },
	{ "a..b", NULL },
	{ "a.", NULL },
	{ "a[", NULL },
	{ "a[-1]", NULL },
	{ "a[x]", NULL },
	{ "a[*].b", NULL },
	{ "a[0]b", NULL },
};

static void test_paths(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pdb_map_step *steps;
		const char *what = NULL;
		char text[256] = "";
		size_t n;
		int rc = pdb_map_path_parse(cases[i].path, &steps, &n, &what);

		if (!cases[i].steps) {
			assert_int_equal(rc, -1);
			assert_non_null(what);
			assert_null(steps);
			continue;
		}
		assert_int_equal(rc, 0);
		for (size_t k = 0; k < n; k++) {
			size_t len = strlen(text);
			if (steps[k].key)
				snprintf(text + len, sizeof text - len, "%s%s", k ? " " : "", steps[k].key);
			else if (steps[k].index < 0)
				snprintf(text + len, sizeof text - len, "%s*", k ? " " : "");
			else
				snprintf(text + len, sizeof text - len, "%s#%ld", k ? " " : "", steps[k].index);
		}
		assert_string_equal(text, cases[i].steps);
		pdb_map_steps_free(steps, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
