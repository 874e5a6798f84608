/* Formats: one perf stat counter as series, the rule perf stat's -x, CSV,
 * -j JSON and text readers share (same events: same series). */
#ifndef PDB_PERF_COUNT_H
#define PDB_PERF_COUNT_H

#include "model.h"

/* One counter as perf printed it; what perf did not print is NULL or NaN. */
struct pdb_perf_count {
	const char *event;
	const char *cpu;        /* -A: "0", "1", ... */
	const char *missing;    /* "<not supported>" or "<not counted>": no value */
	double value;           /* in unit, when not missing */
	const char *unit;       /* "msec", "" */
	double t;               /* -I: the interval's end, s */
	double noise;           /* -r: the ± of the mean, % */
	double runtime_ns;      /* the time the counter ran */
	double pct;             /* the share of that time it counted */
	const char *metric;     /* the derived metric, "0.014 CPUs utilized" */
};

/* An empty count: every number NaN, every text NULL. */
#define PDB_PERF_COUNT ((struct pdb_perf_count){ .value = NAN, .t = NAN, .noise = NAN, \
	.runtime_ns = NAN, .pct = NAN })

/* Is s how perf says a counter has no value? */
int pdb_perf_is_missing(const char *s);

/* Add c to run: benchmark perf-stat, metric = event, dim cpu with -A; the
 * value a sample (at t with -I), msec as s, no unit a count; stats variance
 * (noise), runtime (s), measured_pct, never per interval; a missing value
 * as the attribute perf.counted[EVENT], the metric as perf.metric[EVENT]. */
void pdb_perf_count_add(struct pdb_run *run, const struct pdb_perf_count *c);

/* A line of perf's own comments ('#' first: "# started on DATE", which -o
 * writes, kept as the attribute started_on; -I's column heads): 1, else 0. */
int pdb_perf_comment(struct pdb_run *run, const char *line);

/* The run's tool, once a file gave counts. */
void pdb_perf_set_tool(struct pdb_run *run);

#endif
