/* Format: Rust libtest `cargo bench` text ("test NAME ... bench: N ns/iter (+/- D)"). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "parse/text_util.h"
#include "util.h"

struct cargo {
	const struct pdb_source *src;
	struct pdb_run *run;
	long line;
	long nbench;
	struct pdb_err *err;
};

static int bad(struct cargo *c, const char *text, const char *at, const char *what)
{
	return pdb_err_at(c->err, PDB_EXIT_INPUT, c->src->name, (int)c->line,
			  (int)(at - text) + 1, "%s", what);
}

/* A number with ',' thousands separators ("13,967,756.30") at *p; moves *p
 * past it. 0, or -1 when there is no number there. */
static int number(const char **p, double *out)
{
	char buf[64];
	size_t n = 0;
	const char *q = *p;

	for (; isdigit((unsigned char)*q) || *q == ',' || *q == '.'; q++) {
		if (*q == ',')
			continue;
		if (n + 1 >= sizeof buf)
			return -1;
		buf[n++] = *q;
	}
	buf[n] = '\0';
	if (n == 0 || (*p)[0] == ',' || q[-1] == ',' || pdb_parse_double(buf, out) < 0)
		return -1;
	*p = q;
	return 0;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A time per iteration is metric time; "X/iter" (cycles/iter) is metric X,
 * lower is better; other units (a rate such as "MS/s") name the metric
 * and keep their own sense. */
static struct pdb_result *result_for(struct pdb_run *run, const char *name,
				     const char *unit)
{
	struct pdb_unit u;
	struct pdb_result *r;
	size_t n = strlen(unit);
	char *metric;

	pdb_unit_parse(unit, &u);
	if (u.known && strcmp(u.canonical, "s") == 0)
		return pdb_run_add_result(run, name, "time", unit);
	if (n <= 5 || strcmp(unit + n - 5, "/iter") != 0)
		return pdb_run_add_result(run, name, unit, unit);
	metric = pdb_xstrndup(unit, n - 5);
	r = pdb_run_add_result(run, name, metric, unit);
	r->direction = PDB_DIR_LOWER;
	free(metric);
	return r;
}

/* After "bench:": "VALUE UNIT (+/- DEV)" and optionally " = N MB/s". */
static int bench_values(struct cargo *c, const char *text, const char *p, const char *name)
{
	const char *unit_start;
	char *unit = NULL;
	struct pdb_result *r;
	double value, dev, mbs;
	int ret = -1;

	p = skip_blanks(p);
	if (number(&p, &value) < 0)
		return bad(c, text, p, "expected a number after 'bench:'");
	p = skip_blanks(p);
	unit_start = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	if (p == unit_start)
		return bad(c, text, p, "expected a unit after the value");
	unit = pdb_xstrndup(unit_start, (size_t)(p - unit_start));
	p = skip_blanks(p);
	if (strncmp(p, "(+/-", 4) != 0) {
		bad(c, text, p, "expected '(+/- DEVIATION)' after the unit");
		goto out;
	}
	p = skip_blanks(p + 4);
	if (number(&p, &dev) < 0 || *p != ')') {
		bad(c, text, p, "expected a number and ')' after '(+/-'");
		goto out;
	}
	r = result_for(c->run, name, unit);
	pdb_result_add_raw(r, value);
	pdb_result_set_stat_raw(r, "deviation", dev);
	p = skip_blanks(p + 1);
	if (*p == '=') {
		p = skip_blanks(p + 1);
		if (number(&p, &mbs) < 0 || strcmp(skip_blanks(p), "MB/s") != 0) {
			bad(c, text, p, "expected 'N MB/s' after '='");
			goto out;
		}
		pdb_result_add_raw(pdb_run_add_result(c->run, name, "throughput", "MB/s"), mbs);
	} else if (*p) {
		bad(c, text, p, "unexpected text after the deviation");
		goto out;
	}
	c->nbench++;
	ret = 0;
out:
	free(unit);
	return ret;
}

/* One line without its newline: only "test NAME ... bench: ..." lines
 * carry results ("... ok", "... ignored" and the rest are skipped). */
static int text_line(void *ctx, char *text, size_t len)
{
	struct cargo *c = ctx;
	const char *name, *dots, *p;
	char *bench;
	int ret;

	if (memchr(text, '\0', len))
		return bad(c, text, text + strlen(text), "binary data (NUL byte)");
	while (len > 0 && (text[len - 1] == '\r' || text[len - 1] == '\n' ||
			   text[len - 1] == ' '))
		text[--len] = '\0';
	if (strncmp(text, "test ", 5) != 0 || !(dots = strstr(text, " ... ")))
		return 0;
	p = skip_blanks(dots + 5);
	if (strncmp(p, "bench:", 6) != 0)
		return 0;
	name = skip_blanks(text + 5);
	if (name == dots)
		return bad(c, text, name, "expected a benchmark name after 'test'");
	bench = pdb_xstrndup(name, (size_t)(dots - name));
	while (bench[0] && bench[strlen(bench) - 1] == ' ')
		bench[strlen(bench) - 1] = '\0';
	ret = bench_values(c, text, p + 6, bench);
	free(bench);
	return ret;
}

static int detect(const struct pdb_source *src)
{
	const char *p = (const char *)src->head;

	for (; p && (p = strstr(p, "test ")); p += 5) {
		const char *nl = strchr(p, '\n'), *dots = strstr(p, " ... bench:");
		if ((p == (const char *)src->head || p[-1] == '\n') && dots &&
		    (!nl || dots < nl))
			return 90;
	}
	return 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct cargo c = { .src = src, .run = run, .err = err };
	int ret = pdb_text_read(src, text_line, &c, &c.line, err);

	if (ret == 0 && c.nbench == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0,
				 "no benchmark results ('test NAME ... bench: N ns/iter (+/- D)')");
	if (ret == 0)
		pdb_set_str(&run->tool, "cargo-bench");
	return ret;
}

const struct pdb_format pdb_format_cargo_bench = {
	.name = "cargo-bench",
	.summary = "cargo bench (libtest) text: each result line a sample of time, +/- as stat deviation",
	.detect = detect,
	.parse = parse,
};
