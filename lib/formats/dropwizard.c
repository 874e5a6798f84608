/* Format: Dropwizard (Codahale) metrics JSON: gauges, counters, histograms, meters, timers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "parse/json_util.h"
#include "util.h"

#define N(a) (sizeof a / sizeof a[0])

/* Snapshot fields of histograms and timers and the statistic each is. */
static const struct {
	const char *key, *stat;
} snapshot[] = {
	{ "min", "min" },   { "max", "max" },   { "mean", "mean" }, { "stddev", "stddev" },
	{ "p50", "p50" },   { "p75", "p75" },   { "p95", "p95" },   { "p98", "p98" },
	{ "p99", "p99" },   { "p999", "p99.9" },
};

/* Rate fields of meters and timers. */
static const struct {
	const char *key, *stat;
} rate_fields[] = {
	{ "mean_rate", "mean" }, { "m1_rate", "m1_rate" }, { "m5_rate", "m5_rate" },
	{ "m15_rate", "m15_rate" },
};

/* java.util.concurrent.TimeUnit names (lowercased, as Dropwizard writes them). */
static const struct {
	const char *name, *unit;
} time_units[] = {
	{ "nanoseconds", "ns" }, { "microseconds", "us" }, { "milliseconds", "ms" },
	{ "seconds", "s" },      { "minutes", "min" },     { "hours", "h" },
};

static const char *const sections[] = { "gauges", "counters", "histograms", "meters", "timers" };

struct ctx {
	const struct pdb_source *src;
	struct pdb_run *run;
	char path[512];
};

static int detect(const struct pdb_source *src)
{
	int n = 0;

	if (pdb_head_first(src) != '{' || !pdb_head_has(src, "\"version\""))
		return 0;
	for (size_t i = 0; i < N(sections); i++) {
		char key[32];
		snprintf(key, sizeof key, "\"%s\"", sections[i]);
		n += pdb_head_has(src, key);
	}
	return n >= 3 ? 80 : 0;
}

static int bad(struct ctx *c, const char *field, const char *what, struct pdb_err *err)
{
	char *path = pdb_xasprintf("%s%s%s", c->path, field ? "." : "", field ? field : "");

	pdb_json_bad(err, c->src, path, what);
	free(path);
	return -1;
}

/* obj[key] as a number: 1 found, 0 absent, -1 wrong type (err set). */
static int num(struct ctx *c, const json_t *obj, const char *key, double *out,
	       struct pdb_err *err)
{
	const json_t *v = json_object_get(obj, key);

	if (!v || json_is_null(v))
		return 0;
	if (pdb_json_num(v, out) == 0)
		return 1;
	bad(c, key, "expected a number", err);
	return -1;
}

static const char *duration_unit(const char *name)
{
	for (size_t i = 0; name && i < N(time_units); i++)
		if (strcmp(time_units[i].name, name) == 0)
			return time_units[i].unit;
	return name;
}

/* A metric with one value: gauge value or counter count. */
static int single(struct ctx *c, const char *bench, const json_t *m, const char *key,
		  const char *metric, int gauge, struct pdb_err *err)
{
	const json_t *v = json_object_get(m, key);
	struct pdb_result *r;
	double x;

	if (!v || json_is_null(v))
		return 0;
	if (pdb_json_num(v, &x) < 0) {
		if (gauge) { /* a gauge of text, a list...: kept as it is */
			char *name = pdb_xasprintf("dropwizard.%s[%s]", key, bench);
			pdb_attr_set_json(c->run, name, v);
			free(name);
			return 0;
		}
		return bad(c, key, "expected a number", err);
	}
	r = pdb_run_add_result(c->run, bench, metric, "count");
	pdb_result_add_raw(r, x);
	return 0;
}

static int stats(struct ctx *c, const json_t *m, struct pdb_result *r,
		 const char *stat_key, const char *stat_name, struct pdb_err *err)
{
	double x;
	int rc = num(c, m, stat_key, &x, err);

	if (rc > 0)
		pdb_result_set_stat_raw(r, stat_name, x);
	return rc < 0 ? -1 : 0;
}

static int distribution(struct ctx *c, const char *bench, const json_t *m,
			const char *metric, const char *unit, struct pdb_err *err)
{
	struct pdb_result *r = pdb_run_add_result(c->run, bench, metric, unit);

	if (!unit)
		r->direction = PDB_DIR_NONE;
	for (size_t i = 0; i < N(snapshot); i++)
		if (stats(c, m, r, snapshot[i].key, snapshot[i].stat, err) < 0)
			return -1;
	return 0;
}

static int rates(struct ctx *c, const char *bench, const json_t *m, const char *unit,
		 struct pdb_err *err)
{
	struct pdb_result *r = pdb_run_add_result(c->run, bench, "rate", unit);

	for (size_t i = 0; i < N(rate_fields); i++)
		if (stats(c, m, r, rate_fields[i].key, rate_fields[i].stat, err) < 0)
			return -1;
	return 0;
}

/* Fields not read into results are kept as attributes. */
static void keep_rest(struct ctx *c, const char *bench, const json_t *m)
{
	static const char *const read[] = {
		"value", "count", "min", "max", "mean", "stddev", "p50", "p75", "p95",
		"p98", "p99", "p999", "mean_rate", "m1_rate", "m5_rate", "m15_rate",
	};
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)m, key, v) {
		size_t i;
		char *name;
		for (i = 0; i < N(read); i++)
			if (strcmp(read[i], key) == 0)
				break;
		if (i < N(read))
			continue;
		name = pdb_xasprintf("dropwizard.%s[%s]", key, bench);
		pdb_attr_set_json(c->run, name, v);
		free(name);
	}
}

static int one_metric(struct ctx *c, const char *section, const char *bench,
		      const json_t *m, struct pdb_err *err)
{
	const char *rate_unit;

	if (!json_is_object(m))
		return bad(c, NULL, "expected an object", err);
	keep_rest(c, bench, m);
	if (strcmp(section, "gauges") == 0)
		return single(c, bench, m, "value", "value", 1, err);
	if (single(c, bench, m, "count", "count", 0, err) < 0)
		return -1;
	if (strcmp(section, "histograms") == 0)
		return distribution(c, bench, m, "value", NULL, err);
	if (strcmp(section, "meters") == 0) {
		rate_unit = pdb_json_str(m, "units");
		return rates(c, bench, m, rate_unit ? rate_unit : "events/second", err);
	}
	if (strcmp(section, "timers") == 0) {
		rate_unit = pdb_json_str(m, "rate_units");
		if (distribution(c, bench, m, "duration",
				 duration_unit(pdb_json_str(m, "duration_units")), err) < 0)
			return -1;
		return rates(c, bench, m, rate_unit ? rate_unit : "calls/second", err);
	}
	return 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	json_t *doc = pdb_json_load(src, err), *v;
	struct ctx c = { .src = src, .run = run };
	const char *key;
	int ret = -1;

	if (!doc)
		return -1;
	if (!json_is_object(doc)) {
		pdb_json_bad(err, src, "$", "expected a Dropwizard metrics object");
		goto out;
	}
	pdb_set_str(&run->tool, "dropwizard");
	json_object_foreach(doc, key, v) {
		const char *name;
		json_t *m;
		size_t i;
		for (i = 0; i < N(sections); i++)
			if (strcmp(sections[i], key) == 0)
				break;
		if (i == N(sections)) {
			char *attr = pdb_xasprintf("dropwizard.%s", key);
			pdb_attr_set_json(run, attr, v);
			free(attr);
			continue;
		}
		if (!json_is_object(v)) {
			snprintf(c.path, sizeof c.path, "$.%s", key);
			bad(&c, NULL, "expected an object of metrics", err);
			goto out;
		}
		json_object_foreach(v, name, m) {
			snprintf(c.path, sizeof c.path, "$.%s[\"%s\"]", key, name);
			if (one_metric(&c, key, name, m, err) < 0)
				goto out;
		}
	}
	ret = 0;
out:
	json_decref(doc);
	return ret;
}

const struct pdb_format pdb_format_dropwizard = {
	.name = "dropwizard",
	.summary = "Dropwizard/Codahale metrics JSON: timers, histograms, meters, counters, gauges",
	.detect = detect,
	.parse = parse,
};
