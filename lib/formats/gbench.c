/* Format: Google Benchmark --benchmark_out_format=json (context, repetitions, aggregates, counters, BigO). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "parse/json_stream.h"
#include "parse/json_util.h"
#include "utc_time.h"
#include "util.h"

/* Keys of a benchmarks[] row that are not user counters. */
static const char *const row_keys[] = {
	"name", "family_index", "per_family_instance_index", "run_name", "run_type",
	"repetitions", "repetition_index", "threads", "iterations", "real_time",
	"cpu_time", "time_unit", "aggregate_name", "aggregate_unit", "label",
	"error_occurred", "error_message", "big_o", "cpu_coefficient",
	"real_coefficient", "rms", NULL,
};

static int is_row_key(const char *key)
{
	for (size_t i = 0; row_keys[i]; i++)
		if (strcmp(row_keys[i], key) == 0)
			return 1;
	return 0;
}

/* The raw unit of a user counter: the two rates Google Benchmark names
 * itself, anything else a plain count. */
static const char *counter_unit(const char *key)
{
	if (strcmp(key, "items_per_second") == 0)
		return "items/s";
	if (strcmp(key, "bytes_per_second") == 0)
		return "B/s";
	return "count";
}

static int detect(const struct pdb_source *src)
{
	return pdb_head_first(src) == '{' && pdb_head_has(src, "\"context\"") &&
	       pdb_head_has(src, "\"benchmarks\"") &&
	       (pdb_head_has(src, "\"real_time\"") || pdb_head_has(src, "\"mhz_per_cpu\"") ||
		pdb_head_has(src, "\"library_build_type\"")) ? 90 : 0;
}

/* "L1 Data 32 KiB (x2), ..." as the console reporter prints the caches. */
static void caches_summary(struct pdb_run *run, const json_t *caches, double ncpus)
{
	struct pdb_buf b;
	json_t *c;
	size_t i;

	pdb_buf_init(&b);
	json_array_foreach(caches, i, c) {
		double level = 0, size = 0, sharing = 0;
		const char *type = pdb_json_str(c, "type");
		pdb_json_num(json_object_get(c, "level"), &level);
		pdb_json_num(json_object_get(c, "size"), &size);
		pdb_json_num(json_object_get(c, "num_sharing"), &sharing);
		pdb_buf_printf(&b, "%sL%.0f %s %.0f KiB", i ? ", " : "", level,
			       type ? type : "?", size / 1024);
		if (sharing > 0 && ncpus > 0)
			pdb_buf_printf(&b, " (x%.0f)", ncpus / sharing);
	}
	if (b.data)
		pdb_run_set_attr(run, "caches", b.data);
	pdb_buf_release(&b);
}

/* context: every key as an attribute, caches summarised, plus the common
 * names host and vcpus unless the context already names them. */
static void parse_context(struct pdb_run *run, const json_t *ctx)
{
	const char *key;
	json_t *v;
	double ncpus = 0;

	pdb_json_num(json_object_get(ctx, "num_cpus"), &ncpus);
	json_object_foreach((json_t *)ctx, key, v) {
		if (strcmp(key, "caches") == 0 && json_is_array(v))
			caches_summary(run, v, ncpus);
		else if (strcmp(key, "load_avg") == 0 && json_is_array(v)) {
			struct pdb_buf b;
			json_t *x;
			size_t i;
			pdb_buf_init(&b);
			pdb_buf_puts(&b, "");
			json_array_foreach(v, i, x) {
				char *t = pdb_json_text(x);
				pdb_buf_printf(&b, "%s%s", i ? "," : "", t);
				free(t);
			}
			pdb_run_set_attr(run, key, b.data);
			pdb_buf_release(&b);
		} else {
			pdb_attr_set_json(run, key, v);
		}
	}
	if (!json_object_get(ctx, "host") && pdb_json_str(ctx, "host_name"))
		pdb_run_set_attr(run, "host", pdb_json_str(ctx, "host_name"));
	if (!json_object_get(ctx, "vcpus") && json_object_get(ctx, "num_cpus"))
		pdb_attr_set_json(run, "vcpus", json_object_get(ctx, "num_cpus"));
}

struct row {
	const struct pdb_source *src;
	struct pdb_run *run;
	const json_t *obj;
	const char *bench;      /* run_name, or name in files before run_name */
	const char *unit;       /* time_unit */
	size_t idx;
	struct pdb_err *err;
};

static int bad(const struct row *row, const char *key, const char *what)
{
	char *path = pdb_xasprintf("$.benchmarks[%zu]%s%s", row->idx, key ? "." : "",
				   key ? key : "");
	pdb_json_bad(row->err, row->src, path, what);
	free(path);
	return -1;
}

/* obj[key] as a number: 1 found, 0 absent or null, -1 not a number. */
static int row_num(const struct row *row, const char *key, double *out)
{
	const json_t *v = json_object_get(row->obj, key);

	if (!v || json_is_null(v))
		return 0;
	if (pdb_json_num(v, out) < 0)
		return bad(row, key, "expected a number");
	return 1;
}

/* A value of metric in unit: a sample, or the statistic stat when set. */
static void put(const struct row *row, const char *metric, const char *unit,
		const char *stat, int scaled, double value)
{
	struct pdb_result *r = pdb_run_add_result(row->run, row->bench, metric, unit);

	if (!stat)
		pdb_result_add_raw(r, value);
	else if (scaled)
		pdb_result_set_stat_raw(r, stat, value);
	else
		pdb_result_set_stat(r, stat, value);
}

/* real_time, cpu_time, iterations and counters of an iteration row (stat
 * NULL) or an aggregate row (stat = aggregate_name). */
static int put_values(const struct row *row, const char *stat, int scaled)
{
	const char *key;
	json_t *v;
	double x;
	int got;

	if ((got = row_num(row, "real_time", &x)) < 0)
		return -1;
	if (got)
		put(row, "real_time", row->unit, stat, scaled, x);
	if ((got = row_num(row, "cpu_time", &x)) < 0)
		return -1;
	if (got)
		put(row, "cpu_time", row->unit, stat, scaled, x);
	if (!stat) {
		if ((got = row_num(row, "iterations", &x)) < 0)
			return -1;
		if (got)
			put(row, "iterations", "count", NULL, 1, x);
	}
	json_object_foreach((json_t *)row->obj, key, v) {
		if (is_row_key(key) || json_is_string(v) || json_is_boolean(v))
			continue;
		if (pdb_json_num(v, &x) < 0)
			return bad(row, key, "expected a number (a user counter)");
		put(row, key, counter_unit(key), stat, scaled, x);
	}
	return 0;
}

/* name_BigO: the fitted coefficients, one series per time with the
 * complexity as a dimension; name_RMS: the normalised root mean square of
 * the fit (of the CPU time) as a ratio. */
struct fit {
	const char *bench, *big_o; /* the last BigO row: its RMS row follows */
};

static int put_complexity(const struct row *row, const char *aggregate,
			  struct fit *fit)
{
	struct pdb_attr dim = { "big_o", NULL };
	struct pdb_result *r;
	double x;
	int got;

	if (strcmp(aggregate, "BigO") == 0) {
		if (!(fit->big_o = pdb_json_str(row->obj, "big_o")))
			return bad(row, "big_o", "expected a string");
		fit->bench = row->bench;
		dim.value = (char *)fit->big_o;
		if ((got = row_num(row, "real_coefficient", &x)) < 0)
			return -1;
		if (got) {
			r = pdb_run_result_with_dims(row->run, row->bench, &dim, 1,
						     "real_time_coefficient", row->unit);
			pdb_result_add_raw(r, x);
		}
		if ((got = row_num(row, "cpu_coefficient", &x)) < 0)
			return -1;
		if (got) {
			r = pdb_run_result_with_dims(row->run, row->bench, &dim, 1,
						     "cpu_time_coefficient", row->unit);
			pdb_result_add_raw(r, x);
		}
		return 0;
	}
	if ((got = row_num(row, "rms", &x)) <= 0)
		return got < 0 ? -1 : bad(row, "rms", "expected a number");
	dim.value = (char *)fit->big_o;
	r = pdb_run_result_with_dims(row->run, row->bench, &dim,
				     fit->bench && strcmp(fit->bench, row->bench) == 0,
				     "cpu_time_rms", "ratio");
	pdb_set_str(&r->raw_name, "rms");
	pdb_result_add_raw(r, x);
	return 0;
}

static int parse_row(struct row *row, struct fit *fit)
{
	const char *type = pdb_json_str(row->obj, "run_type");
	const char *aggregate = pdb_json_str(row->obj, "aggregate_name");
	const char *aunit = pdb_json_str(row->obj, "aggregate_unit");
	const json_t *error = json_object_get(row->obj, "error_occurred");
	const char *label = pdb_json_str(row->obj, "label");

	if (!json_is_object(row->obj))
		return bad(row, NULL, "expected an object");
	row->bench = pdb_json_str(row->obj, "run_name");
	if (!row->bench)
		row->bench = pdb_json_str(row->obj, "name");
	if (!row->bench)
		return bad(row, "name", "expected a string");
	row->unit = pdb_json_str(row->obj, "time_unit");
	if (!row->unit)
		row->unit = "ns"; /* the library's default */
	if (label)
		pdb_attr_set_bench(row->run, "label", row->bench, label);
	if (json_is_true(error)) {
		const char *msg = pdb_json_str(row->obj, "error_message");
		pdb_attr_set_bench(row->run, "error_message", row->bench, msg ? msg : "");
		pdb_run_add_failure(row->run, row->bench, NULL, 0,
				    msg && *msg ? msg : "the benchmark reported an error");
		return 0;
	}
	if (type && strcmp(type, "aggregate") == 0) {
		if (!aggregate)
			return bad(row, "aggregate_name", "expected a string");
		if (strcmp(aggregate, "BigO") == 0 || strcmp(aggregate, "RMS") == 0)
			return put_complexity(row, aggregate, fit);
		/* cv and other percentages are ratios, never scaled by the time unit */
		return put_values(row, aggregate, !(aunit && strcmp(aunit, "percentage") == 0));
	}
	if (type && strcmp(type, "iteration") != 0)
		return bad(row, "run_type", "expected \"iteration\" or \"aggregate\"");
	return put_values(row, NULL, 1);
}

/* The rows of benchmarks[], one at a time from the stream, else from rows. A
 * row is kept until the next one is read: a BigO row's strings are read by
 * the RMS row after it. */
static int parse_rows(const struct pdb_source *src, struct pdb_run *run,
		      struct pdb_json_stream *s, json_t *rows, struct pdb_err *err)
{
	struct fit fit = { NULL, NULL };
	json_t *v, *prev = NULL;
	size_t i;
	int got, ret = -1;

	if (!s) {
		json_array_foreach(rows, i, v) {
			struct row row = { .src = src, .run = run, .obj = v, .idx = i, .err = err };
			if (parse_row(&row, &fit) < 0)
				return -1;
		}
		return 0;
	}
	while ((got = pdb_json_stream_next(s, &v, &i, err)) > 0) {
		struct row row = { .src = src, .run = run, .obj = v, .idx = i, .err = err };
		int rc = parse_row(&row, &fit);
		json_decref(prev);
		prev = v;
		if (rc < 0)
			goto out;
	}
	ret = got;
out:
	json_decref(prev);
	return ret;
}

/* A big file is read a row at a time (pdb_json_stream): its memory is the
 * run's, not the whole document's in jansson (about 5 times the file). */
static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct pdb_json_stream s;
	int streamed = pdb_json_stream_open(src, "benchmarks", &s, err) == 1;
	json_t *doc = streamed ? json_incref(s.rest) : pdb_json_load(src, err), *rows, *v;
	const char *key;
	char at[32];
	int ret = -1;

	if (!doc)
		return -1;
	if (!json_is_object(doc)) {
		pdb_json_bad(err, src, "$", "expected an object");
		goto out;
	}
	rows = json_object_get(doc, "benchmarks");
	if (!json_is_array(rows)) {
		pdb_json_bad(err, src, "$.benchmarks", "expected an array");
		goto out;
	}
	v = json_object_get(doc, "context");
	if (v && !json_is_object(v)) {
		pdb_json_bad(err, src, "$.context", "expected an object");
		goto out;
	}
	if (v)
		parse_context(run, v);
	/* the time it was measured, when the file says it in UTC or with its
	 * offset (Google Benchmark 1.6 on; older ones write local time) */
	if (v && pdb_json_str(v, "date") && pdb_utc_from_iso8601(pdb_json_str(v, "date"), 0, at) == 0)
		pdb_set_str(&run->created_at, at);
	if (parse_rows(src, run, streamed ? &s : NULL, rows, err) < 0)
		goto out;
	json_object_foreach(doc, key, v)
		if (strcmp(key, "context") != 0 && strcmp(key, "benchmarks") != 0)
			pdb_attr_set_json(run, key, v);
	pdb_set_str(&run->tool, "google-benchmark");
	ret = 0;
out:
	json_decref(doc);
	if (streamed)
		pdb_json_stream_close(&s);
	return ret;
}

const struct pdb_format pdb_format_gbench = {
	.name = "google-benchmark",
	.summary = "Google Benchmark JSON: repetitions as samples, aggregates as stats, counters, BigO",
	.detect = detect,
	.parse = parse,
};
