/* Format: go test -bench output, as text and as go test -json events. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "parse/json_util.h"
#include "parse/text_util.h"
#include "util.h"

struct config {
	char *key, *value;
};

struct go {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct config *config;  /* the configuration lines in force */
	size_t nconfig, capconfig;
	long nbench;            /* benchmark lines read */
	long line;              /* where the text being read comes from */
	int in_json;            /* errors name the event's Output field */
	struct pdb_err *err;
};

/* Fail at column col (1-based) of the current text line. */
static int bad(struct go *g, size_t col, const char *what)
{
	if (g->in_json)
		return pdb_err_at(g->err, PDB_EXIT_INPUT, g->src->name, (int)g->line, 0,
				  "$.Output: %s", what);
	return pdb_err_at(g->err, PDB_EXIT_INPUT, g->src->name, (int)g->line, (int)col,
			  "%s", what);
}

/* "key: value": a configuration line (the key starts with a lower-case
 * letter and has no spaces or upper-case letters). */
static int config_line(struct go *g, const char *text)
{
	const char *colon = strchr(text, ':'), *v;
	char *key;

	if (!colon || !islower((unsigned char)text[0]) || colon[1] != ' ')
		return 0;
	for (const char *p = text; p < colon; p++)
		if (isspace((unsigned char)*p) || isupper((unsigned char)*p))
			return 0;
	for (v = colon + 1; isspace((unsigned char)*v); v++)
		;
	key = pdb_xstrndup(text, (size_t)(colon - text));
	for (size_t i = 0; i < g->nconfig; i++)
		if (strcmp(g->config[i].key, key) == 0) {
			pdb_set_str(&g->config[i].value, v);
			free(key);
			return 1;
		}
	pdb_grow((void **)&g->config, &g->capconfig, g->nconfig + 1, sizeof *g->config);
	g->config[g->nconfig].key = key;
	g->config[g->nconfig++].value = pdb_xstrdup(v);
	return 1;
}

/* The configuration in force as run attributes; a value that changed
 * during the file (a second pkg:) as KEY[BENCHMARK]. */
static void apply_config(struct go *g, const char *raw_name)
{
	for (size_t i = 0; i < g->nconfig; i++) {
		const char *have = pdb_run_get_attr(g->run, g->config[i].key);
		if (!have)
			pdb_run_set_attr(g->run, g->config[i].key, g->config[i].value);
		else if (strcmp(have, g->config[i].value) != 0)
			pdb_attr_set_bench(g->run, g->config[i].key, raw_name, g->config[i].value);
	}
}

/* A sub-benchmark part "key=value" with a plain key becomes a dimension. */
static int dim_part(const char *part, size_t len, size_t *eq)
{
	const char *e = memchr(part, '=', len);

	if (!e || e == part)
		return 0;
	for (const char *p = part; p < e; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' && *p != '-')
			return 0;
	*eq = (size_t)(e - part);
	return 1;
}

/* Name "BenchmarkX/k=v/sub-8": benchmark "BenchmarkX/sub", dims k=v and
 * procs=8 (GOMAXPROCS; go leaves the suffix out when it is 1). */
static char *split_name(const char *name, struct pdb_attr *dims, size_t *ndims)
{
	size_t n = strlen(name), end = n, start;
	struct pdb_buf b;

	while (end > 0 && isdigit((unsigned char)name[end - 1]))
		end--;
	if (end < n && end > 0 && name[end - 1] == '-') {
		dims[(*ndims)].key = pdb_xstrdup("procs");
		dims[(*ndims)++].value = pdb_xstrndup(name + end, n - end);
		n = end - 1;
	} else {
		dims[(*ndims)].key = pdb_xstrdup("procs");
		dims[(*ndims)++].value = pdb_xstrdup("1");
	}
	pdb_buf_init(&b);
	for (start = 0; start < n;) {
		const char *slash = memchr(name + start, '/', n - start);
		size_t len = slash ? (size_t)(slash - name) - start : n - start, eq;
		if (start > 0 && *ndims < 31 && dim_part(name + start, len, &eq) &&
		    strncmp(name + start, "procs=", 6) != 0) {
			dims[*ndims].key = pdb_xstrndup(name + start, eq);
			dims[(*ndims)++].value = pdb_xstrndup(name + start + eq + 1, len - eq - 1);
		} else {
			pdb_buf_printf(&b, "%s%.*s", start ? "/" : "", (int)len, name + start);
		}
		start += len + 1;
	}
	return b.data;
}

/* A unit of go's output as (metric, raw unit, direction override or 0). */
static const char *metric_of(const char *unit, int *direction)
{
	struct pdb_unit u;

	*direction = 0;
	pdb_unit_parse(unit, &u);
	if (strcmp(u.canonical, "s") == 0)
		return "time";
	if (strcmp(u.canonical, "B/s") == 0)
		return "throughput";
	if (strcmp(u.canonical, "B/op") == 0)
		return "alloc_bytes";
	if (strcmp(unit, "allocs/op") == 0) {
		*direction = PDB_DIR_LOWER;
		return "allocs";
	}
	return unit;
}

struct field {
	const char *text;
	size_t len, col;
};

/* "BenchmarkName-8  N  v1 unit1  v2 unit2 ...": one sample per metric. */
static int bench_line(struct go *g, const char *text)
{
	struct field f[64];
	struct pdb_attr dims[32];
	size_t nf = 0, ndims = 0;
	const char *p = text;
	char *name = NULL, *bench = NULL, *num = NULL;
	struct pdb_result *r;
	double x;
	int ret = -1;

	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (nf == sizeof f / sizeof f[0])
			return bad(g, (size_t)(p - text) + 1, "too many fields on a benchmark line");
		f[nf].text = p;
		f[nf].col = (size_t)(p - text) + 1;
		while (*p && !isspace((unsigned char)*p))
			p++;
		f[nf].len = (size_t)(p - f[nf].text);
		nf++;
	}
	/* the name alone (printed before a benchmark's log output) or a
	 * "--- FAIL"/"--- SKIP" report: no result */
	if (nf < 2 || strncmp(f[1].text, "---", 3) == 0)
		return 0;
	name = pdb_xstrndup(f[0].text, f[0].len);
	num = pdb_xstrndup(f[1].text, f[1].len);
	if (pdb_parse_double(num, &x) < 0 || x < 0 || x != (double)(long long)x) {
		bad(g, f[1].col, "expected an iteration count after the benchmark name");
		goto out;
	}
	if (nf % 2 != 0) {
		bad(g, f[nf - 1].col, "expected a unit after the value");
		goto out;
	}
	bench = split_name(name, dims, &ndims);
	r = pdb_run_result_with_dims(g->run, bench, dims, ndims, "iterations", "count");
	if (strcmp(name, bench) != 0)
		pdb_set_str(&r->raw_name, name);
	pdb_result_add_raw(r, x);
	for (size_t i = 2; i + 1 < nf; i += 2) {
		char *unit = pdb_xstrndup(f[i + 1].text, f[i + 1].len);
		const char *metric;
		int direction;
		free(num);
		num = pdb_xstrndup(f[i].text, f[i].len);
		if (pdb_parse_double(num, &x) < 0) {
			free(unit);
			bad(g, f[i].col, "expected a number");
			goto out;
		}
		metric = metric_of(unit, &direction);
		r = pdb_run_result_with_dims(g->run, bench, dims, ndims, metric, unit);
		if (direction)
			r->direction = direction;
		if (strcmp(name, bench) != 0 && !r->raw_name)
			pdb_set_str(&r->raw_name, name);
		pdb_result_add_raw(r, x);
		free(unit);
	}
	apply_config(g, name);
	g->nbench++;
	ret = 0;
out:
	for (size_t i = 0; i < ndims; i++) {
		free(dims[i].key);
		free(dims[i].value);
	}
	free(name);
	free(bench);
	free(num);
	return ret;
}

/* One line of go test output (without its newline). */
static int text_line(void *ctx, char *text, size_t len)
{
	struct go *g = ctx;

	if (memchr(text, '\0', len))
		return bad(g, strlen(text) + 1, "binary data (NUL byte)");
	while (len > 0 && (text[len - 1] == '\r' || text[len - 1] == '\n'))
		text[--len] = '\0';
	if (strncmp(text, "Benchmark", 9) == 0 && !islower((unsigned char)text[9]))
		return bench_line(g, text);
	config_line(g, text);
	return 0;
}

static int finish(struct go *g, int ret)
{
	if (ret == 0 && g->nbench == 0)
		ret = pdb_err_at(g->err, PDB_EXIT_INPUT, g->src->name, 0, 0,
				 "no benchmark results ('BenchmarkName N value unit ...')");
	if (ret == 0)
		pdb_set_str(&g->run->tool, "go");
	for (size_t i = 0; i < g->nconfig; i++) {
		free(g->config[i].key);
		free(g->config[i].value);
	}
	free(g->config);
	return ret;
}

static FILE *open_src(const struct pdb_source *src, struct pdb_err *err)
{
	FILE *f = fopen(src->path, "rb");

	if (!f)
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0, "%s", strerror(errno));
	return f;
}

/* A line of the head that looks like a result: "Benchmark... N v unit". */
static int head_has_result(const struct pdb_source *src)
{
	const char *p = (const char *)src->head;

	for (; p && (p = strstr(p, "Benchmark")); p += 9) {
		const char *q = p + 9;
		if (p != (const char *)src->head && p[-1] != '\n')
			continue;
		while (*q && !isspace((unsigned char)*q))
			q++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!isdigit((unsigned char)*q))
			continue;
		while (isdigit((unsigned char)*q))
			q++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (isdigit((unsigned char)*q))
			return 1;
	}
	return 0;
}

static int detect_text(const struct pdb_source *src)
{
	if (pdb_head_first(src) == '{' || !head_has_result(src))
		return 0;
	return pdb_head_has(src, "ns/op") || pdb_head_has(src, "goos: ") ? 90 : 60;
}

static int parse_text(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct go g = { .src = src, .run = run, .err = err };
	int ret = pdb_text_read(src, text_line, &g, &g.line, err);

	return finish(&g, ret);
}

const struct pdb_format pdb_format_go_bench = {
	.name = "go-bench",
	.summary = "go test -bench text: each result line a sample, -N suffix as dim procs",
	.detect = detect_text,
	.parse = parse_text,
};

/* go test -json: the Output of the events of each package, joined, is the
 * text above (a result line may come in several events). */
struct pkg_text {
	char *package;
	struct pdb_buf text;
};

static int detect_json(const struct pdb_source *src)
{
	if (pdb_head_first(src) != '{' || !pdb_head_has(src, "\"Action\":"))
		return 0;
	return pdb_head_has(src, "\"Output\":\"Benchmark") ||
	       pdb_head_has(src, "\"Test\":\"Benchmark") ? 90 : 40;
}

/* Feed the complete lines of t to the text reader, keep the rest. */
static int drain(struct go *g, struct pdb_buf *t, int all)
{
	size_t start = 0;
	char *nl;
	int ret = 0;

	while (ret == 0 && start < t->len &&
	       ((nl = memchr(t->data + start, '\n', t->len - start)) || all)) {
		size_t end = nl ? (size_t)(nl - t->data) : t->len;
		t->data[end] = '\0';
		ret = text_line(g, t->data + start, end - start);
		start = end + 1;
	}
	if (start >= t->len)
		t->len = 0;
	else {
		memmove(t->data, t->data + start, t->len - start);
		t->len -= start;
	}
	if (t->data)
		t->data[t->len] = '\0';
	return ret;
}

static int json_event(struct go *g, struct pkg_text **pkgs, size_t *npkgs, size_t *cap,
		      const char *line, size_t len)
{
	json_error_t jerr;
	json_t *ev = json_loadb(line, len, 0, &jerr), *out;
	const char *pkg;
	struct pkg_text *p = NULL;
	int ret = -1;

	if (!ev)
		return pdb_err_at(g->err, PDB_EXIT_INPUT, g->src->name, (int)g->line,
				  jerr.column > 0 ? jerr.column : 1, "%s", jerr.text);
	if (!json_is_object(ev)) {
		pdb_err_at(g->err, PDB_EXIT_INPUT, g->src->name, (int)g->line, 1,
			   "expected a test event object");
		goto out;
	}
	out = json_object_get(ev, "Output");
	if (out && !json_is_string(out)) {
		pdb_err_at(g->err, PDB_EXIT_INPUT, g->src->name, (int)g->line, 0,
			   "$.Output: expected a string");
		goto out;
	}
	pkg = pdb_json_str(ev, "Package");
	pkg = pkg ? pkg : "";
	for (size_t i = 0; i < *npkgs; i++)
		if (strcmp((*pkgs)[i].package, pkg) == 0)
			p = &(*pkgs)[i];
	if (!p) {
		pdb_grow((void **)pkgs, cap, *npkgs + 1, sizeof **pkgs);
		p = &(*pkgs)[(*npkgs)++];
		p->package = pdb_xstrdup(pkg);
		pdb_buf_init(&p->text);
	}
	if (out)
		pdb_buf_add(&p->text, json_string_value(out), json_string_length(out));
	ret = drain(g, &p->text, 0);
out:
	json_decref(ev);
	return ret;
}

static int parse_json(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct go g = { .src = src, .run = run, .err = err, .in_json = 1 };
	struct pkg_text *pkgs = NULL;
	size_t npkgs = 0, cap = 0, linecap = 0;
	FILE *f = open_src(src, err);
	char *line = NULL;
	ssize_t n;
	int ret = 0, any = 0;

	if (!f)
		return -1;
	while (ret == 0 && (n = getline(&line, &linecap, f)) > 0) {
		size_t len = (size_t)n;
		g.line++;
		while (len > 0 && isspace((unsigned char)line[len - 1]))
			len--;
		if (len == 0)
			continue;
		any = 1;
		if (memchr(line, '\0', len))
			ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)g.line,
					 (int)strlen(line) + 1, "binary data (NUL byte), not JSON");
		else
			ret = json_event(&g, &pkgs, &npkgs, &cap, line, len);
	}
	if (ret == 0 && !any)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, 1, 1, "empty file");
	for (size_t i = 0; i < npkgs; i++) {
		if (ret == 0)
			ret = drain(&g, &pkgs[i].text, 1);
		free(pkgs[i].package);
		pdb_buf_release(&pkgs[i].text);
	}
	free(pkgs);
	free(line);
	fclose(f);
	return finish(&g, ret);
}

const struct pdb_format pdb_format_go_bench_json = {
	.name = "go-bench-json",
	.summary = "go test -bench -json: the Output of the test events read as go-bench text",
	.detect = detect_json,
	.parse = parse_json,
};
