/* Format: k6 end-of-test summary JSON (--summary-export and the handleSummary data). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "parse/json_util.h"
#include "util.h"

#define N(a) (sizeof a / sizeof a[0])
#define BENCH "k6"

/* Built-in metrics whose values are times in milliseconds, for the legacy
 * export that does not say what a metric contains. */
static const char *const time_metrics[] = {
	"http_req_duration", "http_req_blocked", "http_req_connecting",
	"http_req_tls_handshaking", "http_req_sending", "http_req_waiting",
	"http_req_receiving", "iteration_duration", "group_duration",
	"ws_connecting", "ws_session", "ws_ping", "grpc_req_duration",
	"browser_web_vital_lcp", "browser_web_vital_fcp",
};
static const char *const data_metrics[] = { "data_received", "data_sent" };

/* Which way is better for built-in metrics (others: none). */
static const struct {
	const char *name;
	int direction;
} directions[] = {
	{ "http_reqs.rate", PDB_DIR_HIGHER }, { "iterations.rate", PDB_DIR_HIGHER },
	{ "checks", PDB_DIR_HIGHER },         { "http_req_failed", PDB_DIR_LOWER },
	{ "dropped_iterations.count", PDB_DIR_LOWER },
};

struct ctx {
	const struct pdb_source *src;
	struct pdb_run *run;
	char path[512];
	struct pdb_attr dims[16];
	size_t ndims;
	char tags[512]; /* storage of dims */
};

static int detect(const struct pdb_source *src)
{
	if (pdb_head_first(src) != '{' || !pdb_head_has(src, "\"metrics\"") ||
	    !pdb_head_has(src, "\"root_group\""))
		return 0;
	return pdb_head_has(src, "\"checks\"") || pdb_head_has(src, "\"vus\"") ||
	       pdb_head_has(src, "\"http_reqs\"") || pdb_head_has(src, "\"iterations\"") ? 85 : 60;
}

static int listed(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return 1;
	return 0;
}

static int bad(struct ctx *c, const char *field, const char *what, struct pdb_err *err)
{
	char *path = pdb_xasprintf("%s%s%s", c->path, field ? "." : "", field ? field : "");

	pdb_json_bad(err, c->src, path, what);
	free(path);
	return -1;
}

/* "http_req_duration{status:200,method:GET}": base name into base, tags into dims. */
static void split_name(struct ctx *c, const char *full, char *base, size_t size)
{
	const char *brace = strchr(full, '{');
	size_t len = brace ? (size_t)(brace - full) : strlen(full);
	char *p, *save = NULL, *tok;

	snprintf(base, size, "%.*s", (int)len, full);
	c->ndims = 0;
	if (!brace)
		return;
	snprintf(c->tags, sizeof c->tags, "%s", brace + 1);
	p = strrchr(c->tags, '}');
	if (p)
		*p = '\0';
	for (tok = strtok_r(c->tags, ",", &save); tok && c->ndims < N(c->dims);
	     tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		if (!colon)
			continue;
		*colon = '\0';
		c->dims[c->ndims].key = tok;
		c->dims[c->ndims].value = colon + 1;
		c->ndims++;
	}
}

static struct pdb_result *result(struct ctx *c, const char *metric, const char *unit,
				 const char *raw_name)
{
	struct pdb_result *r = pdb_run_result_with_dims(c->run, BENCH, c->dims, c->ndims,
							metric, unit);
	int direction = PDB_DIR_NONE;

	for (size_t i = 0; i < N(directions); i++)
		if (strcmp(directions[i].name, metric) == 0)
			direction = directions[i].direction;
	if (strcmp(r->unit, "s") != 0) /* times keep lower-is-better */
		r->direction = direction;
	if (strcmp(raw_name, metric) != 0)
		pdb_set_str(&r->raw_name, raw_name);
	return r;
}

/* values[key] as a number: 1 found, 0 absent, -1 wrong type. */
static int num(struct ctx *c, const json_t *values, const char *key, double *out,
	       struct pdb_err *err)
{
	const json_t *v = json_object_get(values, key);

	if (!v || json_is_null(v))
		return 0;
	if (pdb_json_num(v, out) == 0)
		return 1;
	bad(c, key, "expected a number", err);
	return -1;
}

/* avg, min, med, max, p(N), count. */
static int trend(struct ctx *c, const char *base, const char *full, const json_t *values,
		 const char *unit, struct pdb_err *err)
{
	struct pdb_result *r = result(c, base, unit, full);
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)values, key, v) {
		char stat[48];
		double x, p;
		size_t len = strlen(key);
		if (strcmp(key, "thresholds") == 0) /* legacy: beside the values */
			continue;
		if (num(c, values, key, &x, err) < 0)
			return -1;
		if (strcmp(key, "avg") == 0) {
			pdb_result_set_stat_raw(r, "mean", x);
		} else if (strcmp(key, "med") == 0) {
			pdb_result_set_stat_raw(r, "median", x);
			pdb_result_set_stat_raw(r, "p50", x);
		} else if (strcmp(key, "min") == 0 || strcmp(key, "max") == 0) {
			pdb_result_set_stat_raw(r, key, x);
		} else if (len > 3 && strncmp(key, "p(", 2) == 0 && key[len - 1] == ')') {
			char digits[32], text[32];
			snprintf(digits, sizeof digits, "%.*s", (int)(len - 3), key + 2);
			if (pdb_parse_double(digits, &p) < 0)
				return bad(c, key, "expected a percentile such as p(95)", err);
			pdb_fmt_double(p, text);
			snprintf(stat, sizeof stat, "p%s", text);
			pdb_result_set_stat_raw(r, stat, x);
		} else { /* count and anything else: how many values, not a time */
			char *name = pdb_xasprintf("k6.%s[%s]", key, full);
			pdb_attr_set_json(c->run, name, v);
			free(name);
		}
	}
	return 0;
}

static int one_value(struct ctx *c, const char *metric, const char *unit, const char *full,
		     const json_t *values, const char *key, struct pdb_err *err)
{
	double x;
	int rc = num(c, values, key, &x, err);

	if (rc > 0)
		pdb_result_add_raw(result(c, metric, unit, full), x);
	return rc < 0 ? -1 : 0;
}

/* count and rate (per second). */
static int counter(struct ctx *c, const char *base, const char *full, const json_t *values,
		   int data, struct pdb_err *err)
{
	char metric[300];

	snprintf(metric, sizeof metric, "%s.count", base);
	if (one_value(c, metric, data ? "B" : "count", full, values, "count", err) < 0)
		return -1;
	snprintf(metric, sizeof metric, "%s.rate", base);
	return one_value(c, metric, data ? "B/s" : "count/s", full, values, "rate", err);
}

/* rate (a ratio; "value" in the legacy export), passes and fails. */
static int rate(struct ctx *c, const char *base, const char *full, const json_t *values,
		const char *ratio_key, struct pdb_err *err)
{
	char metric[300];

	if (one_value(c, base, "ratio", full, values, ratio_key, err) < 0)
		return -1;
	snprintf(metric, sizeof metric, "%s.passes", base);
	if (one_value(c, metric, "count", full, values, "passes", err) < 0)
		return -1;
	snprintf(metric, sizeof metric, "%s.fails", base);
	return one_value(c, metric, "count", full, values, "fails", err);
}

/* value, min, max. */
static int gauge(struct ctx *c, const char *base, const char *full, const json_t *values,
		 const char *unit, struct pdb_err *err)
{
	struct pdb_result *r;
	double x;
	int rc;

	if (one_value(c, base, unit, full, values, "value", err) < 0)
		return -1;
	r = result(c, base, unit, full);
	if ((rc = num(c, values, "min", &x, err)) < 0)
		return -1;
	if (rc)
		pdb_result_set_stat_raw(r, "min", x);
	if ((rc = num(c, values, "max", &x, err)) < 0)
		return -1;
	if (rc)
		pdb_result_set_stat_raw(r, "max", x);
	return 0;
}

/* Thresholds: legacy {"expr": failed?}, handleSummary {"expr": {"ok": bool}}. */
static int thresholds(struct ctx *c, const char *full, const json_t *th, struct pdb_err *err)
{
	const char *expr;
	json_t *v;

	if (!th)
		return 0;
	if (!json_is_object(th))
		return bad(c, "thresholds", "expected an object", err);
	json_object_foreach((json_t *)th, expr, v) {
		const json_t *ok = json_is_object(v) ? json_object_get(v, "ok") : NULL;
		char *name;
		int passed;
		if (json_is_boolean(ok))
			passed = json_is_true(ok);
		else if (json_is_boolean(v))
			passed = !json_is_true(v); /* legacy: true means it failed */
		else
			return bad(c, "thresholds", "expected true/false or {\"ok\": true/false}", err);
		name = pdb_xasprintf("k6.threshold[%s][%s]", full, expr);
		pdb_run_set_attr(c->run, name, passed ? "ok" : "failed");
		free(name);
	}
	return 0;
}

static int one_metric(struct ctx *c, const char *full, const json_t *m, struct pdb_err *err)
{
	const json_t *values = json_object_get(m, "values");
	const char *type = pdb_json_str(m, "type"), *contains = pdb_json_str(m, "contains");
	char base[256];
	size_t path_len = strlen(c->path);
	int data, time, ret;

	if (!json_is_object(m))
		return bad(c, NULL, "expected an object", err);
	split_name(c, full, base, sizeof base);
	if (type) { /* handleSummary data */
		if (!json_is_object(values))
			return bad(c, "values", "expected an object", err);
		time = contains && strcmp(contains, "time") == 0;
		data = contains && strcmp(contains, "data") == 0;
		snprintf(c->path + path_len, sizeof c->path - path_len, ".values");
	} else { /* legacy export: the values are the members themselves */
		values = m;
		time = listed(time_metrics, N(time_metrics), base);
		data = listed(data_metrics, N(data_metrics), base);
		if (json_object_get(m, "avg") || json_object_get(m, "med"))
			type = "trend";
		else if (json_object_get(m, "passes") || json_object_get(m, "fails"))
			type = "rate";
		else if (json_object_get(m, "rate"))
			type = "counter";
		else if (json_object_get(m, "value"))
			type = "gauge";
		else
			return bad(c, NULL, "cannot tell the metric type from its fields", err);
	}
	/* a trend that is neither time nor data: its unit is not known */
	if (strcmp(type, "trend") == 0)
		ret = trend(c, base, full, values, time ? "ms" : data ? "B" : "k6-value", err);
	else if (strcmp(type, "counter") == 0)
		ret = counter(c, base, full, values, data, err);
	else if (strcmp(type, "rate") == 0)
		ret = rate(c, base, full, values, json_object_get(values, "rate") ? "rate" : "value", err);
	else if (strcmp(type, "gauge") == 0)
		ret = gauge(c, base, full, values, time ? "ms" : data ? "B" : "count", err);
	else {
		c->path[path_len] = '\0';
		return bad(c, "type", "expected trend, counter, rate or gauge", err);
	}
	if (ret < 0)
		return -1;
	c->ndims = 0;
	c->path[path_len] = '\0';
	return thresholds(c, full, json_object_get(m, "thresholds"), err);
}

/* Checks of a group and its subgroups: passes and fails per check path.
 * Legacy: objects keyed by name; handleSummary: arrays. */
static int group(struct ctx *c, const json_t *g, const char *path, struct pdb_err *err)
{
	const json_t *checks = json_object_get(g, "checks"), *groups = json_object_get(g, "groups");
	const json_t *v;
	const char *key;
	size_t i;

	if (!json_is_object(g)) {
		snprintf(c->path, sizeof c->path, "%s", path);
		return bad(c, NULL, "expected a group object", err);
	}
	c->ndims = 0;
	if (json_is_array(checks) || json_is_object(checks)) {
		void *it = json_is_object(checks) ? json_object_iter((json_t *)checks) : NULL;
		for (i = 0;; i++) {
			const char *cpath;
			char *sub;
			if (json_is_array(checks)) {
				if (i >= json_array_size(checks))
					break;
				v = json_array_get(checks, i);
				sub = pdb_xasprintf("%s.checks[%zu]", path, i);
			} else {
				if (!it)
					break;
				v = json_object_iter_value(it);
				sub = pdb_xasprintf("%s.checks[\"%s\"]", path, json_object_iter_key(it));
				it = json_object_iter_next((json_t *)checks, it);
			}
			snprintf(c->path, sizeof c->path, "%s", sub);
			free(sub);
			cpath = pdb_json_str(v, "path");
			if (!cpath)
				return bad(c, "path", "expected the check path (a string)", err);
			c->dims[0].key = "check";
			c->dims[0].value = (char *)cpath;
			c->ndims = 1;
			if (one_value(c, "check.passes", "count", "check.passes", v, "passes", err) < 0 ||
			    one_value(c, "check.fails", "count", "check.fails", v, "fails", err) < 0)
				return -1;
		}
	}
	c->ndims = 0;
	if (json_is_array(groups)) {
		json_array_foreach(groups, i, v) {
			char *sub = pdb_xasprintf("%s.groups[%zu]", path, i);
			int rc = group(c, v, sub, err);
			free(sub);
			if (rc < 0)
				return -1;
		}
	} else if (json_is_object(groups)) {
		json_object_foreach((json_t *)groups, key, v) {
			char *sub = pdb_xasprintf("%s.groups[\"%s\"]", path, key);
			int rc = group(c, v, sub, err);
			free(sub);
			if (rc < 0)
				return -1;
		}
	}
	return 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	json_t *doc = pdb_json_load(src, err), *metrics, *v;
	struct ctx c = { .src = src, .run = run };
	const char *key;
	int ret = -1;

	if (!doc)
		return -1;
	if (!json_is_object(doc)) {
		pdb_json_bad(err, src, "$", "expected a k6 summary object");
		goto out;
	}
	metrics = json_object_get(doc, "metrics");
	if (!json_is_object(metrics)) {
		pdb_json_bad(err, src, "$.metrics", "expected an object of metrics");
		goto out;
	}
	pdb_set_str(&run->tool, "k6");
	json_object_foreach(metrics, key, v) {
		snprintf(c.path, sizeof c.path, "$.metrics[\"%s\"]", key);
		if (one_metric(&c, key, v, err) < 0)
			goto out;
	}
	if (json_object_get(doc, "root_group") &&
	    group(&c, json_object_get(doc, "root_group"), "$.root_group", err) < 0)
		goto out;
	json_object_foreach(doc, key, v) {
		char *name;
		if (strcmp(key, "metrics") == 0 || strcmp(key, "root_group") == 0)
			continue;
		name = pdb_xasprintf("k6.%s", key);
		if (json_is_object(v))
			pdb_attr_flatten(run, name, v);
		else
			pdb_attr_set_json(run, name, v);
		free(name);
	}
	ret = 0;
out:
	json_decref(doc);
	return ret;
}

const struct pdb_format pdb_format_k6 = {
	.name = "k6",
	.summary = "k6 summary JSON (--summary-export or handleSummary data): trends, counters, rates, gauges, checks",
	.detect = detect,
	.parse = parse,
};
