/* Chart kinds: a scaling, latency, history or compare chart built from the
 * data its gatherer read (lib/gather/chart_gather.h): memory only, no store. */
#ifndef PDB_CHART_KINDS_H
#define PDB_CHART_KINDS_H

#include <stddef.h>

#include "chart/chart.h"
#include "chart/usl.h"
#include "err.h"
#include "model.h"
#include "series.h"

struct pdb_dim_filter;
struct pdb_plot_opts {
	const char *bench_glob;  /* NULL: any benchmark */
	const char *metric_glob; /* NULL: the kind's choice */
	const char *title;       /* NULL: a title from the data */
	const char *where;       /* history: only runs with these attributes ("k=v,k=v"); NULL: all */
	struct pdb_dim_filter *dims; /* --dim K=V: only series these dims pass (NULL: all) */
	int width, height, theme;
	int last, cand_last;     /* plot compare: BASE (CAND) is the last N runs its selector
				  * matches (read by cmd/plot.c, which makes the comparison) */
};

/* Scaling: throughput against vCPUs. */
struct pdb_scaling_row {
	double vcpus, throughput, per_vcpu, speedup, efficiency; /* efficiency in % */
	double increase;  /* throughput added per added vCPU since the row before (NAN first) */
};
/* One line: the points that share the values of the other dims. */
struct pdb_scaling_line {
	char *label;                     /* those values, "batch=1000"; "" for a lone line */
	struct pdb_scaling_row *rows;    /* by vCPUs */
	size_t n;
	int has_usl;
	struct pdb_usl usl;
};
struct pdb_scaling {
	char *benchmark, *metric, *unit; /* unit of throughput (1/time when from times) */
	char *why;                       /* why this metric: "by name", "--metric" */
	char *held;                      /* dims with one value in every line, "clients=8", or "" */
	char *follows;                   /* dims with one value a vCPU count (threads={vcpus}),
					  * which split no line: "threads", or "" */
	int from_time;                   /* throughput is 1 / the measured time */
	struct pdb_scaling_line *lines;  /* sorted by their dims, numbers as numbers */
	size_t nlines;
	char **skipped;                  /* "what: why" of each series left out */
	size_t nskipped;
};
/* The scaling of one benchmark and metric of the runs (nruns of them), measured at two or
 * more vCPU counts (a vcpus dimension or attribute): one line per value of
 * the other dims, but for those that follow vCPUs (one value a count). The metric is --metric's, else the one named throughput,
 * else an ops/s-like rate, another rate, or a time (inverted). Fills out
 * (release with pdb_scaling_release); -1 with err (code PDB_EXIT_INPUT)
 * when nothing fits. */
int pdb_scaling_of(struct pdb_run *const *runs, size_t nruns, const struct pdb_plot_opts *opts,
		   struct pdb_scaling *out, struct pdb_err *err);
void pdb_scaling_release(struct pdb_scaling *s);
/* The chart of s (chart/scaling_chart.c): one line with the ideal line, a
 * USL fit and the efficiency panel; up to 6 lines in one panel with their
 * efficiencies; more as one panel per value of the first varying dim.
 * base (or NULL): a baseline's scaling of the same metric, its lines drawn
 * dashed beside the candidate's of the same dims. */
struct pdb_chart *pdb_scaling_chart(const struct pdb_scaling *s, const struct pdb_scaling *base,
				    const struct pdb_plot_opts *opts);

/* Latency: percentile spectrum of every time series with samples or
 * percentiles in the runs (whatever its name), and latency and throughput
 * (a panel per unit) over time where samples carry time offsets; more than
 * a panel's 8 lines as small multiples (a panel per rate, step or stage,
 * pdb_chart_groups), the chart grown to hold every panel. The chart
 * counts what it selected and names what it left out (chart->skipped).
 * Caller frees; NULL with err when nothing fits. */
struct pdb_chart *pdb_latency_chart(struct pdb_run **runs, size_t nruns,
				    const struct pdb_plot_opts *opts, struct pdb_err *err);

/* History: at most this many series on one chart. */
#define PDB_HISTORY_MAX_LINES 8
/* One series of a history chart, read: its points in the order of runs (seq) (their
 * bounds filled where the chart should draw them), the runs in which its
 * benchmark failed (points without a value, in that order: a cross each),
 * and detect's result for those points (NULL: detect runs here). */
struct pdb_detect_result;
struct pdb_history_input {
	const struct pdb_series *series;
	const struct pdb_history_point *pts, *failed;
	size_t npts, nfailed;
	const struct pdb_detect_result *res;
};
/* The series of a history chart among the total matched (by benchmark,
 * dims, metric), reordered: first the *n drawn (those --dim passes; without
 * --metric, only the series detect splits without it (pdb_metric_series_by_default)
 * when there are others, the
 * *nleft others right after them, named on the chart); -1 with err when
 * none is left, more than PDB_HISTORY_MAX_LINES or of two units. */
int pdb_history_choose(struct pdb_series *series, size_t total, const struct pdb_plot_opts *opts,
		       size_t *n, size_t *nleft, struct pdb_err *err);
/* What a history chart draws, as its gatherer read it: the series matched
 * (pdb_history_choose's order) and the points of the n drawn. */
struct pdb_history_model {
	struct pdb_series *series;
	size_t total, n, nleft;
	struct pdb_history_input *in; /* n */
};
/* History: the chosen series across runs, with their bands, change points
 * (detect run here) and outliers, the series left out named. Caller frees;
 * NULL with err. */
struct pdb_chart *pdb_history_chart(const struct pdb_history_model *m,
				    const struct pdb_plot_opts *opts, struct pdb_err *err);
/* The same chart of series read elsewhere (and maybe detected: in[].res).
 * opts: only its size, theme and title. */
struct pdb_chart *pdb_history_chart_of(const struct pdb_history_input *in, size_t n,
				       const struct pdb_plot_opts *opts, struct pdb_err *err);

/* Compare: the comparison cmp (made by the caller, with its configuration,
 * thresholds and filters) drawn, worst first: a row for each series the
 * table shows, up to max_rows — its change in % as a bar with its interval
 * coloured by verdict, or, where there is no change to draw (failed,
 * missing, new), a labelled row without a bar. opts: only its size, theme
 * and title (NULL: one from the runs). Caller frees. */
struct pdb_compare;
struct pdb_chart *pdb_compare_chart(const struct pdb_compare *cmp, size_t max_rows,
				    const struct pdb_plot_opts *opts);

/* A result of a run, as the kinds select them. */
struct pdb_chart_item {
	const struct pdb_run *run;
	const struct pdb_result *r;
	size_t family;  /* > 0: the item is the per-period series METRIC_p50,
			 * METRIC_p99 ... of r's run named by r->metric's first
			 * family bytes (r is one of them); 0: r itself */
};
/* Legend labels of n items (chart/label.c): the run, benchmark, dims and
 * metric, each only when the items differ in it (the metric when nothing
 * differs). Free with pdb_chart_labels_free. */
char **pdb_chart_item_labels(const struct pdb_chart_item *items, size_t n);
void pdb_chart_labels_free(char **labels, size_t n);
/* Order of dims texts "k=v,k=v": field by field, numbers as numbers. */
int pdb_chart_cmp_dims(const char *a, const char *b);
/* "run42 bench [k=v] metric": the series an item draws. Caller frees. */
char *pdb_chart_item_key(const struct pdb_chart_item *item);

/* Small multiples (chart/multiples.c): n items split into groups of at most
 * max, by the one dim whose values give the fewest groups that fit (an item
 * without it in a group of its own, "no stage"), a group still larger cut
 * into pages ("rate=500, 1 of 2"); every item in one group. */
struct pdb_chart_group {
	size_t *idx;     /* the items' indices */
	size_t n;
	char *label;     /* "rate=500", "no stage", "2 of 3", or "" for the one group */
};
size_t pdb_chart_groups(const struct pdb_chart_item *it, size_t n, size_t max,
			struct pdb_chart_group **out);
void pdb_chart_groups_free(struct pdb_chart_group *g, size_t n);
/* The colours of a panel's n items (chart/stage_color.c), one rule for every
 * panel of a chart: an item with a stage (else a process) dim takes the
 * colour of that name's place among the names of the runs' series (so the
 * stage jq and the process jq share theirs), one without takes colour 0;
 * where no series of the runs has a stage or process, an item takes the
 * colour of its benchmark's place among the runs' benchmarks; when two lines of the panel would share a colour, the panel's lines are
 * coloured in order instead. */
void pdb_chart_stage_colors(struct pdb_run *const *runs, size_t nruns, const struct pdb_chart_item *it,
			    size_t n, int *colors);

/* Series over time that pick takes and whose samples carry time offsets,
 * a panel per unit (msg/s apart from B/s) titled "WHAT over time", split
 * into small multiples of at most 8 lines (pdb_chart_groups), coloured by
 * stage (pdb_chart_stage_colors), repetitions as their median with a band
 * (chart/timeline.c). */
void pdb_chart_timed_panels(struct pdb_chart *c, struct pdb_run **runs, size_t nruns,
			    const struct pdb_plot_opts *opts, int (*pick)(const struct pdb_result *),
			    const char *what);
/* The panels of the resources sampled during the runs (sample: of a run
 * spec) after c's panels: processes' CPU and RSS, the machine's CPU busy,
 * load, memory, disk and network, each over time. The chart grows to hold
 * them (never squeezes or drops one). How many were added (chart/resources.c). */
size_t pdb_chart_resource_panels(struct pdb_chart *c, struct pdb_run **runs, size_t nruns,
				 const struct pdb_plot_opts *opts);
/* The benchmark of the first sampled series of the runs that the bench
 * glob takes (NULL: none), *others whether another benchmark has some too. */
const char *pdb_chart_resource_bench(struct pdb_run **runs, size_t nruns, const struct pdb_plot_opts *opts,
				     int *others);

/* "name" or "run42" (chart/label.c). Caller frees. */
char *pdb_chart_run_label(const struct pdb_run *run);

#endif
