/* Format: siege's end-of-run summary (JSON or text) and its --log CSV (one row per siege run). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/format.h"
#include "formats/load_util.h"
#include "parse/json_util.h"
#include "parse/text_util.h"
#include "util.h"

#define BENCH "siege" /* siege prints no URL in its summary or log */
#define MIB 1048576.0 /* siege's "MB" are 1024 * 1024 bytes */

/* The summary's fields: JSON key, text label, what becomes of them.
 * stat: a statistic of the latency series rather than a sample. */
static const struct field {
	const char *key, *label, *metric, *stat, *unit;
	double scale;
	int direction;
} fields[] = {
	{ "transactions", "Transactions:", "transactions", NULL, "count", 1, PDB_DIR_NONE },
	{ "availability", "Availability:", "availability", NULL, "%", 1, PDB_DIR_HIGHER },
	{ "elapsed_time", "Elapsed time:", "elapsed", NULL, "s", 1, PDB_DIR_NONE },
	{ "data_transferred", "Data transferred:", "bytes_read", NULL, "B", MIB, PDB_DIR_NONE },
	{ "response_time", "Response time:", "latency", "mean", "s", 1, PDB_DIR_LOWER },
	{ "transaction_rate", "Transaction rate:", "throughput", NULL, "trans/s", 1, PDB_DIR_HIGHER },
	{ "throughput", "Throughput:", "transfer", NULL, "B/s", MIB, PDB_DIR_HIGHER },
	{ "concurrency", "Concurrency:", "concurrency", NULL, "count", 1, PDB_DIR_NONE },
	{ "successful_transactions", "Successful transactions:", "successful", NULL, "count", 1,
	  PDB_DIR_NONE },
	{ "failed_transactions", "Failed transactions:", "errors", NULL, "count", 1, PDB_DIR_LOWER },
	{ "longest_transaction", "Longest transaction:", "latency", "max", "s", 1, PDB_DIR_LOWER },
	{ "shortest_transaction", "Shortest transaction:", "latency", "min", "s", 1, PDB_DIR_LOWER },
};
#define NFIELDS (sizeof fields / sizeof fields[0])

/* The text summary's units after the number ("hits", "%", "secs", "MB", ...). */
static const char *const text_units[NFIELDS] = {
	"hits", "%", "secs", "MB", "secs", "trans/sec", "MB/sec", "", "", "", "", "",
};

static void add(struct pdb_run *run, const struct field *f, double v)
{
	struct pdb_result *r = pdb_run_add_result(run, BENCH, f->metric, f->unit);

	r->direction = f->direction;
	if (f->stat)
		pdb_result_set_stat(r, f->stat, v * f->scale);
	else
		pdb_result_add_sample(r, &PDB_SAMPLE(v * f->scale));
}

/* Where the JSON object starts: the first line that opens with '{' (a
 * capture with 2>&1 may hold siege's banner first). */
static const char *json_start(const struct pdb_source *src, int *line)
{
	const char *p = (const char *)src->head;

	*line = 1;
	while (p && *p) {
		if (*p == '{')
			return p;
		p = strchr(p, '\n');
		if (p)
			p++, (*line)++;
	}
	return NULL;
}

static int parse_json(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	json_error_t jerr;
	json_t *root;
	int line0, ret = -1, none;
	const char *start = json_start(src, &line0);
	size_t seen = 0;

	root = json_loadb(start, src->head_len - (size_t)(start - (const char *)src->head),
			  JSON_DISABLE_EOF_CHECK, &jerr);
	if (!root)
		return pdb_err_at(err, PDB_EXIT_INPUT, src->name, jerr.line + line0 - 1,
				  jerr.column, "%s", jerr.text);
	if (!json_is_object(root)) {
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, line0, 1, "expected a JSON object");
		goto out;
	}
	{
		double d;
		json_t *v = json_object_get(root, "transactions");
		none = v && pdb_json_num(v, &d) == 0 && d == 0;
	}
	for (size_t i = 0; i < NFIELDS; i++) {
		json_t *v = json_object_get(root, fields[i].key);
		double d;
		if (!v || (none && fields[i].stat))
			continue; /* no transaction: the 0.00 response times measure nothing */
		if (pdb_json_num(v, &d) < 0 || !isfinite(d)) {
			char path[64];
			snprintf(path, sizeof path, "$.%s", fields[i].key);
			pdb_json_bad(err, src, path, "expected a number");
			goto out;
		}
		add(run, &fields[i], d);
		seen++;
	}
	if (!seen) {
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, line0, 1,
			   "not a siege summary: no \"transactions\", \"transaction_rate\", ...");
		goto out;
	}
	ret = 0;
out:
	json_decref(root);
	return ret;
}

struct text {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	long line;
	size_t seen;
	int none;   /* "Transactions: 0 hits" */
};

static int bad(struct pdb_err *err, const struct pdb_source *src, long line, const char *text,
	       const char *at, const char *what)
{
	return pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)line, (int)(at - text) + 1, "%s", what);
}

/* "Transaction rate:\t     2000.00 trans/sec" */
static int text_line(void *ctx, char *line, size_t len)
{
	struct text *t = ctx;

	if (memchr(line, '\0', len))
		return bad(t->err, t->src, t->line, line, line + strlen(line), "binary data (NUL byte)");
	while (len > 0 && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	if (strncmp(line, "** SIEGE ", 9) == 0) {
		pdb_run_set_attr(t->run, "siege.version", line + 9);
		return 0;
	}
	for (size_t i = 0; i < NFIELDS; i++) {
		size_t n = strlen(fields[i].label);
		char num[64];
		const char *p = line + n;
		size_t k;
		double v;
		if (strncmp(line, fields[i].label, n) != 0)
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		k = strcspn(p, " ");
		if (k == 0 || k >= sizeof num)
			return bad(t->err, t->src, t->line, line, p, "expected a number");
		memcpy(num, p, k);
		num[k] = '\0';
		if (pdb_parse_double(num, &v) < 0 || !isfinite(v))
			return bad(t->err, t->src, t->line, line, p, "expected a number");
		p += k;
		while (*p == ' ')
			p++;
		if (strcmp(p, text_units[i]) != 0)
			return bad(t->err, t->src, t->line, line, p, *text_units[i] ?
				   "unexpected unit after the number" : "unexpected text after the number");
		if (i == 0)
			t->none = v == 0;
		else if (t->none && fields[i].stat)
			return 0; /* no transaction: the 0.00 response times measure nothing */
		add(t->run, &fields[i], v);
		t->seen++;
		return 0;
	}
	return 0; /* banner, "The server is now under siege...", per-request lines */
}

static int detect(const struct pdb_source *src)
{
	if (pdb_head_has(src, "\"transaction_rate\":") && pdb_head_has(src, "\"availability\":"))
		return 95;
	return pdb_head_has(src, "\nTransactions:") && pdb_head_has(src, "\nAvailability:") &&
	       pdb_head_has(src, "\nTransaction rate:") ? 90 : 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct text t = { .src = src, .run = run, .err = err };
	int line0, ret;

	if (json_start(src, &line0))
		ret = parse_json(src, run, err);
	else if ((ret = pdb_text_read(src, text_line, &t, &t.line, err)) == 0 && t.seen == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0,
				 "not a siege summary: no 'Transactions:' or 'Transaction rate:' line");
	if (ret == 0) {
		pdb_set_str(&run->tool, "siege");
		pdb_load_mark_failures(run);
	}
	return ret;
}

/* --log: "Date & Time, Trans, Elap Time, Data Trans, Resp Time, Trans Rate,
 * Throughput, Concurrent, OKAY, Failed"; "**** MARK ****" lines between. */
static const struct field log_fields[] = {
	{ "Trans", NULL, "transactions", NULL, "count", 1, PDB_DIR_NONE },
	{ "Elap Time", NULL, "elapsed", NULL, "s", 1, PDB_DIR_NONE },
	{ "Data Trans", NULL, "bytes_read", NULL, "B", MIB, PDB_DIR_NONE },
	{ "Resp Time", NULL, "latency", NULL, "s", 1, PDB_DIR_LOWER },
	{ "Trans Rate", NULL, "throughput", NULL, "trans/s", 1, PDB_DIR_HIGHER },
	{ "Throughput", NULL, "transfer", NULL, "B/s", MIB, PDB_DIR_HIGHER },
	{ "Concurrent", NULL, "concurrency", NULL, "count", 1, PDB_DIR_NONE },
	{ "OKAY", NULL, "successful", NULL, "count", 1, PDB_DIR_NONE },
	{ "Failed", NULL, "errors", NULL, "count", 1, PDB_DIR_LOWER },
};
#define NLOG (sizeof log_fields / sizeof log_fields[0])
#define LOGMAX 16

struct log {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	long line, rows, marks;
	int have_header;
	int col[NLOG];      /* column of each log field, -1 when absent */
	size_t ncols;
	time_t t0;
};

/* Split at commas, each field trimmed; its column kept. */
static size_t log_split(char *line, char **f, size_t *col, size_t max)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *c = strchr(p, ',');
		char *s = p, *e;
		if (n == max)
			return max + 1;
		if (c)
			*c = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		f[n] = s;
		col[n++] = (size_t)(s - line) + 1;
		if (!c)
			return n;
		p = c + 1;
	}
}

static int log_header(struct log *lg, char **f, size_t n, const size_t *col, const char *line)
{
	if (n < 2 || strcmp(f[0], "Date & Time") != 0)
		return bad(lg->err, lg->src, lg->line, line, line + col[0] - 1,
			   "not a siege log: expected the header 'Date & Time, Trans, ...'");
	for (size_t k = 0; k < NLOG; k++) {
		lg->col[k] = -1;
		for (size_t i = 1; i < n; i++)
			if (strcmp(f[i], log_fields[k].key) == 0)
				lg->col[k] = (int)i;
	}
	lg->ncols = n;
	lg->have_header = 1;
	return 0;
}

static int log_line(void *ctx, char *line, size_t len)
{
	struct log *lg = ctx;
	char *f[LOGMAX + 1];
	size_t col[LOGMAX + 1], n;
	struct tm tm;
	time_t when;
	const char *end;

	if (memchr(line, '\0', len))
		return bad(lg->err, lg->src, lg->line, line, line + strlen(line), "binary data (NUL byte)");
	while (len > 0 && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	if (strspn(line, " \t") == len)
		return 0;
	if (strncmp(line, "****", 4) == 0) { /* siege -m MARK */
		char key[32];
		char *text = line + strspn(line, "* ");
		char *e = text + strlen(text);
		while (e > text && (e[-1] == '*' || e[-1] == ' '))
			*--e = '\0';
		snprintf(key, sizeof key, "mark.%ld", ++lg->marks);
		pdb_run_set_attr(lg->run, key, text);
		return 0;
	}
	n = log_split(line, f, col, LOGMAX);
	if (n > LOGMAX)
		return bad(lg->err, lg->src, lg->line, line, line + col[LOGMAX - 1] - 1,
			   "too many fields for a siege log row");
	if (!lg->have_header)
		return log_header(lg, f, n, col, line);
	if (strcmp(f[0], "Date & Time") == 0)
		return 0; /* the header again: siege writes it when the log is new */
	if (n != lg->ncols)
		return bad(lg->err, lg->src, lg->line, line, line + col[n < lg->ncols ? n - 1 : lg->ncols] - 1,
			   "expected as many fields as the header");
	memset(&tm, 0, sizeof tm);
	end = strptime(f[0], "%Y-%m-%d %H:%M:%S", &tm);
	if (!end || *end)
		return bad(lg->err, lg->src, lg->line, line, line + col[0] - 1,
			   "expected a date such as 2026-12-01 14:23:56");
	when = timegm(&tm);
	if (lg->rows++ == 0) {
		lg->t0 = when;
		pdb_run_set_attr(lg->run, "siege.first_run", f[0]); /* local time */
	}
	for (size_t k = 0; k < NLOG; k++) {
		struct pdb_result *r;
		struct pdb_sample s;
		double v;
		int i = lg->col[k];
		if (i < 0)
			continue;
		if (pdb_parse_double(f[i], &v) < 0)
			return bad(lg->err, lg->src, lg->line, line, line + col[i] - 1, "expected a number");
		if (isnan(v))
			continue; /* "-nan": siege had no response to measure */
		r = pdb_run_add_result(lg->run, BENCH, log_fields[k].metric, log_fields[k].unit);
		r->direction = log_fields[k].direction;
		if (strcmp(log_fields[k].metric, log_fields[k].key) != 0)
			pdb_set_str(&r->raw_name, log_fields[k].key);
		s = PDB_SAMPLE(v * log_fields[k].scale);
		s.t = difftime(when, lg->t0);
		pdb_result_add_sample(r, &s);
	}
	return 0;
}

static int detect_log(const struct pdb_source *src)
{
	const char *head = (const char *)src->head;

	if (!head)
		return 0;
	head += strspn(head, " ");
	return strncmp(head, "Date & Time,", 12) == 0 && pdb_head_has(src, "Trans Rate") ? 95 : 0;
}

static int parse_log(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct log lg = { .src = src, .run = run, .err = err };
	int ret = pdb_text_read(src, log_line, &lg, &lg.line, err);

	if (ret == 0 && lg.rows == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)lg.line, 0,
				 "no siege runs in the log (rows after the header)");
	if (ret == 0)
		pdb_set_str(&run->tool, "siege");
	return ret;
}

const struct pdb_format pdb_format_siege = {
	.name = "siege",
	.summary = "siege end-of-run summary (JSON or text): transaction rate, response times, "
		   "availability, failed transactions",
	.detect = detect,
	.parse = parse,
};

const struct pdb_format pdb_format_siege_log = {
	.name = "siege-log",
	.summary = "siege --log CSV: one sample per siege run of every column, with its time offset",
	.detect = detect_log,
	.parse = parse_log,
};
