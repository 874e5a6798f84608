/* perfdb export: one row per sample (or per statistic) as CSV or JSON lines. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "cmd.h"
#include "dim_filter.h"
#include "escape.h"
#include "json_out.h"
#include "units.h"
#include "util.h"

static int export_main(int argc, char **argv, struct cmd_ctx *ctx);

static const char *const formats[] = { "csv", "jsonl", NULL };

static const struct cmd_option options[] = {
	{ "where", 'w', "K=V[,K=V]", "only runs with these attributes (repeatable)", NULL },
	{ "bench", 'b', "GLOB", "only benchmarks matching GLOB", NULL },
	{ "metric", 'm', "GLOB", "only metrics matching GLOB", NULL },
	{ "dim", 'd', "K=V", CMD_DIM_HELP, NULL },
	{ "format", 'F', "FMT", "csv (default) or jsonl, one JSON object a line", formats },
	{ "stats", 's', NULL, "one row per statistic the tool computed, not per sample", NULL },
	{ "output", 'o', "FILE", "write FILE (a file replaced whole, a FIFO written in place)", NULL },
	{ 0 },
};

const struct command cmd_export = {
	.name = "export", .run = export_main,
	.summary = "export samples or statistics as CSV or JSON lines",
	.synopsis = "[OPTIONS] [RUN...]",
	.options = options,
	.text = "No RUN: every run, oldest first. A row per sample: run, uuid, name, created_at,\n"
		"commit, branch, benchmark, dim.NAME for every dim, metric, unit, direction,\n"
		"index, value, t, weight (with --stats: stat and value instead of the last four).\n"
		"RUN: run42, 42, a name, latest, latest~N, latest:KEY=VALUE\n",
	.operand = CMD_OPERAND_RUN,
};

struct export_opts {
	const char *bench, *metric;
	struct pdb_dim_filter filter; /* --dim */
	int jsonl, stats;
	char **dims;      /* CSV: the union of dim names, sorted */
	size_t ndims;
};

/* An output line under construction. */
struct line {
	char *data;
	size_t len, cap;
};

static void line_add(struct line *l, const char *s, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		l->cap = (l->len + n + 1) * 2;
		l->data = pdb_xrealloc(l->data, l->cap);
	}
	memcpy(l->data + l->len, s, n);
	l->len += n;
}

static void line_puts(struct line *l, const char *s)
{
	line_add(l, s, strlen(s));
}

/* A cell through pdb_escape_csv: quoted as needed, a formula neutralised. */
static void csv_field(struct line *l, const char *s)
{
	struct pdb_buf b;

	if (!s)
		return;
	pdb_buf_init(&b);
	pdb_escape_csv(&b, s);
	if (b.len)
		line_add(l, b.data, b.len);
	pdb_buf_release(&b);
}

static void json_field(struct line *l, const char *key, const char *s)
{
	char *text;
	json_t *v = s ? json_string(s) : NULL;

	if (!v)
		v = json_null();

	if (l->len > 1)
		line_add(l, ", ", 2);
	json_t *k = json_string(key); /* keys too: dim names come from result files */
	text = json_dumps(k, JSON_ENCODE_ANY);
	line_puts(l, text);
	free(text);
	json_decref(k);
	line_add(l, ": ", 2);
	text = json_dumps(v, JSON_ENCODE_ANY);
	line_puts(l, text);
	free(text);
	json_decref(v);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int selected(const struct export_opts *o, const char *bench, const char *metric)
{
	return pdb_glob_match(o->bench, bench) && pdb_glob_match(o->metric, metric);
}

/* The CSV header's dims: every dim name of the selected series of the runs
 * (and --dim's check that its keys are dims of the runs' series). */
static int collect_dims(struct pdb_store *store, const int64_t *ids, size_t n,
			struct export_opts *o, struct pdb_err *err)
{
	size_t cap = 0;

	for (size_t i = 0; i < n; i++) {
		struct pdb_series *s;
		size_t ns;
		if (pdb_store_run_series(store, ids[i], &s, &ns, err) < 0)
			return -1;
		for (size_t k = 0; k < ns; k++) {
			json_t *dims, *v;
			const char *key;
			if (!pdb_dim_filter_pass_json(&o->filter, s[k].dims) ||
			    !selected(o, s[k].benchmark, s[k].metric) ||
			    !(dims = json_loads(s[k].dims, 0, NULL)))
				continue;
			json_object_foreach(dims, key, v) {
				char **at = o->ndims ? bsearch(&key, o->dims, o->ndims, sizeof *o->dims,
							      by_string) : NULL;
				if (at)
					continue;
				pdb_grow((void **)&o->dims, &cap, o->ndims + 1, sizeof *o->dims);
				o->dims[o->ndims++] = pdb_xstrdup(key);
				qsort(o->dims, o->ndims, sizeof *o->dims, by_string);
			}
			json_decref(dims);
		}
		pdb_series_free(s, ns);
	}
	return 0;
}

static void csv_header(FILE *out, const struct export_opts *o)
{
	struct line l = { 0 };

	line_puts(&l, "run,uuid,name,created_at,commit,branch,benchmark");
	for (size_t i = 0; i < o->ndims; i++) {
		char *col = pdb_xasprintf("dim.%s", o->dims[i]);
		line_add(&l, ",", 1);
		csv_field(&l, col);
		free(col);
	}
	line_puts(&l, o->stats ? ",metric,unit,direction,stat,value\n"
			       : ",metric,unit,direction,index,value,t,weight\n");
	fwrite(l.data, 1, l.len, out);
	free(l.data);
}

/* Everything a row of result r holds before its sample or statistic: CSV
 * fields ending in ',', or a JSON object's members without its closing brace. */
static void row_prefix(struct line *l, const struct export_opts *o, const struct pdb_run *run,
		       const struct pdb_result *r)
{
	char id[32];
	const char *commit = pdb_run_get_attr(run, "commit"), *branch = pdb_run_get_attr(run, "branch");

	l->len = 0;
	snprintf(id, sizeof id, "run%lld", (long long)run->id);
	if (o->jsonl) {
		line_add(l, "{", 1);
		json_field(l, "run", id);
		json_field(l, "uuid", run->uuid);
		json_field(l, "name", run->name);
		json_field(l, "created_at", run->created_at);
		json_field(l, "commit", commit);
		json_field(l, "branch", branch);
		json_field(l, "benchmark", r->benchmark);
		for (size_t i = 0; i < r->ndims; i++) {
			char *key = pdb_xasprintf("dim.%s", r->dims[i].key);
			json_field(l, key, r->dims[i].value);
			free(key);
		}
		json_field(l, "metric", r->metric);
		json_field(l, "unit", r->unit);
		json_field(l, "direction", pdb_direction_name(r->direction));
		return;
	}
	const char *fields[] = { id, run->uuid, run->name, run->created_at, commit, branch,
				 r->benchmark };
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		csv_field(l, fields[i]);
		line_add(l, ",", 1);
	}
	for (size_t i = 0; i < o->ndims; i++) {
		csv_field(l, pdb_result_get_dim(r, o->dims[i]));
		line_add(l, ",", 1);
	}
	csv_field(l, r->metric);
	line_add(l, ",", 1);
	csv_field(l, r->unit);
	line_add(l, ",", 1);
	csv_field(l, pdb_direction_name(r->direction));
	line_add(l, ",", 1);
}

/* A number: CSV as the shortest exact text ("nan", "inf"), empty when absent;
 * JSON the same, null for NaN or absent, "Infinity" strings as the canonical
 * JSON writes them. */
static void number(struct line *l, const struct export_opts *o, double v, int absent)
{
	char num[32];

	if (o->jsonl && (absent || isnan(v))) {
		line_add(l, "null", 4);
		return;
	}
	if (absent)
		return;
	if (o->jsonl && isinf(v)) {
		line_puts(l, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
		return;
	}
	pdb_json_fmt_real(v, num);
	line_puts(l, num);
}

/* The rows of one result; their count. */
static size_t write_result(FILE *out, struct line *l, const struct export_opts *o,
			   const struct pdb_run *run, const struct pdb_result *r)
{
	size_t base;

	row_prefix(l, o, run, r);
	base = l->len;
	if (o->stats) {
		for (size_t i = 0; i < r->nstats; i++) {
			l->len = base;
			if (o->jsonl) {
				json_field(l, "stat", r->stats[i].name);
				line_add(l, ", \"value\": ", 11);
			} else {
				csv_field(l, r->stats[i].name);
				line_add(l, ",", 1);
			}
			number(l, o, r->stats[i].value, 0);
			line_puts(l, o->jsonl ? "}\n" : "\n");
			fwrite(l->data, 1, l->len, out);
		}
		return r->nstats;
	}
	for (size_t i = 0; i < r->nsamples; i++) {
		const struct pdb_sample *s = &r->samples[i];
		char idx[24];
		l->len = base;
		snprintf(idx, sizeof idx, "%zu", i);
		if (o->jsonl) {
			line_add(l, ", \"index\": ", 11);
			line_puts(l, idx);
			line_add(l, ", \"value\": ", 11);
			number(l, o, s->value, 0);
			line_add(l, ", \"t\": ", 7);
			number(l, o, s->t, !pdb_sample_has_t(s));
			line_add(l, ", \"weight\": ", 12);
			number(l, o, s->weight, !pdb_sample_has_weight(s));
			line_add(l, "}\n", 2);
		} else {
			line_puts(l, idx);
			line_add(l, ",", 1);
			number(l, o, s->value, 0);
			line_add(l, ",", 1);
			number(l, o, s->t, !pdb_sample_has_t(s));
			line_add(l, ",", 1);
			number(l, o, s->weight, !pdb_sample_has_weight(s));
			line_add(l, "\n", 1);
		}
		fwrite(l->data, 1, l->len, out);
	}
	return r->nsamples;
}

/* The runs to export: those named (each resolved first), else all, oldest
 * first; with where only those whose attributes match. */
static int pick_runs(struct pdb_store *store, char **sel, int nsel, const char *where,
		     int64_t **ids, size_t *n, struct pdb_err *err)
{
	int64_t *match = NULL;
	size_t nmatch = 0;

	*ids = NULL;
	*n = 0;
	if (nsel == 0)
		return pdb_store_run_ids(store, where, ids, n, err);
	*ids = pdb_xcalloc((size_t)nsel, sizeof **ids);
	for (int i = 0; i < nsel; i++)
		if (pdb_store_resolve(store, sel[i], &(*ids)[i], err) < 0)
			return -1;
	*n = (size_t)nsel;
	if (!where)
		return 0;
	if (pdb_store_run_ids(store, where, &match, &nmatch, err) < 0)
		return -1;
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++) {
		int found = 0;
		for (size_t k = 0; k < nmatch && !found; k++)
			found = match[k] == (*ids)[i];
		if (found)
			(*ids)[kept++] = (*ids)[i];
	}
	*n = kept;
	free(match);
	return 0;
}

/* An export of no row says why on stderr: an empty file alone reads as
 * "nothing happened" as much as "nothing there". */
static void say_empty(size_t nruns, size_t nselected, const struct export_opts *o)
{
	if (nruns == 0)
		fprintf(stderr, "perfdb: export: no rows: no run selected\n");
	else if (nselected == 0)
		fprintf(stderr, "perfdb: export: no rows: no series of the %zu run%s matches "
			"--bench%s\n", nruns, nruns == 1 ? "" : "s",
			o->filter.n ? ", --metric and --dim" : " and --metric");
	else
		fprintf(stderr, "perfdb: export: no rows: %zu series selected, none with %s%s\n",
			nselected, o->stats ? "statistics" : "samples",
			o->stats ? "" : " (the tool gave statistics only: --stats exports them)");
}

static int export_runs(struct pdb_store *store, FILE *out, const int64_t *ids, size_t n,
		       struct export_opts *o, struct pdb_err *err)
{
	struct line l = { 0 };
	size_t nselected = 0, nrows = 0;
	int ret = -1;

	for (size_t i = 0; i < n; i++) {
		struct pdb_run *run = pdb_store_load_run(store, ids[i], err);
		if (!run)
			goto out;
		for (size_t k = 0; k < run->nresults; k++)
			if (selected(o, run->results[k].benchmark, run->results[k].metric) &&
			    pdb_dim_filter_pass(&o->filter, run->results[k].dims,
						run->results[k].ndims)) {
				nselected++;
				nrows += write_result(out, &l, o, run, &run->results[k]);
			}
		pdb_run_free(run);
	}
	if (nrows == 0)
		say_empty(n, nselected, o);
	ret = 0;
out:
	free(l.data);
	return ret;
}

static int export_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct export_opts o = { 0 };
	struct pdb_store *store = NULL;
	struct pdb_buf where;
	struct pdb_err err;
	const char *output = NULL;
	struct pdb_atomic a;
	int64_t *ids = NULL;
	size_t nids = 0;
	FILE *out = stdout;
	int c, f, status = PDB_EXIT_OK, begun = 0;

	pdb_buf_init(&where);
	pdb_buf_puts(&where, "");
	while ((c = cmd_next_option(argc, argv, &cmd_export)) != -1) {
		switch (c) {
		case 'w':
			if ((status = cmd_add_where(&cmd_export, &where, optarg)) >= 0)
				goto out;
			status = PDB_EXIT_OK;
			break;
		case 'b': o.bench = optarg; break;
		case 'm': o.metric = optarg; break;
		case 'd':
			if ((status = cmd_add_dim(&cmd_export, &o.filter, optarg)) >= 0)
				goto out;
			status = PDB_EXIT_OK;
			break;
		case 's': o.stats = 1; break;
		case 'o': output = optarg; break;
		case 'F':
			if ((f = cmd_parse_format(optarg, formats)) < 0) {
				status = cmd_usage_error(&cmd_export, "unknown format '%s'", optarg);
				goto out;
			}
			o.jsonl = f == 1;
			break;
		default:
			if ((status = cmd_common_option(&cmd_export, ctx, c)) >= 0)
				goto out;
			status = PDB_EXIT_OK;
		}
	}
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    pick_runs(store, argv + optind, argc - optind, where.len ? where.data : NULL,
		      &ids, &nids, &err) < 0 ||
	    collect_dims(store, ids, nids, &o, &err) < 0 ||
	    pdb_dim_filter_check(&o.filter, &err) < 0)
		goto fail;
	if (output) {
		if (pdb_atomic_begin(output, PDB_OUT_GIVEN, &a, &err) < 0)
			goto fail;
		begun = 1;
		if (!(out = fopen(a.name, "w"))) {
			pdb_err_set(&err, PDB_EXIT_RUNTIME, "%s: cannot write it", output);
			goto fail;
		}
	}
	setvbuf(out, NULL, _IOFBF, 1 << 20);
	if (!o.jsonl)
		csv_header(out, &o);
	if (export_runs(store, out, ids, nids, &o, &err) < 0)
		goto fail;
	if (output) {
		int ok = !ferror(out);
		ok = fclose(out) == 0 && ok;
		out = stdout;
		begun = 0;
		if (!ok) {
			pdb_atomic_end(&a, 0, &err);
			pdb_err_set(&err, PDB_EXIT_RUNTIME, "%s: cannot write the output", output);
			goto fail;
		}
		if (pdb_atomic_end(&a, 1, &err) < 0)
			goto fail;
	}
	goto out;
fail:
	status = cmd_fail("export", &err);
out:
	if (out != stdout)
		fclose(out);
	if (begun)
		pdb_atomic_end(&a, 0, &err);
	for (size_t i = 0; i < o.ndims; i++)
		free(o.dims[i]);
	free(o.dims);
	pdb_dim_filter_release(&o.filter);
	free(ids);
	pdb_buf_release(&where);
	pdb_store_close(store);
	return status;
}
