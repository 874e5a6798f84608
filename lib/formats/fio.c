/* Format: fio --output-format=json (per job and direction: iops, bandwidth, latency percentiles). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "parse/json_util.h"
#include "utc_time.h"
#include "util.h"

#define N(a) (sizeof a / sizeof a[0])

static const char *const directions[] = { "read", "write", "trim", "sync" };

/* Job options that describe the workload: the dims of its series. Every other
 * option (runtime, ramp_time, time_based, size, file names, ...) says how long or
 * where it ran: an attribute, so that a longer run is the same series. */
static const char *const workload_options[] = {
	"rw", "readwrite", "bs", "blocksize", "iodepth", "numjobs", "rwmixread",
	"rwmixwrite", "ioengine", "direct",
};

/* Latency objects of a direction, nanoseconds. */
static const struct {
	const char *key, *metric;
} latencies[] = {
	{ "lat_ns", "lat" }, { "clat_ns", "clat" }, { "slat_ns", "slat" },
};

/* Plain numbers of a direction that become metrics of their own. */
static const struct {
	const char *key, *metric, *unit;
} amounts[] = {
	{ "io_bytes", "io_bytes", "B" },    { "total_ios", "total_ios", "count" },
	{ "short_ios", "short_ios", "count" }, { "drop_ios", "drop_ios", "count" },
	{ "runtime", "runtime", "ms" },
};

/* Numbers of a job that become metrics of their own. */
static const struct {
	const char *key, *metric, *unit;
} job_amounts[] = {
	{ "usr_cpu", "usr_cpu", "%" }, { "sys_cpu", "sys_cpu", "%" },
	{ "ctx", "ctx", "count" },     { "majf", "majf", "count" },
	{ "minf", "minf", "count" },   { "job_runtime", "job_runtime", "ms" },
};

/* Keys of a direction read into results (the rest are kept as attributes). */
static const char *const read_keys[] = {
	"iops", "iops_min", "iops_max", "iops_mean", "iops_stddev",
	"bw_bytes", "bw_min", "bw_max", "bw_mean", "bw_dev",
	"bw", "io_kbytes", /* bw_bytes and io_bytes in KiB */
	"lat_ns", "clat_ns", "slat_ns", "io_bytes", "total_ios", "short_ios",
	"drop_ios", "runtime",
};

struct job {
	const struct pdb_source *src;
	struct pdb_run *run;
	const char *name;
	struct pdb_attr dims[N(workload_options) + 1];
	size_t ndims;
	char path[256]; /* $.jobs[i] */
	char attr[256]; /* fio.job[NAME] or fio.job[NAME#k] */
};

static int detect(const struct pdb_source *src)
{
	return pdb_head_first(src) == '{' && pdb_head_has(src, "\"fio version\"") &&
	       pdb_head_has(src, "\"jobs\"") ? 95 : 0;
}

static int in_list(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return 1;
	return 0;
}

static void keep(struct pdb_run *run, const char *prefix, const char *key, const json_t *v)
{
	char *name = pdb_xasprintf("%s.%s", prefix, key);

	if (json_is_object(v))
		pdb_attr_flatten(run, name, v);
	else
		pdb_attr_set_json(run, name, v);
	free(name);
}

static int bad(struct job *job, const char *where, const char *what, struct pdb_err *err)
{
	char *path = pdb_xasprintf("%s%s", job->path, where);

	pdb_json_bad(err, job->src, path, what);
	free(path);
	return -1;
}

/* obj[key] as a number into *out: 1 found, 0 absent, -1 not a number. */
static int num(struct job *job, const json_t *obj, const char *dir, const char *key,
	       double *out, struct pdb_err *err)
{
	const json_t *v = json_object_get(obj, key);
	char *where;

	if (!v || json_is_null(v))
		return 0;
	if (pdb_json_num(v, out) == 0)
		return 1;
	where = pdb_xasprintf(".%s%s%s", dir ? dir : "", dir ? "." : "", key);
	bad(job, where, "expected a number", err);
	free(where);
	return -1;
}

/* The series (job, its dims, dir when given, metric): the direction is part of the
 * key, so the read and write sides of a mixed job are two series. */
static struct pdb_result *result(struct job *job, const char *dir, const char *metric,
				 const char *unit)
{
	struct pdb_attr dims[N(job->dims) + 1];
	size_t n = job->ndims;

	memcpy(dims, job->dims, n * sizeof *dims);
	if (dir)
		dims[n++] = (struct pdb_attr){ .key = "dir", .value = (char *)dir };
	return pdb_run_result_with_dims(job->run, job->name, dims, n, metric, unit);
}

/* A rate over the whole job (iops or bandwidth), one value, with the stats of
 * the rate fio sampled per interval (iopsavgtime/bwavgtime, 500 ms by default)
 * named as such: their max can be below the job's rate, and plain "max" beside
 * the value's own max read as two answers to one question. */
static int rate(struct job *job, const json_t *d, const char *dir, const char *metric,
		const char *unit, const char *const keys[5], double stat_scale,
		struct pdb_err *err)
{
	static const char *const stats[] = { "interval_min", "interval_max", "interval_mean",
					     "interval_stddev" };
	struct pdb_result *r;
	double v;
	int rc = num(job, d, dir, keys[0], &v, err);

	if (rc <= 0)
		return rc;
	r = result(job, dir, metric, unit);
	pdb_set_str(&r->raw_name, keys[0]);
	pdb_result_add_raw(r, v);
	for (size_t i = 0; i < N(stats); i++) {
		if ((rc = num(job, d, dir, keys[i + 1], &v, err)) < 0)
			return -1;
		if (rc)
			pdb_result_set_stat_raw(r, stats[i], v * stat_scale);
	}
	return 0;
}

/* {min, max, mean, stddev, N, percentile{"99.000000": ns}, bins{ns: count}}; N is kept
 * as an attribute. */
static int latency(struct job *job, const json_t *d, const char *dir, const char *key,
		   const char *metric, struct pdb_err *err)
{
	static const char *const stats[] = { "min", "max", "mean", "stddev" };
	const json_t *lat = json_object_get(d, key), *pct, *bins, *v;
	struct pdb_result *r;
	char *where = pdb_xasprintf("%s.%s", dir, key);
	const char *k;
	double x;
	int rc, ret = -1;

	if (!lat) {
		ret = 0;
		goto out;
	}
	if (!json_is_object(lat)) {
		char *w = pdb_xasprintf(".%s", where);
		bad(job, w, "expected an object", err);
		free(w);
		goto out;
	}
	if ((rc = num(job, lat, where, "N", &x, err)) < 0)
		goto out;
	if (rc && x == 0) { /* no I/O of this kind: the zeros fio prints are not values */
		ret = 0;
		goto out;
	}
	r = result(job, dir, metric, "ns");
	pdb_set_str(&r->raw_name, key);
	if (rc) { /* the number of values, not a latency: an attribute */
		char *name = pdb_xasprintf("%s.%s.N", job->attr, where);
		char text[32];
		pdb_fmt_double(x, text);
		pdb_run_set_attr(job->run, name, text);
		free(name);
	}
	for (size_t i = 0; i < N(stats); i++) {
		if ((rc = num(job, lat, where, stats[i], &x, err)) < 0)
			goto out;
		if (rc)
			pdb_result_set_stat_raw(r, stats[i], x);
	}
	pct = json_object_get(lat, "percentile");
	json_object_foreach((json_t *)pct, k, v) {
		char name[48], num_text[32];
		double p;
		if (pdb_parse_double(k, &p) < 0 || pdb_json_num(v, &x) < 0) {
			char *w = pdb_xasprintf(".%s.percentile[\"%s\"]", where, k);
			bad(job, w, "expected \"percentile\": nanoseconds", err);
			free(w);
			goto out;
		}
		pdb_fmt_double(p, num_text);
		snprintf(name, sizeof name, "p%s", num_text);
		pdb_result_set_stat_raw(r, name, x);
	}
	bins = json_object_get(lat, "bins"); /* --output-format=json+ */
	json_object_foreach((json_t *)bins, k, v) {
		struct pdb_sample s = PDB_SAMPLE(NAN);
		double ns;
		if (pdb_parse_double(k, &ns) < 0 || pdb_json_num(v, &s.weight) < 0) {
			char *w = pdb_xasprintf(".%s.bins[\"%s\"]", where, k);
			bad(job, w, "expected \"nanoseconds\": count", err);
			free(w);
			goto out;
		}
		s.value = pdb_result_canonical(r, ns);
		pdb_result_add_sample(r, &s);
	}
	ret = 0;
out:
	free(where);
	return ret;
}

static int direction(struct job *job, const json_t *d, const char *dir, struct pdb_err *err)
{
	static const char *const iops[5] = { "iops", "iops_min", "iops_max", "iops_mean",
					     "iops_stddev" };
	static const char *const bw[5] = { "bw_bytes", "bw_min", "bw_max", "bw_mean", "bw_dev" };
	const char *key;
	json_t *v;
	double ios;
	int rc;
	char *prefix;

	if (!json_is_object(d)) {
		char *where = pdb_xasprintf(".%s", dir);
		bad(job, where, "expected an object", err);
		free(where);
		return -1;
	}
	if ((rc = num(job, d, dir, "total_ios", &ios, err)) < 0)
		return -1;
	if (rc && ios == 0)
		return 0; /* this direction did no I/O: nothing to record */
	if (rate(job, d, dir, "iops", "io/s", iops, 1, err) < 0 ||
	    rate(job, d, dir, "bw", "B/s", bw, 1024, err) < 0) /* bw_min.. are KiB/s */
		return -1;
	for (size_t i = 0; i < N(latencies); i++)
		if (latency(job, d, dir, latencies[i].key, latencies[i].metric, err) < 0)
			return -1;
	for (size_t i = 0; i < N(amounts); i++) {
		struct pdb_result *r;
		double x;
		if ((rc = num(job, d, dir, amounts[i].key, &x, err)) < 0)
			return -1;
		if (!rc)
			continue;
		r = result(job, dir, amounts[i].metric, amounts[i].unit);
		r->direction = PDB_DIR_NONE;
		pdb_result_add_raw(r, x);
	}
	prefix = pdb_xasprintf("%s.%s", job->attr, dir);
	json_object_foreach((json_t *)d, key, v)
		if (!in_list(read_keys, N(read_keys), key))
			keep(job->run, prefix, key, v);
	free(prefix);
	return 0;
}

static int job_options(struct job *job, const json_t *opts, struct pdb_err *err)
{
	const char *key;
	json_t *v;

	if (!opts)
		return 0;
	if (!json_is_object(opts))
		return bad(job, "[\"job options\"]", "expected an object", err);
	json_object_foreach((json_t *)opts, key, v) {
		if (!json_is_string(v))
			return bad(job, "[\"job options\"]", "expected string values", err);
		if (!in_list(workload_options, N(workload_options), key)) {
			char *name = pdb_xasprintf("%s.%s", job->attr, key);
			pdb_run_set_attr(job->run, name, json_string_value(v));
			free(name);
		} else { /* room: every workload option, clone and dir */
			job->dims[job->ndims].key = (char *)key;
			job->dims[job->ndims].value = (char *)json_string_value(v);
			job->ndims++;
		}
	}
	return 0;
}

static int one_job(struct job *job, const json_t *j, struct pdb_err *err)
{
	const char *key;
	json_t *v;

	if (!json_is_object(j))
		return bad(job, "", "expected a job object", err);
	if (job_options(job, json_object_get(j, "job options"), err) < 0)
		return -1;
	for (size_t i = 0; i < N(directions); i++) {
		const json_t *d = json_object_get(j, directions[i]);
		if (d && direction(job, d, directions[i], err) < 0)
			return -1;
	}
	for (size_t i = 0; i < N(job_amounts); i++) {
		struct pdb_result *r;
		double x;
		int rc = num(job, j, NULL, job_amounts[i].key, &x, err);
		if (rc < 0)
			return -1;
		if (!rc)
			continue;
		r = result(job, NULL, job_amounts[i].metric, job_amounts[i].unit);
		r->direction = PDB_DIR_NONE;
		pdb_result_add_raw(r, x);
	}
	json_object_foreach((json_t *)j, key, v) {
		int known = strcmp(key, "jobname") == 0 || strcmp(key, "job options") == 0 ||
			    in_list(directions, N(directions), key);
		for (size_t i = 0; i < N(job_amounts) && !known; i++)
			known = strcmp(key, job_amounts[i].key) == 0;
		if (!known)
			keep(job->run, job->attr, key, v);
	}
	return 0;
}

/* How many jobs share jobs[i]'s name, and which of them it is (0-based). */
static size_t same_name(const json_t *jobs, size_t i, size_t *index)
{
	const char *name = pdb_json_str(json_array_get(jobs, i), "jobname");
	size_t n = 0;

	*index = 0;
	for (size_t k = 0; k < json_array_size(jobs); k++) {
		const char *other = pdb_json_str(json_array_get(jobs, k), "jobname");
		if (other && strcmp(other, name) == 0) {
			if (k < i)
				(*index)++;
			n++;
		}
	}
	return n;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	json_t *doc = pdb_json_load(src, err), *jobs, *v;
	const char *key;
	char at[32];
	size_t i;
	int ret = -1;

	if (!doc)
		return -1;
	if (!json_is_object(doc)) {
		pdb_json_bad(err, src, "$", "expected a fio JSON report object");
		goto out;
	}
	jobs = json_object_get(doc, "jobs");
	if (!json_is_array(jobs)) {
		pdb_json_bad(err, src, "$.jobs", "expected an array of jobs");
		goto out;
	}
	pdb_set_str(&run->tool, "fio");
	/* the time it was measured: the report's, in seconds since the epoch */
	if (json_is_integer(json_object_get(doc, "timestamp")) &&
	    pdb_utc_from_epoch(json_integer_value(json_object_get(doc, "timestamp")), at) == 0)
		pdb_set_str(&run->created_at, at);
	json_object_foreach(doc, key, v) {
		if (strcmp(key, "jobs") == 0)
			continue;
		keep(run, "fio", strcmp(key, "global options") == 0 ? "global" : key, v);
	}
	json_array_foreach(jobs, i, v) {
		struct job job = { .src = src, .run = run };
		char clone[24];
		size_t index, n;
		job.name = pdb_json_str(v, "jobname");
		snprintf(job.path, sizeof job.path, "$.jobs[%zu]", i);
		if (!job.name) {
			bad(&job, ".jobname", "expected the job name (a string)", err);
			goto out;
		}
		n = same_name(jobs, i, &index);
		if (n > 1) /* numjobs > 1 without group_reporting: one entry per clone */
			snprintf(job.attr, sizeof job.attr, "fio.job[%s#%zu]", job.name, index);
		else
			snprintf(job.attr, sizeof job.attr, "fio.job[%s]", job.name);
		if (n > 1) {
			snprintf(clone, sizeof clone, "%zu", index);
			job.dims[0].key = "clone";
			job.dims[0].value = clone;
			job.ndims = 1;
		}
		if (one_job(&job, v, err) < 0)
			goto out;
	}
	ret = 0;
out:
	json_decref(doc);
	return ret;
}

const struct pdb_format pdb_format_fio = {
	.name = "fio",
	.summary = "fio --output-format=json: iops, bandwidth, latency percentiles per job and direction",
	.detect = detect,
	.parse = parse,
};
