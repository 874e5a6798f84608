/* Chart layout: nice steps, the nines transform, SI tick labels, text widths and line reduction. */
#include "chart/layout.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Advance widths of DejaVu Sans, per 1000 em, of ASCII 32..126 (read from
 * the font with cairo); other characters count as their common width. */
static const short regular[95] = {
	318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
	1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
	603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
	500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
	635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
};
static const short bold[95] = {
	348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
	696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580,
	1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850,
	733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500,
	500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
	716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
};

static double width(const char *s, double font_size, const short *table, double other)
{
	double w = 0;

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 32 && c < 127)
			w += table[c - 32];
		else if ((c & 0xc0) != 0x80) /* the first byte of another character */
			w += strncmp(s, "…", strlen("…")) == 0 ? 1000 : other;
	}
	return w * font_size / 1000;
}

double pdb_chart_text_width(const char *s, double font_size)
{
	return width(s, font_size, regular, 700);
}

double pdb_chart_text_width_bold(const char *s, double font_size)
{
	return width(s, font_size, bold, 780);
}

double pdb_chart_nice_step(double span, int target)
{
	double raw, mag, f, step;

	if (!(span > 0) || target < 1)
		return 1;
	/* a span past DBL_MAX (-DBL_MAX..DBL_MAX) is read as DBL_MAX: the step
	 * then stays finite, and the ticks cover what they can */
	raw = fmax(fmin(span, DBL_MAX) / target, DBL_TRUE_MIN); /* a denormal / 9 is 0 */
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	step = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
	/* a denormal span has no power of ten below it (mag 0), and 10 x 1e308
	 * is inf: the raw step then, finite and above zero */
	return isfinite(step) && step > 0 ? step : raw;
}

/* A span too small to be divided into ticks: nothing, a denormal, or so
 * little of the values' size that lo + step would round back to lo. */
static int span_too_small(double lo, double hi)
{
	double mag = fmax(fabs(lo), fabs(hi));

	return !(hi - lo >= 1e3 * DBL_MIN) || hi - lo < mag * 1e-12;
}

double pdb_chart_nice_range(double *lo, double *hi, int target)
{
	double step, r;

	if (*hi < *lo) {
		double t = *lo;
		*lo = *hi;
		*hi = t;
	}
	if (span_too_small(*lo, *hi)) {
		/* one value: a tenth of it either side; 0 and denormals, whose
		 * tenth is nothing, get -1..1 around the middle */
		double mid = *lo / 2 + *hi / 2, d = fabs(mid) * 0.1;
		if (!(d >= 1e3 * DBL_MIN))
			mid = 0, d = 1;
		*lo = mid - d;
		*hi = mid + d;
		if (!isfinite(*hi)) /* past DBL_MAX: the room goes below */
			*hi = DBL_MAX, *lo = mid - 2 * d;
		if (!isfinite(*lo))
			*lo = -DBL_MAX, *hi = mid + 2 * d;
	}
	step = pdb_chart_nice_step(*hi - *lo, target); /* inf when past DBL_MAX: it copes */
	/* round out to the step unless that passes DBL_MAX: the data's own end then */
	r = floor(*lo / step + 1e-9) * step;
	if (isfinite(r))
		*lo = r;
	r = ceil(*hi / step - 1e-9) * step;
	if (isfinite(r))
		*hi = r;
	return step;
}

size_t pdb_chart_tick_values(double lo, double hi, double *step, double *out, size_t max)
{
	double first, count;
	size_t n = 0;

	if (!isfinite(lo) || !isfinite(hi) || !(*step > 0) || !isfinite(*step) || hi < lo || max == 0)
		return 0;
	/* counted in steps, not by adding them: a step below lo's precision
	 * would never move v, and hi - first may be past DBL_MAX */
	first = ceil(lo / *step - 1e-9);
	count = floor(hi / *step + 1e-9) - first + 1;
	if (!(count >= 1))
		return 0;
	if (count > (double)max) { /* wider steps, as many as fit */
		double k = ceil(count / (double)max);
		*step *= k;
		first = ceil(lo / *step - 1e-9);
		count = floor(hi / *step + 1e-9) - first + 1;
	}
	for (double i = 0; i < count && n < max; i++) {
		double v = (first + i) * *step;
		if (isfinite(v))
			out[n++] = fabs(v) < *step * 1e-9 ? 0 : v;
	}
	return n;
}

double pdb_chart_nines(double percent)
{
	return -log10(1 - percent / 100);
}

/* SI prefixes; time units use their own names below one second. */
static const struct {
	double scale;
	const char *si, *time;
} prefixes[] = {
	{ 1e12, "T", NULL }, { 1e9, "G", NULL }, { 1e6, "M", NULL }, { 1e3, "k", NULL },
	{ 1, "", "s" }, { 1e-3, "m", "ms" }, { 1e-6, "µ", "µs" }, { 1e-9, "n", "ns" },
};
#define NPREFIXES (sizeof prefixes / sizeof prefixes[0])

static size_t prefix_for(double a, int is_time)
{
	size_t i;

	if (!(a > 0))
		return 4;
	for (i = is_time ? 4 : 0; i < NPREFIXES - 1; i++) {
		if (!is_time && prefixes[i].scale < 1)
			break;
		if (a >= prefixes[i].scale * 0.9995)
			break;
	}
	if (!is_time && prefixes[i].scale < 1)
		i = 4;
	return i;
}

static void format_tick(double v, size_t prefix, int is_time, int is_pct, int decimals,
			char *out, size_t size)
{
	double s = v / prefixes[prefix].scale;

	if (v == 0)
		snprintf(out, size, "0");
	else if (decimals < 0 || fabs(s) >= 1e5) /* past the prefixes: 2e+307, not 309 digits */
		snprintf(out, size, "%.4g", s);
	else
		snprintf(out, size, "%.*f", decimals, s);
	if (strcmp(out, "-0") == 0 || (out[0] == '-' && strspn(out + 1, "0.") == strlen(out + 1)))
		memmove(out, out + 1, strlen(out));
	if (is_time && v != 0)
		snprintf(out + strlen(out), size - strlen(out), " %s", prefixes[prefix].time);
	else if (is_pct)
		snprintf(out + strlen(out), size - strlen(out), "%%");
	else if (v != 0)
		snprintf(out + strlen(out), size - strlen(out), "%s", prefixes[prefix].si);
}

/* Bytes read in binary steps, as the tables write them (KiB, MiB, GiB). */
static const char *const binary_names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
#define NBINARY (sizeof binary_names / sizeof binary_names[0])

static size_t binary_for(double a)
{
	size_t k = 0;

	while (k + 1 < NBINARY && a >= pow(1024, (double)(k + 1)) * 0.9995)
		k++;
	return k;
}

double pdb_chart_bytes_scale(double amax)
{
	return pow(1024, (double)binary_for(amax));
}

static void bytes_tick(double v, size_t k, int decimals, char *out, size_t size)
{
	if (v == 0)
		snprintf(out, size, "0");
	else if (decimals < 0 || fabs(v / pow(1024, (double)k)) >= 1e5)
		snprintf(out, size, "%.4g %s", v / pow(1024, (double)k), binary_names[k]);
	else
		snprintf(out, size, "%.*f %s", decimals, v / pow(1024, (double)k), binary_names[k]);
}

static void bytes_labels(struct pdb_tick *ticks, size_t n, int per_tick, double step,
			 double amax)
{
	size_t k = binary_for(amax);
	int decimals;

	for (decimals = 0; decimals < 6; decimals++) {
		double s = step / pow(1024, (double)k) * pow(10, decimals);
		if (fabs(s - round(s)) < 1e-6 * (s > 1 ? s : 1))
			break;
	}
	for (size_t i = 0; i < n; i++) {
		double v = ticks[i].value;
		if (per_tick)
			bytes_tick(v, binary_for(fabs(v)), -1, ticks[i].label, sizeof ticks[i].label);
		else
			bytes_tick(fabs(v) < step * 1e-9 ? 0 : v, k, decimals, ticks[i].label,
				   sizeof ticks[i].label);
	}
}

void pdb_chart_tick_labels(struct pdb_tick *ticks, size_t n, const char *unit,
			   int per_tick, double step)
{
	int is_time = strcmp(unit, "s") == 0, is_pct = strcmp(unit, "%") == 0;
	double amax = 0;
	size_t prefix;
	int decimals;

	for (size_t i = 0; i < n; i++)
		if (fabs(ticks[i].value) > amax)
			amax = fabs(ticks[i].value);
	if (strcmp(unit, "B") == 0) {
		bytes_labels(ticks, n, per_tick, step, amax);
		return;
	}
	prefix = is_pct ? 4 : prefix_for(amax, is_time);
	/* as many decimals as the step needs to be exact: 2.5k, 0.25 ms */
	for (decimals = 0; decimals < 6; decimals++) {
		double s = step / prefixes[prefix].scale * pow(10, decimals);
		if (fabs(s - round(s)) < 1e-6 * (s > 1 ? s : 1))
			break;
	}
	for (size_t i = 0; i < n; i++) {
		double v = ticks[i].value;
		if (per_tick)
			format_tick(v, is_pct ? 4 : prefix_for(fabs(v), is_time), is_time,
				    is_pct, -1, ticks[i].label, sizeof ticks[i].label);
		else
			format_tick(fabs(v) < step * 1e-9 ? 0 : v, prefix, is_time, is_pct,
				    decimals, ticks[i].label, sizeof ticks[i].label);
	}
}

size_t pdb_chart_reduce(const double *px, const double *py, size_t n, double *ox, double *oy)
{
	size_t out = 0, i = 0;

	while (i < n) {
		double col = floor(px[i]);
		size_t j = i, imin = i, imax = i, keep[4];
		int nk = 0;

		while (j < n && floor(px[j]) == col) {
			if (py[j] < py[imin])
				imin = j;
			if (py[j] > py[imax])
				imax = j;
			j++;
		}
		keep[nk++] = i;
		if (imin < imax) {
			keep[nk++] = imin;
			keep[nk++] = imax;
		} else {
			keep[nk++] = imax;
			keep[nk++] = imin;
		}
		keep[nk++] = j - 1;
		for (int k = 0; k < nk; k++) { /* keep[] is in index order */
			if (k > 0 && keep[k] == keep[k - 1])
				continue;
			ox[out] = px[keep[k]];
			oy[out] = py[keep[k]];
			out++;
		}
		i = j;
	}
	return out;
}
