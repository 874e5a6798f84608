/* Compare's tests as strategies, one file each (benchstat's shape): what a
 * test needs of a side, its summary, and how it compares two summaries
 * into the row's effect, interval and p-value. lib/compare_choose.c is the
 * one rule that chooses a series' test. Pure functions of memory: no store
 * call, no printing. The comparison's own, not an interface of lib/. */
#ifndef PDB_COMPARE_STRATEGY_H
#define PDB_COMPARE_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include "compare_input.h"
#include "compare_row.h"
#include "model.h"

/* What the tests read and keep, across the series of one comparison; the
 * fields under "this series" are set for each series before it is tested. */
struct compare_test {
	double alpha;
	int paired;           /* an A/B pair: repetition i of each side ran together */
	int one_run_a_side;   /* one run a side */
	const char *branch;   /* the history's branch, named in reasons; NULL: none */
	size_t hl_nx, hl_ny, hl_k; /* the interval rank of the last sizes */
	double *scratch;      /* copies of one series' values, reused */
	size_t scratch_cap;
	double *logs[2];      /* each side's logs (0 the baseline, 1 the candidate), reused */
	size_t logs_cap[2];
	size_t npaired;       /* rows tested paired */
	/* this series */
	double run_noise;     /* its assumed run-to-run noise (log SD) before a
			       * history exists; 0: none */
	int single_noise;     /* one value a side is tested against it (CPU time) */
	int positive;         /* every value of both sides above 0: changes are ratios */
	const struct pdb_compare_history *history; /* its runs on the branch, NULL: none */
	int64_t cand_id;      /* the candidate run, left out of the history */
};

/* One side of a series as the tests see it. */
struct compare_side {
	const double *v;      /* its values: one run's samples, else one a run */
	size_t n;
	double median;
	size_t nruns;         /* the runs of the side */
	const struct pdb_result *result; /* its one result, when it has one, else NULL */
	int cand;             /* 0 the baseline, 1 the candidate */
};

/* What a test reads of a side; each test fills the fields it reads. */
struct compare_summary {
	const double *v;      /* the side's values */
	const double *logs;   /* their logs (t->positive), else NULL */
	size_t n;
	double median;
	size_t nruns;
	double lo, hi;        /* the location's bounds: the least and most value
			       * (exact), its median's interval (histogram) */
	double se;            /* the standard error of its log median (history) */
};

struct compare_strategy {
	const char *name;     /* the row's test */
	/* The side's summary; -1 when the side does not fit the test (then
	 * the rule asks the next one). */
	int (*summary)(struct compare_test *t, const struct compare_side *side,
		       struct compare_summary *s);
	/* The two sides' summaries into the row's change, interval, p-value
	 * (and the test's own fields); -1 when it cannot decide (the row
	 * untouched: the rule asks the next test). */
	int (*compare)(struct compare_test *t, const struct compare_summary *b,
		       const struct compare_summary *a, struct pdb_compare_row *row);
};

extern const struct compare_strategy compare_test_history;   /* compare_test_history.c */
extern const struct compare_strategy compare_test_exact;     /* compare_test_exact.c */
extern const struct compare_strategy compare_test_paired;    /* compare_test_paired.c */
extern const struct compare_strategy compare_test_rank;      /* compare_test_rank.c */
extern const struct compare_strategy compare_test_welch;     /* compare_test_welch.c */
extern const struct compare_strategy compare_test_histogram; /* compare_test_histogram.c */
extern const struct compare_strategy compare_test_run_noise; /* compare_test_run_noise.c */

/* Tests a series (b, a: its sides, row: its row with medians and means
 * filled): the rule that chooses its test (lib/compare_choose.c). */
void compare_test_series(struct compare_test *t, struct pdb_compare_row *row,
			 const struct compare_side *b, const struct compare_side *a,
			 int exact_count);

/* Whether st decides the series of row: both sides' summaries, then their
 * comparison. */
int compare_decides(const struct compare_strategy *st, struct compare_test *t,
		    struct pdb_compare_row *row, const struct compare_side *b,
		    const struct compare_side *a);

/* A side's logs in t's scratch for that side (its values all above 0). */
const double *compare_side_logs(struct compare_test *t, const struct compare_side *side);

/* The interval at 1 - alpha and the p-value of a change d (log ratio)
 * read as normal with standard error se (0: known exactly). */
void compare_normal_interval(const struct compare_test *t, struct pdb_compare_row *row,
			     double d, double se);

/* One run against one run, not an A/B pair, with no history: the samples'
 * interval widened by the run-to-run noise assumed (compare_test_run_noise.c). */
void compare_add_run_noise(const struct compare_test *t, struct pdb_compare_row *row);

#endif
