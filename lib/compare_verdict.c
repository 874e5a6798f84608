/* Compare's verdict rule: a row's verdict from its interval, the gate's
 * counts, the order rows are read in. */
#include "compare_verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_input.h"
#include "model.h"
#include "stats.h"
#include "util.h"

static const char *const verdict_names[PDB_VERDICT_COUNT] = {
	"failed", "regression", "improvement", "unchanged", "inconclusive", "insufficient",
	"new", "missing",
};

const char *pdb_verdict_name(int verdict)
{
	return verdict >= 0 && verdict < PDB_VERDICT_COUNT ? verdict_names[verdict] : "?";
}

int pdb_verdict_parse(const char *name)
{
	for (int v = 0; v < PDB_VERDICT_COUNT; v++)
		if (strcmp(verdict_names[v], name) == 0)
			return v;
	return -1;
}

/* How far a change must go to count at this noise, read off the row's
 * interval in % (half its width in log terms, either way): ", so a change
 * counts from about +77 % or -43 %" into buf; "" when there is none. A
 * reader of "±12 % a run" beside "+74 %, inconclusive" needs it: few runs
 * and the history's bursts widen the interval far past the noise a run. */
static const char *reach_text(const struct pdb_compare_row *row, char *buf, size_t size)
{
	double hw = (log1p(row->ci_high_pct / 100) - log1p(row->ci_low_pct / 100)) / 2;
	double up = pdb_stats_pct_of_log(hw), down = pdb_stats_pct_of_log(-hw);
	char a[32], b[32];

	if (!(hw > 0) || !isfinite(hw))
		return "";
	pdb_pct_words(up, down, 1, a, sizeof a);
	pdb_pct_words(down, up, 1, b, sizeof b);
	snprintf(buf, size, ", so a change counts from about %s or %s", a, b);
	return buf;
}

/* The verdict of a compared series (after any Holm adjustment): from its
 * interval, in percent, or absolute when a value is <= 0 (then against the
 * threshold as a fraction of the larger median). Unchanged means the whole
 * interval is inside the threshold. */
int pdb_compare_verdict(struct pdb_compare_row *row, double alpha, const char *branch)
{
	/* worse-side sign: +1 when larger is worse; none is gated as lower
	 * but never called a regression or an improvement */
	double s = pdb_direction_worse_sign(row->direction);
	int gated = row->direction != PDB_DIR_NONE;
	int percent = !isnan(row->ci_low_pct);
	double lo = percent ? row->ci_low_pct : row->ci_low_abs;
	double hi = percent ? row->ci_high_pct : row->ci_high_abs;
	double est = percent ? row->change_pct : row->change_abs;
	double thr = percent ? row->threshold_pct
		: row->threshold_pct / 100 * fmax(fabs(row->median_base), fabs(row->median_cand));
	double wlo = fmin(s * lo, s * hi), whi = fmax(s * lo, s * hi), w = s * est;
	char reach[128], thr_text[32], noise[32];
	int sig;

	if (isnan(lo) || isnan(hi)) {
		/* no interval: equal single values, or too little to tell */
		if (!row->test && !row->reason && row->change_abs == 0)
			return PDB_VERDICT_UNCHANGED;
		if (!row->reason)
			row->reason = pdb_xstrdup("no interval could be computed from these values");
		return PDB_VERDICT_INSUFFICIENT;
	}
	sig = !isnan(row->p_value) ? row->p_value <= alpha : (wlo > 0 || whi < 0);
	row->warn = gated && percent && !isnan(row->warn_pct) && sig && wlo > 0 &&
		    w >= row->warn_pct && w < thr;
	if (gated && sig && wlo > 0 && w >= thr)
		return PDB_VERDICT_REGRESSION;
	if (gated && sig && whi < 0 && -w >= thr)
		return PDB_VERDICT_IMPROVEMENT;
	if (wlo >= -thr && whi <= thr)
		return PDB_VERDICT_UNCHANGED;
	pdb_pct_words(row->threshold_pct, NAN, 0, thr_text, sizeof thr_text);
	if (!gated)
		row->reason = pdb_xasprintf("no direction, not gated: the interval reaches past ±%s", thr_text);
	else if (sig)
		row->reason = pdb_xasprintf("significant, but the interval straddles the %s threshold", thr_text);
	else if (!isnan(row->run_noise_pct)) {
		pdb_pct_words(row->run_noise_pct, NAN, 0, noise, sizeof noise);
		row->reason = pdb_xasprintf("inside the run-to-run noise assumed until %d runs of "
					    "history%s%s (±%s a run%s): history would tell",
					    PDB_COMPARE_HISTORY_MIN_RUNS, branch ? " on " : "",
					    branch ? branch : "", noise, reach_text(row, reach, sizeof reach));
	} else if (row->n_history) {
		pdb_pct_words(row->history_spread_pct, NAN, 0, noise, sizeof noise);
		row->reason = pdb_xasprintf("not significant against the run-to-run noise of its "
					    "last %zu runs%s%s (±%s a run%s): more runs would tell",
					    row->n_history, branch ? " on " : "", branch ? branch : "", noise,
					    reach_text(row, reach, sizeof reach));
	} else
		row->reason = pdb_xasprintf("the interval is wider than ±%s: more values would tell",
					    thr_text);
	return PDB_VERDICT_INCONCLUSIVE;
}

/* Rows in the order a reviewer reads them: what fails first, then what is
 * gone, then what cannot be told, then the rest. */
static int verdict_rank(int v)
{
	static const int rank[PDB_VERDICT_COUNT] = {
		[PDB_VERDICT_FAILED] = 0, [PDB_VERDICT_REGRESSION] = 1,
		[PDB_VERDICT_MISSING] = 2, [PDB_VERDICT_INCONCLUSIVE] = 3,
		[PDB_VERDICT_INSUFFICIENT] = 4, [PDB_VERDICT_NEW] = 5,
		[PDB_VERDICT_IMPROVEMENT] = 6, [PDB_VERDICT_UNCHANGED] = 7,
	};
	return rank[v];
}

/* How much worse, for ordering: the change on the worse side, NaN last. */
static double worseness(const struct pdb_compare_row *r)
{
	double s = pdb_direction_worse_sign(r->direction);
	double v = isnan(r->change_pct) ? r->change_abs : r->change_pct;
	return isnan(v) ? -INFINITY : s * v;
}

int pdb_compare_row_order(const void *pa, const void *pb)
{
	const struct pdb_compare_row *a = pa, *b = pb;
	double wa = worseness(a), wb = worseness(b);
	int d;

	if (a->hidden != b->hidden) /* hidden rows last, whatever their verdict */
		return (a->hidden != PDB_SHOWN) - (b->hidden != PDB_SHOWN);
	if (verdict_rank(a->verdict) != verdict_rank(b->verdict))
		return verdict_rank(a->verdict) - verdict_rank(b->verdict);
	/* a metric with no direction is never worse: a total that grows with
	 * the run's length (fio's io_bytes) after every gated row of its verdict */
	if ((a->direction == PDB_DIR_NONE) != (b->direction == PDB_DIR_NONE))
		return (a->direction == PDB_DIR_NONE) - (b->direction == PDB_DIR_NONE);
	if (wa != wb)
		return wa > wb ? -1 : 1;
	if ((d = strcmp(a->benchmark, b->benchmark)) != 0)
		return d;
	if ((d = strcmp(a->dims_json, b->dims_json)) != 0)
		return d;
	return strcmp(a->metric, b->metric);
}

/* Whether a row enters the gate's counts, which the headline prints: every
 * row the table shows of a gated metric or of one without a direction; of
 * a resource, only what failed (what moved is counted apart,
 * pdb_compare_row_reported). A hidden row (the same both sides,
 * bookkeeping, a resource that did not move) is counted as hidden. */
double pdb_compare_median_change_pct(const struct pdb_compare_row *r)
{
	return r->median_base > 0 && r->median_cand > 0 ? 100 * (r->median_cand / r->median_base - 1)
							 : NAN;
}

int pdb_compare_row_counted(const struct pdb_compare_row *r)
{
	return r->hidden == PDB_SHOWN &&
	       (r->gated || r->direction == PDB_DIR_NONE || r->verdict == PDB_VERDICT_FAILED);
}

int pdb_compare_row_fails(const struct pdb_compare_row *row, unsigned fail_on)
{
	if (!(fail_on & (1u << row->verdict)))
		return 0;
	/* a row of a failure has no metric, so no direction */
	return row->verdict == PDB_VERDICT_FAILED || row->failed_in_base ||
	       (row->direction != PDB_DIR_NONE && row->gated);
}

int pdb_compare_row_reported(const struct pdb_compare_row *r)
{
	return !r->gated && r->direction != PDB_DIR_NONE &&
	       (r->verdict == PDB_VERDICT_REGRESSION || r->verdict == PDB_VERDICT_IMPROVEMENT);
}

int pdb_compare_failed(const struct pdb_compare *cmp, unsigned fail_on)
{
	for (size_t i = 0; i < cmp->nrows; i++)
		if (pdb_compare_row_fails(&cmp->rows[i], fail_on))
			return 1;
	/* the candidate's runs only: a baseline that ended failed is what a
	 * recovery is compared with (it is warned about) */
	if (fail_on & (1u << PDB_VERDICT_FAILED))
		for (size_t i = 0; i < cmp->ncand; i++)
			if (strcmp(cmp->cand[i].status, "complete") != 0)
				return 1;
	return 0;
}

size_t pdb_compare_in_common(const struct pdb_compare *cmp)
{
	size_t n = 0;

	for (size_t i = 0; i < cmp->nrows; i++)
		n += (cmp->rows[i].n_base > 0 || cmp->rows[i].failed_in_base) &&
		     (cmp->rows[i].n_cand > 0 || cmp->rows[i].verdict == PDB_VERDICT_FAILED);
	return n;
}
