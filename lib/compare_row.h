/* A comparison's result: its rows, verdicts, geomeans and runs, and the
 * gate's reading of them (lib/compare_verdict.c): data the comparison's
 * files fill and the renderers read. */
#ifndef PDB_COMPARE_ROW_H
#define PDB_COMPARE_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "model.h" /* enum pdb_direction */

/* Verdicts, in the order of the summary counts. */
enum pdb_verdict {
	PDB_VERDICT_FAILED,       /* the benchmark failed in the candidate */
	PDB_VERDICT_REGRESSION,
	PDB_VERDICT_IMPROVEMENT,
	PDB_VERDICT_UNCHANGED,    /* the interval is within the threshold */
	PDB_VERDICT_INCONCLUSIVE, /* neither: the row's reason says why */
	PDB_VERDICT_INSUFFICIENT, /* too few values to tell: the reason says what is needed */
	PDB_VERDICT_NEW,          /* only in the candidate */
	PDB_VERDICT_MISSING,      /* only in the baseline */
	PDB_VERDICT_COUNT
};
/* "regression", "improvement", ... ("?" for an unknown value). */
const char *pdb_verdict_name(int verdict);
/* The verdict named name, or -1. */
int pdb_verdict_parse(const char *name);

/* Why a row is left out of the table by default (never out of the JSON). */
enum pdb_hidden {
	PDB_SHOWN,
	PDB_HIDDEN_CONSTANT,    /* the same value on both sides, or no direction and unmoved */
	PDB_HIDDEN_BOOKKEEPING, /* iterations, repetition counts: how, not how fast */
	PDB_HIDDEN_NOT_GATED,   /* a resource (memory, the user/system split), not
				 * gated and not a regression or an improvement */
};

/* One series (benchmark, dims, metric) of the comparison. Percentages are
 * in the metric's own direction: +10 means the candidate's value is 10 %
 * larger (worse for a time, better for a throughput); verdict says which.
 * Numbers that do not apply are NaN (e.g. p_value for one sample a side,
 * every percentage when a value is <= 0, the candidate's for "missing"). */
struct pdb_compare_row {
	char *benchmark;
	char *dims;            /* display "k=v,k=v", "" when none */
	char *dims_json;       /* canonical {"k":"v"} text, "{}" when none */
	char *metric, *unit;
	int direction;         /* enum pdb_direction, after config overrides */
	size_t n_base, n_cand; /* samples (runs, for a run group) per side */
	double median_base, median_cand, mean_base, mean_cand;
	double change_pct;     /* Hodges-Lehmann estimate of the ratio, as % */
	double ci_low_pct, ci_high_pct;  /* its interval at 1 - alpha */
	double change_abs;     /* cand - base (HL shift) when a value is <= 0 */
	double ci_low_abs, ci_high_abs;
	double p_value;        /* two-sided test (Holm-adjusted with holm) */
	const char *test;      /* the test that decided: "mann-whitney",
				* "wilcoxon-signed-rank" on the per-pair log ratios
				* of an A/B pair, "welch-t-log" for samples too small
				* for a rank test, "history" (the candidate against
				* the run-to-run noise of the baseline branch's
				* runs), "welch-t" (values <= 0), "histogram"
				* (quantile intervals from the event counts); NULL
				* when nothing was tested */
	size_t n_history;      /* runs of history the test used (test "history"), else 0 */
	double history_spread_pct; /* their run-to-run spread (robust SD of the
				    * per-run log medians, as %), else NaN */
	double threshold_pct;  /* fail level used for this series */
	double warn_pct;       /* warn level, NaN when none */
	double run_noise_pct;  /* the run-to-run noise assumed for one run against
				* one run without history (added to the samples'
				* interval), as %; NaN when none was added */
	int gated;             /* its regression fails the gate: the metric's role
				* (lib/metric_role.h), --metric or a rule's gate */
	double run_wide_pct;   /* the move of the whole run (the median change of its
				* metric's rows, as %) when it was judged the runner's
				* load, not a change (lib/compare_run_wide.h); else NaN */
	const char *decided_by; /* a wall-clock row whose verdict its CPU time
				 * decided: that metric; NULL else (static) */
	size_t n_zero;         /* time values of 0 read at zero_floor (below the
				* clock's resolution: a tick of user or system time) */
	double zero_floor;
	int verdict;           /* enum pdb_verdict */
	char *reason;          /* why failed, inconclusive or insufficient; NULL else */
	int failed_in_base;    /* the benchmark failed in a baseline run (no value there) */
	char *tool_base, *tool_cand; /* the tool of the runs that gave its values on each
				      * side (pdb_run_tool_of; "": not known), NULL: none there */
	int hidden;            /* enum pdb_hidden; hidden rows never enter the geomean */
	int warn;              /* worse than the warn level, not a regression */
	const char *band;      /* "samples", "history" or "static" (low confidence);
				* NULL for new, missing and rows with no value
				* on one side (static storage) */
};

/* Geometric mean, per metric, of the direction-normalised ratios
 * exp(dir * ln(cand/base)) of its compared series: > 1 is worse. */
struct pdb_compare_geomean {
	char *metric;
	double ratio;
	double change_pct;     /* the values' own geometric mean change, candidate
				* over baseline, not inverted: -28.7 for a
				* throughput that fell by that much (ratio 1.402) */
	size_t n;              /* series that entered it */
	double low, high;      /* its interval at 1 - alpha, from the series' own
				* (independent, normal in log terms); NaN when a
				* series had none */
	int verdict;           /* regression (worse), improvement (better),
				* unchanged or inconclusive: from the interval,
				* against the threshold of its series */
};

/* A run of either side, for reports. */
struct pdb_compare_run {
	int64_t id;
	char *name, *created_at, *commit, *branch; /* NULL when absent */
	char *status;          /* complete, failed or interrupted */
};

/* An environment attribute (cpu_model, vcpus, host) that differs. */
struct pdb_compare_env_diff {
	char *key;
	char *base, *cand;     /* the first differing values, "" when absent */
};

struct pdb_compare {
	struct pdb_compare_row *rows;  /* worst first */
	size_t nrows;
	size_t counts[PDB_VERDICT_COUNT]; /* shown and hidden rows, but not the
					   * resources (not gated): the gate's count */
	size_t nreported;      /* resources that moved: regressions and
				* improvements reported, not gated */
	size_t nhidden;        /* rows hidden from the table by default */
	size_t npaired;        /* rows tested paired (an A/B pair: one run a side,
				* one ab id, both complete) */
	struct pdb_compare_geomean *geomean; /* by metric name */
	size_t ngeomean;
	struct pdb_compare_run *base, *cand;
	size_t nbase, ncand;
	struct pdb_compare_env_diff *env;    /* empty when the fingerprints agree */
	size_t nenv;
	double alpha;          /* as used */
	int self;              /* the candidate runs are the baseline runs: a run
				* compared with itself, every row "same-run" */
};

/* A set of verdicts as bits (1 << verdict), for --fail-on. */
#define PDB_FAIL_ON_DEFAULT ((1u << PDB_VERDICT_REGRESSION) | (1u << PDB_VERDICT_FAILED))

/* A resource (not gated) that moved: its row is reported, outside the
 * gate's counts. */
int pdb_compare_row_reported(const struct pdb_compare_row *r);
/* Whether the gate fails: a row whose verdict is in fail_on (rows with
 * direction none count only when failed), or, when fail_on holds failed, a
 * candidate run that ended failed or interrupted. */
int pdb_compare_failed(const struct pdb_compare *cmp, unsigned fail_on);
/* Whether row's verdict is one fail_on makes fail. */
int pdb_compare_row_fails(const struct pdb_compare_row *row, unsigned fail_on);
/* The rows on both sides: values or a failure on each. */
size_t pdb_compare_in_common(const struct pdb_compare *cmp);

#endif
