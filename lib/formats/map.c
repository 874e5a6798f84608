/* Format: any CSV, JSON or YAML result file, read as a MAP.yaml (--map) declares. */
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/map_spec.h"
#include "parse/csv_util.h"
#include "parse/json_util.h"
#include "util.h"
#include "yaml_doc.h"

/* The series of one (benchmark, dims) combination; key holds the
 * benchmark and the dim values, each ended by a NUL. */
struct group {
	char *key;
	size_t keylen;
	size_t *results;  /* per metric: index in run->results + 1, 0 = none yet */
};

struct mapper {
	const struct pdb_map_spec *spec;
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	struct group *groups;
	size_t ngroups, capgroups;
	size_t *table;          /* open addressing over groups: index + 1 */
	size_t tabcap;
	size_t last;            /* group of the previous row + 1 */
	struct pdb_buf key;     /* the current row's group key */
	const char **dimvals;   /* the current row's dim values */
	char **attrvals;        /* attributes read from columns so far */
	/* CSV: column index of each field, from the header */
	long bench_col, *dim_cols, *metric_cols, *attr_cols;
	int header_seen;
	/* JSON/YAML */
	json_t *root;
	struct pdb_yaml_doc *ydoc;
	struct pdb_map_step **metric_steps;
	size_t *metric_nsteps;
	unsigned char *metric_seen;
};

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static size_t *table_slot(struct mapper *m, const char *key, size_t len)
{
	size_t i = (size_t)hash_bytes(key, len) & (m->tabcap - 1);

	while (m->table[i]) {
		const struct group *g = &m->groups[m->table[i] - 1];
		if (g->keylen == len && memcmp(g->key, key, len) == 0)
			break;
		i = (i + 1) & (m->tabcap - 1);
	}
	return &m->table[i];
}

static void table_grow(struct mapper *m)
{
	free(m->table);
	m->tabcap = m->tabcap ? m->tabcap * 2 : 64;
	m->table = pdb_xcalloc(m->tabcap, sizeof *m->table);
	for (size_t i = 0; i < m->ngroups; i++)
		*table_slot(m, m->groups[i].key, m->groups[i].keylen) = i + 1;
}

/* The group of benchmark and m->dimvals (index + 1), made when new. */
static size_t group_of(struct mapper *m, const char *benchmark)
{
	struct pdb_buf *k = &m->key;
	struct group *g;
	size_t *slot;

	k->len = 0;
	pdb_buf_add(k, benchmark, strlen(benchmark) + 1);
	for (size_t i = 0; i < m->spec->ndims; i++)
		pdb_buf_add(k, m->dimvals[i], strlen(m->dimvals[i]) + 1);
	if (m->last) {
		g = &m->groups[m->last - 1];
		if (g->keylen == k->len && memcmp(g->key, k->data, k->len) == 0)
			return m->last;
	}
	if ((m->ngroups + 1) * 2 > m->tabcap)
		table_grow(m);
	slot = table_slot(m, k->data, k->len);
	if (!*slot) {
		pdb_grow((void **)&m->groups, &m->capgroups, m->ngroups + 1, sizeof *m->groups);
		g = &m->groups[m->ngroups++];
		g->key = pdb_xmalloc(k->len);
		memcpy(g->key, k->data, k->len);
		g->keylen = k->len;
		g->results = pdb_xcalloc(m->spec->nmetrics, sizeof *g->results);
		*slot = m->ngroups;
	}
	m->last = *slot;
	return *slot;
}

/* The result of metric k in group g, made when new. */
static struct pdb_result *result_of(struct mapper *m, size_t g, size_t k)
{
	const struct pdb_map_spec *spec = m->spec;
	const struct pdb_map_metric *mm = &spec->metrics[k];
	struct group *grp = &m->groups[g - 1];
	struct pdb_attr *dims;
	struct pdb_result *r;
	const char *p;

	if (grp->results[k])
		return &m->run->results[grp->results[k] - 1];
	dims = pdb_xcalloc(spec->ndims + 1, sizeof *dims);
	p = grp->key + strlen(grp->key) + 1;
	for (size_t i = 0; i < spec->ndims; i++, p += strlen(p) + 1) {
		dims[i].key = spec->dims[i].name;
		dims[i].value = (char *)p;
	}
	r = pdb_run_result_with_dims(m->run, grp->key, dims, spec->ndims, mm->f.name, mm->unit);
	free(dims);
	if (mm->has_direction)
		r->direction = mm->direction;
	if (!r->raw_name && !mm->stat && strcmp(mm->f.column, mm->f.name) != 0 &&
	    !(spec->input == PDB_MAP_CSV && spec->header == 0))
		r->raw_name = pdb_xstrdup(mm->f.column);
	grp->results[k] = (size_t)(r - m->run->results) + 1;
	return r;
}

/* Add value v of metric k to group g; -1 when its statistic was given before. */
static int add_value(struct mapper *m, size_t g, size_t k, double v)
{
	struct pdb_result *r = result_of(m, g, k);
	const char *stat = m->spec->metrics[k].stat;
	double old;

	if (!stat) {
		pdb_result_add_raw(r, v);
		return 0;
	}
	if (pdb_result_get_stat(r, stat, &old) == 0)
		return -1;
	pdb_result_set_stat_raw(r, stat, v);
	return 0;
}

/* Attribute i read from a column: the first value sets it, others must agree.
 * Returns the value it already had when v differs, else NULL. */
static const char *attr_value(struct mapper *m, size_t i, const char *v)
{
	if (!*v)
		return NULL;
	if (!m->attrvals[i]) {
		m->attrvals[i] = pdb_xstrdup(v);
		return NULL;
	}
	return strcmp(m->attrvals[i], v) != 0 ? m->attrvals[i] : NULL;
}

static void mapper_init(struct mapper *m, const struct pdb_map_spec *spec,
			const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	memset(m, 0, sizeof *m);
	m->spec = spec;
	m->src = src;
	m->run = run;
	m->err = err;
	pdb_buf_init(&m->key);
	m->dimvals = pdb_xcalloc(spec->ndims + 1, sizeof *m->dimvals);
	m->attrvals = pdb_xcalloc(spec->nattrs + 1, sizeof *m->attrvals);
	m->dim_cols = pdb_xcalloc(spec->ndims + 1, sizeof *m->dim_cols);
	m->metric_cols = pdb_xcalloc(spec->nmetrics, sizeof *m->metric_cols);
	m->attr_cols = pdb_xcalloc(spec->nattrs + 1, sizeof *m->attr_cols);
	m->metric_seen = pdb_xcalloc(spec->nmetrics, 1);
	m->metric_steps = pdb_xcalloc(spec->nmetrics, sizeof *m->metric_steps);
	m->metric_nsteps = pdb_xcalloc(spec->nmetrics, sizeof *m->metric_nsteps);
}

/* Set the attributes: constants and those read from columns. */
static void mapper_finish(struct mapper *m)
{
	const struct pdb_map_spec *spec = m->spec;

	if (spec->tool)
		pdb_set_str(&m->run->tool, spec->tool);
	for (size_t i = 0; i < spec->nattrs; i++) {
		const char *v = spec->attrs[i].value ? spec->attrs[i].value : m->attrvals[i];
		if (v)
			pdb_run_set_attr(m->run, spec->attrs[i].name, v);
	}
}

static void mapper_release(struct mapper *m)
{
	for (size_t i = 0; i < m->ngroups; i++) {
		free(m->groups[i].key);
		free(m->groups[i].results);
	}
	free(m->groups);
	free(m->table);
	pdb_buf_release(&m->key);
	free(m->dimvals);
	for (size_t i = 0; i < m->spec->nattrs; i++)
		free(m->attrvals[i]);
	free(m->attrvals);
	free(m->dim_cols);
	free(m->metric_cols);
	free(m->attr_cols);
	free(m->metric_seen);
	for (size_t i = 0; i < m->spec->nmetrics; i++)
		pdb_map_steps_free(m->metric_steps[i], m->metric_nsteps[i]);
	free(m->metric_steps);
	free(m->metric_nsteps);
}

/* ---- CSV ---- */

static long column_index(char **fields, size_t nfields, const struct pdb_map_field *f)
{
	if (f->number)
		return f->number - 1;
	for (size_t i = 0; i < nfields; i++)
		if (strcmp(fields[i], f->column) == 0)
			return (long)i;
	return -1;
}

static int resolve_column(struct mapper *m, struct pdb_csv *csv, char **fields,
			  size_t nfields, const struct pdb_map_field *f, long *out)
{
	*out = -1;
	if (!f->column)
		return 0;
	*out = column_index(fields, nfields, f);
	if (*out >= 0)
		return 0;
	return pdb_csv_bad(csv, m->err, 0, "no column '%s' (%s:%d:%d names it)", f->column,
			   m->spec->file, f->line, f->col);
}

static int csv_header(struct mapper *m, struct pdb_csv *csv, char **fields, size_t nfields)
{
	const struct pdb_map_spec *s = m->spec;

	if (pdb_csv_unique_names(csv, fields, nfields, m->err) < 0)
		return -1;
	if (resolve_column(m, csv, fields, nfields, &s->benchmark, &m->bench_col) < 0)
		return -1;
	for (size_t i = 0; i < s->ndims; i++)
		if (resolve_column(m, csv, fields, nfields, &s->dims[i], &m->dim_cols[i]) < 0)
			return -1;
	for (size_t i = 0; i < s->nmetrics; i++)
		if (resolve_column(m, csv, fields, nfields, &s->metrics[i].f, &m->metric_cols[i]) < 0)
			return -1;
	for (size_t i = 0; i < s->nattrs; i++)
		if (resolve_column(m, csv, fields, nfields, &s->attrs[i], &m->attr_cols[i]) < 0)
			return -1;
	return 0;
}

/* The text of a benchmark, dim or attribute in this row. */
static int csv_text(struct mapper *m, struct pdb_csv *csv, char **fields, size_t nfields,
		    const struct pdb_map_field *f, long col, const char **out)
{
	if (!f->column) {
		*out = f->value;
		return 0;
	}
	if ((size_t)col >= nfields)
		return pdb_csv_bad(csv, m->err, nfields ? nfields - 1 : 0,
				   "this row has %zu fields, no column '%s'", nfields, f->column);
	*out = fields[col];
	return 0;
}

static int csv_row(void *ctx, struct pdb_csv *csv, char **fields, size_t nfields,
		   struct pdb_err *err)
{
	struct mapper *m = ctx;
	const struct pdb_map_spec *s = m->spec;
	long row = pdb_csv_row(csv);
	const char *bench = NULL, *v = NULL;
	size_t g;

	if (row < s->header)
		return 0;
	if (row == s->header) {
		m->header_seen = 1;
		return csv_header(m, csv, fields, nfields);
	}
	if (csv_text(m, csv, fields, nfields, &s->benchmark, m->bench_col, &bench) < 0)
		return -1;
	if (!*bench)
		return pdb_csv_bad(csv, err, (size_t)m->bench_col, "column '%s' is empty: no benchmark name",
				   s->benchmark.column);
	for (size_t i = 0; i < s->ndims; i++) {
		if (csv_text(m, csv, fields, nfields, &s->dims[i], m->dim_cols[i], &m->dimvals[i]) < 0)
			return -1;
		if (!*m->dimvals[i])
			return pdb_csv_bad(csv, err, (size_t)m->dim_cols[i],
					   "column '%s' is empty: dimension '%s' needs a value",
					   s->dims[i].column, s->dims[i].name);
	}
	for (size_t i = 0; i < s->nattrs; i++) {
		const char *before;
		if (!s->attrs[i].column)
			continue;
		if (csv_text(m, csv, fields, nfields, &s->attrs[i], m->attr_cols[i], &v) < 0)
			return -1;
		if ((before = attr_value(m, i, v)))
			return pdb_csv_bad(csv, err, (size_t)m->attr_cols[i],
					   "attribute '%s' is '%s' here but '%s' above (a run has one value)",
					   s->attrs[i].name, v, before);
	}
	g = group_of(m, bench);
	for (size_t k = 0; k < s->nmetrics; k++) {
		long col = m->metric_cols[k];
		double d;
		if (csv_text(m, csv, fields, nfields, &s->metrics[k].f, col, &v) < 0)
			return -1;
		if (!*v)
			continue;
		if (pdb_parse_double(v, &d) < 0)
			return pdb_csv_bad(csv, err, (size_t)col, "column '%s': '%s' is not a number",
					   s->metrics[k].f.column, v);
		if (add_value(m, g, k, d) < 0)
			return pdb_csv_bad(csv, err, (size_t)col,
					   "column '%s': stat '%s' of this series was given in an earlier row",
					   s->metrics[k].f.column, s->metrics[k].stat);
	}
	return 0;
}

static int parse_csv(struct mapper *m)
{
	const struct pdb_map_spec *s = m->spec;
	char delim = s->delimiter ? s->delimiter : pdb_csv_sniff(m->src);

	if (s->header == 0) {
		m->bench_col = s->benchmark.number - 1;
		for (size_t i = 0; i < s->ndims; i++)
			m->dim_cols[i] = s->dims[i].number - 1;
		for (size_t i = 0; i < s->nmetrics; i++)
			m->metric_cols[i] = s->metrics[i].f.number - 1;
		for (size_t i = 0; i < s->nattrs; i++)
			m->attr_cols[i] = s->attrs[i].number - 1;
	}
	if (pdb_csv_read(m->src, delim, csv_row, m, m->err) < 0)
		return -1;
	if (s->header > 0 && !m->header_seen)
		return pdb_err_at(m->err, PDB_EXIT_INPUT, m->src->name, 0, 0,
				  "fewer than %ld rows: no header row (%s says header: %ld)",
				  s->header, s->file, s->header);
	return 0;
}

/* ---- JSON and YAML ---- */

/* Fail at node v whose path is path: FILE:LINE:COL for YAML, FILE: PATH for JSON. */
static int tree_bad(struct mapper *m, const json_t *v, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int tree_bad(struct mapper *m, const json_t *v, const char *path, const char *fmt, ...)
{
	char msg[512];
	int line, col;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (m->ydoc && v && pdb_yaml_where(m->ydoc, v, &line, &col) == 0)
		return pdb_err_at(m->err, PDB_EXIT_INPUT, m->src->name, line, col, "%s", msg);
	return pdb_json_bad(m->err, m->src, path, msg);
}

/* Follow steps from v; NULL when a step is missing. path gets the text. */
static json_t *walk(json_t *v, const struct pdb_map_step *steps, size_t n, struct pdb_buf *path)
{
	for (size_t i = 0; v && i < n; i++) {
		if (steps[i].key) {
			pdb_buf_printf(path, ".%s", steps[i].key);
			v = json_object_get(v, steps[i].key);
		} else if (steps[i].index >= 0) {
			pdb_buf_printf(path, "[%ld]", steps[i].index);
			v = json_array_get(v, (size_t)steps[i].index);
		} else if (!json_is_array(v)) {
			return NULL;
		}
	}
	return v;
}

/* Field column of record rec: the key as written, else a path in the
 * record, or in the whole document when it starts with '$'. path (holding
 * the record's path) gets the field's. */
static json_t *field_of(struct mapper *m, json_t *rec, const char *column,
			const struct pdb_map_step *steps, size_t n, struct pdb_buf *path)
{
	json_t *v = json_object_get(rec, column);

	if (v) {
		pdb_buf_printf(path, ".%s", column);
		return v;
	}
	if (column[0] == '$') {
		path->len = 0;
		pdb_buf_puts(path, "$");
		rec = m->root;
	}
	return walk(rec, steps, n, path);
}

static int tree_text(struct mapper *m, json_t *rec, const char *recpath,
		     const struct pdb_map_field *f, char **out)
{
	struct pdb_map_step *steps;
	struct pdb_buf path;
	const char *what;
	json_t *v = NULL;
	size_t n;
	int ret = 0;

	if (!f->column) {
		*out = pdb_xstrdup(f->value);
		return 0;
	}
	pdb_buf_init(&path);
	pdb_buf_puts(&path, recpath);
	if (pdb_map_path_parse(f->column, &steps, &n, &what) == 0) {
		v = field_of(m, rec, f->column, steps, n, &path);
		pdb_map_steps_free(steps, n);
	}
	if (!v || json_is_null(v))
		ret = tree_bad(m, rec, recpath, "no field '%s' (%s:%d:%d names it)", f->column,
			       m->spec->file, f->line, f->col);
	else if (json_is_object(v) || json_is_array(v))
		ret = tree_bad(m, v, path.data, "expected a text or a number for '%s'", f->name);
	else if (!(*out = pdb_json_text(v))[0]) {
		ret = tree_bad(m, v, path.data, "'%s' is empty", f->name);
		free(*out); /* an error returns no text */
		*out = NULL;
	}
	pdb_buf_release(&path);
	return ret;
}

/* Add the value(s) at v (a number, a numeric text, or a list of them). */
static int tree_values(struct mapper *m, size_t g, size_t k, json_t *v, const char *path)
{
	double d;

	if (json_is_array(v)) {
		size_t i;
		json_t *item;
		json_array_foreach(v, i, item) {
			char at[512];
			snprintf(at, sizeof at, "%s[%zu]", path, i);
			if (json_is_array(item))
				return tree_bad(m, item, at, "expected a number");
			if (tree_values(m, g, k, item, at) < 0)
				return -1;
		}
		return 0;
	}
	if (json_is_null(v) || (json_is_string(v) && !*json_string_value(v)))
		return 0;
	if (pdb_json_num_or_string(v, &d) < 0)
		return tree_bad(m, v, path, "expected a number for metric '%s'",
				m->spec->metrics[k].f.name);
	if (add_value(m, g, k, d) < 0)
		return tree_bad(m, v, path, "stat '%s' of this series was given in an earlier record",
				m->spec->metrics[k].stat);
	return 0;
}

static int tree_record(struct mapper *m, json_t *rec, const char *recpath)
{
	const struct pdb_map_spec *s = m->spec;
	char *bench = NULL, **dims = pdb_xcalloc(s->ndims + 1, sizeof *dims);
	struct pdb_buf path;
	int ret = -1;
	size_t g;

	pdb_buf_init(&path);
	if (!json_is_object(rec)) {
		tree_bad(m, rec, recpath, "expected a record (an object)");
		goto out;
	}
	if (tree_text(m, rec, recpath, &s->benchmark, &bench) < 0)
		goto out;
	for (size_t i = 0; i < s->ndims; i++) {
		if (tree_text(m, rec, recpath, &s->dims[i], &dims[i]) < 0)
			goto out;
		m->dimvals[i] = dims[i];
	}
	for (size_t i = 0; i < s->nattrs; i++) {
		char *v = NULL;
		const char *before;
		if (!s->attrs[i].column)
			continue;
		if (tree_text(m, rec, recpath, &s->attrs[i], &v) < 0)
			goto out;
		if ((before = attr_value(m, i, v))) {
			tree_bad(m, rec, recpath, "attribute '%s' is '%s' here but '%s' above (a run has one value)",
				 s->attrs[i].name, v, before);
			free(v);
			goto out;
		}
		free(v);
	}
	g = group_of(m, bench);
	for (size_t k = 0; k < s->nmetrics; k++) {
		json_t *v;
		path.len = 0;
		pdb_buf_puts(&path, recpath);
		v = field_of(m, rec, s->metrics[k].f.column, m->metric_steps[k],
			     m->metric_nsteps[k], &path);
		if (!v)
			continue;
		m->metric_seen[k] = 1;
		if (tree_values(m, g, k, v, path.data) < 0)
			goto out;
	}
	ret = 0;
out:
	pdb_buf_release(&path);
	free(bench);
	for (size_t i = 0; i < s->ndims; i++)
		free(dims[i]);
	free(dims);
	return ret;
}

static int parse_tree(struct mapper *m, json_t *root)
{
	const struct pdb_map_spec *s = m->spec;
	struct pdb_map_step *steps = NULL;
	struct pdb_buf path;
	const char *what;
	size_t n = 0, i;
	json_t *list, *rec;
	int ret = -1;

	m->root = root;
	pdb_buf_init(&path);
	pdb_buf_puts(&path, "$");
	for (size_t k = 0; k < s->nmetrics; k++)
		pdb_map_path_parse(s->metrics[k].f.column, &m->metric_steps[k],
				   &m->metric_nsteps[k], &what);
	pdb_map_path_parse(s->records, &steps, &n, &what);
	list = walk(root, steps, n, &path);
	if (!list || !json_is_array(list)) {
		tree_bad(m, list, path.data, "no list of records here (%s:%d:%d names it)",
			 s->file, s->records_line, s->records_col);
		goto out;
	}
	json_array_foreach(list, i, rec) {
		char recpath[512];
		snprintf(recpath, sizeof recpath, "%s[%zu]", path.data, i);
		if (tree_record(m, rec, recpath) < 0)
			goto out;
	}
	for (size_t k = 0; k < s->nmetrics; k++)
		if (!m->metric_seen[k] && json_array_size(list) > 0) {
			tree_bad(m, NULL, path.data, "no record has the field '%s' (%s:%d:%d names it)",
				 s->metrics[k].f.column, s->file, s->metrics[k].f.line,
				 s->metrics[k].f.col);
			goto out;
		}
	ret = 0;
out:
	pdb_map_steps_free(steps, n);
	pdb_buf_release(&path);
	return ret;
}

static int detect(const struct pdb_source *src)
{
	(void)src;
	return 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct pdb_map_spec spec;
	struct pdb_yaml_doc ydoc = { 0 };
	struct mapper m;
	json_t *root = NULL;
	int ret = -1;

	if (!src->map_path)
		return pdb_err_set(err, PDB_EXIT_USAGE, "format map needs --map MAP.yaml");
	if (src->is_dir)
		return pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0,
				  "--map reads files, not directories");
	if (pdb_map_spec_load(src->map_path, &spec, err) < 0) {
		pdb_map_spec_release(&spec);
		return -1;
	}
	mapper_init(&m, &spec, src, run, err);
	if (spec.input == PDB_MAP_CSV) {
		ret = parse_csv(&m);
	} else if (spec.input == PDB_MAP_JSON) {
		if ((root = pdb_json_load(src, err)))
			ret = parse_tree(&m, root);
	} else if (pdb_yaml_load(src->path, src->name, &ydoc, err) == 0) {
		m.ydoc = &ydoc;
		ret = parse_tree(&m, ydoc.root);
		pdb_yaml_doc_release(&ydoc);
	}
	if (ret == 0)
		mapper_finish(&m);
	json_decref(root);
	mapper_release(&m);
	pdb_map_spec_release(&spec);
	return ret;
}

const struct pdb_format pdb_format_map = {
	.name = "map",
	.summary = "any CSV, JSON or YAML file, read as --map MAP.yaml declares",
	.detect = detect,
	.parse = parse,
};
