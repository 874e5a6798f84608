/* Change points: E-divisive means, Hunter's t-test merge (Otava) or a rank
 * acceptance nested in P, one-run spikes set apart. */
#include "detect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric_role.h"
#include "units.h"
#include "stats.h"
#include "util.h"

/* Spikes: context points before (and for the noise, after), points after
 * that must agree, and how far off a spike is (robust sigmas). */
#define SPIKE_CONTEXT PDB_DETECT_SPIKE_CONTEXT
#define SPIKE_NEXT 3
/* Outside Otava's mode a change point must also move the mean by more
 * than this many standard deviations of the local noise (stats_at). */
#define MIN_EFFECT 1.5
#define SPIKE_SIGMAS 8.0
/* The local noise of a change point: from at most this many points on
 * either side. */
#define NOISE_SPAN 30
/* The plateau test of the split (divisive) asks for a p this many times
 * smaller: its kappa is chosen to make the two sides differ. */
#define PLATEAU_STRICTER 10.0
/* The merged change points move to the best least-squares split within
 * this many points (outside Otava's mode). */
#define REFINE 5
/* Outside Otava's mode the split's gate is this p, whatever P: the
 * candidates, and so the order in which the acceptance drops them, do not
 * depend on P, which makes a looser P keep every change point a stricter
 * one keeps. */
#define SPLIT_P 0.01
/* ... and excursions (outliers) are the short regimes between change
 * points accepted at this p (the default P), whatever P. */
#define STRUCTURE_P 0.001
/* The rank p of a change point counts multiplied by the series' runs over
 * this many (at least 1; evidence_at): a long series has more splits for
 * noise to choose from. */
#define RANK_SPAN 20
/* A change point whose parametric p is below this skips the rank test
 * (evidence_at): no P above it can be decided by its ranks. */
#define RANK_SKIP 1e-12

void pdb_detect_opts_init(struct pdb_detect_opts *o)
{
	o->window = 50;
	o->pvalue = 0.001;
	o->magnitude = 0.0;
	o->resolution = 0.0;
	o->run_noise = 0.0;
	o->outliers = PDB_OUTLIERS_REPORT;
	o->direction = PDB_DIR_NONE;
}

void pdb_detect_opts_for(struct pdb_detect_opts *o, const char *metric, const char *unit,
			 int direction)
{
	o->direction = direction;
	o->resolution = pdb_metric_resolution(metric, unit);
	o->run_noise = pdb_metric_run_noise(pdb_metric_role(metric, 0));
}

void pdb_detect_change_text(const struct pdb_change_point *cp, const char *unit, char *out,
			    size_t size)
{
	if (isnan(cp->change_pct))
		pdb_unit_signed_text(cp->mean_after - cp->mean_before, unit, out, size);
	else
		pdb_pct_text(cp->change_pct, out, size);
}

const char *pdb_detect_verdict(const struct pdb_change_point *cp)
{
	return cp->regression ? "regression" : cp->improvement ? "improvement" : "change";
}

const char *pdb_detect_standing(const struct pdb_change_point *cp)
{
	return cp->tentative ? "tentative" : cp->cpu_steady ? "CPU time steady" :
	       !cp->confirmed ? "unconfirmed" : NULL;
}

void pdb_detect_verdict_text(const struct pdb_change_point *cp, char *out, size_t size)
{
	const char *why = pdb_detect_standing(cp);

	if (why)
		snprintf(out, size, "%s (%s)", pdb_detect_verdict(cp), why);
	else
		snprintf(out, size, "%s", pdb_detect_verdict(cp));
}

void pdb_detect_state_release(struct pdb_detect_state *s)
{
	if (!s)
		return;
	free(s->weak);
	free(s->spikes);
	memset(s, 0, sizeof *s);
}

void pdb_detect_result_release(struct pdb_detect_result *r)
{
	if (!r)
		return;
	free(r->cps);
	free(r->outliers);
	memset(r, 0, sizeof *r);
}

uint64_t pdb_detect_checksum(const double *x, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < n; i++) {
		uint64_t bits;

		memcpy(&bits, &x[i], sizeof bits);
		h = (h ^ bits) * 1099511628211ULL;
		h ^= h >> 32;
	}
	return h;
}

/* ---- energy statistic ---- */

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

/* ---- Student's t-test ---- */

double pdb_detect_ttest(double mean1, double sd1, size_t n1,
			double mean2, double sd2, size_t n2)
{
	double df, svar, denom, t;

	if (n1 + n2 <= 2)
		return 1.0;
	df = (double)(n1 + n2 - 2);
	svar = ((double)(n1 - 1) * sd1 * sd1 + (double)(n2 - 1) * sd2 * sd2) / df;
	denom = sqrt(svar * (1.0 / (double)n1 + 1.0 / (double)n2));
	t = (mean1 - mean2) / denom;
	if (isnan(t))
		return NAN; /* equal means, no spread: as scipy */
	if (isinf(t))
		return 0.0;
	return pdb_stats_betai(df / 2.0, 0.5, df / (df + t * t));
}

/* ---- statistics of the two sides of a change point ---- */

struct side_stats {
	double mean1, mean2, sd1, sd2, p;
	/* in the merge only (stats_at): the local noise (diff_sd of the
	 * successive differences next to the change, without the one across
	 * it) and |mean2 - mean1| in standard errors */
	double noise, z;
};

static void mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*sd = n >= 2 ? sqrt(ss / (double)n) : 0.0;
}

/* Compare x[a..idx) with x[idx..b). */
static void compare_sides(const double *x, size_t a, size_t idx, size_t b,
			  struct side_stats *st)
{
	mean_sd(x + a, idx - a, &st->mean1, &st->sd1);
	mean_sd(x + idx, b - idx, &st->mean2, &st->sd2);
	st->p = pdb_detect_ttest(st->mean1, st->sd1, idx - a,
				 st->mean2, st->sd2, b - idx);
}

/* max(|m2/m1 - 1|, |m1/m2 - 1|), a ratio with a zero denominator counting 0 */
static double magnitude(const struct side_stats *st)
{
	double f = st->mean1 == 0 ? 0 : fabs(st->mean2 / st->mean1 - 1.0);
	double b = st->mean2 == 0 ? 0 : fabs(st->mean1 / st->mean2 - 1.0);

	return f > b ? f : b;
}

/* ---- split ---- */

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
		struct side_stats st;

		for (size_t i = 1; i <= ncps; i++)
			if (cq[i] > cq[best])
				best = i;
		if (cq[best] == -INFINITY)
			break;
		a = best == 0 ? 0 : cps[best - 1];
		b = best == ncps ? n : cps[best];
		compare_sides(w, a, ctau[best], b, &st);
		if (!(st.p <= pmax) && plateaus && ckappa[best] < b) {
			compare_sides(w, a, ctau[best], ckappa[best], &st);
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
static void split(const double *x, size_t n, size_t window, double pmax,
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

/* 1.4826 · median of d[0..m) / sqrt 2 (d, absolute successive
 * differences, is reordered), the standard deviation of gaussian noise;
 * when more than half of d is 0 (values on a coarse grid), the mean of d
 * · sqrt(pi) / 2, its gaussian equivalent, which is 0 only for a constant
 * series; 0 when m is 0. */
static double diff_sd(double *d, size_t m)
{
	double med, sum = 0;

	if (m == 0)
		return 0.0;
	med = pdb_stats_median(d, m);
	if (med > 0)
		return 1.4826 * med / sqrt(2.0);
	for (size_t i = 0; i < m; i++)
		sum += d[i];
	return sum / (double)m * sqrt(M_PI) / 2.0;
}

/* Appends |x[i+1] - x[i]| over x[0..n) to d at *m. */
static void add_diffs(const double *x, size_t n, double *d, size_t *m)
{
	for (size_t i = 0; i + 1 < n; i++)
		d[(*m)++] = fabs(x[i + 1] - x[i]);
}

/* pdb_detect_noise with buf (room for n) as scratch. */
static double robust_sd(const double *x, size_t n, double *buf)
{
	size_t m = 0;

	add_diffs(x, n, buf, &m);
	return diff_sd(buf, m);
}

double pdb_detect_noise(const double *x, size_t n)
{
	double *buf = pdb_xcalloc(n + 1, sizeof *buf), s;

	s = robust_sd(x, n, buf);
	free(buf);
	return s;
}

/* ---- merge ---- */

/* What a change point must pass to stay: p < pvalue, magnitude > magnitude,
 * |mean2 - mean1| > resolution, effect > effect and z >= zmin (the last
 * two 0 in Otava's mode). sigma
 * and relative are the series' noise for the z of stats_at; buf is
 * scratch for diff_sd, room for the whole series. */
struct merge_rule {
	double pvalue, magnitude, resolution, effect, zmin;
	double sigma;      /* pdb_detect_noise of the series */
	double relative;   /* its noise relative to the level (series_noise) */
	double run_noise;  /* the assumed noise of the options */
	int otava;
	double *buf;
};

/* The series' noise into r: sigma, and when every value is positive,
 * relative, the diff_sd of |x[i+1] - x[i]| / ((x[i+1] + x[i]) / 2). */
static void series_noise(const double *x, size_t n, struct merge_rule *r)
{
	size_t m = 0;

	r->sigma = robust_sd(x, n, r->buf);
	r->relative = 0.0;
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return;
	for (size_t i = 0; i + 1 < n; i++)
		r->buf[m++] = fabs(x[i + 1] - x[i]) / ((x[i + 1] + x[i]) / 2.0);
	r->relative = diff_sd(r->buf, m);
}

/* Sample variance of a side of n points from its population sd, at least
 * floor². */
static double side_var(double sd, size_t n, double floor)
{
	double v = n >= 2 ? sd * sd * (double)n / (double)(n - 1) : 0.0;

	return v > floor * floor ? v : floor * floor;
}

/* Whether change point i of idx ends the first regime of a young history:
 * PDB_DETECT_MAX_EXCURSION runs or fewer before it. */
static int young_regime(const size_t *idx, size_t i)
{
	return i == 0 && idx[0] <= PDB_DETECT_MAX_EXCURSION;
}

/*
 * The stats of change point i against its neighbours. Its z is
 * |mean2 - mean1| / sqrt(v1/n1 + v2/n2), each side's sample variance v
 * at least the square of the larger of the local noise (of the NOISE_SPAN
 * points on either side, within the sides) and the series' noise, taken
 * relative to the lower side's mean when the series is positive: a short
 * or quiet side cannot make a small change look strong, and a series
 * whose noise grows with its level (the usual case) keeps its small
 * changes at a low level. The first change point of a young regime (its
 * side before of PDB_DETECT_MAX_EXCURSION runs or fewer, the first runs
 * of a history) takes at least the assumed run noise too, but in Otava's
 * mode: a few runs next to each other show the noise of their stretch of
 * the runner's load, not how far its level wanders.
 */
static void stats_at(const double *x, size_t len, const size_t *idx, size_t n,
		     size_t i, const struct merge_rule *r, struct side_stats *st)
{
	size_t a = i == 0 ? 0 : idx[i - 1];
	size_t b = i + 1 == n ? len : idx[i + 1];
	size_t n1 = idx[i] - a, n2 = b - idx[i];
	double floor, se;
	size_t m = 0;

	compare_sides(x, a, idx[i], b, st);
	add_diffs(x + (n1 > NOISE_SPAN ? idx[i] - NOISE_SPAN : a),
		  n1 > NOISE_SPAN ? NOISE_SPAN : n1, r->buf, &m);
	add_diffs(x + idx[i], n2 > NOISE_SPAN ? NOISE_SPAN : n2, r->buf, &m);
	st->noise = diff_sd(r->buf, m);
	floor = r->relative > 0 ?
		r->relative * fmin(st->mean1, st->mean2) : r->sigma;
	floor = floor > st->noise ? floor : st->noise;
	if (!r->otava && young_regime(idx, i) && st->mean1 > 0 && st->mean2 > 0)
		floor = fmax(floor, r->run_noise * fmin(st->mean1, st->mean2));
	se = sqrt(side_var(st->sd1, n1, floor) / (double)n1 +
		  side_var(st->sd2, n2, floor) / (double)n2);
	st->z = se > 0 ? fabs(st->mean2 - st->mean1) / se :
		st->mean2 == st->mean1 ? 0.0 : INFINITY;
}

/* |mean2 - mean1| in noise standard deviations: the sides' noise, which
 * a spike, an excursion or a step left inside a side barely moves. */
static double effect(const struct side_stats *st)
{
	return st->noise > 0 ? fabs(st->mean2 - st->mean1) / st->noise : INFINITY;
}

/* The change point i of st[0..n) that fails the rule first, or n: the
 * largest p when it is >= pvalue, else the smallest magnitude when it is
 * <= magnitude, else the smallest absolute change when it is <=
 * resolution, else the smallest effect when <= effect, else the
 * smallest z when < zmin (the first of equals each time). */
static size_t weakest(const struct side_stats *st, size_t n,
		      const struct merge_rule *r)
{
	size_t w = 0;

	for (size_t i = 1; i < n; i++)
		if (st[i].p > st[w].p)
			w = i;
	if (st[w].p >= r->pvalue)
		return w;
	w = 0;
	for (size_t i = 1; i < n; i++)
		if (magnitude(&st[i]) < magnitude(&st[w]))
			w = i;
	if (magnitude(&st[w]) <= r->magnitude)
		return w;
	w = 0;
	for (size_t i = 1; i < n; i++)
		if (fabs(st[i].mean2 - st[i].mean1) < fabs(st[w].mean2 - st[w].mean1))
			w = i;
	if (r->resolution > 0 && fabs(st[w].mean2 - st[w].mean1) <= r->resolution)
		return w;
	w = 0;
	for (size_t i = 1; i < n; i++)
		if (effect(&st[i]) < effect(&st[w]))
			w = i;
	if (effect(&st[w]) <= r->effect)
		return w;
	w = 0;
	for (size_t i = 1; i < n; i++)
		if (st[i].z < st[w].z)
			w = i;
	return st[w].z < r->zmin ? w : n;
}

/* The merge. After removing point j, Otava recomputes the stats of the
 * points now at j and j + 1, leaving j - 1 (whose right side grew) stale;
 * with otava set this does the same, else it recomputes j - 1 and j. */
static void merge_with_stats(const double *x, size_t len, size_t *idx,
			     size_t *n, struct side_stats *st,
			     const struct merge_rule *r)
{
	for (size_t i = 0; i < *n; i++)
		stats_at(x, len, idx, *n, i, r, &st[i]);
	while (*n > 0) {
		size_t w = weakest(st, *n, r);

		if (w == *n)
			return;
		memmove(idx + w, idx + w + 1, (*n - w - 1) * sizeof *idx);
		memmove(st + w, st + w + 1, (*n - w - 1) * sizeof *st);
		(*n)--;
		if (!r->otava && w > 0)
			stats_at(x, len, idx, *n, w - 1, r, &st[w - 1]);
		if (w < *n)
			stats_at(x, len, idx, *n, w, r, &st[w]);
		if (r->otava && w + 1 < *n)
			stats_at(x, len, idx, *n, w + 1, r, &st[w + 1]);
	}
}

int pdb_detect_merge(const double *x, size_t len, size_t *idx, size_t *n,
		     double pvalue, double magnitude_min, int otava)
{
	struct side_stats *st = pdb_xcalloc(*n + 1, sizeof *st);
	struct merge_rule r = { .pvalue = pvalue, .magnitude = magnitude_min,
				.effect = otava ? 0 : MIN_EFFECT, .otava = otava,
				.buf = pdb_xcalloc(len + 1, sizeof *r.buf) };

	merge_with_stats(x, len, idx, n, st, &r);
	free(r.buf);
	free(st);
	return 0;
}

/* ---- acceptance by the runs' ranks (outside Otava's mode) ---- */

/* The most runs of an excursion that ends at change point k (the first
 * regime: k = 0). */
static size_t excursion_max(size_t k)
{
	return k == 0 ? PDB_DETECT_FIRST_EXCURSION : PDB_DETECT_MAX_EXCURSION;
}

/*
 * The rank evidence of a change point at idx between its neighbours a
 * and b: the two-sided Mann-Whitney p of the runs y[a..idx) against
 * y[idx..b) (exact for small counts). Each run's value is one
 * observation: the samples within a run move together with the machine's
 * load, so only the runs are evidence of a change between them; and ranks
 * let neither a run far off nor a spread that grows with the level weigh
 * more than one run.
 */
static double rank_p(const double *y, size_t a, size_t idx, size_t b)
{
	struct pdb_mwu m;

	if (idx <= a || b <= idx ||
	    pdb_stats_mann_whitney(y + a, idx - a, y + idx, b - idx, &m) < 0)
		return 1.0;
	return m.p;
}

/*
 * The acceptance's p of change point i of idx[0..n) against its
 * neighbours: the rank p times the series' runs over RANK_SPAN (at least
 * 1: noise alone gives some split of a long series a small p), or, when
 * smaller, the p of the parametric rule (the larger of the t-test's p and
 * the Bonferroni chance of its z, as pdb_detect_confidence: a step of a
 * few noise sd between quiet regimes, plain to it); the first of a young
 * history (young_regime) by the parametric rule alone, at the assumed run
 * noise (stats_at): a few neighbouring runs share a stretch of the
 * runner's load, so that their ranks, as their spread, tell nothing of how
 * far its level wanders. Plus 1 (never
 * accepted, and dropped before any other) while a side is an excursion
 * (PDB_DETECT_MAX_EXCURSION runs or fewer, PDB_DETECT_FIRST_EXCURSION for
 * the first regime, and not the last regime),
 * which is outliers, not two change points: of the two change points
 * around one the weaker goes first. The runs from end on (the newest,
 * when a candidate lies there: see elimination) count only for the
 * change points there.
 */
static double evidence_at(const double *y, size_t len, size_t end, const size_t *idx,
			  size_t n, size_t i, const struct merge_rule *r)
{
	size_t upto = idx[i] >= end ? len : end;
	size_t a = i == 0 ? 0 : idx[i - 1], b = i + 1 == n || idx[i + 1] > upto ? upto : idx[i + 1];
	double scale = (double)len / RANK_SPAN, rank, pz, e;
	struct side_stats st;

	scale = scale > 1 ? scale : 1;
	stats_at(y, upto, idx, b == upto ? i + 1 : n, i, r, &st);
	pz = pow(10.0, -pdb_detect_confidence(st.z, len > 1 ? len - 1 : 1));
	e = isnan(st.p) ? 1.0 : fmax(st.p, pz);
	/* below RANK_SKIP the ranks change no acceptance at a P above it
	 * (such a change point is never the weakest before the stop): the
	 * clear steps of long series spare their sort */
	if (e >= RANK_SKIP && !young_regime(idx, i)) {
		rank = fmin(1.0, rank_p(y, a, idx[i], b) * scale);
		e = fmin(rank, e);
	}
	if (idx[i] - a <= excursion_max(i) ||
	    (b < upto && b - idx[i] <= PDB_DETECT_MAX_EXCURSION))
		return 1.0 + e;
	return e;
}

/*
 * Backward elimination over the candidates cand[0..n) of y: drop the one
 * with the largest evidence_at against its current neighbours (the first
 * of equals) and recompute its neighbours, until none is left. Accepting
 * at P stops at the first step whose largest p is below P, so candidate
 * k stays when a step up to its own removal had its largest p below P:
 * keep[k] gets the smallest of those p, and the change points at P are
 * those with keep[k] < P. The steps do not depend on P, so a looser P
 * keeps every change point a stricter one keeps. A candidate at the
 * newest run (one run after it: a spike not yet testable, or a change
 * that has just begun) sets that run apart from the other candidates'
 * evidence, so that it cannot hide an earlier change once it is dropped.
 */
static void elimination(const double *y, size_t len, const size_t *cand, size_t n,
			const struct merge_rule *r, double *keep)
{
	size_t *idx = pdb_xcalloc(n + 1, sizeof *idx), *id = pdb_xcalloc(n + 1, sizeof *id);
	double *p = pdb_xcalloc(n + 1, sizeof *p), low = INFINITY;
	size_t m = n, end = n > 0 && cand[n - 1] + 1 == len ? len - 1 : len;

	if (n)
		memcpy(idx, cand, n * sizeof *idx);
	for (size_t i = 0; i < n; i++) {
		id[i] = i;
		p[i] = evidence_at(y, len, end, idx, n, i, r);
	}
	while (m > 0) {
		size_t w = 0;

		for (size_t i = 1; i < m; i++)
			if (p[i] > p[w])
				w = i;
		low = fmin(low, p[w]);
		keep[id[w]] = low;
		memmove(idx + w, idx + w + 1, (m - w - 1) * sizeof *idx);
		memmove(id + w, id + w + 1, (m - w - 1) * sizeof *id);
		memmove(p + w, p + w + 1, (m - w - 1) * sizeof *p);
		m--;
		if (w > 0)
			p[w - 1] = evidence_at(y, len, end, idx, m, w - 1, r);
		if (w < m)
			p[w] = evidence_at(y, len, end, idx, m, w, r);
	}
	free(idx);
	free(id);
	free(p);
}

/* Keep the candidates idx[k] with keep[k] < level, in place; their count. */
static size_t accept(size_t *idx, const double *keep, size_t n, double level)
{
	size_t m = 0;

	for (size_t k = 0; k < n; k++)
		if (keep[k] < level)
			idx[m++] = idx[k];
	return m;
}

/* ---- the series' own noise and the false-alarm control ---- */

/* log10 of the two-sided normal tail P(|Z| >= z), also far out where erfc
 * underflows (asymptotic series). */
static double log10_tail(double z)
{
	double t = z / sqrt(2.0);

	if (t < 25.0)
		return log10(erfc(t));
	return (-t * t - log(t * sqrt(M_PI)) + log1p(-0.5 / (t * t))) / M_LN10;
}

double pdb_detect_confidence(double z, size_t m)
{
	double c = -(log10((double)(m > 0 ? m : 1)) + log10_tail(z));

	return c > 0 ? c : 0.0;
}

double pdb_detect_z_threshold(double alpha, size_t m)
{
	double lo = 0.0, hi = 60.0, goal = -log10(alpha);

	if (pdb_detect_confidence(0.0, m) >= goal)
		return 0.0;
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2.0;

		if (pdb_detect_confidence(mid, m) >= goal)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* ---- one-run spikes ---- */

/*
 * x[i] is a one-run spike when it is far from the runs before it and from
 * the runs just after it, while those agree with each other. L: up to
 * SPIKE_CONTEXT points before i (at least 3); R: up to SPIKE_NEXT points
 * after it (at least 2). The noise s is estimated from consecutive
 * differences around i (1.4826 MAD / sqrt 2; a step moves only one of
 * them), at least 0.1 % of the level. A spike: |x[i] - med L| and
 * |x[i] - med R| both exceed SPIKE_SIGMAS·s, med L and med R differ by
 * less than a quarter of that, and x[i-1], x[i+1] lie within SPIKE_SIGMAS·s
 * of their side (one run off, not a short regime).
 */
static int is_spike(const double *x, size_t n, size_t i, double *buf)
{
	size_t l0 = i >= SPIKE_CONTEXT ? i - SPIKE_CONTEXT : 0;
	size_t r1 = i + SPIKE_CONTEXT < n ? i + 1 + SPIKE_CONTEXT : n;
	size_t nl = i - l0, nr = r1 - (i + 1), nd = 0;
	double ml, mr, s, dl, dr, lim;

	if (nl < 3 || nr < 2)
		return 0;
	memcpy(buf, x + l0, nl * sizeof *buf);
	ml = pdb_stats_median(buf, nl);
	memcpy(buf, x + i + 1, (nr < SPIKE_NEXT ? nr : SPIKE_NEXT) * sizeof *buf);
	mr = pdb_stats_median(buf, nr < SPIKE_NEXT ? nr : SPIKE_NEXT);
	dl = fabs(x[i] - ml);
	dr = fabs(x[i] - mr);
	/* the tests that need no s first: s >= 1e-3 |ml| bounds lim below */
	lim = SPIKE_SIGMAS * (1e-3 * fabs(ml));
	if (!(dl > lim && dr > lim) || fabs(ml - mr) * 4.0 >= (dl < dr ? dl : dr))
		return 0;
	for (size_t k = l0; k + 1 < i; k++)
		buf[nd++] = fabs(x[k + 1] - x[k]);
	for (size_t k = i + 1; k + 1 < r1; k++)
		buf[nd++] = fabs(x[k + 1] - x[k]);
	s = 1.4826 * pdb_stats_median(buf, nd) / sqrt(2.0);
	if (s < 1e-3 * fabs(ml))
		s = 1e-3 * fabs(ml);
	lim = SPIKE_SIGMAS * s;
	if (!(dl > lim && dr > lim))
		return 0;
	return fabs(x[i - 1] - ml) <= lim && fabs(x[i + 1] - mr) <= lim;
}

/* ---- the whole detection ---- */

/* Flag the one-run spikes of x[0..n); those a resume state still vouches
 * for (its x is where this x starts) are taken from it, the rest tested.
 * st gets the spikes that no later point can change. */
static void flag_spikes(const double *x, size_t n, const struct pdb_detect_state *resume,
			double *buf, char *flag, struct pdb_detect_state *st)
{
	size_t from = 0, cap = 0;

	if (resume && resume->xcovered > SPIKE_CONTEXT && resume->xcovered <= n &&
	    pdb_detect_checksum(x, resume->xcovered) == resume->xchecksum) {
		from = resume->xcovered - SPIKE_CONTEXT;
		for (size_t k = 0; k < resume->nspikes; k++)
			if (resume->spikes[k] < from)
				flag[resume->spikes[k]] = 1;
	}
	for (size_t i = from; i < n; i++)
		flag[i] = (char)is_spike(x, n, i, buf);
	st->xcovered = n;
	st->xchecksum = pdb_detect_checksum(x, n);
	for (size_t i = 0; i + SPIKE_CONTEXT < n; i++) {
		if (flag[i]) {
			pdb_grow((void **)&st->spikes, &cap, st->nspikes + 1, sizeof *st->spikes);
			st->spikes[st->nspikes++] = i;
		}
	}
}

static double first_pass_pvalue(double p)
{
	if (p < 0.05)
		return p * 10;
	if (p < 0.5)
		return p * 2;
	return p;
}

static int state_matches(const struct pdb_detect_state *s, const double *x,
			 size_t n)
{
	return s && s->covered > 0 && s->covered <= n && s->resume < n &&
	       pdb_detect_checksum(x, s->covered) == s->checksum;
}

static void fill_change_point(const size_t *orig, size_t norig, const size_t *idx, size_t k,
			      const struct side_stats *st, size_t m, double zcrit,
			      const struct pdb_detect_opts *o,
			      struct pdb_change_point *cp)
{
	int worse;
	double mag = magnitude(st);

	cp->index = orig[idx[k]];
	cp->index_before = orig[idx[k] - 1];
	cp->mean_before = st->mean1;
	cp->mean_after = st->mean2;
	cp->stddev_before = st->sd1;
	cp->stddev_after = st->sd2;
	cp->change_pct = st->mean1 == 0 ? NAN : (st->mean2 / st->mean1 - 1.0) * 100.0;
	cp->p_value = st->p;
	cp->confidence = pdb_detect_confidence(st->z, m);
	if (cp->confidence > PDB_DETECT_MAX_CONFIDENCE)
		cp->confidence = PDB_DETECT_MAX_CONFIDENCE;
	worse = o->direction == PDB_DIR_LOWER ? st->mean2 > st->mean1 :
		o->direction == PDB_DIR_HIGHER ? st->mean2 < st->mean1 : -1;
	cp->regression = worse == 1 && mag > o->magnitude;
	cp->improvement = worse == 0 && mag > o->magnitude && st->mean2 != st->mean1;
	cp->tentative = norig - cp->index <= PDB_DETECT_MAX_EXCURSION;
	/* outside Otava's mode the acceptance is the test */
	cp->confirmed = !cp->tentative &&
			(o->outliers != PDB_OUTLIERS_KEEP || st->z >= zcrit);
}

/*
 * E-divisive's energy places a change point well when the step is large
 * and up to a few points off when it is small against the noise (the
 * absolute differences weigh a few noisy points next to it like the
 * step). Move each change point idx[k] to the split of x[a..b), its
 * neighbours' span, with the largest between-sides sum of squares
 * n1·n2/(n1+n2)·(mean1 - mean2)², the least-squares position of one step,
 * looking within REFINE points; left to right, each against the
 * positions already refined.
 */
static void refine(const double *x, size_t len, size_t *idx, size_t n)
{
	double *sum = pdb_xcalloc(len + 1, sizeof *sum);

	for (size_t i = 0; i < len; i++)
		sum[i + 1] = sum[i] + x[i];
	for (size_t k = 0; k < n; k++) {
		size_t a = k == 0 ? 0 : idx[k - 1], b = k + 1 == n ? len : idx[k + 1];
		size_t lo = idx[k] > a + REFINE ? idx[k] - REFINE : a + 1;
		size_t hi = idx[k] + REFINE < b - 1 ? idx[k] + REFINE : b - 1;
		double best = -1;

		for (size_t t = lo; t <= hi; t++) {
			double n1 = (double)(t - a), n2 = (double)(b - t);
			double d = (sum[t] - sum[a]) / n1 - (sum[b] - sum[t]) / n2;
			double v = n1 * n2 / (n1 + n2) * d * d;

			if (v > best) {
				best = v;
				idx[k] = t;
			}
		}
	}
	free(sum);
}

/* A regime of 1 to PDB_DETECT_MAX_EXCURSION runs between two change points,
 * or of 1 to PDB_DETECT_FIRST_EXCURSION before the first (the first runs of
 * a history), is an excursion: flag its runs as outliers (len: the points
 * of the series). Returns 1 when there was one. */
static int flag_excursions(const size_t *weak, size_t nfinal, const size_t *orig,
			   size_t len, char *flag)
{
	int any = 0;

	for (size_t k = 0; k < nfinal; k++) {
		size_t a = k == 0 ? 0 : weak[k - 1];

		/* a change point at the newest run (a spike not yet testable)
		 * ends no excursion: the runs before it may be a new level */
		if (weak[k] + 1 < len && weak[k] - a <= excursion_max(k)) {
			for (size_t i = a; i < weak[k]; i++)
				flag[orig[i]] = 1;
			any = 1;
		}
	}
	return any;
}

/* Otava's mode: E-divisive with Hunter's merge, every point counts. */
static void otava_pass(const double *y, size_t ny, const struct pdb_detect_opts *o,
		       struct pdb_detect_state *st, size_t **weak, size_t *nweak,
		       struct side_stats *stats, size_t *nfinal, struct merge_rule *r)
{
	split(y, ny, o->window, first_pass_pvalue(o->pvalue), 0, st, weak, nweak);
	st->checksum = pdb_detect_checksum(y, st->covered);
	*nfinal = *nweak;
	merge_with_stats(y, ny, *weak, nfinal, stats, r);
}

/*
 * The excursions of y (the weak change points weak[0..nweak)): the runs
 * of a short regime between the change points that the merge keeps at
 * STRUCTURE_P (the t-test, the effect and the z of stats_at, as a
 * short regime far off is plain to them while its ranks are but two or
 * three runs), refined, are flagged. Returns 1 when any were.
 */
static int flag_structure(const double *y, size_t ny, const size_t *orig,
			  const size_t *weak, size_t nweak, const struct merge_rule *base,
			  char *flag)
{
	size_t *s = pdb_xcalloc(nweak + 1, sizeof *s), n = nweak;
	struct side_stats *st = pdb_xcalloc(nweak + 1, sizeof *st);
	struct merge_rule r = *base;
	int again;

	if (nweak)
		memcpy(s, weak, nweak * sizeof *s);
	r.pvalue = STRUCTURE_P;
	r.zmin = pdb_detect_z_threshold(STRUCTURE_P, ny > 1 ? ny - 1 : 1);
	merge_with_stats(y, ny, s, &n, st, &r);
	again = flag_excursions(s, n, orig, ny, flag);
	refine(y, ny, s, n);
	again |= flag_excursions(s, n, orig, ny, flag);
	free(s);
	free(st);
	return again;
}

/*
 * Outside Otava's mode everything up to the acceptance is independent of
 * P: the split (gate SPLIT_P) gives the weak candidates, the excursions
 * they bound are flagged (flag_structure; returns 1 when any were, for
 * another pass); of the candidates, those that move the mean by
 * MIN_EFFECT noise sd or less, or by M or less, go (the weakest first);
 * the rest are refined and ordered by the elimination, and P accepts out
 * of that order.
 */
static int report_pass(const double *y, size_t ny, const size_t *orig,
		       const struct pdb_detect_opts *o, struct pdb_detect_state *st,
		       size_t **weak, size_t *nweak, struct side_stats *stats,
		       size_t *nfinal, struct merge_rule *r, size_t *end, char *flag)
{
	double *keep;
	int again;

	split(y, ny, o->window, SPLIT_P, 1, st, weak, nweak);
	st->checksum = pdb_detect_checksum(y, st->covered);
	again = flag_structure(y, ny, orig, *weak, *nweak, r, flag);
	*nfinal = *nweak;
	r->pvalue = INFINITY;
	merge_with_stats(y, ny, *weak, nfinal, stats, r);
	refine(y, ny, *weak, *nfinal);
	keep = pdb_xcalloc(*nfinal + 1, sizeof *keep);
	elimination(y, ny, *weak, *nfinal, r, keep);
	*end = *nfinal > 0 && (*weak)[*nfinal - 1] + 1 == ny ? ny - 1 : ny;
	*nfinal = accept(*weak, keep, *nfinal, o->pvalue);
	free(keep);
	return again;
}

/* One pass over y[0..ny) (x without the flagged points, orig their
 * positions in x); the change points go to weak[0..*nfinal) with their
 * stats, each against its final neighbours (in PDB_OUTLIERS_REPORT mode
 * its p the acceptance's, evidence_at). r (its buf set) gets the rule of the
 * merge. Returns 1 when runs of an excursion were flagged, for another
 * pass. */
static int detect_pass(const double *y, size_t ny, const size_t *orig,
		       const struct pdb_detect_opts *o, struct pdb_detect_state *st,
		       size_t **weak, size_t *nweak, struct side_stats **stats,
		       size_t *nfinal, struct merge_rule *r, double *zcrit, char *flag)
{
	int otava = o->outliers == PDB_OUTLIERS_KEEP, again = 0;
	size_t end = ny;

	/* P is also the chance of a false change point in the whole series */
	*zcrit = pdb_detect_z_threshold(o->pvalue, ny > 1 ? ny - 1 : 1);
	r->pvalue = o->pvalue;
	r->magnitude = o->magnitude;
	r->resolution = o->resolution;
	r->run_noise = o->run_noise;
	r->effect = otava ? 0 : MIN_EFFECT;
	r->zmin = 0;
	r->otava = otava;
	series_noise(y, ny, r);
	*stats = pdb_xcalloc(ny + 1, sizeof **stats);
	if (otava)
		otava_pass(y, ny, o, st, weak, nweak, *stats, nfinal, r);
	else
		again = report_pass(y, ny, orig, o, st, weak, nweak, *stats, nfinal, r,
				    &end, flag);
	for (size_t k = 0; k < *nfinal; k++) {
		stats_at(y, ny, *weak, *nfinal, k, r, &(*stats)[k]);
		if (!otava)
			(*stats)[k].p = evidence_at(y, ny, end, *weak, *nfinal, k, r);
	}
	return again;
}

int pdb_detect(const double *x, size_t n, const struct pdb_detect_opts *o,
	       const struct pdb_detect_state *resume, struct pdb_detect_state *next,
	       struct pdb_detect_result *res, struct pdb_err *err)
{
	struct pdb_detect_state st = { 0 }, later = { 0 };
	double *y = NULL, *buf = NULL;
	size_t *orig = NULL, *weak = NULL, ny, nweak = 0, nfinal = 0, ocap = 0;
	struct side_stats *stats = NULL;
	struct merge_rule rule = { 0 };
	double zcrit = 0;
	char *flag = NULL;
	int rc = -1, pass = 0, again;

	memset(res, 0, sizeof *res);
	if (o->window < 2) {
		pdb_err_set(err, PDB_EXIT_USAGE, "window must be at least 2");
		goto out;
	}
	if (!(o->pvalue > 0 && o->pvalue <= 1) || !(o->magnitude >= 0)) {
		pdb_err_set(err, PDB_EXIT_USAGE, "p-value must be in (0, 1] and magnitude >= 0");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i])) {
			pdb_err_set(err, PDB_EXIT_INPUT, "value %zu is not a finite number", i);
			goto out;
		}
	}
	y = pdb_xcalloc(n + 1, sizeof *y);
	orig = pdb_xcalloc(n + 1, sizeof *orig);
	flag = pdb_xcalloc(n + 1, 1);
	buf = pdb_xcalloc(2 * SPIKE_CONTEXT + 1, sizeof *buf);
	rule.buf = pdb_xcalloc(n + 1, sizeof *rule.buf);
	if (o->outliers == PDB_OUTLIERS_REPORT)
		flag_spikes(x, n, resume, buf, flag, &st);
	/* The first pass (x without its spikes) is the one the state caches;
	 * a later pass, after excursions were flagged, starts afresh. */
	for (;; pass++) {
		struct pdb_detect_state *s = pass == 0 ? &st : &later;

		ny = 0;
		for (size_t i = 0; i < n; i++) {
			if (!flag[i]) {
				y[ny] = x[i];
				orig[ny++] = i;
			}
		}
		if (pass == 0 && state_matches(resume, y, ny)) {
			st.covered = resume->covered;
			st.resume = resume->resume;
			st.nweak = resume->nweak;
			st.weak = pdb_xcalloc(st.nweak + 1, sizeof *st.weak);
			if (st.nweak)
				memcpy(st.weak, resume->weak, st.nweak * sizeof *st.weak);
		}
		pdb_detect_state_release(&later);
		free(weak);
		free(stats);
		again = detect_pass(y, ny, orig, o, s, &weak, &nweak, &stats,
				    &nfinal, &rule, &zcrit, flag);
		if (pass == 0)
			res->nweak = nweak;
		if (!again)
			break;
	}
	for (size_t i = 0; i < n; i++) {
		if (flag[i]) {
			pdb_grow((void **)&res->outliers, &ocap,
				 res->noutliers + 1, sizeof *res->outliers);
			res->outliers[res->noutliers].index = i;
			res->outliers[res->noutliers++].value = x[i];
		}
	}
	res->cps = pdb_xcalloc(nfinal + 1, sizeof *res->cps);
	for (size_t k = 0; k < nfinal; k++)
		fill_change_point(orig, n, weak, k, &stats[k], ny > 1 ? ny - 1 : 1,
				  zcrit, o, &res->cps[k]);
	res->ncps = nfinal;
	if (next) {
		*next = st;
		memset(&st, 0, sizeof st);
	}
	rc = 0;
out:
	pdb_detect_state_release(&st);
	pdb_detect_state_release(&later);
	free(y);
	free(orig);
	free(flag);
	free(buf);
	free(rule.buf);
	free(weak);
	free(stats);
	if (rc < 0)
		pdb_detect_result_release(res);
	return rc;
}
