/* Statistics: Mann-Whitney U, Hodges-Lehmann, quantiles and means (pure maths). */
#include "stats.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int pdb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void pdb_stats_sort(double *v, size_t n)
{
	if (n > 64) {
		qsort(v, n, sizeof *v, pdb_cmp_double);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Memory kept from one call to the next: a compare of many series would
 * otherwise allocate and free the same few small blocks for each. Each
 * thread has its own (the site draws its pages on several), freed when the
 * thread ends. */
struct scratch {
	void *p;
	size_t cap;
};

/* The no-ties null distribution of the last (m, n) asked for, as
 * P(U <= k) for k = 0..m*n/2: a compare of many series of the same sizes
 * computes it once. */
struct null_cache {
	size_t m, n, top;
	double *cdf;
};

struct stats_scratch {
	struct scratch sorted_x, sorted_y, tie_tab, tie_rows, tie_binom, tie_groups;
	struct scratch hl_gather, hl_pos;
	struct null_cache null;
	int kept; /* registered to be freed with its thread */
};
static _Thread_local struct stats_scratch mine;

static pthread_key_t mine_key;
static pthread_once_t mine_once = PTHREAD_ONCE_INIT;

static void mine_free(void *arg)
{
	struct stats_scratch *m = arg;
	struct scratch *all[] = { &m->sorted_x, &m->sorted_y, &m->tie_tab, &m->tie_rows,
				  &m->tie_binom, &m->tie_groups, &m->hl_gather, &m->hl_pos };

	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		free(all[i]->p);
	free(m->null.cdf);
	memset(m, 0, sizeof *m);
}

static void mine_key_make(void)
{
	if (pthread_key_create(&mine_key, mine_free) != 0)
		abort();
}

/* This thread's scratch, to be freed when it ends. */
static void mine_keep(void)
{
	if (mine.kept)
		return;
	pthread_once(&mine_once, mine_key_make);
	if (pthread_setspecific(mine_key, &mine) != 0)
		abort();
	mine.kept = 1;
}

static void *scratch_get(struct scratch *s, size_t n, size_t size)
{
	mine_keep();
	pdb_grow(&s->p, &s->cap, n ? n : 1, size);
	return s->p;
}

/* A sorted copy of v in the scratch block s. */
static double *sorted_copy(struct scratch *s, const double *v, size_t n)
{
	double *d = scratch_get(s, n, sizeof *d);
	memcpy(d, v, n * sizeof *d);
	pdb_stats_sort(d, n);
	return d;
}

static int has_nan(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(v[i]))
			return 1;
	return 0;
}

double pdb_stats_norm_sf(double z)
{
	return 0.5 * erfc(z / sqrt(2.0));
}

double pdb_stats_norm_isf(double p)
{
	/* a compare asks the same p for every series: the last answer is
	 * kept (per thread: the site compares on several) */
	static _Thread_local double last_p = NAN, last_z;
	double lo = -40, hi = 40;

	if (p == last_p)
		return last_z;
	/* sf is decreasing: bisect to the last bit */
	for (int i = 0; i < 200 && lo < hi; i++) {
		double mid = (lo + hi) / 2;
		if (mid == lo || mid == hi)
			break;
		if (pdb_stats_norm_sf(mid) > p)
			lo = mid;
		else
			hi = mid;
	}
	last_p = p;
	return last_z = (lo + hi) / 2;
}

/* Counts of U = 0..m*n/2 under the null without ties: the coefficients of
 * the Gaussian binomial prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i). Only the
 * lower half is computed: coefficient k needs only those below it, so the
 * small tail stays exact, and the distribution is symmetric. */
static double *mwu_lower_counts(size_t m, size_t n, size_t *top)
{
	double *c;

	*top = m * n / 2;
	c = pdb_xcalloc(*top + 1, sizeof *c);
	c[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		for (size_t k = *top; k >= n + i && k <= *top; k--)
			c[k] -= c[k - n - i];
		for (size_t k = i; k <= *top; k++)
			c[k] += c[k - i];
	}
	return c;
}

/* P(U <= k) for k = 0..m*n/2 without ties, kept for the next call. */
static const double *lower_cdf_table(size_t m, size_t n, size_t *top)
{
	struct null_cache *nc = &mine.null;
	double *c, total = 0, acc = 0;

	if (nc->cdf && nc->m == m && nc->n == n) {
		*top = nc->top;
		return nc->cdf;
	}
	c = mwu_lower_counts(m, n, top);
	for (size_t k = 0; k <= *top; k++)
		total += (2 * k == m * n) ? c[k] : 2 * c[k];
	for (size_t k = 0; k <= *top; k++)
		c[k] = (acc += c[k]) / total;
	mine_keep();
	free(nc->cdf);
	nc->m = m;
	nc->n = n;
	nc->top = *top;
	nc->cdf = c;
	return c;
}

/* P(U <= u) without ties, for u <= m*n/2. */
static double lower_cdf(size_t m, size_t n, double u)
{
	size_t top;
	const double *cdf = lower_cdf_table(m, n, &top);

	if (u < 0)
		return 0;
	return cdf[(size_t)u < top ? (size_t)u : top];
}


static double choose(size_t n, size_t k)
{
	double ways = 1;

	for (size_t i = 1; i <= k; i++)
		ways = ways * (double)(n - k + i) / (double)i;
	return ways;
}

/* choose(n, k) for n <= PDB_STATS_EXACT_MAX, the same doubles, computed
 * once for every thread: the exact test with ties asks for many. */
static double choose_table[PDB_STATS_EXACT_MAX + 1][PDB_STATS_EXACT_MAX + 1];
static pthread_once_t choose_once = PTHREAD_ONCE_INIT;

static void choose_table_fill(void)
{
	for (size_t n = 0; n <= PDB_STATS_EXACT_MAX; n++)
		for (size_t j = 0; j <= n; j++)
			choose_table[n][j] = choose(n, j);
}

static double choose_small(size_t n, size_t k)
{
	if (n > PDB_STATS_EXACT_MAX)
		return choose(n, k);
	pthread_once(&choose_once, choose_table_fill);
	return choose_table[n][k];
}

/* Exact two-sided p with ties: the null distribution of S = 2U over every
 * way of choosing which m of the N values are x, by dynamic programming
 * over the tie groups (sizes t, in value order). Taking j of a group when
 * b y values lie below it adds j * (2b + t - j) to S, in C(t, j) ways. S
 * never falls, so only the tail S <= s_obs is needed (the values are
 * mirrored first when s_obs is above the mean m*n): both one-sided
 * probabilities follow from it, P(S = s_obs) and the total C(N, m).
 *
 * Row a of the table holds the counts of the partial sums s with a x values
 * chosen so far; rows are updated in place from the highest a down. Each x
 * still to come adds at least 2 ys (ys: y values placed so far) and at most
 * 2n, so a row keeps only the window of partial sums whose side of s_obs is
 * still open: sums sure to end above it are dropped, and sums sure to end
 * below it are counted at once, with all their completions, into
 * `strictly_below`. */
struct tie_row {
	size_t lo, hi; /* the window [lo, hi) of partial sums kept */
};

/* Widen row r of tab to hold [lo, hi), zeroing what it did not hold. */
static void widen_row(double *row, struct tie_row *r, size_t lo, size_t hi)
{
	if (r->lo == r->hi) {
		memset(row + lo, 0, (hi - lo) * sizeof *row);
		r->lo = lo;
		r->hi = hi;
		return;
	}
	if (lo < r->lo) {
		memset(row + lo, 0, (r->lo - lo) * sizeof *row);
		r->lo = lo;
	}
	if (hi > r->hi) {
		memset(row + r->hi, 0, (hi - r->hi) * sizeof *row);
		r->hi = hi;
	}
}

/* out[s] += w * in[s]: the inner loop of the table, on distinct rows, four
 * at a time (the same products and sums as one at a time: no fused
 * multiply-add); w == 1 (a value without ties) needs no product. On x86-64
 * a copy for AVX2 is chosen at load time where the processor has it (not
 * under ThreadSanitizer, whose instrumented resolver would run before its
 * runtime is up). */
typedef double four_doubles __attribute__((vector_size(32)));

#if defined(__x86_64__) && defined(__has_attribute) && !defined(__SANITIZE_THREAD__)
#if __has_attribute(target_clones)
#define PDB_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef PDB_CLONES
#define PDB_CLONES
#endif

PDB_CLONES
static void add_scaled(double *restrict out, const double *restrict in, double w, size_t n)
{
	size_t s = 0;

	if (w == 1) {
		for (; s + 4 <= n; s += 4) {
			four_doubles a, b;
			memcpy(&a, out + s, sizeof a);
			memcpy(&b, in + s, sizeof b);
			a += b;
			memcpy(out + s, &a, sizeof a);
		}
		for (; s < n; s++)
			out[s] += in[s];
		return;
	}
	for (; s + 4 <= n; s += 4) {
		four_doubles a, b;
		memcpy(&a, out + s, sizeof a);
		memcpy(&b, in + s, sizeof b);
		a += w * b;
		memcpy(out + s, &a, sizeof a);
	}
	for (; s < n; s++)
		out[s] += w * in[s];
}

static double exact_p_ties(size_t *groups, size_t ngroups, size_t m, size_t n,
			   size_t s_obs)
{
	size_t width, seen = 0, dead = 0, N = m + n;
	struct tie_row *rows;
	double *tab, *binom, strictly_below = 0, eq = 0, total = choose_small(N, m), p;

	if (s_obs > m * n) {
		for (size_t g = 0; g < ngroups / 2; g++) {
			size_t t = groups[g];
			groups[g] = groups[ngroups - 1 - g];
			groups[ngroups - 1 - g] = t;
		}
		s_obs = 2 * m * n - s_obs;
	}
	width = s_obs + 1;
	tab = scratch_get(&mine.tie_tab, (m + 1) * width, sizeof *tab);
	rows = scratch_get(&mine.tie_rows, m + 1, sizeof *rows);
	memset(rows, 0, (m + 1) * sizeof *rows);
	binom = scratch_get(&mine.tie_binom, m + 1, sizeof *binom);
	tab[0] = 1;
	rows[0].hi = 1;
	for (size_t g = 0; g < ngroups; g++) {
		size_t t = groups[g], after = seen + t, top = after < m ? after : m;
		size_t was_dead = dead;

		binom[0] = 1;
		for (size_t j = 1; j <= m && j <= t; j++)
			binom[j] = binom[j - 1] * (double)(t - j + 1) / (double)j;
		/* rows below `dead` can no longer end at or below s_obs (too many
		 * y below their x still to come, or too few x left for the y):
		 * rising with each group, so they are passed over; those dying
		 * now are emptied after this group, as they are read by it */
		while (dead <= top && (after - dead > n || (m - dead) * 2 * (after - dead) > s_obs))
			dead++;
		for (size_t to = top + 1; to-- > dead;) {
			size_t ys = after - to, least = (m - to) * 2 * ys, most = (m - to) * 2 * n;
			size_t room, cut;
			double *dst = tab + to * width;
			struct tie_row *r = &rows[to];

			if (ys > n || least > s_obs) {
				r->lo = r->hi = 0;
				continue;
			}
			room = width - least;
			for (size_t j = 1; j <= t && j <= to; j++) {
				const struct tie_row *src = &rows[to - j];
				size_t shift = j * (2 * (seen - (to - j)) + t - j), hi;
				if (src->lo == src->hi || src->lo + shift >= room)
					continue;
				hi = src->hi + shift < room ? src->hi + shift : room;
				widen_row(dst, r, src->lo + shift, hi);
				add_scaled(dst + src->lo + shift, tab + (to - j) * width + src->lo,
					   binom[j], hi - src->lo - shift);
			}
			if (r->hi > room)
				r->hi = room;
			cut = s_obs > most ? s_obs - most : 0; /* below: sure to end below s_obs */
			if (r->lo < cut && r->lo < r->hi) {
				size_t end = cut < r->hi ? cut : r->hi;
				double sum = 0;
				for (size_t s = r->lo; s < end; s++)
					sum += dst[s];
				strictly_below += sum * choose_small(N - after, m - to);
				r->lo = end;
			}
		}
		for (size_t to = was_dead; to < dead; to++)
			rows[to].lo = rows[to].hi = 0;
		seen = after;
	}
	if (rows[m].lo <= s_obs && s_obs < rows[m].hi)
		eq = tab[m * width + s_obs];
	p = fmin(1.0, 2.0 * fmin(strictly_below + eq, total - strictly_below) / total);
	return p;
}

double pdb_stats_mwu_min_p(size_t nx, size_t ny)
{
	/* one arrangement is the most extreme in each tail */
	return fmin(1.0, 2.0 / choose_small(nx + ny, nx));
}

int pdb_stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
			   struct pdb_mwu *out)
{
	if (nx == 0 || ny == 0 || has_nan(x, nx) || has_nan(y, ny))
		return -1;
	pdb_stats_mann_whitney_sorted(sorted_copy(&mine.sorted_x, x, nx), nx,
				      sorted_copy(&mine.sorted_y, y, ny), ny, out);
	return 0;
}

void pdb_stats_mann_whitney_sorted(const double *sx, size_t nx, const double *sy, size_t ny,
				   struct pdb_mwu *out)
{
	double ties = 0;
	size_t *groups = NULL, ngroups = 0, s2 = 0, i, j, k, N = nx + ny;

	/* 2U = sum over x of 2 * (y below) + (y equal), in integers */
	for (i = 0, j = 0; i < nx; i++) {
		while (j < ny && sy[j] < sx[i])
			j++;
		for (k = j; k < ny && sy[k] == sx[i]; k++)
			;
		s2 += 2 * j + (k - j);
	}
	/* tie groups of the pooled values, in value order */
	groups = scratch_get(&mine.tie_groups, N, sizeof *groups);
	for (i = 0, j = 0; i < nx || j < ny;) {
		double v = (j >= ny || (i < nx && sx[i] <= sy[j])) ? sx[i] : sy[j];
		size_t t = 0;
		while (i < nx && sx[i] == v) {
			i++;
			t++;
		}
		while (j < ny && sy[j] == v) {
			j++;
			t++;
		}
		groups[ngroups++] = t;
		ties += (double)t * t * t - (double)t;
	}
	out->u = s2 / 2.0;
	if (N <= PDB_STATS_EXACT_MAX) {
		out->exact = 1;
		if (ngroups == N) {
			size_t m = nx < ny ? nx : ny, n = N - m;
			double u = fmin(out->u, (double)nx * ny - out->u);
			out->p = fmin(1.0, 2 * lower_cdf(m, n, floor(u)));
		} else if (nx <= ny) {
			out->p = exact_p_ties(groups, ngroups, nx, ny, s2);
		} else {
			/* S of y is 2*nx*ny - S of x: same two-sided p, smaller table */
			out->p = exact_p_ties(groups, ngroups, ny, nx, 2 * nx * ny - s2);
		}
	} else {
		out->exact = 0;
		out->p = pdb_stats_mwu_normal_p(out->u, nx, ny, ties);
	}
}

double pdb_stats_mwu_normal_p(double u, size_t nx, size_t ny, double ties)
{
	double N = (double)(nx + ny), mu = (double)nx * ny / 2;
	double var = (double)nx * ny / 12 * (N + 1 - ties / (N * (N - 1)));

	return var <= 0 ? 1.0 : fmin(1.0, 2 * pdb_stats_norm_sf((fabs(u - mu) - 0.5) / sqrt(var)));
}

size_t pdb_stats_hl_rank(size_t nx, size_t ny, double conf)
{
	double half = (1 - conf) / 2, mu = (double)nx * ny / 2;
	size_t N = nx + ny, m = nx < ny ? nx : ny, top, k = 0;

	if (nx == 0 || ny == 0 || !(conf > 0 && conf < 1))
		return 0;
	if (N <= PDB_STATS_EXACT_MAX) {
		const double *cdf = lower_cdf_table(m, N - m, &top);
		/* k - 1 is the largest u with P(U <= u) <= (1 - conf) / 2 */
		for (size_t u = 0; u <= top && cdf[u] <= half; u++)
			k = u + 1;
		return k;
	}
	double u = floor(mu - 0.5 - pdb_stats_norm_isf(half) *
			 sqrt((double)nx * ny * ((double)N + 1) / 12));
	return u < 0 ? 0 : (size_t)u + 1;
}

/* Doubles mapped to unsigned integers in the same order. */
static uint64_t order_key(double d)
{
	uint64_t b;
	memcpy(&b, &d, sizeof b);
	return (b >> 63) ? ~b : b | (UINT64_C(1) << 63);
}

static double from_key(uint64_t k)
{
	uint64_t b = (k >> 63) ? k & ~(UINT64_C(1) << 63) : ~k;
	double d;
	memcpy(&d, &b, sizeof d);
	return d;
}

/* Pairs with sy[j] - sx[i] <= d (both sorted): the differences fall as
 * sx[i] rises, so one pointer into sy moves forward only. */
static size_t count_le_bisect(const double *sx, size_t nx, const double *sy, size_t ny,
			      double d)
{
	size_t count = 0, j = 0;

	for (size_t i = 0; i < nx; i++) {
		while (j < ny && sy[j] - sx[i] <= d)
			j++;
		count += j;
	}
	return count;
}

/* The k-th smallest (1-based) difference sy[j] - sx[i], exactly: bisection
 * over the ordered bit patterns between the smallest and largest. */
static double kth_difference(const double *sx, size_t nx, const double *sy, size_t ny,
			     size_t k)
{
	uint64_t lo = order_key(sy[0] - sx[nx - 1]), hi = order_key(sy[ny - 1] - sx[0]);

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (count_le_bisect(sx, nx, sy, ny, from_key(mid)) >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return from_key(lo);
}

/* Rearrange d[0..n) so that d[k] is the (k+1)-th smallest (Hoare's select). */
static double select_kth(double *d, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = d[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (d[i] < pivot)
				i++;
			while (d[j] > pivot)
				j--;
			if (i <= j) {
				double t = d[i];
				d[i] = d[j];
				d[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return d[k];
}

/* Up to this many pairs the differences are listed and selected from;
 * above, bisection counts them without storing any. */
#define HL_SELECT_MAX 65536

/* Estimate and interval from the listed differences d (n of them): one
 * selection of the median splits d, and the other ranks are selected within
 * the part that holds them. */
static void hl_by_selection(double *d, size_t n, size_t k, double *est, double *lo, double *hi)
{
	size_t mid = (n - 1) / 2; /* 0-based rank of the lower median */
	double lower = select_kth(d, n, mid), upper = lower;

	if (n % 2 == 0) { /* the next rank is the smallest of the upper part */
		upper = d[mid + 1];
		for (size_t i = mid + 2; i < n; i++)
			if (d[i] < upper)
				upper = d[i];
	}
	*est = (lower + upper) / 2;
	if (k == 0 || 2 * k > n + 1) {
		*lo = *hi = NAN;
		return;
	}
	*lo = k - 1 == mid ? lower : select_kth(d, mid, k - 1);
	*hi = n - k == mid ? lower : select_kth(d + mid + 1, n - mid - 1, n - k - mid - 1);
}

/* Pairs with sy[j] - sx[i] < d, both samples sorted and finite and
 * sy[ny] = +inf, and in pos[i] how many of them row i holds, given from
 * (row counts no greater, e.g. those of a smaller d): merges of the two
 * samples without branches on the data (the differences fall as sx[i]
 * rises, so j only moves forward), one for each half of the rows, side by
 * side, each from its first row's count in from. */
static size_t count_lt(const double *sx, size_t nx, const double *sy, double d,
		       const size_t *from, size_t *pos)
{
	size_t h = nx / 2, i1 = 0, j1 = from[0], i2 = h, j2 = from[h], count = 0;

	while (i1 < h && i2 < nx) {
		size_t a1 = sy[j1] - sx[i1] < d, a2 = sy[j2] - sx[i2] < d;
		pos[i1] = j1;
		pos[i2] = j2;
		j1 += a1;
		j2 += a2;
		i1 += a1 ^ 1;
		i2 += a2 ^ 1;
	}
	while (i1 < h) {
		size_t a1 = sy[j1] - sx[i1] < d;
		pos[i1] = j1;
		j1 += a1;
		i1 += a1 ^ 1;
	}
	while (i2 < nx) {
		size_t a2 = sy[j2] - sx[i2] < d;
		pos[i2] = j2;
		j2 += a2;
		i2 += a2 ^ 1;
	}
	for (size_t i = 0; i < nx; i++)
		count += pos[i];
	return count;
}

/* Once a bracket holds this many differences they are listed and selected
 * from; after this many narrowing steps, however many it holds. */
#define HL_GATHER_MAX 16
#define HL_NARROW_MAX 10
#define HL_PROBES_MAX 32

/* The counts already made for one pair of samples: the ranks asked of the
 * same samples start from the tightest bracket they give. Probe p's row
 * counts are pos[p * nx ...]; the last two rows of nx are those of -inf and
 * +inf (0 and ny). */
struct hl_probes {
	size_t n;
	double v[HL_PROBES_MAX];
	size_t lt[HL_PROBES_MAX]; /* differences < v */
	size_t *pos;              /* (HL_PROBES_MAX + 2) * nx */
};

/* The r-th smallest (1-based) difference sy[j] - sx[i] over the sorted,
 * finite samples (sy[ny] = +inf), in O((nx + ny) log) without listing the
 * nx * ny differences. A bracket [a, b) of values holds the answer, with na
 * differences below a and nb below b (na < r <= nb). Each step counts the
 * differences below a pivot and keeps the part that holds rank r: the first
 * pivot of a pair of samples is the difference of their medians, the
 * others interpolate between the bracket's ends at the rank sought (regula
 * falsi on the counting function, with the Illinois step when one end
 * stays). When the bracket holds few differences (or after a few steps)
 * they are listed, row by row, and rank r - na is selected among them. The
 * value returned is one of the differences as computed, so it is the very
 * double a sort of all of them would give at rank r. */
static double kth_pairwise(const double *sx, size_t nx, const double *sy, size_t ny, size_t r,
			   struct hl_probes *pr)
{
	double a = -INFINITY, b = INFINITY, *d;
	double av = sy[0] - sx[nx - 1], bv = sy[ny - 1] - sx[0]; /* the ends, as values */
	size_t na = 0, nb = nx * ny, n = 0;
	const size_t *pa = pr->pos + HL_PROBES_MAX * nx, *pb = pa + nx;
	double ga, gb; /* the counting function less r - 1/2 at av and bv */
	int last = 0;  /* the end moved last: -1 a, 1 b */

	for (size_t p = 0; p < pr->n; p++) {
		if (pr->lt[p] < r && pr->v[p] >= a) {
			a = av = pr->v[p];
			na = pr->lt[p];
			pa = pr->pos + p * nx;
		} else if (pr->lt[p] >= r && pr->v[p] < b) {
			b = bv = pr->v[p];
			nb = pr->lt[p];
			pb = pr->pos + p * nx;
		}
	}
	ga = (double)na - ((double)r - 0.5);
	gb = (double)nb - ((double)r - 0.5);
	for (int step = 0; step < HL_NARROW_MAX && nb - na > HL_GATHER_MAX &&
		     pr->n < HL_PROBES_MAX; step++) {
		double v = pr->n == 0 ? sy[(ny - 1) / 2] / 2 + sy[ny / 2] / 2 -
			(sx[(nx - 1) / 2] / 2 + sx[nx / 2] / 2)
			: av + (bv - av) * (-ga / (gb - ga));
		size_t lt, *pos = pr->pos + pr->n * nx;

		if (!(v > a && v < b)) /* the ends are next to each other */
			break;
		lt = count_lt(sx, nx, sy, v, pa, pos);
		pr->v[pr->n] = v;
		pr->lt[pr->n++] = lt;
		if (lt >= r) {
			b = bv = v;
			nb = lt;
			pb = pos;
			gb = (double)nb - ((double)r - 0.5);
			if (last == 1)
				ga /= 2;
			last = 1;
		} else {
			a = av = v;
			na = lt;
			pa = pos;
			ga = (double)na - ((double)r - 0.5);
			if (last == -1)
				gb /= 2;
			last = -1;
		}
	}
	d = scratch_get(&mine.hl_gather, nb - na, sizeof *d);
	for (size_t i = 0; i < nx; i++)
		for (size_t j = pa[i]; j < pb[i]; j++)
			d[n++] = sy[j] - sx[i];
	return select_kth(d, n, r - na - 1);
}

static int all_finite(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
}

int pdb_stats_hodges_lehmann_at(const double *x, size_t nx, const double *y, size_t ny,
				size_t k, double *est, double *lo, double *hi)
{
	size_t pairs = nx * ny;
	double *sx, *sy, *diffs;

	if (nx == 0 || ny == 0 || has_nan(x, nx) || has_nan(y, ny))
		return -1;
	sx = sorted_copy(&mine.sorted_x, x, nx);
	/* sy[ny] = +inf: the sentinel of the counting merges */
	sy = scratch_get(&mine.sorted_y, ny + 1, sizeof *sy);
	memcpy(sy, y, ny * sizeof *sy);
	pdb_stats_sort(sy, ny);
	sy[ny] = INFINITY;
	if (pairs <= HL_SELECT_MAX && all_finite(sx, nx) && all_finite(sy, ny)) {
		struct hl_probes pr = { 0 };
		pr.pos = scratch_get(&mine.hl_pos, (HL_PROBES_MAX + 2) * nx, sizeof *pr.pos);
		for (size_t i = 0; i < nx; i++) {
			pr.pos[HL_PROBES_MAX * nx + i] = 0;
			pr.pos[(HL_PROBES_MAX + 1) * nx + i] = ny;
		}
		*est = pairs % 2 ? kth_pairwise(sx, nx, sy, ny, pairs / 2 + 1, &pr)
			: (kth_pairwise(sx, nx, sy, ny, pairs / 2, &pr) +
			   kth_pairwise(sx, nx, sy, ny, pairs / 2 + 1, &pr)) / 2;
		if (k == 0 || 2 * k > pairs + 1) {
			*lo = *hi = NAN;
		} else {
			*lo = kth_pairwise(sx, nx, sy, ny, k, &pr);
			*hi = kth_pairwise(sx, nx, sy, ny, pairs + 1 - k, &pr);
		}
	} else if (pairs <= HL_SELECT_MAX) {
		/* infinities: every difference listed, as IEEE arithmetic gives it */
		diffs = scratch_get(&mine.hl_gather, pairs, sizeof *diffs);
		for (size_t i = 0; i < nx; i++)
			for (size_t j = 0; j < ny; j++)
				diffs[i * ny + j] = sy[j] - sx[i];
		hl_by_selection(diffs, pairs, k, est, lo, hi);
	} else {
		*est = pairs % 2 ? kth_difference(sx, nx, sy, ny, pairs / 2 + 1)
			: (kth_difference(sx, nx, sy, ny, pairs / 2) +
			   kth_difference(sx, nx, sy, ny, pairs / 2 + 1)) / 2;
		if (k == 0 || 2 * k > pairs + 1) {
			*lo = *hi = NAN;
		} else {
			*lo = kth_difference(sx, nx, sy, ny, k);
			*hi = kth_difference(sx, nx, sy, ny, pairs + 1 - k);
		}
	}
	return 0;
}

int pdb_stats_hodges_lehmann(const double *x, size_t nx, const double *y, size_t ny,
			     double conf, double *est, double *lo, double *hi)
{
	return pdb_stats_hodges_lehmann_at(x, nx, y, ny, pdb_stats_hl_rank(nx, ny, conf),
					   est, lo, hi);
}

double pdb_stats_quantile(const double *sorted, size_t n, double q)
{
	double h, frac;
	size_t lo;

	if (n == 0)
		return NAN;
	h = (double)(n - 1) * q;
	lo = (size_t)floor(h);
	if (lo >= n - 1)
		return sorted[n - 1];
	frac = h - (double)lo;
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/* By selection, not a sort: O(n), the same value as pdb_stats_quantile(0.5). */
double pdb_stats_median(double *v, size_t n)
{
	size_t mid = n / 2;
	double upper, lower;

	if (n == 0)
		return NAN;
	upper = select_kth(v, n, mid); /* v[0..mid) are below it */
	if (n % 2)
		return upper;
	lower = v[0];
	for (size_t i = 1; i < mid; i++)
		if (v[i] > lower)
			lower = v[i];
	return lower + 0.5 * (upper - lower);
}

double pdb_stats_mean(const double *v, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double pdb_stats_geomean(const double *v, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return NAN;
		sum += log(v[i]);
	}
	return exp(sum / (double)n);
}

struct holm_item {
	double p;
	size_t index;
};

static int cmp_holm(const void *a, const void *b)
{
	const struct holm_item *x = a, *y = b;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

void pdb_stats_holm(double *p, size_t n)
{
	struct holm_item *items = pdb_xmalloc((n ? n : 1) * sizeof *items);
	size_t m = 0;
	double running = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			items[m++] = (struct holm_item){ p[i], i };
	qsort(items, m, sizeof *items, cmp_holm);
	/* the i-th smallest is multiplied by (m - i), kept monotone, capped at 1 */
	for (size_t i = 0; i < m; i++) {
		double adj = fmin(1.0, (double)(m - i) * items[i].p);
		running = fmax(running, adj);
		p[items[i].index] = running;
	}
	free(items);
}

/* ---- paired: Wilcoxon signed-rank and its Hodges-Lehmann estimate ---- */

static int cmp_abs(const void *a, const void *b)
{
	double x = fabs(*(const double *)a), y = fabs(*(const double *)b);
	return x < y ? -1 : x > y;
}

/* The null distribution of T2 = 2 T+ for ranks r2 (doubled, integers):
 * each rank counted or not with probability 1/2. P(T2 = s) for s = 0 ..
 * *top; caller frees. */
static double *signed_rank_dist(const size_t *r2, size_t n, size_t *top)
{
	double *p;

	*top = 0;
	for (size_t i = 0; i < n; i++)
		*top += r2[i];
	p = pdb_xcalloc(*top + 1, sizeof *p);
	p[0] = 1;
	for (size_t i = 0, reach = 0; i < n; i++) {
		reach += r2[i];
		for (size_t s = reach + 1; s-- > 0;)
			p[s] = (p[s] + (s >= r2[i] ? p[s - r2[i]] : 0)) / 2;
	}
	return p;
}

int pdb_stats_signed_rank(const double *d, size_t n, struct pdb_mwu *out)
{
	double *v, mu, var, ties = 0, w2 = 0;
	size_t *r2, m = 0, sum2 = 0;

	if (n == 0 || has_nan(d, n))
		return -1;
	v = pdb_xmalloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		if (d[i] != 0) /* zero differences carry no sign: left out */
			v[m++] = d[i];
	qsort(v, m, sizeof *v, cmp_abs);
	r2 = pdb_xmalloc((m ? m : 1) * sizeof *r2);
	for (size_t i = 0; i < m;) {
		size_t j = i;
		while (j < m && fabs(v[j]) == fabs(v[i]))
			j++;
		for (size_t k = i; k < j; k++)
			r2[k] = i + j + 1; /* twice the midrank of ranks i+1 .. j */
		ties += (double)(j - i) * (j - i) * (j - i) - (double)(j - i);
		i = j;
	}
	for (size_t i = 0; i < m; i++) {
		sum2 += r2[i];
		if (v[i] > 0)
			w2 += (double)r2[i];
	}
	out->u = w2 / 2;
	out->exact = m <= PDB_STATS_EXACT_MAX;
	if (m == 0) {
		out->p = 1;
	} else if (out->exact) {
		/* the null distribution is symmetric about sum2 / 2 */
		size_t lo = (size_t)w2 <= sum2 - (size_t)w2 ? (size_t)w2 : sum2 - (size_t)w2, top;
		double *dist = signed_rank_dist(r2, m, &top), cdf = 0;
		for (size_t t = 0; t <= lo; t++)
			cdf += dist[t];
		out->p = fmin(1.0, 2 * cdf);
		free(dist);
	} else {
		mu = (double)m * (m + 1) / 4;
		var = (double)m * (m + 1) * (2 * m + 1) / 24 - ties / 48;
		double z = (fabs(out->u - mu) - 0.5) / sqrt(var);
		out->p = var > 0 ? fmin(1.0, 2 * pdb_stats_norm_sf(z > 0 ? z : 0)) : 1;
	}
	free(v);
	free(r2);
	return 0;
}

double pdb_stats_signed_rank_min_p(size_t n)
{
	return n >= 64 ? 0 : fmin(1.0, 2.0 / (double)(UINT64_C(1) << n));
}

int pdb_stats_hodges_lehmann_paired(const double *d, size_t n, double conf, double *est,
				    double *lo, double *hi)
{
	size_t walsh = n * (n + 1) / 2, k = 0, *r2;
	double *w;

	if (n == 0 || n > PDB_STATS_PAIRED_MAX || has_nan(d, n))
		return -1;
	w = pdb_xmalloc(walsh * sizeof *w);
	for (size_t i = 0, m = 0; i < n; i++)
		for (size_t j = i; j < n; j++)
			w[m++] = (d[i] + d[j]) / 2;
	pdb_stats_sort(w, walsh);
	*est = walsh % 2 ? w[walsh / 2] : (w[walsh / 2 - 1] + w[walsh / 2]) / 2;
	/* k - 1: the largest t with P(T+ <= t) <= (1 - conf) / 2, untied ranks */
	if (n <= PDB_STATS_EXACT_MAX) {
		size_t top;
		double *dist, cdf = 0;
		r2 = pdb_xmalloc(n * sizeof *r2);
		for (size_t i = 0; i < n; i++)
			r2[i] = 2 * (i + 1);
		dist = signed_rank_dist(r2, n, &top);
		for (size_t t = 0; t < walsh && (cdf += dist[2 * t]) <= (1 - conf) / 2; t++)
			k = t + 1;
		free(dist);
		free(r2);
	} else {
		double t = floor((double)n * (n + 1) / 4 - 0.5 - pdb_stats_norm_isf((1 - conf) / 2) *
				 sqrt((double)n * (n + 1) * (2 * n + 1) / 24));
		k = t < 0 ? 0 : (size_t)t + 1;
	}
	if (k == 0 || 2 * k > walsh + 1) {
		*lo = *hi = NAN;
	} else {
		*lo = w[k - 1];
		*hi = w[walsh - k];
	}
	free(w);
	return 0;
}
