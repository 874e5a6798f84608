/* Unit tests: Universal Scalability Law fit — exact recovery, noise, bounds and refusals. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "chart/usl.h"

static double law(double lambda, double sigma, double kappa, double n)
{
	return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
}

/* Points on the law itself give back its parameters and peak. */
static void test_exact(void **state)
{
	static const double n[] = { 1, 2, 4, 8, 16, 32, 64 };
	double x[7];
	struct pdb_usl u;

	(void)state;
	for (int i = 0; i < 7; i++)
		x[i] = law(1000, 0.05, 0.002, n[i]);
	assert_int_equal(pdb_usl_fit(n, x, 7, &u), 0);
	assert_float_equal(u.lambda, 1000, 1e-3);
	assert_float_equal(u.sigma, 0.05, 1e-7);
	assert_float_equal(u.kappa, 0.002, 1e-8);
	assert_float_equal(u.peak_n, sqrt(0.95 / 0.002), 1e-3);
	assert_float_equal(u.r2, 1, 1e-9);
	assert_float_equal(pdb_usl_eval(&u, 8), x[3], 1e-6);
}

/* Without a 1-vCPU point the closed-form start is off; LM still converges. */
static void test_no_single(void **state)
{
	static const double n[] = { 2, 4, 6, 8, 12 };
	double x[5];
	struct pdb_usl u;

	(void)state;
	for (int i = 0; i < 5; i++)
		x[i] = law(500, 0.1, 0.0005, n[i]);
	assert_int_equal(pdb_usl_fit(n, x, 5, &u), 0);
	assert_float_equal(u.lambda, 500, 1e-2);
	assert_float_equal(u.sigma, 0.1, 1e-5);
	assert_float_equal(u.kappa, 0.0005, 1e-6);
}

/* Noisy data: a close fit, parameters in their bounds, a better cost than
 * the start; linear data: no contention, no peak. */
static void test_noise_and_bounds(void **state)
{
	static const double n[] = { 1, 2, 4, 8, 16, 24, 32, 48 };
	static const double noise[] = { 1.012, 0.991, 1.004, 0.987, 1.009, 0.996, 1.015, 0.989 };
	double x[8], lin[8];
	struct pdb_usl u;

	(void)state;
	for (int i = 0; i < 8; i++) {
		x[i] = law(11800, 0.035, 0.0009, n[i]) * noise[i];
		lin[i] = 100 * n[i];
	}
	assert_int_equal(pdb_usl_fit(n, x, 8, &u), 0);
	assert_true(u.r2 > 0.99);
	assert_true(u.sigma >= 0 && u.sigma <= 1 && u.kappa >= 0 && u.kappa <= 1);
	assert_float_equal(u.sigma, 0.035, 0.01);
	assert_float_equal(u.kappa, 0.0009, 0.0003);
	assert_int_equal(pdb_usl_fit(n, lin, 8, &u), 0);
	assert_float_equal(u.sigma, 0, 1e-9);
	assert_float_equal(u.kappa, 0, 1e-9);
	assert_true(isinf(u.peak_n));
}

/* Fewer than four distinct counts, or a non-positive value: no fit. */
static void test_refusals(void **state)
{
	static const double n[] = { 1, 2, 2, 4, 4 };
	static const double x[] = { 10, 19, 19.5, 35, 36 };
	static const double n4[] = { 1, 2, 4, 8 };
	static const double x4[] = { 10, 19, 0, 60 };
	struct pdb_usl u;

	(void)state;
	assert_int_equal(pdb_usl_fit(n, x, 5, &u), -1);
	assert_int_equal(pdb_usl_fit(n4, x4, 4, &u), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_no_single),
		cmocka_unit_test(test_noise_and_bounds),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
