/* Format: perf stat -x, CSV (counts per event; -r noise, -I intervals, -A per CPU). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/perf_count.h"
#include "parse/json_util.h"
#include "parse/text_util.h"
#include "util.h"

#define MAXF 16

struct reader {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	long line;
	long rows;
	int interval;   /* -1 until the first row says */
};

struct field {
	char *text;
	size_t col;     /* 1-based */
};

static int bad(struct reader *rd, size_t col, const char *what)
{
	return pdb_err_at(rd->err, PDB_EXIT_INPUT, rd->src->name, (int)rd->line, (int)col,
			  "%s", what);
}

/* Split line in place at commas (perf quotes nothing). */
static size_t split(char *line, struct field *f, size_t max)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *c = strchr(p, ',');
		if (n == max)
			return max + 1;
		f[n].text = p;
		f[n].col = (size_t)(p - line) + 1;
		n++;
		if (!c)
			return n;
		*c = '\0';
		p = c + 1;
	}
}

static int is_cpu(const char *s)
{
	return strncmp(s, "CPU", 3) == 0 && s[3] && strspn(s + 3, "0123456789") == strlen(s + 3);
}

/* Does the head's first data line look like perf's: VALUE,UNIT,EVENT,...? */
static int looks_like_row(const char *line, size_t len)
{
	char buf[512];
	struct field f[MAXF];
	size_t n, i = 0;
	double v;

	if (len >= sizeof buf)
		return 0;
	memcpy(buf, line, len);
	buf[len] = '\0';
	n = split(buf, f, MAXF);
	if (n > MAXF || n < 7)
		return 0;
	if (isspace((unsigned char)f[0].text[0]) && pdb_parse_double(f[0].text, &v) == 0)
		i++;
	if (is_cpu(f[i].text))
		i++;
	if (n < i + 7)
		return 0;
	if (!pdb_perf_is_missing(f[i].text) && pdb_parse_double(f[i].text, &v) < 0)
		return 0;
	if (strspn(f[i + 1].text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/") !=
	    strlen(f[i + 1].text))
		return 0;
	return isalpha((unsigned char)f[i + 2].text[0]) && pdb_parse_double(f[i + 4].text, &v) == 0;
}

static int detect(const struct pdb_source *src)
{
	const char *p = (const char *)src->head;

	if (!p)
		return 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && p[len - 1] == '\r')
			len--;
		if (len > 0 && *p != '#')
			return looks_like_row(p, len) ?
				(pdb_head_has(src, "# started on ") ? 90 : 70) : 0;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

/* [TIME,][CPUn,]VALUE,UNIT,EVENT,[NOISE%,]RUNTIME,PERCENT,METRIC,METRIC-UNIT */
static int row(struct reader *rd, char *line)
{
	struct field f[MAXF + 1];
	size_t n = split(line, f, MAXF), i = 0;
	struct pdb_perf_count c = PDB_PERF_COUNT;
	char *metric = NULL;
	int has_noise = 0;

	if (n > MAXF)
		return bad(rd, f[MAXF - 1].col, "too many fields for a perf stat -x, row");
	if (n > 0 && isspace((unsigned char)f[0].text[0]) && pdb_parse_double(f[0].text, &c.t) == 0)
		i++;
	if (rd->interval < 0)
		rd->interval = i > 0;
	else if (rd->interval != (i > 0))
		return bad(rd, 1, rd->interval ? "expected the interval time first, as on the rows before"
					       : "an interval time on one row but not the rows before");
	if (i < n && is_cpu(f[i].text))
		c.cpu = f[i++].text + 3;
	if (n < i + 5)
		return bad(rd, n ? f[n - 1].col : 1,
			   "expected VALUE,UNIT,EVENT,RUNTIME,PERCENT (perf stat -x,)");
	c.event = f[i + 2].text;
	c.unit = f[i + 1].text;
	if (!*c.event)
		return bad(rd, f[i + 2].col, "empty event name");
	if (n > i + 3) {
		size_t len = strlen(f[i + 3].text);
		if (len > 0 && f[i + 3].text[len - 1] == '%') {
			f[i + 3].text[len - 1] = '\0';
			if (pdb_parse_double(f[i + 3].text, &c.noise) < 0 || !isfinite(c.noise))
				return bad(rd, f[i + 3].col, "expected the noise as a percentage");
			has_noise = 1;
		}
	}
	if (n < i + 5 + (size_t)has_noise)
		return bad(rd, f[n - 1].col, "expected RUNTIME,PERCENT after the event");
	if (pdb_parse_double(f[i + 3 + has_noise].text, &c.runtime_ns) < 0 ||
	    !isfinite(c.runtime_ns) || c.runtime_ns < 0)
		return bad(rd, f[i + 3 + has_noise].col, "expected the counter run time in ns");
	if (pdb_parse_double(f[i + 4 + has_noise].text, &c.pct) < 0 || !isfinite(c.pct))
		return bad(rd, f[i + 4 + has_noise].col, "expected the percentage of time counted");
	rd->rows++;
	if (pdb_perf_is_missing(f[i].text))
		c.missing = f[i].text;
	else if (pdb_parse_double(f[i].text, &c.value) < 0 || !isfinite(c.value))
		return bad(rd, f[i].col, "expected a count, <not supported> or <not counted>");
	if (n > i + 6 + (size_t)has_noise && *f[i + 5 + has_noise].text)
		c.metric = metric = pdb_xasprintf("%s %s", f[i + 5 + has_noise].text,
						  f[i + 6 + has_noise].text);
	pdb_perf_count_add(rd->run, &c);
	free(metric);
	return 0;
}

static int text_line(void *ctx, char *line, size_t len)
{
	struct reader *rd = ctx;

	if (memchr(line, '\0', len))
		return bad(rd, strlen(line) + 1, "binary data (NUL byte)");
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	if (strspn(line, " \t") == len)
		return 0;
	if (pdb_perf_comment(rd->run, line))
		return 0;
	return row(rd, line);
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct reader rd = { .src = src, .run = run, .err = err, .interval = -1 };
	int ret = pdb_text_read(src, text_line, &rd, &rd.line, err);

	if (ret == 0 && rd.rows == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)rd.line, 0,
				 "no counter rows (perf stat -x, output)");
	if (ret == 0)
		pdb_perf_set_tool(run);
	return ret;
}

const struct pdb_format pdb_format_perf_stat = {
	.name = "perf-stat",
	.summary = "perf stat -x, CSV: one series per event (count, msec as s), -r noise as "
		   "variance, run time and share counted as stats, -I intervals as time series",
	.detect = detect,
	.parse = parse,
};
