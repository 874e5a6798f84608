/* Unit tests: the bisection's decision rule, its ranges, and a seeded
 * simulation of bisections on a noisy machine (docs/statistics.md). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bisect.h"
#include "runner/adaptive.h"
#include "stats.h"

static void test_side_rule(void **state)
{
	double t = log(1.2), share;
	(void)state;
	/* exact counts: the estimate alone */
	assert_int_equal(pdb_bisect_side(0, 0, 0, t, t, &share), PDB_BISECT_GOOD);
	assert_true(share == 0);
	assert_int_equal(pdb_bisect_side(t, t, t, t, t, NULL), PDB_BISECT_BAD);
	assert_int_equal(pdb_bisect_side(t / 2, t / 2, t / 2, t, t, &share), PDB_BISECT_PARTIAL);
	assert_true(fabs(share - 0.5) < 1e-12);
	/* an interval across a boundary is open */
	assert_int_equal(pdb_bisect_side(-0.1 * t, 0.1 * t, 0.2 * t, t, t, NULL), PDB_BISECT_GOOD);
	assert_int_equal(pdb_bisect_side(-0.1 * t, 0.1 * t, 0.3 * t, t, t, NULL), PDB_BISECT_OPEN);
	assert_int_equal(pdb_bisect_side(0.7 * t, 0.9 * t, 1.1 * t, t, t, NULL), PDB_BISECT_OPEN);
	assert_int_equal(pdb_bisect_side(0.2 * t, 0.5 * t, 0.8 * t, t, t, NULL), PDB_BISECT_OPEN);
	assert_int_equal(pdb_bisect_side(NAN, 0, NAN, t, t, NULL), PDB_BISECT_OPEN);
	/* the total's interval counts: 0.8 of its middle, but 0.72 of its top */
	assert_int_equal(pdb_bisect_side(0.8 * t, 0.8 * t, 0.8 * t, 0.9 * t, 1.1 * t, NULL), PDB_BISECT_OPEN);
	assert_int_equal(pdb_bisect_side(0.85 * t, 0.85 * t, 0.85 * t, 0.9 * t, 1.1 * t, NULL), PDB_BISECT_BAD);
	assert_int_equal(pdb_bisect_side(0.2 * t, 0.2 * t, 0.2 * t, 0.9 * t, 1.1 * t, NULL), PDB_BISECT_GOOD);
	assert_int_equal(pdb_bisect_side(0.23 * t, 0.23 * t, 0.23 * t, 0.9 * t, 1.1 * t, NULL), PDB_BISECT_OPEN);
	/* a change downwards (an improvement, or a throughput's fall) */
	assert_int_equal(pdb_bisect_side(-0.3, -0.25, -0.2, -0.23, -0.21, NULL), PDB_BISECT_BAD);
	assert_int_equal(pdb_bisect_side(-0.02, 0, 0.02, -0.23, -0.21, NULL), PDB_BISECT_GOOD);
	/* a total known well enough: away from 0, its ends within 1.25 */
	assert_true(pdb_bisect_total_known(0.18, 0.2));
	assert_true(pdb_bisect_total_known(-0.2, -0.18));
	assert_false(pdb_bisect_total_known(0.17, 0.2));
	assert_false(pdb_bisect_total_known(0.1, 0.2));
	assert_false(pdb_bisect_total_known(-0.01, 0.2));
}

/* The bisection of revisions 0..n whose true sides are side[]: the
 * revisions measured, and the range it ends with. */
static size_t bisect_exact(size_t n, const int *side, size_t *start, size_t *end)
{
	struct pdb_bisect b;
	size_t i, measured = 0;

	pdb_bisect_init(&b, n);
	while ((i = pdb_bisect_next(&b)) != 0) {
		assert_true(i > 0 && i < n);
		assert_int_equal(b.side[i], PDB_BISECT_OPEN); /* never twice */
		pdb_bisect_record(&b, i, side[i]);
		measured++;
	}
	*start = b.start_hi;
	*end = b.end_hi;
	pdb_bisect_release(&b);
	return measured;
}

/* One commit makes the change: found at every place, in ceil(log2 n)
 * measurements; two adjacent commits: their range. */
static void test_ranges(void **state)
{
	int side[64];
	size_t start, end;
	(void)state;
	assert_int_equal(pdb_bisect_steps(1), 0);
	assert_int_equal(pdb_bisect_steps(2), 1);
	assert_int_equal(pdb_bisect_steps(15), 4);
	assert_int_equal(pdb_bisect_steps(16), 4);
	assert_int_equal(pdb_bisect_steps(17), 5);
	for (size_t n = 1; n < 40; n++)
		for (size_t k = 1; k <= n; k++) {
			for (size_t i = 0; i <= n; i++)
				side[i] = i < k ? PDB_BISECT_GOOD : PDB_BISECT_BAD;
			assert_true(bisect_exact(n, side, &start, &end) <= pdb_bisect_steps(n));
			assert_int_equal(start, k);
			assert_int_equal(end, k);
			if (k + 1 > n)
				continue;
			side[k] = PDB_BISECT_PARTIAL; /* k and k + 1 make half each */
			bisect_exact(n, side, &start, &end);
			assert_int_equal(start, k);
			assert_int_equal(end, k + 1);
		}
}

/* The simulation's random numbers: xorshift64*, seeded. */
static uint64_t rng = 88172645463325252ull;

static double uniform(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

static double gaussian(void)
{
	double u = uniform(), v = uniform();
	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* The machine: a random walk of 1 % an execution and a CPU hog in bursts
 * (on for 8 executions on average, off for 12) that makes everything 30 %
 * slower; each execution adds 2 % of its own (within a run). Each build of
 * a revision is off by 1 % of its own for as long as it is measured (code
 * layout: between runs), which no number of pairs averages away: it is
 * what leaves a bisection undecided (a bad revision's share near 0.75). */
#define SIM_WITHIN 0.02
#define SIM_WALK 0.01
#define SIM_BETWEEN 0.01
#define SIM_MAX_PAIRS 400
#define SIM_ALPHA 0.01

struct machine {
	double walk;
	int burst;
};

static double execution(struct machine *m, double level)
{
	m->walk += SIM_WALK * gaussian();
	if (uniform() < (m->burst ? 1.0 / 8 : 1.0 / 12))
		m->burst = !m->burst;
	return level + m->walk + (m->burst ? log(1.3) : 0) + SIM_WITHIN * gaussian();
}

/* An A/B run of good (log level 0) against a revision at log level level,
 * pairs in ABBA order, looked at on the schedule: at each look the
 * paired Hodges-Lehmann interval of the log ratios (as compare gives an
 * A/B pair's) at the look's alpha, until judge says it is decided. The
 * last look's interval in lo, est, hi; whether it decided. */
static int ab_run(double level, const struct pdb_adaptive_schedule *s, const double *total,
		  int *side, double *est, double *lo, double *hi)
{
	double d[SIM_MAX_PAIRS];
	double offset = SIM_BETWEEN * (gaussian() - gaussian()); /* two builds' */
	struct machine m = { 0, 0 };
	int pairs = 0;

	for (size_t look = 0; look < s->nlooks; look++) {
		for (; pairs < s->looks[look]; pairs++) {
			double a, b;
			if (pairs % 2 == 0) {
				a = execution(&m, 0);
				b = execution(&m, level + offset);
			} else {
				b = execution(&m, level + offset);
				a = execution(&m, 0);
			}
			d[pairs] = b - a;
		}
		assert_int_equal(pdb_stats_hodges_lehmann_paired(d, (size_t)pairs, 1 - s->look_alpha, est,
								 lo, hi), 0);
		if (!total) { /* the confirmation */
			if (pdb_bisect_total_known(*lo, *hi))
				return 1;
			continue;
		}
		if ((*side = pdb_bisect_side(*lo, *est, *hi, total[0], total[1], NULL)) != PDB_BISECT_OPEN)
			return 1;
	}
	return 0;
}

struct sim_result {
	size_t wrong, open, measured_max, trials;
};

/* Bisections of 16 commits (good and 15 after it), each made at a random
 * place by steps[] (log levels, one a commit from there on). */
static void simulate(const double *steps, size_t nsteps, size_t trials, struct sim_result *r)
{
	const size_t n = 15;
	struct pdb_adaptive_schedule confirm, step;
	struct pdb_err err;

	memset(r, 0, sizeof *r);
	assert_int_equal(pdb_adaptive_schedule(pdb_bisect_alpha(SIM_ALPHA, n, 0), SIM_MAX_PAIRS,
					       &confirm, &err), 0);
	assert_int_equal(pdb_adaptive_schedule(pdb_bisect_alpha(SIM_ALPHA, n, 1), SIM_MAX_PAIRS,
					       &step, &err), 0);
	for (size_t t = 0; t < trials; t++) {
		size_t k = 1 + (size_t)(uniform() * (double)(n + 1 - nsteps)), i, measured = 2;
		double level[16] = { 0 }, total[2], est;
		struct pdb_bisect b;
		int side = PDB_BISECT_OPEN, open = 0;

		for (i = 0; i <= n; i++)
			for (size_t s = 0; s < nsteps; s++)
				level[i] += i >= k + s ? steps[s] : 0;
		r->trials++;
		if (!ab_run(level[n], &confirm, NULL, &side, &est, &total[0], &total[1])) {
			r->open++;
			continue;
		}
		pdb_bisect_init(&b, n);
		while ((i = pdb_bisect_next(&b)) != 0) {
			double lo, hi;
			measured++;
			if (!ab_run(level[i], &step, total, &side, &est, &lo, &hi)) {
				open = 1;
				break;
			}
			pdb_bisect_record(&b, i, side);
		}
		if (open)
			r->open++;
		else if (b.start_hi != k || b.end_hi != k + nsteps - 1)
			r->wrong++;
		if (measured > r->measured_max)
			r->measured_max = measured;
		pdb_bisect_release(&b);
	}
}

/* A 20 % change made by one commit: the wrong commit named in at most 1 %
 * of bisections (1 of 300 here), undecided (exit 3) in at most 15 % (31). */
static void test_simulated_one_commit(void **state)
{
	const double step[] = { log(1.2) };
	struct sim_result r;
	(void)state;
	simulate(step, 1, 300, &r);
	print_message("one commit +20 %%: %zu of %zu wrong, %zu undecided, at most %zu revisions\n",
		      r.wrong, r.trials, r.open, r.measured_max);
	assert_true(r.wrong * 100 <= r.trials);
	assert_true(r.open * 100 <= 15 * r.trials);
}

/* Two adjacent commits of +10 % each: the range of the two. */
static void test_simulated_two_commits(void **state)
{
	const double steps[] = { log(1.1), log(1.1) };
	struct sim_result r;
	(void)state;
	simulate(steps, 2, 200, &r);
	print_message("two commits +10 %% each: %zu of %zu wrong, %zu undecided, at most %zu revisions\n",
		      r.wrong, r.trials, r.open, r.measured_max);
	assert_true(r.wrong * 100 <= r.trials);
	assert_true(r.open * 100 <= 15 * r.trials);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_side_rule),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_simulated_one_commit),
		cmocka_unit_test(test_simulated_two_commits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
