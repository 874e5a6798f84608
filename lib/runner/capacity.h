/* Capacity searches: `rate: {search: [LOW, HIGH], until: {METRIC: LIMIT}}`
 * of a stream: or kafka: workload, the highest rate at which every
 * condition holds, found by short steps at one rate each. */
#ifndef PDB_CAPACITY_H
#define PDB_CAPACITY_H

#include <jansson.h>
#include <stddef.h>

#include "err.h"
#include "model.h"
#include "runner/spec_keys.h"

#define PDB_CAPACITY_TOLERANCE 5.0  /* % (tolerance:) */
#define PDB_CAPACITY_SETTLE 30.0    /* s (settle:) */

/* A condition: the step's worst value of metric is at most limit. */
struct pdb_capacity_limit {
	char *metric;
	double limit;
};

struct pdb_capacity {
	double low, high;           /* whole rates, 1 <= low < high */
	struct pdb_capacity_limit *until;
	size_t nuntil;
	double step;                /* seconds of each step; 0: the workload's duration */
	double tolerance;           /* %: done when the lowest failing rate is within it of the highest passing */
	double settle;              /* s at most to wait after a step for the pipeline to go quiet */
	char *text;                 /* "200..3000" for messages */
};

/* Read the mapping v (rate: of a workload) into a new search: search:
 * [LOW, HIGH], until: {METRIC: LIMIT, ...} whose metrics are among
 * metrics (NULL-terminated: what the workload stores), step:,
 * tolerance:, settle:. 0, or -1 with err at FILE:LINE:COL. */
int pdb_capacity_read(struct pdb_spec_reader *r, const json_t *v, const char *const *metrics,
		      struct pdb_capacity **out);
void pdb_capacity_free(struct pdb_capacity *c); /* NULL-safe */

/* The keys of a search, for the docs test. */
extern const struct pdb_spec_section pdb_capacity_section;

/* "until missing_pct <= 1 and delivery_delay_p99 <= 2" into buf. */
void pdb_capacity_until_text(const struct pdb_capacity *c, char *buf, size_t size);

/* How a search runs its steps: step runs the workload at rate (its
 * duration the search's step) and adds its series to each of the two
 * runs (the step's own, which the search judges, and the run stored) as
 * bench with dims, the step's rate=R among them. 0; 1 when interrupted
 * (nothing added); -1 with err when the workload could not run. settle
 * (may be NULL) waits after a step for the pipeline to go quiet and
 * returns a note for the user, or NULL. note gets each step's line. */
struct pdb_capacity_ops {
	int (*step)(void *ctx, double rate, struct pdb_run *const runs[2], const char *bench,
		    const struct pdb_attr *dims, size_t ndims, struct pdb_err *err);
	const char *(*settle)(void *ctx);
	void (*note)(void *ctx, const char *line);
	void *ctx;
	const char *unit;           /* "lines/s", "msg/s" */
};

struct pdb_capacity_outcome {
	double sustained;           /* the highest rate that passed; 0: none (low failed) */
	double failed;              /* the lowest rate that failed; 0: none (high passed) */
	int steps;
	int interrupted;
	char text[400];             /* the outcome in one line, for the user and an attribute */
};

/* Search between c->low and c->high: low first (if it fails, there is no
 * sustained rate and nothing more runs), then the geometric middle of the
 * highest passing and the lowest failing rate (high until a rate fails),
 * rounded to a whole rate, until the failing one is within tolerance of
 * the passing one; high itself is tried last when no rate failed. Each
 * step's series go into run under dims plus rate=R; max_sustained_rate
 * (unit ops->unit) under dims alone when a rate passed. 0, or -1 with err
 * when a step could not run (the steps before it stay in run). */
int pdb_capacity_search(const struct pdb_capacity *c, const struct pdb_capacity_ops *ops, struct pdb_run *run,
			const char *bench, const struct pdb_attr *dims, size_t ndims,
			struct pdb_capacity_outcome *out, struct pdb_err *err);

/* Whether step (a run holding one step of bench) meets every condition:
 * each metric's worst value (the largest sample of any of its series:
 * every stage, every second; for METRIC_STAT also the statistic STAT of
 * the histogram METRIC, over every line of the step) at most its limit; a
 * metric the step did not measure fails. The verdict's line
 * ("missing_pct 0 %, ... - pass") into buf, the first condition broken
 * ("missing_pct 6 % (throttle) > 1 %") into broke, or "". */
int pdb_capacity_judge(const struct pdb_capacity *c, const struct pdb_run *step, const char *bench,
		       char *buf, size_t size, char *broke, size_t brokesize);

#endif
