/* Format: OpenMessaging Benchmark result JSON (rates and latencies per 10 s period, aggregated percentiles). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/attrs_util.h"
#include "parse/json_util.h"
#include "util.h"

#define OMB_PERIOD 10.0 /* seconds between two values of a time series */

/* Rate and backlog series. */
static const struct {
	const char *key, *metric, *unit;
	int direction;
} rates[] = {
	{ "publishRate", "publish_rate", "msg/s", PDB_DIR_HIGHER },
	{ "publishErrorRate", "publish_error_rate", "msg/s", PDB_DIR_LOWER },
	{ "consumeRate", "consume_rate", "msg/s", PDB_DIR_HIGHER },
	{ "backlog", "backlog", "count", PDB_DIR_NONE },
};

/* Latency families and their units (publishDelayLatency is in microseconds). */
static const struct {
	const char *key, *agg, *metric, *unit;
} families[] = {
	{ "publishLatency", "aggregatedPublishLatency", "publish_latency", "ms" },
	{ "publishDelayLatency", "aggregatedPublishDelayLatency", "publish_delay_latency", "us" },
	{ "endToEndLatency", "aggregatedEndToEndLatency", "end_to_end_latency", "ms" },
};

static const struct {
	const char *suffix, *stat;
} suffixes[] = {
	{ "Avg", "mean" },          { "50pct", "p50" },       { "75pct", "p75" },
	{ "95pct", "p95" },         { "99pct", "p99" },       { "999pct", "p99.9" },
	{ "9999pct", "p99.99" },    { "99999pct", "p99.999" }, { "Max", "max" },
};

#define N(a) (sizeof a / sizeof a[0])

static int detect(const struct pdb_source *src)
{
	return pdb_head_first(src) == '{' && pdb_head_has(src, "\"publishRate\"") &&
	       (pdb_head_has(src, "\"publishLatencyAvg\"") ||
		pdb_head_has(src, "\"aggregatedPublishLatencyAvg\"")) ? 85 : 0;
}

/* A time series: one sample per period, t = 10 s * index. */
static int add_series(const struct pdb_source *src, struct pdb_result *r,
		      const char *key, const json_t *arr, struct pdb_err *err)
{
	size_t i;
	json_t *v;

	if (!json_is_array(arr)) {
		char *path = pdb_xasprintf("$.%s", key);
		pdb_json_bad(err, src, path, "expected an array of numbers");
		free(path);
		return -1;
	}
	json_array_foreach(arr, i, v) {
		struct pdb_sample s = PDB_SAMPLE(NAN);
		double x;

		s.t = OMB_PERIOD * (double)i;
		if (json_is_null(v))
			continue; /* a period without a value stays absent */
		if (pdb_json_num(v, &x) < 0) {
			char *path = pdb_xasprintf("$.%s[%zu]", key, i);
			pdb_json_bad(err, src, path, "expected a number");
			free(path);
			return -1;
		}
		s.value = pdb_result_canonical(r, x);
		pdb_result_add_sample(r, &s);
	}
	return 0;
}

struct quantile {
	double q, value;
};

static int cmp_quantile(const void *a, const void *b)
{
	double x = ((const struct quantile *)a)->q, y = ((const struct quantile *)b)->q;
	return (x > y) - (x < y);
}

/* {"percentile": latency} from HdrHistogram: each latency becomes a sample
 * weighted by the fraction of observations between it and the previous one. */
static int add_quantiles(const struct pdb_source *src, struct pdb_result *r,
			 const char *key, const json_t *obj, struct pdb_err *err)
{
	struct quantile *qs = NULL;
	size_t n = 0, cap = 0;
	const char *q;
	json_t *v;
	double prev = 0;
	int ret = -1;
	char *path = NULL;

	if (!json_is_object(obj)) {
		path = pdb_xasprintf("$.%s", key);
		pdb_json_bad(err, src, path, "expected an object of percentile: latency");
		goto out;
	}
	json_object_foreach((json_t *)obj, q, v) {
		struct quantile one;
		if (pdb_parse_double(q, &one.q) < 0 || one.q < 0 || one.q > 100) {
			path = pdb_xasprintf("$.%s[\"%s\"]", key, q);
			pdb_json_bad(err, src, path, "key is not a percentile");
			goto out;
		}
		if (pdb_json_num(v, &one.value) < 0) {
			path = pdb_xasprintf("$.%s[\"%s\"]", key, q);
			pdb_json_bad(err, src, path, "expected a number");
			goto out;
		}
		pdb_grow((void **)&qs, &cap, n + 1, sizeof *qs);
		qs[n++] = one;
	}
	qsort(qs, n, sizeof *qs, cmp_quantile);
	for (size_t i = 0; i < n; i++) {
		struct pdb_sample s = PDB_SAMPLE(pdb_result_canonical(r, qs[i].value));
		s.weight = (qs[i].q - prev) / 100.0;
		pdb_result_add_sample(r, &s);
		prev = qs[i].q;
	}
	ret = 0;
out:
	free(qs);
	free(path);
	return ret;
}

static int aggregated_stat(const struct pdb_source *src, struct pdb_result *r,
			   const char *key, const char *stat, const json_t *v,
			   struct pdb_err *err)
{
	double x;

	if (json_is_null(v))
		return 0;
	if (pdb_json_num(v, &x) < 0) {
		char *path = pdb_xasprintf("$.%s", key);
		pdb_json_bad(err, src, path, "expected a number");
		free(path);
		return -1;
	}
	pdb_result_set_stat_raw(r, stat, x);
	return 0;
}

/* A latency key of one family: per-period series, aggregated statistic or
 * quantiles. 1 when handled, 0 when not this family's, -1 on error. */
static int latency_key(const struct pdb_source *src, struct pdb_run *run,
		       const char *bench, const char *key, const json_t *v,
		       struct pdb_err *err)
{
	for (size_t f = 0; f < N(families); f++) {
		size_t klen = strlen(families[f].key), alen = strlen(families[f].agg);
		const char *rest;
		int agg;

		if (strncmp(key, families[f].agg, alen) == 0) {
			agg = 1;
			rest = key + alen;
		} else if (strncmp(key, families[f].key, klen) == 0) {
			agg = 0;
			rest = key + klen;
		} else {
			continue;
		}
		if (agg && strcmp(rest, "Quantiles") == 0) {
			struct pdb_result *r = pdb_run_add_result(run, bench, families[f].metric,
								  families[f].unit);
			return add_quantiles(src, r, key, v, err) < 0 ? -1 : 1;
		}
		for (size_t s = 0; s < N(suffixes); s++) {
			struct pdb_result *r;
			char *metric;
			int rc;
			if (strcmp(rest, suffixes[s].suffix) != 0)
				continue;
			if (agg) {
				r = pdb_run_add_result(run, bench, families[f].metric, families[f].unit);
				return aggregated_stat(src, r, key, suffixes[s].stat, v, err) < 0 ? -1 : 1;
			}
			metric = pdb_xasprintf("%s_%s", families[f].metric, suffixes[s].stat);
			r = pdb_run_add_result(run, bench, metric, families[f].unit);
			free(metric);
			pdb_set_str(&r->raw_name, key);
			rc = add_series(src, r, key, v, err);
			return rc < 0 ? -1 : 1;
		}
	}
	return 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	json_t *doc = pdb_json_load(src, err), *v;
	const char *key, *bench;
	int ret = -1;

	if (!doc)
		return -1;
	if (!json_is_object(doc)) {
		pdb_json_bad(err, src, "$", "expected an OpenMessaging Benchmark result object");
		goto out;
	}
	bench = pdb_json_str(doc, "workload");
	if (!bench) {
		pdb_json_bad(err, src, "$.workload", "expected the workload name (a string)");
		goto out;
	}
	pdb_set_str(&run->tool, "openmessaging-benchmark");
	json_object_foreach(doc, key, v) {
		size_t i;
		int rc;

		for (i = 0; i < N(rates); i++)
			if (strcmp(key, rates[i].key) == 0)
				break;
		if (i < N(rates)) {
			struct pdb_result *r = pdb_run_add_result(run, bench, rates[i].metric,
								  rates[i].unit);
			r->direction = rates[i].direction;
			pdb_set_str(&r->raw_name, key);
			if (add_series(src, r, key, v, err) < 0)
				goto out;
			continue;
		}
		rc = latency_key(src, run, bench, key, v, err);
		if (rc < 0)
			goto out;
		if (rc == 0) {
			char *name = pdb_xasprintf("omb.%s", key);
			if (json_is_object(v))
				pdb_attr_flatten(run, name, v);
			else
				pdb_attr_set_json(run, name, v);
			free(name);
		}
	}
	ret = 0;
out:
	json_decref(doc);
	return ret;
}

const struct pdb_format pdb_format_omb = {
	.name = "omb",
	.summary = "OpenMessaging Benchmark result JSON (10 s series, aggregated latency percentiles)",
	.detect = detect,
	.parse = parse,
};
