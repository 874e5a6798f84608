/* Format: Catch2 console reporter benchmark tables (name, samples, mean, std dev). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "parse/json_util.h"
#include "parse/text_util.h"
#include "util.h"

enum state {
	OUTSIDE,     /* not in a benchmark table */
	HEADER,      /* after "benchmark name": until the line of dashes */
	TABLE,       /* expecting an entry's first line */
	MEANS,       /* expecting "mean  low mean  high mean" */
	STDDEVS,     /* expecting "std dev  low std dev  high std dev" */
};

struct catch2 {
	const struct pdb_source *src;
	struct pdb_run *run;
	long line;
	long nbench;
	enum state state;
	char *name;     /* the entry being read */
	int after_rule; /* the line before was a rule of dashes */
	int after_blank;/* a blank line in the table was the last */
	char *title;    /* the line after a rule: a test case's name if a rule follows */
	char *test_case;/* the test case being read */
	char **benches; /* its benchmarks */
	size_t nbenches;
	struct pdb_err *err;
};

static int bad(struct catch2 *c, const char *text, const char *at, const char *what)
{
	return pdb_err_at(c->err, PDB_EXIT_INPUT, c->src->name, (int)c->line,
			  (int)(at - text) + 1, "%s", what);
}

struct token {
	const char *text;
	size_t len;
};

/* Split text at blanks into at most max tokens; the count, or max + 1. */
static size_t tokens(const char *text, struct token *tok, size_t max)
{
	size_t n = 0;
	const char *p = text;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return n;
		if (n == max)
			return max + 1;
		tok[n].text = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		tok[n].len = (size_t)(p - tok[n].text);
		n++;
	}
}

/* "VALUE UNIT" from two tokens, in seconds. */
static int duration(struct catch2 *c, const char *text, const struct token *t, double *out)
{
	static const struct { const char *name; double per; } units[] = {
		{ "ns", 1e9 }, { "us", 1e6 }, { "µs", 1e6 }, { "ms", 1e3 }, { "s", 1 },
	};
	char num[48];

	if (t[0].len >= sizeof num)
		return bad(c, text, t[0].text, "expected a number");
	memcpy(num, t[0].text, t[0].len);
	num[t[0].len] = '\0';
	if (pdb_parse_double(num, out) < 0)
		return bad(c, text, t[0].text, "expected a number");
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strlen(units[i].name) == t[1].len &&
		    strncmp(units[i].name, t[1].text, t[1].len) == 0) {
			*out /= units[i].per; /* dividing keeps 344 ns exactly 3.44e-07 s */
			return 0;
		}
	return bad(c, text, t[1].text, "expected a time unit (ns, us, ms, s)");
}

/* "NAME  SAMPLES  ITERATIONS  ESTIMATED UNIT": the name may hold blanks,
 * so the four numbers are read from the right. */
static int entry_line(struct catch2 *c, const char *text)
{
	struct token t[4];
	const char *p = text + strlen(text);
	char num[32], *est;
	double est_s;
	int64_t samples, iters;
	struct pdb_result *r;

	for (int i = 3; i >= 0; i--) {
		while (p > text && p[-1] == ' ')
			p--;
		t[i].len = 0;
		while (p > text && p[-1] != ' ')
			p--, t[i].len++;
		t[i].text = p;
		if (t[i].len == 0 || p == text)
			return bad(c, text, text, "expected a benchmark name, samples, iterations "
				   "and estimated time");
	}
	if (duration(c, text, &t[2], &est_s) < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		int64_t *out = i ? &iters : &samples;
		if (t[i].len >= sizeof num)
			return bad(c, text, t[i].text, "expected a count");
		memcpy(num, t[i].text, t[i].len);
		num[t[i].len] = '\0';
		if (pdb_parse_int64(num, 1, INT64_MAX, out) < 0)
			return bad(c, text, t[i].text, "expected a count");
	}
	while (p > text && p[-1] == ' ')
		p--;
	pdb_set_str(&c->name, NULL);
	c->name = pdb_xstrndup(text, (size_t)(p - text));
	r = pdb_run_add_result(c->run, c->name, "time", "s");
	c->benches = pdb_xrealloc(c->benches, (c->nbenches + 1) * sizeof *c->benches);
	c->benches[c->nbenches++] = pdb_xstrdup(c->name);
	pdb_result_set_stat(r, "n", (double)samples);
	pdb_result_set_stat(r, "iterations", (double)iters);
	est = pdb_xstrndup(t[2].text, (size_t)(t[3].text + t[3].len - t[2].text));
	pdb_attr_set_bench(c->run, "estimated", c->name, est);
	free(est);
	c->state = MEANS;
	return 0;
}

/* "V U  V U  V U": a statistic and its low and high bounds. */
static int bounds_line(struct catch2 *c, const char *text, const char *stat)
{
	static const char *const suffix[] = { "", "_ci_low", "_ci_high" };
	struct token t[6];
	struct pdb_result *r;
	char name[32];
	double v;

	if (!isspace((unsigned char)text[0]) || tokens(text, t, 6) != 6)
		return bad(c, text, text, c->state == MEANS ?
			   "expected 'mean  low mean  high mean' values with units" :
			   "expected 'std dev  low std dev  high std dev' values with units");
	r = pdb_run_add_result(c->run, c->name, "time", "s");
	for (int i = 0; i < 3; i++) {
		if (duration(c, text, &t[2 * i], &v) < 0)
			return -1;
		snprintf(name, sizeof name, "%s%s", stat, suffix[i]);
		pdb_result_set_stat(r, name, v);
	}
	return 0;
}

/* "X is a Catch v2.11.0 host application." */
static void version_line(struct catch2 *c, const char *text)
{
	const char *v = strstr(text, " is a Catch v");
	const char *end;

	if (!v || !(end = strstr(v, " host application")))
		return;
	v += strlen(" is a Catch v");
	{
		char *version = pdb_xstrndup(v, (size_t)(end - v));
		pdb_run_set_attr(c->run, "catch2.version", version);
		free(version);
	}
}

static int is_rule(const char *text)
{
	return text[0] && strspn(text, "-") == strlen(text);
}

static void test_case_release(struct catch2 *c)
{
	for (size_t i = 0; i < c->nbenches; i++)
		free(c->benches[i]);
	free(c->benches);
	c->benches = NULL;
	c->nbenches = 0;
	pdb_set_str(&c->test_case, NULL);
}

/* Outside a table: a test case's name between two rules, an assertion of
 * it that failed ("file:line: FAILED:": each of its benchmarks failed, as
 * the XML reporter's OverallResult says), the version. */
static void outside_line(struct catch2 *c, const char *text)
{
	int rule = is_rule(text);

	if (rule && c->title) {
		test_case_release(c);
		c->test_case = c->title;
		c->title = NULL;
	} else if (!rule) {
		pdb_set_str(&c->title, c->after_rule ? text : NULL);
	}
	c->after_rule = rule;
	if (strstr(text, ": FAILED:")) {
		char *why = pdb_xasprintf("test case '%s' failed", c->test_case ? c->test_case : "");
		for (size_t i = 0; i < c->nbenches; i++)
			pdb_run_add_failure(c->run, c->benches[i], NULL, 0, why);
		free(why);
	} else if (strncmp(text, "benchmark name ", 15) == 0) {
		c->state = HEADER;
	} else {
		version_line(c, text);
	}
}

static int text_line(void *ctx, char *text, size_t len)
{
	struct catch2 *c = ctx;
	size_t blank;

	if (memchr(text, '\0', len))
		return bad(c, text, text + strlen(text), "binary data (NUL byte)");
	while (len > 0 && (text[len - 1] == '\r' || text[len - 1] == '\n'))
		text[--len] = '\0';
	blank = strspn(text, " \t") == len;
	switch (c->state) {
	case OUTSIDE:
		outside_line(c, text);
		return 0;
	case HEADER:
		if (is_rule(text))
			c->state = TABLE;
		return 0;
	case TABLE:
		if (blank) {
			c->after_blank = 1;
			return 0;
		}
		if (is_rule(text) || strspn(text, "=") == len ||
		    (c->after_blank && strstr(text, ": FAILED:"))) {
			/* the table ended: the next test case, the summary, or a failed
			 * assertion after it */
			c->state = OUTSIDE;
			c->after_blank = 0;
			outside_line(c, text);
			return 0;
		}
		c->after_blank = 0;
		return entry_line(c, text);
	case MEANS:
		if (bounds_line(c, text, "mean") < 0)
			return -1;
		c->state = STDDEVS;
		return 0;
	case STDDEVS:
		if (bounds_line(c, text, "stddev") < 0)
			return -1;
		c->nbench++;
		c->state = TABLE;
		return 0;
	}
	return 0;
}

static int detect(const struct pdb_source *src)
{
	return pdb_head_has(src, "\nbenchmark name ") && pdb_head_has(src, "low mean") &&
	       pdb_head_has(src, "std dev") ? 90 : 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct catch2 c = { .src = src, .run = run, .err = err };
	int ret = pdb_text_read(src, text_line, &c, &c.line, err);

	if (ret == 0 && (c.state == MEANS || c.state == STDDEVS))
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)c.line + 1, 1,
				 "truncated: expected the %s line of '%s'",
				 c.state == MEANS ? "mean" : "std dev", c.name);
	else if (ret == 0 && c.nbench == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0,
				 "no benchmark results (a 'benchmark name  samples ...' table)");
	if (ret == 0)
		pdb_set_str(&run->tool, "catch2");
	test_case_release(&c);
	free(c.title);
	free(c.name);
	return ret;
}

const struct pdb_format pdb_format_catch2 = {
	.name = "catch2",
	.summary = "Catch2 console benchmark tables: mean and std dev with their bounds as stats",
	.detect = detect,
	.parse = parse,
};
