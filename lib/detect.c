/* Change points, the detector (Otava's shape): one-run spikes set apart,
 * then the passes that take the candidates of the calculator
 * (lib/detect_split.c) through the significance tests (Hunter's merge,
 * lib/detect_significance.c; outside Otava's mode the acceptance by the runs'
 * ranks nested in P, lib/detect_accept.c), the excursions they bound set
 * apart, and the change points filled in. */
#include "detect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect_accept.h"
#include "detect_significance.h"
#include "detect_split.h"
#include "metric_role.h"
#include "units.h"
#include "stats.h"
#include "util.h"

/* Spikes: context points before (and for the noise, after), points after
 * that must agree, and how far off a spike is (robust sigmas). */
#define SPIKE_CONTEXT PDB_DETECT_SPIKE_CONTEXT
#define SPIKE_NEXT 3
#define SPIKE_SIGMAS 8.0
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
			      const struct detect_sides *st, size_t m, double zcrit,
			      const struct pdb_detect_opts *o,
			      struct pdb_change_point *cp)
{
	int worse;
	double mag = detect_magnitude(st);

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
		if (weak[k] + 1 < len && weak[k] - a <= detect_excursion_max(k)) {
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
		       struct detect_sides *stats, size_t *nfinal, struct detect_rule *r)
{
	detect_split(y, ny, o->window, first_pass_pvalue(o->pvalue), 0, st, weak, nweak);
	st->checksum = pdb_detect_checksum(y, st->covered);
	*nfinal = *nweak;
	detect_merge_with_stats(y, ny, *weak, nfinal, stats, r);
}

/*
 * The excursions of y (the weak change points weak[0..nweak)): the runs
 * of a short regime between the change points that the merge keeps at
 * STRUCTURE_P (the t-test, the effect and the z of detect_stats_at, as a
 * short regime far off is plain to them while its ranks are but two or
 * three runs), refined, are flagged. Returns 1 when any were.
 */
static int flag_structure(const double *y, size_t ny, const size_t *orig,
			  const size_t *weak, size_t nweak, const struct detect_rule *base,
			  char *flag)
{
	size_t *s = pdb_xcalloc(nweak + 1, sizeof *s), n = nweak;
	struct detect_sides *st = pdb_xcalloc(nweak + 1, sizeof *st);
	struct detect_rule r = *base;
	int again;

	if (nweak)
		memcpy(s, weak, nweak * sizeof *s);
	r.pvalue = STRUCTURE_P;
	r.zmin = pdb_detect_z_threshold(STRUCTURE_P, ny > 1 ? ny - 1 : 1);
	detect_merge_with_stats(y, ny, s, &n, st, &r);
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
 * DETECT_MIN_EFFECT noise sd or less, or by M or less, go (the weakest first);
 * the rest are refined and ordered by the elimination, and P accepts out
 * of that order.
 */
static int report_pass(const double *y, size_t ny, const size_t *orig,
		       const struct pdb_detect_opts *o, struct pdb_detect_state *st,
		       size_t **weak, size_t *nweak, struct detect_sides *stats,
		       size_t *nfinal, struct detect_rule *r, size_t *end, char *flag)
{
	double *keep;
	int again;

	detect_split(y, ny, o->window, SPLIT_P, 1, st, weak, nweak);
	st->checksum = pdb_detect_checksum(y, st->covered);
	again = flag_structure(y, ny, orig, *weak, *nweak, r, flag);
	*nfinal = *nweak;
	r->pvalue = INFINITY;
	detect_merge_with_stats(y, ny, *weak, nfinal, stats, r);
	refine(y, ny, *weak, *nfinal);
	keep = pdb_xcalloc(*nfinal + 1, sizeof *keep);
	detect_elimination(y, ny, *weak, *nfinal, r, keep);
	*end = *nfinal > 0 && (*weak)[*nfinal - 1] + 1 == ny ? ny - 1 : ny;
	*nfinal = detect_accept(*weak, keep, *nfinal, o->pvalue);
	free(keep);
	return again;
}

/* One pass over y[0..ny) (x without the flagged points, orig their
 * positions in x); the change points go to weak[0..*nfinal) with their
 * stats, each against its final neighbours (in PDB_OUTLIERS_REPORT mode
 * its p the acceptance's, detect_evidence_at). r (its buf set) gets the rule of the
 * merge. Returns 1 when runs of an excursion were flagged, for another
 * pass. */
static int detect_pass(const double *y, size_t ny, const size_t *orig,
		       const struct pdb_detect_opts *o, struct pdb_detect_state *st,
		       size_t **weak, size_t *nweak, struct detect_sides **stats,
		       size_t *nfinal, struct detect_rule *r, double *zcrit, char *flag)
{
	int otava = o->outliers == PDB_OUTLIERS_KEEP, again = 0;
	struct detect_ranks ranks;
	size_t end = ny;

	/* P is also the chance of a false change point in the whole series */
	*zcrit = pdb_detect_z_threshold(o->pvalue, ny > 1 ? ny - 1 : 1);
	r->pvalue = o->pvalue;
	r->magnitude = o->magnitude;
	r->resolution = o->resolution;
	r->run_noise = o->run_noise;
	r->effect = otava ? 0 : DETECT_MIN_EFFECT;
	r->zmin = 0;
	r->otava = otava;
	detect_series_noise(y, ny, r);
	detect_ranks_init(&ranks, y, ny);
	r->ranks = &ranks;
	r->stretches = pdb_xcalloc(ny + 1, sizeof *r->stretches);
	*stats = pdb_xcalloc(ny + 1, sizeof **stats);
	if (otava)
		otava_pass(y, ny, o, st, weak, nweak, *stats, nfinal, r);
	else
		again = report_pass(y, ny, orig, o, st, weak, nweak, *stats, nfinal, r,
				    &end, flag);
	for (size_t k = 0; k < *nfinal; k++) {
		detect_stats_at(y, ny, *weak, *nfinal, k, r, &(*stats)[k]);
		if (!otava)
			(*stats)[k].p = detect_evidence_at(y, ny, end, *weak, *nfinal, k, r);
	}
	r->ranks = NULL;
	detect_ranks_free(&ranks);
	free(r->stretches);
	r->stretches = NULL;
	return again;
}

int pdb_detect(const double *x, size_t n, const struct pdb_detect_opts *o,
	       const struct pdb_detect_state *resume, struct pdb_detect_state *next,
	       struct pdb_detect_result *res, struct pdb_err *err)
{
	struct pdb_detect_state st = { 0 }, later = { 0 };
	double *y = NULL, *buf = NULL;
	size_t *orig = NULL, *weak = NULL, ny, nweak = 0, nfinal = 0, ocap = 0;
	struct detect_sides *stats = NULL;
	struct detect_rule rule = { 0 };
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
