/* Format: wrk and wrk2 text output (thread stats, latency distribution, HdrHistogram spectrum). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/load_util.h"
#include "parse/json_util.h"
#include "parse/text_util.h"
#include "util.h"

enum section {
	SEC_MAIN,      /* header, thread stats, totals */
	SEC_DIST,      /* "Latency Distribution": "50%  4.02ms" */
	SEC_SPECTRUM,  /* wrk2 "Detailed Percentile spectrum" */
};

struct wrk {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	long line;
	size_t indent;            /* blanks before the text of the line */
	enum section sec;
	char *url;
	struct pdb_attr dims[2];  /* threads, connections */
	int have_dims, have_rps;
	double last_count;        /* spectrum: TotalCount of the previous row */
};

struct field {
	char *text;
	size_t col;
};

/* Fail at column col (1-based) of the current line's text after its indent. */
static int bad(struct wrk *w, size_t col, const char *what)
{
	return pdb_err_at(w->err, PDB_EXIT_INPUT, w->src->name, (int)w->line,
			  (int)(col + w->indent), "%s", what);
}

/* Split text in place at blanks into at most max fields; the count. */
static size_t split(char *text, struct field *f, size_t max)
{
	size_t n = 0;
	char *p = text;

	while (*p && n < max) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		f[n].text = p;
		f[n].col = (size_t)(p - text) + 1;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
		n++;
	}
	return n;
}

/* "5.79ms", "1.27k", "98.23%": the number and what follows it. */
static int num_unit(const char *text, double *v, const char **unit)
{
	const char *p = text;
	char num[64];

	while (isdigit((unsigned char)*p) || *p == '.' || *p == '-')
		p++;
	if (p == text || (size_t)(p - text) >= sizeof num)
		return -1;
	memcpy(num, text, (size_t)(p - text));
	num[p - text] = '\0';
	*unit = p;
	return pdb_parse_double(num, v);
}

/* A wrk time ("us", "ms", "s", "m", "h") in seconds. */
static int time_value(const char *text, double *out)
{
	struct pdb_unit u;
	const char *unit;
	double v;

	if (num_unit(text, &v, &unit) < 0 || !*unit || pdb_unit_parse(unit, &u) < 0 ||
	    strcmp(u.canonical, "s") != 0)
		return -1;
	*out = v * u.scale;
	return 0;
}

/* A wrk count with an SI suffix ("649.83", "1.27k", "2.50M"). */
static int metric_value(const char *text, double *out)
{
	static const char suffix[] = "kMGTP";
	const char *unit, *s;
	double v, scale = 1;

	if (num_unit(text, &v, &unit) < 0)
		return -1;
	if (*unit) {
		if (unit[1] || !(s = strchr(suffix, *unit)))
			return -1;
		for (const char *q = suffix; q <= s; q++)
			scale *= 1000;
	}
	*out = v * scale;
	return 0;
}

/* A wrk size ("480.94KB", "19.81MB", "512.00B"; powers of 1024) in bytes. */
static int bytes_value(const char *text, double *out)
{
	static const char suffix[] = "KMGTP";
	const char *unit, *s;
	double v, scale = 1;

	if (num_unit(text, &v, &unit) < 0)
		return -1;
	if (strcmp(unit, "B") != 0) {
		if (!*unit || unit[1] != 'B' || unit[2] || !(s = strchr(suffix, *unit)))
			return -1;
		for (const char *q = suffix; q <= s; q++)
			scale *= 1024;
	}
	*out = v * scale;
	return 0;
}

static struct pdb_result *result(struct wrk *w, const char *metric, const char *unit)
{
	return pdb_run_result_with_dims(w->run, w->url, w->dims, 2, metric, unit);
}

/* "Running 2s test @ URL" */
static int running_line(struct wrk *w, char *text)
{
	struct field f[5];
	size_t n = split(text, f, 5);

	if (w->url)
		return bad(w, 1, "a second 'Running' line: one wrk run a file");
	if (n != 5 || strcmp(f[2].text, "test") != 0 || strcmp(f[3].text, "@") != 0)
		return bad(w, 1, "expected 'Running DURATION test @ URL'");
	w->url = pdb_xstrdup(f[4].text);
	pdb_run_set_attr(w->run, "duration", f[1].text);
	return 0;
}

/* "2 threads and 10 connections" */
static int threads_line(struct wrk *w, char *text)
{
	struct field f[5];
	size_t n = split(text, f, 5);
	int64_t t, c;

	if (n != 5 || strcmp(f[1].text, "threads") != 0 || strcmp(f[2].text, "and") != 0 ||
	    strcmp(f[4].text, "connections") != 0)
		return bad(w, 1, "expected 'N threads and M connections'");
	if (pdb_parse_int64(f[0].text, 1, INT32_MAX, &t) < 0)
		return bad(w, f[0].col, "expected a number of threads");
	if (pdb_parse_int64(f[3].text, 1, INT32_MAX, &c) < 0)
		return bad(w, f[3].col, "expected a number of connections");
	if (w->have_dims)
		return bad(w, 1, "a second 'N threads and M connections' line: one wrk run a file");
	w->dims[0].key = pdb_xstrdup("connections");
	w->dims[0].value = pdb_xstrdup(f[3].text);
	w->dims[1].key = pdb_xstrdup("threads");
	w->dims[1].value = pdb_xstrdup(f[0].text);
	w->have_dims = 1;
	return 0;
}

/* "Latency 5.79ms 12.32ms 207.28ms 98.23%" or "Req/Sec 649.83 364.22 1.27k 52.50%":
 * mean, stddev, max; the share within one stddev as an attribute. */
static int thread_stats_line(struct wrk *w, char *text, int latency)
{
	static const char *const stat[] = { "mean", "stddev", "max" };
	struct field f[6];
	size_t n = split(text, f, 6);
	struct pdb_result *r;
	const char *unit;
	double v[3], pct;
	char *key;

	if (n != 5)
		return bad(w, n < 5 ? 1 : f[5].col, "expected NAME AVG STDEV MAX +/-STDEV%");
	for (size_t i = 0; i < 3; i++)
		if ((latency ? time_value(f[i + 1].text, &v[i]) : metric_value(f[i + 1].text, &v[i])) < 0)
			return bad(w, f[i + 1].col, latency ? "expected a time such as 5.79ms"
							    : "expected a number such as 1.27k");
	if (num_unit(f[4].text, &pct, &unit) < 0 || strcmp(unit, "%") != 0)
		return bad(w, f[4].col, "expected a percentage");
	r = latency ? result(w, "latency", "ms") : result(w, "thread_throughput", "req/s");
	for (size_t i = 0; i < 3; i++)
		pdb_result_set_stat(r, stat[i], v[i]);
	key = pdb_xasprintf("%s.within_stdev", latency ? "latency" : "thread_throughput");
	pdb_run_set_attr(w->run, key, f[4].text);
	free(key);
	return 0;
}

/* "50%  4.02ms" (wrk) or "99.900%  12.30ms" (wrk2): stat p50, p99.9; 100% is max. */
static int dist_line(struct wrk *w, char *text)
{
	struct field f[3];
	size_t n = split(text, f, 3), len;
	const char *unit;
	double pct, v;
	char *name;

	if (n != 2 || num_unit(f[0].text, &pct, &unit) < 0 || strcmp(unit, "%") != 0 ||
	    pct < 0 || pct > 100)
		return bad(w, 1, "expected 'PERCENT%  LATENCY' in the latency distribution");
	if (time_value(f[1].text, &v) < 0)
		return bad(w, f[1].col, "expected a time such as 4.02ms");
	len = strlen(f[0].text) - 1;
	if (memchr(f[0].text, '.', len))
		while (f[0].text[len - 1] == '0')
			len--;
	if (f[0].text[len - 1] == '.')
		len--;
	name = pct == 100 ? pdb_xstrdup("max") : pdb_xasprintf("p%.*s", (int)len, f[0].text);
	pdb_result_set_stat(result(w, "latency", "ms"), name, v);
	free(name);
	return 0;
}

/* "6.671  0.500000  19783  2.00": a latency in ms weighted by the requests
 * since the previous row (rows that add none are left out). */
static int spectrum_line(struct wrk *w, char *text)
{
	struct field f[5];
	size_t n = split(text, f, 5);
	struct pdb_sample s;
	double v, p, count;

	if (n == 0 || strcmp(f[0].text, "Value") == 0)
		return 0;
	if (n != 4)
		return bad(w, n < 4 ? 1 : f[4].col,
			   "expected VALUE PERCENTILE TOTALCOUNT 1/(1-PERCENTILE)");
	if (pdb_parse_double(f[0].text, &v) < 0 || v < 0)
		return bad(w, f[0].col, "expected a latency in ms");
	if (pdb_parse_double(f[1].text, &p) < 0 || p < 0 || p > 1)
		return bad(w, f[1].col, "expected a percentile between 0 and 1");
	if (pdb_parse_double(f[2].text, &count) < 0 || count != (double)(long long)count ||
	    count < w->last_count)
		return bad(w, f[2].col, "expected a total count no less than the previous row's");
	if (count > w->last_count) {
		s = PDB_SAMPLE(v * 1e-3);
		s.weight = count - w->last_count;
		pdb_result_add_sample(result(w, "latency", "ms"), &s);
	}
	w->last_count = count;
	return 0;
}

/* "2592 requests in 2.01s, 480.94KB read" */
static int requests_line(struct wrk *w, char *text)
{
	struct field f[7];
	size_t n = split(text, f, 7), len;
	struct pdb_result *r;
	double count, secs, bytes;

	if (n != 6 || strcmp(f[2].text, "in") != 0 || strcmp(f[5].text, "read") != 0)
		return bad(w, 1, "expected 'N requests in TIME, SIZE read'");
	if (pdb_parse_double(f[0].text, &count) < 0 || count < 0)
		return bad(w, f[0].col, "expected a number of requests");
	len = strlen(f[3].text);
	if (len < 2 || f[3].text[len - 1] != ',')
		return bad(w, f[3].col, "expected a time followed by ','");
	f[3].text[len - 1] = '\0';
	if (time_value(f[3].text, &secs) < 0)
		return bad(w, f[3].col, "expected a time such as 2.01s");
	if (bytes_value(f[4].text, &bytes) < 0)
		return bad(w, f[4].col, "expected a size such as 480.94KB");
	r = result(w, "requests", "count");
	pdb_result_add_raw(r, count);
	r = result(w, "elapsed", "s");
	r->direction = PDB_DIR_NONE;
	pdb_result_add_raw(r, secs);
	r = result(w, "bytes_read", "B");
	r->direction = PDB_DIR_NONE;
	pdb_result_add_raw(r, bytes);
	return 0;
}

/* "Socket errors: connect 0, read 12299, write 2455, timeout 0" */
static int socket_errors_line(struct wrk *w, char *text)
{
	static const char *const kind[] = { "connect", "read", "write", "timeout" };
	struct field f[11];
	size_t n = split(text, f, 11);
	int64_t v;

	if (n != 10)
		return bad(w, 1, "expected 'Socket errors: connect N, read N, write N, timeout N'");
	for (size_t i = 0; i < 4; i++) {
		struct field *num = &f[3 + 2 * i];
		size_t len = strlen(num->text);
		char *metric;
		struct pdb_result *r;
		if (strcmp(f[2 + 2 * i].text, kind[i]) != 0)
			return bad(w, f[2 + 2 * i].col, "expected connect, read, write, timeout");
		if (i < 3 && len > 0 && num->text[len - 1] == ',')
			num->text[len - 1] = '\0';
		if (pdb_parse_int64(num->text, 0, INT64_MAX, &v) < 0)
			return bad(w, num->col, "expected a number of errors");
		metric = pdb_xasprintf("socket_errors_%s", kind[i]);
		r = result(w, metric, "count");
		r->direction = PDB_DIR_LOWER;
		pdb_result_add_raw(r, (double)v);
		free(metric);
	}
	return 0;
}

/* "Non-2xx or 3xx responses: 1237" */
static int status_errors_line(struct wrk *w, char *text)
{
	const char *p = text + strlen("Non-2xx or 3xx responses:");
	struct pdb_result *r;
	int64_t v;

	while (*p == ' ')
		p++;
	if (pdb_parse_int64(p, 0, INT64_MAX, &v) < 0)
		return bad(w, (size_t)(p - text) + 1, "expected a number of responses");
	r = result(w, "non_2xx_3xx", "count");
	r->direction = PDB_DIR_LOWER;
	pdb_result_add_raw(r, (double)v);
	return 0;
}

/* "Requests/sec:   1291.34" and "Transfer/sec:    239.60KB" */
static int per_sec_line(struct wrk *w, char *text, int transfer)
{
	struct field f[3];
	size_t n = split(text, f, 3);
	double v;

	if (n != 2)
		return bad(w, 1, transfer ? "expected 'Transfer/sec: SIZE'"
					  : "expected 'Requests/sec: NUMBER'");
	if (transfer) {
		if (bytes_value(f[1].text, &v) < 0)
			return bad(w, f[1].col, "expected a size such as 239.60KB");
		pdb_result_add_raw(result(w, "transfer", "B/s"), v);
		return 0;
	}
	if (pdb_parse_double(f[1].text, &v) < 0 || v < 0)
		return bad(w, f[1].col, "expected a number of requests per second");
	pdb_result_add_raw(result(w, "throughput", "req/s"), v);
	w->have_rps = 1;
	return 0;
}

static int starts(const char *text, const char *prefix)
{
	return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* A line of the statistics, which need the header lines before them. */
static int stats_line(struct wrk *w, char *text)
{
	if (!w->url || !w->have_dims)
		return bad(w, 1, "expected 'Running DURATION test @ URL' and "
				 "'N threads and M connections' first");
	if (starts(text, "Latency Distribution")) {
		w->sec = SEC_DIST;
		return 0;
	}
	if (starts(text, "Detailed Percentile spectrum:")) {
		w->sec = SEC_SPECTRUM;
		return 0;
	}
	if (starts(text, "Latency "))
		return thread_stats_line(w, text, 1);
	if (starts(text, "Req/Sec "))
		return thread_stats_line(w, text, 0);
	if (starts(text, "Socket errors:"))
		return socket_errors_line(w, text);
	if (starts(text, "Non-2xx or 3xx responses:"))
		return status_errors_line(w, text);
	if (starts(text, "Requests/sec:"))
		return per_sec_line(w, text, 0);
	if (starts(text, "Transfer/sec:"))
		return per_sec_line(w, text, 1);
	if (isdigit((unsigned char)text[0]) && strstr(text, " requests in "))
		return requests_line(w, text);
	return 0; /* "Thread Stats" header, calibration, output of a Lua script */
}

static int line_of(void *ctx, char *line, size_t len)
{
	struct wrk *w = ctx;
	char *text = line;

	w->indent = 0;
	if (memchr(line, '\0', len))
		return bad(w, strlen(line) + 1, "binary data (NUL byte)");
	while (len > 0 && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	while (isspace((unsigned char)*text))
		text++;
	w->indent = (size_t)(text - line);
	if (w->sec == SEC_DIST && text[0] && isdigit((unsigned char)text[0]) &&
	    strchr(text, '%'))
		return dist_line(w, text);
	if (w->sec == SEC_SPECTRUM) {
		if (text[0] == '#')
			return 0;
		if (text[0] == '-') {
			w->sec = SEC_MAIN;
			return 0;
		}
		return spectrum_line(w, text);
	}
	w->sec = SEC_MAIN;
	if (!text[0])
		return 0;
	if (starts(text, "Running "))
		return running_line(w, text);
	if (isdigit((unsigned char)text[0]) && strstr(text, " threads and "))
		return threads_line(w, text);
	return stats_line(w, text);
}

static int detect(const struct pdb_source *src)
{
	const char *head = (const char *)src->head;

	if (!head || !strstr(head, "Running ") || !strstr(head, " test @ "))
		return 0;
	return pdb_head_has(src, "Thread Stats") ? 90 : 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct wrk w = { .src = src, .run = run, .err = err };
	int ret = pdb_text_read(src, line_of, &w, &w.line, err);

	if (ret == 0 && !w.have_rps)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)w.line, 0,
				 "truncated: no 'Requests/sec:' line");
	if (ret == 0) {
		pdb_set_str(&run->tool, "wrk");
		pdb_load_mark_failures(run);
	}
	for (size_t i = 0; i < 2; i++) {
		free(w.dims[i].key);
		free(w.dims[i].value);
	}
	free(w.url);
	return ret;
}

const struct pdb_format pdb_format_wrk = {
	.name = "wrk",
	.summary = "wrk/wrk2 text: requests/s, latency stats and percentiles (wrk2 spectrum as "
		   "weighted samples) per URL, dims threads and connections",
	.detect = detect,
	.parse = parse,
};
