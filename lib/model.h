/* Model: a run in memory, with its attributes and results (series values). */
#ifndef PDB_MODEL_H
#define PDB_MODEL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "units.h"

struct pdb_attr {
	char *key;
	char *value;
};

/* One raw value; t (seconds from the run start) and weight are optional:
 * NaN when absent (24 bytes a sample: a million-row CSV fits in 64 MiB).
 * Make samples with PDB_SAMPLE(value), never by zeroing. */
struct pdb_sample {
	double value;
	double t;
	double weight;
};
#define PDB_SAMPLE(v) ((struct pdb_sample){ .value = (v), .t = NAN, .weight = NAN })

static inline int pdb_sample_has_t(const struct pdb_sample *s)
{
	return !isnan(s->t);
}

static inline int pdb_sample_has_weight(const struct pdb_sample *s)
{
	return !isnan(s->weight);
}

/* A statistic the tool computed (mean, p99, ...), never recomputed. */
struct pdb_stat {
	char *name;
	double value;
};

/* The values of one series in one run. The series is (benchmark, dims,
 * metric); unit is canonical, raw_unit what the tool wrote. */
struct pdb_result {
	char *benchmark;
	struct pdb_attr *dims;  /* kept sorted by key */
	size_t ndims, capdims;
	char *metric;
	char *unit;             /* canonical */
	char *raw_unit;         /* as written by the tool, or NULL */
	char *raw_name;         /* the tool's own name when it differs, or NULL */
	double scale;           /* canonical = raw * scale, for pdb_result_add_raw */
	int direction;          /* enum pdb_direction */
	struct pdb_sample *samples;
	size_t nsamples, capsamples;
	struct pdb_stat *stats;
	size_t nstats, capstats;
};

/* Whether a result's samples carry weights (a histogram's buckets). */
static inline int pdb_result_has_weights(const struct pdb_result *r)
{
	for (size_t i = 0; i < r->nsamples; i++)
		if (pdb_sample_has_weight(&r->samples[i]))
			return 1;
	return 0;
}

/* A benchmark (with its dims) that failed in this run: non-zero exits, a tool's
 * own error entry, a failed repetition. A status, never a series of values. */
struct pdb_failure {
	char *benchmark;
	struct pdb_attr *dims;  /* sorted by key */
	size_t ndims;
	char *reason;           /* one line for people: "3 of 3 runs exited 1" */
};

struct pdb_run {
	int64_t id;             /* 0 until stored */
	int64_t seq;            /* its place in the order of runs once stored (runs.seq) */
	char uuid[37];
	char *name;             /* NULL when unnamed */
	char *created_at;       /* ISO 8601 UTC */
	char *tool;             /* "hyperfine", ... */
	char *format;           /* adapter name */
	char *source;           /* file name(s) given to ingest */
	char *sha256;           /* of the (first) source file */
	char *status;           /* "complete", "interrupted", "failed" */
	struct pdb_attr *attrs; /* kept sorted by key */
	size_t nattrs, capattrs;
	struct pdb_result *results;
	size_t nresults, capresults;
	struct pdb_failure *failures; /* sorted by benchmark, then dims text */
	size_t nfailures, capfailures;
	int own_identity;       /* sha256 and source came from the document (canonical
				 * JSON): kept as they are, null included */
};

/* A new empty run with a fresh uuid and created_at = now. Caller frees. */
struct pdb_run *pdb_run_new(void);
void pdb_run_free(struct pdb_run *run); /* NULL-safe */

/* Set (replace) a run attribute; strings are copied. */
void pdb_run_set_attr(struct pdb_run *run, const char *key, const char *value);
/* Set n attributes at once, in one merge (O(attributes + n log n), where n
 * pdb_run_set_attr calls would shift the sorted array n times); of one key
 * given twice the later value wins. */
void pdb_run_set_attrs(struct pdb_run *run, const struct pdb_attr *kv, size_t n);
const char *pdb_run_get_attr(const struct pdb_run *run, const char *key);
/* Replace a string field such as &run->tool with a copy of value. */
void pdb_set_str(char **field, const char *value);

/* Find the result of (benchmark, metric) with the same dims as dims_of (or
 * no dims when NULL), or add it. raw_unit is parsed into the canonical unit,
 * scale and direction; an unknown unit is kept with direction none.
 * The pointer stays valid until the next pdb_run_add_result. */
struct pdb_result *pdb_run_add_result(struct pdb_run *run, const char *benchmark,
				      const char *metric, const char *raw_unit);
/* Entries: one element of a file that is one benchmark's whole result
 * (hyperfine's results[i], a JMH or pytest-benchmark benchmark). A reader
 * begins each with where it is (a JSON path, "$.results[1]", or "LINE:COL").
 * While entries are on, a (benchmark, dims) that an earlier entry gave is
 * never merged into it: its series and failures get the dim occurrence=N
 * (the Nth entry to give it), and the repeat is kept for
 * pdb_run_take_repeats. pdb_run_end_entries (ingest calls it after each
 * file) turns entries off: results of the same series merge again. */
void pdb_run_begin_entry(struct pdb_run *run, const char *where);
void pdb_run_end_entries(struct pdb_run *run);
struct pdb_entry_repeat {
	char *benchmark;
	char *dims;       /* as pdb_dims_display gives them, "" when none */
	char *first;      /* where its first entry is, as the reader said */
	char *again;      /* where this entry is */
	unsigned occurrence;
};
/* Where the entry that made run->results[i] is, as its reader said, or NULL. */
const char *pdb_run_result_where(const struct pdb_run *run, size_t i);
/* The repeats since the last call (the caller frees them). */
struct pdb_entry_repeat *pdb_run_take_repeats(struct pdb_run *run, size_t *n);
void pdb_entry_repeats_free(struct pdb_entry_repeat *r, size_t n);

/* Like pdb_run_add_result with dims given as a sorted-or-not array. */
struct pdb_result *pdb_run_result_with_dims(struct pdb_run *run,
					    const char *benchmark,
					    const struct pdb_attr *dims, size_t ndims,
					    const char *metric, const char *raw_unit);

/* Like pdb_run_result_with_dims, but a result added has no unit: the
 * caller sets its unit, scale and direction (the store, whose units are
 * canonical already: nothing to parse). */
struct pdb_result *pdb_run_result_unparsed(struct pdb_run *run, const char *benchmark,
					   const struct pdb_attr *dims, size_t ndims,
					   const char *metric);

/* Set a dim of a result in place. It does not re-key the run's lookup index: give
 * the dims to pdb_run_result_with_dims instead while a parser still looks results up. */
/* Record that benchmark (with dims, unsorted is fine) failed, for a reason
 * (copied). A second failure of the same benchmark and dims replaces the reason. */
void pdb_run_add_failure(struct pdb_run *run, const char *benchmark,
			 const struct pdb_attr *dims, size_t ndims, const char *reason);
/* The failure of (benchmark, dims text as pdb_dims_text gives it), or NULL. */
const struct pdb_failure *pdb_run_find_failure(const struct pdb_run *run,
					       const char *benchmark, const char *dims_text);

/* The tool whose values a run holds, for pdb_same_tool: runs.tool, or
 * NULL when not known or several (a run of files of several formats,
 * format "hyperfine+fio"). */
const char *pdb_run_tool_of(const char *tool, const char *format);
/* Whether a failure in a run of tool a (pdb_run_tool_of) speaks for the
 * values of a run of tool b: only the same tool's. Two tools may write one
 * benchmark name (stress-ng's cpu, sysbench's cpu): a failure of one says
 * nothing of the other's values. A tool not known (NULL or "") is any. */
int pdb_same_tool(const char *a, const char *b);

/* src's unit, scale, direction, raw unit and name into dst; its samples
 * appended and its stats set. */
void pdb_result_add_values(struct pdb_result *dst, const struct pdb_result *src);
/* pdb_run_result_with_dims, with the series' direction set. */
struct pdb_result *pdb_run_series(struct pdb_run *run, const char *benchmark,
				  const struct pdb_attr *dims, size_t ndims, const char *metric,
				  const char *unit, int direction);
/* Append the sample v taken at time offset t. */
void pdb_result_add_at(struct pdb_result *r, double t, double v);
/* 1 + the position in run->results of the result of r's series (same
 * benchmark, dims, metric), or 0 when run has none. */
size_t pdb_run_find_result(const struct pdb_run *run, const struct pdb_result *r);
/* Copy src's results (samples appended, stats set), attributes, failures, and
 * tool and sha256 where dst has none, into dst. */
void pdb_run_merge(struct pdb_run *dst, const struct pdb_run *src);
/* The same, leaving out the results i where skip[i] (skip NULL: none). */
void pdb_run_merge_some(struct pdb_run *dst, const struct pdb_run *src, const char *skip);

/* "vcpus=16,batch=100" from a series' dims as stored (JSON text: "" for
 * "{}", "?" for a value that is not a string). Caller frees. */
char *pdb_dims_json_display(const char *json);

void pdb_result_set_dim(struct pdb_result *r, const char *key, const char *value);
const char *pdb_result_get_dim(const struct pdb_result *r, const char *key);
/* A value in the tool's unit converted to the canonical unit (r->scale). */
double pdb_result_canonical(const struct pdb_result *r, double raw);
/* Add a value in the tool's unit (converted with pdb_result_canonical). */
void pdb_result_add_raw(struct pdb_result *r, double raw_value);
/* Add a canonical sample (already scaled). */
void pdb_result_add_sample(struct pdb_result *r, const struct pdb_sample *s);
/* Set a statistic in the tool's unit (multiplied by r->scale); replaces. */
void pdb_result_set_stat_raw(struct pdb_result *r, const char *name, double raw);
/* Set a statistic already in the canonical unit; replaces. */
void pdb_result_set_stat(struct pdb_result *r, const char *name, double value);
int pdb_result_get_stat(const struct pdb_result *r, const char *name, double *out);

/* Dims as canonical text: a compact JSON object with sorted keys, "{}" when
 * none. Caller frees. */
char *pdb_dims_text(const struct pdb_attr *dims, size_t ndims);
/* "k=v,k=v" for display. Caller frees. */
char *pdb_dims_display(const struct pdb_attr *dims, size_t ndims);

/* One run's value of a series, as a test over runs reads it: the median
 * of its samples (without samples, the tool's median, else its mean),
 * their quartiles (NaN without samples) and count. */
struct pdb_run_value {
	int64_t run_id;
	size_t n;
	double value, q1, q3;
};

/* Summary of samples: n, mean, median, min, max (NaN when there is no sample).
 * Weighted when samples carry weights: a histogram's buckets, whose n is then
 * the events they count (the weights' sum, rounded), not the buckets. */
struct pdb_summary {
	size_t n;
	double mean, median, min, max, stddev;
	double p5, q1, q3, p95;  /* the first value whose cumulative weight reaches 5, 25, 75, 95 % */
};
void pdb_result_summary(const struct pdb_result *r, struct pdb_summary *out);
/* A result as one number, as compare and the charts value it: the median
 * of its samples (weighted), else the tool's median (or its p50, the
 * same), else its mean, else its only statistic (a p99, say); NaN when none. */
double pdb_result_value(const struct pdb_result *r);

#endif
