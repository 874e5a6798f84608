/* Student's t distribution and Welch's test: small samples, where a rank
 * test cannot reach the level asked (3 against 3 gives p >= 0.1). */
#include "stats.h"

#include <math.h>

/* Continued fraction of the incomplete beta (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-16;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a - 1.0 + m2) * (a + m2));
		d = 1.0 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1.0 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1.0 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2));
		d = 1.0 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1.0 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1.0 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1.0) < eps)
			break;
	}
	return h;
}

double pdb_stats_betai(double a, double b, double x)
{
	double front;
	int sign;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	/* lgamma_r: lgamma sets the global signgam, a race between threads */
	front = exp(lgamma_r(a + b, &sign) - lgamma_r(a, &sign) - lgamma_r(b, &sign) +
		    a * log(x) + b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * betacf(a, b, x) / a;
	return 1.0 - front * betacf(b, a, 1.0 - x) / b;
}

double pdb_stats_t_sf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 0 : 1;
	/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	tail = pdb_stats_betai(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? tail / 2 : 1 - tail / 2;
}

double pdb_stats_t_isf(double p, double df)
{
	/* a compare asks the same (p, df) for every series with a full
	 * history: the last answer is kept (per thread, as the normal's) */
	static _Thread_local double last_p = NAN, last_df = NAN, last_t;
	double lo = -1e7, hi = 1e7;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == last_p && df == last_df)
		return last_t;
	/* sf is decreasing in t: bisect to the last bit */
	for (int i = 0; i < 300; i++) {
		double mid = (lo + hi) / 2;
		if (mid == lo || mid == hi)
			break;
		if (pdb_stats_t_sf(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	last_p = p;
	last_df = df;
	return last_t = (lo + hi) / 2;
}

/* Mean and unbiased variance of v. */
static void mean_var(const double *v, size_t n, double *mean, double *var)
{
	double m = 0, s = 0;

	for (size_t i = 0; i < n; i++)
		m += v[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	*mean = m;
	*var = n > 1 ? s / (double)(n - 1) : NAN;
}

int pdb_stats_welch(const double *x, size_t nx, const double *y, size_t ny, double conf,
		    struct pdb_welch *out)
{
	double mx, vx, my, vy, sx, sy, se2, t;

	if (nx < 2 || ny < 2 || !(conf > 0 && conf < 1))
		return -1;
	for (size_t i = 0; i < nx; i++)
		if (!isfinite(x[i]))
			return -1;
	for (size_t i = 0; i < ny; i++)
		if (!isfinite(y[i]))
			return -1;
	mean_var(x, nx, &mx, &vx);
	mean_var(y, ny, &my, &vy);
	sx = vx / (double)nx;
	sy = vy / (double)ny;
	se2 = sx + sy;
	out->shift = my - mx;
	if (se2 == 0) {
		/* no spread on either side: the shift is known exactly */
		out->df = (double)(nx + ny - 2);
		out->p = out->shift == 0 ? 1 : 0;
		out->lo = out->hi = out->shift;
		return 0;
	}
	/* Welch-Satterthwaite degrees of freedom */
	out->df = se2 * se2 / (sx * sx / (double)(nx - 1) + sy * sy / (double)(ny - 1));
	t = out->shift / sqrt(se2);
	out->p = fmin(1.0, 2 * pdb_stats_t_sf(fabs(t), out->df));
	t = pdb_stats_t_isf((1 - conf) / 2, out->df);
	out->lo = out->shift - t * sqrt(se2);
	out->hi = out->shift + t * sqrt(se2);
	return 0;
}
