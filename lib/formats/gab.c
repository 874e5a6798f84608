/* Format: github-action-benchmark custom JSON ([{name, unit, value, range, extra}]). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "parse/json_util.h"
#include "util.h"

/* The file carries no direction: "gab" lets the unit decide, the forced
 * names stand for customBiggerIsBetter and customSmallerIsBetter. */
enum { BY_UNIT = 2 };

static const char *const known_keys[] = { "name", "unit", "value", "range", "extra" };

/* Skip a JSON string at *p (on its opening quote); copy up to size-1 bytes of
 * its raw content into out. 0, or -1 when it does not end in the head. */
static int scan_string(const char **p, char *out, size_t size)
{
	const char *s = *p + 1;
	size_t n = 0;

	for (; *s && *s != '"'; s++) {
		if (*s == '\\' && s[1])
			s++;
		if (n + 1 < size)
			out[n++] = *s;
	}
	if (*s != '"')
		return -1;
	out[n] = '\0';
	*p = s + 1;
	return 0;
}

static const char *skip_ws(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* Does the head open with an array whose first object has only scalar
 * values under the keys of a custom benchmark entry? */
static int detect(const struct pdb_source *src)
{
	const char *p;
	char key[32], scratch[8];
	int seen = 0;

	if (src->is_dir || pdb_head_first(src) != '[')
		return 0;
	p = skip_ws(strchr((const char *)src->head, '[') + 1);
	if (*p != '{')
		return 0;
	p = skip_ws(p + 1);
	while (*p == '"') {
		size_t k;
		if (scan_string(&p, key, sizeof key) < 0)
			return 0;
		for (k = 0; k < sizeof known_keys / sizeof known_keys[0]; k++)
			if (strcmp(key, known_keys[k]) == 0)
				break;
		if (k == sizeof known_keys / sizeof known_keys[0])
			return 0;
		seen |= 1 << k;
		p = skip_ws(p);
		if (*p != ':')
			return 0;
		p = skip_ws(p + 1);
		if (*p == '"') {
			if (scan_string(&p, scratch, sizeof scratch) < 0)
				return 0;
		} else {
			if (*p == '{' || *p == '[' || !*p)
				return 0;
			while (*p && *p != ',' && *p != '}' && !isspace((unsigned char)*p))
				p++;
		}
		p = skip_ws(p);
		if (*p == ',')
			p = skip_ws(p + 1);
	}
	return *p == '}' && (seen & 7) == 7 ? 70 : 0;
}

/* range: a number (or "± 20") becomes the stat "range" in the unit; other
 * text ("5%") stays as the attribute NAME.range. */
static void add_range(struct pdb_run *run, struct pdb_result *r, const char *name,
		      const json_t *v)
{
	double d;
	const char *s = json_string_value(v);
	char *key, *text;

	if (pdb_json_num(v, &d) == 0) {
		pdb_result_set_stat_raw(r, "range", d);
		return;
	}
	if (s) {
		if (strncmp(s, "\xc2\xb1", 2) == 0)
			s += 2;
		while (isspace((unsigned char)*s))
			s++;
		if (pdb_parse_double(s, &d) == 0) {
			pdb_result_set_stat_raw(r, "range", d);
			return;
		}
	}
	key = pdb_xasprintf("%s.range", name);
	text = pdb_json_text(v);
	pdb_run_set_attr(run, key, text);
	free(text);
	free(key);
}

static int parse_entry(const struct pdb_source *src, json_t *e, size_t i,
		       struct pdb_run *run, int direction, struct pdb_err *err)
{
	char path[64], where[96];
	const char *name, *unit, *k;
	struct pdb_result *r;
	json_t *v;
	double value;

	snprintf(path, sizeof path, "$[%zu]", i);
	if (!json_is_object(e))
		return pdb_json_bad(err, src, path, "expected an object");
	name = pdb_json_str(e, "name");
	unit = pdb_json_str(e, "unit");
	if (!name) {
		snprintf(where, sizeof where, "%s.name", path);
		return pdb_json_bad(err, src, where, "expected a string");
	}
	if (!unit) {
		snprintf(where, sizeof where, "%s.unit", path);
		return pdb_json_bad(err, src, where, "expected a string");
	}
	if (pdb_json_num(json_object_get(e, "value"), &value) < 0) {
		snprintf(where, sizeof where, "%s.value", path);
		return pdb_json_bad(err, src, where, "expected a number");
	}
	r = pdb_run_add_result(run, name, "value", unit);
	if (direction != BY_UNIT)
		r->direction = direction;
	pdb_result_add_raw(r, value);
	json_object_foreach(e, k, v) {
		char *key, *text;
		if (strcmp(k, "name") == 0 || strcmp(k, "unit") == 0 || strcmp(k, "value") == 0)
			continue;
		if (strcmp(k, "range") == 0) {
			add_range(run, r, name, v);
			continue;
		}
		key = pdb_xasprintf("%s.%s", name, k);
		text = pdb_json_text(v);
		pdb_run_set_attr(run, key, text);
		free(text);
		free(key);
	}
	return 0;
}

static int parse_with(const struct pdb_source *src, struct pdb_run *run,
		      int direction, struct pdb_err *err)
{
	json_t *doc = pdb_json_load(src, err), *e;
	size_t i;
	int ret = -1;

	if (!doc)
		return -1;
	if (!json_is_array(doc)) {
		pdb_json_bad(err, src, "$", "expected an array of {name, unit, value}");
		goto out;
	}
	json_array_foreach(doc, i, e) {
		pdb_json_entry(run, "$", i);
		if (parse_entry(src, e, i, run, direction, err) < 0)
			goto out;
	}
	pdb_set_str(&run->tool, "github-action-benchmark");
	ret = 0;
out:
	json_decref(doc);
	return ret;
}

static int parse_by_unit(const struct pdb_source *src, struct pdb_run *run,
			 struct pdb_err *err)
{
	return parse_with(src, run, BY_UNIT, err);
}

static int parse_bigger(const struct pdb_source *src, struct pdb_run *run,
			struct pdb_err *err)
{
	return parse_with(src, run, PDB_DIR_HIGHER, err);
}

static int parse_smaller(const struct pdb_source *src, struct pdb_run *run,
			 struct pdb_err *err)
{
	return parse_with(src, run, PDB_DIR_LOWER, err);
}

static int detect_never(const struct pdb_source *src)
{
	(void)src;
	return 0;
}

const struct pdb_format pdb_format_gab = {
	.name = "gab",
	.summary = "github-action-benchmark custom JSON; direction from the unit",
	.detect = detect,
	.parse = parse_by_unit,
};

const struct pdb_format pdb_format_gab_bigger = {
	.name = "gab-bigger",
	.summary = "github-action-benchmark customBiggerIsBetter JSON (every value higher is better)",
	.detect = detect_never,
	.parse = parse_bigger,
};

const struct pdb_format pdb_format_gab_smaller = {
	.name = "gab-smaller",
	.summary = "github-action-benchmark customSmallerIsBetter JSON (every value lower is better)",
	.detect = detect_never,
	.parse = parse_smaller,
};
