/* Format: ApacheBench (ab) text summary, -e percentile CSV and -g per-request TSV. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/format.h"
#include "formats/load_util.h"
#include "parse/csv_util.h"
#include "parse/json_util.h"
#include "parse/text_util.h"
#include "util.h"

#define BENCH "ab" /* the -e and -g files do not name the URL */
#define PERCENT_TITLE "Percentage of the requests served within a certain time"

/* The rows of "Connection Times (ms)" and the -g columns, as metrics. */
static const struct {
	const char *row, *column, *metric;
} phases[] = {
	{ "Connect:", "ctime", "connect" },
	{ "Processing:", "dtime", "processing" },
	{ "Waiting:", "wait", "waiting" },
	{ "Total:", "ttime", "latency" },
};
#define NPHASES (sizeof phases / sizeof phases[0])

enum section { SEC_MAIN, SEC_TIMES, SEC_PERCENT };

struct ab {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	long line;
	enum section sec;
	char *host, *port, *path;
	int tls, have_rps, have_non_2xx;
	struct pdb_attr dim;
	char *bench;
	int last_failed;  /* the line before was "Failed requests:" */
};

static int bad(struct ab *a, const char *line, const char *at, const char *what)
{
	return pdb_err_at(a->err, PDB_EXIT_INPUT, a->src->name, (int)a->line,
			  (int)(at - line) + 1, "%s", what);
}

static struct pdb_result *result(struct ab *a, const char *metric, const char *unit,
				 int direction)
{
	struct pdb_result *r;

	if (!a->bench) {
		a->bench = pdb_xasprintf("%s://%s%s%s%s", a->tls ? "https" : "http",
					 a->host ? a->host : "", a->port ? ":" : "",
					 a->port ? a->port : "", a->path ? a->path : "");
		if (!a->host && !a->path)
			pdb_set_str(&a->bench, BENCH);
	}
	r = pdb_run_result_with_dims(a->run, a->bench, &a->dim, a->dim.key ? 1 : 0, metric, unit);
	r->direction = direction;
	return r;
}

/* The number at p (up to a blank) and what follows it, trimmed. */
static int number(struct ab *a, const char *line, const char *p, double *v, const char **rest)
{
	char num[64];
	size_t n;

	while (*p == ' ' || *p == '\t')
		p++;
	n = strcspn(p, " \t");
	if (n == 0 || n >= sizeof num)
		return bad(a, line, p, "expected a number");
	memcpy(num, p, n);
	num[n] = '\0';
	if (pdb_parse_double(num, v) < 0 || !isfinite(*v) || *v < 0)
		return bad(a, line, p, "expected a number");
	p += n;
	while (*p == ' ' || *p == '\t')
		p++;
	*rest = p;
	return 0;
}

/* "Connect:        0    0   0.4      0       6": min mean sd median max (ms). */
static int times_line(struct ab *a, const char *line, const char *text)
{
	static const char *const stat[] = { "min", "mean", "stddev", "median", "max" };

	for (size_t i = 0; i < NPHASES; i++) {
		size_t n = strlen(phases[i].row);
		const char *p = text + n;
		struct pdb_result *r;
		double v[5];
		if (strncmp(text, phases[i].row, n) != 0)
			continue;
		for (int k = 0; k < 5; k++)
			if (number(a, line, p, &v[k], &p) < 0)
				return -1;
		if (*p)
			return bad(a, line, p, "expected min, mean, sd, median and max only");
		r = result(a, phases[i].metric, "ms", PDB_DIR_LOWER);
		for (int k = 0; k < 5; k++)
			pdb_result_set_stat_raw(r, stat[k], v[k]);
		return 0;
	}
	if (strstr(text, "min") && strstr(text, "median"))
		return 0; /* the column titles */
	return bad(a, line, text, "expected Connect:, Processing:, Waiting: or Total:");
}

/* "  50%      2" and " 100%     18 (longest request)" (ms). */
static int percent_line(struct ab *a, const char *line, const char *text)
{
	const char *pct = strchr(text, '%'), *rest;
	char num[16], stat[24];
	double p, v;

	if (!pct || (size_t)(pct - text) >= sizeof num)
		return bad(a, line, text, "expected 'PERCENT%  MS'");
	memcpy(num, text, (size_t)(pct - text));
	num[pct - text] = '\0';
	if (pdb_parse_double(num, &p) < 0 || !(p >= 0 && p <= 100))
		return bad(a, line, text, "expected a percentage");
	if (number(a, line, pct + 1, &v, &rest) < 0)
		return -1;
	if (*rest && strcmp(rest, "(longest request)") != 0)
		return bad(a, line, rest, "expected a time in ms");
	if (p == 100)
		snprintf(stat, sizeof stat, "max");
	else
		snprintf(stat, sizeof stat, "p%s", num);
	pdb_result_set_stat_raw(result(a, "latency", "ms", PDB_DIR_LOWER), stat, v);
	return 0;
}

/* "Requests per second:    1295.12 [#/sec] (mean)" and the other "Key: value" lines. */
static int main_line(struct ab *a, const char *line, const char *text)
{
	static const struct {
		const char *key, *metric, *unit, *suffix;
		int direction;
	} values[] = {
		{ "Time taken for tests:", "elapsed", "s", "seconds", PDB_DIR_NONE },
		{ "Complete requests:", "requests", "count", "", PDB_DIR_NONE },
		{ "Failed requests:", "errors", "count", "", PDB_DIR_LOWER },
		{ "Non-2xx responses:", "non_2xx", "count", "", PDB_DIR_LOWER },
		{ "Total transferred:", "bytes_read", "B", "bytes", PDB_DIR_NONE },
		{ "HTML transferred:", "html_bytes", "B", "bytes", PDB_DIR_NONE },
		{ "Requests per second:", "throughput", "req/s", "[#/sec] (mean)", PDB_DIR_HIGHER },
		{ "Time per request:", "time_per_request", "ms", "[ms] (mean)", PDB_DIR_LOWER },
		{ "Time per request:", "time_per_request_all", "ms",
		  "[ms] (mean, across all concurrent requests)", PDB_DIR_LOWER },
		{ "Transfer rate:", "transfer", "KiB/s", "[Kbytes/sec] received", PDB_DIR_HIGHER },
	};
	static const struct { const char *key, *attr; } attrs[] = {
		{ "Server Software:", "server" },
		{ "Document Length:", "document_length" },
		{ "Keep-Alive requests:", "keep_alive_requests" },
		{ "SSL/TLS Protocol:", "tls_protocol" },
		{ "TLS Server Name:", "tls_server_name" },
		{ "Server Temp Key:", "tls_temp_key" },
	};
	const char *colon = strchr(text, ':'), *val, *rest;
	size_t klen;
	double v;

	if (a->last_failed && text[0] == '(') {
		pdb_run_set_attr(a->run, "failed_requests", text);
		return 0;
	}
	a->last_failed = 0;
	if (!colon)
		return 0; /* "Benchmarking HOST (be patient)", "Completed 100 requests", ... */
	klen = (size_t)(colon - text) + 1;
	val = colon + 1;
	while (*val == ' ' || *val == '\t')
		val++;
	if (strncmp(text, "Server Hostname:", klen) == 0 && klen == 16) {
		pdb_set_str(&a->host, val);
		return 0;
	}
	if (strncmp(text, "Server Port:", klen) == 0 && klen == 12) {
		pdb_set_str(&a->port, val);
		return 0;
	}
	if (strncmp(text, "Document Path:", klen) == 0 && klen == 14) {
		pdb_set_str(&a->path, val);
		return 0;
	}
	if (strncmp(text, "Concurrency Level:", klen) == 0 && klen == 18) {
		int64_t c;
		if (pdb_parse_int64(val, 1, INT32_MAX, &c) < 0)
			return bad(a, line, val, "expected a concurrency level");
		a->dim.key = "concurrency";
		pdb_set_str(&a->dim.value, val);
		return 0;
	}
	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
		if (strlen(attrs[i].key) == klen && strncmp(text, attrs[i].key, klen) == 0) {
			if (i == 3)
				a->tls = 1;
			pdb_run_set_attr(a->run, attrs[i].attr, val);
			return 0;
		}
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		if (strlen(values[i].key) != klen || strncmp(text, values[i].key, klen) != 0)
			continue;
		if (number(a, line, val, &v, &rest) < 0)
			return -1;
		if (strcmp(rest, values[i].suffix) != 0) {
			if (i == 7)
				continue; /* the other "Time per request:" */
			return bad(a, line, rest, "unexpected text after the number");
		}
		if (i == 2)
			a->last_failed = 1;
		if (i == 3)
			a->have_non_2xx = 1;
		if (i == 6)
			a->have_rps = 1;
		pdb_result_add_raw(result(a, values[i].metric, values[i].unit, values[i].direction), v);
		return 0;
	}
	return 0; /* "Transfer rate: ... kb/s sent" and lines ab may add */
}

static int text_line(void *ctx, char *line, size_t len)
{
	struct ab *a = ctx;
	const char *text;

	if (memchr(line, '\0', len))
		return bad(a, line, line + strlen(line), "binary data (NUL byte)");
	while (len > 0 && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	text = line + strspn(line, " \t");
	if (!*text) {
		a->sec = SEC_MAIN;
		return 0;
	}
	if (strncmp(text, "This is ApacheBench, Version ", 29) == 0) {
		size_t n = strcspn(text + 29, " ");
		char *v = pdb_xstrndup(text + 29, n);
		pdb_run_set_attr(a->run, "ab.version", v);
		free(v);
		return 0;
	}
	if (strcmp(text, "Connection Times (ms)") == 0) {
		a->sec = SEC_TIMES;
		return 0;
	}
	if (strncmp(text, PERCENT_TITLE, strlen(PERCENT_TITLE)) == 0) {
		a->sec = SEC_PERCENT;
		return 0;
	}
	if (a->sec == SEC_TIMES)
		return times_line(a, line, text);
	if (a->sec == SEC_PERCENT)
		return percent_line(a, line, text);
	return main_line(a, line, text);
}

static int detect_text(const struct pdb_source *src)
{
	if (pdb_head_has(src, "This is ApacheBench, Version "))
		return 95;
	return pdb_head_has(src, "Requests per second:") && pdb_head_has(src, "[#/sec] (mean)") &&
	       pdb_head_has(src, "Concurrency Level:") ? 85 : 0;
}

static int parse_text(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct ab a = { .src = src, .run = run, .err = err };
	int ret = pdb_text_read(src, text_line, &a, &a.line, err);

	if (ret == 0 && !a.have_rps)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)a.line, 0,
				 "truncated: no 'Requests per second:' line");
	if (ret == 0) {
		if (!a.have_non_2xx) /* ab prints the line only when there are some */
			pdb_result_add_raw(result(&a, "non_2xx", "count", PDB_DIR_LOWER), 0);
		pdb_set_str(&run->tool, "ab");
		pdb_load_mark_failures(run);
	}
	free(a.host);
	free(a.port);
	free(a.path);
	free(a.dim.value);
	free(a.bench);
	return ret;
}

/* -e FILE: "Percentage served,Time in ms" then 0..100 rows (ms). */
static int percent_row(void *ctx, struct pdb_csv *csv, char **fields, size_t nfields,
		       struct pdb_err *err)
{
	struct pdb_run *run = ctx;
	struct pdb_result *r;
	double p, v;
	char stat[32];

	if (pdb_csv_row(csv) == 1) {
		if (nfields != 2 || strcmp(fields[0], "Percentage served") != 0 ||
		    strcmp(fields[1], "Time in ms") != 0)
			return pdb_csv_bad(csv, err, 0, "not an ab -e file: expected the header "
					   "'Percentage served,Time in ms'");
		return 0;
	}
	if (nfields != 2)
		return pdb_csv_bad(csv, err, nfields < 2 ? nfields - 1 : 2,
				   "expected 2 fields as in the header, found %zu", nfields);
	if (pdb_parse_double(fields[0], &p) < 0 || !(p >= 0 && p <= 100))
		return pdb_csv_bad(csv, err, 0, "expected a percentage, found '%s'", fields[0]);
	if (pdb_parse_double(fields[1], &v) < 0 || !isfinite(v) || v < 0)
		return pdb_csv_bad(csv, err, 1, "expected a time in ms, found '%s'", fields[1]);
	if (p == 0)
		snprintf(stat, sizeof stat, "min");
	else if (p == 100)
		snprintf(stat, sizeof stat, "max");
	else
		snprintf(stat, sizeof stat, "p%s", fields[0]);
	r = pdb_run_add_result(run, BENCH, "latency", "ms");
	pdb_result_set_stat_raw(r, stat, v);
	return 0;
}

static int detect_csv(const struct pdb_source *src)
{
	return src->head && strncmp((const char *)src->head, "Percentage served,Time in ms", 28) == 0
		? 95 : 0;
}

static int parse_csv(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	int ret = pdb_csv_read(src, ',', percent_row, run, err);

	if (ret == 0 && run->nresults == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0, "no percentile rows");
	if (ret == 0)
		pdb_set_str(&run->tool, "ab");
	return ret;
}

/* -g FILE: starttime, seconds (epoch), ctime, dtime, ttime, wait (ms) per request. */
struct gnuplot {
	struct pdb_run *run;
	int col[NPHASES];
	int col_seconds;
	size_t ncols;
	int64_t t0, tmin;
	size_t res[NPHASES];  /* result index + 1 */
};

static int tsv_header(struct gnuplot *g, struct pdb_csv *csv, char **fields, size_t nfields,
		      struct pdb_err *err)
{
	if (pdb_csv_unique_names(csv, fields, nfields, err) < 0)
		return -1;
	g->col_seconds = -1;
	for (size_t k = 0; k < NPHASES; k++)
		g->col[k] = -1;
	for (size_t i = 0; i < nfields; i++) {
		if (strcmp(fields[i], "seconds") == 0)
			g->col_seconds = (int)i;
		for (size_t k = 0; k < NPHASES; k++)
			if (strcmp(fields[i], phases[k].column) == 0)
				g->col[k] = (int)i;
	}
	if (g->col_seconds < 0 || g->col[3] < 0)
		return pdb_csv_bad(csv, err, 0, "not an ab -g file: the header needs seconds and ttime");
	g->ncols = nfields;
	return 0;
}

static int tsv_row(void *ctx, struct pdb_csv *csv, char **fields, size_t nfields,
		   struct pdb_err *err)
{
	struct gnuplot *g = ctx;
	int64_t secs;

	if (pdb_csv_row(csv) == 1)
		return tsv_header(g, csv, fields, nfields, err);
	if (nfields != g->ncols)
		return pdb_csv_bad(csv, err, nfields < g->ncols ? nfields - 1 : g->ncols,
				   "expected %zu fields as in the header, found %zu", g->ncols, nfields);
	if (pdb_parse_int64(fields[g->col_seconds], 0, INT64_MAX / 2, &secs) < 0)
		return pdb_csv_bad(csv, err, (size_t)g->col_seconds,
				   "expected epoch seconds in column 'seconds', found '%s'",
				   fields[g->col_seconds]);
	if (pdb_csv_row(csv) == 2)
		g->t0 = g->tmin = secs;
	else if (secs < g->tmin)
		g->tmin = secs;
	for (size_t k = 0; k < NPHASES; k++) {
		struct pdb_result *r;
		struct pdb_sample s;
		double v;
		if (g->col[k] < 0)
			continue;
		if (pdb_parse_double(fields[g->col[k]], &v) < 0 || !isfinite(v))
			return pdb_csv_bad(csv, err, (size_t)g->col[k],
					   "expected milliseconds in column '%s', found '%s'",
					   phases[k].column, fields[g->col[k]]);
		if (!g->res[k]) {
			r = pdb_run_add_result(g->run, BENCH, phases[k].metric, "ms");
			pdb_set_str(&r->raw_name, phases[k].column);
			g->res[k] = (size_t)(r - g->run->results) + 1;
		}
		r = &g->run->results[g->res[k] - 1];
		s = PDB_SAMPLE(pdb_result_canonical(r, v));
		s.t = (double)(secs - g->t0);
		pdb_result_add_sample(r, &s);
	}
	return 0;
}

static int detect_tsv(const struct pdb_source *src)
{
	return src->head && strncmp((const char *)src->head, "starttime\tseconds\tctime\t", 24) == 0
		? 95 : 0;
}

static int parse_tsv(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct gnuplot g = { .run = run };
	int ret = pdb_csv_read(src, '\t', tsv_row, &g, err);

	if (ret == 0 && run->nresults == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0, "no request rows");
	if (ret == 0) {
		double shift = (double)(g.t0 - g.tmin);
		char text[32];
		time_t t = (time_t)g.tmin;
		struct tm tm;
		for (size_t k = 0; k < NPHASES && shift > 0; k++)
			if (g.res[k]) {
				struct pdb_result *r = &run->results[g.res[k] - 1];
				for (size_t j = 0; j < r->nsamples; j++)
					r->samples[j].t += shift;
			}
		if (gmtime_r(&t, &tm) && strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm))
			pdb_run_set_attr(run, "start_time", text);
		pdb_set_str(&run->tool, "ab");
	}
	return ret;
}

const struct pdb_format pdb_format_ab = {
	.name = "ab",
	.summary = "ApacheBench text: requests/s, connection times and percentiles per URL, "
		   "dim concurrency; failed and non-2xx requests",
	.detect = detect_text,
	.parse = parse_text,
};

const struct pdb_format pdb_format_ab_csv = {
	.name = "ab-csv",
	.summary = "ApacheBench -e CSV: latency percentiles 0..100 as stats",
	.detect = detect_csv,
	.parse = parse_csv,
};

const struct pdb_format pdb_format_ab_tsv = {
	.name = "ab-tsv",
	.summary = "ApacheBench -g TSV: every request's connect, processing, waiting and total time "
		   "with its offset",
	.detect = detect_tsv,
	.parse = parse_tsv,
};
