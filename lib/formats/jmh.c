/* Format: JMH JSON (-rf json): an array of benchmarks with primary and secondary metrics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "parse/json_util.h"
#include "util.h"

/* Keys read into the model; every other key of a benchmark is kept as a run
 * attribute when all benchmarks agree on it, else as a dimension. */
static const char *const read_keys[] = {
	"benchmark", "mode", "params", "primaryMetric", "secondaryMetrics",
};

static const struct {
	const char *mode, *metric;
} modes[] = {
	{ "thrpt", "throughput" },
	{ "avgt", "avg_time" },
	{ "sample", "sample_time" },
	{ "ss", "single_shot_time" },
};

static int detect(const struct pdb_source *src)
{
	return !src->is_dir && pdb_head_first(src) == '[' &&
	       pdb_head_has(src, "\"primaryMetric\"") && pdb_head_has(src, "\"benchmark\"") &&
	       pdb_head_has(src, "\"mode\"") ? 95 : 0;
}

static int is_read_key(const char *k)
{
	for (size_t i = 0; i < sizeof read_keys / sizeof read_keys[0]; i++)
		if (strcmp(read_keys[i], k) == 0)
			return 1;
	return 0;
}

/* "50.0" -> "p50", "99.99" -> "p99.99"; "0.0" -> "min", "100.0" -> "max". */
static char *percentile_name(const char *key)
{
	size_t n = strlen(key);

	if (n > 2 && strcmp(key + n - 2, ".0") == 0)
		n -= 2;
	if (n == 1 && key[0] == '0')
		return pdb_xstrdup("min");
	if (n == 3 && strncmp(key, "100", 3) == 0)
		return pdb_xstrdup("max");
	return pdb_xasprintf("p%.*s", (int)n, key);
}

static int bad_at(struct pdb_err *err, const struct pdb_source *src,
		  const char *path, const char *key, const char *what)
{
	char *where = pdb_xasprintf("%s.%s", path, key);
	int ret = pdb_json_bad(err, src, where, what);

	free(where);
	return ret;
}

/* rawData: [[iteration values of fork 1], [fork 2], ...]. */
static int add_raw_data(const struct pdb_source *src, json_t *raw, const char *path,
			struct pdb_result *r, struct pdb_err *err)
{
	char where[1024];
	json_t *fork, *v;
	size_t f, i;

	if (!json_is_array(raw))
		return bad_at(err, src, path, "rawData", "expected an array of forks");
	json_array_foreach(raw, f, fork) {
		snprintf(where, sizeof where, "%s.rawData[%zu]", path, f);
		if (!json_is_array(fork))
			return pdb_json_bad(err, src, where, "expected an array of numbers");
		json_array_foreach(fork, i, v) {
			double d;
			if (pdb_json_num(v, &d) < 0) {
				snprintf(where, sizeof where, "%s.rawData[%zu][%zu]", path, f, i);
				return pdb_json_bad(err, src, where, "expected a number");
			}
			pdb_result_add_raw(r, d);
		}
	}
	return 0;
}

/* rawDataHistogram (sample mode): forks of iterations of [value, count]. */
static int add_histogram(const struct pdb_source *src, json_t *hist, const char *path,
			 struct pdb_result *r, struct pdb_err *err)
{
	char where[1024];
	json_t *fork, *iter, *pair;
	size_t f, i, k;

	if (!json_is_array(hist))
		return bad_at(err, src, path, "rawDataHistogram", "expected an array of forks");
	json_array_foreach(hist, f, fork) {
		json_array_foreach(fork, i, iter) {
			json_array_foreach(iter, k, pair) {
				struct pdb_sample s = PDB_SAMPLE(NAN);
				double v;
				if (json_array_size(pair) != 2 ||
				    pdb_json_num(json_array_get(pair, 0), &v) < 0 ||
				    pdb_json_num(json_array_get(pair, 1), &s.weight) < 0) {
					snprintf(where, sizeof where, "%s.rawDataHistogram[%zu][%zu][%zu]",
						 path, f, i, k);
					return pdb_json_bad(err, src, where, "expected [value, count]");
				}
				s.value = pdb_result_canonical(r, v);
				pdb_result_add_sample(r, &s);
			}
		}
	}
	return 0;
}

/* One metric object {score, scoreError, scoreConfidence, scorePercentiles,
 * scoreUnit, rawData} into the series (bench, dims, metric). */
static int parse_metric(const struct pdb_source *src, json_t *m, const char *path,
			struct pdb_run *run, const char *bench, const struct pdb_attr *dims,
			size_t ndims, const char *metric, const char *raw_name,
			struct pdb_err *err)
{
	json_t *conf, *pct, *v;
	struct pdb_result *r;
	const char *unit, *k;
	double d;

	if (!json_is_object(m))
		return pdb_json_bad(err, src, path, "expected an object");
	if (!(unit = pdb_json_str(m, "scoreUnit")))
		return bad_at(err, src, path, "scoreUnit", "expected a string");
	r = pdb_run_result_with_dims(run, bench, dims, ndims, metric, unit);
	if (raw_name && strcmp(raw_name, metric) != 0)
		pdb_set_str(&r->raw_name, raw_name);
	if (json_object_get(m, "score")) {
		if (pdb_json_num(json_object_get(m, "score"), &d) < 0)
			return bad_at(err, src, path, "score", "expected a number");
		pdb_result_set_stat_raw(r, "mean", d);
	}
	/* NaN scoreError (a single iteration) stays absent */
	if (pdb_json_num(json_object_get(m, "scoreError"), &d) == 0 && d == d)
		pdb_result_set_stat_raw(r, "mean_error", d);
	conf = json_object_get(m, "scoreConfidence");
	if (conf) {
		double lo, hi;
		if (json_array_size(conf) != 2 || pdb_json_num(json_array_get(conf, 0), &lo) < 0 ||
		    pdb_json_num(json_array_get(conf, 1), &hi) < 0)
			return bad_at(err, src, path, "scoreConfidence", "expected [low, high]");
		if (lo == lo && hi == hi) {
			pdb_result_set_stat_raw(r, "mean_ci_low", lo);
			pdb_result_set_stat_raw(r, "mean_ci_high", hi);
		}
	}
	pct = json_object_get(m, "scorePercentiles");
	if (pct && !json_is_object(pct))
		return bad_at(err, src, path, "scorePercentiles", "expected an object");
	json_object_foreach(pct, k, v) {
		char *name;
		if (pdb_json_num(v, &d) < 0) {
			char where[1024];
			snprintf(where, sizeof where, "%s.scorePercentiles", path);
			return bad_at(err, src, where, k, "expected a number");
		}
		name = percentile_name(k);
		pdb_result_set_stat_raw(r, name, d);
		free(name);
	}
	if ((v = json_object_get(m, "rawData")))
		return add_raw_data(src, v, path, r, err);
	if ((v = json_object_get(m, "rawDataHistogram")))
		return add_histogram(src, v, path, r, err);
	return 0;
}

static int parse_params(const struct pdb_source *src, json_t *params, const char *path,
			struct pdb_attr **dims, size_t *ndims, size_t *cap,
			struct pdb_err *err)
{
	const char *k;
	json_t *v;

	if (!params || json_is_null(params))
		return 0;
	if (!json_is_object(params))
		return bad_at(err, src, path, "params", "expected an object");
	json_object_foreach(params, k, v) {
		pdb_grow((void **)dims, cap, *ndims + 1, sizeof **dims);
		(*dims)[*ndims].key = pdb_xstrdup(k);
		(*dims)[*ndims].value = pdb_json_text(v);
		(*ndims)++;
	}
	return 0;
}

/* Does every benchmark of doc have the same value under key? */
static int constant_key(json_t *doc, const char *key)
{
	json_t *first = json_object_get(json_array_get(doc, 0), key), *b;
	size_t i;

	json_array_foreach(doc, i, b)
		if (!json_equal(json_object_get(b, key), first))
			return 0;
	return 1;
}

static int parse_benchmark(const struct pdb_source *src, json_t *doc, json_t *b,
			   size_t i, struct pdb_run *run, struct pdb_err *err)
{
	char path[64], mpath[1024];
	const char *bench, *mode, *metric = NULL, *k;
	struct pdb_attr *dims = NULL;
	size_t ndims = 0, cap = 0;
	json_t *v, *secondary;
	int ret = -1;

	snprintf(path, sizeof path, "$[%zu]", i);
	if (!json_is_object(b))
		return pdb_json_bad(err, src, path, "expected an object");
	if (!(bench = pdb_json_str(b, "benchmark")))
		return bad_at(err, src, path, "benchmark", "expected a string");
	if (!(mode = pdb_json_str(b, "mode")))
		return bad_at(err, src, path, "mode", "expected a string");
	for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
		if (strcmp(modes[m].mode, mode) == 0)
			metric = modes[m].metric;
	if (!metric)
		return bad_at(err, src, path, "mode", "expected thrpt, avgt, sample or ss");
	if (parse_params(src, json_object_get(b, "params"), path, &dims, &ndims, &cap, err) < 0)
		goto out;
	json_object_foreach(b, k, v) {
		char *text;
		if (is_read_key(k))
			continue;
		text = pdb_json_text(v);
		if (constant_key(doc, k)) {
			pdb_run_set_attr(run, k, text);
			free(text);
			continue;
		}
		pdb_grow((void **)&dims, &cap, ndims + 1, sizeof *dims);
		dims[ndims].key = pdb_xstrdup(k);
		dims[ndims].value = text;
		ndims++;
	}
	snprintf(mpath, sizeof mpath, "%s.primaryMetric", path);
	if (!json_object_get(b, "primaryMetric")) {
		pdb_json_bad(err, src, mpath, "missing");
		goto out;
	}
	if (parse_metric(src, json_object_get(b, "primaryMetric"), mpath, run, bench, dims,
			 ndims, metric, mode, err) < 0)
		goto out;
	secondary = json_object_get(b, "secondaryMetrics");
	if (secondary && !json_is_object(secondary)) {
		bad_at(err, src, path, "secondaryMetrics", "expected an object");
		goto out;
	}
	json_object_foreach(secondary, k, v) {
		/* older JMH prefixes profiler metrics with U+00B7: "·gc.alloc.rate" */
		const char *name = strncmp(k, "\xc2\xb7", 2) == 0 ? k + 2 : k;
		snprintf(mpath, sizeof mpath, "%s.secondaryMetrics.%s", path, k);
		if (parse_metric(src, v, mpath, run, bench, dims, ndims, name, k, err) < 0)
			goto out;
	}
	ret = 0;
out:
	for (size_t d = 0; d < ndims; d++) {
		free(dims[d].key);
		free(dims[d].value);
	}
	free(dims);
	return ret;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	json_t *doc = pdb_json_load(src, err), *b;
	size_t i;
	int ret = -1;

	if (!doc)
		return -1;
	if (!json_is_array(doc)) {
		pdb_json_bad(err, src, "$", "expected an array of benchmarks");
		goto out;
	}
	json_array_foreach(doc, i, b) {
		pdb_json_entry(run, "$", i);
		if (parse_benchmark(src, doc, b, i, run, err) < 0)
			goto out;
	}
	pdb_set_str(&run->tool, "jmh");
	ret = 0;
out:
	json_decref(doc);
	return ret;
}

const struct pdb_format pdb_format_jmh = {
	.name = "jmh",
	.summary = "JMH JSON (-rf json): rawData samples, percentiles, secondary metrics",
	.detect = detect,
	.parse = parse,
};
