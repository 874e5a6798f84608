/* Format: criterion.rs console summary ("NAME  time:   [LOW EST HIGH]", optional "thrpt:"). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "parse/text_util.h"
#include "util.h"

enum state {
	OUTSIDE,   /* no result being read */
	RESULT,    /* after a time line: a thrpt line belongs to it */
	CHANGE,    /* in a "change:" block: relative numbers, skipped */
};

struct crit {
	const struct pdb_source *src;
	struct pdb_run *run;
	long line;
	long nbench;
	enum state state;
	char *name;       /* the benchmark of the last time line */
	char *prev;       /* the previous line when it started in column 1 */
	struct pdb_err *err;
};

static int bad(struct crit *c, const char *text, const char *at, const char *what)
{
	return pdb_err_at(c->err, PDB_EXIT_INPUT, c->src->name, (int)c->line,
			  (int)(at - text) + 1, "%s", what);
}

/* Criterion's time units (format::time): how many make a second, or 0.
 * Dividing keeps 228.36 ns exactly 2.2836e-07 s. */
static double per_second(const char *unit)
{
	static const struct { const char *name; double per; } units[] = {
		{ "ps", 1e12 }, { "ns", 1e9 }, { "µs", 1e6 }, { "us", 1e6 },
		{ "ms", 1e3 }, { "s", 1 },
	};

	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(unit, units[i].name) == 0)
			return units[i].per;
	return 0;
}

/* A throughput unit: elements ("Kelem/s") or bytes ("MiB/s") per second;
 * the canonical unit into canon and the scale, or 0 when unknown. */
static double thrpt_scale(const char *unit, const char **canon)
{
	static const struct { const char *prefix; double scale; } elem[] = {
		{ "", 1 }, { "K", 1e3 }, { "M", 1e6 }, { "G", 1e9 },
	};
	size_t n = strlen(unit);
	struct pdb_unit u;

	if (n >= 6 && strcmp(unit + n - 6, "elem/s") == 0) {
		for (size_t i = 0; i < sizeof elem / sizeof elem[0]; i++)
			if (strlen(elem[i].prefix) == n - 6 &&
			    strncmp(unit, elem[i].prefix, n - 6) == 0) {
				*canon = "elem/s";
				return elem[i].scale;
			}
		return 0;
	}
	if (pdb_unit_parse(unit, &u) < 0 || strcmp(u.canonical, "B/s") != 0)
		return 0;
	*canon = "B/s";
	return u.scale;
}

/* "[V U V U V U]" at p: three values, each converted by its own unit
 * (criterion picks the unit per value). is_time selects the unit table. */
static int triple(struct crit *c, const char *text, const char *p, int is_time,
		  double out[3], const char **canon)
{
	char tok[32];

	if (*p != '[')
		return bad(c, text, p, "expected '['");
	p++;
	for (int i = 0; i < 3; i++) {
		const char *start;
		double scale;
		size_t n;
		for (int part = 0; part < 2; part++) {
			while (*p == ' ')
				p++;
			start = p;
			while (*p && *p != ' ' && *p != ']')
				p++;
			n = (size_t)(p - start);
			if (n == 0 || n >= sizeof tok)
				return bad(c, text, start, part ? "expected a unit" : "expected a number");
			memcpy(tok, start, n);
			tok[n] = '\0';
			if (part == 0 && pdb_parse_double(tok, &out[i]) < 0)
				return bad(c, text, start, "expected a number");
		}
		*canon = "s";
		scale = is_time ? per_second(tok) : thrpt_scale(tok, canon);
		if (scale == 0)
			return bad(c, text, start, is_time ? "unknown time unit" :
				   "unknown throughput unit");
		out[i] = is_time ? out[i] / scale : out[i] * scale;
	}
	if (*p != ']')
		return bad(c, text, p, "expected ']' after three values");
	return 0;
}

static void set_stats(struct pdb_result *r, const double v[3])
{
	pdb_result_set_stat(r, "mean_ci_low", v[0]);
	pdb_result_set_stat(r, "mean", v[1]);
	pdb_result_set_stat(r, "mean_ci_high", v[2]);
}

/* "time:   [...]" at p for the benchmark name. */
static int time_line(struct crit *c, const char *text, const char *p, const char *name)
{
	const char *canon;
	double v[3];

	if (triple(c, text, p, 1, v, &canon) < 0)
		return -1;
	pdb_set_str(&c->name, name);
	set_stats(pdb_run_add_result(c->run, name, "time", "s"), v);
	c->state = RESULT;
	c->nbench++;
	return 0;
}

static const char *after_label(const char *p, const char *label)
{
	size_t n = strlen(label);

	if (strncmp(p, label, n) != 0)
		return NULL;
	for (p += n; *p == ' '; p++)
		;
	return p;
}

/* A line starting in column 1: "NAME<spaces>time:   [...]" or other text
 * (a long name goes on its own line, its time line follows indented). */
static int column1_line(struct crit *c, const char *text)
{
	const char *t = NULL, *q, *v, *end;
	char *name;
	int ret;

	for (q = text; (q = strstr(q, " time:")); q++)
		t = q;
	c->state = OUTSIDE;
	v = t ? after_label(t + 1, "time:") : NULL;
	if (!v || *v != '[') {
		pdb_set_str(&c->prev, text);
		return 0;
	}
	for (end = t; end > text && end[-1] == ' '; end--)
		;
	name = pdb_xstrndup(text, (size_t)(end - text));
	ret = time_line(c, text, v, name);
	free(name);
	pdb_set_str(&c->prev, NULL);
	return ret;
}

static int indented_line(struct crit *c, const char *text)
{
	const char *p = text + strspn(text, " \t"), *v;
	const char *canon;
	double t[3];
	struct pdb_result *r;

	if (after_label(p, "change:")) {
		c->state = CHANGE;
		return 0;
	}
	if (c->state == CHANGE)
		return 0;
	if ((v = after_label(p, "time:"))) {
		if (!c->prev)
			return bad(c, text, p, "expected the benchmark name before 'time:'");
		return time_line(c, text, v, c->prev);
	}
	if ((v = after_label(p, "thrpt:"))) {
		if (c->state != RESULT)
			return bad(c, text, p, "expected a 'time:' line before 'thrpt:'");
		if (triple(c, text, v, 0, t, &canon) < 0)
			return -1;
		r = pdb_run_add_result(c->run, c->name, "throughput", canon);
		set_stats(r, t);
	}
	return 0;
}

static int text_line(void *ctx, char *text, size_t len)
{
	struct crit *c = ctx;
	int ret;

	if (memchr(text, '\0', len))
		return bad(c, text, text + strlen(text), "binary data (NUL byte)");
	while (len > 0 && (text[len - 1] == '\r' || text[len - 1] == '\n' ||
			   text[len - 1] == ' '))
		text[--len] = '\0';
	if (len == 0) {
		c->state = OUTSIDE;
		pdb_set_str(&c->prev, NULL);
		return 0;
	}
	if (isspace((unsigned char)text[0]))
		ret = indented_line(c, text);
	else
		ret = column1_line(c, text);
	if (isspace((unsigned char)text[0]))
		pdb_set_str(&c->prev, NULL);
	return ret;
}

static int detect(const struct pdb_source *src)
{
	const char *head = (const char *)src->head;

	return head && strstr(head, "time:   [") &&
	       (strstr(head, "\nBenchmarking ") || strncmp(head, "Benchmarking ", 13) == 0) ?
	       90 : 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct crit c = { .src = src, .run = run, .err = err };
	int ret = pdb_text_read(src, text_line, &c, &c.line, err);

	if (ret == 0 && c.nbench == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0,
				 "no benchmark results ('NAME  time:   [LOW ESTIMATE HIGH]')");
	if (ret == 0)
		pdb_set_str(&run->tool, "criterion");
	free(c.name);
	free(c.prev);
	return ret;
}

const struct pdb_format pdb_format_criterion_stdout = {
	.name = "criterion-stdout",
	.summary = "criterion.rs cargo bench console summary: time and thrpt intervals as stats",
	.detect = detect,
	.parse = parse,
};
