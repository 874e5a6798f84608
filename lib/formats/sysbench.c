/* Format: sysbench 1.x text output of every built-in test (cpu, memory, fileio,
 * threads, mutex) and of the Lua OLTP scripts: the summary, intermediate reports
 * as text or report_json, the --histogram table. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "formats/format.h"
#include "parse/json_util.h"
#include "parse/text_util.h"
#include "util.h"

#define DIR_UNIT 99   /* the direction the unit implies */
#define MAX_METRICS 32
#define MAX_DIMS 12
#define LAT_IV "@lat" /* intermediate latency percentile, named at the end */

/* A metric read from the summary (one value) and/or the intermediate reports
 * (samples with t). */
struct metric {
	char name[40];
	char unit[16];            /* raw unit */
	int dir;                  /* forced direction, or DIR_UNIT */
	struct pdb_sample *iv;
	size_t niv, capiv;
	double summary;           /* NaN when the summary has none */
};

struct sb {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	long line;
	char section[64];         /* the heading in force ("Latency (ms)"), or "" */
	int queries_performed;    /* inside "queries performed:" of SQL statistics */
	char bench[32];           /* the test when the output names it, else "" */
	char *threads;
	struct pdb_attr dims[MAX_DIMS];
	size_t ndims;
	struct metric m[MAX_METRICS];
	size_t nm;
	char lat_pct[16];         /* of the intermediate reports: "95" */
	struct pdb_buf json;      /* a report_json block being read */
	long json_line;           /* its first line, 0 outside one */
	int hist;                 /* 1: histogram header next, 2: in its rows */
	double checkpoint_t;      /* inside the --report-checkpoints report at t, else NaN */
	int checkpoints;          /* how many were read */
	struct pdb_sample *hv;    /* histogram rows: value (ms) with weight (count) */
	size_t nhv, caphv;
	double total_time, events, lat_min, lat_avg, lat_max, lat_pval, lat_sum;
	double ev_avg, ev_sd, time_avg, time_sd;
	char pct[16];             /* of the summary: "95" from "95th percentile:" */
	unsigned seen;            /* the summary's sections read (SEEN_*) */
};

/* The sections of the summary, in the order sysbench writes them. */
enum { SEEN_GENERAL = 1, SEEN_LATENCY = 2, SEEN_FAIRNESS = 4 };

static int bad(struct sb *s, size_t col, const char *what)
{
	return pdb_err_at(s->err, PDB_EXIT_INPUT, s->src->name, (int)s->line, (int)col,
			  "%s", what);
}

static int starts(const char *text, const char *prefix)
{
	return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* text past prefix when text starts with it, else NULL. */
static const char *after(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(text, prefix, n) == 0 ? text + n : NULL;
}

static void set_bench(struct sb *s, const char *name)
{
	snprintf(s->bench, sizeof s->bench, "%s", name);
}

static void set_dim(struct sb *s, const char *key, const char *value, size_t vlen)
{
	size_t i;

	for (i = 0; i < s->ndims && strcmp(s->dims[i].key, key) != 0; i++)
		;
	if (i == s->ndims) {
		if (s->ndims == MAX_DIMS)
			return;
		s->dims[s->ndims++].key = pdb_xstrdup(key);
	} else {
		free(s->dims[i].value);
	}
	s->dims[i].value = pdb_xasprintf("%.*s", (int)vlen, value);
}

static void drop_dim(struct sb *s, const char *key)
{
	for (size_t i = 0; i < s->ndims; i++)
		if (strcmp(s->dims[i].key, key) == 0) {
			free(s->dims[i].key);
			free(s->dims[i].value);
			s->dims[i] = s->dims[--s->ndims];
			return;
		}
}

static struct metric *metric(struct sb *s, const char *name, const char *unit, int dir)
{
	struct metric *m;

	for (size_t i = 0; i < s->nm; i++)
		if (strcmp(s->m[i].name, name) == 0)
			return &s->m[i];
	if (s->nm == MAX_METRICS)
		return NULL; /* cannot happen: the names are the adapter's own */
	m = &s->m[s->nm++];
	memset(m, 0, sizeof *m);
	snprintf(m->name, sizeof m->name, "%s", name);
	snprintf(m->unit, sizeof m->unit, "%s", unit);
	m->dir = dir;
	m->summary = NAN;
	return m;
}

/* A value of an intermediate report at t seconds. */
static void iv_add(struct sb *s, const char *name, const char *unit, int dir, double t,
		   double v)
{
	struct metric *m = metric(s, name, unit, dir);
	struct pdb_sample smp = PDB_SAMPLE(v);

	if (!m)
		return;
	smp.t = t;
	pdb_grow((void **)&m->iv, &m->capiv, m->niv + 1, sizeof *m->iv);
	m->iv[m->niv++] = smp;
}

/* A value of the summary; inside a checkpoint report, a sample at its t. */
static void sum_set(struct sb *s, const char *name, const char *unit, int dir, double v)
{
	struct metric *m;

	if (!isnan(s->checkpoint_t)) {
		iv_add(s, name, unit, dir, s->checkpoint_t, v);
		return;
	}
	if ((m = metric(s, name, unit, dir)))
		m->summary = v;
}

/* The number at text[*col - 1...] up to a blank or stop, then *col past it. */
static int number_at(struct sb *s, const char *line, size_t *col, char stop, double *out,
		     const char *what)
{
	const char *p = line + *col - 1, *q = p;
	char num[64];

	while (*q && !isspace((unsigned char)*q) && *q != stop)
		q++;
	if (q == p || (size_t)(q - p) >= sizeof num)
		return bad(s, *col, what);
	memcpy(num, p, (size_t)(q - p));
	num[q - p] = '\0';
	if (pdb_parse_double(num, out) < 0 || *out < 0)
		return bad(s, *col, what);
	*col += (size_t)(q - p);
	return 0;
}

static void skip_blanks(const char *line, size_t *col)
{
	while (line[*col - 1] == ' ')
		(*col)++;
}

/* The number after key in line: 0, 1 when key is absent, -1 on a bad number. */
static int field(struct sb *s, const char *line, const char *key, char stop, double *v,
		 const char *what)
{
	const char *p = strstr(line, key);
	size_t col;

	if (!p)
		return 1;
	col = (size_t)(p - line) + strlen(key) + 1;
	return number_at(s, line, &col, stop, v, what);
}

/* Like field, but the key must be there. */
static int need(struct sb *s, const char *line, const char *key, char stop, double *v,
		const char *what)
{
	int ret = field(s, line, key, stop, v, what);

	return ret > 0 ? bad(s, 1, what) : ret;
}

/* "lat (ms,95%): 0.37" (or "latency (ms,99%): 0.432"): the latency percentile. */
static int lat_field(struct sb *s, const char *line, const char *key, double t)
{
	const char *p = strstr(line, key), *pct;
	size_t klen = strlen(key), col;
	double v;
	char what[64];

	snprintf(what, sizeof what, "expected '%sP%%): N' in the intermediate report", key);
	if (!p || !(pct = strstr(p, "%): ")) || (size_t)(pct - p - klen) >= sizeof s->lat_pct)
		return bad(s, 1, what);
	snprintf(s->lat_pct, sizeof s->lat_pct, "%.*s", (int)(pct - p - klen), p + klen);
	col = (size_t)(pct - line) + 5;
	if (number_at(s, line, &col, 0, &v, "expected a latency in ms") < 0)
		return -1;
	if (strcmp(s->lat_pct, "0") != 0) /* --percentile=0: disabled, printed as 0.00 */
		iv_add(s, LAT_IV, "ms", DIR_UNIT, t, v);
	return 0;
}

/* An intermediate report "[ 1s ] ...": the generic one ("thds: 2 eps: 5676.75
 * lat (ms,95%): 0.37"), the SQL one ("thds: 2 tps: ... qps: ... (r/w/o: R/W/O)
 * lat (ms,95%): ... err/s: ... reconn/s: ..."), fileio's ("reads: 0.00 MiB/s
 * writes: 190.41 MiB/s fsyncs: 15591.59/s latency (ms,99%): 0.432"), memory's
 * ("8193.29 MiB/sec"), --rate's "queue length: N, concurrency: N". */
static int interval_line(struct sb *s, const char *line)
{
	const char *rest;
	size_t col = 3;
	double t, v, r, w, o;
	int ret;

	skip_blanks(line, &col);
	if (number_at(s, line, &col, 's', &t, "expected the seconds of the report") < 0)
		return -1;
	if (!starts(line + col - 1, "s ] "))
		return bad(s, col, "expected 's ]' after the seconds of the report");
	col += 4;
	rest = line + col - 1;
	if (starts(rest, "thds: ") && strstr(rest, " tps: ")) {
		if (need(s, line, " tps: ", 0, &v, "expected the transactions per second") < 0)
			return -1;
		iv_add(s, "throughput", "events/s", DIR_UNIT, t, v); /* an event is a transaction */
		if (need(s, line, " qps: ", 0, &v, "expected the queries per second") < 0)
			return -1;
		iv_add(s, "qps", "qps", DIR_UNIT, t, v);
		if (!(rest = strstr(line, "(r/w/o: ")))
			return bad(s, 1, "expected 'r/w/o: R/W/O'");
		col = (size_t)(rest - line) + 9;
		if (number_at(s, line, &col, '/', &r, "expected 'r/w/o: R/W/O'") < 0)
			return -1;
		if (line[col - 1] != '/')
			return bad(s, col, "expected 'r/w/o: R/W/O'");
		col++;
		if (number_at(s, line, &col, '/', &w, "expected 'r/w/o: R/W/O'") < 0)
			return -1;
		if (line[col - 1] != '/')
			return bad(s, col, "expected 'r/w/o: R/W/O'");
		col++;
		if (number_at(s, line, &col, ')', &o, "expected 'r/w/o: R/W/O'") < 0)
			return -1;
		iv_add(s, "qps_reads", "qps", DIR_UNIT, t, r);
		iv_add(s, "qps_writes", "qps", DIR_UNIT, t, w);
		iv_add(s, "qps_other", "qps", DIR_UNIT, t, o);
		if (lat_field(s, line, " lat (ms,", t) < 0)
			return -1;
		if ((ret = field(s, line, " err/s: ", 0, &v, "expected the errors per second")) < 0)
			return -1;
		if (ret == 0)
			iv_add(s, "errors", "errors/s", PDB_DIR_LOWER, t, v);
		if ((ret = field(s, line, " reconn/s: ", 0, &v,
				 "expected the reconnects per second")) < 0)
			return -1;
		if (ret == 0)
			iv_add(s, "reconnects", "reconnects/s", PDB_DIR_LOWER, t, v);
		return 0;
	}
	if (starts(rest, "thds: ")) {
		if (need(s, line, " eps: ", 0, &v, "expected the events per second") < 0)
			return -1;
		iv_add(s, "throughput", "events/s", DIR_UNIT, t, v);
		return lat_field(s, line, " lat (ms,", t);
	}
	if (starts(rest, "reads: ")) {
		if (need(s, line, "reads: ", 0, &v, "expected the reads in MiB/s") < 0)
			return -1;
		iv_add(s, "read_transfer", "MiB/s", DIR_UNIT, t, v);
		if (need(s, line, " writes: ", 0, &v, "expected the writes in MiB/s") < 0)
			return -1;
		iv_add(s, "write_transfer", "MiB/s", DIR_UNIT, t, v);
		if (need(s, line, " fsyncs: ", '/', &v, "expected the fsyncs per second") < 0)
			return -1;
		iv_add(s, "fsyncs", "fsyncs/s", DIR_UNIT, t, v);
		return lat_field(s, line, " latency (ms,", t);
	}
	if (starts(rest, "queue length: ")) {
		if (need(s, line, "queue length: ", ',', &v, "expected the queue length") < 0)
			return -1;
		iv_add(s, "queue_length", "count", DIR_UNIT, t, v);
		if (need(s, line, " concurrency: ", 0, &v, "expected the concurrency") < 0)
			return -1;
		iv_add(s, "concurrency", "count", DIR_UNIT, t, v);
		return 0;
	}
	if (strcmp(rest, "Checkpoint report:") == 0) {
		/* --report-checkpoints: a cumulative report of the time since the
		 * last checkpoint follows (sysbench then resets its counters) */
		s->checkpoint_t = t;
		s->checkpoints++;
		return 0;
	}
	if (isdigit((unsigned char)*rest)) {
		if (number_at(s, line, &col, 0, &v, "expected the MiB/sec of the report") < 0)
			return -1;
		if (strcmp(line + col - 1, " MiB/sec") != 0)
			return bad(s, col, "expected ' MiB/sec' after the number");
		iv_add(s, "transfer", "MiB/s", DIR_UNIT, t, v);
		return 0;
	}
	return bad(s, col, "expected an intermediate report ('thds:', 'reads:' or 'N MiB/sec')");
}

/* The optional rates of one report_json entry: "qps": {total, reads, writes,
 * other} in queries/s, "errors" and "reconnects" per second. */
static int json_rates(struct sb *s, json_t *o, size_t i, double t)
{
	static const char *const qkey[][2] = {
		{ "total", "qps" }, { "reads", "qps_reads" }, { "writes", "qps_writes" },
		{ "other", "qps_other" },
	};
	static const char *const key[][2] = {
		{ "errors", "errors/s" }, { "reconnects", "reconnects/s" },
	};
	json_t *q = json_object_get(o, "qps"), *x;
	double v;

	for (size_t k = 0; q && k < 4; k++) {
		if (!(x = json_object_get(q, qkey[k][0])))
			continue;
		if (pdb_json_num(x, &v) < 0 || v < 0)
			return pdb_err_at(s->err, PDB_EXIT_INPUT, s->src->name, (int)s->json_line, 0,
					  "$[%zu].qps.%s: expected a number", i, qkey[k][0]);
		iv_add(s, qkey[k][1], "qps", DIR_UNIT, t, v);
	}
	for (size_t k = 0; k < 2; k++) {
		if (!(x = json_object_get(o, key[k][0])))
			continue;
		if (pdb_json_num(x, &v) < 0 || v < 0)
			return pdb_err_at(s->err, PDB_EXIT_INPUT, s->src->name, (int)s->json_line, 0,
					  "$[%zu].%s: expected a number", i, key[k][0]);
		iv_add(s, key[k][0], key[k][1], PDB_DIR_LOWER, t, v);
	}
	return 0;
}

/* The report_json block "[ {time, tps, latency, ...} ]" (latency in ms, at
 * the --percentile of the summary). */
static int json_block(struct sb *s)
{
	json_error_t jerr;
	json_t *doc = json_loadb(s->json.data, s->json.len, 0, &jerr);
	int ret = -1;

	if (!doc)
		return pdb_err_at(s->err, PDB_EXIT_INPUT, s->src->name,
				  (int)(s->json_line + jerr.line - 1), jerr.column > 0 ? jerr.column : 1,
				  "%s", jerr.text);
	if (!json_is_array(doc)) {
		pdb_err_at(s->err, PDB_EXIT_INPUT, s->src->name, (int)s->json_line, 1,
			   "expected an array of reports");
		goto out;
	}
	for (size_t i = 0; i < json_array_size(doc); i++) {
		json_t *o = json_array_get(doc, i);
		static const char *const key[] = { "time", "tps", "latency" };
		double v[3];
		for (size_t k = 0; k < 3; k++)
			if (pdb_json_num(json_object_get(o, key[k]), &v[k]) < 0 || v[k] < 0) {
				pdb_err_at(s->err, PDB_EXIT_INPUT, s->src->name, (int)s->json_line, 0,
					   "$[%zu].%s: expected a number", i, key[k]);
				goto out;
			}
		iv_add(s, "throughput", "events/s", DIR_UNIT, v[0], v[1]);
		iv_add(s, LAT_IV, "ms", DIR_UNIT, v[0], v[2]);
		if (json_rates(s, o, i, v[0]) < 0)
			goto out;
	}
	ret = 0;
out:
	json_decref(doc);
	return ret;
}

/* "avg/stddev" pair "3912.5000/301.50". */
static int pair_at(struct sb *s, const char *line, size_t col, double *a, double *b)
{
	if (number_at(s, line, &col, '/', a, "expected AVG/STDDEV") < 0)
		return -1;
	if (line[col - 1] != '/')
		return bad(s, col, "expected AVG/STDDEV");
	col++;
	return number_at(s, line, &col, 0, b, "expected AVG/STDDEV");
}

/* "COUNT  (RATE per sec.)" of SQL statistics: the count, then the rate. */
static int count_rate(struct sb *s, const char *line, size_t col, double *count, double *rate)
{
	if (number_at(s, line, &col, 0, count, "expected a number") < 0)
		return -1;
	skip_blanks(line, &col);
	if (line[col - 1] != '(')
		return bad(s, col, "expected '(RATE per sec.)'");
	col++;
	skip_blanks(line, &col);
	if (number_at(s, line, &col, 0, rate, "expected '(RATE per sec.)'") < 0)
		return -1;
	return strcmp(line + col - 1, " per sec.)") == 0 ? 0
							 : bad(s, col, "expected ' per sec.)'");
}

/* "    key:   value" inside a section. */
static int value_line(struct sb *s, const char *line, const char *key, size_t col)
{
	const char *sec = s->section;
	size_t klen = strlen(key);
	double v, rate;

	if (strcmp(sec, "Threads fairness") == 0) {
		if (strcmp(key, "events (avg/stddev)") == 0)
			return pair_at(s, line, col, &s->ev_avg, &s->ev_sd);
		if (strcmp(key, "execution time (avg/stddev)") == 0) {
			s->checkpoint_t = NAN; /* the last line of a report */
			return pair_at(s, line, col, &s->time_avg, &s->time_sd);
		}
		return 0;
	}
	if (strcmp(sec, "General statistics") == 0 && strcmp(key, "total time") == 0) {
		if (number_at(s, line, &col, 's', &s->total_time, "expected a time in seconds") < 0)
			return -1;
		return line[col - 1] == 's' && !line[col] ? 0 : bad(s, col, "expected 's' after the time");
	}
	if (starts(sec, "Running memory speed test")) {
		/* "  block size: 1KiB", "  total size: 102400MiB", "  operation: write",
		 * "  scope: global" */
		const char *val = line + col - 1;
		if (!*val)
			return bad(s, col, "expected a value");
		if (strcmp(key, "block size") == 0)
			set_dim(s, "block_size", val, strlen(val));
		else if (strcmp(key, "operation") == 0)
			set_dim(s, "operation", val, strlen(val));
		else if (strcmp(key, "scope") == 0)
			set_dim(s, "scope", val, strlen(val));
		else if (strcmp(key, "total size") == 0)
			pdb_run_set_attr(s->run, "memory_total_size", val);
		return 0;
	}
	if (strcmp(sec, "SQL statistics") == 0) {
		/* the line, its count (none: transactions are the events), its rate */
		static const char *const sql[][3] = {
			{ "transactions", NULL, "throughput" },
			{ "queries", "queries", "qps" },
			{ "ignored errors", "errors_count", "errors" },
			{ "reconnects", "reconnects_count", "reconnects" },
		};
		static const char *const rate_unit[] = { "events/s", "qps", "errors/s", "reconnects/s" };
		if (strcmp(key, "queries performed") == 0 && !line[col - 1]) {
			s->queries_performed = 1;
			return 0;
		}
		for (size_t i = 0; i < sizeof sql / sizeof sql[0]; i++) {
			int dir = i < 2 ? DIR_UNIT : PDB_DIR_LOWER;
			if (strcmp(key, sql[i][0]) != 0)
				continue;
			s->queries_performed = 0;
			if (count_rate(s, line, col, &v, &rate) < 0)
				return -1;
			if (sql[i][1])
				sum_set(s, sql[i][1], "count", i < 2 ? PDB_DIR_NONE : PDB_DIR_LOWER, v);
			sum_set(s, sql[i][2], rate_unit[i], dir, rate);
			return 0;
		}
		if (number_at(s, line, &col, 0, &v, "expected a number") < 0)
			return -1;
		/* "total" is "queries:" again */
		if (s->queries_performed && (strcmp(key, "read") == 0 || strcmp(key, "write") == 0 ||
					     strcmp(key, "other") == 0)) {
			char name[32];
			snprintf(name, sizeof name, "queries_%s", key);
			sum_set(s, name, "count", PDB_DIR_NONE, v);
		}
		return 0;
	}
	if (strcmp(sec, "Latency (ms)") == 0 && strcmp(key, "percentile stats") == 0)
		return 0; /* --percentile=0: "percentile stats:  disabled" */
	if (number_at(s, line, &col, 0, &v, "expected a number") < 0)
		return -1;
	if (strcmp(sec, "CPU speed") == 0 && strcmp(key, "events per second") == 0)
		sum_set(s, "throughput", "events/s", DIR_UNIT, v);
	else if (strcmp(sec, "General statistics") == 0 && strcmp(key, "total number of events") == 0)
		s->events = v;
	else if (strcmp(sec, "File operations") == 0) {
		/* "reads/s:", "writes/s:", "fsyncs/s:" */
		if (strcmp(key, "reads/s") == 0)
			sum_set(s, "reads", "reads/s", DIR_UNIT, v);
		else if (strcmp(key, "writes/s") == 0)
			sum_set(s, "writes", "writes/s", DIR_UNIT, v);
		else if (strcmp(key, "fsyncs/s") == 0)
			sum_set(s, "fsyncs", "fsyncs/s", DIR_UNIT, v);
	} else if (strcmp(sec, "Throughput") == 0) {
		/* fileio: "read, MiB/s:", "written, MiB/s:" (MiB = 1048576 bytes) */
		if (strcmp(key, "read, MiB/s") == 0)
			sum_set(s, "read_transfer", "MiB/s", DIR_UNIT, v);
		else if (strcmp(key, "written, MiB/s") == 0)
			sum_set(s, "write_transfer", "MiB/s", DIR_UNIT, v);
	} else if (strcmp(sec, "Latency (ms)") == 0) {
		if (strcmp(key, "min") == 0)
			s->lat_min = v;
		else if (strcmp(key, "avg") == 0)
			s->lat_avg = v;
		else if (strcmp(key, "max") == 0)
			s->lat_max = v;
		else if (strcmp(key, "sum") == 0)
			s->lat_sum = v;
		else if (klen > 13 && klen - 13 < sizeof s->pct &&
			 strcmp(key + klen - 13, "th percentile") == 0) {
			snprintf(s->pct, sizeof s->pct, "%.*s", (int)(klen - 13), key);
			s->lat_pval = v;
		}
	}
	return 0;
}

/* A row of the --histogram table: "       0.275 |*****      2332". */
static int histogram_row(struct sb *s, const char *line)
{
	struct pdb_sample smp;
	const char *last;
	size_t col = 1;
	double v, n;

	skip_blanks(line, &col);
	if (number_at(s, line, &col, 0, &v, "expected a histogram value in ms") < 0)
		return -1;
	skip_blanks(line, &col);
	if (line[col - 1] != '|')
		return bad(s, col, "expected '|' after the histogram value");
	last = strrchr(line, ' ');
	if (!last || (size_t)(last - line) < col)
		return bad(s, strlen(line) + 1, "expected the count of the histogram row");
	col = (size_t)(last - line) + 2;
	if (number_at(s, line, &col, 0, &n, "expected the count of the histogram row") < 0)
		return -1;
	smp = PDB_SAMPLE(v);
	smp.weight = n;
	pdb_grow((void **)&s->hv, &s->caphv, s->nhv + 1, sizeof *s->hv);
	s->hv[s->nhv++] = smp;
	return 0;
}

/* The name of a fileio test mode from "Doing MODE test". */
static const char *fileio_mode(const char *phrase, size_t len)
{
	static const char *const map[][2] = {
		{ "sequential write (creation)", "seqwr" }, { "sequential rewrite", "seqrewr" },
		{ "sequential read", "seqrd" },             { "random read", "rndrd" },
		{ "random write", "rndwr" },                { "random r/w", "rndrw" },
		{ "mixed", "mixed" },
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strlen(map[i][0]) == len && strncmp(phrase, map[i][0], len) == 0)
			return map[i][1];
	return NULL;
}

/* A line at the left margin that is not a heading: test options and the
 * memory test's summary. 0 when read (or not ours), -1 on error. */
static int margin_line(struct sb *s, const char *line, size_t len)
{
	const char *p;
	size_t col;
	double v, rate;
	char word[32];

	if (starts(line, "Number of threads: ")) {
		int64_t n;
		if (pdb_parse_int64(line + 19, 1, INT32_MAX, &n) < 0)
			return bad(s, 20, "expected a number of threads");
		pdb_set_str(&s->threads, line + 19);
		return 0;
	}
	if ((p = after(line, "Target transaction rate: ")) &&
	    sscanf(p, "%31[0-9]/sec", word) == 1) { /* --rate */
		set_dim(s, "rate", word, strlen(word));
		return 0;
	}
	if (strcmp(line, "Doing CPU performance benchmark") == 0) {
		set_bench(s, "cpu");
		return 0;
	}
	if (starts(line, "Prime numbers limit: ")) { /* cpu */
		col = 22;
		if (number_at(s, line, &col, 0, &v, "expected a number") < 0)
			return -1;
		set_bench(s, "cpu");
		set_dim(s, "max_prime", line + 21, len - 21);
		return 0;
	}
	if (strcmp(line, "Doing thread subsystem performance test") == 0) { /* --verbosity=4 */
		set_bench(s, "threads");
		return 0;
	}
	if (starts(line, "Thread yields per test: ")) {
		/* "Thread yields per test: 1000 Locks used: 8" */
		size_t from = 25;
		col = from;
		if (number_at(s, line, &col, 0, &v, "expected a number") < 0)
			return -1;
		set_dim(s, "yields", line + from - 1, col - from);
		if (!starts(line + col - 1, " Locks used: "))
			return bad(s, col, "expected 'Locks used: N'");
		from = col + 13;
		col = from;
		if (number_at(s, line, &col, 0, &v, "expected a number") < 0)
			return -1;
		set_dim(s, "locks", line + from - 1, col - from);
		set_bench(s, "threads");
		return 0;
	}
	if (strcmp(line, "Doing mutex performance test") == 0) { /* --verbosity=4 */
		set_bench(s, "mutex");
		return 0;
	}
	if (starts(line, "Total operations: ")) {
		/* memory: "Total operations: 18220546 (9104749.34 per second)" */
		col = 19;
		if (number_at(s, line, &col, 0, &v, "expected a number") < 0)
			return -1;
		skip_blanks(line, &col);
		if (line[col - 1] != '(')
			return bad(s, col, "expected '(RATE per second)'");
		col++;
		skip_blanks(line, &col);
		if (number_at(s, line, &col, 0, &rate, "expected '(RATE per second)'") < 0)
			return -1;
		if (strcmp(line + col - 1, " per second)") != 0)
			return bad(s, col, "expected ' per second)'");
		set_bench(s, "memory");
		sum_set(s, "throughput", "events/s", DIR_UNIT, rate);
		return 0;
	}
	if ((p = strstr(line, " MiB transferred (")) && isdigit((unsigned char)line[0])) {
		/* memory: "17793.50 MiB transferred (8891.36 MiB/sec)" */
		col = 1;
		if (number_at(s, line, &col, 0, &v, "expected a number") < 0)
			return -1;
		if (line + col - 1 != p)
			return bad(s, col, "expected ' MiB transferred ('");
		col += 18;
		if (number_at(s, line, &col, 0, &rate, "expected '(RATE MiB/sec)'") < 0)
			return -1;
		if (strcmp(line + col - 1, " MiB/sec)") != 0)
			return bad(s, col, "expected ' MiB/sec)'");
		set_bench(s, "memory");
		sum_set(s, "transferred", "MiB", PDB_DIR_NONE, v);
		sum_set(s, "transfer", "MiB/s", DIR_UNIT, rate);
		return 0;
	}
	/* fileio's options */
	if (starts(line, "Extra file open flags: ")) {
		set_bench(s, "fileio");
		if (strcmp(line + 23, "(none)") != 0)
			set_dim(s, "extra_flags", line + 23, len - 23);
		return 0;
	}
	if (sscanf(line, "%31[0-9] files, ", word) == 1 && strstr(line, "B each")) {
		set_bench(s, "fileio");
		set_dim(s, "files", word, strlen(word));
		return 0;
	}
	if (len > 16 && strcmp(line + len - 16, " total file size") == 0 &&
	    isdigit((unsigned char)line[0])) {
		set_dim(s, "total_size", line, len - 16);
		return 0;
	}
	if (starts(line, "Block size ")) {
		set_dim(s, "block_size", line + 11, len - 11);
		return 0;
	}
	if ((p = after(line, "Read/Write ratio for combined random IO test: "))) {
		set_dim(s, "rw_ratio", p, strlen(p));
		return 0;
	}
	if ((p = after(line, "Periodic FSYNC enabled, calling fsync() each ")) &&
	    sscanf(p, "%31[0-9] requests.", word) == 1) {
		set_dim(s, "fsync_freq", word, strlen(word));
		return 0;
	}
	if (starts(line, "Using ") && len > 14 && strcmp(line + len - 9, " I/O mode") == 0) {
		/* "Using synchronous I/O mode", asynchronous, "fast mmaped" */
		const char *mode = line + 6;
		size_t n = len - 6 - 9;
		if (n == 11 && starts(mode, "synchronous"))
			set_dim(s, "io_mode", "sync", 4);
		else if (n == 12 && starts(mode, "asynchronous"))
			set_dim(s, "io_mode", "async", 5);
		else if (n > 6 && strncmp(mode + n - 6, "mmaped", 6) == 0)
			set_dim(s, "io_mode", "mmap", 4);
		else
			set_dim(s, "io_mode", mode, n);
		return 0;
	}
	if (starts(line, "Doing ") && len > 11 && strcmp(line + len - 5, " test") == 0 &&
	    s->bench[0] && strcmp(s->bench, "fileio") == 0) {
		const char *mode = fileio_mode(line + 6, len - 11);
		if (mode)
			set_dim(s, "mode", mode, strlen(mode));
		else
			set_dim(s, "mode", line + 6, len - 11);
		return 0;
	}
	return 0;
}

static int line_of(struct sb *s, char *line, size_t len)
{
	char *colon, *text = line;
	size_t col;

	if (memchr(line, '\0', len))
		return bad(s, strlen(line) + 1, "binary data (NUL byte)");
	while (len > 0 && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	if (s->json_line) {
		pdb_buf_add(&s->json, line, len);
		pdb_buf_puts(&s->json, "\n");
		if (strcmp(line, "]") != 0)
			return 0;
		if (json_block(s) < 0)
			return -1;
		s->json_line = 0;
		s->json.len = 0;
		return 0;
	}
	if (s->hist) {
		if (!len) {
			s->hist = 0;
			return 0;
		}
		if (s->hist == 1) { /* "       value  ---- distribution ---- count" */
			s->hist = 2;
			return strstr(line, "value") && strstr(line, "count")
				       ? 0 : bad(s, 1, "expected the histogram header");
		}
		return histogram_row(s, line);
	}
	if (s->line == 1 || !len)
		return 0; /* the "sysbench 1.0.20 (...)" banner, checked by detect */
	if (strcmp(line, "[") == 0) {
		s->json_line = s->line;
		pdb_buf_puts(&s->json, "[\n");
		return 0;
	}
	if (starts(line, "[ "))
		return interval_line(s, line);
	if (starts(line, "Latency histogram (values are in milliseconds)")) {
		s->hist = 1;
		s->nhv = 0;
		return 0;
	}
	if (!isspace((unsigned char)line[0]) && line[len - 1] == ':' && len < sizeof s->section) {
		snprintf(s->section, sizeof s->section, "%.*s", (int)len - 1, line);
		s->queries_performed = 0;
		if (strcmp(s->section, "General statistics") == 0)
			s->seen |= SEEN_GENERAL;
		else if (strcmp(s->section, "Latency (ms)") == 0)
			s->seen |= SEEN_LATENCY;
		else if (strcmp(s->section, "Threads fairness") == 0)
			s->seen |= SEEN_FAIRNESS;
		if (strcmp(s->section, "CPU speed") == 0)
			set_bench(s, "cpu");
		else if (starts(s->section, "Running memory speed test"))
			set_bench(s, "memory");
		else if (strcmp(s->section, "File operations") == 0)
			set_bench(s, "fileio");
		return 0;
	}
	if (!isspace((unsigned char)line[0]))
		return margin_line(s, line, len);
	while (isspace((unsigned char)*text))
		text++;
	if (!(colon = strchr(text, ':')))
		return 0; /* other messages */
	*colon = '\0';
	col = (size_t)(colon - line) + 2;
	skip_blanks(line, &col);
	return value_line(s, line, text, col);
}

static struct pdb_result *result(struct sb *s, const char *metric, const char *unit)
{
	struct pdb_attr dims[MAX_DIMS + 1];
	size_t n = 0;

	dims[n++] = (struct pdb_attr){ .key = "threads", .value = s->threads };
	for (size_t i = 0; i < s->ndims; i++)
		dims[n++] = s->dims[i];
	return pdb_run_result_with_dims(s->run, s->bench[0] ? s->bench : "sysbench", dims, n,
					metric, unit);
}

/* The results of one metric: the intermediate reports as samples with t and
 * the summary as the stat mean, or the summary alone as the one sample. */
static void emit_metric(struct sb *s, const struct metric *m)
{
	struct pdb_result *r;
	char *name = NULL;

	if (strcmp(m->name, LAT_IV) == 0)
		name = pdb_xasprintf("latency_p%s", s->lat_pct[0] ? s->lat_pct : s->pct);
	r = result(s, name ? name : m->name, m->unit);
	free(name);
	if (m->dir != DIR_UNIT)
		r->direction = m->dir;
	for (size_t i = 0; i < m->niv; i++) {
		struct pdb_sample smp = PDB_SAMPLE(pdb_result_canonical(r, m->iv[i].value));
		smp.t = m->iv[i].t;
		pdb_result_add_sample(r, &smp);
	}
	if (s->checkpoints > 0 && !isnan(m->summary)) {
		/* after checkpoints the summary covers the time since the last one */
		struct pdb_sample smp = PDB_SAMPLE(pdb_result_canonical(r, m->summary));
		smp.t = s->total_time;
		pdb_result_add_sample(r, &smp);
	} else if (m->niv == 0 && !isnan(m->summary))
		pdb_result_add_raw(r, m->summary);
	else if (!isnan(m->summary))
		pdb_result_set_stat_raw(r, "mean", m->summary);
}

/* What the summary lacks, in the order sysbench writes it: a line of a
 * section that was read, then the sections never read. */
static int missing(struct sb *s)
{
	static const struct {
		unsigned section;
		const char *heading, *line;
	} need[] = {
		{ SEEN_GENERAL, "General statistics:", "total time:" },
		{ SEEN_GENERAL, "General statistics:", "total number of events:" },
		{ SEEN_LATENCY, "Latency (ms):", "avg:" },
		{ SEEN_FAIRNESS, "Threads fairness:", "execution time (avg/stddev):" },
	};
	const double got[] = { s->total_time, s->events, s->lat_avg, s->time_avg };
	char lines[5][96], sections[3][32]; /* Number of threads, then each need */
	size_t nl = 0, ns = 0, n;
	unsigned named = 0;
	struct pdb_buf b;
	int ret;

	if (!s->threads)
		snprintf(lines[nl++], sizeof lines[0], "the line 'Number of threads:'");
	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
		if (!isnan(got[i]))
			continue;
		if (s->seen & need[i].section)
			snprintf(lines[nl++], sizeof lines[0], "the line '%s' of '%s'", need[i].line,
				 need[i].heading);
		else if (!(named & need[i].section)) { /* a section once, not each line of it */
			named |= need[i].section;
			snprintf(sections[ns++], sizeof sections[0], "'%s'", need[i].heading);
		}
	}
	pdb_buf_init(&b);
	n = nl + (ns > 0);
	for (size_t i = 0; i < nl; i++)
		pdb_buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", lines[i]);
	if (ns)
		pdb_buf_printf(&b, "%sthe section%s ", nl ? " and " : "", ns > 1 ? "s" : "");
	for (size_t i = 0; i < ns; i++)
		pdb_buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == ns ? " and " : ", ", sections[i]);
	ret = pdb_text_cut_short(s->src, s->err, "truncated: missing %s", b.data);
	pdb_buf_release(&b);
	return ret;
}

/* The results of what was read (all of the summary is required). */
static int emit(struct sb *s)
{
	struct pdb_result *r;
	char *name;
	size_t i;

	if (s->json_line)
		return pdb_err_at(s->err, PDB_EXIT_INPUT, s->src->name, (int)s->json_line, 1,
				  "truncated: the report block has no closing ']'");
	if (!s->threads || isnan(s->total_time) || isnan(s->events) || isnan(s->lat_avg) ||
	    isnan(s->time_avg))
		return missing(s);
	/* fileio prints the read/write ratio for every random mode; only rndrw mixes */
	for (i = 0; i < s->ndims; i++)
		if (strcmp(s->dims[i].key, "mode") == 0 && strcmp(s->dims[i].value, "rndrw") == 0)
			break;
	if (i == s->ndims)
		drop_dim(s, "rw_ratio");
	for (i = 0; i < s->nm; i++) /* in the order read */
		emit_metric(s, &s->m[i]);
	pdb_result_add_raw(result(s, "events", "count"), s->events);
	r = result(s, "total_time", "s");
	r->direction = PDB_DIR_NONE;
	pdb_result_add_raw(r, s->total_time);
	r = result(s, "latency", "ms");
	for (i = 0; i < s->nhv; i++) {
		struct pdb_sample smp = s->hv[i];
		smp.value = pdb_result_canonical(r, smp.value);
		pdb_result_add_sample(r, &smp);
	}
	pdb_result_set_stat_raw(r, "min", s->lat_min);
	pdb_result_set_stat_raw(r, "mean", s->lat_avg);
	pdb_result_set_stat_raw(r, "max", s->lat_max);
	pdb_result_set_stat_raw(r, "sum", s->lat_sum);
	if (s->pct[0]) {
		name = pdb_xasprintf("p%s", s->pct);
		pdb_result_set_stat_raw(r, name, s->lat_pval);
		free(name);
	}
	r = result(s, "thread_events", "count");
	pdb_result_set_stat(r, "mean", s->ev_avg);
	pdb_result_set_stat(r, "stddev", s->ev_sd);
	r = result(s, "thread_time", "s");
	r->direction = PDB_DIR_NONE;
	pdb_result_set_stat_raw(r, "mean", s->time_avg);
	pdb_result_set_stat_raw(r, "stddev", s->time_sd);
	return 0;
}

static int detect(const struct pdb_source *src)
{
	const char *head = (const char *)src->head;

	if (!head || !starts(head, "sysbench 1."))
		return 0;
	return pdb_head_has(src, "General statistics:") ||
	       pdb_head_has(src, "Running the test with following options:") ? 90 : 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct sb s = { .src = src, .run = run, .err = err, .total_time = NAN,
			.events = NAN, .lat_min = NAN, .lat_avg = NAN, .lat_max = NAN,
			.lat_pval = NAN, .lat_sum = NAN, .ev_avg = NAN, .ev_sd = NAN,
			.time_avg = NAN, .time_sd = NAN, .checkpoint_t = NAN };
	FILE *f = fopen(src->path, "rb");
	char *line = NULL, version[32];
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	if (!f)
		return pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0, "%s", strerror(errno));
	pdb_buf_init(&s.json);
	while (ret == 0 && (n = getline(&line, &cap, f)) > 0) {
		s.line++;
		if ((ret = pdb_text_check_utf8(src, line, (size_t)n, s.line, err)) < 0)
			break;
		if (s.line == 1 && (sscanf(line, "sysbench %31s", version) != 1 ||
				    !starts(version, "1."))) {
			ret = bad(&s, 1, "expected 'sysbench 1.VERSION' first");
			break;
		}
		if (s.line == 1)
			pdb_run_set_attr(run, "version", version);
		ret = line_of(&s, line, (size_t)n);
	}
	if (ret == 0 && s.line == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, 1, 1, "empty file");
	else if (ret == 0)
		ret = emit(&s);
	if (ret == 0)
		pdb_set_str(&run->tool, "sysbench");
	pdb_buf_release(&s.json);
	for (size_t i = 0; i < s.nm; i++)
		free(s.m[i].iv);
	for (size_t i = 0; i < s.ndims; i++) {
		free(s.dims[i].key);
		free(s.dims[i].value);
	}
	free(s.hv);
	free(s.threads);
	free(line);
	fclose(f);
	return ret;
}

const struct pdb_format pdb_format_sysbench = {
	.name = "sysbench",
	.summary = "sysbench 1.x text (cpu, memory, fileio, threads, mutex, OLTP): rates "
		   "(intermediate reports as timed samples), latency statistics and histogram, "
		   "fairness; dims threads and the test's options",
	.detect = detect,
	.parse = parse,
};
