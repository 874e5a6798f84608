/* Canonical JSON: perfdb's own lossless form of a run (what `show --format json` prints). */
#include "canonical.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "parse/json_packed.h"
#include "parse/json_pos.h"
#include "parse/json_util.h"
#include "units.h"
#include "util.h"

json_t *pdb_json_number(double v)
{
	if (!isfinite(v))
		return json_null();
	if (v == 0 && signbit(v))
		return json_real(v); /* -0: an integer has no sign to keep */
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_integer((json_int_t)v);
	return json_real(v);
}

/* A canonical value: a number, null for NaN (absent), and the strings
 * "Infinity" and "-Infinity", which JSON has no number for, so that every value
 * perfdb accepts comes back the same. */
static json_t *value_json(double v)
{
	if (isinf(v))
		return json_string(v > 0 ? "Infinity" : "-Infinity");
	return pdb_json_number(v);
}

static json_t *opt_string(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *sample_json(const struct pdb_sample *s)
{
	json_t *o;

	if (!pdb_sample_has_t(s) && !pdb_sample_has_weight(s))
		return value_json(s->value);
	o = json_object();
	json_object_set_new(o, "value", value_json(s->value));
	if (pdb_sample_has_t(s))
		json_object_set_new(o, "t", value_json(s->t));
	if (pdb_sample_has_weight(s))
		json_object_set_new(o, "weight", value_json(s->weight));
	return o;
}

static json_t *result_json(const struct pdb_result *r)
{
	json_t *o = json_object(), *dims = json_object(), *samples = json_array(),
	       *stats = json_object();

	json_object_set_new(o, "benchmark", json_string(r->benchmark));
	for (size_t i = 0; i < r->ndims; i++)
		json_object_set_new(dims, r->dims[i].key, json_string(r->dims[i].value));
	json_object_set_new(o, "dims", dims);
	json_object_set_new(o, "metric", json_string(r->metric));
	json_object_set_new(o, "unit", json_string(r->unit));
	json_object_set_new(o, "direction", json_string(pdb_direction_name(r->direction)));
	if (r->raw_unit)
		json_object_set_new(o, "raw_unit", json_string(r->raw_unit));
	if (r->raw_name)
		json_object_set_new(o, "raw_name", json_string(r->raw_name));
	for (size_t i = 0; i < r->nsamples; i++)
		json_array_append_new(samples, sample_json(&r->samples[i]));
	json_object_set_new(o, "samples", samples);
	for (size_t i = 0; i < r->nstats; i++)
		json_object_set_new(stats, r->stats[i].name, value_json(r->stats[i].value));
	json_object_set_new(o, "stats", stats);
	return o;
}

static json_t *failure_json(const struct pdb_failure *f)
{
	json_t *o = json_object(), *dims = json_object();

	json_object_set_new(o, "benchmark", json_string(f->benchmark));
	for (size_t i = 0; i < f->ndims; i++)
		json_object_set_new(dims, f->dims[i].key, json_string(f->dims[i].value));
	json_object_set_new(o, "dims", dims);
	json_object_set_new(o, "reason", json_string(f->reason));
	return o;
}

json_t *pdb_canonical_from_run(const struct pdb_run *run)
{
	json_t *o = json_object(), *attrs = json_object(), *results = json_array(),
	       *failures = json_array();

	json_object_set_new(o, "id", run->id ? json_sprintf("run%lld", (long long)run->id) : json_null());
	json_object_set_new(o, "uuid", json_string(run->uuid));
	json_object_set_new(o, "name", opt_string(run->name));
	json_object_set_new(o, "created_at", opt_string(run->created_at));
	json_object_set_new(o, "tool", opt_string(run->tool));
	json_object_set_new(o, "format", opt_string(run->format));
	json_object_set_new(o, "source", opt_string(run->source));
	json_object_set_new(o, "sha256", opt_string(run->sha256));
	json_object_set_new(o, "status", opt_string(run->status));
	for (size_t i = 0; i < run->nattrs; i++)
		json_object_set_new(attrs, run->attrs[i].key, json_string(run->attrs[i].value));
	json_object_set_new(o, "attrs", attrs);
	for (size_t i = 0; i < run->nresults; i++)
		json_array_append_new(results, result_json(&run->results[i]));
	json_object_set_new(o, "results", results);
	for (size_t i = 0; i < run->nfailures; i++)
		json_array_append_new(failures, failure_json(&run->failures[i]));
	json_object_set_new(o, "failures", failures);
	return o;
}

/* The document's text, to say where in it a value is (jansson keeps no
 * positions), and the name of the file or message it came from. */
/* Where a document came from: its text, or (read packed) the file to read
 * its text from when an error needs a position, and the packed arrays. */
struct text {
	const char *name, *data;
	size_t len;
	const struct pdb_source *file;
	struct pdb_json_doc *packed;
};

/* An error at the value path names ("$.results[0].unit": the walk of the text
 * finds its line and column; a value that is missing, at its object's). */
static int bad(struct pdb_err *err, const struct text *src, const char *path, const char *what)
{
	struct pdb_err ignored;
	char *text = NULL;
	const char *data = src->data;
	size_t len = src->len;
	int ret;

	if (!data && src->file) /* read packed: the text only now, for the position */
		data = text = pdb_json_read(src->file, &len, &ignored);
	ret = pdb_json_bad_in(err, src->name, data, len, path, what);
	free(text);
	return ret;
}

static int get_string(json_t *o, const char *key, int required, const char **out,
		      const struct text *src, const char *path, struct pdb_err *err)
{
	json_t *v = json_object_get(o, key);
	char where[256];

	*out = NULL;
	if (!v || json_is_null(v)) {
		if (!required)
			return 0;
		snprintf(where, sizeof where, "%s.%s", path, key);
		return bad(err, src, where, "missing");
	}
	if (!json_is_string(v)) {
		snprintf(where, sizeof where, "%s.%s", path, key);
		return bad(err, src, where, "expected a string");
	}
	*out = json_string_value(v);
	return 0;
}

static int number_of(json_t *v, double *out)
{
	if (json_is_number(v))
		*out = json_number_value(v);
	else if (json_is_null(v))
		*out = NAN;
	else if (json_is_string(v) && strcmp(json_string_value(v), "Infinity") == 0)
		*out = INFINITY;
	else if (json_is_string(v) && strcmp(json_string_value(v), "-Infinity") == 0)
		*out = -INFINITY;
	else
		return -1;
	return 0;
}

static int read_sample(json_t *v, struct pdb_sample *s)
{
	*s = PDB_SAMPLE(NAN);
	if (!json_is_object(v))
		return number_of(v, &s->value);
	if (number_of(json_object_get(v, "value"), &s->value) < 0)
		return -1;
	if (json_object_get(v, "t")) {
		if (number_of(json_object_get(v, "t"), &s->t) < 0)
			return -1;
	}
	if (json_object_get(v, "weight")) {
		if (number_of(json_object_get(v, "weight"), &s->weight) < 0)
			return -1;
	}
	return 0;
}

/* Dims of a canonical object (a result or a failure) into a new array (*out,
 * caller frees; the strings stay the document's). */
static int read_dims(json_t *o, struct pdb_attr **out, size_t *n, const struct text *src,
		     const char *path, struct pdb_err *err)
{
	json_t *dims = json_object_get(o, "dims"), *v;
	char where[256];
	const char *k;

	*out = NULL;
	*n = 0;
	if (dims && !json_is_object(dims)) {
		snprintf(where, sizeof where, "%s.dims", path);
		return bad(err, src, where, "expected an object");
	}
	*out = pdb_xcalloc(json_object_size(dims) + 1, sizeof **out);
	json_object_foreach(dims, k, v) {
		if (!json_is_string(v)) {
			free(*out);
			*out = NULL;
			snprintf(where, sizeof where, "%s.dims.%s", path, k);
			return bad(err, src, where, "expected a string");
		}
		(*out)[*n].key = (char *)k;
		(*out)[(*n)++].value = (char *)json_string_value(v);
	}
	return 0;
}

static int read_result(json_t *o, struct pdb_run *run, const struct text *src,
		       const char *path, struct pdb_err *err)
{
	const char *bench, *metric, *unit, *dirname, *raw_unit, *raw_name, *k;
	const struct pdb_json_numbers *nums;
	json_t *samples, *stats, *v;
	struct pdb_attr *dims;
	size_t ndims;
	struct pdb_result *r;
	char where[256];
	size_t i;

	if (!json_is_object(o))
		return bad(err, src, path, "expected an object");
	if (get_string(o, "benchmark", 1, &bench, src, path, err) < 0 ||
	    get_string(o, "metric", 1, &metric, src, path, err) < 0 ||
	    get_string(o, "unit", 1, &unit, src, path, err) < 0 ||
	    get_string(o, "direction", 0, &dirname, src, path, err) < 0 ||
	    get_string(o, "raw_unit", 0, &raw_unit, src, path, err) < 0 ||
	    get_string(o, "raw_name", 0, &raw_name, src, path, err) < 0)
		return -1;
	if (read_dims(o, &dims, &ndims, src, path, err) < 0)
		return -1;
	r = pdb_run_result_with_dims(run, bench, dims, ndims, metric, unit);
	free(dims);
	if (r->nsamples || r->nstats) {
		snprintf(where, sizeof where, "%s", path);
		return bad(err, src, where, "the same benchmark, dims and metric appear twice");
	}
	/* canonical values are stored as given: the unit is already canonical */
	pdb_set_str(&r->unit, unit);
	r->scale = 1;
	if (dirname && pdb_direction_parse(dirname, &r->direction) < 0) {
		snprintf(where, sizeof where, "%s.direction", path);
		return bad(err, src, where, "expected lower, higher or none");
	}
	pdb_set_str(&r->raw_unit, raw_unit);
	pdb_set_str(&r->raw_name, raw_name);
	samples = json_object_get(o, "samples");
	if (samples && !json_is_array(samples)) {
		snprintf(where, sizeof where, "%s.samples", path);
		return bad(err, src, where, "expected an array");
	}
	if (src->packed && (nums = pdb_json_doc_numbers(src->packed, samples))) {
		for (i = 0; i < nums->n; i++) {
			struct pdb_sample s = PDB_SAMPLE(nums->values[i]);
			pdb_result_add_sample(r, &s);
		}
		pdb_json_doc_drop(src->packed, samples);
		samples = NULL; /* read: the loop below is for a jansson array */
	}
	json_array_foreach(samples, i, v) {
		struct pdb_sample s;
		if (read_sample(v, &s) < 0) {
			snprintf(where, sizeof where, "%s.samples[%zu]", path, i);
			return bad(err, src, where, "expected a number or {\"value\",\"t\",\"weight\"}");
		}
		pdb_result_add_sample(r, &s);
	}
	stats = json_object_get(o, "stats");
	if (stats && !json_is_object(stats)) {
		snprintf(where, sizeof where, "%s.stats", path);
		return bad(err, src, where, "expected an object");
	}
	json_object_foreach(stats, k, v) {
		double x;
		if (number_of(v, &x) < 0) {
			snprintf(where, sizeof where, "%s.stats.%s", path, k);
			return bad(err, src, where, "expected a number");
		}
		pdb_result_set_stat(r, k, x);
	}
	return 0;
}

static int read_failure(json_t *o, struct pdb_run *run, const struct text *src,
			const char *path, struct pdb_err *err)
{
	const char *bench, *reason;
	struct pdb_attr *dims;
	size_t ndims;

	if (!json_is_object(o))
		return bad(err, src, path, "expected an object");
	if (get_string(o, "benchmark", 1, &bench, src, path, err) < 0 ||
	    get_string(o, "reason", 1, &reason, src, path, err) < 0 ||
	    read_dims(o, &dims, &ndims, src, path, err) < 0)
		return -1;
	pdb_run_add_failure(run, bench, dims, ndims, reason);
	free(dims);
	return 0;
}

/* Whether s is a time as perfdb writes created_at: YYYY-MM-DDTHH:MM:SSZ, UTC,
 * a day the calendar has. */
static int utc_time_ok(const char *s)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	int y, mo, d, h, mi, sec, leap;

	if (strlen(s) != sizeof shape - 1)
		return 0;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
			return 0;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &sec) != 6 || mo < 1 || mo > 12)
		return 0;
	leap = mo == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
	return d >= 1 && d <= days[mo - 1] + leap && h <= 23 && mi <= 59 && sec <= 59;
}

/* created_at and status, which read commands trust: what perfdb writes. */
static int check_run_fields(const struct pdb_run *run, json_t *doc, const struct text *src,
			    struct pdb_err *err)
{
	if (json_is_string(json_object_get(doc, "created_at")) && !utc_time_ok(run->created_at))
		return bad(err, src, "$.created_at", "expected a UTC time as perfdb writes it, "
			   "such as 2026-11-01T12:00:00Z");
	if (json_is_string(json_object_get(doc, "status")) && strcmp(run->status, "complete") != 0 &&
	    strcmp(run->status, "interrupted") != 0 && strcmp(run->status, "failed") != 0)
		return bad(err, src, "$.status", "expected complete, interrupted or failed");
	return 0;
}

static int to_run(json_t *doc, struct pdb_run *run, const struct text *src,
		  struct pdb_err *err)
{
	static const char *fields[] = { "name", "created_at", "tool", "format", "source", "sha256", "status" };
	char **targets[] = { &run->name, &run->created_at, &run->tool, &run->format,
			     &run->source, &run->sha256, &run->status };
	const char *uuid, *s, *k;
	json_t *attrs, *results, *failures, *v;
	size_t i;

	if (!json_is_object(doc))
		return bad(err, src, "$", "expected an object");
	if (get_string(doc, "uuid", 0, &uuid, src, "$", err) < 0)
		return -1;
	if (uuid) {
		if (strlen(uuid) != 36)
			return bad(err, src, "$.uuid", "expected a 36-character uuid");
		memcpy(run->uuid, uuid, 37);
	}
	run->own_identity = json_object_get(doc, "sha256") != NULL;
	for (i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		if (get_string(doc, fields[i], 0, &s, src, "$", err) < 0)
			return -1;
		if (s)
			pdb_set_str(targets[i], s);
	}
	if (check_run_fields(run, doc, src, err) < 0)
		return -1;
	attrs = json_object_get(doc, "attrs");
	if (attrs && !json_is_object(attrs))
		return bad(err, src, "$.attrs", "expected an object");
	json_object_foreach(attrs, k, v) {
		if (!json_is_string(v)) {
			char where[256];
			snprintf(where, sizeof where, "$.attrs.%s", k);
			return bad(err, src, where, "expected a string");
		}
		pdb_run_set_attr(run, k, json_string_value(v));
	}
	results = json_object_get(doc, "results");
	if (!json_is_array(results))
		return bad(err, src, "$.results", "expected an array");
	json_array_foreach(results, i, v) {
		char where[64];
		snprintf(where, sizeof where, "$.results[%zu]", i);
		if (read_result(v, run, src, where, err) < 0)
			return -1;
	}
	failures = json_object_get(doc, "failures"); /* absent before schema 3 */
	if (failures && !json_is_array(failures))
		return bad(err, src, "$.failures", "expected an array");
	json_array_foreach(failures, i, v) {
		char where[64];
		snprintf(where, sizeof where, "$.failures[%zu]", i);
		if (read_failure(v, run, src, where, err) < 0)
			return -1;
	}
	return 0;
}

int pdb_canonical_read_packed(struct pdb_json_doc *doc, const struct pdb_source *file,
			      struct pdb_run *run, struct pdb_err *err)
{
	struct text src = { file->name, NULL, 0, file, doc };

	return to_run(doc->root, run, &src, err);
}

int pdb_canonical_read(char *text, size_t len, struct pdb_run *run, const char *name,
		       struct pdb_err *err)
{
	struct text src = { name, text, len, NULL, NULL };
	json_t *doc = pdb_json_parse(text, len, name, 1, NULL, err);
	int ret;

	if (!doc)
		return -1;
	ret = to_run(doc, run, &src, err);
	json_decref(doc);
	return ret;
}
