/* Format: Julia BenchmarkTools.save JSON of TrialEstimates in nested BenchmarkGroups. */
#include <stdlib.h>
#include <string.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "parse/json_util.h"
#include "util.h"

struct julia {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
};

/* ["TYPE", {fields}]: the fields when v is such a pair of type want, else
 * NULL with err naming path. */
static json_t *typed(struct julia *j, json_t *v, const char *want, const char *path)
{
	const char *type = json_string_value(json_array_get(v, 0));
	json_t *fields = json_array_get(v, 1);
	char *what;

	if (json_is_array(v) && json_array_size(v) == 2 && type && json_is_object(fields) &&
	    (!want || strcmp(type, want) == 0))
		return fields;
	what = pdb_xasprintf("expected [\"%s\", {...}]", want ? want : "TYPE");
	pdb_json_bad(j->err, j->src, path, what);
	free(what);
	return NULL;
}

static int number(struct julia *j, json_t *obj, const char *key, const char *path,
		  double *out)
{
	char *p;

	if (pdb_json_num(json_object_get(obj, key), out) == 0)
		return 0;
	p = pdb_xasprintf("%s.%s", path, key);
	pdb_json_bad(j->err, j->src, p, "expected a number");
	free(p);
	return -1;
}

/* A TrialEstimate: time and gctime (ns), memory (bytes), allocs; its
 * Parameters as attributes "params.KEY[BENCH]". */
static int estimate(struct julia *j, json_t *fields, const char *bench, const char *path)
{
	json_t *params, *v;
	struct pdb_result *r;
	double time, gctime, memory, allocs;
	const char *key;
	char *p;

	if (number(j, fields, "time", path, &time) < 0 ||
	    number(j, fields, "gctime", path, &gctime) < 0 ||
	    number(j, fields, "memory", path, &memory) < 0 ||
	    number(j, fields, "allocs", path, &allocs) < 0)
		return -1;
	r = pdb_run_add_result(j->run, bench, "time", "ns");
	pdb_result_add_raw(r, time);
	pdb_result_set_stat_raw(r, "gctime", gctime);
	pdb_result_add_raw(pdb_run_add_result(j->run, bench, "memory", "B"), memory);
	r = pdb_run_add_result(j->run, bench, "allocs", "count");
	r->direction = PDB_DIR_LOWER;
	pdb_result_add_raw(r, allocs);
	params = json_object_get(fields, "params");
	if (!params)
		return 0;
	p = pdb_xasprintf("%s.params", path);
	params = typed(j, params, "Parameters", p);
	free(p);
	if (!params)
		return -1;
	json_object_foreach(params, key, v) {
		char *k = pdb_xasprintf("params.%s", key);
		char *text = pdb_json_text(v);
		pdb_attr_set_bench(j->run, k, bench, text);
		free(text);
		free(k);
	}
	return 0;
}

/* A BenchmarkGroup: each member of data is a group or an estimate named
 * PREFIX/KEY; non-empty tags become attribute "tags[PREFIX]". */
static int group(struct julia *j, json_t *fields, const char *prefix, const char *path)
{
	json_t *data = json_object_get(fields, "data"), *tags, *v;
	const char *key;
	int ret = 0;

	if (!json_is_object(data)) {
		char *p = pdb_xasprintf("%s.data", path);
		pdb_json_bad(j->err, j->src, p, "expected an object");
		free(p);
		return -1;
	}
	tags = json_object_get(fields, "tags");
	if (json_array_size(tags) > 0) {
		char *k = *prefix ? pdb_xasprintf("tags[%s]", prefix) : pdb_xstrdup("tags");
		pdb_attr_set_json(j->run, k, tags);
		free(k);
	}
	json_object_foreach(data, key, v) {
		char *name = *prefix ? pdb_xasprintf("%s/%s", prefix, key) : pdb_xstrdup(key);
		char *p = pdb_xasprintf("%s.data.%s", path, key);
		char *p1 = pdb_xasprintf("%s[1]", p);
		const char *type = json_string_value(json_array_get(v, 0));
		json_t *f = typed(j, v, NULL, p);
		if (!f)
			ret = -1;
		else if (strcmp(type, "BenchmarkGroup") == 0)
			ret = group(j, f, name, p1);
		else if (strcmp(type, "TrialEstimate") == 0)
			ret = estimate(j, f, name, p1);
		else
			ret = pdb_json_bad(j->err, j->src, p,
					   "expected a BenchmarkGroup or a TrialEstimate");
		free(p1);
		free(p);
		free(name);
		if (ret < 0)
			break;
	}
	return ret;
}

static int detect(const struct pdb_source *src)
{
	return pdb_head_first(src) == '[' && pdb_head_has(src, "\"BenchmarkTools\"") &&
	       pdb_head_has(src, "\"BenchmarkGroup\"") ? 90 : 0;
}

/* [{"Julia": VERSION, "BenchmarkTools": VERSION}, [["BenchmarkGroup", {...}], ...]] */
static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct julia j = { .src = src, .run = run, .err = err };
	json_t *doc = pdb_json_load(src, err), *meta, *groups, *v;
	const char *key;
	size_t i;
	int ret = -1;

	if (!doc)
		return -1;
	meta = json_array_get(doc, 0);
	groups = json_array_get(doc, 1);
	if (!json_is_array(doc) || json_array_size(doc) != 2) {
		pdb_json_bad(err, src, "$", "expected [{versions}, [groups]]");
		goto out;
	}
	if (!json_is_object(meta)) {
		pdb_json_bad(err, src, "$[0]", "expected an object of versions");
		goto out;
	}
	if (!json_is_array(groups) || json_array_size(groups) == 0) {
		pdb_json_bad(err, src, "$[1]", "expected a non-empty array of BenchmarkGroups");
		goto out;
	}
	json_object_foreach(meta, key, v)
		pdb_attr_set_json(run, key, v);
	json_array_foreach(groups, i, v) {
		char *p = pdb_xasprintf("$[1][%zu]", i);
		char *p1 = pdb_xasprintf("$[1][%zu][1]", i);
		json_t *f = typed(&j, v, "BenchmarkGroup", p);
		int r = f ? group(&j, f, "", p1) : -1;
		free(p1);
		free(p);
		if (r < 0)
			goto out;
	}
	pdb_set_str(&run->tool, "julia-benchmarktools");
	ret = 0;
out:
	json_decref(doc);
	return ret;
}

const struct pdb_format pdb_format_julia_benchmarktools = {
	.name = "julia-benchmarktools",
	.summary = "Julia BenchmarkTools.save JSON: each TrialEstimate's time, memory, allocs",
	.detect = detect,
	.parse = parse,
};
