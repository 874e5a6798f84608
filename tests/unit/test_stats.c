/* Unit tests: Mann-Whitney U, Hodges-Lehmann, quantiles, Holm, against vectors and SciPy. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats.h"
#include "util.h"

static void assert_close(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want) + 1e-300)) {
		fail_msg("got %.17g, want %.17g", got, want);
	}
}

static double mwu_p(const double *x, size_t nx, const double *y, size_t ny)
{
	struct pdb_mwu r;
	assert_int_equal(pdb_stats_mann_whitney(x, nx, y, ny, &r), 0);
	return r.p;
}

static void test_mwu_vectors(void **state)
{
	static const double a[] = { 1, 2, 3, 4 }, b[] = { 5, 6, 7, 8 };
	static const double c[] = { 1, 2, 3, 4, 5 }, d[] = { 6, 7, 8, 9, 10 };
	static const double same[] = { 3, 3, 3, 3, 3, 3 };
	struct pdb_mwu r;
	(void)state;
	assert_close(mwu_p(a, 4, b, 4), 2.0 / 70, 1e-12);          /* 0.02857 */
	assert_close(mwu_p(b, 4, a, 4), 2.0 / 70, 1e-12);
	assert_close(mwu_p(c, 5, d, 5), 2.0 / 252, 1e-12);         /* 0.0079 */
	assert_close(mwu_p(same, 6, same, 6), 1.0, 0);
	assert_close(mwu_p(same, 6, same, 3), 1.0, 0);
	/* U counts pairs x > y; interleaved samples sit at the centre */
	assert_int_equal(pdb_stats_mann_whitney(b, 4, a, 4, &r), 0);
	assert_close(r.u, 16, 0);
	assert_int_equal(r.exact, 1);
	assert_close(mwu_p(a, 4, a, 4), 1.0, 0);
	assert_int_equal(pdb_stats_mann_whitney(a, 0, b, 4, &r), -1);
}

/* Paired: the signed-rank test (R's wilcox.test(d) p-values) and the
 * Hodges-Lehmann interval of the Walsh averages: for 10 pairs at 95 % the
 * 9th and 47th of the 55 (qsignrank(0.025, 10) = 9). */
static void test_signed_rank(void **state)
{
	static const double up[] = { 1, 2, 3, 4, 5, 6, 7, 8 }, mixed[] = { 1, 2, 3, 4, 5, -6 };
	static const double ones[] = { 1, 1, 1, 1, 1, 1, 1, 1 }, zeros[] = { 0, 0, 0 };
	static const double ten[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	static const double withzero[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct pdb_mwu r;
	double est, lo, hi;
	(void)state;
	assert_int_equal(pdb_stats_signed_rank(up, 8, &r), 0);
	assert_close(r.p, 2.0 / 256, 1e-12);                         /* 0.0078 */
	assert_close(r.u, 36, 0);
	assert_int_equal(pdb_stats_signed_rank(mixed, 6, &r), 0);
	assert_close(r.p, 28.0 / 64, 1e-12);                         /* 0.4375 */
	assert_int_equal(pdb_stats_signed_rank(ones, 8, &r), 0);     /* all tied: still the extreme */
	assert_close(r.p, 2.0 / 256, 1e-12);
	assert_int_equal(pdb_stats_signed_rank(withzero, 9, &r), 0); /* the zero is left out */
	assert_close(r.p, 2.0 / 256, 1e-12);
	assert_int_equal(pdb_stats_signed_rank(zeros, 3, &r), 0);
	assert_close(r.p, 1, 0);
	assert_int_equal(pdb_stats_signed_rank(up, 0, &r), -1);
	assert_close(pdb_stats_signed_rank_min_p(8), 2.0 / 256, 0);
	assert_close(pdb_stats_signed_rank_min_p(5), 2.0 / 32, 0);
	assert_int_equal(pdb_stats_hodges_lehmann_paired(ten, 10, 0.95, &est, &lo, &hi), 0);
	assert_close(est, 5.5, 1e-12);
	assert_close(lo, 3, 1e-12);
	assert_close(hi, 8, 1e-12);
	/* 5 pairs cannot reach 99 %: no interval */
	assert_int_equal(pdb_stats_hodges_lehmann_paired(ten, 5, 0.99, &est, &lo, &hi), 0);
	assert_true(isnan(lo) && isnan(hi));
	assert_close(est, 3, 1e-12);
}

/* Calibration, seeded: under the null (A/A pairs of log-normal noise with a
 * drift common to both sides of a pair) the exact signed-rank test calls
 * p <= 0.01 at most 1 % of the time (it is conservative: the discrete
 * distribution rarely lands on 0.01), and the 99 % interval covers 0 as
 * often (seed 18: 18 and 18 of 2000); a 10 % shift under the same noise
 * is found nearly always (2000 of 2000). */
static void test_signed_rank_calibration(void **state)
{
	enum { TRIALS = 2000, PAIRS = 30 };
	double d[PAIRS], est, lo, hi;
	int alarms = 0, missed = 0, found = 0;
	struct pdb_mwu r;
	(void)state;
	srand(18);
	for (int t = 0; t < TRIALS; t++) {
		for (int i = 0; i < PAIRS; i++) {
			/* sums of uniforms: noise of about 3 % a value; the drift cancels */
			double drift = 0.2 * i / PAIRS, a = 0, b = 0;
			for (int k = 0; k < 6; k++) {
				a += (double)rand() / RAND_MAX - 0.5;
				b += (double)rand() / RAND_MAX - 0.5;
			}
			d[i] = (drift + 0.04 * a) - (drift + 0.04 * b);
		}
		assert_int_equal(pdb_stats_signed_rank(d, PAIRS, &r), 0);
		alarms += r.p <= 0.01;
		assert_int_equal(pdb_stats_hodges_lehmann_paired(d, PAIRS, 0.99, &est, &lo, &hi), 0);
		missed += lo > 0 || hi < 0;
		for (int i = 0; i < PAIRS; i++)
			d[i] += log(1.10);
		assert_int_equal(pdb_stats_signed_rank(d, PAIRS, &r), 0);
		found += r.p <= 0.01;
	}
	if (alarms > TRIALS / 100 || missed > TRIALS / 100 || found < TRIALS * 99 / 100)
		fail_msg("A/A p <= 0.01 in %d, interval missing 0 in %d, 10 %% found in %d of %d",
			 alarms, missed, found, TRIALS);
}

/* Hand-counted ties: x = {1, 2}, y = {2, 3}. Of the C(4,2) = 6 ways to
 * pick x from {1, 2, 2, 3} (midranks 1, 2.5, 2.5, 4), U = R - 3 takes the
 * values 0.5, 0.5, 2, 2, 3.5, 3.5. U_obs = 0.5: P(U <= 0.5) = 2/6 and
 * P(U >= 0.5) = 1, so p = 2 * 2/6 = 2/3. */
static void test_mwu_ties_small(void **state)
{
	static const double x[] = { 1, 2 }, y[] = { 2, 3 };
	static const double x2[] = { 1, 1, 1 }, y2[] = { 2, 2, 2 };
	(void)state;
	assert_close(mwu_p(x, 2, y, 2), 2.0 / 3, 1e-12);
	/* fully separated with ties inside each side: still the most extreme */
	assert_close(mwu_p(x2, 3, y2, 3), 2.0 / 20, 1e-12);
}

/* Ties inside one side go through the tied-rank programme; a fully
 * separated pair of samples is still the one most extreme arrangement. */
/* Two-sided p by listing every way of choosing which nx of the pooled
 * values are x (Gosper's next-subset): twice the smaller tail, as SciPy's
 * permutation_test. */
static double brute_force_p(const double *pool, size_t nx, size_t ny, double u_obs)
{
	size_t N = nx + ny;
	double ways = 0, below = 0, above = 0;

	for (uint32_t set = (UINT32_C(1) << nx) - 1; set < (UINT32_C(1) << N);) {
		double x[32], y[32];
		size_t a = 0, b = 0;
		struct pdb_mwu r;
		for (size_t i = 0; i < N; i++) {
			if (set >> i & 1)
				x[a++] = pool[i];
			else
				y[b++] = pool[i];
		}
		assert_int_equal(pdb_stats_mann_whitney(x, nx, y, ny, &r), 0);
		ways++;
		below += r.u <= u_obs;
		above += r.u >= u_obs;
		uint32_t low = set & -set, ripple = set + low;
		set = (((ripple ^ set) >> 2) / low) | ripple;
	}
	return fmin(1.0, 2 * fmin(below, above) / ways);
}

/* The pruned dynamic programme against full enumeration, on samples with
 * heavy ties (values from few levels) and every kind of shift. */
static void test_mwu_ties_enumerated(void **state)
{
	(void)state;
	srand(11);
	for (int c = 0; c < 24; c++) {
		size_t nx = 3 + (size_t)rand() % 6, ny = 3 + (size_t)rand() % 6;
		int levels = 2 + rand() % 6, shift = rand() % 3;
		double pool[32];
		struct pdb_mwu r;
		for (size_t i = 0; i < nx; i++)
			pool[i] = rand() % levels;
		for (size_t i = nx; i < nx + ny; i++)
			pool[i] = rand() % levels + shift * (rand() % 2);
		assert_int_equal(pdb_stats_mann_whitney(pool, nx, pool + nx, ny, &r), 0);
		assert_true(r.exact);
		assert_close(r.p, brute_force_p(pool, nx, ny, r.u), 1e-12);
	}
}

static void test_mwu_ties_one_side(void **state)
{
	static const double x[] = { 1, 2, 2, 3 }, y[] = { 4, 5, 6, 7 };
	static const double x5[] = { 1, 1, 2, 2, 3 }, y5[] = { 6, 7, 8, 9, 9 };
	(void)state;
	assert_close(mwu_p(x, 4, y, 4), 2.0 / 70, 1e-12);
	assert_close(mwu_p(y, 4, x, 4), 2.0 / 70, 1e-12);
	assert_close(mwu_p(x5, 5, y5, 5), 2.0 / 252, 1e-12);
}

static void test_mwu_normal(void **state)
{
	double x[60], y[60];
	struct pdb_mwu r;
	(void)state;
	for (int i = 0; i < 60; i++) {
		x[i] = i;
		y[i] = i + 0.5;
	}
	assert_int_equal(pdb_stats_mann_whitney(x, 60, y, 60, &r), 0);
	assert_int_equal(r.exact, 0);
	/* U = 1770, mu = 1800, sigma^2 = 3600 * 121 / 12 = 36300 */
	assert_close(r.u, 1770, 0);
	assert_close(r.p, 2 * pdb_stats_norm_sf(29.5 / sqrt(36300.0)), 1e-12);
	for (int i = 0; i < 60; i++)
		x[i] = y[i] = 7;
	assert_int_equal(pdb_stats_mann_whitney(x, 60, y, 60, &r), 0);
	assert_close(r.p, 1.0, 0);
}

static void test_min_p(void **state)
{
	(void)state;
	assert_close(pdb_stats_mwu_min_p(4, 4), 2.0 / 70, 1e-12);
	assert_close(pdb_stats_mwu_min_p(5, 5), 2.0 / 252, 1e-12);
	assert_close(pdb_stats_mwu_min_p(1, 1), 1.0, 0);
}

static void test_hl_rank(void **state)
{
	(void)state;
	assert_int_equal(pdb_stats_hl_rank(10, 10, 0.95), 24);   /* 24th and 77th */
	assert_int_equal(pdb_stats_hl_rank(5, 5, 0.95), 3);      /* U crit 2 */
	assert_int_equal(pdb_stats_hl_rank(8, 8, 0.99), 8);      /* U crit 7 */
	assert_int_equal(pdb_stats_hl_rank(3, 3, 0.95), 0);
	/* normal approximation: floor(mu - 0.5 - z sigma) + 1 */
	double sigma = sqrt(60.0 * 60 * 121 / 12), z = pdb_stats_norm_isf(0.025);
	assert_int_equal(pdb_stats_hl_rank(60, 60, 0.95),
			 (size_t)floor(1800 - 0.5 - z * sigma) + 1);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The interval is the 24th and 77th of the 100 sorted differences. */
static void test_hodges_lehmann(void **state)
{
	double x[10], y[10], diffs[100], est, lo, hi;
	unsigned seed = 7;
	(void)state;
	for (int i = 0; i < 10; i++) {
		seed = seed * 1103515245u + 12345u;
		x[i] = (seed >> 8) % 1000 / 10.0;
		seed = seed * 1103515245u + 12345u;
		y[i] = (seed >> 8) % 1000 / 10.0 + 5;
	}
	for (int i = 0; i < 10; i++)
		for (int j = 0; j < 10; j++)
			diffs[i * 10 + j] = y[j] - x[i];
	qsort(diffs, 100, sizeof *diffs, cmp_double);
	assert_int_equal(pdb_stats_hodges_lehmann(x, 10, y, 10, 0.95, &est, &lo, &hi), 0);
	assert_close(est, (diffs[49] + diffs[50]) / 2, 0);
	assert_close(lo, diffs[23], 0);
	assert_close(hi, diffs[76], 0);
	/* odd count of pairs: the middle one */
	assert_int_equal(pdb_stats_hodges_lehmann(x, 3, y, 1, 0.95, &est, &lo, &hi), 0);
	double d3[3] = { y[0] - x[0], y[0] - x[1], y[0] - x[2] };
	qsort(d3, 3, sizeof *d3, cmp_double);
	assert_close(est, d3[1], 0);
	assert_true(isnan(lo) && isnan(hi));
	/* negative and zero values are fine: differences, not ratios */
	static const double a[] = { -1, 0, 1 }, b[] = { -1, 0, 1 };
	assert_int_equal(pdb_stats_hodges_lehmann(a, 3, b, 3, 0.95, &est, &lo, &hi), 0);
	assert_close(est, 0, 0);
}

/* A random sample for the selection test: heavy ties (a few integer
 * levels), light ties (values rounded as tools print them, in log space, as
 * compare uses them), negative and zero values, or one value repeated. */
static void random_sample(double *v, size_t n, int kind, unsigned *seed)
{
	double base = 1 + (double)(rand_r(seed) % 1000);
	for (size_t i = 0; i < n; i++) {
		double u = (double)rand_r(seed) / RAND_MAX;
		switch (kind) {
		case 0: v[i] = rand_r(seed) % 4; break;
		case 1: v[i] = rand_r(seed) % 40 - 20; break;
		case 2: v[i] = log(round(base * (1 + 0.03 * (u - 0.5)) * 1e3) / 1e6); break;
		case 3: v[i] = u * 1e-3 - 5e-4; break;
		case 4: v[i] = 0.25; break;
		default: v[i] = round(u * 1e4) / 100 * (rand_r(seed) % 2 ? 1 : -1); break;
		}
	}
}

/* The selection of ranks among the nx * ny differences, against all of them
 * sorted: every rank of small cases, and the median, the ends and random
 * ranks of the others, on many random inputs with ties; bit for bit. */
static void test_hl_selection_brute(void **state)
{
	static double x[300], y[300], diffs[300 * 200];
	unsigned seed = 2024;
	(void)state;
	for (int c = 0; c < 3000; c++) {
		int big = c % 100 == 99;
		size_t nx = 1 + (size_t)rand_r(&seed) % (big ? 300 : 40);
		size_t ny = 1 + (size_t)rand_r(&seed) % (big ? 200 : 40), pairs = nx * ny;
		int kx = rand_r(&seed) % 6, ky = rand_r(&seed) % 3 ? kx : rand_r(&seed) % 6;
		double shift = (rand_r(&seed) % 3) * 0.01, est, lo, hi;

		random_sample(x, nx, kx, &seed);
		random_sample(y, ny, ky, &seed);
		for (size_t j = 0; j < ny; j++)
			y[j] += kx == ky && kx >= 2 ? shift : 0;
		for (size_t i = 0; i < nx; i++)
			for (size_t j = 0; j < ny; j++)
				diffs[i * ny + j] = y[j] - x[i];
		qsort(diffs, pairs, sizeof *diffs, cmp_double);
		double want_est = pairs % 2 ? diffs[pairs / 2]
			: (diffs[pairs / 2 - 1] + diffs[pairs / 2]) / 2;
		size_t half = (pairs + 1) / 2, tries = pairs <= 200 ? half : 12;
		for (size_t t = 0; t <= tries; t++) {
			/* k = 0 (no interval), then every k, or the ends and random ones */
			size_t k = pairs <= 200 ? t : t == 0 ? 0 : t == 1 ? 1 : t == 2 ? half
				: 1 + (size_t)rand_r(&seed) % half;
			assert_int_equal(pdb_stats_hodges_lehmann_at(x, nx, y, ny, k, &est, &lo, &hi), 0);
			if (memcmp(&est, &want_est, sizeof est) != 0)
				fail_msg("case %d (%zu x %zu, kinds %d %d): estimate %.17g, sorted %.17g",
					 c, nx, ny, kx, ky, est, want_est);
			if (k == 0) {
				assert_true(isnan(lo) && isnan(hi));
				continue;
			}
			if (memcmp(&lo, &diffs[k - 1], sizeof lo) != 0 ||
			    memcmp(&hi, &diffs[pairs - k], sizeof hi) != 0)
				fail_msg("case %d (%zu x %zu, kinds %d %d), k %zu: [%.17g, %.17g], "
					 "sorted [%.17g, %.17g]", c, nx, ny, kx, ky, k, lo, hi,
					 diffs[k - 1], diffs[pairs - k]);
		}
	}
}

static void test_quantiles(void **state)
{
	static const double s[] = { 1, 2, 3, 4 };
	double v[] = { 5, 1, 3 }, pos[] = { 1, 4, 16 }, bad[] = { 1, 0 };
	(void)state;
	assert_close(pdb_stats_quantile(s, 4, 0.25), 1.75, 1e-15);   /* numpy */
	assert_close(pdb_stats_quantile(s, 4, 0.75), 3.25, 1e-15);
	assert_close(pdb_stats_quantile(s, 4, 1), 4, 0);
	assert_close(pdb_stats_quantile(s, 1, 0.5), 1, 0);
	assert_true(isnan(pdb_stats_quantile(s, 0, 0.5)));
	assert_close(pdb_stats_median(v, 3), 3, 0);
	assert_close(pdb_stats_mean(s, 4), 2.5, 0);
	assert_close(pdb_stats_geomean(pos, 3), 4, 1e-15);
	assert_true(isnan(pdb_stats_geomean(bad, 2)));
}

static void test_holm(void **state)
{
	double p[] = { 0.01, 0.04, NAN, 0.03, 0.5 };
	(void)state;
	pdb_stats_holm(p, 5);
	/* m = 4: 0.01*4 = 0.04, 0.03*3 = 0.09, 0.04*2 = 0.08 -> 0.09, 0.5 */
	assert_close(p[0], 0.04, 1e-15);
	assert_close(p[3], 0.09, 1e-15);
	assert_close(p[1], 0.09, 1e-15);
	assert_true(isnan(p[2]));
	assert_close(p[4], 0.5, 1e-15);
}

static void test_norm(void **state)
{
	(void)state;
	assert_close(pdb_stats_norm_sf(0), 0.5, 1e-15);
	assert_close(pdb_stats_norm_isf(0.025), 1.959963984540054, 1e-12);
	assert_close(pdb_stats_norm_sf(pdb_stats_norm_isf(0.005)), 0.005, 1e-12);
}

/* Check every case of a file written by fixtures/compare/mwu_scipy.py;
 * returns how many were checked. */
static int check_scipy_file(FILE *f, const char *name)
{
	char kind[16];
	size_t nx, ny;
	double want;
	int count = 0;

	while (fscanf(f, "%15s %zu %zu %lf", kind, &nx, &ny, &want) == 4) {
		double *v = pdb_xmalloc((nx + ny) * sizeof *v);
		struct pdb_mwu r;

		for (size_t i = 0; i < nx + ny; i++)
			if (fscanf(f, "%lf", &v[i]) != 1)
				fail_msg("%s: case %d: short line", name, count + 1);
		assert_int_equal(pdb_stats_mann_whitney(v, nx, v + nx, ny, &r), 0);
		assert_int_equal(r.exact, strcmp(kind, "normal") != 0);
		if (!(fabs(r.p - want) <= 1e-9 * want + 1e-13))
			fail_msg("%s: case %d (%s %zu vs %zu): p %.17g, scipy %.17g", name,
				 count + 1, kind, nx, ny, r.p, want);
		free(v);
		count++;
	}
	return count;
}

static const char *root_path(const char *rel, char *buf, size_t size)
{
	const char *root = getenv("ROOT");
	snprintf(buf, size, "%s/%s", root ? root : ".", rel);
	return buf;
}

static void test_scipy_fixture(void **state)
{
	char path[4096];
	FILE *f = fopen(root_path("fixtures/compare/mwu-scipy.txt", path, sizeof path), "r");
	(void)state;
	if (!f)
		fail_msg("cannot open %s (run from the project root or set ROOT)", path);
	assert_int_equal(check_scipy_file(f, path), 200);
	fclose(f);
}

/* Fresh random cases from SciPy itself, when it is installed. */
static void test_scipy_live(void **state)
{
	char script[4096], cmd[8300];
	FILE *f;
	int n;
	(void)state;
	if (system("/usr/bin/python3 -c 'import scipy' >/dev/null 2>&1") != 0) {
		skip();
		return;
	}
	snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s 97 200",
		 root_path("fixtures/compare/mwu_scipy.py", script, sizeof script));
	assert_non_null(f = popen(cmd, "r"));
	n = check_scipy_file(f, "scipy");
	assert_int_equal(pclose(f), 0);
	assert_int_equal(n, 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mwu_vectors),
		cmocka_unit_test(test_mwu_ties_small),
		cmocka_unit_test(test_mwu_ties_enumerated),
		cmocka_unit_test(test_mwu_ties_one_side),
		cmocka_unit_test(test_mwu_normal),
		cmocka_unit_test(test_min_p),
		cmocka_unit_test(test_hl_rank),
		cmocka_unit_test(test_hodges_lehmann),
		cmocka_unit_test(test_hl_selection_brute),
		cmocka_unit_test(test_quantiles),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_norm),
		cmocka_unit_test(test_signed_rank),
		cmocka_unit_test(test_signed_rank_calibration),
		cmocka_unit_test(test_scipy_fixture),
		cmocka_unit_test(test_scipy_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
