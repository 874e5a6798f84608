/* Map specs: read and check a MAP.yaml (input kind, benchmark, dims, metrics, attrs). */
#include "formats/map_spec.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "util.h"
#include "yaml_doc.h"

struct reader {
	struct pdb_yaml_doc doc;
	struct pdb_map_spec *spec;
	struct pdb_err *err;
};

static int bad(struct reader *r, const json_t *v, const char *fmt, const char *arg)
{
	return pdb_yaml_bad(&r->doc, v, PDB_EXIT_INPUT, r->err, fmt, arg);
}

/* Every key of mapping o must be one of the NULL-ended allowed. */
static int check_keys(struct reader *r, json_t *o, const char *const *allowed,
		      const char *where)
{
	const char *key, *near;
	json_t *v;
	char msg[256];

	json_object_foreach(o, key, v) {
		size_t i;
		for (i = 0; allowed[i] && strcmp(allowed[i], key) != 0; i++)
			;
		if (allowed[i])
			continue;
		if ((near = pdb_closest(key, allowed, i)))
			return pdb_yaml_bad_key(&r->doc, o, key, PDB_EXIT_INPUT, r->err,
						"unknown key '%.60s' in %s (did you mean %s?)", key, where, near);
		snprintf(msg, sizeof msg, "unknown key '%.60s' in %s (expected:", key, where);
		for (i = 0; allowed[i]; i++)
			snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "%s %s",
				 i ? "," : "", allowed[i]);
		snprintf(msg + strlen(msg), sizeof msg - strlen(msg), ")");
		return pdb_yaml_bad_key(&r->doc, o, key, PDB_EXIT_INPUT, r->err, "%s", msg);
	}
	return 0;
}

static int text_at(struct reader *r, json_t *v, const char *what, char **out)
{
	if (!(*out = pdb_yaml_scalar_text(v)) || !**out) {
		free(*out);
		*out = NULL;
		return bad(r, v, "%s must be a non-empty text", what);
	}
	return 0;
}

static void where(struct reader *r, const json_t *v, struct pdb_map_field *f)
{
	pdb_yaml_where(&r->doc, v, &f->line, &f->col);
}

/* The column (or field path) of f from v. */
static int read_column(struct reader *r, json_t *v, struct pdb_map_field *f)
{
	if (r->spec->input == PDB_MAP_CSV && r->spec->header == 0) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > 100000)
			return bad(r, v, "%s", "without a header row, a column is its number (1, 2, ...)");
		f->number = (long)json_integer_value(v);
	}
	if (text_at(r, v, "a column", &f->column) < 0)
		return -1;
	if (r->spec->input != PDB_MAP_CSV) {
		struct pdb_map_step *steps;
		size_t n;
		const char *what;
		if (pdb_map_path_parse(f->column, &steps, &n, &what) < 0)
			return bad(r, v, "%s", what);
		pdb_map_steps_free(steps, n);
	}
	return 0;
}

/* A dims or attrs entry: "COLUMN", {column: C, name: N} or {name: N, value: V}. */
static int read_field(struct reader *r, json_t *v, const char *what,
		      struct pdb_map_field *f)
{
	static const char *const keys[] = { "column", "name", "value", NULL };
	json_t *column, *name, *value;

	where(r, v, f);
	if (!json_is_object(v)) {
		if (read_column(r, v, f) < 0)
			return -1;
		f->name = pdb_xstrdup(f->column);
		return 0;
	}
	if (check_keys(r, v, keys, what) < 0)
		return -1;
	column = json_object_get(v, "column");
	name = json_object_get(v, "name");
	value = json_object_get(v, "value");
	if (!column == !value)
		return bad(r, v, "%s needs either 'column' or 'value'", what);
	if (column && read_column(r, column, f) < 0)
		return -1;
	if (value && text_at(r, value, "a value", &f->value) < 0)
		return -1;
	if (name)
		return text_at(r, name, "a name", &f->name);
	if (!column)
		return bad(r, v, "%s with a constant value needs a 'name'", what);
	f->name = pdb_xstrdup(f->column);
	return 0;
}

static int read_fields(struct reader *r, json_t *list, const char *what,
		       struct pdb_map_field **out, size_t *n)
{
	size_t i;
	json_t *v;

	if (!json_is_array(list))
		return bad(r, list, "%ss must be a list", what);
	*out = pdb_xcalloc(json_array_size(list) + 1, sizeof **out);
	json_array_foreach(list, i, v) {
		(*n)++; /* counted first: a half-read entry is released too */
		if (read_field(r, v, what, &(*out)[i]) < 0)
			return -1;
		for (size_t k = 0; k < i; k++)
			if (strcmp((*out)[k].name, (*out)[i].name) == 0)
				return bad(r, v, "'%s' is named twice", (*out)[i].name);
	}
	return 0;
}

static int read_metric(struct reader *r, json_t *v, struct pdb_map_metric *m)
{
	static const char *const keys[] = { "column", "name", "unit", "direction", "stat", NULL };
	json_t *column, *name, *unit, *dir, *stat;

	where(r, v, &m->f);
	if (!json_is_object(v)) {
		if (read_column(r, v, &m->f) < 0)
			return -1;
		m->f.name = pdb_xstrdup(m->f.column);
		return 0;
	}
	if (check_keys(r, v, keys, "a metric") < 0)
		return -1;
	column = json_object_get(v, "column");
	name = json_object_get(v, "name");
	unit = json_object_get(v, "unit");
	dir = json_object_get(v, "direction");
	stat = json_object_get(v, "stat");
	if (!column)
		return bad(r, v, "%s", "a metric needs a 'column'");
	if (read_column(r, column, &m->f) < 0)
		return -1;
	if (!name)
		m->f.name = pdb_xstrdup(m->f.column);
	else if (text_at(r, name, "a name", &m->f.name) < 0)
		return -1;
	if (unit && !(m->unit = pdb_yaml_scalar_text(unit)))
		return bad(r, unit, "%s", "a unit must be a text such as ms, MB/s or %");
	if (stat && text_at(r, stat, "a stat", &m->stat) < 0)
		return -1;
	if (dir) {
		if (!json_is_string(dir) ||
		    pdb_direction_parse(json_string_value(dir), &m->direction) < 0)
			return bad(r, dir, "%s", "direction must be lower, higher or none");
		m->has_direction = 1;
	}
	return 0;
}

/* Entries of one metric name must agree on unit and direction, and give
 * its samples or one statistic only once. */
static int check_metric(struct reader *r, json_t *v, size_t i)
{
	const struct pdb_map_metric *m = r->spec->metrics, *a = &m[i];

	for (size_t k = 0; k < i; k++) {
		const struct pdb_map_metric *b = &m[k];
		if (strcmp(a->f.name, b->f.name) != 0)
			continue;
		if (!a->stat == !b->stat && (!a->stat || strcmp(a->stat, b->stat) == 0))
			return bad(r, v, "metric '%s' is given twice", a->f.name);
		if (strcmp(a->unit ? a->unit : "", b->unit ? b->unit : "") != 0 ||
		    a->has_direction != b->has_direction || a->direction != b->direction)
			return bad(r, v, "metric '%s' has another unit or direction above",
				   a->f.name);
	}
	return 0;
}

static int read_metrics(struct reader *r, json_t *list)
{
	struct pdb_map_spec *s = r->spec;
	size_t i;
	json_t *v;

	if (!json_is_array(list) || json_array_size(list) == 0)
		return bad(r, list, "%s", "metrics must be a non-empty list");
	s->metrics = pdb_xcalloc(json_array_size(list), sizeof *s->metrics);
	json_array_foreach(list, i, v) {
		s->nmetrics++; /* counted first: a half-read entry is released too */
		if (read_metric(r, v, &s->metrics[i]) < 0)
			return -1;
		if (check_metric(r, v, i) < 0)
			return -1;
	}
	return 0;
}

static int read_input(struct reader *r, json_t *root)
{
	static const char *const kinds[] = { "csv", "json", "yaml" };
	struct pdb_map_spec *s = r->spec;
	json_t *v = json_object_get(root, "input");

	if (!v)
		return bad(r, root, "%s", "MAP.yaml needs 'input: csv', 'input: json' or 'input: yaml'");
	for (int i = 0; i < 3; i++)
		if (json_is_string(v) && strcmp(json_string_value(v), kinds[i]) == 0) {
			s->input = i;
			return 0;
		}
	return bad(r, v, "%s", "input must be csv, json or yaml");
}

static int read_layout(struct reader *r, json_t *root)
{
	struct pdb_map_spec *s = r->spec;
	json_t *delim = json_object_get(root, "delimiter"),
	       *header = json_object_get(root, "header"),
	       *records = json_object_get(root, "records");
	struct pdb_map_step *steps = NULL;
	size_t n = 0;
	const char *what;
	int line, col;

	s->header = 1;
	if (s->input != PDB_MAP_CSV && (delim || header))
		return bad(r, delim ? delim : header, "%s", "delimiter and header are for input: csv");
	if (s->input == PDB_MAP_CSV && records)
		return bad(r, records, "%s", "records is for input: json or yaml");
	if (delim) {
		const char *d = json_string_value(delim);
		if (!d || strlen(d) != 1 || d[0] == '"' || d[0] == '\n' || d[0] == '\r')
			return bad(r, delim, "%s", "delimiter must be one character such as \",\" or \"\\t\"");
		s->delimiter = d[0];
	}
	if (header) {
		if (!json_is_integer(header) || json_integer_value(header) < 0 ||
		    json_integer_value(header) > 1000000)
			return bad(r, header, "%s", "header must be the row number of the column names (0: none)");
		s->header = (long)json_integer_value(header);
	}
	if (!records) {
		if (s->input != PDB_MAP_CSV)
			s->records = pdb_xstrdup("$");
		return 0;
	}
	if (!json_is_string(records))
		return bad(r, records, "%s", "records must be a path such as $.results");
	if (pdb_map_path_parse(json_string_value(records), &steps, &n, &what) < 0)
		return bad(r, records, "%s", what);
	pdb_map_steps_free(steps, n);
	s->records = pdb_xstrdup(json_string_value(records));
	pdb_yaml_where(&r->doc, records, &line, &col);
	s->records_line = line;
	s->records_col = col;
	return 0;
}

static int read_spec(struct reader *r)
{
	static const char *const keys[] = { "input", "delimiter", "header", "records", "tool",
					    "benchmark", "dims", "metrics", "attrs", NULL };
	struct pdb_map_spec *s = r->spec;
	json_t *root = r->doc.root, *v;

	if (!json_is_object(root))
		return bad(r, root, "%s", "MAP.yaml must be a mapping (input:, benchmark:, metrics:, ...)");
	if (check_keys(r, root, keys, "MAP.yaml") < 0 || read_input(r, root) < 0 ||
	    read_layout(r, root) < 0)
		return -1;
	if ((v = json_object_get(root, "tool")) && text_at(r, v, "tool", &s->tool) < 0)
		return -1;
	if (!(v = json_object_get(root, "benchmark")))
		return bad(r, root, "%s", "MAP.yaml needs 'benchmark: NAME' or 'benchmark: {column: C}'");
	where(r, v, &s->benchmark);
	if (json_is_object(v)) {
		if (read_field(r, v, "benchmark", &s->benchmark) < 0)
			return -1;
	} else if (text_at(r, v, "benchmark", &s->benchmark.value) < 0) {
		return -1;
	}
	if ((v = json_object_get(root, "dims")) && read_fields(r, v, "dim", &s->dims, &s->ndims) < 0)
		return -1;
	if ((v = json_object_get(root, "attrs")) &&
	    read_fields(r, v, "attr", &s->attrs, &s->nattrs) < 0)
		return -1;
	if (!(v = json_object_get(root, "metrics")))
		return bad(r, root, "%s", "MAP.yaml needs a list of metrics");
	return read_metrics(r, v);
}

int pdb_map_spec_load(const char *path, struct pdb_map_spec *spec, struct pdb_err *err)
{
	struct reader r = { .spec = spec, .err = err };
	int ret;

	memset(spec, 0, sizeof *spec);
	spec->file = pdb_xstrdup(path);
	if (pdb_yaml_load(path, NULL, &r.doc, err) < 0)
		return -1;
	ret = read_spec(&r);
	pdb_yaml_doc_release(&r.doc);
	return ret;
}

static void field_release(struct pdb_map_field *f)
{
	free(f->name);
	free(f->column);
	free(f->value);
}

void pdb_map_spec_release(struct pdb_map_spec *spec)
{
	free(spec->file);
	free(spec->records);
	free(spec->tool);
	field_release(&spec->benchmark);
	for (size_t i = 0; i < spec->ndims; i++)
		field_release(&spec->dims[i]);
	free(spec->dims);
	for (size_t i = 0; i < spec->nattrs; i++)
		field_release(&spec->attrs[i]);
	free(spec->attrs);
	for (size_t i = 0; i < spec->nmetrics; i++) {
		field_release(&spec->metrics[i].f);
		free(spec->metrics[i].unit);
		free(spec->metrics[i].stat);
	}
	free(spec->metrics);
	memset(spec, 0, sizeof *spec);
}

static void add_step(struct pdb_map_step **steps, size_t *n, size_t *cap, char *key, long index)
{
	pdb_grow((void **)steps, cap, *n + 1, sizeof **steps);
	(*steps)[*n].key = key;
	(*steps)[*n].index = index;
	(*n)++;
}

int pdb_map_path_parse(const char *path, struct pdb_map_step **steps, size_t *nsteps,
		       const char **what)
{
	const char *p = path;
	size_t cap = 0;

	*steps = NULL;
	*nsteps = 0;
	if (*p == '$')
		p++;
	while (*p) {
		if (*nsteps && (*steps)[*nsteps - 1].index == -1) {
			*what = "[*] may only end a path";
			goto fail;
		}
		if (*p == '[') {
			char *end;
			long index;
			if (p[1] == '*' && p[2] == ']') {
				add_step(steps, nsteps, &cap, NULL, -1);
				p += 3;
				continue;
			}
			index = strtol(p + 1, &end, 10);
			if (end == p + 1 || *end != ']' || index < 0 || p[1] == '-' || p[1] == '+') {
				*what = "expected [N] or [*] in the path";
				goto fail;
			}
			add_step(steps, nsteps, &cap, NULL, index);
			p = end + 1;
			continue;
		}
		if (*p == '.') {
			p++;
		} else if (p != path) {
			*what = "expected '.' or '[' in the path";
			goto fail;
		}
		if (!*p || *p == '.' || *p == '[') {
			*what = "empty key in the path";
			goto fail;
		}
		{
			size_t len = strcspn(p, ".[");
			add_step(steps, nsteps, &cap, pdb_xstrndup(p, len), 0);
			p += len;
		}
	}
	return 0;
fail:
	pdb_map_steps_free(*steps, *nsteps);
	*steps = NULL;
	*nsteps = 0;
	return -1;
}

void pdb_map_steps_free(struct pdb_map_step *steps, size_t nsteps)
{
	for (size_t i = 0; i < nsteps; i++)
		free(steps[i].key);
	free(steps);
}
