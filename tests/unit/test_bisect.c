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

/* The side of exact values: good 0, bad t, the midpoint m. */
static int side_exact(double m, double t)
{
	struct pdb_bisect_place p;

	pdb_bisect_place_exact(0, m, t, &p);
	return pdb_bisect_side(&p, t < 0 ? -1 : 1);
}

static void test_side_rule(void **state)
{
	double t = log(1.2);
	struct pdb_bisect_place p;
	(void)state;
	/* exact values: none, all, half, a sliver of the change */
	assert_int_equal(side_exact(0, t), PDB_BISECT_GOOD);
	assert_int_equal(side_exact(t, t), PDB_BISECT_BAD);
	assert_int_equal(side_exact(t / 2, t), PDB_BISECT_PARTIAL);
	assert_int_equal(side_exact(0.2 * t, t), PDB_BISECT_PARTIAL);
	assert_int_equal(side_exact(0.1 * t, t), PDB_BISECT_GOOD);
	assert_int_equal(side_exact(0.9 * t, t), PDB_BISECT_BAD);
	/* a change downwards (an improvement, or a throughput's fall) */
	assert_int_equal(side_exact(-t, -t), PDB_BISECT_BAD);
	assert_int_equal(side_exact(0.01, -t), PDB_BISECT_GOOD);
	assert_int_equal(side_exact(-t / 2, -t), PDB_BISECT_PARTIAL);
	/* intervals: the half's across 0 is open; partial needs both parts */
	p = (struct pdb_bisect_place){ -0.01, 0.02, -0.1, 0.1, -0.1, 0.1 };
	assert_int_equal(pdb_bisect_side(&p, 1), PDB_BISECT_OPEN);
	p = (struct pdb_bisect_place){ 0.01, 0.02, 0.05, 0.1, -0.05, 0.01 };
	assert_int_equal(pdb_bisect_side(&p, 1), PDB_BISECT_BAD);
	p = (struct pdb_bisect_place){ -0.01, 0.02, 0.01, 0.1, -0.1, -0.01 };
	assert_int_equal(pdb_bisect_side(&p, 1), PDB_BISECT_PARTIAL);
	assert_int_equal(pdb_bisect_side(&p, -1), PDB_BISECT_OPEN);
	p = (struct pdb_bisect_place){ NAN, NAN, 0, 0, 0, 0 };
	assert_int_equal(pdb_bisect_side(&p, 1), PDB_BISECT_OPEN);
}

/* The contrasts of triples: a midpoint at good's level, at bad's, half
 * way; their intervals hold the true value and exclude 0 where it is far. */
static void test_contrast(void **state)
{
	double g[12], m[12], b[12], est, lo, hi, t = log(1.2);
	struct pdb_bisect_place p;
	(void)state;
	for (size_t i = 0; i < 12; i++) {
		double wobble = 0.01 * (double)((i * 7) % 5) - 0.02;
		g[i] = 1 + wobble;
		b[i] = 1 + t - wobble / 2;
		m[i] = 1 + wobble / 3;
	}
	assert_int_equal(pdb_bisect_contrast(g, m, b, 12, 0.5, 0.99, &est, &lo, &hi), 0);
	assert_true(lo < -t / 2 + 0.03 && hi > -t / 2 - 0.03 && hi < 0);
	assert_int_equal(pdb_bisect_place_of(g, m, b, 12, 0.99, &p), 0);
	assert_int_equal(pdb_bisect_side(&p, 1), PDB_BISECT_GOOD);
	assert_int_equal(pdb_bisect_place_of(g, b, b, 12, 0.99, &p), 0);
	assert_int_equal(pdb_bisect_side(&p, 1), PDB_BISECT_BAD);
	for (size_t i = 0; i < 12; i++)
		m[i] = (g[i] + b[i]) / 2 + 0.002 * (double)(i % 3);
	assert_int_equal(pdb_bisect_place_of(g, m, b, 12, 0.99, &p), 0);
	assert_int_equal(pdb_bisect_side(&p, 1), PDB_BISECT_PARTIAL);
	assert_int_equal(pdb_bisect_contrast(g, m, b, 0, 0.5, 0.99, &est, &lo, &hi), -1);
	/* the alpha: half for the whole change, half over 2 ceil(log2 n)
	 * midpoints and their two tests */
	assert_true(fabs(pdb_bisect_alpha(0.01, 15, 0) - 0.005) < 1e-15);
	assert_true(fabs(pdb_bisect_alpha(0.01, 15, 1) - 0.01 / 2 / 8 / 2) < 1e-15);
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
 * that make an execution twice as slow (on for 3 executions on average,
 * off for 3, as tests/bench/hog.sh's bursts of 0.2-2 s against a
 * benchmark of a fifth of a second); each execution adds 3 % of its own.
 * Each build of a revision is off by 1 % of its own for as long as it is
 * measured (code layout: between runs), which no number of triples
 * averages away. */
#define SIM_WITHIN 0.03
#define SIM_WALK 0.01
#define SIM_BETWEEN 0.01
#define SIM_BURST 0.69
#define SIM_MAX_TRIPLES 400
#define SIM_ALPHA 0.01
#define SIM_THRESHOLD 0.05 /* compare's default, as a log ratio near enough */

struct machine {
	double walk;
	int burst;
};

static double execution(struct machine *m, double level)
{
	m->walk += SIM_WALK * gaussian();
	if (uniform() < 1.0 / 3)
		m->burst = !m->burst;
	return level + m->walk + (m->burst ? SIM_BURST : 0) + SIM_WITHIN * gaussian();
}

/* What a run of triples decided. */
enum { SIM_OPEN, SIM_DECIDED, SIM_NO_CHANGE };

/* A run of triples of good (log level 0), a midpoint at level mid and bad
 * at level bad, in the order good mid bad, bad mid good, looked at on the
 * schedule: at each look, when confirm, bad against good (the paired
 * Hodges-Lehmann interval at the whole change's alpha over the looks:
 * unchanged within the threshold, or a change beyond it), then the
 * midpoint's place at the step's alpha over the looks, as bisect does. */
static int triples(double mid, double bad, const struct pdb_adaptive_schedule *s, double confirm_alpha,
		   int *confirmed, double *total, int *side)
{
	static double g[SIM_MAX_TRIPLES], m[SIM_MAX_TRIPLES], b[SIM_MAX_TRIPLES], d[SIM_MAX_TRIPLES];
	double offset[3] = { SIM_BETWEEN * gaussian(), SIM_BETWEEN * gaussian(), SIM_BETWEEN * gaussian() };
	struct machine mach = { 0, uniform() < 0.5 };
	int n = 0;

	for (size_t look = 0; look < s->nlooks; look++) {
		struct pdb_bisect_place p;
		for (; n < s->looks[look]; n++) {
			double *first = n % 2 ? &b[n] : &g[n], *last = n % 2 ? &g[n] : &b[n];
			*first = execution(&mach, (n % 2 ? bad : 0) + offset[n % 2 ? 2 : 0]);
			m[n] = execution(&mach, mid + offset[1]);
			*last = execution(&mach, (n % 2 ? 0 : bad) + offset[n % 2 ? 0 : 2]);
			d[n] = b[n] - g[n];
		}
		if (!*confirmed) {
			double est, lo, hi;
			assert_int_equal(pdb_stats_hodges_lehmann_paired(d, (size_t)n, 1 - confirm_alpha / (double)s->nlooks,
									 &est, &lo, &hi), 0);
			if (lo >= -SIM_THRESHOLD && hi <= SIM_THRESHOLD)
				return SIM_NO_CHANGE;
			*confirmed = (lo > 0 || hi < 0) && fabs(est) >= SIM_THRESHOLD;
			*total = est;
		}
		if (!*confirmed)
			continue;
		assert_int_equal(pdb_bisect_place_of(g, m, b, (size_t)n, 1 - s->look_alpha, &p), 0);
		if ((*side = pdb_bisect_side(&p, *total < 0 ? -1 : 1)) != PDB_BISECT_OPEN)
			return SIM_DECIDED;
	}
	return SIM_OPEN;
}

struct sim_result {
	size_t wrong;        /* a commit or range named outside the change, or no change */
	size_t narrowed;     /* one commit of a change split over several named */
	size_t open, no_change, measured_max, trials;
};

/* Bisections of 16 commits (good and 15 after it), each made at a random
 * place by steps[] (log levels, one a commit from there on; none: nothing
 * changed). */
static void simulate(const double *steps, size_t nsteps, size_t trials, struct sim_result *r)
{
	const size_t n = 15;
	struct pdb_adaptive_schedule sched;
	struct pdb_err err;

	memset(r, 0, sizeof *r);
	assert_int_equal(pdb_adaptive_schedule(pdb_bisect_alpha(SIM_ALPHA, n, 1), SIM_MAX_TRIPLES, &sched, &err), 0);
	for (size_t t = 0; t < trials; t++) {
		size_t k = 1 + (size_t)(uniform() * (double)(n + 1 - (nsteps ? nsteps : 1))), i, measured = 2;
		double level[16] = { 0 }, total = 0;
		struct pdb_bisect b;
		int side = PDB_BISECT_OPEN, confirmed = 0, outcome = SIM_DECIDED;

		for (i = 0; i <= n; i++)
			for (size_t s = 0; s < nsteps; s++)
				level[i] += i >= k + s ? steps[s] : 0;
		r->trials++;
		pdb_bisect_init(&b, n);
		while ((i = pdb_bisect_next(&b)) != 0) {
			measured++;
			outcome = triples(level[i], level[n], &sched, pdb_bisect_alpha(SIM_ALPHA, n, 0), &confirmed,
					  &total, &side);
			if (outcome != SIM_DECIDED)
				break;
			pdb_bisect_record(&b, i, side);
		}
		if (outcome == SIM_OPEN)
			r->open++;
		else if (outcome == SIM_NO_CHANGE)
			r->no_change++;
		if (outcome == SIM_NO_CHANGE ? nsteps != 0
		    : outcome == SIM_DECIDED && (!nsteps || b.start_hi < k || b.end_hi > k + nsteps - 1 ||
						 b.start_hi > b.end_hi))
			r->wrong++;
		else if (outcome == SIM_DECIDED && b.end_hi - b.start_hi + 1 < nsteps)
			r->narrowed++;
		if (measured > r->measured_max)
			r->measured_max = measured;
		pdb_bisect_release(&b);
	}
}

/* A 20 % change made by one commit: the wrong commit named in at most 1 %
 * of bisections (3 of 300 here), undecided (exit 3) in at most 5 %. */
static void test_simulated_one_commit(void **state)
{
	const double step[] = { log(1.2) };
	struct sim_result r;
	(void)state;
	simulate(step, 1, 300, &r);
	print_message("one commit +20 %%: %zu of %zu wrong, %zu undecided, at most %zu revisions\n",
		      r.wrong, r.trials, r.open, r.measured_max);
	assert_true(r.wrong * 100 <= r.trials);
	assert_true(r.open * 100 <= 5 * r.trials);
	assert_true(r.measured_max <= 6);
}

/* Two adjacent commits of +10 % each: the range of the two, or at worst
 * one of them (when a build's offset moves the revision between them,
 * half the change, off the middle and its side is decided before its
 * part: in at most 5 %); never a commit outside them. */
static void test_simulated_two_commits(void **state)
{
	const double steps[] = { log(1.1), log(1.1) };
	struct sim_result r;
	(void)state;
	simulate(steps, 2, 200, &r);
	print_message("two commits +10 %% each: %zu of %zu wrong, %zu one of the two, %zu undecided, "
		      "at most %zu revisions\n", r.wrong, r.trials, r.narrowed, r.open, r.measured_max);
	assert_true(r.wrong * 100 <= r.trials);
	assert_true(r.narrowed * 100 <= 5 * r.trials);
	assert_true(r.open * 100 <= 5 * r.trials);
}

/* Nothing changed: "no change" (its interval within the 5 % threshold),
 * never a culprit; undecided (exit 3) in at most 10 %. */
static void test_simulated_no_change(void **state)
{
	struct sim_result r;
	(void)state;
	simulate(NULL, 0, 200, &r);
	print_message("nothing changed: %zu of %zu wrong, %zu undecided, %zu no change\n", r.wrong, r.trials,
		      r.open, r.no_change);
	assert_true(r.wrong * 100 <= r.trials);
	assert_true(r.open * 100 <= 10 * r.trials);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_side_rule),
		cmocka_unit_test(test_contrast),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_simulated_one_commit),
		cmocka_unit_test(test_simulated_two_commits),
		cmocka_unit_test(test_simulated_no_change),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
