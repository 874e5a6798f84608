/* Format: pytest-benchmark --benchmark-json (machine and commit info, rounds as samples, stats). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "metric_role.h"
#include "parse/json_packed.h"
#include "parse/json_util.h"
#include "utc_time.h"
#include "util.h"

/* Statistics in seconds, kept as stats of the time series. */
static const char *const time_stats[] = {
	"min", "max", "mean", "stddev", "median", "iqr", "q1", "q3",
	"ld15iqr", "hd15iqr", "total", NULL,
};

static int in_list(const char *const *list, const char *key)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(list[i], key) == 0)
			return 1;
	return 0;
}

static int detect(const struct pdb_source *src)
{
	return pdb_head_first(src) == '{' && pdb_head_has(src, "\"machine_info\"") &&
	       (pdb_head_has(src, "\"commit_info\"") || pdb_head_has(src, "\"benchmarks\"")) ? 90 : 0;
}

static int bad(struct pdb_err *err, const struct pdb_source *src, size_t idx,
	       const char *rest, const char *what)
{
	char *path = pdb_xasprintf("$.benchmarks[%zu]%s", idx, rest);

	pdb_json_bad(err, src, path, what);
	free(path);
	return -1;
}

/* Every benchmark carries its options; when all are the same they are
 * kept once as options.KEY, otherwise per benchmark. */
static int options_shared(const json_t *benchmarks)
{
	const json_t *first = json_object_get(json_array_get(benchmarks, 0), "options");
	json_t *b;
	size_t i;

	json_array_foreach(benchmarks, i, b)
		if (!json_equal(json_object_get(b, "options"), (json_t *)first))
			return 0;
	return 1;
}

/* The benchmark name without its parameter id: "test_fib[5]" -> "test_fib"
 * when the parameters are kept as dimensions. Caller frees. */
static char *base_name(const char *name, int has_params)
{
	const char *bracket = strchr(name, '[');
	size_t n = strlen(name);

	if (has_params && bracket && bracket > name && name[n - 1] == ']')
		return pdb_xstrndup(name, (size_t)(bracket - name));
	return pdb_xstrdup(name);
}

/* The arrays a big file is made of: read packed. */
static const char *const packed_paths[] = { "$.benchmarks[*].stats.data", NULL };

/* stats: data[] as samples of time, the times as its stats, ops as a series
 * of its own (ops/s, higher is better), counts (rounds, iterations,
 * outliers) as attributes of the benchmark. */
static int parse_stats(const struct pdb_source *src, struct pdb_json_doc *doc,
		       struct pdb_run *run, struct pdb_result *r, const json_t *stats,
		       const char *name, size_t idx, struct pdb_err *err)
{
	const json_t *data = json_object_get(stats, "data"), *ops;
	const struct pdb_json_numbers *nums = pdb_json_doc_numbers(doc, data);
	const char *key;
	json_t *v;
	double x;
	size_t i, skipped = 0;

	if (!json_is_object(stats))
		return bad(err, src, idx, ".stats", "expected an object");
	if (data && !json_is_array(data))
		return bad(err, src, idx, ".stats.data", "expected an array of numbers");
	pdb_grow((void **)&r->samples, &r->capsamples,
		 nums ? nums->n : json_array_size(data), sizeof *r->samples);
	if (nums) {
		for (i = 0; i < nums->n; i++)
			pdb_result_add_raw(r, nums->values[i]);
		pdb_json_doc_drop(doc, data);
		data = NULL; /* read: the loop below is for a jansson array */
	}
	json_array_foreach(data, i, v) {
		if (json_is_string(v) && pdb_json_num(v, &x) < 0) {
			/* an elision note ("... omitted"): counted, not a value */
			skipped++;
			continue;
		}
		if (pdb_json_num(v, &x) < 0) {
			char *rest = pdb_xasprintf(".stats.data[%zu]", i);
			bad(err, src, idx, rest, "expected a number");
			free(rest);
			return -1;
		}
		pdb_result_add_raw(r, x);
	}
	if (skipped) {
		char text[32];
		snprintf(text, sizeof text, "%zu", skipped);
		pdb_attr_set_bench(run, "data_skipped", name, text);
	}
	json_object_foreach((json_t *)stats, key, v) {
		if (strcmp(key, "data") == 0 || strcmp(key, "ops") == 0 || json_is_null(v))
			continue;
		if (!in_list(time_stats, key)) {
			char *text = pdb_json_text(v);
			pdb_attr_set_bench(run, key, name, text);
			free(text);
		} else if (pdb_json_num(v, &x) == 0) {
			pdb_result_set_stat_raw(r, key, x);
		} else {
			char *rest = pdb_xasprintf(".stats.%s", key);
			bad(err, src, idx, rest, "expected a number");
			free(rest);
			return -1;
		}
	}
	ops = json_object_get(stats, "ops");
	if (ops && !json_is_null(ops)) {
		struct pdb_result *o;
		if (pdb_json_num(ops, &x) < 0)
			return bad(err, src, idx, ".stats.ops", "expected a number");
		/* r is not used after this: adding a result may move it */
		o = pdb_run_result_with_dims(run, r->benchmark, r->dims, r->ndims, "ops", "ops/s");
		pdb_result_set_stat(o, "mean", x);
	}
	return 0;
}

/* One element of benchmarks[]: name and params make the series. */

/* What a benchmark's rounds measured: its options.timer (--benchmark-timer)
 * is a clock of the process's or thread's CPU time (time.process_time,
 * time.thread_time: "process_time", "thread_time") or a wall clock
 * (perf_counter, the default, and the rest): cpu_time or time. */
static const char *timer_metric(const json_t *b)
{
	const json_t *o = json_object_get(b, "options");
	const char *t = json_is_object(o) ? json_string_value(json_object_get(o, "timer")) : NULL;

	if (t && (strstr(t, "process_time") || strstr(t, "thread_time")))
		return PDB_METRIC_CPU;
	return "time";
}

static int parse_benchmark(const struct pdb_source *src, struct pdb_json_doc *doc,
			   struct pdb_run *run, const json_t *b, size_t idx, int shared_options,
			   struct pdb_err *err)
{
	const char *name = pdb_json_str(b, "name"), *key;
	const json_t *params = json_object_get(b, "params");
	int has_params = json_is_object(params) && json_object_size(params) > 0;
	struct pdb_attr *dims = NULL;
	struct pdb_result *r;
	size_t ndims = 0;
	char *bench = NULL;
	json_t *v;
	int ret = -1;

	if (!json_is_object(b))
		return bad(err, src, idx, "", "expected an object");
	if (!name && !(name = pdb_json_str(b, "fullname")))
		return bad(err, src, idx, ".name", "expected a string");
	if (params && !json_is_null(params) && !json_is_object(params))
		return bad(err, src, idx, ".params", "expected an object");
	if (has_params) {
		dims = pdb_xcalloc(json_object_size(params), sizeof *dims);
		json_object_foreach((json_t *)params, key, v) {
			dims[ndims].key = (char *)key;
			dims[ndims++].value = pdb_json_text(v);
		}
	}
	bench = base_name(name, has_params);
	r = pdb_run_result_with_dims(run, bench, dims, ndims, timer_metric(b), "s");
	if (strcmp(bench, name) != 0)
		pdb_set_str(&r->raw_name, name);
	if (parse_stats(src, doc, run, r, json_object_get(b, "stats"), name, idx, err) < 0)
		goto out;
	json_object_foreach((json_t *)b, key, v) {
		if (strcmp(key, "name") == 0 || strcmp(key, "params") == 0 ||
		    strcmp(key, "stats") == 0 || strcmp(key, "param") == 0 || json_is_null(v))
			continue;
		if (json_is_object(v)) {
			char *prefix = shared_options && strcmp(key, "options") == 0
				? pdb_xstrdup(key) : pdb_xasprintf("%s[%s]", key, name);
			pdb_attr_flatten(run, prefix, v);
			free(prefix);
		} else {
			char *text = pdb_json_text(v);
			pdb_attr_set_bench(run, key, name, text);
			free(text);
		}
	}
	ret = 0;
out:
	for (size_t i = 0; i < ndims; i++)
		free(dims[i].value);
	free(dims);
	free(bench);
	return ret;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct pdb_json_doc doc;
	json_t *benchmarks, *v;
	const char *key, *date;
	char at[32];
	size_t i;
	int ret = -1, shared;

	if (pdb_json_doc_load(src, packed_paths, 0, &doc, err) < 0)
		goto out;
	if (!json_is_object(doc.root)) {
		pdb_json_bad(err, src, "$", "expected an object");
		goto out;
	}
	benchmarks = json_object_get(doc.root, "benchmarks");
	if (!json_is_array(benchmarks)) {
		pdb_json_bad(err, src, "$.benchmarks", "expected an array");
		goto out;
	}
	shared = options_shared(benchmarks);
	json_array_foreach(benchmarks, i, v) {
		pdb_json_entry(run, "$.benchmarks", i);
		if (parse_benchmark(src, &doc, run, v, i, shared, err) < 0)
			goto out;
	}
	json_object_foreach(doc.root, key, v) {
		if (strcmp(key, "benchmarks") == 0)
			continue;
		if (strcmp(key, "machine_info") == 0 && json_is_object(v))
			pdb_attr_flatten(run, "machine", v);
		else if (strcmp(key, "commit_info") == 0 && json_is_object(v))
			pdb_attr_flatten(run, "commit", v);
		else if (json_is_object(v))
			pdb_attr_flatten(run, key, v);
		else
			pdb_attr_set_json(run, key, v);
	}
	/* the time it was measured: the plugin writes UTC (utcnow), without an
	 * offset before pytest-benchmark 4 */
	date = pdb_json_str(doc.root, "datetime");
	if (date && pdb_utc_from_iso8601(date, 1, at) == 0)
		pdb_set_str(&run->created_at, at);
	if (!pdb_run_get_attr(run, "host") && pdb_run_get_attr(run, "machine.node"))
		pdb_run_set_attr(run, "host", pdb_run_get_attr(run, "machine.node"));
	pdb_set_str(&run->tool, "pytest-benchmark");
	ret = 0;
out:
	pdb_json_doc_free(&doc);
	return ret;
}

const struct pdb_format pdb_format_pytest_benchmark = {
	.name = "pytest-benchmark",
	.summary = "pytest-benchmark --benchmark-json: rounds as samples, stats, params as dims",
	.detect = detect,
	.parse = parse,
};
