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
	size_t k = pdb_bisect_rank(12, 0.005);
	struct pdb_bisect_place p;
	(void)state;
	assert_int_equal(k, 2); /* P(Bin(12, 1/2) < 2) = 13/4096 <= 0.005 < 79/4096 */
	for (size_t i = 0; i < 12; i++) {
		double wobble = 0.01 * (double)((i * 7) % 5) - 0.02;
		g[i] = 1 + wobble;
		b[i] = 1 + t - wobble / 2;
		m[i] = 1 + wobble / 3;
	}
	assert_int_equal(pdb_bisect_contrast(g, m, b, 12, 0.5, k, &est, &lo, &hi), 0);
	assert_true(lo < -t / 2 + 0.03 && hi > -t / 2 - 0.03 && hi < 0);
	assert_int_equal(pdb_bisect_place_of(g, m, b, 12, k, &p), 0);
	assert_int_equal(pdb_bisect_side(&p, 1), PDB_BISECT_GOOD);
	assert_int_equal(pdb_bisect_place_of(g, b, b, 12, k, &p), 0);
	assert_int_equal(pdb_bisect_side(&p, 1), PDB_BISECT_BAD);
	for (size_t i = 0; i < 12; i++)
		m[i] = (g[i] + b[i]) / 2 + 0.002 * (double)(i % 3);
	assert_int_equal(pdb_bisect_place_of(g, m, b, 12, k, &p), 0);
	assert_int_equal(pdb_bisect_side(&p, 1), PDB_BISECT_PARTIAL);
	assert_int_equal(pdb_bisect_contrast(g, m, b, 0, 0.5, k, &est, &lo, &hi), -1);
	/* too few for an interval: the median alone */
	assert_int_equal(pdb_bisect_contrast(g, m, b, 4, 0.5, 0, &est, &lo, &hi), 0);
	assert_true(isnan(lo) && isnan(hi) && !isnan(est));
	/* the alpha: half for the whole change, half over 2 ceil(log2 n)
	 * midpoints */
	assert_true(fabs(pdb_bisect_alpha(0.01, 15, 0) - 0.005) < 1e-15);
	assert_true(fabs(pdb_bisect_alpha(0.01, 15, 1) - 0.01 / 2 / 8) < 1e-15);
}

/* The whole change against a margin of 10 %: within it either side is no
 * change, even when certain; beyond it and certain, changed; else open. */
static void test_whole(void **state)
{
	double g[40], b[40], est, lo, hi, margin = log(1.1);
	size_t k = pdb_bisect_rank(40, 0.005);
	(void)state;
	for (size_t i = 0; i < 40; i++) {
		g[i] = 0.01 * (double)((i * 7) % 11);
		b[i] = g[i] + 0.03 + 0.002 * (double)(i % 5); /* +3 %, certain */
	}
	assert_int_equal(pdb_bisect_whole(g, b, 40, k, margin, &est, &lo, &hi), PDB_BISECT_WHOLE_SAME);
	assert_true(lo > 0 && hi < margin);
	for (size_t i = 0; i < 40; i++)
		b[i] = g[i] + log(1.2) + 0.05 * ((double)((i * 3) % 7) - 3) / 3;
	assert_int_equal(pdb_bisect_whole(g, b, 40, k, margin, &est, &lo, &hi), PDB_BISECT_WHOLE_CHANGED);
	assert_int_equal(pdb_bisect_whole(b, g, 40, k, margin, &est, &lo, &hi), PDB_BISECT_WHOLE_CHANGED);
	assert_true(est < 0);
	/* +20 % with noise three times as wide: neither yet */
	for (size_t i = 0; i < 40; i++)
		b[i] = g[i] + log(1.2) + 0.6 * ((double)((i * 3) % 7) - 3) / 3;
	assert_int_equal(pdb_bisect_whole(g, b, 40, k, margin, &est, &lo, &hi), PDB_BISECT_WHOLE_OPEN);
	/* too few triples for an interval */
	assert_int_equal(pdb_bisect_whole(g, b, 40, 0, margin, &est, &lo, &hi), PDB_BISECT_WHOLE_OPEN);
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

/* An execution's log noise as CPU time's was measured, one execution at a
 * time: 3 % its own, and half of them slowed by a log excess of 0.25 at the
 * median (quartiles about 0.16 and 0.40): skewed, never faster. */
static double skewed(void)
{
	return 0.03 * gaussian() + (uniform() < 0.5 ? 0.25 * exp(0.7 * gaussian()) : 0);
}

/* Skewed noise does not move a contrast off its true value: a midpoint
 * that carries all of a change of +20 % has a 7/8 contrast of +t/8, which
 * the interval over 4,000 triples holds, and it is placed bad, not
 * partial. The three-term contrast m - (g/8 + 7b/8), whose median the
 * skew moves, had +0.0117 [+0.0013, +0.0202] here where +0.0228 is true:
 * half the margin that keeps a bad midpoint from being found partial. */
static void test_skewed(void **state)
{
	enum { N = 4000 };
	static double g[N], m[N], b[N];
	double t = log(1.2), est, lo, hi;
	size_t k = pdb_bisect_rank(N, 0.0005);
	struct pdb_bisect_place p;
	(void)state;
	for (size_t i = 0; i < N; i++) {
		g[i] = skewed();
		m[i] = t + skewed();
		b[i] = t + skewed();
	}
	assert_int_equal(pdb_bisect_contrast(g, m, b, N, PDB_BISECT_PART_HIGH, k, &est, &lo, &hi), 0);
	print_message("7/8 contrast of a midpoint carrying all of +20 %%: %+.4f [%+.4f, %+.4f], true %+.4f\n", est,
		      lo, hi, t / 8);
	assert_true(lo <= t / 8 && t / 8 <= hi);
	assert_int_equal(pdb_bisect_place_of(g, m, b, N, k, &p), 0);
	assert_int_equal(pdb_bisect_side(&p, 1), PDB_BISECT_BAD);
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


/* The sequential sign test: one look's chance of missing is the binomial
 * tail; over a schedule's looks the chance is at most alpha / 2 a side,
 * each look's tail larger than Bonferroni's alpha / 2 / K; and intervals
 * of lumpy values (a quiet peak, bursts either side) miss their median
 * at any look as often as it says. */
static void test_sequential(void **state)
{
	static double zero[200], x[200];
	struct pdb_bisect_looks s;
	int one = 20;
	size_t k = 6, misses = 0, trials = 4000;
	double exact;
	(void)state;
	/* P(Bin(20, 1/2) < 6) = 21700 / 2^20 */
	assert_true(fabs(pdb_bisect_miss(&one, &k, 1) - 21700.0 / 1048576) < 1e-12);
	assert_int_equal(pdb_bisect_looks(0.01, 1000, &s), 0);
	assert_true(s.n > 10 && s.at[s.n - 1] == 1000 && s.rank[0] > 0);
	assert_true(pdb_bisect_miss(s.at, s.rank, s.n) <= 0.005);
	assert_true(s.tail > 2 * (0.005 / (double)s.n));
	for (size_t i = 1; i < s.n; i++)
		assert_true(s.at[i] > s.at[i - 1] && s.rank[i] >= s.rank[i - 1]);
	assert_int_equal(pdb_bisect_looks(0.01, 5, &s), -1);
	/* at alpha 0.2, for misses to count */
	assert_int_equal(pdb_bisect_looks(0.2, 200, &s), 0);
	exact = pdb_bisect_miss(s.at, s.rank, s.n);
	assert_true(exact <= 0.1 && exact > 0.08);
	for (size_t t = 0; t < trials; t++) {
		int missed = 0;
		for (size_t l = 0, n = 0; l < s.n; l++) {
			double est, lo, hi;
			for (; n < (size_t)s.at[l]; n++) {
				double u = uniform();
				x[n] = (u < 0.25 ? -0.69 : u < 0.75 ? 0 : 0.69) + 0.05 * gaussian();
			}
			assert_int_equal(pdb_bisect_contrast(zero, x, zero, n, 0, s.rank[l], &est, &lo, &hi), 0);
			missed |= lo > 0;
		}
		misses += (size_t)missed;
	}
	print_message("sequential sign test: %zu of %zu missed below, %.4f exactly\n", misses, trials, exact);
	assert_true(fabs((double)misses / (double)trials - exact) < 0.02);
}

/* The machine, as measured under tests/bench/hog.sh on the 2-CPU test
 * machine (docs/statistics.md, "bisect"): an execution's CPU time is
 * slowed while another process runs on the other CPU, in runs of 3
 * executions on average, about half of the time, each run by its own
 * factor (log excess 0.25 at the median, quartiles about 0.16 and 0.40)
 * that wavers by 30 % from one execution to the next (neighbouring
 * executions' logs correlate by 0.45, measured 0.40-0.84); a random walk
 * of 1 % an execution and 3 % of noise its own. Each build of a revision
 * is off by 1 % of its own for as long as it is measured (code layout:
 * between runs), which no number of triples averages away. Before, a
 * burst doubled an execution's time exactly (a log excess of 0.69 each
 * time): lumps, which do not skew a contrast as the spread excess does. */
#define SIM_WITHIN 0.03
#define SIM_WALK 0.01
#define SIM_BETWEEN 0.01
#define SIM_EXCESS 0.25        /* the median log excess of a slowed execution */
#define SIM_EXCESS_SPREAD 0.7  /* its log's standard deviation, from run to run */
#define SIM_EXCESS_WAVER 0.3   /* and from one execution to the next */
#define SIM_MAX_TRIPLES 400
#define SIM_BUDGET 440         /* triples a bisection: 220 s at 0.5 s a triple */
#define SIM_ALPHA 0.01
#define SIM_MARGIN 0.0953 /* bisect's default threshold, 10 %, as a log ratio */

struct machine {
	double walk, excess;
	int slowed;
};

static double execution(struct machine *m, double level)
{
	m->walk += SIM_WALK * gaussian();
	if (uniform() < 1.0 / 3) {
		m->slowed = !m->slowed;
		m->excess = SIM_EXCESS * exp(SIM_EXCESS_SPREAD * gaussian());
	}
	return level + m->walk + (m->slowed ? m->excess * exp(SIM_EXCESS_WAVER * gaussian()) : 0) +
	       SIM_WITHIN * gaussian();
}

/* What a run of triples decided. */
enum { SIM_OPEN, SIM_DECIDED, SIM_NO_CHANGE };

/* A run of triples of good (log level 0), a midpoint at level mid and bad
 * at level bad, in the order good mid bad, bad mid good, looked at on the
 * schedule: at each look, until confirmed, bad against good (the sign test
 * at the whole change's ranks against the 10 % margin), then the
 * midpoint's place at the step's ranks, as bisect does. The triples run
 * are added to *used. */
static int triples(double mid, double bad, const struct pdb_bisect_looks *s, const size_t *whole_rank,
		   int *confirmed, double *total, int *side, size_t *used)
{
	static double g[SIM_MAX_TRIPLES], m[SIM_MAX_TRIPLES], b[SIM_MAX_TRIPLES];
	double offset[3] = { SIM_BETWEEN * gaussian(), SIM_BETWEEN * gaussian(), SIM_BETWEEN * gaussian() };
	struct machine mach = { 0, SIM_EXCESS, uniform() < 0.5 };
	int n = 0;

	for (size_t look = 0; look < s->n; look++) {
		struct pdb_bisect_place p;
		for (; n < s->at[look]; n++) {
			double *first = n % 2 ? &b[n] : &g[n], *last = n % 2 ? &g[n] : &b[n];
			*first = execution(&mach, (n % 2 ? bad : 0) + offset[n % 2 ? 2 : 0]);
			m[n] = execution(&mach, mid + offset[1]);
			*last = execution(&mach, (n % 2 ? 0 : bad) + offset[n % 2 ? 0 : 2]);
		}
		*used = (size_t)s->at[look];
		if (!*confirmed) {
			double est, lo, hi;
			int v = pdb_bisect_whole(g, b, (size_t)n, whole_rank[look], SIM_MARGIN, &est, &lo, &hi);
			if (v == PDB_BISECT_WHOLE_SAME)
				return SIM_NO_CHANGE;
			*confirmed = v == PDB_BISECT_WHOLE_CHANGED;
			*total = est;
		}
		if (!*confirmed)
			continue;
		assert_int_equal(pdb_bisect_place_of(g, m, b, (size_t)n, s->rank[look], &p), 0);
		if ((*side = pdb_bisect_side(&p, *total < 0 ? -1 : 1)) != PDB_BISECT_OPEN)
			return SIM_DECIDED;
	}
	return SIM_OPEN;
}

struct sim_result {
	size_t wrong;        /* a commit or range named outside the change, or no change */
	size_t narrowed;     /* one commit of a change split over several named */
	size_t open, no_change, measured_max, trials;
	size_t used;         /* triples, all steps of all bisections */
	size_t in_budget;    /* bisections that ended (not undecided) within SIM_BUDGET triples */
};

/* Bisections of 16 commits (good and 15 after it), each made at a random
 * place by steps[] (log levels, one a commit from there on; none: nothing
 * changed). */
static void simulate(const double *steps, size_t nsteps, size_t trials, struct sim_result *r)
{
	const size_t n = 15;
	struct pdb_bisect_looks sched;
	size_t whole_rank[PDB_BISECT_MAX_LOOKS];

	memset(r, 0, sizeof *r);
	assert_int_equal(pdb_bisect_looks(pdb_bisect_alpha(SIM_ALPHA, n, 1), SIM_MAX_TRIPLES, &sched), 0);
	pdb_bisect_ranks(sched.at, sched.n, pdb_bisect_alpha(SIM_ALPHA, n, 0), whole_rank);
	for (size_t t = 0; t < trials; t++) {
		size_t k = 1 + (size_t)(uniform() * (double)(n + 1 - (nsteps ? nsteps : 1))), i, measured = 2;
		double level[16] = { 0 }, total = 0;
		struct pdb_bisect b;
		int side = PDB_BISECT_OPEN, confirmed = 0, outcome = SIM_DECIDED;
		size_t bisection = 0;

		for (i = 0; i <= n; i++)
			for (size_t s = 0; s < nsteps; s++)
				level[i] += i >= k + s ? steps[s] : 0;
		r->trials++;
		pdb_bisect_init(&b, n);
		while ((i = pdb_bisect_next(&b)) != 0) {
			size_t used = 0;
			measured++;
			outcome = triples(level[i], level[n], &sched, whole_rank, &confirmed, &total, &side, &used);
			r->used += used;
			bisection += used;
			if (outcome != SIM_DECIDED)
				break;
			pdb_bisect_record(&b, i, side);
		}
		r->in_budget += outcome != SIM_OPEN && bisection <= SIM_BUDGET;
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

/* A 20 % change made by one commit: the wrong commit named, or no change
 * said, in at most 1 % of bisections (3 of 300 here), undecided (exit 3)
 * in at most 1 %. */
static void test_simulated_one_commit(void **state)
{
	const double step[] = { log(1.2) };
	struct sim_result r;
	(void)state;
	simulate(step, 1, 300, &r);
	print_message("one commit +20 %%: %zu of %zu wrong (%zu no change), %zu undecided, at most %zu revisions, "
		      "%.0f triples a bisection, %zu within %d\n", r.wrong, r.trials, r.no_change, r.open,
		      r.measured_max, (double)r.used / (double)r.trials, r.in_budget, SIM_BUDGET);
	assert_true(r.wrong * 100 <= r.trials);
	assert_true(r.open * 100 <= r.trials);
	assert_true(r.measured_max <= 6);
	/* the bench's 220 s, at the triples a second it measured */
	assert_true(r.in_budget * 10 >= r.trials * 8);
}

/* Two adjacent commits of +10 % each: the range of the two, or at worst
 * one of them (when a build's offset moves the revision between them,
 * half the change, off the middle and its side is decided before its
 * part: in at most 5 %); never a commit outside them; undecided in at
 * most 1 %. At most 9 revisions: good, bad, and when the first midpoint
 * is the partial one, 3 more for each end. */
static void test_simulated_two_commits(void **state)
{
	const double steps[] = { log(1.1), log(1.1) };
	struct sim_result r;
	(void)state;
	simulate(steps, 2, 200, &r);
	print_message("two commits +10 %% each: %zu of %zu wrong, %zu one of the two, %zu undecided, "
		      "at most %zu revisions, %.0f triples a bisection, %zu within %d\n", r.wrong, r.trials,
		      r.narrowed, r.open, r.measured_max, (double)r.used / (double)r.trials, r.in_budget, SIM_BUDGET);
	assert_true(r.wrong * 100 <= r.trials);
	assert_true(r.narrowed * 100 <= 5 * r.trials);
	assert_true(r.open * 100 <= r.trials);
	assert_true(r.measured_max <= 9);
}

/* Nothing changed: "no change" (its interval within the 10 % margin), a
 * culprit named in at most 1 %, undecided (exit 3) in at most 1 %. */
static void test_simulated_no_change(void **state)
{
	struct sim_result r;
	(void)state;
	simulate(NULL, 0, 200, &r);
	print_message("nothing changed: %zu of %zu wrong, %zu undecided, %zu no change, %.0f triples a bisection, "
		      "%zu within %d\n", r.wrong, r.trials, r.open, r.no_change, (double)r.used / (double)r.trials,
		      r.in_budget, SIM_BUDGET);
	assert_true(r.wrong * 100 <= r.trials);
	assert_true(r.open * 100 <= r.trials);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_side_rule),
		cmocka_unit_test(test_contrast),
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_skewed),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_simulated_one_commit),
		cmocka_unit_test(test_simulated_two_commits),
		cmocka_unit_test(test_simulated_no_change),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
