/* Format: hyperfine --export-json (every run's time) and --export-csv (aggregates only). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "formats/scan_name.h"
#include "parse/csv_util.h"
#include "parse/json_packed.h"
#include "parse/json_util.h"
#include "util.h"

/* Aggregates hyperfine computes over the runs of one command, in seconds. */
static const char *const stat_names[] = {
	"mean", "stddev", "median", "user", "system", "min", "max", NULL,
};

static int is_stat(const char *key)
{
	for (size_t i = 0; stat_names[i]; i++)
		if (strcmp(stat_names[i], key) == 0)
			return 1;
	return 0;
}

/* A statistic of a command: user and system (mean CPU seconds of a run)
 * are series of their own, user_time and sys_time, and their sum is
 * cpu_time, the series the gate reads beside the wall time (the sum is
 * exact to the microsecond, the split follows the clock tick); the rest
 * are statistics of its time. */
static void set_stat(struct pdb_run *run, const char *name, const struct pdb_attr *dims,
		     size_t ndims, const char *key, double x)
{
	int user = strcmp(key, "user") == 0, sys = strcmp(key, "system") == 0;
	struct pdb_result *r;
	double u, s;

	if (!user && !sys) {
		r = pdb_run_result_with_dims(run, name, dims, ndims, "time", "s");
		pdb_result_set_stat_raw(r, key, x);
		return;
	}
	r = pdb_run_result_with_dims(run, name, dims, ndims, user ? "user_time" : "sys_time", "s");
	pdb_result_set_stat_raw(r, "mean", x);
	if (pdb_result_get_stat(pdb_run_result_with_dims(run, name, dims, ndims, "user_time", "s"),
				"mean", &u) == 0 &&
	    pdb_result_get_stat(pdb_run_result_with_dims(run, name, dims, ndims, "sys_time", "s"),
				"mean", &s) == 0)
		pdb_result_set_stat(pdb_run_result_with_dims(run, name, dims, ndims, "cpu_time", "s"),
				    "mean", u + s);
}

static int detect_json(const struct pdb_source *src)
{
	return pdb_head_first(src) == '{' && pdb_head_has(src, "\"results\"") &&
	       pdb_head_has(src, "\"command\"") &&
	       (pdb_head_has(src, "\"times\"") || pdb_head_has(src, "\"mean\"")) ? 90 : 0;
}

/* The arrays a big file is made of: read packed. */
static const char *const packed_paths[] = {
	"$.results[*].times", "$.results[*].exit_codes", NULL,
};

/* Numbers of arr, in the tool's unit, as samples of r. */
static int add_array(const struct pdb_source *src, struct pdb_json_doc *doc,
		     struct pdb_result *r, const json_t *arr, const char *path,
		     struct pdb_err *err)
{
	const struct pdb_json_numbers *nums = pdb_json_doc_numbers(doc, arr);
	size_t n = json_array_size(arr), i;
	json_t *v;
	double x;

	if (nums) {
		pdb_grow((void **)&r->samples, &r->capsamples, r->nsamples + nums->n,
			 sizeof *r->samples);
		for (i = 0; i < nums->n; i++)
			pdb_result_add_raw(r, nums->values[i]);
		pdb_json_doc_drop(doc, arr);
		return 0;
	}
	if (!json_is_array(arr))
		return pdb_json_bad(err, src, path, "expected an array of numbers");
	pdb_grow((void **)&r->samples, &r->capsamples, r->nsamples + n, sizeof *r->samples);
	json_array_foreach(arr, i, v) {
		if (pdb_json_num(v, &x) < 0) {
			char *p = pdb_xasprintf("%s[%zu]", path, i);
			pdb_json_bad(err, src, p, "expected a number");
			free(p);
			return -1;
		}
		pdb_result_add_raw(r, x);
	}
	return 0;
}

/* exit_codes: a status, not a metric. Any non-zero code makes the command a
 * failure (with -i hyperfine keeps timing failing runs); the codes are then kept
 * as the attribute exit_codes[COMMAND]. */
static int exit_codes(const struct pdb_source *src, struct pdb_json_doc *doc,
		      struct pdb_run *run, const char *name, const char *command,
		      const struct pdb_attr *dims, size_t ndims, const json_t *codes,
		      const char *path, struct pdb_err *err)
{
	const struct pdb_json_numbers *nums = pdb_json_doc_numbers(doc, codes);
	size_t n = nums ? nums->n : json_array_size(codes), failed = 0, i;
	double code, first = 0;
	int mixed = 0;

	if (!nums && !json_is_array(codes))
		return pdb_json_bad(err, src, path, "expected an array of exit codes");
	for (i = 0; i < n; i++) {
		if (nums)
			code = nums->values[i];
		else if (pdb_json_num(json_array_get(codes, i), &code) < 0) {
			char *p = pdb_xasprintf("%s[%zu]", path, i);
			pdb_json_bad(err, src, p, "expected an exit code (a number)");
			free(p);
			return -1;
		}
		if (code != 0) {
			mixed |= failed && code != first;
			if (!failed++)
				first = code;
		}
	}
	if (failed) {
		json_t *all = nums ? pdb_json_numbers_array(nums) : json_incref((json_t *)codes);
		char *text = pdb_json_text(all), *reason, num[32];
		json_decref(all);
		pdb_fmt_double(first, num);
		reason = mixed ? pdb_xasprintf("%zu of %zu runs exited non-zero", failed, n)
			       : pdb_xasprintf("%zu of %zu runs exited %s", failed, n, num);
		pdb_run_add_failure(run, name, dims, ndims, reason);
		pdb_attr_set_bench(run, "exit_codes", command, text);
		free(reason);
		free(text);
	}
	pdb_json_doc_drop(doc, codes);
	return 0;
}

/* One element of results[]: command, times, aggregates, parameters, rest. The
 * series is named name (the scan's template, see scan_name.h); the command's
 * own fields stay keyed by the command as hyperfine wrote it. */
static int parse_result(const struct pdb_source *src, struct pdb_json_doc *doc,
			struct pdb_run *run, const json_t *res, size_t idx, const char *name,
			struct pdb_err *err)
{
	const char *command = pdb_json_str(res, "command"), *key;
	const json_t *params = json_object_get(res, "parameters");
	struct pdb_attr *dims = NULL;
	size_t ndims = 0;
	struct pdb_result *r;
	char *path = NULL;
	json_t *v;
	int ret = -1;

	if (!json_is_object(res)) {
		path = pdb_xasprintf("$.results[%zu]", idx);
		pdb_json_bad(err, src, path, "expected an object");
		goto out;
	}
	if (!command) {
		path = pdb_xasprintf("$.results[%zu].command", idx);
		pdb_json_bad(err, src, path, "expected a string");
		goto out;
	}
	if (params && !json_is_null(params)) {
		if (!json_is_object(params)) {
			path = pdb_xasprintf("$.results[%zu].parameters", idx);
			pdb_json_bad(err, src, path, "expected an object");
			goto out;
		}
		dims = pdb_xcalloc(json_object_size(params) + 1, sizeof *dims);
		json_object_foreach((json_t *)params, key, v) {
			dims[ndims].key = (char *)key;
			dims[ndims++].value = pdb_json_text(v);
		}
	}
	r = pdb_run_result_with_dims(run, name, dims, ndims, "time", "s");
	json_object_foreach((json_t *)res, key, v) {
		double x;
		free(path);
		path = pdb_xasprintf("$.results[%zu].%s", idx, key);
		if (strcmp(key, "command") == 0 || strcmp(key, "parameters") == 0)
			continue;
		if (strcmp(key, "times") == 0) {
			/* the time result may have moved: results grow below */
			r = pdb_run_result_with_dims(run, name, dims, ndims, "time", "s");
			if (add_array(src, doc, r, v, path, err) < 0)
				goto out;
		} else if (is_stat(key)) {
			if (json_is_null(v))
				continue; /* e.g. stddev of a single run: stays absent */
			if (pdb_json_num(v, &x) < 0) {
				pdb_json_bad(err, src, path, "expected a number");
				goto out;
			}
			set_stat(run, name, dims, ndims, key, x);
		} else if (strcmp(key, "exit_codes") == 0) {
			if (exit_codes(src, doc, run, name, command, dims, ndims, v, path, err) < 0)
				goto out;
		} else {
			char *text = pdb_json_text(v);
			pdb_attr_set_bench(run, key, command, text);
			free(text);
		}
	}
	ret = 0;
out:
	for (size_t i = 0; i < ndims; i++)
		free(dims[i].value);
	free(dims);
	free(path);
	return ret;
}

/* The parameters of results[i] (values as text) and its command, for
 * pdb_scan_names; what is not of that shape is left for parse_result to refuse. */
static void scan_item(const json_t *res, struct pdb_scan_item *it)
{
	const json_t *params = json_object_get(res, "parameters"), *v;
	struct pdb_attr *p;
	const char *key;

	it->command = pdb_json_str(res, "command");
	if (!it->command)
		it->command = "";
	if (!json_is_object(params))
		return;
	it->params = p = pdb_xcalloc(json_object_size(params) + 1, sizeof *p);
	json_object_foreach((json_t *)params, key, v) {
		p[it->nparams].key = (char *)key;
		p[it->nparams++].value = pdb_json_text(v);
	}
}

static void scan_item_free(struct pdb_scan_item *it)
{
	for (size_t i = 0; i < it->nparams; i++)
		free(it->params[i].value);
	free((void *)it->params);
}

static int parse_json(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct pdb_json_doc doc;
	struct pdb_scan_item *items = NULL;
	char **names = NULL;
	json_t *results, *v;
	const char *key;
	size_t i, n = 0;
	int ret = -1;

	if (pdb_json_doc_load(src, packed_paths, 0, &doc, err) < 0)
		goto out;
	results = json_object_get(doc.root, "results");
	if (!json_is_array(results)) {
		pdb_json_bad(err, src, json_is_object(doc.root) ? "$.results" : "$",
			     json_is_object(doc.root) ? "expected an array" : "expected an object");
		goto out;
	}
	n = json_array_size(results);
	items = pdb_xcalloc(n + 1, sizeof *items);
	names = pdb_xcalloc(n + 1, sizeof *names);
	json_array_foreach(results, i, v)
		scan_item(v, &items[i]);
	pdb_scan_names(items, n, names);
	json_array_foreach(results, i, v) {
		pdb_json_entry(run, "$.results", i);
		if (parse_result(src, &doc, run, v, i, names[i], err) < 0)
			goto out;
	}
	json_object_foreach(doc.root, key, v)
		if (strcmp(key, "results") != 0)
			pdb_attr_set_json(run, key, v);
	pdb_set_str(&run->tool, "hyperfine");
	ret = 0;
out:
	for (i = 0; i < n; i++) {
		scan_item_free(&items[i]);
		free(names[i]);
	}
	free(items);
	free(names);
	pdb_json_doc_free(&doc);
	return ret;
}

const struct pdb_format pdb_format_hyperfine = {
	.name = "hyperfine",
	.summary = "hyperfine --export-json: every run's time as samples, aggregates as stats",
	.detect = detect_json,
	.parse = parse_json,
};

/* --export-csv: a header, then one row of aggregates per command. The rows are
 * checked as they come and kept: a row's name is known only once every row of
 * its scan is read. */
struct csv_state {
	struct pdb_run *run;
	char **header;
	size_t ncols;
	char ***rows;           /* every field of every row */
	long *lines;            /* the line where each row ends */
	size_t nrows, caprows, caplines;
};

static int detect_csv(const struct pdb_source *src)
{
	return src->head && strncmp((const char *)src->head,
				    "command,mean,stddev,median,user,system,min,max", 46) == 0 ? 95 : 0;
}

static int csv_header(struct csv_state *st, struct pdb_csv *csv, char **fields,
		      size_t n, struct pdb_err *err)
{
	if (n == 0 || strcmp(fields[0], "command") != 0)
		return pdb_csv_bad(csv, err, 0, "expected the header 'command,mean,...'");
	if (pdb_csv_unique_names(csv, fields, n, err) < 0)
		return -1;
	st->header = pdb_xcalloc(n, sizeof *st->header);
	for (size_t i = 0; i < n; i++)
		st->header[i] = pdb_xstrdup(fields[i]);
	st->ncols = n;
	return 0;
}

static int is_param(const char *column)
{
	return strncmp(column, "parameter_", 10) == 0;
}

static int csv_row(void *ctx, struct pdb_csv *csv, char **fields, size_t n,
		   struct pdb_err *err)
{
	struct csv_state *st = ctx;
	char **row;

	if (!st->header)
		return csv_header(st, csv, fields, n, err);
	if (n != st->ncols)
		return pdb_csv_bad(csv, err, n < st->ncols ? n - 1 : st->ncols,
				   "expected %zu fields, found %zu", st->ncols, n);
	for (size_t i = 1; i < n; i++) {
		double x;
		if (is_param(st->header[i]) || !is_stat(st->header[i]) || fields[i][0] == '\0')
			continue; /* empty: absent, e.g. the stddev of a single run */
		if (pdb_parse_double(fields[i], &x) < 0)
			return pdb_csv_bad(csv, err, i, "%s: expected a number, found '%s'",
					   st->header[i], fields[i]);
	}
	row = pdb_xcalloc(n, sizeof *row);
	for (size_t i = 0; i < n; i++)
		row[i] = pdb_xstrdup(fields[i]);
	pdb_grow((void **)&st->rows, &st->caprows, st->nrows + 1, sizeof *st->rows);
	pdb_grow((void **)&st->lines, &st->caplines, st->nrows + 1, sizeof *st->lines);
	st->lines[st->nrows] = pdb_csv_line(csv);
	st->rows[st->nrows++] = row;
	return 0;
}

/* The parameters of a row (the parameter_NAME columns) into dims, which has
 * room for every column; their number. */
static size_t row_params(const struct csv_state *st, char **row, struct pdb_attr *dims)
{
	size_t ndims = 0;

	for (size_t i = 1; i < st->ncols; i++)
		if (is_param(st->header[i])) {
			dims[ndims].key = st->header[i] + 10;
			dims[ndims++].value = row[i];
		}
	return ndims;
}

/* The checked row as the series name (dims, time): statistics and, for the
 * other columns, attributes keyed by the command. */
static void csv_result(struct csv_state *st, char **row, const char *name,
		       const struct pdb_attr *dims, size_t ndims)
{
	struct pdb_attr *extra = pdb_xcalloc(st->ncols, sizeof *extra);
	size_t nextra = 0;

	pdb_run_result_with_dims(st->run, name, dims, ndims, "time", "s");

	for (size_t i = 1; i < st->ncols; i++) {
		double x;
		if (is_param(st->header[i]))
			continue;
		if (!is_stat(st->header[i])) {
			extra[nextra].key = pdb_attr_bench_key(st->header[i], row[0]);
			extra[nextra++].value = row[i];
		} else if (row[i][0] != '\0' && pdb_parse_double(row[i], &x) == 0) {
			set_stat(st->run, name, dims, ndims, st->header[i], x);
		}
	}
	/* one merge: a column at a time would shift the sorted attributes for each */
	pdb_run_set_attrs(st->run, extra, nextra);
	for (size_t i = 0; i < nextra; i++)
		free(extra[i].key);
	free(extra);
}

static int parse_csv(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct csv_state st = { .run = run };
	int ret = pdb_csv_read(src, ',', csv_row, &st, err);
	struct pdb_attr *dims = pdb_xcalloc(st.nrows * st.ncols + 1, sizeof *dims);
	struct pdb_scan_item *items = pdb_xcalloc(st.nrows + 1, sizeof *items);
	char **names = pdb_xcalloc(st.nrows + 1, sizeof *names);

	for (size_t i = 0; i < st.nrows; i++) {
		items[i].command = st.rows[i][0];
		items[i].params = dims + i * st.ncols;
		items[i].nparams = row_params(&st, st.rows[i], dims + i * st.ncols);
	}
	if (ret == 0) {
		pdb_scan_names(items, st.nrows, names);
		for (size_t i = 0; i < st.nrows; i++) {
			char where[32];
			snprintf(where, sizeof where, "%ld:1", st.lines[i]);
			pdb_run_begin_entry(run, where);
			csv_result(&st, st.rows[i], names[i], items[i].params, items[i].nparams);
		}
		pdb_set_str(&run->tool, "hyperfine");
	}
	for (size_t i = 0; i < st.nrows; i++) {
		for (size_t k = 0; k < st.ncols; k++)
			free(st.rows[i][k]);
		free(st.rows[i]);
		free(names[i]);
	}
	for (size_t i = 0; i < st.ncols; i++)
		free(st.header[i]);
	free(st.header);
	free(st.rows);
	free(st.lines);
	free(names);
	free(items);
	free(dims);
	return ret;
}

const struct pdb_format pdb_format_hyperfine_csv = {
	.name = "hyperfine-csv",
	.summary = "hyperfine --export-csv: one row of aggregates (stats only) per command",
	.detect = detect_csv,
	.parse = parse_csv,
};
