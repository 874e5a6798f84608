/* Universal Scalability Law: closed-form start and a bounded Levenberg–Marquardt fit. */
#include "chart/usl.h"

#include <math.h>
#include <string.h>

static double model(const double p[3], double n)
{
	return p[0] * n / (1 + p[1] * (n - 1) + p[2] * n * (n - 1));
}

static double sse(const double p[3], const double *nv, const double *xv, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++) {
		double r = xv[i] - model(p, nv[i]);
		s += r * r;
	}
	return s;
}

static void clamp(double p[3])
{
	if (!(p[0] > 0))
		p[0] = 1e-300;
	for (int k = 1; k < 3; k++) {
		if (!(p[k] >= 0))
			p[k] = 0;
		if (p[k] > 1)
			p[k] = 1;
	}
}

/* Solve the 3x3 system a x = b by Gaussian elimination with pivoting. */
static int solve3(double a[3][3], double b[3], double x[3])
{
	for (int c = 0; c < 3; c++) {
		int piv = c;
		for (int r = c + 1; r < 3; r++)
			if (fabs(a[r][c]) > fabs(a[piv][c]))
				piv = r;
		if (fabs(a[piv][c]) < 1e-300)
			return -1;
		if (piv != c) {
			double t[3], tb = b[c];
			memcpy(t, a[c], sizeof t);
			memcpy(a[c], a[piv], sizeof t);
			memcpy(a[piv], t, sizeof t);
			b[c] = b[piv];
			b[piv] = tb;
		}
		for (int r = c + 1; r < 3; r++) {
			double f = a[r][c] / a[c][c];
			for (int k = c; k < 3; k++)
				a[r][k] -= f * a[c][k];
			b[r] -= f * b[c];
		}
	}
	for (int r = 2; r >= 0; r--) {
		double s = b[r];
		for (int k = r + 1; k < 3; k++)
			s -= a[r][k] * x[k];
		x[r] = s / a[r][r];
	}
	return 0;
}

/* Start: λ from the smallest N, then σ and κ by least squares on
 * N/C(N) − 1 = σ(N−1) + κN(N−1), where C(N) = X(N)/λ. */
static void closed_form(const double *nv, const double *xv, size_t n, double p[3])
{
	size_t i0 = 0;
	double saa = 0, sab = 0, sbb = 0, say = 0, sby = 0, det;

	for (size_t i = 1; i < n; i++)
		if (nv[i] < nv[i0])
			i0 = i;
	p[0] = xv[i0] / nv[i0];
	for (size_t i = 0; i < n; i++) {
		double a = nv[i] - 1, b = nv[i] * (nv[i] - 1);
		double y = nv[i] / (xv[i] / p[0]) - 1;
		saa += a * a;
		sab += a * b;
		sbb += b * b;
		say += a * y;
		sby += b * y;
	}
	det = saa * sbb - sab * sab;
	p[1] = fabs(det) > 1e-300 ? (say * sbb - sby * sab) / det : 0;
	p[2] = fabs(det) > 1e-300 ? (saa * sby - sab * say) / det : 0;
	clamp(p);
}

int pdb_usl_fit(const double *nv, const double *xv, size_t n, struct pdb_usl *out)
{
	double p[3], cost, mu = 1e-3, mean = 0, sst = 0;
	size_t distinct = 0;
	int it;

	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < n; i++) {
		int seen = 0;
		if (!(nv[i] > 0) || !(xv[i] > 0) || !isfinite(nv[i]) || !isfinite(xv[i]))
			return -1;
		for (size_t k = 0; k < i; k++)
			seen |= nv[k] == nv[i];
		distinct += !seen;
	}
	if (distinct < 4)
		return -1;
	closed_form(nv, xv, n, p);
	cost = sse(p, nv, xv, n);
	for (it = 0; it < 500 && mu < 1e15; it++) {
		double a[3][3] = { { 0 } }, g[3] = { 0 }, d[3], q[3], c;
		for (size_t i = 0; i < n; i++) {
			double N = nv[i], D = 1 + p[1] * (N - 1) + p[2] * N * (N - 1);
			double j[3] = { N / D, -p[0] * N * (N - 1) / (D * D),
					-p[0] * N * N * (N - 1) / (D * D) };
			double r = xv[i] - model(p, N);
			for (int u = 0; u < 3; u++) {
				g[u] += j[u] * r;
				for (int v = 0; v < 3; v++)
					a[u][v] += j[u] * j[v];
			}
		}
		for (int u = 0; u < 3; u++)
			a[u][u] += mu * (a[u][u] > 0 ? a[u][u] : 1e-12);
		if (solve3(a, g, d) < 0)
			break;
		for (int u = 0; u < 3; u++)
			q[u] = p[u] + d[u];
		clamp(q);
		c = sse(q, nv, xv, n);
		if (c < cost) {
			double gain = (cost - c) / (cost > 0 ? cost : 1);
			memcpy(p, q, sizeof p);
			cost = c;
			mu = mu / 10 > 1e-12 ? mu / 10 : 1e-12;
			if (gain < 1e-14)
				break;
		} else {
			mu *= 10;
		}
	}
	for (size_t i = 0; i < n; i++)
		mean += xv[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		sst += (xv[i] - mean) * (xv[i] - mean);
	out->lambda = p[0];
	out->sigma = p[1];
	out->kappa = p[2];
	out->iterations = it;
	out->r2 = sst > 0 ? 1 - cost / sst : 1;
	if (p[2] > 0 && p[1] < 1) {
		out->peak_n = sqrt((1 - p[1]) / p[2]);
		out->peak_x = model(p, out->peak_n);
	} else {
		out->peak_n = out->peak_x = INFINITY;
	}
	return 0;
}

double pdb_usl_eval(const struct pdb_usl *u, double n)
{
	double p[3] = { u->lambda, u->sigma, u->kappa };
	return model(p, n);
}
