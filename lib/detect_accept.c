/* detect's acceptance by the runs' ranks (outside Otava's mode): the
 * evidence of each change point, the backward elimination, and P's cut
 * (lib/detect_accept.h). */
#include "detect_accept.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "stats.h"
#include "util.h"

/* The rank p of a change point counts multiplied by the series' runs over
 * this many (at least 1; detect_evidence_at): a long series has more splits for
 * noise to choose from. */
#define RANK_SPAN 20
/* A change point whose parametric p is below this skips the rank test
 * (detect_evidence_at): no P above it can be decided by its ranks. */
#define RANK_SKIP 1e-12

/* The most runs of an excursion that ends at change point k (the first
 * regime: k = 0). */
size_t detect_excursion_max(size_t k)
{
	return k == 0 ? PDB_DETECT_FIRST_EXCURSION : PDB_DETECT_MAX_EXCURSION;
}

/* The bits of v as an unsigned key in the order of the values (a negative
 * one's reversed), for a radix sort. */
static uint64_t order_key(double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof bits);
	return bits >> 63 ? ~bits : bits | (uint64_t)1 << 63;
}

/* The positions of y[0..len) in the order of their values: a radix sort of
 * their keys, a byte a pass from the lowest, skipping a byte every key
 * shares (a series' values share their sign and most of their exponent).
 * qsort's call a comparison cost detect on long series a fifth of its
 * time. */
void detect_ranks_init(struct detect_ranks *rk, const double *y, size_t len)
{
	uint64_t *key = pdb_xmalloc((len + 1) * sizeof *key);
	size_t *tmp = pdb_xmalloc((len + 1) * sizeof *tmp);

	rk->len = len;
	rk->order = pdb_xmalloc((len + 1) * sizeof *rk->order);
	for (size_t i = 0; i < len; i++) {
		key[i] = order_key(y[i]);
		rk->order[i] = i;
	}
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[257] = { 0 }, *swap;

		for (size_t i = 0; i < len; i++)
			count[(key[i] >> shift & 0xff) + 1]++;
		if (len == 0 || count[(key[0] >> shift & 0xff) + 1] == len)
			continue; /* every key has this byte */
		for (int d = 0; d < 256; d++)
			count[d + 1] += count[d];
		for (size_t i = 0; i < len; i++) { /* stable: the lower bytes' order holds */
			size_t at = rk->order[i];
			tmp[count[key[at] >> shift & 0xff]++] = at;
		}
		swap = rk->order;
		rk->order = tmp;
		tmp = swap;
	}
	free(key);
	free(tmp);
	rk->sx = pdb_xmalloc((len + 1) * sizeof *rk->sx);
	rk->sy = pdb_xmalloc((len + 1) * sizeof *rk->sy);
}

void detect_ranks_free(struct detect_ranks *rk)
{
	free(rk->order);
	free(rk->sx);
	free(rk->sy);
}

/*
 * The rank evidence of a change point at idx between its neighbours a
 * and b: the two-sided Mann-Whitney p of the runs y[a..idx) against
 * y[idx..b) (exact for small counts). Each run's value is one
 * observation: the samples within a run move together with the machine's
 * load, so only the runs are evidence of a change between them; and ranks
 * let neither a run far off nor a spread that grows with the level weigh
 * more than one run. A stretch of 1/16 of the series or more is sorted by
 * a walk of the series' order (rk): len steps, fewer than its sort's
 * m log m comparisons from there on.
 */
static double rank_p(const double *y, size_t a, size_t idx, size_t b,
		     const struct detect_ranks *rk)
{
	struct pdb_mwu m;
	size_t nx = 0, ny = 0, gx = 0, gy = 0, below = 0, s2 = 0;
	double ties = 0, prev = 0;

	if (idx <= a || b <= idx)
		return 1.0;
	if (!rk || 16 * (b - a) < rk->len)
		return pdb_stats_mann_whitney(y + a, idx - a, y + idx, b - idx, &m) < 0 ? 1.0 : m.p;
	if (b - a <= PDB_STATS_EXACT_MAX) { /* the exact test reads the sides sorted */
		for (size_t k = 0; k < rk->len; k++) {
			size_t at = rk->order[k];
			if (at >= a && at < idx)
				rk->sx[nx++] = y[at];
			else if (at >= idx && at < b)
				rk->sy[ny++] = y[at];
		}
		pdb_stats_mann_whitney_sorted(rk->sx, nx, rk->sy, ny, &m);
		return m.p;
	}
	/* 2U and the ties straight from the walk, a group of equal values at a
	 * time, as pdb_stats_mann_whitney_sorted sums them */
	for (size_t k = 0; k <= rk->len; k++) {
		size_t at = k < rk->len ? rk->order[k] : SIZE_MAX;
		double t;

		if (k < rk->len && (at < a || at >= b))
			continue;
		if (gx + gy > 0 && (k == rk->len || y[at] != prev)) {
			s2 += gx * (2 * below + gy);
			t = (double)(gx + gy);
			ties += t * t * t - t;
			below += gy;
			gx = gy = 0;
		}
		if (k == rk->len)
			break;
		prev = y[at];
		if (at < idx)
			gx++;
		else
			gy++;
	}
	return pdb_stats_mwu_normal_p(s2 / 2.0, idx - a, b - idx, ties);
}

/*
 * The acceptance's p of change point i of idx[0..n) against its
 * neighbours: the rank p times the series' runs over RANK_SPAN (at least
 * 1: noise alone gives some split of a long series a small p), or, when
 * smaller, the p of the parametric rule (the larger of the t-test's p and
 * the Bonferroni chance of its z, as pdb_detect_confidence: a step of a
 * few noise sd between quiet regimes, plain to it); the first of a young
 * history (detect_young_regime) by the parametric rule alone, at the assumed run
 * noise (detect_stats_at): a few neighbouring runs share a stretch of the
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
double detect_evidence_at(const double *y, size_t len, size_t end, const size_t *idx,
			  size_t n, size_t i, const struct detect_rule *r)
{
	size_t upto = idx[i] >= end ? len : end;
	size_t a = i == 0 ? 0 : idx[i - 1], b = i + 1 == n || idx[i + 1] > upto ? upto : idx[i + 1];
	double scale = (double)len / RANK_SPAN, rank, pz, e;
	struct detect_sides st;

	scale = scale > 1 ? scale : 1;
	detect_stats_at(y, upto, idx, b == upto ? i + 1 : n, i, r, &st);
	pz = pow(10.0, -pdb_detect_confidence(st.z, len > 1 ? len - 1 : 1));
	e = isnan(st.p) ? 1.0 : fmax(st.p, pz);
	/* below RANK_SKIP the ranks change no acceptance at a P above it
	 * (such a change point is never the weakest before the stop): the
	 * clear steps of long series spare their sort */
	if (e >= RANK_SKIP && !detect_young_regime(idx, i)) {
		rank = fmin(1.0, rank_p(y, a, idx[i], b, r->ranks) * scale);
		e = fmin(rank, e);
	}
	if (idx[i] - a <= detect_excursion_max(i) ||
	    (b < upto && b - idx[i] <= PDB_DETECT_MAX_EXCURSION))
		return 1.0 + e;
	return e;
}

/*
 * Backward elimination over the candidates cand[0..n) of y: drop the one
 * with the largest detect_evidence_at against its current neighbours (the first
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
void detect_elimination(const double *y, size_t len, const size_t *cand, size_t n,
			const struct detect_rule *r, double *keep)
{
	size_t *idx = pdb_xcalloc(n + 1, sizeof *idx), *id = pdb_xcalloc(n + 1, sizeof *id);
	double *p = pdb_xcalloc(n + 1, sizeof *p), low = INFINITY;
	size_t m = n, end = n > 0 && cand[n - 1] + 1 == len ? len - 1 : len;

	if (n)
		memcpy(idx, cand, n * sizeof *idx);
	for (size_t i = 0; i < n; i++) {
		id[i] = i;
		p[i] = detect_evidence_at(y, len, end, idx, n, i, r);
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
			p[w - 1] = detect_evidence_at(y, len, end, idx, m, w - 1, r);
		if (w < m)
			p[w] = detect_evidence_at(y, len, end, idx, m, w, r);
	}
	free(idx);
	free(id);
	free(p);
}

/* Keep the candidates idx[k] with keep[k] < level, in place; their count. */
size_t detect_accept(size_t *idx, const double *keep, size_t n, double level)
{
	size_t m = 0;

	for (size_t k = 0; k < n; k++)
		if (keep[k] < level)
			idx[m++] = idx[k];
	return m;
}
