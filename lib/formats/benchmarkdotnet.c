/* Format: BenchmarkDotNet JSON exporter (HostEnvironmentInfo, Benchmarks[] with Statistics). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "parse/json_util.h"
#include "util.h"

/* Statistics in nanoseconds per operation, by the name perfdb gives them.
 * N follows from the samples; Skewness and Kurtosis are kept unscaled. */
static const struct {
	const char *key, *stat;
} time_stats[] = {
	{ "Mean", "mean" },
	{ "Median", "median" },
	{ "StandardDeviation", "stddev" },
	{ "StandardError", "stderr" },
	{ "Min", "min" },
	{ "Max", "max" },
	{ "Q1", "q1" },
	{ "Q3", "q3" },
	{ "InterquartileRange", "iqr" },
	{ "LowerFence", "lower_fence" },
	{ "UpperFence", "upper_fence" },
};

/* Memory diagnoser counters, each its own metric. */
static const struct {
	const char *key, *metric, *unit;
} memory[] = {
	{ "BytesAllocatedPerOperation", "allocated", "B/op" },
	{ "Gen0Collections", "gen0_collections", "count" },
	{ "Gen1Collections", "gen1_collections", "count" },
	{ "Gen2Collections", "gen2_collections", "count" },
	{ "TotalOperations", "total_operations", "count" },
};

static int detect(const struct pdb_source *src)
{
	return !src->is_dir && pdb_head_first(src) == '{' &&
	       pdb_head_has(src, "\"HostEnvironmentInfo\"") &&
	       pdb_head_has(src, "\"Benchmarks\"") ? 95 : 0;
}

static int bad_at(struct pdb_err *err, const struct pdb_source *src,
		  const char *path, const char *key, const char *what)
{
	char *where = pdb_xasprintf("%s.%s", path, key);
	int ret = pdb_json_bad(err, src, where, what);

	free(where);
	return ret;
}

/* Environment values as text; Lazy<T> objects ({IsValueCreated, Value}) by
 * their value, {"Hertz": N} by N. */
static void add_host(struct pdb_run *run, json_t *host)
{
	const char *k;
	json_t *v;

	json_object_foreach(host, k, v) {
		json_t *inner = json_object_get(v, "Value");
		char *text;
		if (!inner && json_object_size(v) == 1)
			inner = json_object_get(v, "Hertz");
		text = pdb_json_text(inner ? inner : v);
		pdb_run_set_attr(run, k, text);
		free(text);
	}
}

/* "A=1&B=x" into dims; a part without '=' keeps the whole text as "params". */
static void split_params(const char *params, struct pdb_attr **dims, size_t *ndims,
			 size_t *cap)
{
	char *copy = pdb_xstrdup(params), *save = NULL, *part;
	int plain = 1;

	for (part = strtok_r(copy, "&", &save); part; part = strtok_r(NULL, "&", &save))
		plain = plain && strchr(part, '=') != NULL;
	free(copy);
	if (!plain) {
		pdb_grow((void **)dims, cap, *ndims + 1, sizeof **dims);
		(*dims)[*ndims].key = pdb_xstrdup("params");
		(*dims)[(*ndims)++].value = pdb_xstrdup(params);
		return;
	}
	copy = pdb_xstrdup(params);
	for (part = strtok_r(copy, "&", &save); part; part = strtok_r(NULL, "&", &save)) {
		char *eq = strchr(part, '=');
		pdb_grow((void **)dims, cap, *ndims + 1, sizeof **dims);
		(*dims)[*ndims].key = pdb_xstrndup(part, (size_t)(eq - part));
		(*dims)[(*ndims)++].value = pdb_xstrdup(eq + 1);
	}
	free(copy);
}

/* Namespace.Type.Method, or FullName when those are missing. */
static char *benchmark_name(json_t *b)
{
	const char *ns = pdb_json_str(b, "Namespace"), *type = pdb_json_str(b, "Type"),
		   *method = pdb_json_str(b, "Method"), *full = pdb_json_str(b, "FullName");

	if (type && method)
		return ns && *ns ? pdb_xasprintf("%s.%s.%s", ns, type, method)
				 : pdb_xasprintf("%s.%s", type, method);
	return full ? pdb_xstrdup(full) : NULL;
}

static char *series_key(json_t *b)
{
	char *name = benchmark_name(b), *key;
	const char *params = pdb_json_str(b, "Parameters");

	key = pdb_xasprintf("%s\x1f%s", name ? name : "", params ? params : "");
	free(name);
	return key;
}

/* Is the same method with the same parameters in the file more than once
 * (several jobs)? Then the job from DisplayInfo becomes a dimension. */
static int repeated(json_t *benchmarks, json_t *b)
{
	char *key = series_key(b);
	json_t *o;
	size_t i;
	int n = 0;

	json_array_foreach(benchmarks, i, o) {
		char *other = series_key(o);
		n += strcmp(key, other) == 0;
		free(other);
	}
	free(key);
	return n > 1;
}

static int add_statistics(const struct pdb_source *src, json_t *st, const char *path,
			  struct pdb_result *r, struct pdb_err *err)
{
	json_t *v, *ci, *pct;
	const char *k;
	double d;

	if (!json_is_object(st))
		return bad_at(err, src, path, "Statistics", "expected an object");
	for (size_t i = 0; i < sizeof time_stats / sizeof time_stats[0]; i++) {
		if (!(v = json_object_get(st, time_stats[i].key)))
			continue;
		if (pdb_json_num(v, &d) < 0) {
			char where[1024];
			snprintf(where, sizeof where, "%s.Statistics", path);
			return bad_at(err, src, where, time_stats[i].key, "expected a number");
		}
		pdb_result_set_stat_raw(r, time_stats[i].stat, d);
	}
	if (pdb_json_num(json_object_get(st, "Variance"), &d) == 0)
		pdb_result_set_stat(r, "variance", d * r->scale * r->scale);
	if (pdb_json_num(json_object_get(st, "Skewness"), &d) == 0) /* shapes: no unit */
		pdb_result_set_stat(r, "skewness", d);
	if (pdb_json_num(json_object_get(st, "Kurtosis"), &d) == 0)
		pdb_result_set_stat(r, "kurtosis", d);
	ci = json_object_get(st, "ConfidenceInterval");
	if (pdb_json_num(json_object_get(ci, "Lower"), &d) == 0)
		pdb_result_set_stat_raw(r, "mean_ci_low", d);
	if (pdb_json_num(json_object_get(ci, "Upper"), &d) == 0)
		pdb_result_set_stat_raw(r, "mean_ci_high", d);
	if (pdb_json_num(json_object_get(ci, "Margin"), &d) == 0)
		pdb_result_set_stat_raw(r, "mean_error", d);
	pct = json_object_get(st, "Percentiles");
	json_object_foreach(pct, k, v) {
		char *name;
		if (k[0] != 'P' || pdb_json_num(v, &d) < 0)
			continue;
		name = pdb_xasprintf("p%s", k + 1);
		pdb_result_set_stat_raw(r, name, d);
		free(name);
	}
	return 0;
}

/* Samples: Workload/Result measurements (ns per operation); without them
 * (older or brief exports) Statistics.OriginalValues. */
static int add_samples(const struct pdb_source *src, json_t *b, const char *path,
		       struct pdb_result *r, struct pdb_err *err)
{
	json_t *ms = json_object_get(b, "Measurements"), *m, *v;
	char where[1024];
	size_t i;
	double d;

	if (ms && !json_is_array(ms))
		return bad_at(err, src, path, "Measurements", "expected an array");
	json_array_foreach(ms, i, m) {
		const char *mode = pdb_json_str(m, "IterationMode");
		const char *stage = pdb_json_str(m, "IterationStage");
		double ns, ops;
		if (!mode || !stage || strcmp(mode, "Workload") != 0 || strcmp(stage, "Result") != 0)
			continue;
		snprintf(where, sizeof where, "%s.Measurements[%zu]", path, i);
		if (pdb_json_num(json_object_get(m, "Nanoseconds"), &ns) < 0)
			return bad_at(err, src, where, "Nanoseconds", "expected a number");
		if (pdb_json_num(json_object_get(m, "Operations"), &ops) < 0 || ops <= 0)
			return bad_at(err, src, where, "Operations", "expected a positive number");
		pdb_result_add_raw(r, ns / ops);
	}
	if (r->nsamples)
		return 0;
	json_array_foreach(json_object_get(json_object_get(b, "Statistics"), "OriginalValues"), i, v) {
		if (pdb_json_num(v, &d) < 0) {
			snprintf(where, sizeof where, "%s.Statistics.OriginalValues[%zu]", path, i);
			return pdb_json_bad(err, src, where, "expected a number");
		}
		pdb_result_add_raw(r, d);
	}
	return 0;
}

static void add_memory(json_t *b, struct pdb_run *run, const char *bench,
		       const struct pdb_attr *dims, size_t ndims)
{
	json_t *mem = json_object_get(b, "Memory"), *metrics = json_object_get(b, "Metrics"), *m;
	size_t i;
	double d;

	for (i = 0; i < sizeof memory / sizeof memory[0]; i++)
		if (pdb_json_num(json_object_get(mem, memory[i].key), &d) == 0)
			pdb_result_add_raw(pdb_run_result_with_dims(run, bench, dims, ndims,
					   memory[i].metric, memory[i].unit), d);
	/* Metrics[]: column metrics with their own unit and direction */
	json_array_foreach(metrics, i, m) {
		json_t *desc = json_object_get(m, "Descriptor"), *greater;
		const char *id = pdb_json_str(desc, "Id");
		struct pdb_result *r;
		if (!id || pdb_json_num(json_object_get(m, "Value"), &d) < 0)
			continue;
		r = pdb_run_result_with_dims(run, bench, dims, ndims, id, pdb_json_str(desc, "Unit"));
		greater = json_object_get(desc, "TheGreaterTheBetter");
		if (json_is_boolean(greater))
			r->direction = json_is_true(greater) ? PDB_DIR_HIGHER : PDB_DIR_LOWER;
		pdb_result_add_raw(r, d);
	}
}

static int parse_benchmark(const struct pdb_source *src, json_t *benchmarks, json_t *b,
			   size_t i, struct pdb_run *run, struct pdb_err *err)
{
	char path[64];
	const char *params, *display;
	struct pdb_attr *dims = NULL;
	struct pdb_result *r;
	size_t ndims = 0, cap = 0;
	char *bench = NULL;
	int ret = -1;

	snprintf(path, sizeof path, "$.Benchmarks[%zu]", i);
	if (!json_is_object(b))
		return pdb_json_bad(err, src, path, "expected an object");
	if (!(bench = benchmark_name(b)))
		return bad_at(err, src, path, "FullName", "expected a string (or Type and Method)");
	params = pdb_json_str(b, "Parameters");
	if (params && *params)
		split_params(params, &dims, &ndims, &cap);
	display = pdb_json_str(b, "DisplayInfo");
	if (display && strstr(display, ": ") && repeated(benchmarks, b)) {
		pdb_grow((void **)&dims, &cap, ndims + 1, sizeof *dims);
		dims[ndims].key = pdb_xstrdup("job");
		dims[ndims++].value = pdb_xstrdup(strstr(display, ": ") + 2);
	}
	if (pdb_json_str(b, "HardwareIntrinsics")) /* the host's, like HostEnvironmentInfo */
		pdb_run_set_attr(run, "HardwareIntrinsics", pdb_json_str(b, "HardwareIntrinsics"));
	r = pdb_run_result_with_dims(run, bench, dims, ndims, "time", "ns");
	if (json_object_get(b, "Statistics") &&
	    add_statistics(src, json_object_get(b, "Statistics"), path, r, err) < 0)
		goto out;
	if (add_samples(src, b, path, r, err) < 0)
		goto out;
	add_memory(b, run, bench, dims, ndims);
	ret = 0;
out:
	for (size_t d = 0; d < ndims; d++) {
		free(dims[d].key);
		free(dims[d].value);
	}
	free(dims);
	free(bench);
	return ret;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	json_t *doc = pdb_json_load(src, err), *benchmarks, *b, *host;
	size_t i;
	int ret = -1;

	if (!doc)
		return -1;
	if (!json_is_object(doc)) {
		pdb_json_bad(err, src, "$", "expected an object");
		goto out;
	}
	benchmarks = json_object_get(doc, "Benchmarks");
	if (!json_is_array(benchmarks)) {
		pdb_json_bad(err, src, "$.Benchmarks", "expected an array");
		goto out;
	}
	host = json_object_get(doc, "HostEnvironmentInfo");
	if (host && !json_is_object(host)) {
		pdb_json_bad(err, src, "$.HostEnvironmentInfo", "expected an object");
		goto out;
	}
	add_host(run, host);
	if (pdb_json_str(doc, "Title"))
		pdb_run_set_attr(run, "Title", pdb_json_str(doc, "Title"));
	json_array_foreach(benchmarks, i, b) {
		pdb_json_entry(run, "$.Benchmarks", i);
		if (parse_benchmark(src, benchmarks, b, i, run, err) < 0)
			goto out;
	}
	pdb_set_str(&run->tool, "benchmarkdotnet");
	ret = 0;
out:
	json_decref(doc);
	return ret;
}

const struct pdb_format pdb_format_benchmarkdotnet = {
	.name = "benchmarkdotnet",
	.summary = "BenchmarkDotNet JSON exporter (full or brief): statistics, measurements, memory",
	.detect = detect,
	.parse = parse,
};
