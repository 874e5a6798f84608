/* Unit tests: false change points and recall of detect on long seeded histories (years of nightly runs). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "detect.h"

/*
 * Long histories with known truth. Every series has RUNS runs at level
 * 1000 and one of four noise shapes, by series number: one value per run
 * with gaussian noise, one value with lognormal noise, the median of 5
 * lognormal samples, the median of 3 gaussian samples; the sample noise
 * is 1-5 % (uniform). sd is the noise of the per-run value (the median of
 * k normal samples has sd 0.536 sigma for k = 5, 0.670 for k = 3).
 *
 * Flat series have no step. Step series have regimes of 10-150 runs with
 * steps of 3-8 sd (either sign) between them, and now and then, inside a
 * regime (10 runs from either end of it), an excursion of 2-4 runs of 4-8
 * sd that comes back to the regime's level.
 *
 * A change point is true when it lies within TOLERANCE runs of a step (one
 * to one, nearest first); every other change point is false. Goals (issue
 * 17): at most 0.1 false change points per 1,000 run-series, every step
 * found, no change point at an excursion.
 *
 * DETECT_LONG_SERIES and DETECT_LONG_RUNS (environment) scale the sets up
 * for make bench; the assertions hold at any scale.
 */
#define TOLERANCE 3
#define MAX_STEPS 200

static uint64_t rng_state;

static double uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static double normal(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2.0 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

static size_t between(size_t lo, size_t hi)
{
	return lo + (size_t)(uniform() * (double)(hi - lo + 1));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

enum shape { GAUSS1, LOGN1, LOGN5, GAUSS3, NSHAPES };
static const char *const shape_name[] = { "gaussian, 1 value", "lognormal, 1 value",
					  "lognormal, median of 5", "gaussian, median of 3" };

struct history {
	double *x;
	size_t n;
	size_t steps[MAX_STEPS], nsteps;
	size_t exc[MAX_STEPS], exclen[MAX_STEPS], nexc;
};

/* One per-run value at level: the median of the shape's samples. */
static double value(enum shape sh, double level, double sigma)
{
	double s[5];
	int k = sh == LOGN5 ? 5 : sh == GAUSS3 ? 3 : 1;

	for (int i = 0; i < k; i++)
		s[i] = sh == LOGN1 || sh == LOGN5 ? level * exp(sigma * normal()) :
			level * (1 + sigma * normal());
	qsort(s, (size_t)k, sizeof *s, cmp_double);
	return s[k / 2];
}

static void make_history(struct history *h, enum shape sh, int with_steps)
{
	double sigma = 0.01 + 0.04 * uniform(), level = 1000;
	double sd = sigma * (sh == LOGN5 ? 0.536 : sh == GAUSS3 ? 0.670 : 1.0);
	size_t next = with_steps ? between(10, 150) : h->n, exc = h->n, excend = 0;
	double exclevel = 0;

	h->nsteps = h->nexc = 0;
	for (size_t i = 0; i < h->n; i++) {
		if (i == next) {
			double size = (3.0 + 5.0 * uniform()) * sd;

			level *= uniform() < 0.5 ? 1 - size : 1 + size;
			h->steps[h->nsteps++] = i;
			next = i + between(10, 150);
			if (next + 10 > h->n || h->nsteps == MAX_STEPS)
				next = h->n;
			exc = h->n;
			if (next - i >= 30 && uniform() < 0.3 && h->nexc < MAX_STEPS) {
				exc = between(i + 10, next - 15);
				excend = exc + between(2, 4);
				size = (4.0 + 4.0 * uniform()) * sd;
				exclevel = level * (uniform() < 0.5 ? 1 - size : 1 + size);
				h->exc[h->nexc] = exc;
				h->exclen[h->nexc++] = excend - exc;
			}
		}
		h->x[i] = value(sh, i >= exc && i < excend ? exclevel : level, sigma);
	}
}

struct tally {
	size_t series, points, cps, fp, tp, steps, exc, exc_cps, exc_flagged;
	size_t fp_series;  /* series with at least one false change point */
};

/* Match change points to steps (nearest first, one to one); count the
 * rest as false, and those within TOLERANCE of an excursion apart too. */
static void score(const struct pdb_detect_result *r, const struct history *h,
		  struct tally *t)
{
	char *used = calloc(r->ncps + 1, 1), stepused[MAX_STEPS] = { 0 };
	size_t m = 0, fp;

	for (size_t dist = 0; dist <= TOLERANCE; dist++)
		for (size_t s = 0; s < h->nsteps; s++)
			for (size_t d = 0; d < r->ncps && !stepused[s]; d++) {
				size_t a = r->cps[d].index, b = h->steps[s];

				if (!used[d] && (a > b ? a - b : b - a) == dist) {
					used[d] = stepused[s] = 1;
					m++;
				}
			}
	for (size_t e = 0; e < h->nexc; e++) {
		int flagged = 0;

		for (size_t d = 0; d < r->ncps; d++)
			if (!used[d] && r->cps[d].index + TOLERANCE >= h->exc[e] &&
			    r->cps[d].index <= h->exc[e] + h->exclen[e] + TOLERANCE)
				t->exc_cps++;
		for (size_t k = 0; k < r->noutliers; k++)
			if (r->outliers[k].index >= h->exc[e] &&
			    r->outliers[k].index < h->exc[e] + h->exclen[e])
				flagged = 1;
		t->exc_flagged += (size_t)flagged;
	}
	fp = r->ncps - m;
	t->series++;
	t->points += h->n;
	t->cps += r->ncps;
	t->tp += m;
	t->fp += fp;
	t->fp_series += fp > 0;
	t->steps += h->nsteps;
	t->exc += h->nexc;
	free(used);
}

static size_t env_size(const char *name, size_t dflt)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return dflt;
	n = strtoull(v, &end, 10);
	return *end || n < 100 ? dflt : (size_t)n;
}

/* Detect on nseries seeded histories of each kind; tallies per shape. */
static void run_set(uint64_t seed, int with_steps, struct tally *t, double *secs)
{
	size_t nseries = env_size("DETECT_LONG_SERIES", 200);
	struct history h;
	struct pdb_detect_opts o;
	struct pdb_err err;
	clock_t c0 = clock();

	h.n = env_size("DETECT_LONG_RUNS", 1000);
	h.x = calloc(h.n, sizeof *h.x);
	rng_state = seed;
	pdb_detect_opts_init(&o);
	memset(t, 0, NSHAPES * sizeof *t);
	for (size_t i = 0; i < nseries; i++) {
		struct pdb_detect_result r;
		enum shape sh = (enum shape)(i % NSHAPES);

		make_history(&h, sh, with_steps);
		assert_int_equal(pdb_detect(h.x, h.n, &o, NULL, NULL, &r, &err), 0);
		score(&r, &h, &t[sh]);
		pdb_detect_result_release(&r);
	}
	*secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
	free(h.x);
}

static void sum(const struct tally *t, struct tally *all)
{
	memset(all, 0, sizeof *all);
	for (int s = 0; s < NSHAPES; s++) {
		all->series += t[s].series;
		all->points += t[s].points;
		all->cps += t[s].cps;
		all->fp += t[s].fp;
		all->tp += t[s].tp;
		all->steps += t[s].steps;
		all->exc += t[s].exc;
		all->exc_cps += t[s].exc_cps;
		all->exc_flagged += t[s].exc_flagged;
		all->fp_series += t[s].fp_series;
	}
}

static double per_1000(size_t fp, size_t points)
{
	return 1000.0 * (double)fp / (double)points;
}

static void test_flat(void **state)
{
	struct tally t[NSHAPES], all;
	double secs;

	(void)state;
	run_set(1017, 0, t, &secs);
	sum(t, &all);
	for (int s = 0; s < NSHAPES; s++)
		print_message("detect long flat, %s: %zu false change points in %zu series (%.3f per 1,000 run-series)\n",
			      shape_name[s], t[s].fp, t[s].series, per_1000(t[s].fp, t[s].points));
	print_message("detect long flat: %zu false change points per %zu run-series = %.3f per 1,000 (goal <= 0.1); %zu of %zu series with any; %.2f s\n",
		      all.fp, all.points, per_1000(all.fp, all.points), all.fp_series,
		      all.series, secs);
	assert_true(per_1000(all.fp, all.points) <= 0.1);
}

static void test_steps(void **state)
{
	struct tally t[NSHAPES], all;
	double secs;

	(void)state;
	run_set(2017, 1, t, &secs);
	sum(t, &all);
	for (int s = 0; s < NSHAPES; s++)
		print_message("detect long steps, %s: %zu of %zu steps found (±%d), %zu false\n",
			      shape_name[s], t[s].tp, t[s].steps, TOLERANCE, t[s].fp);
	print_message("detect long steps: recall %.4f (%zu of %zu), %zu false change points (%.3f per 1,000 run-series), %zu at the %zu excursions of 2-4 runs, %zu excursions flagged as outliers; %.2f s\n",
		      (double)all.tp / (double)all.steps, all.tp, all.steps, all.fp,
		      per_1000(all.fp, all.points), all.exc_cps, all.exc, all.exc_flagged, secs);
	assert_int_equal(all.tp, all.steps);
	assert_int_equal(all.exc_cps, 0);
	assert_true(per_1000(all.fp, all.points) <= 0.1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_steps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
