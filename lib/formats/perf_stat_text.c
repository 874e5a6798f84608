/* Format: perf stat's text output (stderr or -o FILE; -r noise, -I intervals, -A per CPU, the time footer). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/perf_count.h"
#include "parse/json_util.h"
#include "parse/text_util.h"
#include "util.h"

#define BENCH "perf-stat"
#define HEAD " Performance counter stats for "

struct reader {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	long line;
	long counts;
	int interval;   /* -1 until the first counter says */
	char *text;     /* the line being read, for columns */
};

static int bad(struct reader *rd, const char *at, const char *what)
{
	return pdb_err_at(rd->err, PDB_EXIT_INPUT, rd->src->name, (int)rd->line,
			  (int)(at - rd->text) + 1, "%s", what);
}

static int detect(const struct pdb_source *src)
{
	if (!src->head)
		return 0;
	if (pdb_head_has(src, "\n" HEAD) || pdb_head_has(src, "\n#           time             counts unit events"))
		return 90;
	return strncmp((const char *)src->head, HEAD + 1, strlen(HEAD) - 1) == 0 ? 90 : 0;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static const char *word_end(const char *p)
{
	while (*p && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/* A number as perf prints it, thousands grouped with ',' under a locale
 * that groups them ("60,830"): 0 with *v, else -1. */
static int number(const char *p, const char *end, double *v)
{
	char buf[64];
	size_t n = 0;

	for (; p < end; p++) {
		if (*p == ',' && n > 0 && isdigit((unsigned char)buf[n - 1]) &&
		    isdigit((unsigned char)p[1]))
			continue;
		if (n + 1 >= sizeof buf)
			return -1;
		buf[n++] = *p;
	}
	buf[n] = '\0';
	return n > 0 && pdb_parse_double(buf, v) == 0 && isfinite(*v) ? 0 : -1;
}

static int is_missing_at(const char *p)
{
	return strncmp(p, "<not supported>", 15) == 0 || strncmp(p, "<not counted>", 13) == 0;
}

/* "( +-  2.78% )" or "(83.33%)" ending the line at *end: its number, and
 * *end moved before it; 0 when the line does not end so. */
static int tail_pct(const char *line, const char **end, int noise, double *v)
{
	const char *e = *end, *open;

	while (e > line && e[-1] == ' ')
		e--;
	if (e - line < 3 || e[-1] != ')')
		return 0;
	for (open = e - 1; open > line && *open != '('; open--)
		;
	if (*open != '(')
		return 0;
	{
		const char *p = skip_blank(open + 1), *q = e - 1;
		if (noise != (strncmp(p, "+-", 2) == 0))
			return 0;
		if (noise)
			p = skip_blank(p + 2);
		while (q > p && q[-1] == ' ')
			q--;
		if (q <= p || q[-1] != '%' || number(p, q - 1, v) < 0)
			return 0;
	}
	*end = open;
	return 1;
}

/* " Performance counter stats for 'sleep 0.05' (5 runs):" */
static int head(struct reader *rd, char *line)
{
	char *t = line + strlen(HEAD), *end = t + strlen(t);

	if (end == t || end[-1] != ':')
		return bad(rd, end, "expected ':' ending the line");
	*--end = '\0';
	if (end > t && end[-1] == ')') {
		char *open = strrchr(t, '(');
		double runs;
		if (open && open > t && open[-1] == ' ' && strcmp(end - 6, " runs)") == 0 &&
		    number(open + 1, end - 6, &runs) == 0) {
			char n[32];
			pdb_fmt_double(runs, n);
			pdb_run_set_attr(rd->run, "perf.runs", n);
			end = open - 1;
			*end = '\0';
		}
	}
	if (end - t >= 2 && t[0] == '\'' && end[-1] == '\'') {
		end[-1] = '\0';
		t++;
	}
	pdb_run_set_attr(rd->run, "perf.target", t);
	return 0;
}

/* "0.050327700 seconds time elapsed", "0.03437 +- 0.00494 seconds time
 * elapsed  ( +- 14.37% )", "0.002332000 seconds user", "... seconds sys". */
static int footer(struct reader *rd, const char *p, const char *end, const char *what)
{
	static const struct { const char *says, *metric; } kinds[] = {
		{ "seconds time elapsed", "wall_time" },
		{ "seconds user", "user_time" },
		{ "seconds sys", "sys_time" },
	};
	struct pdb_result *r;
	const char *e = word_end(p);
	double v, sd = NAN, noise = NAN;
	size_t k = 0;

	while (k < sizeof kinds / sizeof kinds[0] &&
	       strncmp(what, kinds[k].says, strlen(kinds[k].says)) != 0)
		k++;
	if (k == sizeof kinds / sizeof kinds[0])
		return bad(rd, what, "expected 'seconds time elapsed', 'seconds user' or 'seconds sys'");
	if (tail_pct(rd->text, &end, 1, &noise) && k != 0)
		return bad(rd, end, "a ± only follows the time elapsed");
	if (number(p, e, &v) < 0 || v < 0)
		return bad(rd, p, "expected the seconds");
	p = skip_blank(e);
	if (strncmp(p, "+-", 2) == 0) {
		p = skip_blank(p + 2);
		e = word_end(p);
		if (number(p, e, &sd) < 0 || sd < 0)
			return bad(rd, p, "expected the ± in seconds");
		p = skip_blank(e);
	}
	while (end > p && end[-1] == ' ')
		end--;
	if (p != what || (size_t)(end - p) != strlen(kinds[k].says))
		return bad(rd, p + strlen(kinds[k].says), "unexpected text after the seconds");
	r = pdb_run_series(rd->run, BENCH, NULL, 0, kinds[k].metric, "s", PDB_DIR_LOWER);
	pdb_result_add_raw(r, v);
	if (!isnan(sd))
		pdb_result_set_stat(r, "stderr", sd);
	if (!isnan(noise))
		pdb_result_set_stat(r, "variance", noise);
	if (k == 2) {
		/* user + sys: cpu_time, the CPU time every source names so */
		const struct pdb_result *u = pdb_run_series(rd->run, BENCH, NULL, 0, "user_time", "s",
							    PDB_DIR_LOWER);
		if (u->nsamples > 0)
			pdb_result_add_raw(pdb_run_series(rd->run, BENCH, NULL, 0, "cpu_time", "s",
							  PDB_DIR_LOWER),
					   u->samples[u->nsamples - 1].value + v);
	}
	return 0;
}

/* [TIME] [CPUn] VALUE [UNIT] EVENT [# METRIC] [( +- NOISE% )] [(PERCENT%)] */
static int counter(struct reader *rd, char *line)
{
	struct pdb_perf_count c = PDB_PERF_COUNT;
	const char *end = line + strlen(line), *p = skip_blank(line), *e, *hash;
	char *event = NULL, *unit = NULL, *cpu = NULL, *metric = NULL;
	int ret = -1, timed = 0;

	tail_pct(line, &end, 0, &c.pct);
	tail_pct(line, &end, 1, &c.noise);
	e = word_end(p);
	if (!is_missing_at(p) && number(p, e, &c.t) == 0) {
		const char *q = skip_blank(e);
		double v;
		timed = is_missing_at(q) || number(q, word_end(q), &v) == 0 ||
			(strncmp(q, "CPU", 3) == 0 && number(q + 3, word_end(q), &v) == 0);
	}
	if (!timed)
		c.t = NAN;
	else
		p = skip_blank(e);
	if (rd->interval < 0)
		rd->interval = timed;
	else if (rd->interval != timed) {
		ret = bad(rd, p, rd->interval ? "expected the interval time first, as on the lines before"
					     : "an interval time on one line but not the lines before");
		goto out;
	}
	e = word_end(p);
	if (strncmp(p, "CPU", 3) == 0 && e > p + 3 &&
	    strspn(p + 3, "0123456789") == (size_t)(e - p - 3)) {
		c.cpu = cpu = pdb_xstrndup(p + 3, (size_t)(e - p - 3));
		p = skip_blank(e);
	}
	if (strncmp(p, "<not supported>", 15) == 0 || strncmp(p, "<not counted>", 13) == 0) {
		e = strchr(p, '>') + 1;
		c.missing = p[5] == 's' ? "<not supported>" : "<not counted>";
	} else if (number(p, e = word_end(p), &c.value) < 0) {
		ret = bad(rd, p, "expected a count, <not supported> or <not counted>");
		goto out;
	}
	if (e[0] == ' ' && e[1] && e[1] != ' ' && e[1] != '#') { /* one blank: the unit */
		p = e + 1;
		e = word_end(p);
		c.unit = unit = pdb_xstrndup(p, (size_t)(e - p));
	} else
		c.unit = "";
	p = skip_blank(e);
	if (p >= end || *p == '#') {
		ret = bad(rd, p, "expected the event's name");
		goto out;
	}
	e = word_end(p);
	c.event = event = pdb_xstrndup(p, (size_t)(e - p));
	p = skip_blank(e);
	hash = p < end && *p == '#' ? p : NULL;
	if (!hash && p < end) {
		ret = bad(rd, p, "expected '#' and the metric after the event (a cgroup, -G, is not read)");
		goto out;
	}
	if (hash) {
		struct pdb_buf b;
		pdb_buf_init(&b);
		for (p = skip_blank(hash + 1); p < end; p = skip_blank(e)) {
			e = word_end(p);
			if (e > end)
				e = end;
			if (b.len)
				pdb_buf_add(&b, " ", 1);
			pdb_buf_add(&b, p, (size_t)(e - p));
		}
		c.metric = metric = pdb_xstrndup(b.data ? b.data : "", b.len);
		pdb_buf_release(&b);
	}
	rd->counts++;
	pdb_perf_count_add(rd->run, &c);
	ret = 0;
out:
	free(event);
	free(unit);
	free(cpu);
	free(metric);
	return ret;
}

static int text_line(void *ctx, char *line, size_t len)
{
	struct reader *rd = ctx;
	const char *p, *e, *says;

	if (memchr(line, '\0', len))
		return pdb_err_at(rd->err, PDB_EXIT_INPUT, rd->src->name, (int)rd->line,
				  (int)strlen(line) + 1, "binary data (NUL byte)");
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
		line[--len] = '\0';
	rd->text = line;
	if (len == 0 || pdb_perf_comment(rd->run, line))
		return 0;
	if (strncmp(line, HEAD, strlen(HEAD)) == 0)
		return head(rd, line);
	p = skip_blank(line);
	if (*p == '#')
		return bad(rd, p, "a metric line without its counter (perf's second metric of an "
			   "event) is not read");
	e = word_end(p);
	says = skip_blank(e);
	if (strncmp(says, "+-", 2) == 0)
		says = skip_blank(word_end(skip_blank(says + 2)));
	if (strncmp(says, "seconds ", 8) == 0)
		return footer(rd, p, line + len, says);
	return counter(rd, line);
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct reader rd = { .src = src, .run = run, .err = err, .interval = -1 };
	int ret = pdb_text_read(src, text_line, &rd, &rd.line, err);

	if (ret == 0 && rd.counts == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)rd.line, 0,
				 "no counter lines (perf stat output)");
	if (ret == 0)
		pdb_perf_set_tool(run);
	return ret;
}

const struct pdb_format pdb_format_perf_stat_text = {
	.name = "perf-stat-text",
	.summary = "perf stat text output: the same series as perf-stat (-x,), plus "
		   "wall_time, user_time, sys_time (and their sum cpu_time) from its footer",
	.detect = detect,
	.parse = parse,
};
