/* Format: Rust criterion results: a target/criterion tree, its JSON files one by one, or raw.csv. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/format.h"
#include "parse/csv_util.h"
#include "parse/json_util.h"
#include "util.h"

#define RAW_CSV_HEADER "group,function,value,throughput_num,throughput_type," \
	"sample_measured_value,unit,iteration_count"
#define MAX_DEPTH 8

/* estimates.json keys (0.3 and the capitalised pre-0.3 ones) to stat names. */
static const struct {
	const char *key, *stat;
} estimates[] = {
	{ "mean", "mean" },     { "Mean", "mean" },
	{ "median", "median" }, { "Median", "median" },
	{ "std_dev", "stddev" }, { "StdDev", "stddev" },
	{ "slope", "slope" },   { "Slope", "slope" },
	{ "median_abs_dev", "mad" }, { "MedianAbsDev", "mad" },
};

/* A benchmark as benchmark.json names it: group[/function], value_str. */
struct bench_id {
	char *name;
	char *param;       /* NULL when the benchmark has no value_str */
	char *throughput;  /* "5 elements", or NULL */
};

static void bench_id_release(struct bench_id *id)
{
	free(id->name);
	free(id->param);
	free(id->throughput);
}

static int is_file(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* Is there a benchmark (a new/benchmark.json, or benchmark.json itself)
 * at or below path? */
static int has_bench(const char *path, int depth)
{
	struct dirent *e;
	DIR *d;
	char *p = pdb_xasprintf("%s/new/benchmark.json", path);
	int found = is_file(p);

	free(p);
	p = pdb_xasprintf("%s/benchmark.json", path);
	found = found || is_file(p);
	free(p);
	if (found || depth >= MAX_DEPTH || !(d = opendir(path)))
		return found;
	while (!found && (e = readdir(d))) {
		struct stat sb;
		if (e->d_name[0] == '.' || strcmp(e->d_name, "report") == 0)
			continue;
		p = pdb_xasprintf("%s/%s", path, e->d_name);
		if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode)) /* no link: loops */
			found = has_bench(p, depth + 1);
		free(p);
	}
	closedir(d);
	return found;
}

static int is_legacy_sample(const char *h)
{
	while (*h == ' ' || *h == '\n' || *h == '\r' || *h == '\t')
		h++;
	if (h[0] != '[' || h[1] != '[')
		return 0;
	for (h += 2; *h; h++)
		if (!strchr("0123456789.eE+-,[] \t\r\n", *h))
			return 0;
	return 1;
}

static int detect(const struct pdb_source *src)
{
	if (src->is_dir)
		return has_bench(src->path, 0) ? 90 : 0;
	if (strncmp((const char *)src->head, RAW_CSV_HEADER, strlen(RAW_CSV_HEADER)) == 0)
		return 95;
	if (pdb_head_first(src) == '{') {
		if (pdb_head_has(src, "\"sampling_mode\"") && pdb_head_has(src, "\"iters\"") &&
		    pdb_head_has(src, "\"times\""))
			return 95;
		if (pdb_head_has(src, "\"group_id\"") && pdb_head_has(src, "\"full_id\"") &&
		    pdb_head_has(src, "\"directory_name\""))
			return 90;
		if (pdb_head_has(src, "\"point_estimate\"") &&
		    pdb_head_has(src, "\"confidence_interval\"") &&
		    (pdb_head_has(src, "\"mean\"") || pdb_head_has(src, "\"Mean\"")))
			return 90;
		return 0;
	}
	/* pre-0.3 sample.json: [[iterations...], [times...]], numbers only */
	return is_legacy_sample((const char *)src->head) ? 30 : 0;
}

static json_t *load(const char *path, const char *name, struct pdb_err *err)
{
	struct pdb_source src = { .path = path, .name = name };
	return pdb_json_load(&src, err);
}

static int bad(struct pdb_err *err, const char *name, const char *path, const char *what)
{
	return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "%s: %s", path, what);
}

/* benchmark.json: {group_id, function_id, value_str, throughput, ...}. */
static int read_bench_id(json_t *doc, const char *name, struct bench_id *id,
			 struct pdb_err *err)
{
	const char *group, *function, *value, *k;
	json_t *tp, *v;

	memset(id, 0, sizeof *id);
	if (!json_is_object(doc))
		return bad(err, name, "$", "expected an object");
	if (!(group = pdb_json_str(doc, "group_id")))
		return bad(err, name, "$.group_id", "expected a string");
	function = pdb_json_str(doc, "function_id");
	value = pdb_json_str(doc, "value_str");
	id->name = function ? pdb_xasprintf("%s/%s", group, function) : pdb_xstrdup(group);
	id->param = pdb_xstrdup(value);
	tp = json_object_get(doc, "throughput");
	json_object_foreach(tp, k, v) {
		char *n = pdb_json_text(v), *type = pdb_xstrdup(k);
		for (char *c = type; *c; c++)
			*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
		free(id->throughput);
		id->throughput = pdb_xasprintf("%s %s", n, type);
		free(n);
		free(type);
	}
	return 0;
}

/* The series of a benchmark; its throughput declaration as an attribute
 * "NAME[/PARAM].throughput". */
static struct pdb_result *bench_result(struct pdb_run *run, const struct bench_id *id,
				       const char *unit)
{
	struct pdb_attr dim = { .key = "param", .value = id->param };

	if (id->throughput) {
		char *key = id->param ? pdb_xasprintf("%s/%s.throughput", id->name, id->param)
				      : pdb_xasprintf("%s.throughput", id->name);
		pdb_run_set_attr(run, key, id->throughput);
		free(key);
	}
	return pdb_run_result_with_dims(run, id->name, &dim, id->param ? 1 : 0, "time", unit);
}

/* sample.json: {"iters": [...], "times": [...]} (0.3) or [[iters], [times]]
 * (pre-0.3); times are total nanoseconds for that many iterations. */
static int add_samples(json_t *doc, const char *name, struct pdb_result *r,
		       struct pdb_err *err)
{
	json_t *iters, *times;
	const char *ipath = "$.iters", *tpath = "$.times";
	char where[64];

	if (json_is_array(doc)) {
		iters = json_array_get(doc, 0);
		times = json_array_get(doc, 1);
		ipath = "$[0]";
		tpath = "$[1]";
	} else {
		iters = json_object_get(doc, "iters");
		times = json_object_get(doc, "times");
	}
	if (!json_is_array(iters))
		return bad(err, name, ipath, "expected an array of iteration counts");
	if (!json_is_array(times))
		return bad(err, name, tpath, "expected an array of times");
	if (json_array_size(iters) != json_array_size(times))
		return bad(err, name, tpath, "not as many times as iteration counts");
	for (size_t i = 0; i < json_array_size(iters); i++) {
		double n, t;
		if (pdb_json_num(json_array_get(iters, i), &n) < 0 || n <= 0) {
			snprintf(where, sizeof where, "%s[%zu]", ipath, i);
			return bad(err, name, where, "expected a positive number");
		}
		if (pdb_json_num(json_array_get(times, i), &t) < 0) {
			snprintf(where, sizeof where, "%s[%zu]", tpath, i);
			return bad(err, name, where, "expected a number");
		}
		pdb_result_add_raw(r, t / n);
	}
	return 0;
}

/* estimates.json: {mean: {point_estimate, standard_error,
 * confidence_interval: {lower_bound, upper_bound, confidence_level}}, ...}. */
static int add_estimates(json_t *doc, const char *name, struct pdb_run *run,
			 struct pdb_result *r, struct pdb_err *err)
{
	static const struct { const char *key, *suffix; } parts[] = {
		{ "point_estimate", "" }, { "standard_error", "_se" },
		{ "lower_bound", "_ci_low" }, { "upper_bound", "_ci_high" },
	};
	const char *k;
	json_t *e;
	char where[128];

	if (!json_is_object(doc))
		return bad(err, name, "$", "expected an object of estimates");
	json_object_foreach(doc, k, e) {
		json_t *ci = json_object_get(e, "confidence_interval");
		const char *stat = NULL;
		double d;
		for (size_t i = 0; i < sizeof estimates / sizeof estimates[0]; i++)
			if (strcmp(estimates[i].key, k) == 0)
				stat = estimates[i].stat;
		if (!json_is_object(e)) {
			snprintf(where, sizeof where, "$.%s", k);
			return bad(err, name, where, "expected an object");
		}
		for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
			json_t *v = json_object_get(p < 2 ? e : ci, parts[p].key);
			char *sname;
			if (!v)
				continue;
			if (pdb_json_num(v, &d) < 0) {
				snprintf(where, sizeof where, p < 2 ? "$.%s.%s" :
					 "$.%s.confidence_interval.%s", k, parts[p].key);
				return bad(err, name, where, "expected a number");
			}
			sname = pdb_xasprintf("%s%s", stat ? stat : k, parts[p].suffix);
			pdb_result_set_stat_raw(r, sname, d);
			free(sname);
		}
		if (pdb_json_num(json_object_get(ci, "confidence_level"), &d) == 0) {
			char level[32];
			pdb_fmt_double(d, level);
			pdb_run_set_attr(run, "confidence_level", level);
		}
	}
	return 0;
}

/* One benchmark directory (a "new" directory): benchmark.json names it,
 * sample.json gives the samples, estimates.json the stats. */
static int read_bench_dir(struct pdb_run *run, const char *path, const char *name,
			  struct pdb_err *err)
{
	char *bpath = pdb_xasprintf("%s/benchmark.json", path),
	     *bname = pdb_xasprintf("%s/benchmark.json", name),
	     *spath = pdb_xasprintf("%s/sample.json", path),
	     *sname = pdb_xasprintf("%s/sample.json", name),
	     *epath = pdb_xasprintf("%s/estimates.json", path),
	     *ename = pdb_xasprintf("%s/estimates.json", name);
	json_t *bdoc = NULL, *sdoc = NULL, *edoc = NULL;
	struct bench_id id = { 0 };
	struct pdb_result *r;
	int ret = -1;

	if (!(bdoc = load(bpath, bname, err)) || read_bench_id(bdoc, bname, &id, err) < 0)
		goto out;
	if (!(sdoc = load(spath, sname, err)))
		goto out;
	if (is_file(epath) && !(edoc = load(epath, ename, err)))
		goto out;
	r = bench_result(run, &id, "ns");
	if (add_samples(sdoc, sname, r, err) < 0)
		goto out;
	if (edoc && add_estimates(edoc, ename, run, r, err) < 0)
		goto out;
	ret = 0;
out:
	json_decref(bdoc);
	json_decref(sdoc);
	json_decref(edoc);
	bench_id_release(&id);
	free(bpath); free(bname); free(spath); free(sname); free(epath); free(ename);
	return ret;
}

/* Every benchmark below path, in name order. A benchmark directory is read
 * from new/ only: base/ and change/ hold an earlier run and criterion's
 * comparison with it (perfdb compares runs itself); report/ is HTML. */
static int walk(struct pdb_run *run, const char *path, const char *name, int depth,
		struct pdb_err *err)
{
	struct dirent **list = NULL;
	char *p = pdb_xasprintf("%s/benchmark.json", path),
	     *np = pdb_xasprintf("%s/new/benchmark.json", path);
	int n, ret = 0, here = is_file(p), below = is_file(np);

	free(p);
	free(np);
	if (here)
		return read_bench_dir(run, path, name, err);
	if (below) {
		p = pdb_xasprintf("%s/new", path);
		np = pdb_xasprintf("%s/new", name);
		ret = read_bench_dir(run, p, np, err);
		free(p);
		free(np);
		return ret;
	}
	if (depth > MAX_DEPTH || (n = scandir(path, &list, NULL, alphasort)) < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		const char *d = list[i]->d_name;
		struct stat sb;
		char *child = pdb_xasprintf("%s/%s", path, d),
		     *child_name = pdb_xasprintf("%s/%s", name, d);
		if (ret == 0 && d[0] != '.' && strcmp(d, "report") != 0 &&
		    lstat(child, &sb) == 0 && S_ISDIR(sb.st_mode)) /* no link: loops */
			ret = walk(run, child, child_name, depth + 1, err);
		free(child);
		free(child_name);
		free(list[i]);
	}
	free(list);
	return ret;
}

/* A lone sample.json or estimates.json: its benchmark is named by the
 * benchmark.json beside it (same file name with "benchmark" for "sample"
 * or "estimates", so book_..._sample.json pairs with book_..._benchmark.json). */
static int sibling_id(const struct pdb_source *src, const char *word,
		      struct bench_id *id, struct pdb_err *err)
{
	const char *base = strrchr(src->path, '/'), *at = NULL, *s;
	char *path;
	json_t *doc;
	int ret = -1;

	base = base ? base + 1 : src->path;
	for (s = base; (s = strstr(s, word)); s++)
		at = s;
	if (!at)
		return pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0,
				  "cannot name the benchmark: the file name holds no '%s'", word);
	path = pdb_xasprintf("%.*sbenchmark%s", (int)(at - src->path), src->path,
			     at + strlen(word));
	if (!is_file(path)) {
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0,
			   "cannot name the benchmark: no %s beside it", strrchr(path, '/') ?
			   strrchr(path, '/') + 1 : path);
		goto out;
	}
	if ((doc = load(path, path, err))) {
		ret = read_bench_id(doc, path, id, err);
		json_decref(doc);
	}
out:
	free(path);
	return ret;
}

struct csv_ctx {
	struct pdb_run *run;
	size_t col[8];
};

/* raw.csv rows: one sample each, sample_measured_value / iteration_count. */
static int csv_row(void *ctx, struct pdb_csv *csv, char **f, size_t nf,
		   struct pdb_err *err)
{
	static const char *const names[] = { "group", "function", "value", "throughput_num",
		"throughput_type", "sample_measured_value", "unit", "iteration_count" };
	struct csv_ctx *c = ctx;
	struct bench_id id = { 0 };
	double v, n;

	if (pdb_csv_row(csv) == 1) {
		if (pdb_csv_unique_names(csv, f, nf, err) < 0)
			return -1;
		for (size_t i = 0; i < 8; i++) {
			size_t j = 0;
			while (j < nf && strcmp(f[j], names[i]) != 0)
				j++;
			if (j == nf)
				return pdb_csv_bad(csv, err, 0, "no column '%s'", names[i]);
			c->col[i] = j;
		}
		return 0;
	}
	if (nf != 8)
		return pdb_csv_bad(csv, err, nf < 8 ? nf : 8, "expected 8 fields, got %zu", nf);
	if (pdb_parse_double(f[c->col[5]], &v) < 0)
		return pdb_csv_bad(csv, err, c->col[5], "expected a number, got '%s'", f[c->col[5]]);
	if (pdb_parse_double(f[c->col[7]], &n) < 0 || n <= 0)
		return pdb_csv_bad(csv, err, c->col[7], "expected a positive number, got '%s'",
				   f[c->col[7]]);
	id.name = *f[c->col[1]] ? pdb_xasprintf("%s/%s", f[c->col[0]], f[c->col[1]])
				: pdb_xstrdup(f[c->col[0]]);
	id.param = *f[c->col[2]] ? pdb_xstrdup(f[c->col[2]]) : NULL;
	if (*f[c->col[3]])
		id.throughput = pdb_xasprintf("%s %s", f[c->col[3]], f[c->col[4]]);
	pdb_result_add_raw(bench_result(c->run, &id, f[c->col[6]]), v / n);
	bench_id_release(&id);
	return 0;
}

static int parse_file(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct bench_id id = { 0 };
	json_t *doc;
	int ret = -1;

	if (strncmp((const char *)src->head, RAW_CSV_HEADER, strlen(RAW_CSV_HEADER)) == 0) {
		struct csv_ctx c = { .run = run };
		return pdb_csv_read(src, ',', csv_row, &c, err);
	}
	if (!(doc = pdb_json_load(src, err)))
		return -1;
	if (json_is_array(doc) || json_object_get(doc, "iters")) {
		if (sibling_id(src, "sample", &id, err) == 0)
			ret = add_samples(doc, src->name, bench_result(run, &id, "ns"), err);
	} else if (json_object_get(doc, "group_id")) {
		/* names a benchmark only; its measurements are in the other files */
		ret = read_bench_id(doc, src->name, &id, err);
	} else if (sibling_id(src, "estimates", &id, err) == 0) {
		ret = add_estimates(doc, src->name, run, bench_result(run, &id, "ns"), err);
	}
	json_decref(doc);
	bench_id_release(&id);
	return ret;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	pdb_set_str(&run->tool, "criterion");
	if (!src->is_dir)
		return parse_file(src, run, err);
	if (walk(run, src->path, src->name, 0, err) < 0)
		return -1;
	if (run->nresults == 0)
		return pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0,
				  "no criterion benchmark (new/benchmark.json) in this directory");
	return 0;
}

const struct pdb_format pdb_format_criterion = {
	.name = "criterion",
	.summary = "Rust criterion: target/criterion directory, sample/estimates JSON, raw.csv",
	.detect = detect,
	.parse = parse,
};
