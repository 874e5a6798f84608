/* Compare configuration: thresholds, direction overrides and ignores from perfdb.yaml. */
#include "compare_config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "util.h"
#include "yaml_doc.h"

void pdb_compare_config_init(struct pdb_compare_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->alpha = cfg->threshold_pct = cfg->warn_pct = cfg->run_noise_pct = NAN;
}

void pdb_compare_config_release(struct pdb_compare_config *cfg)
{
	for (size_t i = 0; i < cfg->nrules; i++) {
		free(cfg->rules[i].benchmark);
		free(cfg->rules[i].metric);
	}
	free(cfg->rules);
	pdb_compare_config_init(cfg);
}

/* A percentage: a number, or a string such as "5%" or "5". */
static int read_pct(const struct pdb_yaml_doc *doc, const json_t *v, const char *key,
		    double *out, struct pdb_err *err)
{
	char buf[64];
	size_t len;

	if (json_is_number(v)) {
		*out = json_number_value(v);
	} else if (json_is_string(v) && (len = strlen(json_string_value(v))) < sizeof buf) {
		memcpy(buf, json_string_value(v), len + 1);
		if (len > 0 && buf[len - 1] == '%')
			buf[len - 1] = '\0';
		if (pdb_parse_double(buf, out) < 0)
			return pdb_yaml_bad(doc, v, PDB_EXIT_USAGE, err,
					    "%s: expected a percentage such as 5 or \"5%%\"", key);
	} else {
		return pdb_yaml_bad(doc, v, PDB_EXIT_USAGE, err,
				    "%s: expected a percentage such as 5 or \"5%%\"", key);
	}
	if (!(*out >= 0 && *out < 1e6))
		return pdb_yaml_bad(doc, v, PDB_EXIT_USAGE, err,
				    "%s: %g is out of range (0 or more)", key, *out);
	return 0;
}

static int read_glob(const struct pdb_yaml_doc *doc, const json_t *v, const char *key,
		     char **out, struct pdb_err *err)
{
	if (!json_is_string(v) || !*json_string_value(v))
		return pdb_yaml_bad(doc, v, PDB_EXIT_USAGE, err,
				    "%s: expected a name or glob", key);
	free(*out);
	*out = pdb_xstrdup(json_string_value(v));
	return 0;
}

/* One entry of `rules:` (or of `ignore:`, when ignore_list). */
static int read_rule(const struct pdb_yaml_doc *doc, const json_t *obj, int ignore_list,
		     struct pdb_compare_rule *r, struct pdb_err *err)
{
	const char *key;
	json_t *v;

	r->threshold_pct = r->warn_pct = NAN;
	r->ignore = ignore_list;
	r->gate = -1;
	if (!json_is_object(obj) || json_object_size(obj) == 0)
		return pdb_yaml_bad(doc, obj, PDB_EXIT_USAGE, err,
				    "expected a mapping with benchmark and/or metric");
	json_object_foreach((json_t *)obj, key, v) {
		if (strcmp(key, "benchmark") == 0) {
			if (read_glob(doc, v, key, &r->benchmark, err) < 0)
				return -1;
		} else if (strcmp(key, "metric") == 0) {
			if (read_glob(doc, v, key, &r->metric, err) < 0)
				return -1;
		} else if (!ignore_list && strcmp(key, "threshold") == 0) {
			if (read_pct(doc, v, key, &r->threshold_pct, err) < 0)
				return -1;
		} else if (!ignore_list && strcmp(key, "warn") == 0) {
			if (read_pct(doc, v, key, &r->warn_pct, err) < 0)
				return -1;
		} else if (!ignore_list && strcmp(key, "direction") == 0) {
			if (!json_is_string(v) ||
			    pdb_direction_parse(json_string_value(v), &r->direction) < 0)
				return pdb_yaml_bad(doc, v, PDB_EXIT_USAGE, err,
						    "direction: expected lower, higher or none");
			r->has_direction = 1;
		} else if (!ignore_list && strcmp(key, "ignore") == 0) {
			if (!json_is_boolean(v))
				return pdb_yaml_bad(doc, v, PDB_EXIT_USAGE, err,
						    "ignore: expected true or false");
			r->ignore = json_is_true(v);
		} else if (!ignore_list && strcmp(key, "gate") == 0) {
			if (!json_is_boolean(v))
				return pdb_yaml_bad(doc, v, PDB_EXIT_USAGE, err,
						    "gate: expected true or false");
			r->gate = json_is_true(v);
		} else {
			static const char *const keys[] = {
				"benchmark", "metric", "threshold", "warn", "direction", "ignore", "gate",
			};
			char hint[80];
			/* an ignore entry takes only the first two */
			return pdb_yaml_bad_key(doc, obj, key, PDB_EXIT_USAGE, err,
						"unknown key '%s' in a compare %s entry%s", key,
						ignore_list ? "ignore" : "rule",
						pdb_did_you_mean(key, keys, ignore_list ? 2 : 7,
								 hint, sizeof hint));
		}
	}
	if (!r->benchmark && !r->metric)
		return pdb_yaml_bad(doc, obj, PDB_EXIT_USAGE, err,
				    "a rule needs benchmark or metric");
	return 0;
}

static int read_rules(const struct pdb_yaml_doc *doc, const json_t *list, int ignore_list,
		      struct pdb_compare_config *cfg, size_t *cap, struct pdb_err *err)
{
	size_t i;
	json_t *item;

	if (!json_is_array(list))
		return pdb_yaml_bad(doc, list, PDB_EXIT_USAGE, err, "%s: expected a list",
				    ignore_list ? "ignore" : "rules");
	json_array_foreach(list, i, item) {
		pdb_grow((void **)&cfg->rules, cap, cfg->nrules + 1, sizeof *cfg->rules);
		memset(&cfg->rules[cfg->nrules], 0, sizeof *cfg->rules);
		cfg->nrules++;
		if (read_rule(doc, item, ignore_list, &cfg->rules[cfg->nrules - 1], err) < 0)
			return -1;
	}
	return 0;
}

static int read_section(const struct pdb_yaml_doc *doc, const json_t *sec,
			struct pdb_compare_config *cfg, struct pdb_err *err)
{
	const char *key;
	json_t *v;
	size_t cap = 0;

	if (!json_is_object(sec))
		return pdb_yaml_bad(doc, sec, PDB_EXIT_USAGE, err, "compare: expected a mapping");
	json_object_foreach((json_t *)sec, key, v) {
		if (strcmp(key, "alpha") == 0) {
			cfg->alpha = json_is_number(v) ? json_number_value(v) : NAN;
			if (!(cfg->alpha > 0 && cfg->alpha < 1))
				return pdb_yaml_bad(doc, v, PDB_EXIT_USAGE, err,
						    "alpha: expected a number between 0 and 1");
		} else if (strcmp(key, "threshold") == 0) {
			if (read_pct(doc, v, key, &cfg->threshold_pct, err) < 0)
				return -1;
		} else if (strcmp(key, "warn") == 0) {
			if (read_pct(doc, v, key, &cfg->warn_pct, err) < 0)
				return -1;
		} else if (strcmp(key, "run_noise") == 0) {
			if (read_pct(doc, v, key, &cfg->run_noise_pct, err) < 0)
				return -1;
		} else if (strcmp(key, "rules") == 0) {
			if (read_rules(doc, v, 0, cfg, &cap, err) < 0)
				return -1;
		} else if (strcmp(key, "ignore") == 0) {
			if (read_rules(doc, v, 1, cfg, &cap, err) < 0)
				return -1;
		} else {
			static const char *const keys[] = {
				"alpha", "threshold", "warn", "run_noise", "rules", "ignore",
			};
			char hint[80];
			return pdb_yaml_bad_key(doc, sec, key, PDB_EXIT_USAGE, err, "unknown key '%s' in compare%s",
						key, pdb_did_you_mean(key, keys, 6, hint, sizeof hint));
		}
	}
	return 0;
}

int pdb_compare_config_load(const char *path, struct pdb_compare_config *cfg,
			    struct pdb_err *err)
{
	struct pdb_yaml_doc doc;
	json_t *sec;
	int ret = -1;

	pdb_compare_config_init(cfg);
	if (pdb_yaml_load(path, NULL, &doc, err) < 0) {
		err->code = PDB_EXIT_USAGE;
		goto out;
	}
	if (doc.root && !json_is_object(doc.root) && !json_is_null(doc.root)) {
		pdb_yaml_bad(&doc, doc.root, PDB_EXIT_USAGE, err, "expected a mapping");
		goto out;
	}
	sec = json_is_object(doc.root) ? json_object_get(doc.root, "compare") : NULL;
	if (sec && read_section(&doc, sec, cfg, err) < 0)
		goto out;
	ret = 0;
out:
	pdb_yaml_doc_release(&doc);
	return ret;
}

int pdb_compare_config_ignores(const struct pdb_compare_config *cfg, const char *benchmark)
{
	for (size_t i = 0; i < cfg->nrules; i++)
		if (cfg->rules[i].ignore && !cfg->rules[i].metric &&
		    pdb_glob_match(cfg->rules[i].benchmark, benchmark))
			return 1;
	return 0;
}

int pdb_compare_config_apply(const struct pdb_compare_config *cfg, const char *benchmark,
			     const char *metric, double *threshold_pct, double *warn_pct,
			     int *direction, int *gate)
{
	int ignored = 0;

	for (size_t i = 0; i < cfg->nrules; i++) {
		const struct pdb_compare_rule *r = &cfg->rules[i];
		if (!pdb_glob_match(r->benchmark, benchmark) || !pdb_glob_match(r->metric, metric))
			continue;
		if (r->ignore)
			ignored = 1;
		if (!isnan(r->threshold_pct))
			*threshold_pct = r->threshold_pct;
		if (!isnan(r->warn_pct))
			*warn_pct = r->warn_pct;
		if (r->has_direction)
			*direction = r->direction;
		if (r->gate >= 0)
			*gate = r->gate;
	}
	return ignored;
}
