/* Format: iperf3 -J (throughput per interval, totals sent and received, retransmits, TCP rtt, UDP loss). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "parse/json_util.h"
#include "util.h"

#define N(a) (sizeof a / sizeof a[0])
#define BENCH "iperf3"

/* test_start fields that describe the workload: dims of every series. */
static const char *const dim_keys[] = { "protocol", "num_streams", "blksize", "reverse" };

/* Numbers of end.sum_sent, end.sum_received and end.sum (UDP). */
static const struct {
	const char *key, *metric, *unit;
	int direction;
} totals[] = {
	{ "bits_per_second", "throughput", "bits/s", PDB_DIR_HIGHER },
	{ "bytes", "bytes", "B", PDB_DIR_NONE },
	{ "seconds", "duration", "s", PDB_DIR_NONE },
	{ "retransmits", "retransmits", "count", PDB_DIR_LOWER },
	{ "jitter_ms", "jitter", "ms", PDB_DIR_LOWER },
	{ "lost_packets", "lost_packets", "count", PDB_DIR_LOWER },
	{ "packets", "packets", "count", PDB_DIR_NONE },
	{ "lost_percent", "lost_percent", "%", PDB_DIR_LOWER },
	{ "out_of_order", "out_of_order", "count", PDB_DIR_LOWER },
};

struct ctx {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_attr dims[N(dim_keys)];
	char values[N(dim_keys)][64];
	size_t ndims;
	int one_stream;         /* test_start.num_streams is 1 */
};

static int detect(const struct pdb_source *src)
{
	return pdb_head_first(src) == '{' && pdb_head_has(src, "\"start\"") &&
	       pdb_head_has(src, "\"test_start\"") && pdb_head_has(src, "\"intervals\"") ? 90 : 0;
}

static struct pdb_result *result(struct ctx *c, const char *metric, const char *unit,
				 int direction)
{
	struct pdb_result *r = pdb_run_result_with_dims(c->run, BENCH, c->dims, c->ndims,
							metric, unit);
	r->direction = direction;
	return r;
}

static int bad(struct ctx *c, const char *path, const char *what, struct pdb_err *err)
{
	return pdb_json_bad(err, c->src, path, what);
}

static void take_dims(struct ctx *c, const json_t *test_start)
{
	for (size_t i = 0; i < N(dim_keys); i++) {
		const json_t *v = json_object_get(test_start, dim_keys[i]);
		char *text;
		if (!v || json_is_null(v))
			continue;
		text = pdb_json_text(v);
		if (strcmp(dim_keys[i], "num_streams") == 0)
			c->one_stream = strcmp(text, "1") == 0;
		snprintf(c->values[c->ndims], sizeof c->values[0], "%s", text);
		free(text);
		c->dims[c->ndims].key = (char *)dim_keys[i];
		c->dims[c->ndims].value = c->values[c->ndims];
		c->ndims++;
	}
}

/* The round-trip time TCP measured (µs) in the one stream of an interval or of
 * end.streams[0].sender: a latency, lower is better. With several streams each
 * has its own; they stay in the attributes. */
static struct pdb_result *rtt_result(struct ctx *c)
{
	return result(c, "rtt", "us", PDB_DIR_LOWER);
}

/* With one stream (num_streams 1), its object in obj (an interval or end):
 * the first of streams (with --bidir the forward one). */
static const json_t *only_stream(const struct ctx *c, const json_t *obj)
{
	return c->one_stream ? json_array_get(json_object_get(obj, "streams"), 0) : NULL;
}

/* intervals[i].sum: throughput and retransmits with the interval start as time offset. */
static int intervals(struct ctx *c, const json_t *arr, struct pdb_err *err)
{
	char path[96];
	size_t i;
	json_t *iv;

	if (!arr)
		return 0;
	if (!json_is_array(arr))
		return bad(c, "$.intervals", "expected an array", err);
	json_array_foreach(arr, i, iv) {
		const json_t *sum = json_object_get(iv, "sum");
		double t, x;
		if (!json_is_object(sum)) {
			snprintf(path, sizeof path, "$.intervals[%zu].sum", i);
			return bad(c, path, "expected an object", err);
		}
		if (pdb_json_num(json_object_get(sum, "start"), &t) < 0) {
			snprintf(path, sizeof path, "$.intervals[%zu].sum.start", i);
			return bad(c, path, "expected a number", err);
		}
		for (size_t k = 0; k < N(totals); k++) {
			const json_t *v = json_object_get(sum, totals[k].key);
			struct pdb_result *r;
			struct pdb_sample s = PDB_SAMPLE(NAN);
			s.t = t;
			if (!v || strcmp(totals[k].key, "seconds") == 0)
				continue;
			if (pdb_json_num(v, &x) < 0) {
				snprintf(path, sizeof path, "$.intervals[%zu].sum.%s", i, totals[k].key);
				return bad(c, path, "expected a number", err);
			}
			r = result(c, totals[k].metric, totals[k].unit, totals[k].direction);
			s.value = pdb_result_canonical(r, x);
			pdb_result_add_sample(r, &s);
		}
		if (pdb_json_num(json_object_get(only_stream(c, iv), "rtt"), &x) == 0) {
			struct pdb_result *r = rtt_result(c);
			struct pdb_sample s = PDB_SAMPLE(pdb_result_canonical(r, x));
			s.t = t;
			pdb_result_add_sample(r, &s);
		}
	}
	return 0;
}

/* One end.sum*: a value of each total, under metric PREFIX_METRIC. */
static int end_sum(struct ctx *c, const json_t *sum, const char *key, const char *prefix,
		   struct pdb_err *err)
{
	char path[96], metric[96];
	double x;

	if (!sum)
		return 0;
	if (!json_is_object(sum)) {
		snprintf(path, sizeof path, "$.end.%s", key);
		return bad(c, path, "expected an object", err);
	}
	for (size_t k = 0; k < N(totals); k++) {
		const json_t *v = json_object_get(sum, totals[k].key);
		struct pdb_result *r;
		if (!v)
			continue;
		if (pdb_json_num(v, &x) < 0) {
			snprintf(path, sizeof path, "$.end.%s.%s", key, totals[k].key);
			return bad(c, path, "expected a number", err);
		}
		snprintf(metric, sizeof metric, "%s_%s", prefix, totals[k].metric);
		r = result(c, metric, totals[k].unit, totals[k].direction);
		pdb_result_add_raw(r, x);
	}
	return 0;
}

static int end(struct ctx *c, const json_t *e, struct pdb_err *err)
{
	const json_t *cpu, *v;
	const char *key;

	if (!e)
		return 0;
	if (!json_is_object(e))
		return bad(c, "$.end", "expected an object", err);
	if (end_sum(c, json_object_get(e, "sum_sent"), "sum_sent", "sent", err) < 0 ||
	    end_sum(c, json_object_get(e, "sum_received"), "sum_received", "received", err) < 0 ||
	    end_sum(c, json_object_get(e, "sum"), "sum", "total", err) < 0)
		return -1;
	{
		static const char *const rtt_stats[][2] = {
			{ "mean_rtt", "mean" }, { "min_rtt", "min" }, { "max_rtt", "max" },
		};
		const json_t *sender = json_object_get(only_stream(c, e), "sender");
		double x;
		for (size_t k = 0; k < N(rtt_stats); k++)
			if (pdb_json_num(json_object_get(sender, rtt_stats[k][0]), &x) == 0)
				pdb_result_set_stat_raw(rtt_result(c), rtt_stats[k][1], x);
	}
	cpu = json_object_get(e, "cpu_utilization_percent");
	json_object_foreach((json_t *)cpu, key, v) {
		char metric[96], path[160];
		double x;
		if (pdb_json_num(v, &x) < 0) {
			snprintf(path, sizeof path, "$.end.cpu_utilization_percent.%s", key);
			return bad(c, path, "expected a number", err);
		}
		snprintf(metric, sizeof metric, "cpu_%s", key);
		pdb_result_add_raw(result(c, metric, "%", PDB_DIR_NONE), x);
	}
	json_object_foreach((json_t *)e, key, v) {
		char *name;
		if (strcmp(key, "sum_sent") == 0 || strcmp(key, "sum_received") == 0 ||
		    strcmp(key, "sum") == 0 || strcmp(key, "cpu_utilization_percent") == 0)
			continue;
		name = pdb_xasprintf("iperf3.end.%s", key);
		pdb_attr_set_json(c->run, name, v); /* streams: kept whole, as JSON */
		free(name);
	}
	return 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	json_t *doc = pdb_json_load(src, err), *start, *v;
	struct ctx c = { .src = src, .run = run };
	const char *key;
	int ret = -1;

	if (!doc)
		return -1;
	if (!json_is_object(doc)) {
		pdb_json_bad(err, src, "$", "expected an iperf3 -J report object");
		goto out;
	}
	start = json_object_get(doc, "start");
	if (!json_is_object(start)) {
		pdb_json_bad(err, src, "$.start", "expected an object");
		goto out;
	}
	pdb_set_str(&run->tool, "iperf3");
	take_dims(&c, json_object_get(start, "test_start"));
	pdb_attr_flatten(run, "iperf3.start", start);
	if (intervals(&c, json_object_get(doc, "intervals"), err) < 0 ||
	    end(&c, json_object_get(doc, "end"), err) < 0)
		goto out;
	json_object_foreach(doc, key, v) {
		char *name;
		if (strcmp(key, "start") == 0 || strcmp(key, "intervals") == 0 ||
		    strcmp(key, "end") == 0)
			continue;
		name = pdb_xasprintf("iperf3.%s", key);
		pdb_attr_set_json(run, name, v);
		free(name);
	}
	if (json_object_get(doc, "error"))
		pdb_set_str(&run->status, "failed");
	ret = 0;
out:
	json_decref(doc);
	return ret;
}

const struct pdb_format pdb_format_iperf3 = {
	.name = "iperf3",
	.summary = "iperf3 -J: throughput per interval, totals, retransmits, TCP rtt, UDP jitter and loss",
	.detect = detect,
	.parse = parse,
};
