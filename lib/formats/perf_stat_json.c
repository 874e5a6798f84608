/* Format: perf stat -j, JSON lines (one object per counter; -r variance, -I intervals, -A per CPU). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/perf_count.h"
#include "parse/json_util.h"
#include "parse/text_util.h"
#include "util.h"

struct reader {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	long line;
	long counts;
	int interval;   /* -1 until the first object says */
	size_t dups_said; /* keys given twice said so far in the file */
	const char *text; /* the line being read, for positions */
	size_t len;
};

/* The keys perf 6.1 writes in a counter's object; any other (--per-socket's
 * "socket", a cgroup) names counts this reader would merge. */
static const char *const known[] = { "interval", "cpu", "counter-value", "unit", "event",
	"variance", "event-runtime", "pcnt-running", "metric-value", "metric-unit", NULL };

/* FILE:LINE:COL at the value of path ("$.unit") in the line, or at its start. */
static int bad(struct reader *rd, const char *path, const char *what)
{
	struct pdb_json_pos at = { 1, 1 };

	if (pdb_json_path_pos(rd->text, rd->len, path, &at) < 0)
		at.col = 1;
	return pdb_err_at(rd->err, PDB_EXIT_INPUT, rd->src->name, (int)rd->line, at.col, "%s: %s",
			  path, what);
}

static int detect(const struct pdb_source *src)
{
	const char *p = (const char *)src->head;

	if (!p)
		return 0;
	while (*p == '#' || *p == '\n' || *p == '\r') { /* "# started on" and blank lines */
		const char *nl = strchr(p, '\n');
		if (!nl)
			return 0;
		p = nl + 1;
	}
	return *p == '{' && pdb_head_has(src, "\"counter-value\" : ") ? 95 : 0;
}

/* A string at key, NULL when absent and not needed (*ret untouched), or
 * NULL with *ret -1 and err. */
static const char *str_of(struct reader *rd, json_t *o, const char *key, int need, int *ret)
{
	json_t *v = json_object_get(o, key);
	char path[64];

	if (json_is_string(v))
		return json_string_value(v);
	if (!v && !need)
		return NULL;
	if (!v) {
		*ret = pdb_err_at(rd->err, PDB_EXIT_INPUT, rd->src->name, (int)rd->line, 1,
				  "expected \"%s\" in every counter's object", key);
		return NULL;
	}
	snprintf(path, sizeof path, "$.%s", key);
	*ret = bad(rd, path, "expected a string");
	return NULL;
}

/* A number at key, NaN when absent and not needed; -1 with err when not a
 * finite number at least min. */
static int num_of(struct reader *rd, json_t *o, const char *key, int need, double min,
		  double *out)
{
	json_t *v = json_object_get(o, key);
	char path[64];

	*out = NAN;
	if (!v && !need)
		return 0;
	if (!v)
		return pdb_err_at(rd->err, PDB_EXIT_INPUT, rd->src->name, (int)rd->line, 1,
				  "expected \"%s\" in every counter's object", key);
	snprintf(path, sizeof path, "$.%s", key);
	if (!json_is_number(v) || !isfinite(*out = json_number_value(v)) || *out < min)
		return bad(rd, path, min == 0 ? "expected a number, 0 or more" : "expected a number");
	return 0;
}

/* Every key a line's object gives twice, said at its place (the last value
 * is kept), up to PDB_JSON_DUPS_SAID of a file. */
static void note_twice(struct reader *rd)
{
	struct pdb_json_dup *dups;
	size_t n = pdb_json_duplicate_keys(rd->text, rd->len, &dups);

	for (size_t i = 0; i < n; i++)
		dups[i].again.line = dups[i].first_value.line = (int)rd->line;
	pdb_json_say_duplicates(rd->src->warnings, dups, n, &rd->dups_said);
	pdb_json_dups_free(dups, n);
}

static int counter(struct reader *rd, json_t *o)
{
	struct pdb_perf_count c = PDB_PERF_COUNT;
	const char *value = NULL, *key, *munit;
	char *metric = NULL;
	double mvalue;
	json_t *v;
	int ret = 0;

	json_object_foreach(o, key, v) {
		size_t i = 0;
		while (known[i] && strcmp(known[i], key) != 0)
			i++;
		if (!known[i]) {
			char *path = pdb_xasprintf("$.%s", key);
			ret = bad(rd, path, "a key perf stat -j writes in no mode perfdb reads "
				  "(-r, -I, -a, -A)");
			free(path);
			return ret;
		}
	}
	c.event = str_of(rd, o, "event", 1, &ret);
	if (c.event && !*c.event)
		return bad(rd, "$.event", "empty event name");
	if (ret == 0)
		value = str_of(rd, o, "counter-value", 1, &ret);
	if (ret == 0)
		c.unit = str_of(rd, o, "unit", 1, &ret);
	if (ret == 0)
		c.cpu = str_of(rd, o, "cpu", 0, &ret);
	if (ret == 0 && c.cpu && (!*c.cpu || strspn(c.cpu, "0123456789") != strlen(c.cpu)))
		return bad(rd, "$.cpu", "expected a CPU number");
	if (ret < 0 || num_of(rd, o, "interval", 0, 0, &c.t) < 0 ||
	    num_of(rd, o, "variance", 0, 0, &c.noise) < 0 ||
	    num_of(rd, o, "event-runtime", 1, 0, &c.runtime_ns) < 0 ||
	    num_of(rd, o, "pcnt-running", 1, 0, &c.pct) < 0 ||
	    num_of(rd, o, "metric-value", 0, -INFINITY, &mvalue) < 0)
		return -1;
	munit = str_of(rd, o, "metric-unit", 0, &ret);
	if (ret < 0)
		return -1;
	if (rd->interval < 0)
		rd->interval = !isnan(c.t);
	else if (rd->interval != !isnan(c.t))
		return bad(rd, "$", rd->interval ? "expected \"interval\", as in the objects before"
						 : "an \"interval\" here but not in the objects before");
	if (pdb_perf_is_missing(value))
		c.missing = value;
	else if (pdb_parse_double(value, &c.value) < 0 || !isfinite(c.value))
		return bad(rd, "$.counter-value", "expected a count, <not supported> or <not counted>");
	if (munit && *munit) {
		char num[32];
		if (isnan(mvalue))
			return bad(rd, "$.metric-unit", "a metric unit without \"metric-value\"");
		pdb_fmt_double(mvalue, num);
		c.metric = metric = pdb_xasprintf("%s %s", num, munit);
	}
	rd->counts++;
	pdb_perf_count_add(rd->run, &c);
	free(metric);
	return 0;
}

static int text_line(void *ctx, char *line, size_t len)
{
	struct reader *rd = ctx;
	json_error_t jerr;
	json_t *o;
	int ret;

	if (memchr(line, '\0', len))
		return pdb_err_at(rd->err, PDB_EXIT_INPUT, rd->src->name, (int)rd->line,
				  (int)strlen(line) + 1, "binary data (NUL byte), not JSON");
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	if (strspn(line, " \t") == len || pdb_perf_comment(rd->run, line))
		return 0;
	if (!(o = json_loadb(line, len, 0, &jerr)))
		return pdb_err_at(rd->err, PDB_EXIT_INPUT, rd->src->name, (int)rd->line,
				  jerr.column > 0 ? jerr.column : 1, "%s", jerr.text);
	rd->text = line;
	rd->len = len;
	if (!json_is_object(o))
		ret = bad(rd, "$", "expected a counter's object (perf stat -j)");
	else {
		note_twice(rd);
		ret = counter(rd, o);
	}
	json_decref(o);
	return ret;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct reader rd = { .src = src, .run = run, .err = err, .interval = -1 };
	int ret = pdb_text_read(src, text_line, &rd, &rd.line, err);

	if (ret == 0 && rd.counts == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)rd.line, 0,
				 "no counter objects (perf stat -j output)");
	if (ret == 0)
		pdb_json_say_more_duplicates(src->warnings, rd.dups_said);
	if (ret == 0)
		pdb_perf_set_tool(run);
	return ret;
}

const struct pdb_format pdb_format_perf_stat_json = {
	.name = "perf-stat-json",
	.summary = "perf stat -j JSON lines: the same series as perf-stat (-x,), one per event",
	.detect = detect,
	.parse = parse,
};
