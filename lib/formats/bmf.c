/* Format: Bencher Metric Format JSON ({benchmark: {measure: {value, lower_value, upper_value}}}). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "formats/format.h"
#include "parse/json_util.h"
#include "util.h"

/* BMF carries no units: Bencher's built-in measures have fixed ones. Any
 * other measure is kept without a unit (count, direction none). */
static const struct {
	const char *measure, *unit;
} builtin[] = {
	{ "latency", "ns" },
	{ "throughput", "ops/s" },
	{ "build-time", "s" },
	{ "file-size", "B" },
};

static const char *skip_ws(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* Skip a JSON string (on its opening quote); its content into out. */
static const char *scan_string(const char *p, char *out, size_t size)
{
	size_t n = 0;

	for (p++; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1])
			p++;
		if (n + 1 < size)
			out[n++] = *p;
	}
	out[n] = '\0';
	return *p == '"' ? p + 1 : NULL;
}

/* '{' "name" ':' '{' "measure" ':' '{' "value" (or lower_/upper_value). */
static int detect(const struct pdb_source *src)
{
	const char *p;
	char key[16];

	if (src->is_dir || pdb_head_first(src) != '{')
		return 0;
	p = skip_ws(strchr((const char *)src->head, '{') + 1);
	for (int level = 0; level < 2; level++) {
		if (*p != '"' || !(p = scan_string(p, key, sizeof key)))
			return 0;
		p = skip_ws(p);
		if (*p != ':')
			return 0;
		p = skip_ws(p + 1);
		if (*p != '{')
			return 0;
		p = skip_ws(p + 1);
	}
	if (*p != '"' || !(p = scan_string(p, key, sizeof key)))
		return 0;
	return strcmp(key, "value") == 0 || strcmp(key, "lower_value") == 0 ||
	       strcmp(key, "upper_value") == 0 ? 70 : 0;
}

static const char *unit_of(const char *measure)
{
	for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
		if (strcmp(builtin[i].measure, measure) == 0)
			return builtin[i].unit;
	return "";
}

static int parse_measure(const struct pdb_source *src, const char *bench,
			 const char *measure, json_t *m, struct pdb_run *run,
			 struct pdb_err *err)
{
	char path[1024];
	struct pdb_result *r;
	const char *k;
	json_t *v;
	double d;

	snprintf(path, sizeof path, "$.%s.%s", bench, measure);
	if (!json_is_object(m))
		return pdb_json_bad(err, src, path, "expected an object with a value");
	if (pdb_json_num(json_object_get(m, "value"), &d) < 0) {
		snprintf(path, sizeof path, "$.%s.%s.value", bench, measure);
		return pdb_json_bad(err, src, path, json_object_get(m, "value")
				    ? "expected a number" : "missing");
	}
	r = pdb_run_add_result(run, bench, measure, unit_of(measure));
	pdb_result_add_raw(r, d);
	json_object_foreach(m, k, v) {
		if (strcmp(k, "value") == 0)
			continue;
		snprintf(path, sizeof path, "$.%s.%s.%s", bench, measure, k);
		if (pdb_json_num(v, &d) < 0)
			return pdb_json_bad(err, src, path, "expected a number");
		/* lower_value, upper_value (and any other bound) keep their names */
		pdb_result_set_stat_raw(r, k, d);
	}
	return 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	json_t *doc = pdb_json_load(src, err), *measures, *m;
	const char *bench, *measure;
	char path[1024];
	int ret = -1;

	if (!doc)
		return -1;
	if (!json_is_object(doc)) {
		pdb_json_bad(err, src, "$", "expected an object of benchmarks");
		goto out;
	}
	json_object_foreach(doc, bench, measures) {
		if (!json_is_object(measures)) {
			snprintf(path, sizeof path, "$.%s", bench);
			pdb_json_bad(err, src, path, "expected an object of measures");
			goto out;
		}
		json_object_foreach(measures, measure, m)
			if (parse_measure(src, bench, measure, m, run, err) < 0)
				goto out;
	}
	pdb_set_str(&run->tool, "bencher");
	ret = 0;
out:
	json_decref(doc);
	return ret;
}

const struct pdb_format pdb_format_bmf = {
	.name = "bmf",
	.summary = "Bencher Metric Format JSON (latency ns, throughput ops/s, build-time s, file-size B)",
	.detect = detect,
	.parse = parse,
};
