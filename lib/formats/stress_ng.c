/* Format: stress-ng --metrics --yaml FILE (system-info, metrics per stressor, times). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/format.h"
#include "parse/json_util.h"
#include "parse/text_util.h"
#include "units.h"
#include "util.h"
#include "yaml_doc.h"

/* Units and directions of the metrics stress-ng writes of every stressor
 * (which of them the gate judges is lib/metric_role.c's rule). A stressor
 * is bounded by time (-t) or by operations (--STRESSOR-ops): its two rates
 * say how fast either way, while bogo-ops, user-time and system-time are
 * the work done or the CPU it got under -t and the cost under --ops, so
 * they have no better side; wall-clock-time is -t itself or, under --ops,
 * the time the operations took. */
static const struct {
	const char *key, *unit;
	int direction;
} units[] = {
	{ "bogo-ops", "count", PDB_DIR_NONE },
	{ "bogo-ops-per-second-usr-sys-time", "bogo-ops/s", PDB_DIR_HIGHER },
	{ "bogo-ops-per-second-real-time", "bogo-ops/s", PDB_DIR_HIGHER },
	{ "wall-clock-time", "s", PDB_DIR_LOWER },
	{ "user-time", "s", PDB_DIR_NONE },
	{ "system-time", "s", PDB_DIR_NONE },
	{ "cpu-usage-per-instance", "%", PDB_DIR_NONE },
	{ "max-rss", "KiB", PDB_DIR_LOWER },   /* ru_maxrss, printed as "RSS Max (KB)" */
};

/* system-info keys that name perfdb's usual run attributes. */
static const struct {
	const char *key, *attr;
} env_keys[] = {
	{ "nodename", "host" }, { "release", "kernel" }, { "machine", "arch" },
	{ "cpus-online", "vcpus" }, { "totalram", "memory" },
};

static int detect(const struct pdb_source *src)
{
	if (pdb_head_has(src, "stress-ng-version:"))
		return 80;
	if (pdb_head_has(src, "metrics:") && pdb_head_has(src, "- stressor:"))
		return 70;
	return 0;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int known_key(const char *key)
{
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(units[i].key, key) == 0)
			return 1;
	return 0;
}

/* A stressor's own metric "NOUN-per-sec" or "NOUN-per-second" (the
 * matrix stressor's add-matrix-ops-per-sec, the cache stressor's
 * cache-ops-per-second): the unit "NOUN/s" into unit, or 0 when the word
 * before is no plain noun (a "mb" would be an amount stress-ng does not
 * define). */
static int rate_of_noun(const char *key, char *unit, size_t size)
{
	const char *end = has_suffix(key, "-per-sec") ? key + strlen(key) - 8
		: has_suffix(key, "-per-second") ? key + strlen(key) - 11 : NULL;
	const char *noun = end;
	struct pdb_unit u;

	while (noun && noun > key && noun[-1] != '-')
		noun--;
	if (!end || noun == end || (size_t)(end - noun) + 3 > size)
		return 0;
	snprintf(unit, size, "%.*s/s", (int)(end - noun), noun);
	return pdb_unit_parse(unit, &u) == 0 && u.scale == 1 && strcmp(u.canonical, unit) == 0 &&
	       u.direction == PDB_DIR_HIGHER;
}

/* Unit and direction of key: the table, else by its name, else none.
 * rate: room for a rate's unit. */
static const char *unit_of(const char *key, int *direction, char *rate, size_t size)
{
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(units[i].key, key) == 0) {
			*direction = units[i].direction;
			return units[i].unit;
		}
	*direction = PDB_DIR_NONE;
	if (has_suffix(key, "-percent"))
		return "%";
	if (has_suffix(key, "-time")) {
		*direction = PDB_DIR_LOWER;
		return "s";
	}
	if (rate_of_noun(key, rate, size)) {
		*direction = PDB_DIR_HIGHER;
		return rate;
	}
	return NULL;
}

static void add_value(struct pdb_run *run, const char *bench, const char *key, double v)
{
	int direction;
	char rate[64];
	const char *unit = unit_of(key, &direction, rate, sizeof rate);
	struct pdb_result *r = pdb_run_add_result(run, bench, key, unit);

	r->direction = direction;
	pdb_result_add_raw(r, v);
}

/* Numbers of obj become metrics of bench; other scalars attributes "bench.key". */
static int read_values(const struct pdb_yaml_doc *doc, json_t *obj, const char *bench,
		       const char *skip, struct pdb_run *run, struct pdb_err *err)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		char *attr, *text;
		if (skip && strcmp(key, skip) == 0)
			continue;
		if (json_is_number(v)) {
			add_value(run, bench, key, json_number_value(v));
			continue;
		}
		if (json_is_object(v) || json_is_array(v) || (known_key(key) && !json_is_null(v)))
			return pdb_yaml_bad(doc, v, PDB_EXIT_INPUT, err, "expected a number%s for '%s'",
					    known_key(key) ? "" : " or a text", key);
		if (json_is_null(v))
			continue; /* missing stays absent */
		attr = pdb_xasprintf("%s.%s", bench, key);
		text = pdb_json_text(v);
		pdb_run_set_attr(run, attr, text);
		free(attr);
		free(text);
	}
	return 0;
}

static void set_start_time(struct pdb_run *run, json_t *epoch)
{
	time_t t = (time_t)json_integer_value(epoch);
	struct tm tm;
	char text[32];

	if (json_is_integer(epoch) && gmtime_r(&t, &tm) &&
	    strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm))
		pdb_run_set_attr(run, "start_time", text);
}

static int read_system_info(const struct pdb_yaml_doc *doc, json_t *info,
			    struct pdb_run *run, struct pdb_err *err)
{
	const char *key;
	json_t *v;

	if (!json_is_object(info))
		return pdb_yaml_bad(doc, info, PDB_EXIT_INPUT, err, "expected a mapping for 'system-info'");
	json_object_foreach(info, key, v) {
		char *attr, *text;
		if (json_is_object(v) || json_is_array(v))
			return pdb_yaml_bad(doc, v, PDB_EXIT_INPUT, err,
					    "expected a single value for 'system-info.%s'", key);
		if (json_is_null(v))
			continue;
		attr = pdb_xasprintf("system-info.%s", key);
		text = pdb_json_text(v);
		pdb_run_set_attr(run, attr, text);
		for (size_t i = 0; i < sizeof env_keys / sizeof env_keys[0]; i++)
			if (strcmp(env_keys[i].key, key) == 0)
				pdb_run_set_attr(run, env_keys[i].attr, text);
		free(attr);
		free(text);
	}
	set_start_time(run, json_object_get(info, "epoch-secs"));
	return 0;
}

static int read_metrics(const struct pdb_yaml_doc *doc, json_t *list, struct pdb_run *run,
			struct pdb_err *err)
{
	size_t i;
	json_t *item;

	if (!json_is_array(list))
		return pdb_yaml_bad(doc, list, PDB_EXIT_INPUT, err, "expected a list for 'metrics'");
	json_array_foreach(list, i, item) {
		const char *stressor = json_is_object(item) ? pdb_json_str(item, "stressor") : NULL;
		if (!stressor || !*stressor)
			return pdb_yaml_bad(doc, item, PDB_EXIT_INPUT, err,
					    "expected a mapping with a 'stressor' name in 'metrics'");
		if (read_values(doc, item, stressor, "stressor", run, err) < 0)
			return -1;
	}
	return 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct pdb_yaml_doc doc;
	const char *key;
	json_t *v;
	int ret = -1;

	if (pdb_yaml_load(src->path, src->name, &doc, err) < 0)
		return -1;
	if (!json_is_object(doc.root) || (!json_object_get(doc.root, "metrics") &&
					  !json_object_get(doc.root, "system-info"))) {
		pdb_yaml_bad(&doc, doc.root, PDB_EXIT_INPUT, err,
			     "not a stress-ng YAML file: expected 'system-info' and 'metrics'");
		goto out;
	}
	if (!doc.explicit_end) {
		/* stress-ng ends the document with "..." when it closes the file:
		 * without it the file was cut short, its last stressors or
		 * metrics gone */
		pdb_text_cut_short(src, err, "truncated: no '...' at the end (stress-ng writes it last)");
		goto out;
	}
	json_object_foreach(doc.root, key, v) {
		int rc;
		if (strcmp(key, "system-info") == 0)
			rc = read_system_info(&doc, v, run, err);
		else if (strcmp(key, "metrics") == 0)
			rc = read_metrics(&doc, v, run, err);
		else if (json_is_object(v))
			rc = read_values(&doc, v, key, NULL, run, err);
		else
			rc = pdb_yaml_bad(&doc, v, PDB_EXIT_INPUT, err,
					  "expected a mapping for '%s'", key);
		if (rc < 0)
			goto out;
	}
	pdb_set_str(&run->tool, "stress-ng");
	ret = 0;
out:
	pdb_yaml_doc_release(&doc);
	return ret;
}

const struct pdb_format pdb_format_stress_ng = {
	.name = "stress-ng",
	.summary = "stress-ng --metrics --yaml: bogo-ops, rates and times per stressor, system-info",
	.detect = detect,
	.parse = parse,
};
