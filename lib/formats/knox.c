/* Format: Apache Knox gateway performance-test reports (JSON or YAML): response times, JMX timers, gauges, token statistics. */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "parse/json_util.h"
#include "util.h"
#include "yaml_doc.h"

#define N(a) (sizeof a / sizeof a[0])

struct field {
	const char *key, *stat;
};

/* Statistics of a responseTimes entry (commons-math3 StatUtils, in ms). */
static const struct field response_stats[] = {
	{ "min", "min" }, { "max", "max" }, { "mean", "mean" },
	{ "geometricMean", "geometric_mean" },
};

/* Attributes of Dropwizard's JmxReporter timer bean: the duration snapshot... */
static const struct field timer_durations[] = {
	{ "Min", "min" },		{ "Max", "max" },		{ "Mean", "mean" },
	{ "StdDev", "stddev" },		{ "50thPercentile", "p50" },	{ "75thPercentile", "p75" },
	{ "95thPercentile", "p95" },	{ "98thPercentile", "p98" },	{ "99thPercentile", "p99" },
	{ "999thPercentile", "p99.9" },
};

/* ...and the meter rates. */
static const struct field timer_rates[] = {
	{ "MeanRate", "mean" },		{ "OneMinuteRate", "m1_rate" },
	{ "FiveMinuteRate", "m5_rate" }, { "FifteenMinuteRate", "m15_rate" },
};

/* java.util.concurrent.TimeUnit names as JmxReporter writes DurationUnit. */
static const struct field time_units[] = {
	{ "nanoseconds", "ns" }, { "microseconds", "us" }, { "milliseconds", "ms" },
	{ "seconds", "s" },      { "minutes", "min" },     { "hours", "h" },
};

/* Dropwizard MemoryUsageGaugeSet gauges that are byte counts. */
static const char *const byte_gauges[] = { "init", "used", "max", "committed" };

struct ctx {
	const struct pdb_source *src;
	const struct pdb_yaml_doc *ydoc; /* NULL when the report is JSON */
	struct pdb_run *run;
	struct pdb_err *err;
	const char *path;                /* JSON path of the current entry */
	double t;                        /* the snapshot's seconds after the folder's first, or NaN */
};

static int detect(const struct pdb_source *src)
{
	if (pdb_head_has(src, "_data") && pdb_head_has(src, "ResponseTimes"))
		return 85;
	if (!pdb_head_has(src, "metrics:name="))
		return 0;
	if ((pdb_head_has(src, "type=timers") && pdb_head_has(src, "DurationUnit")) ||
	    (pdb_head_has(src, "type=gauges") && pdb_head_has(src, "Value")) ||
	    (pdb_head_has(src, "type=Statistics") && pdb_head_has(src, "NumberOfTokens")))
		return 85;
	return 0;
}

/* "FILE: PATH.KEY: what" (JSON) or "FILE:LINE:COL: PATH.KEY: what" (YAML). */
static int bad(struct ctx *c, const json_t *node, const char *key, const char *what)
{
	char *path = key ? pdb_xasprintf("%s.%s", c->path, key) : pdb_xstrdup(c->path);

	if (c->ydoc)
		pdb_yaml_bad(c->ydoc, node, PDB_EXIT_INPUT, c->err, "%s: %s", path, what);
	else
		pdb_json_bad(c->err, c->src, path, what);
	free(path);
	return -1;
}

/* A number as Jackson writes a double: a JSON number, or the strings NaN,
 * Infinity, -Infinity (YAML: plain NaN). 1 finite, 0 not finite, -1 not a number. */
static int number(const json_t *v, double *out)
{
	static const char *const nonfinite[] = { "NaN", "Infinity", "-Infinity" };

	if (json_is_number(v)) {
		*out = json_number_value(v);
		return 1;
	}
	for (size_t i = 0; json_is_string(v) && i < N(nonfinite); i++)
		if (strcmp(json_string_value(v), nonfinite[i]) == 0)
			return 0;
	return -1;
}

static void keep(struct ctx *c, const char *key, const char *bench, const json_t *v)
{
	char *name = pdb_xasprintf("knox.%s[%s]", key, bench);

	pdb_attr_set_json(c->run, name, v);
	free(name);
}

/* A snapshot's time from its name, REPORT.yyyy-MM-dd-HH-mm-ss.EXT (the
 * clock of the machine that wrote it; only differences count): seconds, or
 * -1 when the name carries none. */
static double name_time(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path, *dot = strchr(base, '.');
	struct tm tm = { 0 };
	int n = 0;

	if (!dot || sscanf(dot + 1, "%4d-%2d-%2d-%2d-%2d-%2d.%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 || n != 20)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm);
}

/* The snapshot's time after the first of its folder (Knox writes every
 * report each period, so the folder's earliest name is the test's first
 * period), whatever order the files are read in; NaN without a time. */
static double snapshot_time(const struct pdb_source *src)
{
	double own = src->path ? name_time(src->path) : -1, first = own;
	const char *slash;
	char *dir;
	DIR *d;
	struct dirent *e;

	if (own < 0)
		return NAN;
	slash = strrchr(src->path, '/');
	dir = slash ? pdb_xstrndup(src->path, (size_t)(slash - src->path) + 1) : pdb_xstrdup(".");
	if ((d = opendir(dir))) {
		while ((e = readdir(d))) {
			double t = name_time(e->d_name);
			if (t >= 0 && t < first)
				first = t;
		}
		closedir(d);
	}
	free(dir);
	return own - first;
}

/* The series (bench, metric), emptied: a later snapshot of a report (Knox
 * writes one every period, each holding everything so far) replaces it. */
static struct pdb_result *series(struct ctx *c, const char *bench, const char *metric,
				 const char *unit)
{
	struct pdb_result *r = pdb_run_add_result(c->run, bench, metric, unit);

	r->nsamples = 0;
	for (size_t i = 0; i < r->nstats; i++)
		free(r->stats[i].name);
	r->nstats = 0;
	return r;
}

/* A value over time: appended at the snapshot's time (ordered by it, a
 * snapshot read again replacing its value); without a time, the newest
 * snapshot's value alone, as series() does. */
static void add_over_time(struct ctx *c, struct pdb_result *r, double raw)
{
	double v = pdb_result_canonical(r, raw);
	size_t i;

	if (isnan(c->t)) {
		r->nsamples = 0;
		pdb_result_add_raw(r, raw);
		return;
	}
	for (i = 0; i < r->nsamples && r->samples[i].t < c->t; i++)
		;
	if (i < r->nsamples && r->samples[i].t == c->t) {
		r->samples[i].value = v;
		return;
	}
	pdb_result_add_at(r, c->t, v); /* at the end, then moved into place */
	memmove(&r->samples[i + 1], &r->samples[i], (r->nsamples - 1 - i) * sizeof *r->samples);
	r->samples[i] = PDB_SAMPLE(v);
	r->samples[i].t = c->t;
}

static const struct field *find(const struct field *table, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(table[i].key, key) == 0)
			return &table[i];
	return NULL;
}

/* obj[key] (when present) as statistic stat of r; not finite: kept as an attribute. */
static int read_stat(struct ctx *c, const char *bench, const json_t *obj, const char *key,
		const char *stat_name, struct pdb_result *r)
{
	const json_t *v = json_object_get(obj, key);
	double x;
	int rc;

	if (!v || json_is_null(v))
		return 0;
	rc = number(v, &x);
	if (rc < 0)
		return bad(c, v, key, "expected a number");
	if (rc == 0)
		keep(c, key, bench, v);
	else
		pdb_result_set_stat_raw(r, stat_name, x);
	return 0;
}

/* responseTimes: {"acquireResponseTimes": {"_data": [ms...], "max", "min", "mean",
 * "mode": [...], "geometricMean"}, ...}. */
static int response_times(struct ctx *c, const char *bench, const json_t *entry)
{
	const json_t *data = json_object_get(entry, "_data"), *mode, *v;
	struct pdb_result *r;
	const char *key;
	size_t i;

	if (!json_is_object(entry))
		return bad(c, entry, NULL, "expected an object with _data and statistics");
	if (!json_is_array(data))
		return bad(c, data ? data : entry, "_data", "expected a list of response times (ms)");
	mode = json_object_get(entry, "mode");
	if (mode && !json_is_array(mode))
		return bad(c, mode, "mode", "expected a list of numbers");
	json_array_foreach(mode, i, v)
		if (!json_is_number(v)) {
			char idx[40];
			snprintf(idx, sizeof idx, "mode[%zu]", i);
			return bad(c, v, idx, "expected a number");
		}
	if (json_array_size(data) == 0) { /* no response yet: NaN statistics, no series */
		json_object_foreach((json_t *)entry, key, v)
			keep(c, key, bench, v);
		return 0;
	}
	r = series(c, bench, "latency", "ms");
	json_array_foreach(data, i, v) {
		char idx[40];
		if (!json_is_number(v)) {
			snprintf(idx, sizeof idx, "_data[%zu]", i);
			return bad(c, v, idx, "expected a number");
		}
		pdb_result_add_raw(r, json_number_value(v));
	}
	for (i = 0; i < N(response_stats); i++)
		if (read_stat(c, bench, entry, response_stats[i].key, response_stats[i].stat, r) < 0)
			return -1;
	json_object_foreach((json_t *)entry, key, v)
		if (strcmp(key, "_data") != 0 && !find(response_stats, N(response_stats), key))
			keep(c, key, bench, v); /* mode: every most frequent value, as a list */
	return 0;
}

static const char *duration_unit(const char *name)
{
	const struct field *f = name ? find(time_units, N(time_units), name) : NULL;

	return f ? f->stat : name;
}

/* The timer's rate over the period a snapshot ends: the growth of its
 * Count since the snapshot before (prev, at prev_t), per second; at the
 * first, the meter's MeanRate (its count over the seconds since it
 * started, which the first period is). Canonical (per second), or NaN. */
static double period_rate(struct ctx *c, const json_t *bean, const struct pdb_result *rate,
			  double count, double prev, double prev_t)
{
	const json_t *mean = json_object_get(bean, "MeanRate");
	double x;

	if (!isnan(prev_t))
		return c->t > prev_t ? (count - prev) / (c->t - prev_t) : NAN;
	return mean && number(mean, &x) == 1 ? pdb_result_canonical(rate, x) : NAN;
}

/* One JmxReporter timer bean: duration (snapshot), count, rate (over
 * time: one value a snapshot). */
static int timer(struct ctx *c, const char *bench, const json_t *bean)
{
	const char *rate_unit = pdb_json_str(bean, "RateUnit"), *key;
	const json_t *count = json_object_get(bean, "Count"), *v;
	struct pdb_result *r;
	double x = NAN, prev = NAN, prev_t = NAN;

	if (count && !json_is_null(count)) {
		if (!json_is_integer(count) || number(count, &x) < 1)
			return bad(c, count, "Count", "expected a whole number");
		r = pdb_run_add_result(c->run, bench, "count", "count");
		if (r->nsamples == 1 && !isnan(c->t) && pdb_sample_has_t(&r->samples[0])) {
			if (r->samples[0].t > c->t)
				return bad(c, count, "Count", "a snapshot older than one read before: "
					   "give a report's snapshots in time order (a folder is read so)");
			prev = r->samples[0].value;
			prev_t = r->samples[0].t;
		}
		r = series(c, bench, "count", "count");
		if (isnan(c->t))
			pdb_result_add_raw(r, x);
		else
			pdb_result_add_at(r, c->t, x); /* the newest: the rates need its time */
		if (x == 0) { /* never timed: Dropwizard's empty snapshot is all zeros */
			json_object_foreach((json_t *)bean, key, v)
				if (v != count)
					keep(c, key, bench, v);
			return 0;
		}
	}
	r = series(c, bench, "duration", duration_unit(pdb_json_str(bean, "DurationUnit")));
	for (size_t i = 0; i < N(timer_durations); i++)
		if (read_stat(c, bench, bean, timer_durations[i].key, timer_durations[i].stat, r) < 0)
			return -1;
	r = pdb_run_add_result(c->run, bench, "rate", rate_unit ? rate_unit : "events/second");
	for (size_t i = 0; i < r->nstats; i++)
		free(r->stats[i].name);
	r->nstats = 0; /* the meter's rates: the newest snapshot's */
	for (size_t i = 0; i < N(timer_rates); i++)
		if (read_stat(c, bench, bean, timer_rates[i].key, timer_rates[i].stat, r) < 0)
			return -1;
	if (isnan(c->t))
		r->nsamples = 0;
	else if (!isnan(x) && !isnan(x = period_rate(c, bean, r, x, prev, prev_t)))
		add_over_time(c, r, x / r->scale);
	json_object_foreach((json_t *)bean, key, v)
		if (strcmp(key, "Count") != 0 && !find(timer_durations, N(timer_durations), key) &&
		    !find(timer_rates, N(timer_rates), key))
			keep(c, key, bench, v);
	return 0;
}

/* A gauge bean {"Value": x}: metric NAME of benchmark "gauges", never gated. */
static int gauge(struct ctx *c, const char *name, const json_t *bean)
{
	const json_t *value = json_object_get(bean, "Value"), *v;
	const char *dot = strrchr(name, '.'), *unit = NULL, *key;
	struct pdb_result *r;
	double x;

	for (size_t i = 0; dot && strncmp(name, "heap.", 5) == 0 && i < N(byte_gauges); i++)
		if (strcmp(dot + 1, byte_gauges[i]) == 0)
			unit = "B";
	json_object_foreach((json_t *)bean, key, v) {
		if (v != value || number(v, &x) < 1) {
			keep(c, key, name, v); /* a text or list gauge, NaN, other attributes */
			continue;
		}
		r = pdb_run_add_result(c->run, "gauges", name, unit);
		r->direction = PDB_DIR_NONE;
		add_over_time(c, r, x);
	}
	return 0;
}

/* Any other bean (Knox's TokenStateService statistics): numbers are metrics,
 * objects of numbers metrics "ATTR.KEY", everything else attributes. */
static void bean_values(struct ctx *c, const char *bench, const char *prefix, const json_t *obj)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)obj, key, v) {
		char *name = prefix ? pdb_xasprintf("%s.%s", prefix, key) : pdb_xstrdup(key);
		double x;
		if (json_is_object(v) && !prefix) {
			bean_values(c, bench, name, v);
		} else if (number(v, &x) == 1) {
			/* GatewayCredentialsFileSize: Files.size of the keystore, in bytes */
			size_t len = strlen(name);
			int bytes = len >= 8 && strcmp(name + len - 8, "FileSize") == 0;
			struct pdb_result *r = series(c, bench, name, bytes ? "B" : NULL);
			r->direction = PDB_DIR_NONE;
			pdb_result_add_raw(r, x);
		} else {
			keep(c, name, bench, v);
		}
		free(name);
	}
}

/* The value of key in a JMX object name's property list (unquoted), or NULL.
 * Caller frees. */
static char *jmx_property(const char *props, const char *key)
{
	size_t klen = strlen(key);
	const char *p = props;

	while (*p) {
		const char *eq = strchr(p, '='), *q;
		struct pdb_buf value;
		int match;
		if (!eq)
			return NULL;
		match = (size_t)(eq - p) == klen && strncmp(p, key, klen) == 0;
		pdb_buf_init(&value);
		q = eq + 1;
		if (*q == '"') { /* quoted: \" \\ \* \? \n escaped */
			for (q++; *q && *q != '"'; q++) {
				int escaped = *q == '\\' && q[1];
				if (escaped)
					q++;
				pdb_buf_add(&value, escaped && *q == 'n' ? "\n" : q, 1);
			}
			if (*q)
				q++;
		} else {
			while (*q && *q != ',')
				pdb_buf_add(&value, q++, 1);
		}
		if (match) {
			if (!value.data)
				pdb_buf_add(&value, "", 0);
			return value.data;
		}
		pdb_buf_release(&value);
		p = *q == ',' ? q + 1 : q;
	}
	return NULL;
}

/* "domain:name=N,type=T": the properties part, or NULL when key is no object name. */
static const char *jmx_props(const char *key)
{
	const char *colon = strchr(key, ':');

	return colon && colon != key && strchr(colon, '=') ? colon + 1 : NULL;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int is_plain(const char *key)
{
	for (const char *p = key; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return *key != '\0';
}

static int entry(struct ctx *c, const char *key, const json_t *v)
{
	const char *props = jmx_props(key);
	char *name, *type;
	int ret = 0;

	if (!props) {
		if (ends_with(key, "ResponseTimes") || (json_is_object(v) && json_object_get(v, "_data")))
			return response_times(c, key, v);
		name = pdb_xasprintf("knox.%s", key); /* no place in the model */
		pdb_attr_set_json(c->run, name, v);
		free(name);
		return 0;
	}
	if (!json_is_object(v))
		return bad(c, v, NULL, "expected an object of MBean attributes");
	name = jmx_property(props, "name");
	type = jmx_property(props, "type");
	if (!name || !*name) {
		free(name);
		name = pdb_xstrdup(key);
	}
	if (type && strcmp(type, "timers") == 0)
		ret = timer(c, name, v);
	else if (type && strcmp(type, "gauges") == 0)
		ret = gauge(c, name, v);
	else
		bean_values(c, name, NULL, v);
	free(name);
	free(type);
	return ret;
}

static int read_report(struct ctx *c, const json_t *root)
{
	const char *key;
	json_t *v;

	if (!json_is_object(root)) {
		c->path = "$";
		return bad(c, root, NULL, "expected a Knox report (an object of entries)");
	}
	json_object_foreach((json_t *)root, key, v) {
		char *path = is_plain(key) ? pdb_xasprintf("$.%s", key) : pdb_xasprintf("$[\"%s\"]", key);
		int rc;
		c->path = path;
		rc = entry(c, key, v);
		free(path);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct ctx c = { .src = src, .run = run, .err = err, .t = snapshot_time(src) };
	struct pdb_yaml_doc ydoc = { 0 };
	json_t *doc = NULL;
	int ret = -1;

	if (pdb_head_first(src) == '{') {
		if (!(doc = pdb_json_load(src, err)))
			return -1;
		ret = read_report(&c, doc);
		json_decref(doc);
	} else {
		if (pdb_yaml_load(src->path, src->name, &ydoc, err) < 0)
			return -1;
		c.ydoc = &ydoc;
		ret = read_report(&c, ydoc.root);
		pdb_yaml_doc_release(&ydoc);
	}
	if (ret == 0)
		pdb_set_str(&run->tool, "knox");
	return ret;
}

const struct pdb_format pdb_format_knox = {
	.name = "knox",
	.summary = "Apache Knox gateway performance-test reports (JSON or YAML): responseTimes, timers, gauges",
	.detect = detect,
	.parse = parse,
};
