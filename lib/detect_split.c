/* detect's calculator: the energy statistic, E-divisive over a window and
 * the sliding windows of a series (lib/detect_split.h), the candidates of
 * change points that detect's tests then judge. */
#include "detect_split.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "detect_significance.h"
#include "util.h"

/* The plateau test of the split (divisive) asks for a p this many times
 * smaller: its kappa is chosen to make the two sides differ. */
#define PLATEAU_STRICTER 10.0

static double q_value(double cross, double wx, double wy, size_t n, size_t m)
{
	double nm = (double)(n + m);
	double q = 2.0 / nm * cross;

	if (n > 1)
		q -= 2.0 * (double)m / (nm * (double)(n - 1)) * wx;
	if (m > 1)
		q -= 2.0 * (double)n / (nm * (double)(m - 1)) * wy;
	return q;
}

double pdb_detect_energy(const double *x, size_t tau, size_t kappa)
{
	double cross = 0, wx = 0, wy = 0;

	for (size_t i = 0; i < tau; i++) {
		for (size_t k = i + 1; k < tau; k++)
			wx += fabs(x[i] - x[k]);
		for (size_t j = tau; j < kappa; j++)
			cross += fabs(x[i] - x[j]);
	}
	for (size_t j = tau; j < kappa; j++)
		for (size_t k = j + 1; k < kappa; k++)
			wy += fabs(x[j] - x[k]);
	return q_value(cross, wx, wy, tau, kappa - tau);
}

/*
 * W(a, b) = sum of |x_i - x_k| over a <= i < k < b. With W0[b] = W(0, b),
 * the cross sum of X = x[0..tau) and Y = x[tau..kappa) is
 * W0[kappa] - W0[tau] - W(tau, kappa). Going tau downwards, col[j] holds
 * sum_{tau <= i < j} |x_i - x_j|, so that W(tau, kappa) is a running sum of
 * col over j < kappa: all (tau, kappa) pairs in O(n^2). The inner loop is
 * q_value with its per-tau and per-kappa factors hoisted and the integer
 * to double conversions looked up in dbl (the same operations in the same
 * order, so the same bits).
 */
size_t pdb_detect_best_split(const double *x, size_t n, double *q, size_t *kappa)
{
	double *w0 = pdb_xcalloc(4 * n + 3, sizeof *w0);
	double *col = w0 + n + 1, *two_over = col + n, *dbl = two_over + n + 1;
	double best = -INFINITY;
	size_t btau = 1, bkappa = 2;

	for (size_t b = 1; b <= n; b++) {
		double s = 0;

		for (size_t i = 0; i + 1 < b; i++)
			s += fabs(x[i] - x[b - 1]);
		w0[b] = w0[b - 1] + s;
		dbl[b] = (double)b;
		two_over[b] = 2.0 / dbl[b];
	}
	for (size_t tau = n - 1; tau >= 1; tau--) {
		const double wx = w0[tau], dn = dbl[tau], dn1 = dbl[tau - 1];
		double wy = 0;

		for (size_t j = tau + 1; j < n; j++)
			col[j] += fabs(x[tau] - x[j]);
		for (size_t kappa = tau + 1; kappa <= n; kappa++) {
			const double nm = dbl[kappa];
			double v;

			if (kappa - 1 > tau)
				wy += col[kappa - 1];
			v = two_over[kappa] * (w0[kappa] - wx - wy);
			if (tau > 1)
				v -= 2.0 * dbl[kappa - tau] / (nm * dn1) * wx;
			if (kappa - tau > 1)
				v -= 2.0 * dn / (nm * dbl[kappa - tau - 1]) * wy;
			/* first maximum in (tau, kappa) order, as numpy's argmax */
			if (v > best || (v == best && (tau < btau ||
			    (tau == btau && kappa < bkappa)))) {
				best = v;
				btau = tau;
				bkappa = kappa;
			}
		}
	}
	free(w0);
	if (q)
		*q = best;
	if (kappa)
		*kappa = bkappa;
	return btau;
}

/* Best candidate of the interval w[a..b): tau and kappa (0 when b - a < 2)
 * and q. */
static void candidate(const double *w, size_t a, size_t b, size_t *tau,
		      size_t *kappa, double *q)
{
	*tau = *kappa = 0;
	*q = -INFINITY;
	if (b - a >= 2) {
		*tau = a + pdb_detect_best_split(w + a, b - a, q, kappa);
		*kappa += a;
	}
}

/* E-divisive over the window w[0..n): repeatedly split the interval whose
 * best candidate has the largest Q (the first such interval), while the
 * t-test of the candidate against its interval gives p <= pmax; with
 * plateaus set, also while the t-test of w[a..tau) against w[tau..kappa)
 * does (a regime that ends inside the interval, which the first test
 * dilutes with what follows it). cps (room for n) gets the change points,
 * ascending. Candidates are kept per interval; a split recomputes only
 * its two halves. */
static size_t divisive(const double *w, size_t n, double pmax, int plateaus,
		       size_t *cps)
{
	size_t ncps = 0;
	size_t *ctau = pdb_xcalloc(2 * (n + 1), sizeof *ctau), *ckappa = ctau + n + 1;
	double *cq = pdb_xcalloc(n + 1, sizeof *cq);

	candidate(w, 0, n, &ctau[0], &ckappa[0], &cq[0]);
	for (;;) {
		size_t best = 0, a, b;
		struct detect_sides st;

		for (size_t i = 1; i <= ncps; i++)
			if (cq[i] > cq[best])
				best = i;
		if (cq[best] == -INFINITY)
			break;
		a = best == 0 ? 0 : cps[best - 1];
		b = best == ncps ? n : cps[best];
		detect_compare_sides(w, a, ctau[best], b, &st);
		if (!(st.p <= pmax) && plateaus && ckappa[best] < b) {
			detect_compare_sides(w, a, ctau[best], ckappa[best], &st);
			st.p *= PLATEAU_STRICTER;
		}
		if (!(st.p <= pmax))
			break;
		/* interval best becomes [a, tau) and [tau, b) */
		memmove(cps + best + 1, cps + best, (ncps - best) * sizeof *cps);
		memmove(ctau + best + 1, ctau + best, (ncps + 1 - best) * sizeof *ctau);
		memmove(ckappa + best + 1, ckappa + best, (ncps + 1 - best) * sizeof *ckappa);
		memmove(cq + best + 1, cq + best, (ncps + 1 - best) * sizeof *cq);
		cps[best] = ctau[best];
		ncps++;
		candidate(w, a, cps[best], &ctau[best], &ckappa[best], &cq[best]);
		candidate(w, cps[best], b, &ctau[best + 1], &ckappa[best + 1], &cq[best + 1]);
	}
	free(ctau);
	free(cq);
	return ncps;
}

static int contains(const size_t *a, size_t n, size_t v)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] == v)
			return 1;
	return 0;
}

/* Sliding windows of `window` with step window/2 from state->resume on,
 * adding weak change points to state; the state is then advanced to the
 * first window that reaches past the end. */
void detect_split(const double *x, size_t n, size_t window, double pmax,
		  int plateaus, struct pdb_detect_state *state, size_t **weak,
		  size_t *nweak)
{
	size_t step = window / 2, cap = state->nweak + 16;
	size_t *found = pdb_xcalloc(window, sizeof *found);
	size_t start = state->resume;
	int saved = 0;

	*weak = pdb_xcalloc(cap, sizeof **weak);
	if (state->nweak)
		memcpy(*weak, state->weak, state->nweak * sizeof **weak);
	*nweak = state->nweak;
	while (start < n) {
		size_t end = start + window < n ? start + window : n;
		size_t nf, last = 0;

		if (!saved && start + window > n) {
			/* this window and the later ones depend on the tail */
			free(state->weak);
			state->weak = pdb_xcalloc(*nweak + 1, sizeof *state->weak);
			if (*nweak)
				memcpy(state->weak, *weak, *nweak * sizeof **weak);
			state->nweak = *nweak;
			state->resume = start;
			saved = 1;
		}
		nf = divisive(x + start, end - start, pmax, plateaus, found);
		for (size_t i = 0; i < nf; i++) {
			size_t idx = found[i] + start;

			if (contains(*weak, *nweak, idx))
				continue;
			pdb_grow((void **)weak, &cap, *nweak + 1, sizeof **weak);
			(*weak)[(*nweak)++] = idx;
		}
		if (nf > 0)
			last = found[nf - 1] + start;
		if (saved == 0)
			state->covered = end;
		start = last > start + step ? last : start + step;
	}
	free(found);
	/* sort (insertion: few points, nearly sorted) */
	for (size_t i = 1; i < *nweak; i++) {
		size_t v = (*weak)[i], j = i;

		while (j > 0 && (*weak)[j - 1] > v) {
			(*weak)[j] = (*weak)[j - 1];
			j--;
		}
		(*weak)[j] = v;
	}
}
