/* The rules as pure functions, table-driven, without a store: the verdict
 * (lib/compare_verdict.c), the history test (lib/compare_test_history.c), the
 * branch and baseline rules (lib/branches.c), retention (lib/retention.c)
 * and a configuration's rules (lib/compare_config.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "branches.h"
#include "compare_config.h"
#include "compare_history.h"
#include "compare_verdict.h"
#include "retention.h"

#define N(a) (sizeof (a) / sizeof (a)[0])

/* A row as compare leaves it before its verdict: nothing measured. */
static struct pdb_compare_row row_of(int direction, double thr)
{
	struct pdb_compare_row r;

	memset(&r, 0, sizeof r);
	r.direction = direction;
	r.threshold_pct = thr;
	r.change_pct = r.ci_low_pct = r.ci_high_pct = NAN;
	r.change_abs = r.ci_low_abs = r.ci_high_abs = NAN;
	r.p_value = r.warn_pct = r.history_spread_pct = r.run_noise_pct = NAN;
	r.median_base = r.median_cand = 1;
	return r;
}

static void test_verdict(void **state)
{
	static const struct {
		int direction;
		double change, lo, hi, p, warn;
		int verdict, warned;
	} cases[] = {
		/* a time 10 % slower, the whole interval past +5 %, significant */
		{ PDB_DIR_LOWER, 10, 7, 13, 0.001, NAN, PDB_VERDICT_REGRESSION, 0 },
		/* the same for a throughput is an improvement */
		{ PDB_DIR_HIGHER, 10, 7, 13, 0.001, NAN, PDB_VERDICT_IMPROVEMENT, 0 },
		{ PDB_DIR_LOWER, -10, -13, -7, 0.001, NAN, PDB_VERDICT_IMPROVEMENT, 0 },
		/* significant but the estimate below the threshold: inconclusive */
		{ PDB_DIR_LOWER, 4, 2, 6, 0.001, NAN, PDB_VERDICT_INCONCLUSIVE, 0 },
		/* ... and worse than the warn level: a warning, not a regression */
		{ PDB_DIR_LOWER, 4, 2, 4.9, 0.001, 3, PDB_VERDICT_UNCHANGED, 1 },
		/* the whole interval inside ±5 %: unchanged */
		{ PDB_DIR_LOWER, 1, -2, 4, 0.4, NAN, PDB_VERDICT_UNCHANGED, 0 },
		{ PDB_DIR_LOWER, 0, -5, 5, 1, NAN, PDB_VERDICT_UNCHANGED, 0 },
		/* not significant at alpha, interval past the threshold */
		{ PDB_DIR_LOWER, 10, -1, 21, 0.02, NAN, PDB_VERDICT_INCONCLUSIVE, 0 },
		/* no p-value: the interval alone decides significance */
		{ PDB_DIR_LOWER, 10, 6, 14, NAN, NAN, PDB_VERDICT_REGRESSION, 0 },
		/* no direction: never a regression */
		{ PDB_DIR_NONE, 50, 40, 60, 0.001, NAN, PDB_VERDICT_INCONCLUSIVE, 0 },
		{ PDB_DIR_NONE, 1, -1, 2, 0.5, NAN, PDB_VERDICT_UNCHANGED, 0 },
		/* no interval: insufficient */
		{ PDB_DIR_LOWER, 10, NAN, NAN, NAN, NAN, PDB_VERDICT_INSUFFICIENT, 0 },
	};
	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		struct pdb_compare_row r = row_of(cases[i].direction, 5);
		int v;
		r.change_pct = cases[i].change;
		r.ci_low_pct = cases[i].lo;
		r.ci_high_pct = cases[i].hi;
		r.p_value = cases[i].p;
		r.warn_pct = cases[i].warn;
		r.test = "mann-whitney";
		v = pdb_compare_verdict(&r, 0.01, "main");
		if (v != cases[i].verdict || r.warn != cases[i].warned)
			fail_msg("case %zu: %s (warn %d), want %s (warn %d)", i, pdb_verdict_name(v),
				 r.warn, pdb_verdict_name(cases[i].verdict), cases[i].warned);
		if ((v == PDB_VERDICT_INCONCLUSIVE || v == PDB_VERDICT_INSUFFICIENT) != (r.reason != NULL))
			fail_msg("case %zu: reason %s", i, r.reason ? r.reason : "(none)");
		free(r.reason);
	}
}

static void test_verdict_reasons(void **state)
{
	struct pdb_compare_row r = row_of(PDB_DIR_LOWER, 5);

	(void)state;
	r.change_pct = 10;
	r.ci_low_pct = -1;
	r.ci_high_pct = 21;
	r.p_value = 0.2;
	r.n_history = 7;
	r.history_spread_pct = 2.5;
	assert_int_equal(pdb_compare_verdict(&r, 0.01, "main"), PDB_VERDICT_INCONCLUSIVE);
	assert_string_equal(r.reason, "not significant against the run-to-run noise of its last "
			    "7 runs on main (±2.5 % a run, so a change counts from about "
			    "+10.6 % or -9.5 %): more runs would tell");
	free(r.reason);
}

/* The history test over a branch's values: level 1, a run-to-run spread
 * of about 2 % (alternating), the candidate's median cand. */
static int history_case(size_t nruns, int64_t cand_id, double base, double cand,
			struct pdb_compare_row *r)
{
	struct pdb_run_value pts[40];
	struct pdb_compare_history h = { "b\x1f{}\x1ftime", pts, nruns };
	double b[1] = { base }, a[1] = { cand };

	for (size_t i = 0; i < nruns; i++)
		pts[i] = (struct pdb_run_value){ (int64_t)i + 1, 1, i % 2 ? 1.02 : 0.98, NAN, NAN };
	*r = row_of(PDB_DIR_LOWER, 5);
	r->median_base = base;
	r->median_cand = cand;
	r->n_base = r->n_cand = 1;
	return pdb_compare_test_history(&h, cand_id, 1, 0.01, r, b, a);
}

static void test_history(void **state)
{
	static const struct {
		size_t nruns;
		int64_t cand_id;  /* a run of the history that is the candidate's own */
		double cand;
		int decided;
		size_t n_history;
		int sign;         /* of the interval: +1 above 0, -1 below, 0 across */
	} cases[] = {
		{ 4, -1, 1.2, 0, 0, 0 },   /* fewer than 5 runs: not decided */
		{ 5, -1, 1.2, 1, 5, 0 },   /* +20 % inside 5 runs' wide interval */
		{ 6, 6, 1.2, 1, 5, 0 },    /* the candidate is never its own history */
		{ 5, 5, 1.2, 0, 0, 0 },
		{ 31, -1, 1.2, 1, 30, 1 }, /* the newest 30 only: +20 % stands out */
		{ 10, -1, 1.0, 1, 10, 0 }, /* no change: an interval around 0 */
		{ 30, -1, 0.8, 1, 30, -1 },
	};
	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		struct pdb_compare_row r;
		int d = history_case(cases[i].nruns, cases[i].cand_id, 1.0, cases[i].cand, &r);
		int sign = r.ci_low_pct > 0 ? 1 : r.ci_high_pct < 0 ? -1 : 0;
		if (d != cases[i].decided || r.n_history != cases[i].n_history ||
		    (d && sign != cases[i].sign))
			fail_msg("case %zu: decided %d n_history %zu interval [%g, %g]", i, d,
				 r.n_history, r.ci_low_pct, r.ci_high_pct);
		if (d)
			assert_string_equal(r.test, "history");
	}
	/* no history at all */
	{
		struct pdb_compare_row r = row_of(PDB_DIR_LOWER, 5);
		double v = 1;
		assert_int_equal(pdb_compare_test_history(NULL, -1, 1, 0.01, &r, &v, &v), 0);
	}
}

/* Rows newest first, each "NAME:BRANCH" ("" branch: none). */
struct rows {
	struct pdb_run_row row[8];
	struct pdb_attr attr[8];
	size_t n;
};

static void rows_of(struct rows *rs, const char *const *spec, size_t n)
{
	memset(rs, 0, sizeof *rs);
	rs->n = n;
	for (size_t i = 0; i < n; i++) {
		const char *colon = strchr(spec[i], ':');
		struct pdb_run_row *r = &rs->row[i];
		r->id = (int64_t)(n - i);
		r->seq = (int64_t)(n - i);
		r->name = (char *)spec[i];
		r->created_at = (char *)"2026-01-01T00:00:00Z";
		if (colon[1]) {
			rs->attr[i].key = (char *)"branch";
			rs->attr[i].value = (char *)colon + 1;
			r->attrs = &rs->attr[i];
			r->nattrs = 1;
		}
	}
}

static void test_branch_rule(void **state)
{
	static const struct {
		const char *runs[6];
		size_t n;
		const char *where, *want;
	} cases[] = {
		{ { "a:main", "b:feature", "c:feature", "d:feature" }, 4, NULL, "branch=main" },
		{ { "a:dev", "b:master", "c:dev" }, 3, NULL, "branch=master" },
		{ { "a:x", "b:y", "c:y" }, 3, NULL, "branch=y" },         /* the most runs */
		{ { "a:x", "b:y", "c:y", "d:x" }, 4, NULL, "branch=x" },  /* tie: the newest */
		{ { "a:main", "b:main" }, 2, NULL, NULL },                /* one branch: all */
		{ { "a:", "b:" }, 2, NULL, NULL },
		{ { "a:main", "b:x" }, 2, "shard=1", "shard=1" },         /* --where wins */
	};
	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		struct rows rs;
		char *out = NULL, *note = NULL;
		rows_of(&rs, cases[i].runs, cases[i].n);
		pdb_history_where_of(rs.row, rs.n, 0, cases[i].where, &out, &note, NULL, NULL);
		if (!out != !cases[i].want || (out && strcmp(out, cases[i].want) != 0))
			fail_msg("case %zu: %s, want %s", i, out ? out : "(all)",
				 cases[i].want ? cases[i].want : "(all)");
		free(out);
		free(note);
	}
}

/* The baseline rule over rows oldest first; shares[a][b]: a series in common. */
struct baseline_ctx {
	struct rows rs;
	const char *shares; /* one char a run: runs with equal chars share a series */
};

static const struct pdb_run_row *bl_row(void *ctx, size_t i)
{
	return &((struct baseline_ctx *)ctx)->rs.row[i];
}

static int bl_shares(void *ctx, size_t a, size_t b)
{
	const char *s = ((struct baseline_ctx *)ctx)->shares;
	return s[a] == s[b];
}

static void test_baseline_rule(void **state)
{
	static const struct {
		const char *runs[6]; /* oldest first */
		size_t n;
		const char *shares;
		size_t cand;
		int found;
		size_t base;
	} cases[] = {
		{ { "a:main", "b:main", "c:main" }, 3, "xxx", 2, 1, 1 },  /* the newest before */
		{ { "a:main", "b:feat", "c:main" }, 3, "xxx", 2, 1, 0 },  /* on its branch */
		{ { "a:main", "b:feat" }, 2, "xx", 1, 1, 0 },             /* else any branch */
		{ { "a:main", "b:main", "c:main" }, 3, "xyx", 2, 1, 0 },  /* sharing a series */
		{ { "a:main", "b:main" }, 2, "xy", 1, 0, 0 },             /* none shares */
		{ { "a:main" }, 1, "x", 0, 0, 0 },                        /* the first run */
	};
	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		struct baseline_ctx c;
		struct pdb_baseline_history h = { cases[i].n, bl_row, NULL, bl_shares, &c };
		size_t base = 99;
		int found;
		rows_of(&c.rs, cases[i].runs, cases[i].n);
		c.shares = cases[i].shares;
		found = pdb_baseline_index(&h, cases[i].cand, &base);
		if (found != cases[i].found || (found && base != cases[i].base))
			fail_msg("case %zu: %d base %zu, want %d base %zu", i, found, base,
				 cases[i].found, cases[i].base);
	}
}

static void test_retention(void **state)
{
	static const char *const runs[] = { "a:main", "b:feat", "c:main", "d:feat", "e:main" };
	static const char *const per_branch[] = { "branch" };
	static const struct pdb_attr keep_c = { (char *)"name", (char *)"c:main" };
	static const struct {
		int64_t keep_last;
		int keep_name, per;
		const char *deleted; /* the rows deleted, newest first, as letters */
	} cases[] = {
		{ 2, 0, 0, "cde" },
		/* the newest run is always kept (the one combination of no attribute) */
		{ 0, 0, 0, "bcde" },
		{ -1, 0, 0, "bcde" },
		{ 2, 1, 0, "de" },    /* a kept name */
		{ 1, 0, 1, "cde" },   /* the newest of each branch: a and b */
		{ 0, 0, 1, "cde" },
	};
	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		struct rows rs;
		struct pdb_retention p = { cases[i].keep_last, NULL, cases[i].keep_name ? &keep_c : NULL,
					   cases[i].keep_name ? 1 : 0,
					   cases[i].per ? per_branch : NULL, cases[i].per ? 1 : 0 };
		size_t del[8], n;
		char got[8] = { 0 };
		rows_of(&rs, runs, N(runs));
		n = pdb_retention_select(&p, rs.row, rs.n, del);
		for (size_t k = 0; k < n; k++)
			got[k] = rs.row[del[k]].name[0];
		if (strcmp(got, cases[i].deleted) != 0)
			fail_msg("case %zu: deleted %s, want %s", i, got, cases[i].deleted);
	}
}

static void test_config_rules(void **state)
{
	struct pdb_compare_rule rules[] = {
		{ NULL, (char *)"p99", 10, NAN, 0, 0, 0, -1 },
		{ (char *)"io_*", NULL, NAN, NAN, PDB_DIR_HIGHER, 1, 0, -1 },
		{ (char *)"io_read", (char *)"p99", 20, 15, 0, 0, 0, 0 },
		{ (char *)"flaky*", NULL, NAN, NAN, 0, 0, 1, -1 },
		{ (char *)"slow", (char *)"rss", NAN, NAN, 0, 0, 1, -1 },
	};
	struct pdb_compare_config cfg;
	static const struct {
		const char *bench, *metric;
		double thr, warn;
		int direction, gate, ignored;
	} cases[] = {
		{ "x", "time", 5, NAN, PDB_DIR_LOWER, -1, 0 },           /* no rule */
		{ "x", "p99", 10, NAN, PDB_DIR_LOWER, -1, 0 },
		{ "io_write", "time", 5, NAN, PDB_DIR_HIGHER, -1, 0 },
		{ "io_read", "p99", 20, 15, PDB_DIR_HIGHER, 0, 0 },      /* later rules win */
		{ "flaky_net", "time", 5, NAN, PDB_DIR_LOWER, -1, 1 },
		{ "slow", "rss", 5, NAN, PDB_DIR_LOWER, -1, 1 },
	};
	(void)state;
	pdb_compare_config_init(&cfg);
	cfg.rules = rules;
	cfg.nrules = N(rules);
	for (size_t i = 0; i < N(cases); i++) {
		double thr = 5, warn = NAN;
		int direction = PDB_DIR_LOWER, gate = -1;
		int ignored = pdb_compare_config_apply(&cfg, cases[i].bench, cases[i].metric, &thr,
						       &warn, &direction, &gate);
		if (ignored != cases[i].ignored || (!ignored &&
		    (thr != cases[i].thr || (isnan(warn) != isnan(cases[i].warn)) ||
		     (!isnan(warn) && warn != cases[i].warn) || direction != cases[i].direction ||
		     gate != cases[i].gate)))
			fail_msg("case %zu: ignored %d thr %g warn %g direction %d gate %d", i,
				 ignored, thr, warn, direction, gate);
	}
	/* a benchmark ignored whole (no metric glob), or not */
	assert_int_equal(pdb_compare_config_ignores(&cfg, "flaky_disk"), 1);
	assert_int_equal(pdb_compare_config_ignores(&cfg, "slow"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_verdict_reasons),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_branch_rule),
		cmocka_unit_test(test_baseline_rule),
		cmocka_unit_test(test_retention),
		cmocka_unit_test(test_config_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
