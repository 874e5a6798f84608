/* Format: hey's text summary (latency stats, percentiles, histogram, status codes, errors) and -o csv rows. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/load_util.h"
#include "parse/csv_util.h"
#include "parse/json_util.h"
#include "parse/text_util.h"
#include "util.h"

#define BENCH "hey"

enum section {
	SEC_NONE,
	SEC_SUMMARY,
	SEC_HISTOGRAM,
	SEC_DISTRIBUTION,
	SEC_DETAILS,
	SEC_STATUS,
	SEC_ERRORS,
};

/* hey's phases ("Details" lines and -o csv columns) as metrics. */
static const struct {
	const char *text, *column, *metric;
} phases[] = {
	{ "DNS+dialup:", "DNS+dialup", "dns_dialup" },
	{ "DNS-lookup:", "DNS", "dns_lookup" },
	{ "req write:", "Request-write", "request_write" },
	{ "resp wait:", "Response-delay", "response_wait" },
	{ "resp read:", "Response-read", "response_read" },
};
#define NPHASES (sizeof phases / sizeof phases[0])

/* A time statistic held back until the end: with no response at all hey
 * prints 0 for fastest and slowest, which is no measurement. */
struct pending {
	const char *metric, *stat;
	double value;
};

struct hey {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	long line;
	enum section sec;
	int seen_summary, seen_status;
	struct pending *pend;
	size_t npend, cappend;
	double responses, non_2xx, errors;
	long nerrors;
};

static int bad(struct hey *h, const char *line, const char *at, const char *what)
{
	return pdb_err_at(h->err, PDB_EXIT_INPUT, h->src->name, (int)h->line,
			  (int)(at - line) + 1, "%s", what);
}

static void hold(struct hey *h, const char *metric, const char *stat, double v)
{
	pdb_grow((void **)&h->pend, &h->cappend, h->npend + 1, sizeof *h->pend);
	h->pend[h->npend++] = (struct pending){ metric, stat, v };
}

static struct pdb_result *result(struct pdb_run *run, const char *metric, const char *unit,
				 int direction)
{
	struct pdb_result *r = pdb_run_add_result(run, BENCH, metric, unit);

	r->direction = direction;
	return r;
}

/* "0.0229 secs" (also " NaN secs"): the number, NaN when hey had none.
 * *end is set after the unit. */
static int secs(struct hey *h, const char *line, const char *p, double *v, const char **end)
{
	char num[64];
	size_t n;

	while (*p == ' ' || *p == '\t')
		p++;
	n = strcspn(p, " \t,");
	if (n == 0 || n >= sizeof num)
		return bad(h, line, p, "expected a time in seconds");
	memcpy(num, p, n);
	num[n] = '\0';
	if (pdb_parse_double(num, v) < 0 || *v < 0)
		return bad(h, line, p, "expected a time in seconds");
	p += n;
	while (*p == ' ')
		p++;
	if (strncmp(p, "secs", 4) != 0)
		return bad(h, line, p, "expected 'secs'");
	*end = p + 4;
	return 0;
}

/* "  Total:\t1.0439 secs" and friends. */
static int summary_line(struct hey *h, const char *line, const char *text)
{
	static const struct { const char *label, *metric, *stat; } times[] = {
		{ "Total:", "elapsed", NULL },
		{ "Slowest:", "latency", "max" },
		{ "Fastest:", "latency", "min" },
		{ "Average:", "latency", "mean" },
	};
	const char *p, *end;
	double v;

	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
		size_t n = strlen(times[i].label);
		if (strncmp(text, times[i].label, n) != 0)
			continue;
		if (secs(h, line, text + n, &v, &end) < 0)
			return -1;
		if (isnan(v))
			return 0;
		if (!times[i].stat) {
			struct pdb_result *r = result(h->run, "elapsed", "s", PDB_DIR_NONE);
			pdb_result_add_raw(r, v);
		} else
			hold(h, times[i].metric, times[i].stat, v);
		return 0;
	}
	if (strncmp(text, "Requests/sec:", 13) == 0 || strncmp(text, "Total data:", 11) == 0 ||
	    strncmp(text, "Size/request:", 13) == 0) {
		int rps = text[0] == 'R';
		char num[64];
		size_t n;
		p = strchr(text, ':') + 1;
		while (*p == ' ' || *p == '\t')
			p++;
		n = strcspn(p, " \t");
		if (n == 0 || n >= sizeof num)
			return bad(h, line, p, "expected a number");
		memcpy(num, p, n);
		num[n] = '\0';
		if (pdb_parse_double(num, &v) < 0 || v < 0)
			return bad(h, line, p, "expected a number");
		if (!rps && strcmp(p + n, " bytes") != 0)
			return bad(h, line, p + n, "expected 'bytes'");
		if (isnan(v))
			return 0;
		if (rps)
			pdb_result_add_raw(result(h->run, "throughput", "req/s", PDB_DIR_HIGHER), v);
		else if (text[0] == 'T')
			pdb_result_add_raw(result(h->run, "bytes_read", "B", PDB_DIR_NONE), v);
		else
			pdb_run_set_attr(h->run, "size_per_request", num);
		return 0;
	}
	return bad(h, line, text, "unexpected line in the summary");
}

/* "  0.101 [195]\t|■■■■": a bucket's upper mark weighted by its requests. */
static int histogram_line(struct hey *h, const char *line, const char *text)
{
	char num[64];
	const char *p = text;
	size_t n = strcspn(p, " \t");
	struct pdb_sample s;
	double v;
	int64_t count;
	char *end;

	if (n == 0 || n >= sizeof num)
		return bad(h, line, p, "expected 'SECONDS [COUNT]' in the histogram");
	memcpy(num, p, n);
	num[n] = '\0';
	if (pdb_parse_double(num, &v) < 0 || !isfinite(v) || v < 0)
		return bad(h, line, p, "expected a time in seconds");
	p += n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '[' || !(end = strchr(p, ']')) || (size_t)(end - p - 1) >= sizeof num)
		return bad(h, line, p, "expected '[COUNT]'");
	memcpy(num, p + 1, (size_t)(end - p - 1));
	num[end - p - 1] = '\0';
	if (pdb_parse_int64(num, 0, INT64_MAX, &count) < 0)
		return bad(h, line, p + 1, "expected a number of requests");
	if (count > 0) { /* bucket marks are upper bounds: reported, never gated */
		struct pdb_result *r = result(h->run, "latency_histogram", "s", PDB_DIR_NONE);
		s = PDB_SAMPLE(v);
		s.weight = (double)count;
		pdb_result_add_sample(r, &s);
	}
	return 0;
}

/* "  99% in 1.0054 secs" */
static int distribution_line(struct hey *h, const char *line, const char *text)
{
	char num[32], stat[40];
	const char *pct = strchr(text, '%'), *end;
	double p, v;

	if (!pct || (size_t)(pct - text) >= sizeof num || strncmp(pct, "% in ", 5) != 0)
		return bad(h, line, text, "expected 'PERCENT% in SECONDS secs'");
	memcpy(num, text, (size_t)(pct - text));
	num[pct - text] = '\0';
	if (pdb_parse_double(num, &p) < 0 || !(p >= 0 && p <= 100))
		return bad(h, line, text, "expected a percentage");
	if (secs(h, line, pct + 5, &v, &end) < 0)
		return -1;
	if (isnan(v))
		return 0;
	snprintf(stat, sizeof stat, "p%s", num);
	pdb_result_set_stat(result(h->run, "latency", "s", PDB_DIR_LOWER), stat, v);
	return 0;
}

/* "  DNS+dialup:\t0.0202 secs, 0.0005 secs, 1.0055 secs": average, fastest, slowest. */
static int details_line(struct hey *h, const char *line, const char *text)
{
	static const char *const stat[] = { "mean", "min", "max" };

	for (size_t i = 0; i < NPHASES; i++) {
		size_t n = strlen(phases[i].text);
		const char *p = text + n, *end;
		double v[3];
		if (strncmp(text, phases[i].text, n) != 0)
			continue;
		for (int k = 0; k < 3; k++) {
			if (secs(h, line, p, &v[k], &end) < 0)
				return -1;
			p = end;
			if (k < 2 && *p++ != ',')
				return bad(h, line, p - 1, "expected ', '");
		}
		for (int k = 0; k < 3; k++)
			if (!isnan(v[k]))
				hold(h, phases[i].metric, stat[k], v[k]);
		return 0;
	}
	return bad(h, line, text, "expected a phase (DNS+dialup, DNS-lookup, req write, "
			  "resp wait, resp read)");
}

/* "  [200]\t200 responses" and "  [20]\tGet ...: connection refused" */
static int bracket_line(struct hey *h, const char *line, const char *text, int errors)
{
	char num[32], cnt[32], key[32];
	const char *close = strchr(text, ']'), *p;
	int64_t code, count;
	size_t n;

	if (text[0] != '[' || !close || (size_t)(close - text - 1) >= sizeof num)
		return bad(h, line, text, errors ? "expected '[COUNT] MESSAGE'"
						 : "expected '[CODE] N responses'");
	memcpy(num, text + 1, (size_t)(close - text - 1));
	num[close - text - 1] = '\0';
	p = close + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (errors) {
		if (pdb_parse_int64(num, 0, INT64_MAX, &count) < 0)
			return bad(h, line, text + 1, "expected a number of errors");
		h->errors += (double)count;
		snprintf(key, sizeof key, "error.%ld", ++h->nerrors);
		pdb_run_set_attr(h->run, key, text);
		return 0;
	}
	if (pdb_parse_int64(num, 100, 999, &code) < 0)
		return bad(h, line, text + 1, "expected an HTTP status code");
	n = strcspn(p, " ");
	if (n == 0 || n >= sizeof cnt || strcmp(p + n, " responses") != 0)
		return bad(h, line, p, "expected 'N responses'");
	memcpy(cnt, p, n);
	cnt[n] = '\0';
	if (pdb_parse_int64(cnt, 0, INT64_MAX, &count) < 0)
		return bad(h, line, p, "expected a number of responses");
	h->responses += (double)count;
	if (code < 200 || code > 299)
		h->non_2xx += (double)count;
	snprintf(key, sizeof key, "status.%03d", (int)code);
	pdb_run_set_attr(h->run, key, cnt);
	return 0;
}

static int text_line(void *ctx, char *line, size_t len)
{
	struct hey *h = ctx;
	const char *text;

	if (memchr(line, '\0', len))
		return bad(h, line, line + strlen(line), "binary data (NUL byte)");
	while (len > 0 && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	text = line + strspn(line, " \t");
	if (!*text)
		return 0;
	if (text == line) { /* a section title */
		static const struct { const char *title; enum section sec; } titles[] = {
			{ "Summary:", SEC_SUMMARY },
			{ "Response time histogram:", SEC_HISTOGRAM },
			{ "Latency distribution:", SEC_DISTRIBUTION },
			{ "Details (average, fastest, slowest):", SEC_DETAILS },
			{ "Status code distribution:", SEC_STATUS },
			{ "Error distribution:", SEC_ERRORS },
		};
		for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
			if (strcmp(text, titles[i].title) == 0) {
				h->sec = titles[i].sec;
				h->seen_summary |= h->sec == SEC_SUMMARY;
				h->seen_status |= h->sec == SEC_STATUS;
				return 0;
			}
		if (!h->seen_summary)
			return 0; /* what a wrapper printed before hey */
		return bad(h, line, text, "unexpected line: expected a hey section title");
	}
	switch (h->sec) {
	case SEC_NONE:
		return 0;
	case SEC_SUMMARY:
		return summary_line(h, line, text);
	case SEC_HISTOGRAM:
		return histogram_line(h, line, text);
	case SEC_DISTRIBUTION:
		return distribution_line(h, line, text);
	case SEC_DETAILS:
		return details_line(h, line, text);
	case SEC_STATUS:
		return bracket_line(h, line, text, 0);
	case SEC_ERRORS:
		return bracket_line(h, line, text, 1);
	}
	return 0;
}

static int detect_text(const struct pdb_source *src)
{
	return pdb_head_has(src, "Summary:\n  Total:") && pdb_head_has(src, "Requests/sec:") &&
	       pdb_head_has(src, "Response time histogram:") ? 90 : 0;
}

static void counts(struct pdb_run *run, double requests, double non_2xx)
{
	pdb_result_add_raw(result(run, "requests", "count", PDB_DIR_NONE), requests);
	pdb_result_add_raw(result(run, "non_2xx", "count", PDB_DIR_LOWER), non_2xx);
}

static int parse_text(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct hey h = { .src = src, .run = run, .err = err };
	int ret = pdb_text_read(src, text_line, &h, &h.line, err);

	if (ret == 0 && (!h.seen_summary || !h.seen_status))
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)h.line, 0,
				 "truncated: expected hey's 'Summary:' and 'Status code distribution:'");
	if (ret == 0) {
		for (size_t i = 0; h.responses > 0 && i < h.npend; i++)
			pdb_result_set_stat(result(run, h.pend[i].metric, "s", PDB_DIR_LOWER),
					    h.pend[i].stat, h.pend[i].value);
		counts(run, h.responses, h.non_2xx);
		pdb_result_add_raw(result(run, "errors", "count", PDB_DIR_LOWER), h.errors);
		pdb_set_str(&run->tool, "hey");
		pdb_load_mark_failures(run);
	}
	free(h.pend);
	return ret;
}

/* -o csv: response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset */
struct hey_csv {
	struct pdb_run *run;
	int col_time, col_status, col_offset;
	int col_phase[NPHASES];
	size_t ncols;
	double requests, non_2xx;
};

static int csv_header(struct hey_csv *c, struct pdb_csv *csv, char **fields, size_t nfields,
		      struct pdb_err *err)
{
	if (pdb_csv_unique_names(csv, fields, nfields, err) < 0)
		return -1;
	c->col_time = c->col_status = c->col_offset = -1;
	for (size_t k = 0; k < NPHASES; k++)
		c->col_phase[k] = -1;
	for (size_t i = 0; i < nfields; i++) {
		if (strcmp(fields[i], "response-time") == 0)
			c->col_time = (int)i;
		else if (strcmp(fields[i], "status-code") == 0)
			c->col_status = (int)i;
		else if (strcmp(fields[i], "offset") == 0)
			c->col_offset = (int)i;
		for (size_t k = 0; k < NPHASES; k++)
			if (strcmp(fields[i], phases[k].column) == 0)
				c->col_phase[k] = (int)i;
	}
	if (c->col_time < 0 || c->col_status < 0 || c->col_offset < 0)
		return pdb_csv_bad(csv, err, 0, "not a hey -o csv file: the header needs "
				   "response-time, status-code and offset");
	c->ncols = nfields;
	return 0;
}

static int csv_secs(struct pdb_csv *csv, struct pdb_err *err, char **fields, int i,
		    const char *name, double *out)
{
	if (pdb_parse_double(fields[i], out) < 0 || !isfinite(*out) || *out < 0)
		return pdb_csv_bad(csv, err, (size_t)i, "expected seconds in column '%s', found '%s'",
				   name, fields[i]);
	return 0;
}

static void csv_sample(struct pdb_run *run, const char *metric, double v, double t)
{
	struct pdb_sample s = PDB_SAMPLE(v);

	s.t = t;
	pdb_result_add_sample(result(run, metric, "s", PDB_DIR_LOWER), &s);
}

static int csv_row(void *ctx, struct pdb_csv *csv, char **fields, size_t nfields,
		   struct pdb_err *err)
{
	struct hey_csv *c = ctx;
	double t, v;
	int64_t code;

	if (pdb_csv_row(csv) == 1)
		return csv_header(c, csv, fields, nfields, err);
	if (nfields != c->ncols)
		return pdb_csv_bad(csv, err, nfields < c->ncols ? nfields - 1 : c->ncols,
				   "expected %zu fields as in the header, found %zu", c->ncols, nfields);
	if (csv_secs(csv, err, fields, c->col_offset, "offset", &t) < 0)
		return -1;
	if (pdb_parse_int64(fields[c->col_status], 100, 999, &code) < 0)
		return pdb_csv_bad(csv, err, (size_t)c->col_status,
				   "expected an HTTP status code in column 'status-code', found '%s'",
				   fields[c->col_status]);
	if (csv_secs(csv, err, fields, c->col_time, "response-time", &v) < 0)
		return -1;
	csv_sample(c->run, "latency", v, t);
	for (size_t k = 0; k < NPHASES; k++) {
		if (c->col_phase[k] < 0)
			continue;
		if (csv_secs(csv, err, fields, c->col_phase[k], phases[k].column, &v) < 0)
			return -1;
		csv_sample(c->run, phases[k].metric, v, t);
	}
	c->requests++;
	if (code < 200 || code > 299)
		c->non_2xx++;
	return 0;
}

static int detect_csv(const struct pdb_source *src)
{
	return src->head && strncmp((const char *)src->head, "response-time,DNS+dialup,", 25) == 0
		? 95 : 0;
}

static int parse_csv(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct hey_csv c = { .run = run };
	int ret = pdb_csv_read(src, ',', csv_row, &c, err);

	if (ret == 0 && c.ncols == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, 1, 1, "empty file");
	if (ret == 0) {
		counts(run, c.requests, c.non_2xx);
		pdb_set_str(&run->tool, "hey");
	}
	return ret;
}

const struct pdb_format pdb_format_hey = {
	.name = "hey",
	.summary = "hey text summary: latency stats and percentiles, the histogram as weighted "
		   "samples of latency_histogram, phases, throughput, non-2xx and errors",
	.detect = detect_text,
	.parse = parse_text,
};

const struct pdb_format pdb_format_hey_csv = {
	.name = "hey-csv",
	.summary = "hey -o csv: every request's latency and phases with its offset; requests, non-2xx",
	.detect = detect_csv,
	.parse = parse_csv,
};
