/* Format: sysbench 1.x text output (summary, intermediate reports as text or report_json). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "formats/format.h"
#include "formats/json_util.h"
#include "util.h"

/* One intermediate report: seconds from the start, events/s, latency percentile in ms. */
struct interval {
	double t, eps, lat;
};

struct sb {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	long line;
	char section[64];         /* the heading in force ("Latency (ms)"), or "" */
	int cpu;                  /* "CPU speed:" seen: the benchmark is cpu */
	char *threads;
	struct interval *iv;
	size_t niv, capiv;
	char lat_pct[16];         /* of the intermediate reports: "95" */
	struct pdb_buf json;      /* a report_json block being read */
	long json_line;           /* its first line, 0 outside one */
	double eps, total_time, events, lat_min, lat_avg, lat_max, lat_pval, lat_sum;
	double ev_avg, ev_sd, time_avg, time_sd;
	char pct[16];             /* of the summary: "95" from "95th percentile:" */
};

static int bad(struct sb *s, size_t col, const char *what)
{
	return pdb_err_at(s->err, PDB_EXIT_INPUT, s->src->name, (int)s->line, (int)col,
			  "%s", what);
}

static int starts(const char *text, const char *prefix)
{
	return strncmp(text, prefix, strlen(prefix)) == 0;
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

/* "[ 1s ] thds: 2 eps: 5676.75 lat (ms,95%): 0.37" (tps: for OLTP tests). */
static int interval_line(struct sb *s, const char *line)
{
	struct interval iv;
	const char *p, *pct;
	size_t col = 3;

	while (line[col - 1] == ' ')
		col++;
	if (number_at(s, line, &col, 's', &iv.t, "expected the seconds of the report") < 0)
		return -1;
	p = strstr(line, " eps: ");
	if (!p)
		p = strstr(line, " tps: ");
	if (!p)
		return bad(s, 1, "expected 'eps: N' in the intermediate report");
	col = (size_t)(p - line) + 7;
	if (number_at(s, line, &col, 0, &iv.eps, "expected the events per second") < 0)
		return -1;
	p = strstr(line, " lat (ms,");
	if (!p || !(pct = strstr(p, "%): ")) || (size_t)(pct - p - 9) >= sizeof s->lat_pct)
		return bad(s, 1, "expected 'lat (ms,P%): N' in the intermediate report");
	snprintf(s->lat_pct, sizeof s->lat_pct, "%.*s", (int)(pct - p - 9), p + 9);
	col = (size_t)(pct - line) + 5;
	if (number_at(s, line, &col, 0, &iv.lat, "expected a latency in ms") < 0)
		return -1;
	pdb_grow((void **)&s->iv, &s->capiv, s->niv + 1, sizeof *s->iv);
	s->iv[s->niv++] = iv;
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
		pdb_grow((void **)&s->iv, &s->capiv, s->niv + 1, sizeof *s->iv);
		s->iv[s->niv++] = (struct interval){ .t = v[0], .eps = v[1], .lat = v[2] };
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

/* "    key:   value" inside a section. */
static int value_line(struct sb *s, const char *line, const char *key, size_t col)
{
	const char *sec = s->section;
	size_t klen = strlen(key);
	double v;

	if (strcmp(sec, "Threads fairness") == 0) {
		if (strcmp(key, "events (avg/stddev)") == 0)
			return pair_at(s, line, col, &s->ev_avg, &s->ev_sd);
		if (strcmp(key, "execution time (avg/stddev)") == 0)
			return pair_at(s, line, col, &s->time_avg, &s->time_sd);
		return 0;
	}
	if (strcmp(sec, "General statistics") == 0 && strcmp(key, "total time") == 0) {
		if (number_at(s, line, &col, 's', &s->total_time, "expected a time in seconds") < 0)
			return -1;
		return line[col - 1] == 's' && !line[col] ? 0 : bad(s, col, "expected 's' after the time");
	}
	if (number_at(s, line, &col, 0, &v, "expected a number") < 0)
		return -1;
	if (strcmp(sec, "CPU speed") == 0 && strcmp(key, "events per second") == 0)
		s->eps = v;
	else if (strcmp(sec, "General statistics") == 0 && strcmp(key, "total number of events") == 0)
		s->events = v;
	else if (strcmp(sec, "Latency (ms)") == 0) {
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
	if (s->line == 1 || !len)
		return 0; /* the "sysbench 1.0.20 (...)" banner, checked by detect */
	if (strcmp(line, "[") == 0) {
		s->json_line = s->line;
		pdb_buf_puts(&s->json, "[\n");
		return 0;
	}
	if (starts(line, "[ "))
		return interval_line(s, line);
	if (starts(line, "Number of threads: ")) {
		int64_t n;
		if (pdb_parse_int64(line + 19, 1, INT32_MAX, &n) < 0)
			return bad(s, 20, "expected a number of threads");
		pdb_set_str(&s->threads, line + 19);
		return 0;
	}
	if (!isspace((unsigned char)line[0]) && line[len - 1] == ':' && len < sizeof s->section) {
		snprintf(s->section, sizeof s->section, "%.*s", (int)len - 1, line);
		if (strcmp(s->section, "CPU speed") == 0)
			s->cpu = 1;
		return 0;
	}
	while (isspace((unsigned char)*text))
		text++;
	if (text == line || !(colon = strchr(text, ':')))
		return 0; /* "Threads started!" and other messages */
	*colon = '\0';
	col = (size_t)(colon - line) + 2;
	while (line[col - 1] == ' ')
		col++;
	return value_line(s, line, text, col);
}

static struct pdb_result *result(struct sb *s, const char *metric, const char *unit)
{
	struct pdb_attr dim = { .key = "threads", .value = s->threads };

	return pdb_run_result_with_dims(s->run, s->cpu ? "cpu" : "sysbench", &dim, 1,
					metric, unit);
}

/* The results of what was read (all of the summary is required). */
static int emit(struct sb *s)
{
	struct pdb_result *r;
	char *name;

	if (s->json_line)
		return pdb_err_at(s->err, PDB_EXIT_INPUT, s->src->name, (int)s->json_line, 1,
				  "truncated: the report block has no closing ']'");
	if (!s->threads || isnan(s->total_time) || isnan(s->events) || isnan(s->lat_avg) ||
	    isnan(s->time_avg))
		return pdb_err_at(s->err, PDB_EXIT_INPUT, s->src->name, (int)s->line, 0,
				  "truncated: expected 'Number of threads:', 'General statistics:', "
				  "'Latency (ms):' and 'Threads fairness:'");
	if (s->niv > 0 || !isnan(s->eps)) {
		r = result(s, "throughput", "events/s");
		for (size_t i = 0; i < s->niv; i++) {
			struct pdb_sample smp = PDB_SAMPLE(s->iv[i].eps);
			smp.t = s->iv[i].t;
			pdb_result_add_sample(r, &smp);
		}
		if (s->niv == 0)
			pdb_result_add_raw(r, s->eps);
		else if (!isnan(s->eps))
			pdb_result_set_stat(r, "mean", s->eps);
	}
	if (s->niv > 0) {
		name = pdb_xasprintf("latency_p%s", s->lat_pct[0] ? s->lat_pct : s->pct);
		r = result(s, name, "ms");
		free(name);
		for (size_t i = 0; i < s->niv; i++) {
			struct pdb_sample smp = PDB_SAMPLE(pdb_result_canonical(r, s->iv[i].lat));
			smp.t = s->iv[i].t;
			pdb_result_add_sample(r, &smp);
		}
	}
	pdb_result_add_raw(result(s, "events", "count"), s->events);
	r = result(s, "total_time", "s");
	r->direction = PDB_DIR_NONE;
	pdb_result_add_raw(r, s->total_time);
	r = result(s, "latency", "ms");
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
	struct sb s = { .src = src, .run = run, .err = err, .eps = NAN, .total_time = NAN,
			.events = NAN, .lat_min = NAN, .lat_avg = NAN, .lat_max = NAN,
			.lat_pval = NAN, .lat_sum = NAN, .ev_avg = NAN, .ev_sd = NAN,
			.time_avg = NAN, .time_sd = NAN };
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
	free(s.iv);
	free(s.threads);
	free(line);
	fclose(f);
	return ret;
}

const struct pdb_format pdb_format_sysbench = {
	.name = "sysbench",
	.summary = "sysbench 1.x text: events/s (intermediate reports as timed samples), latency "
		   "statistics, fairness, dim threads",
	.detect = detect,
	.parse = parse,
};
