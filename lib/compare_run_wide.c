/* A move shared by every benchmark of a run (compare_run_wide.h).
 *
 * On a shared runner the load moves every benchmark of a run at once, CPU
 * time too (caches and memory are shared): on the real histories of
 * docs/gate-noise.md a whole run's CPU time rose 6-20 % and the next run
 * undid it. A test of one series cannot tell that from a change; the
 * run's other benchmarks can. */
#include "compare_run_wide.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_history.h"
#include "compare_verdict.h"
#include "stats.h"
#include "util.h"

/* A row whose change the run's move is read from. */
static int measured(const struct pdb_compare_row *r)
{
	return r->direction != PDB_DIR_NONE && r->median_base > 0 && r->median_cand > 0 &&
	       isfinite(r->change_pct) && isfinite(r->ci_low_pct) && isfinite(r->ci_high_pct) &&
	       (r->verdict == PDB_VERDICT_REGRESSION || r->verdict == PDB_VERDICT_IMPROVEMENT ||
		r->verdict == PDB_VERDICT_UNCHANGED || r->verdict == PDB_VERDICT_INCONCLUSIVE);
}

struct run_pos {
	int64_t id;
	size_t pos;
};

static int cmp_run_pos(const void *a, const void *b)
{
	int64_t x = ((const struct run_pos *)a)->id, y = ((const struct run_pos *)b)->id;
	return x < y ? -1 : x > y;
}

/* The run-wide moves of the history: for each two successive runs of the
 * longest history among the rows' series (the newest
 * PDB_COMPARE_HISTORY_RUNS, cand_id left out), the median of the log
 * changes of the series that have both, when PDB_RUN_WIDE_MIN_SERIES or
 * more do. Fills chg (signed, oldest first, room for
 * PDB_COMPARE_HISTORY_RUNS) and returns how many. */
static size_t history_moves(const struct pdb_compare_history **h, size_t m, int64_t cand_id,
			    double *chg)
{
	const struct pdb_compare_history *ref = NULL;
	struct run_pos order[PDB_COMPARE_HISTORY_RUNS];
	double *loc, *d;
	size_t k = 0, nchg = 0;

	for (size_t s = 0; s < m; s++)
		if (h[s] && (!ref || h[s]->n > ref->n))
			ref = h[s];
	if (!ref)
		return 0;
	for (size_t i = ref->n; i-- > 0 && k < PDB_COMPARE_HISTORY_RUNS;)
		if (ref->pts[i].run_id != cand_id)
			order[k++] = (struct run_pos){ ref->pts[i].run_id, 0 };
	for (size_t j = 0; j < k; j++) /* oldest first */
		order[j].pos = k - 1 - j;
	qsort(order, k, sizeof *order, cmp_run_pos);
	loc = pdb_xmalloc((m * k > 0 ? m * k : 1) * sizeof *loc);
	d = pdb_xmalloc((m ? m : 1) * sizeof *d);
	for (size_t i = 0; i < m * k; i++)
		loc[i] = NAN;
	for (size_t s = 0; s < m; s++)
		for (size_t i = 0; h[s] && i < h[s]->n; i++) {
			const struct pdb_run_value *p = &h[s]->pts[i];
			struct run_pos key = { p->run_id, 0 }, *hit;
			if (p->value > 0 && isfinite(p->value) &&
			    (hit = bsearch(&key, order, k, sizeof *order, cmp_run_pos)) != NULL)
				loc[s * k + hit->pos] = log(p->value);
		}
	for (size_t j = 1; j < k; j++) {
		size_t nd = 0;
		for (size_t s = 0; s < m; s++) {
			double x = loc[s * k + j] - loc[s * k + j - 1];
			if (isfinite(x))
				d[nd++] = x;
		}
		if (nd >= PDB_RUN_WIDE_MIN_SERIES)
			chg[nchg++] = pdb_stats_median(d, nd);
	}
	free(loc);
	free(d);
	return nchg;
}

/* Whether move i of mv[0..n) belongs to a burst: the run it moved to was
 * left again, the next move (or the one before, into it) undoing at least
 * half of it. A step is not a burst: the level stays. */
static int burst_edge(const double *mv, size_t n, size_t i)
{
	for (size_t j = i > 0 ? i - 1 : 0; j <= i && j + 1 < n; j++)
		if (mv[j] * mv[j + 1] < 0 &&
		    fabs(mv[j] + mv[j + 1]) <= fmax(fabs(mv[j]), fabs(mv[j + 1])) / 2)
			return 1;
	return 0;
}

/* Whether the run's move g is itself significant at alpha, and how it
 * compares with the noise it was read against (*why, malloc'ed: "inside
 * ...", or "more than ..." when it is real). The move is taken as real
 * when no noise is known (*why NULL). */
static int move_is_real(double g, const struct pdb_compare_row *const *rows, size_t m,
			const struct pdb_compare_history **h, int64_t cand_id, double alpha,
			char **why)
{
	double mv[PDB_COMPARE_HISTORY_RUNS], chg[PDB_COMPARE_HISTORY_RUNS];
	double noise[PDB_COMPARE_HISTORY_RUNS];
	char said[48];
	size_t nchg = history_moves(h, m, cand_id, mv), nn = 0;

	*why = NULL;
	if (nchg + 1 >= PDB_COMPARE_HISTORY_MIN_RUNS) {
		double tau, df = fmax(1, PDB_COMPARE_SCALE_DF_PER_CHANGE * (double)nchg);
		double tail = 0;
		size_t bursts = 0;
		for (size_t i = 0; i < nchg; i++)
			chg[i] = fabs(mv[i]);
		tau = pdb_compare_change_scale(chg, nchg); /* sorts chg */
		if (!(tau > 0))
			return 1;
		/* the scale leaves the history's bursts out; how often the whole
		 * run went off and came back as far says how common they are: the
		 * chance of a move this large among the history's moves, each
		 * blurred by the scale (a kernel estimate), where a move that
		 * stayed (a step: the code changed) counts as no more than twice
		 * the scale */
		for (size_t i = 0; i < nchg; i++) {
			int burst = burst_edge(mv, nchg, i);
			double c = burst ? fabs(mv[i]) : fmin(fabs(mv[i]), 2 * tau);
			bursts += burst && fabs(mv[i]) >= fabs(g) / 2;
			tail += pdb_stats_norm_sf((fabs(g) - c) / tau) +
				pdb_stats_norm_sf((fabs(g) + c) / tau);
		}
		if (2 * pdb_stats_t_sf(fabs(g) / tau, df) > alpha) {
			pdb_pct_words(pdb_stats_pct_of_log(tau / M_SQRT2), NAN, 0, said, sizeof said);
			*why = pdb_xasprintf("inside the run-wide noise of its last runs (±%s a run)", said);
			return 0;
		}
		if (tail / (double)nchg > alpha) {
			pdb_pct_change(pdb_stats_pct_of_log(fabs(g) / 2), said, sizeof said);
			*why = pdb_xasprintf("as large as the whole run's bursts in its last runs "
					     "(%zu of %zu moves off and back, of %s or more)", bursts, nchg, said);
			return 0;
		}
		pdb_pct_words(pdb_stats_pct_of_log(tau / M_SQRT2), NAN, 0, said, sizeof said);
		*why = pdb_xasprintf("more than the run-wide noise and bursts of its last runs (±%s a run)",
				     said);
		return 1;
	}
	for (size_t s = 0; s < m && nn < PDB_COMPARE_HISTORY_RUNS; s++)
		if (rows[s]->run_noise_pct > 0)
			noise[nn++] = log1p(rows[s]->run_noise_pct / 100);
	if (nn == 0)
		return 1;
	{
		double tau = pdb_stats_median(noise, nn);
		int real = 2 * pdb_stats_norm_sf(fabs(g) / (M_SQRT2 * tau)) <= alpha;
		pdb_pct_words(pdb_stats_pct_of_log(tau), NAN, 0, said, sizeof said);
		*why = pdb_xasprintf("%s the run-wide noise assumed until history (±%s a run; "
				     "compare: run_noise: in perfdb.yaml sets it for a noisier "
				     "runner)", real ? "more than" : "inside", said);
		return real;
	}
}

/* The row's verdict net of the run's move g: its interval shifted by g,
 * which decides alone (a p-value of the shifted estimate would need the
 * test's own distribution: a history test's is Student's t at few
 * degrees of freedom, its interval at 1 - alpha already has it). */
static int net_verdict(const struct pdb_compare_row *r, double g, double alpha)
{
	struct pdb_compare_row net = *r;
	double d = log1p(r->change_pct / 100);
	int v;

	net.reason = NULL;
	net.change_pct = pdb_stats_pct_of_log(d - g);
	net.ci_low_pct = pdb_stats_pct_of_log(log1p(r->ci_low_pct / 100) - g);
	net.ci_high_pct = pdb_stats_pct_of_log(log1p(r->ci_high_pct / 100) - g);
	net.p_value = NAN;
	v = pdb_compare_verdict(&net, alpha, NULL);
	free(net.reason);
	return v;
}

/* The run's move g was real (why: against what): a regression or an
 * improvement that stands only with it says so, since nothing else in
 * the row shows that the whole run moved. */
static void say_real_move(struct pdb_compare_row **rows, size_t m, double g, const char *why,
			  double alpha)
{
	for (size_t s = 0; why && s < m; s++) {
		struct pdb_compare_row *r = rows[s];
		int v = r->verdict;
		if ((v != PDB_VERDICT_REGRESSION && v != PDB_VERDICT_IMPROVEMENT) || r->reason ||
		    net_verdict(r, g, alpha) == v)
			continue;
		char moved[48], net[48];
		pdb_pct_change(pdb_stats_pct_of_log(g), moved, sizeof moved);
		pdb_pct_change(pdb_stats_pct_of_log(log1p(r->change_pct / 100) - g), net, sizeof net);
		r->reason = pdb_xasprintf(
			"the whole run moved: its %zu %s rows moved %s (their median), %s, so "
			"it counts as a change of the build, not the load; this row moved %s "
			"beside them", m, r->metric, moved, why, net);
	}
}

static void check_metric(struct pdb_compare_row **rows, size_t m,
			 const struct pdb_compare_input *in, int64_t cand_id, double alpha)
{
	const struct pdb_compare_history **h = pdb_xmalloc(m * sizeof *h);
	double *d = pdb_xmalloc(m * sizeof *d), g;
	char *why = NULL, moved[48], net[48];

	for (size_t s = 0; s < m; s++) {
		char *key = pdb_compare_key(rows[s]->benchmark, rows[s]->dims_json, rows[s]->metric);
		h[s] = pdb_compare_history_find(in, key);
		free(key);
		d[s] = log1p(rows[s]->change_pct / 100);
	}
	g = pdb_stats_median(d, m); /* reorders d: the rows' own changes are read again below */
	if (move_is_real(g, (const struct pdb_compare_row *const *)rows, m, h, cand_id, alpha,
			 &why)) {
		say_real_move(rows, m, g, why, alpha);
		goto out;
	}
	for (size_t s = 0; s < m; s++) {
		struct pdb_compare_row *r = rows[s];
		int v = r->verdict;
		r->run_wide_pct = pdb_stats_pct_of_log(g);
		if ((v != PDB_VERDICT_REGRESSION && v != PDB_VERDICT_IMPROVEMENT) ||
		    net_verdict(r, g, alpha) == v)
			continue;
		r->verdict = PDB_VERDICT_INCONCLUSIVE;
		free(r->reason);
		pdb_pct_change(pdb_stats_pct_of_log(g), moved, sizeof moved);
		pdb_pct_change(pdb_stats_pct_of_log(log1p(r->change_pct / 100) - g), net, sizeof net);
		r->reason = pdb_xasprintf("it moved with the whole run: the %zu %s rows moved %s (their "
					  "median), %s; net of that %s", m, r->metric, moved, why, net);
	}
out:
	free(why);
	free(h);
	free(d);
}

static int cmp_metric(const void *pa, const void *pb)
{
	const struct pdb_compare_row *a = *(const struct pdb_compare_row *const *)pa;
	const struct pdb_compare_row *b = *(const struct pdb_compare_row *const *)pb;
	return strcmp(a->metric, b->metric);
}

void pdb_compare_check_run_wide(struct pdb_compare_row *rows, size_t n,
				const struct pdb_compare_input *in, int64_t cand_id, double alpha,
				int paired)
{
	struct pdb_compare_row **sel;
	size_t nsel = 0;

	if (paired)
		return; /* side by side, the load moved both sides alike */
	sel = pdb_xmalloc((n ? n : 1) * sizeof *sel);
	for (size_t i = 0; i < n; i++)
		if (measured(&rows[i]))
			sel[nsel++] = &rows[i];
	qsort(sel, nsel, sizeof *sel, cmp_metric);
	for (size_t i = 0, j; i < nsel; i = j) {
		for (j = i + 1; j < nsel && strcmp(sel[j]->metric, sel[i]->metric) == 0; j++)
			;
		if (j - i >= PDB_RUN_WIDE_MIN_SERIES)
			check_metric(sel + i, j - i, in, cand_id, alpha);
	}
	free(sel);
}
