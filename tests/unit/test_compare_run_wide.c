/* A move shared by every benchmark of a run (lib/compare_run_wide.c), as
 * a pure function of rows and histories: no store. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare_input.h"
#include "compare_run_wide.h"
#include "compare_verdict.h"

#define N(a) (sizeof (a) / sizeof (a)[0])
#define MAXROWS 4
#define HIST 20

/* A CPU-time row of benchmark bNAME that moved by change (%), with the
 * interval a row tested at alpha 0.01 gets from a log SE of 0.05, its
 * verdict set as compare sets it, and run_noise_pct the noise assumed
 * before a history exists (NaN: none). */
static struct pdb_compare_row row_of(int i, double change, double run_noise_pct)
{
	struct pdb_compare_row r;
	char name[24];
	double d = log1p(change / 100), q = 2.5758 * 0.05;

	memset(&r, 0, sizeof r);
	snprintf(name, sizeof name, "b%d", i);
	r.benchmark = strdup(name);
	r.dims_json = strdup("{}");
	r.metric = strdup("cpu_time");
	r.direction = PDB_DIR_LOWER;
	r.threshold_pct = 3;
	r.warn_pct = r.history_spread_pct = r.change_abs = NAN;
	r.median_base = 1;
	r.median_cand = exp(d);
	r.change_pct = change;
	r.ci_low_pct = 100 * expm1(d - q);
	r.ci_high_pct = 100 * expm1(d + q);
	r.p_value = d == 0 ? 1 : 2 * (1 - 0.5 * erfc(-fabs(d) / 0.05 / M_SQRT2));
	r.run_noise_pct = run_noise_pct;
	r.run_wide_pct = NAN;
	r.verdict = pdb_compare_verdict(&r, 0.01, NULL);
	return r;
}

static void rows_free(struct pdb_compare_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].benchmark);
		free(rows[i].dims_json);
		free(rows[i].metric);
		free(rows[i].reason);
	}
}

static int cmp_history(const void *a, const void *b)
{
	return strcmp(((const struct pdb_compare_history *)a)->key,
		      ((const struct pdb_compare_history *)b)->key);
}

/* Histories of HIST runs (ids 1..HIST) for rows b0..b(n-1): every series
 * moves by the run's shared log move moves[r] (a run-wide walk: run r is
 * the sum of the moves before it) plus its own +-own alternating. */
static void histories_of(struct pdb_compare_input *in, size_t n, const double *moves,
			 double own)
{
	in->history = calloc(n, sizeof *in->history);
	in->nhistory = n;
	for (size_t s = 0; s < n; s++) {
		struct pdb_compare_history *h = &in->history[s];
		char name[24];
		double level = 0;
		snprintf(name, sizeof name, "b%zu", s);
		h->key = pdb_compare_key(name, "{}", "cpu_time");
		h->pts = calloc(HIST, sizeof *h->pts);
		h->n = HIST;
		for (size_t r = 0; r < HIST; r++) {
			level += r ? moves[r] : 0;
			h->pts[r].run_id = (int64_t)r + 1;
			h->pts[r].n = 1;
			h->pts[r].value = exp(level + ((r + s) % 2 ? own : -own));
			h->pts[r].q1 = h->pts[r].q3 = h->pts[r].value;
		}
	}
	qsort(in->history, n, sizeof *in->history, cmp_history);
}

static void test_without_history(void **state)
{
	/* rows' changes (%), the verdicts expected after the check */
	static const struct {
		const char *what;
		size_t n;
		double change[MAXROWS], noise;
		int paired;
		int want[MAXROWS];
		double run_wide; /* NaN: not read, or a real change */
	} cases[] = {
		{ "the whole run +20 % against 7 % a run: the load", 3, { 20, 22, 18 }, 7, 0,
		  { PDB_VERDICT_INCONCLUSIVE, PDB_VERDICT_INCONCLUSIVE, PDB_VERDICT_INCONCLUSIVE }, 20 },
		{ "one of them twice the work: it stands out of the run", 3, { 100, 2, 1 }, 7, 0,
		  { PDB_VERDICT_REGRESSION, PDB_VERDICT_INCONCLUSIVE, PDB_VERDICT_INCONCLUSIVE }, 2 },
		{ "one 2x among a run that moved +20 %: still a regression", 4, { 140, 20, 22, 18 }, 7, 0,
		  { PDB_VERDICT_REGRESSION, PDB_VERDICT_INCONCLUSIVE, PDB_VERDICT_INCONCLUSIVE,
		    PDB_VERDICT_INCONCLUSIVE }, 21 },
		{ "all twice the work: more than a run's noise, all regressions", 3, { 100, 95, 105 }, 7, 0,
		  { PDB_VERDICT_REGRESSION, PDB_VERDICT_REGRESSION, PDB_VERDICT_REGRESSION }, NAN },
		{ "two rows: a median of two is not robust, untouched", 2, { 20, 22 }, 7, 0,
		  { PDB_VERDICT_REGRESSION, PDB_VERDICT_REGRESSION }, NAN },
		{ "no noise known (none assumed, no history): untouched", 3, { 20, 22, 18 }, NAN, 0,
		  { PDB_VERDICT_REGRESSION, PDB_VERDICT_REGRESSION, PDB_VERDICT_REGRESSION }, NAN },
		{ "an A/B pair ran side by side: untouched", 3, { 20, 22, 18 }, 7, 1,
		  { PDB_VERDICT_REGRESSION, PDB_VERDICT_REGRESSION, PDB_VERDICT_REGRESSION }, NAN },
		{ "improvements alike", 3, { -20, -18, -22 }, 7, 0,
		  { PDB_VERDICT_INCONCLUSIVE, PDB_VERDICT_INCONCLUSIVE, PDB_VERDICT_INCONCLUSIVE }, -20 },
	};
	struct pdb_compare_input in = { 0 };

	(void)state;
	for (size_t c = 0; c < N(cases); c++) {
		struct pdb_compare_row rows[MAXROWS];
		int raw[MAXROWS];
		for (size_t i = 0; i < cases[c].n; i++) {
			rows[i] = row_of((int)i, cases[c].change[i], cases[c].noise);
			raw[i] = rows[i].verdict;
		}
		pdb_compare_check_run_wide(rows, cases[c].n, &in, -1, 0.01, cases[c].paired);
		for (size_t i = 0; i < cases[c].n; i++) {
			if (rows[i].verdict != cases[c].want[i])
				fail_msg("%s: row %zu is %s, not %s", cases[c].what, i,
					 pdb_verdict_name(rows[i].verdict),
					 pdb_verdict_name(cases[c].want[i]));
			if (isnan(cases[c].run_wide) != isnan(rows[i].run_wide_pct) ||
			    fabs(rows[i].run_wide_pct - cases[c].run_wide) > 1)
				fail_msg("%s: run_wide_pct %g, not %g", cases[c].what,
					 rows[i].run_wide_pct, cases[c].run_wide);
			if (rows[i].verdict != raw[i] &&
			    (!rows[i].reason || !strstr(rows[i].reason, "moved with the whole run")))
				fail_msg("%s: row %zu says %s", cases[c].what, i,
					 rows[i].reason ? rows[i].reason : "nothing");
		}
		rows_free(rows, cases[c].n);
	}
}

static void input_free(struct pdb_compare_input *in)
{
	for (size_t i = 0; i < in->nhistory; i++) {
		free(in->history[i].key);
		free(in->history[i].pts);
	}
	free(in->history);
	memset(in, 0, sizeof *in);
}

static void test_with_history(void **state)
{
	double quiet[HIST], bursty[HIST], stepped[HIST];
	const struct {
		const char *what;
		const double *moves;  /* the whole run's move, run by run */
		double change;        /* row i moved change + i % */
		int want;
		const char *says;     /* in each row's reason, or NULL */
	} cases[] = {
		{ "a whole run +25 % where the run never moved so: a real change",
		  quiet, 25, PDB_VERDICT_REGRESSION, NULL },
		{ "the same move where the history holds such bursts: the load",
		  bursty, 25, PDB_VERDICT_INCONCLUSIVE, "bursts in its last runs" },
		{ "there too, twice the work on all is beyond any burst",
		  bursty, 100, PDB_VERDICT_REGRESSION, NULL },
		/* a step stays: a change to the code, not a burst */
		{ "a history whose whole run stepped once +25 %: a +25 % move is real",
		  stepped, 25, PDB_VERDICT_REGRESSION, NULL },
	};

	(void)state;
	/* quiet: the whole run moved +-1 % a run; bursty: every sixth run
	 * +25 % and back, +-1 % between; stepped: quiet but +25 % at run 10 */
	for (size_t r = 0; r < HIST; r++) {
		quiet[r] = r % 2 ? 0.01 : -0.01;
		bursty[r] = r % 6 == 1 ? log(1.25) : r % 6 == 2 ? -log(1.25) : quiet[r];
		stepped[r] = r == 10 ? log(1.25) : quiet[r];
	}
	for (size_t c = 0; c < N(cases); c++) {
		struct pdb_compare_input in = { 0 };
		struct pdb_compare_row rows[3];
		histories_of(&in, 3, cases[c].moves, 0.01);
		for (int i = 0; i < 3; i++)
			rows[i] = row_of(i, cases[c].change + i, NAN);
		pdb_compare_check_run_wide(rows, 3, &in, -1, 0.01, 0);
		for (int i = 0; i < 3; i++) {
			if (rows[i].verdict != cases[c].want)
				fail_msg("%s: row %d is %s", cases[c].what, i,
					 pdb_verdict_name(rows[i].verdict));
			if (cases[c].says && (!rows[i].reason || !strstr(rows[i].reason, cases[c].says)))
				fail_msg("%s: row %d says %s", cases[c].what, i,
					 rows[i].reason ? rows[i].reason : "nothing");
		}
		rows_free(rows, 3);
		input_free(&in);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_without_history),
		cmocka_unit_test(test_with_history),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
