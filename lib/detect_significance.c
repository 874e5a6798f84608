/* detect's significance tests: Student's t-test of the two sides of a
 * change point, the series' noise, Hunter's merge (Otava's significance
 * test) and the false-alarm control (lib/detect_significance.h). */
#include "detect_significance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "stats.h"
#include "util.h"

/* The local noise of a change point: from at most this many points on
 * either side. */
#define NOISE_SPAN 30

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

/* The mean and sd of x[a..b), from kept[a] when it holds them: the merge
 * and the elimination ask again and again for the same stretches between
 * neighbouring change points, a third of detect's time on long series. */
static void stretch(const double *x, size_t a, size_t b, struct detect_stretch *kept,
		    double *mean, double *sd)
{
	if (kept && kept[a].end == b) {
		*mean = kept[a].mean;
		*sd = kept[a].sd;
		return;
	}
	mean_sd(x + a, b - a, mean, sd);
	if (kept) {
		kept[a].end = b;
		kept[a].mean = *mean;
		kept[a].sd = *sd;
	}
}

void detect_compare_kept(const double *x, size_t a, size_t idx, size_t b,
			 struct detect_stretch *kept, struct detect_sides *st)
{
	stretch(x, a, idx, kept, &st->mean1, &st->sd1);
	stretch(x, idx, b, kept, &st->mean2, &st->sd2);
	st->p = pdb_detect_ttest(st->mean1, st->sd1, idx - a,
				 st->mean2, st->sd2, b - idx);
}

/* Compare x[a..idx) with x[idx..b). */
void detect_compare_sides(const double *x, size_t a, size_t idx, size_t b,
			  struct detect_sides *st)
{
	detect_compare_kept(x, a, idx, b, NULL, st);
}

/* max(|m2/m1 - 1|, |m1/m2 - 1|), a ratio with a zero denominator counting 0 */
double detect_magnitude(const struct detect_sides *st)
{
	double f = st->mean1 == 0 ? 0 : fabs(st->mean2 / st->mean1 - 1.0);
	double b = st->mean2 == 0 ? 0 : fabs(st->mean1 / st->mean2 - 1.0);

	return f > b ? f : b;
}

/* 1.4826 · median of d[0..m) / sqrt 2 (d, absolute successive
 * differences, is reordered), the standard deviation of gaussian noise;
 * when more than half of d is 0 (values on a coarse grid), the mean of d
 * · sqrt(pi) / 2, its gaussian equivalent, which is 0 only for a constant
 * series; 0 when m is 0. */
double detect_diff_sd(double *d, size_t m)
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
void detect_add_diffs(const double *x, size_t n, double *d, size_t *m)
{
	for (size_t i = 0; i + 1 < n; i++)
		d[(*m)++] = fabs(x[i + 1] - x[i]);
}

/* pdb_detect_noise with buf (room for n) as scratch. */
double detect_robust_sd(const double *x, size_t n, double *buf)
{
	size_t m = 0;

	detect_add_diffs(x, n, buf, &m);
	return detect_diff_sd(buf, m);
}

double pdb_detect_noise(const double *x, size_t n)
{
	double *buf = pdb_xcalloc(n + 1, sizeof *buf), s;

	s = detect_robust_sd(x, n, buf);
	free(buf);
	return s;
}

/* The series' noise into r: sigma, and when every value is positive,
 * relative, the detect_diff_sd of |x[i+1] - x[i]| / ((x[i+1] + x[i]) / 2). */
void detect_series_noise(const double *x, size_t n, struct detect_rule *r)
{
	size_t m = 0;

	r->sigma = detect_robust_sd(x, n, r->buf);
	r->relative = 0.0;
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return;
	for (size_t i = 0; i + 1 < n; i++)
		r->buf[m++] = fabs(x[i + 1] - x[i]) / ((x[i + 1] + x[i]) / 2.0);
	r->relative = detect_diff_sd(r->buf, m);
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
int detect_young_regime(const size_t *idx, size_t i)
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
void detect_stats_at(const double *x, size_t len, const size_t *idx, size_t n,
		     size_t i, const struct detect_rule *r, struct detect_sides *st)
{
	size_t a = i == 0 ? 0 : idx[i - 1];
	size_t b = i + 1 == n ? len : idx[i + 1];
	size_t n1 = idx[i] - a, n2 = b - idx[i];
	double floor, se;
	size_t m = 0;
	size_t lo = n1 > NOISE_SPAN ? idx[i] - NOISE_SPAN : a;
	size_t hi = idx[i] + (n2 > NOISE_SPAN ? NOISE_SPAN : n2);
	struct detect_stretch *kept = r->stretches ? &r->stretches[idx[i]] : NULL;

	detect_compare_kept(x, a, idx[i], b, r->stretches, st);
	if (kept && kept->hi == hi && kept->lo == lo) {
		st->noise = kept->noise;
	} else {
		detect_add_diffs(x + lo, idx[i] - lo, r->buf, &m);
		detect_add_diffs(x + idx[i], hi - idx[i], r->buf, &m);
		st->noise = detect_diff_sd(r->buf, m);
		if (kept) {
			kept->lo = lo;
			kept->hi = hi;
			kept->noise = st->noise;
		}
	}
	floor = r->relative > 0 ?
		r->relative * fmin(st->mean1, st->mean2) : r->sigma;
	floor = floor > st->noise ? floor : st->noise;
	if (!r->otava && detect_young_regime(idx, i) && st->mean1 > 0 && st->mean2 > 0)
		floor = fmax(floor, r->run_noise * fmin(st->mean1, st->mean2));
	se = sqrt(side_var(st->sd1, n1, floor) / (double)n1 +
		  side_var(st->sd2, n2, floor) / (double)n2);
	st->z = se > 0 ? fabs(st->mean2 - st->mean1) / se :
		st->mean2 == st->mean1 ? 0.0 : INFINITY;
}

/* |mean2 - mean1| in noise standard deviations: the sides' noise, which
 * a spike, an excursion or a step left inside a side barely moves. */
static double effect(const struct detect_sides *st)
{
	return st->noise > 0 ? fabs(st->mean2 - st->mean1) / st->noise : INFINITY;
}

/* The change point i of st[0..n) that fails the rule first, or n: the
 * largest p when it is >= pvalue, else the smallest magnitude when it is
 * <= magnitude, else the smallest absolute change when it is <=
 * resolution, else the smallest effect when <= effect, else the
 * smallest z when < zmin (the first of equals each time). */
static size_t weakest(const struct detect_sides *st, size_t n,
		      const struct detect_rule *r)
{
	size_t w = 0;

	for (size_t i = 1; i < n; i++)
		if (st[i].p > st[w].p)
			w = i;
	if (st[w].p >= r->pvalue)
		return w;
	w = 0;
	for (size_t i = 1; i < n; i++)
		if (detect_magnitude(&st[i]) < detect_magnitude(&st[w]))
			w = i;
	if (detect_magnitude(&st[w]) <= r->magnitude)
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
void detect_merge_with_stats(const double *x, size_t len, size_t *idx,
			     size_t *n, struct detect_sides *st,
			     const struct detect_rule *r)
{
	for (size_t i = 0; i < *n; i++)
		detect_stats_at(x, len, idx, *n, i, r, &st[i]);
	while (*n > 0) {
		size_t w = weakest(st, *n, r);

		if (w == *n)
			return;
		memmove(idx + w, idx + w + 1, (*n - w - 1) * sizeof *idx);
		memmove(st + w, st + w + 1, (*n - w - 1) * sizeof *st);
		(*n)--;
		if (!r->otava && w > 0)
			detect_stats_at(x, len, idx, *n, w - 1, r, &st[w - 1]);
		if (w < *n)
			detect_stats_at(x, len, idx, *n, w, r, &st[w]);
		if (r->otava && w + 1 < *n)
			detect_stats_at(x, len, idx, *n, w + 1, r, &st[w + 1]);
	}
}

int pdb_detect_merge(const double *x, size_t len, size_t *idx, size_t *n,
		     double pvalue, double magnitude_min, int otava)
{
	struct detect_sides *st = pdb_xcalloc(*n + 1, sizeof *st);
	struct detect_rule r = { .pvalue = pvalue, .magnitude = magnitude_min,
				.effect = otava ? 0 : DETECT_MIN_EFFECT, .otava = otava,
				.buf = pdb_xcalloc(len + 1, sizeof *r.buf) };

	detect_merge_with_stats(x, len, idx, n, st, &r);
	free(r.buf);
	free(st);
	return 0;
}

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
