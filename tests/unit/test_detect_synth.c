/* Unit tests: detection quality on seeded synthetic histories, and the cached split equals a full one. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "detect.h"

/*
 * Series: length 100-300, level 1000, 0-3 steps of 6-25 % (either sign)
 * at least 20 points apart and from either end, lognormal noise of 1-3 %,
 * and in half of the series one or two one-run spikes of ±40-50 % (not
 * within 3 points of a step, 10 points apart). A detected change point matches a true step
 * when it lies within ±TOLERANCE indices of it (one to one, nearest first);
 * F1 = 2 TP / (2 TP + FP + FN) over all series.
 */
#define NSERIES 200
#define NFLAT 100
#define TOLERANCE 5

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

struct synth {
	double x[300];
	size_t n, steps[3], nsteps;
};

static void make_series(struct synth *s, int with_steps)
{
	double level = 1000, sigma = 0.01 + 0.02 * uniform();
	size_t k = with_steps ? between(0, 3) : 0, nspikes, spike = 0;

	s->n = between(100, 300);
	s->nsteps = 0;
	while (s->nsteps < k) {
		size_t at = between(20, s->n - 20), ok = 1;

		for (size_t i = 0; i < s->nsteps; i++)
			if ((at > s->steps[i] ? at - s->steps[i] : s->steps[i] - at) < 20)
				ok = 0;
		if (!ok)
			continue;
		/* keep ascending */
		size_t i = s->nsteps++;
		while (i > 0 && s->steps[i - 1] > at) {
			s->steps[i] = s->steps[i - 1];
			i--;
		}
		s->steps[i] = at;
	}
	for (size_t i = 0, st = 0; i < s->n; i++) {
		if (st < s->nsteps && i == s->steps[st]) {
			double size = 0.06 + 0.19 * uniform();

			level *= uniform() < 0.5 ? 1 - size : 1 + size;
			st++;
		}
		s->x[i] = level * exp(sigma * normal());
	}
	nspikes = uniform() < 0.5 ? between(1, 2) : 0;
	for (size_t k2 = 0; k2 < nspikes; k2++) {
		size_t at = between(5, s->n - 5), ok = 1;
		double size = 0.40 + 0.10 * uniform();

		for (size_t i = 0; i < s->nsteps; i++)
			if ((at > s->steps[i] ? at - s->steps[i] : s->steps[i] - at) <= 3)
				ok = 0;
		if (k2 == 1 && (at > spike ? at - spike : spike - at) < 10)
			ok = 0;
		if (ok)
			s->x[at] *= uniform() < 0.5 ? 1 - size : 1 + size;
		spike = at;
	}
}

/* Count matches between detected and true, nearest pairs first. */
static void score(const struct pdb_detect_result *r, const struct synth *s,
		  size_t *tp, size_t *fp, size_t *fn)
{
	int used_d[300] = { 0 }, used_t[3] = { 0 };
	size_t m = 0;

	for (size_t dist = 0; dist <= TOLERANCE; dist++) {
		for (size_t t = 0; t < s->nsteps; t++) {
			for (size_t d = 0; d < r->ncps && !used_t[t]; d++) {
				size_t a = r->cps[d].index, b = s->steps[t];

				if (!used_d[d] && (a > b ? a - b : b - a) == dist) {
					used_d[d] = used_t[t] = 1;
					m++;
				}
			}
		}
	}
	*tp += m;
	*fp += r->ncps - m;
	*fn += s->nsteps - m;
}

static double f1_of(int outliers, size_t *tp, size_t *fp, size_t *fn)
{
	struct synth s;
	struct pdb_detect_opts o;
	struct pdb_err err;

	rng_state = 42;
	*tp = *fp = *fn = 0;
	pdb_detect_opts_init(&o);
	o.outliers = outliers;
	for (int i = 0; i < NSERIES; i++) {
		struct pdb_detect_result r;

		make_series(&s, 1);
		assert_int_equal(pdb_detect(s.x, s.n, &o, NULL, NULL, &r, &err), 0);
		score(&r, &s, tp, fp, fn);
		pdb_detect_result_release(&r);
	}
	return 2.0 * (double)*tp / (double)(2 * *tp + *fp + *fn);
}

static void test_f1(void **state)
{
	size_t tp, fp, fn;
	double keep, report;

	(void)state;
	keep = f1_of(PDB_OUTLIERS_KEEP, &tp, &fp, &fn);
	print_message("detect F1 (±%d), outliers keep (Otava): %.3f (tp %zu fp %zu fn %zu)\n",
		      TOLERANCE, keep, tp, fp, fn);
	report = f1_of(PDB_OUTLIERS_REPORT, &tp, &fp, &fn);
	print_message("detect F1 (±%d), default: %.3f (tp %zu fp %zu fn %zu)\n",
		      TOLERANCE, report, tp, fp, fn);
	assert_true(report >= 0.95);
}

static void test_flat(void **state)
{
	struct synth s;
	struct pdb_detect_opts o;
	struct pdb_err err;
	size_t total = 0;

	(void)state;
	rng_state = 7;
	pdb_detect_opts_init(&o);
	for (int i = 0; i < NFLAT; i++) {
		struct pdb_detect_result r;

		make_series(&s, 0);
		assert_int_equal(pdb_detect(s.x, s.n, &o, NULL, NULL, &r, &err), 0);
		total += r.ncps;
		pdb_detect_result_release(&r);
	}
	print_message("detect: %zu change points on %d flat series\n", total, NFLAT);
	assert_int_equal(total, 0);
}

static int same_result(const struct pdb_detect_result *a, const struct pdb_detect_result *b)
{
	if (a->ncps != b->ncps || a->noutliers != b->noutliers || a->nweak != b->nweak)
		return 0;
	for (size_t i = 0; i < a->ncps; i++)
		if (memcmp(&a->cps[i], &b->cps[i], sizeof a->cps[i]) != 0)
			return 0;
	for (size_t i = 0; i < a->noutliers; i++)
		if (a->outliers[i].index != b->outliers[i].index)
			return 0;
	return 1;
}

/* Grow random histories a few points at a time, resuming from the state
 * each time: every result equals the full recomputation. */
static void test_incremental(void **state)
{
	struct synth s;
	struct pdb_err err;
	size_t resumed = 0;

	(void)state;
	rng_state = 99;
	for (int i = 0; i < 40; i++) {
		struct pdb_detect_state st = { 0 };
		struct pdb_detect_opts o;
		size_t n = 0;

		make_series(&s, 1);
		pdb_detect_opts_init(&o);
		o.window = i % 2 ? 50 : 20;
		o.outliers = i % 3 ? PDB_OUTLIERS_REPORT : PDB_OUTLIERS_KEEP;
		while (n < s.n) {
			struct pdb_detect_result inc, full;
			struct pdb_detect_state next;

			n += between(1, 7);
			if (n > s.n)
				n = s.n;
			assert_int_equal(pdb_detect(s.x, n, &o, &st, &next, &inc, &err), 0);
			assert_int_equal(pdb_detect(s.x, n, &o, NULL, NULL, &full, &err), 0);
			assert_true(same_result(&inc, &full));
			resumed += st.covered > 0;
			pdb_detect_state_release(&st);
			st = next;
			pdb_detect_result_release(&inc);
			pdb_detect_result_release(&full);
		}
		pdb_detect_state_release(&st);
	}
	assert_true(resumed > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f1),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_incremental),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
