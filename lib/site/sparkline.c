/* Site: the recent history of a series as a small inline SVG (a line, its change points, the latest value). */
#include "site/site_internal.h"

#include <math.h>

#define SPARK_POINTS 40
#define WIDTH 120
#define HEIGHT 24
#define PAD 2
#define MIN_SPAN 0.2            /* the vertical range, a fraction of the values at least */

static int y_of(double v, double lo, double hi)
{
	if (!(hi > lo) || !isfinite(v) || !isfinite(lo) || !isfinite(hi))
		return HEIGHT / 2;
	/* higher values up; in halves, which are exact, so that -DBL_MAX..DBL_MAX
	 * does not pass DBL_MAX (lround of inf or NaN has no answer) */
	return (int)lround(PAD + (hi / 2 - v / 2) / (hi / 2 - lo / 2) * (HEIGHT - 2 * PAD));
}

/* The i-th of n points spread over the width. */
static double x_of(size_t i, size_t n)
{
	return n < 2 ? WIDTH / 2.0 : PAD + (double)i * (WIDTH - 2 * PAD) / (double)(n - 1);
}

void site_sparkline(struct pdb_buf *b, const struct site_series *ss)
{
	size_t first = ss->n > SPARK_POINTS ? ss->n - SPARK_POINTS : 0, n = ss->n - first;
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = first; i < ss->n; i++) /* NaN and infinities have no place */
		if (isfinite(ss->pts[i].value)) {
			lo = fmin(lo, ss->pts[i].value);
			hi = fmax(hi, ss->pts[i].value);
		}
	/* at least MIN_SPAN of the middle value high: noise of a steady series stays small */
	if (hi / 2 - lo / 2 < MIN_SPAN * fabs(lo / 2 + hi / 2) / 2) {
		double mid = lo / 2 + hi / 2, half = MIN_SPAN * fabs(mid) / 2;
		lo = mid - half;
		hi = mid + half;
	}
	pdb_buf_printf(b, "<svg class=\"spark\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		       "preserveAspectRatio=\"none\" role=\"img\" aria-label=\"last %zu run%s\"><polyline points=\"",
		       WIDTH, HEIGHT, WIDTH, HEIGHT, n, n == 1 ? "" : "s");
	for (size_t i = first; i < ss->n; i++)
		pdb_buf_printf(b, "%s%.0f,%d", i > first ? " " : "", x_of(i - first, n),
			       y_of(ss->pts[i].value, lo, hi));
	pdb_buf_puts(b, "\"/>");
	/* change points between the runs on either side */
	for (size_t k = 0; k < ss->res.ncps; k++) {
		const struct pdb_change_point *cp = &ss->res.cps[k];
		double x;
		if (cp->index <= first)
			continue;
		x = (x_of(cp->index - first, n) + x_of(cp->index - first - 1, n)) / 2;
		pdb_buf_printf(b, "<line class=\"%s\" x1=\"%.0f\" x2=\"%.0f\" y1=\"0\" y2=\"%d\"/>",
			       cp->regression ? "r" : cp->improvement ? "i" : "c", x, x, HEIGHT);
	}
	pdb_buf_printf(b, "<circle cx=\"%.0f\" cy=\"%d\" r=\"2\"/></svg>", x_of(n - 1, n),
		       y_of(ss->pts[ss->n - 1].value, lo, hi));
}
