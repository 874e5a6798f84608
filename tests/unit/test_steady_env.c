/* A steady environment: whatever environment and arguments below the
 * steps a benchmark is given, the process starts with as many variables
 * and as many bytes of arguments and environment on its stack. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "runner/steady_env.h"

/* The bytes the kernel puts on the stack for v: strings, pointers, NULL. */
static size_t stack_bytes(char *const *v, size_t *n)
{
	size_t bytes = sizeof(char *);

	for (*n = 0; v[*n]; (*n)++)
		bytes += strlen(v[*n]) + 1 + sizeof(char *);
	return bytes;
}

static void release(char **env, size_t from)
{
	for (size_t i = from; env[i]; i++)
		free(env[i]);
	free(env);
}

static void same_count_and_bytes(void **state)
{
	const char *argv_a[] = { "/tmp/a/base", NULL }, *argv_b[] = { "/tmp/a/candidate", "--flag", NULL };
	char *env_a[] = { "PATH=/usr/bin:/bin", "HOME=/root", NULL };
	char *env_b[] = { "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/home/runner", "CI=true",
			  "GITHUB_SHA=0123456789abcdef0123456789abcdef01234567", NULL };
	char **a = pdb_steady_env(argv_a, env_a), **b = pdb_steady_env(argv_b, env_b);
	size_t na, nb, nargs_a, nargs_b;
	size_t bytes_a = stack_bytes(a, &na) + stack_bytes((char *const *)argv_a, &nargs_a);
	size_t bytes_b = stack_bytes(b, &nb) + stack_bytes((char *const *)argv_b, &nargs_b);

	(void)state;
	assert_int_equal(na, PDB_STEADY_VARS);
	assert_int_equal(nb, PDB_STEADY_VARS);
	assert_int_equal(bytes_a, PDB_STEADY_BYTES);
	assert_int_equal(bytes_b, PDB_STEADY_BYTES);
	/* the environment given is kept, first, as it was */
	assert_ptr_equal(a[0], env_a[0]);
	assert_ptr_equal(b[3], env_b[3]);
	assert_int_equal(strncmp(a[2], PDB_STEADY_PAD "00=", strlen(PDB_STEADY_PAD) + 3), 0);
	release(a, 2);
	release(b, 4);
}

/* A count already at a step gets a whole step of pads: never none. */
static void a_full_step_gets_pads(void **state)
{
	const char *argv[] = { "x", NULL };
	char *env[PDB_STEADY_VARS + 1];
	char **out;
	size_t n, nargs;

	(void)state;
	for (size_t i = 0; i < PDB_STEADY_VARS; i++)
		env[i] = "V=1";
	env[PDB_STEADY_VARS] = NULL;
	out = pdb_steady_env(argv, env);
	assert_int_equal(stack_bytes(out, &n) + stack_bytes((char *const *)argv, &nargs), PDB_STEADY_BYTES);
	assert_int_equal(n, 2 * PDB_STEADY_VARS);
	release(out, PDB_STEADY_VARS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_count_and_bytes),
		cmocka_unit_test(a_full_step_gets_pads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
