/* Format: cachegrind and callgrind output files (the summary's events, per-function totals). */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "parse/json_util.h"
#include "parse/text_util.h"
#include "util.h"

#define MAXEVENTS 64
#define MAXID 10000000L /* a compressed name's (id): callgrind numbers them from 1 */

/* The names callgrind compresses as "(id) name", one table per kind. */
enum { NAME_FILE, NAME_FN, NAME_OBJ, NKINDS };

struct names {
	char **v;
	size_t cap;
};

struct func {
	char *file, *fn;
	double cost[MAXEVENTS];
};

struct vg {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	const char *tool;       /* "cachegrind" or "callgrind": benchmark and attribute prefix */
	int callgrind;
	long line;
	char *text;             /* the line being read, for columns */
	char *events[MAXEVENTS];
	size_t nevents;
	size_t npos;            /* position columns of a cost line */
	double summary[MAXEVENTS], totals[MAXEVENTS];
	int has_summary, has_totals;
	int eol;                    /* the last line read ended with a newline */
	struct pdb_buf desc;
	struct names names[NKINDS];
	char *file, *fn;        /* fl=/fi=/fe= and fn= in force */
	long cur;               /* the function cost lines add to, -1 before fn= */
	int call_cost;          /* the next cost line is a call's (inclusive): not the function's own */
	struct func *funcs;
	size_t nfuncs, capfuncs;
	long *slots;            /* hash of funcs by (file, fn): index + 1, 0 empty */
	size_t nslots;
};

static int bad(struct vg *g, const char *at, const char *what)
{
	return pdb_err_at(g->err, PDB_EXIT_INPUT, g->src->name, (int)g->line,
			  (int)(at - g->text) + 1, "%s", what);
}

static int detect_cachegrind(const struct pdb_source *src)
{
	const char *p = (const char *)src->head;

	if (!p || pdb_head_has(src, "creator: callgrind"))
		return 0;
	while (strncmp(p, "desc: ", 6) == 0 && strchr(p, '\n'))
		p = strchr(p, '\n') + 1;
	return strncmp(p, "cmd: ", 5) == 0 && pdb_head_has(src, "\nevents: ") ? 90 : 0;
}

static int detect_callgrind(const struct pdb_source *src)
{
	if (!src->head)
		return 0;
	if (strncmp((const char *)src->head, "# callgrind format\n", 19) == 0)
		return 95;
	return pdb_head_has(src, "\ncreator: callgrind-") && pdb_head_has(src, "\nevents: ") ? 90 : 0;
}

static uint64_t hash(const char *a, const char *b)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *a; a++)
		h = (h ^ (unsigned char)*a) * 1099511628211ULL;
	h = (h ^ 1) * 1099511628211ULL;
	for (; *b; b++)
		h = (h ^ (unsigned char)*b) * 1099511628211ULL;
	return h;
}

static size_t slot_of(const struct vg *g, const char *file, const char *fn)
{
	size_t i = (size_t)(hash(file, fn) & (g->nslots - 1));

	while (g->slots[i]) {
		const struct func *f = &g->funcs[g->slots[i] - 1];
		if (strcmp(f->file, file) == 0 && strcmp(f->fn, fn) == 0)
			break;
		i = (i + 1) & (g->nslots - 1);
	}
	return i;
}

/* The function (file, fn) that cost lines now add to. */
static void enter(struct vg *g)
{
	size_t i;

	if (g->nfuncs * 2 >= g->nslots) {
		size_t n = g->nslots ? g->nslots * 2 : 1024;
		free(g->slots);
		g->slots = pdb_xcalloc(n, sizeof *g->slots);
		g->nslots = n;
		for (size_t k = 0; k < g->nfuncs; k++)
			g->slots[slot_of(g, g->funcs[k].file, g->funcs[k].fn)] = (long)k + 1;
	}
	i = slot_of(g, g->file ? g->file : "", g->fn);
	if (!g->slots[i]) {
		pdb_grow((void **)&g->funcs, &g->capfuncs, g->nfuncs + 1, sizeof *g->funcs);
		memset(&g->funcs[g->nfuncs], 0, sizeof *g->funcs);
		g->funcs[g->nfuncs].file = pdb_xstrdup(g->file ? g->file : "");
		g->funcs[g->nfuncs].fn = pdb_xstrdup(g->fn);
		g->slots[i] = (long)++g->nfuncs;
	}
	g->cur = g->slots[i] - 1;
}

/* The name of "fn=NAME", or callgrind's "(id) NAME" (defines id) and "(id)". */
static int name_of(struct vg *g, int kind, char *p, char **out)
{
	struct names *t = &g->names[kind];
	char *end;
	long id;

	if (!g->callgrind || p[0] != '(' || !isdigit((unsigned char)p[1])) {
		*out = p;
		return 0;
	}
	id = strtol(p + 1, &end, 10);
	if (*end != ')' || id < 0 || id > MAXID)
		return bad(g, p, "expected a compressed name, (NUMBER) NAME");
	if (end[1] == ' ') {
		if ((size_t)id >= t->cap) {
			size_t old = t->cap;
			pdb_grow((void **)&t->v, &t->cap, (size_t)id + 1, sizeof *t->v);
			memset(t->v + old, 0, (t->cap - old) * sizeof *t->v);
		}
		free(t->v[id]);
		t->v[id] = pdb_xstrdup(end + 2);
	} else if (end[1] != '\0')
		return bad(g, end + 1, "expected a blank and the name after (NUMBER)");
	if ((size_t)id >= t->cap || !t->v[id])
		return bad(g, p, "a compressed name (NUMBER) used before it is given");
	*out = t->v[id];
	return 0;
}

/* Counts of an events, summary or totals line into out: "." or missing
 * ones are 0 (both tools' annotate read them so); more than the events is
 * an error, and so are fewer when exact. */
static int counts(struct vg *g, char *p, double *out, int exact, const char *what)
{
	size_t n = 0;

	memset(out, 0, sizeof(double) * MAXEVENTS);
	for (p += strspn(p, " "); *p; p += strspn(p, " ")) {
		char *e = p + strcspn(p, " ");
		if (n == g->nevents)
			return bad(g, p, "more counts than the events line names");
		if (!(e - p == 1 && *p == '.')) {
			char *end;
			unsigned long long v = strtoull(p, &end, 10);
			if (end != e || !isdigit((unsigned char)*p))
				return bad(g, p, "expected a count");
			out[n] = (double)v;
		}
		n++;
		p = e;
	}
	if (exact && n != g->nevents) {
		char *msg = pdb_xasprintf("the %s gives %zu counts for the %zu events", what, n,
					  g->nevents);
		int ret = bad(g, p, msg);
		free(msg);
		return ret;
	}
	return 0;
}

/* A cost line: its positions, then counts added to the function in force. */
static int cost_line(struct vg *g, char *p)
{
	double c[MAXEVENTS];

	if (!g->nevents)
		return bad(g, p, "a cost line before the events line");
	if (g->cur < 0)
		return bad(g, p, "a cost line before fn=");
	for (size_t i = 0; i < g->npos; i++) {
		char *e = p + strcspn(p, " ");
		size_t n = (size_t)(e - p);
		int ok = n > 0 && strspn(p, "0123456789") == n;
		if (g->callgrind && !ok)
			ok = (n == 1 && *p == '*') ||
			     (n > 1 && (*p == '+' || *p == '-') && strspn(p + 1, "0123456789") == n - 1) ||
			     (n > 2 && p[0] == '0' && p[1] == 'x' &&
			      strspn(p + 2, "0123456789abcdefABCDEF") == n - 2);
		if (!ok)
			return bad(g, p, "expected a position (a line number)");
		p = e + strspn(e, " ");
	}
	if (counts(g, p, c, 0, "cost line") < 0)
		return -1;
	if (g->call_cost) {
		g->call_cost = 0;
		return 0;
	}
	for (size_t i = 0; i < g->nevents; i++)
		g->funcs[g->cur].cost[i] += c[i];
	return 0;
}

static int events_line(struct vg *g, char *p)
{
	if (g->nevents)
		return bad(g, p, "a second events line");
	for (p += strspn(p, " "); *p; p += strspn(p, " ")) {
		char *e = p + strcspn(p, " ");
		if (g->nevents == MAXEVENTS)
			return bad(g, p, "more than 64 events");
		g->events[g->nevents++] = pdb_xstrndup(p, (size_t)(e - p));
		p = e;
	}
	if (!g->nevents)
		return bad(g, p, "expected the events' names");
	return 0;
}

/* An attribute TOOL.KEY; a file read after another one (several files, a
 * --trace-children folder) adds its value on a line of its own when it differs. */
static void note(struct vg *g, const char *key, const char *value)
{
	char *k = pdb_xasprintf("%s.%s", g->tool, key);
	const char *old = pdb_run_get_attr(g->run, k);

	if (!old)
		pdb_run_set_attr(g->run, k, value);
	else {
		size_t n = strlen(value);
		const char *at = strstr(old, value);
		int has = 0;
		for (; at && !has; at = *at ? strstr(at + 1, value) : NULL) /* "" is found at the end too */
			has = (at == old || at[-1] == '\n') && (at[n] == '\n' || at[n] == '\0');
		if (!has) {
			char *both = pdb_xasprintf("%s\n%s", old, value);
			pdb_run_set_attr(g->run, k, both);
			free(both);
		}
	}
	free(k);
}

/* "KEY: VALUE" lines: 1 (read, or -1 with err) when line is one, else 0. */
static int header(struct vg *g, char *line, int *ret)
{
	static const char *const cg_only[] = { "version", "creator", "pid", "part", "thread",
		"positions", "event", NULL };
	size_t klen = strspn(line, "abcdefghijklmnopqrstuvwxyz");
	char *v;

	if (klen == 0 || line[klen] != ':')
		return 0;
	v = line + klen + 1;
	v += strspn(v, " ");
	*ret = 0;
	if (strncmp(line, "desc", klen) == 0 && klen == 4) {
		if (g->desc.len)
			pdb_buf_add(&g->desc, "\n", 1);
		pdb_buf_puts(&g->desc, v);
	} else if (strncmp(line, "cmd", klen) == 0 && klen == 3)
		note(g, "cmd", v);
	else if (strncmp(line, "events", klen) == 0 && klen == 6)
		*ret = events_line(g, v);
	else if ((strncmp(line, "summary", klen) == 0 && klen == 7) ||
		 (strncmp(line, "totals", klen) == 0 && klen == 6 && g->callgrind)) {
		int sum = klen == 7;
		if (!g->nevents)
			*ret = bad(g, line, "a summary before the events line");
		else if (sum ? g->has_summary : g->has_totals)
			*ret = bad(g, line, sum ? "a second summary line" : "a second totals line");
		else
			*ret = counts(g, v, sum ? g->summary : g->totals, !g->callgrind,
				      sum ? "summary" : "totals line");
		if (*ret == 0)
			*(sum ? &g->has_summary : &g->has_totals) = 1;
	} else {
		size_t i = 0;
		while (g->callgrind && cg_only[i] &&
		       !(strncmp(line, cg_only[i], klen) == 0 && strlen(cg_only[i]) == klen))
			i++;
		if (!g->callgrind || !cg_only[i]) {
			*ret = bad(g, line, g->callgrind ? "not a line of a callgrind file"
							 : "not a line of a cachegrind file");
			return 1;
		}
		if (i == 5) { /* positions: line, instr line, instr, ... */
			g->npos = 0;
			for (char *p = v; *p; p += strspn(p, " ")) {
				p += strcspn(p, " ");
				g->npos++;
			}
			if (!g->npos)
				*ret = bad(g, v, "expected the position names");
		}
		if (i != 6) /* event: a long name of an event */
			note(g, cg_only[i], v);
	}
	return 1;
}

/* "KEY=VALUE" lines of the body. */
static int spec_line(struct vg *g, char *line, char *eq)
{
	static const struct { const char *key; int kind, callgrind; } specs[] = {
		{ "fl", NAME_FILE, 0 }, { "fn", NAME_FN, 0 }, { "fi", NAME_FILE, 1 },
		{ "fe", NAME_FILE, 1 }, { "ob", NAME_OBJ, 1 }, { "cob", NAME_OBJ, 1 },
		{ "cfi", NAME_FILE, 1 }, { "cfl", NAME_FILE, 1 }, { "cfn", NAME_FN, 1 },
		{ "jfi", NAME_FILE, 1 }, { "jfn", NAME_FN, 1 },
	};
	size_t klen = (size_t)(eq - line);
	char *name = NULL;

	if (g->call_cost)
		return bad(g, line, "expected the call's cost line after calls=");
	if (g->callgrind && ((klen == 5 && strncmp(line, "calls", 5) == 0) ||
			     (klen == 4 && strncmp(line, "jump", 4) == 0) ||
			     (klen == 4 && strncmp(line, "jcnd", 4) == 0))) {
		if (!isdigit((unsigned char)eq[1]))
			return bad(g, eq + 1, "expected a count");
		g->call_cost = line[0] == 'c'; /* a jump has no cost line of its own */
		return 0;
	}
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		if (strlen(specs[i].key) != klen || strncmp(line, specs[i].key, klen) != 0 ||
		    (specs[i].callgrind && !g->callgrind))
			continue;
		if (name_of(g, specs[i].kind, eq + 1, &name) < 0)
			return -1;
		if (i == 0 || i == 2 || i == 3) { /* fl, fi, fe: the file in force */
			free(g->file);
			g->file = pdb_xstrdup(name);
			if (i == 0 && !g->callgrind)
				g->cur = -1; /* cachegrind: fn= follows */
			else if (i != 0 && g->fn)
				enter(g); /* callgrind_annotate: inlined code is FILE:FN */
		} else if (i == 1) {
			free(g->fn);
			g->fn = pdb_xstrdup(name);
			enter(g);
		}
		return 0;
	}
	return bad(g, line, g->callgrind ? "not a line of a callgrind file"
				     : "not a line of a cachegrind file (fl=, fn=)");
}

static int text_line(void *ctx, char *line, size_t len)
{
	struct vg *g = ctx;
	char *eq;
	int ret;

	if (memchr(line, '\0', len))
		return pdb_err_at(g->err, PDB_EXIT_INPUT, g->src->name, (int)g->line,
				  (int)strlen(line) + 1, "binary data (NUL byte)");
	g->eol = len > 0 && line[len - 1] == '\n';
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
		line[--len] = '\0';
	g->text = line;
	if (len == 0 || line[0] == '#')
		return 0;
	if (isdigit((unsigned char)line[0]) || line[0] == '+' || line[0] == '-' || line[0] == '*')
		return cost_line(g, line);
	if (header(g, line, &ret))
		return ret;
	if ((eq = strchr(line, '=')) && eq > line && strspn(line, "abcdefghijklmnopqrstuvwxyz") ==
	    (size_t)(eq - line))
		return spec_line(g, line, eq);
	return bad(g, line, g->callgrind ? "not a line of a callgrind file"
				     : "not a line of a cachegrind file");
}

static void add_series(struct vg *g)
{
	const double *total = g->has_summary ? g->summary : g->totals;

	for (size_t i = 0; i < g->nevents; i++) {
		struct pdb_result *r = pdb_run_series(g->run, g->tool, NULL, 0, g->events[i],
						      "count", PDB_DIR_LOWER);
		pdb_result_add_raw(r, total[i]);
		if (g->has_summary && g->has_totals)
			pdb_result_set_stat(r, "totals", g->totals[i]);
	}
	for (size_t k = 0; k < g->nfuncs; k++) {
		struct pdb_attr dims[2] = { { "file", g->funcs[k].file }, { "function", g->funcs[k].fn } };
		for (size_t i = 0; i < g->nevents; i++)
			pdb_result_add_raw(pdb_run_series(g->run, g->tool, dims, 2, g->events[i],
							  "count", PDB_DIR_NONE),
					   g->funcs[k].cost[i]);
	}
}

static int parse_as(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err,
		    int callgrind)
{
	struct vg g = { .src = src, .run = run, .err = err, .callgrind = callgrind, .npos = 1,
			.cur = -1, .tool = callgrind ? "callgrind" : "cachegrind" };
	int ret;

	pdb_buf_init(&g.desc);
	ret = pdb_text_read(src, text_line, &g, &g.line, err);
	if (ret == 0 && g.call_cost)
		ret = pdb_text_cut_short(src, err, "truncated: the file ends after calls=, before the "
					 "call's cost line");
	if (ret == 0 && !g.nevents)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)g.line, 0,
				 "no events line (a %s output file starts with it)", g.tool);
	if (ret == 0 && !(callgrind ? g.has_totals : g.has_summary))
		ret = pdb_text_cut_short(src, err, "truncated: no %s line (%s writes it last)",
					 callgrind ? "totals:" : "summary:", g.tool);
	/* the tool ends every line, its last one too: a last count without
	 * its newline may be cut (6599 read as 65) */
	if (ret == 0 && !g.eol)
		ret = pdb_text_cut_short(src, err, "truncated: the last line has no newline, so its "
					 "last count may be cut (%s ends every line)", g.tool);
	if (ret == 0) {
		if (g.desc.len)
			note(&g, "desc", g.desc.data);
		add_series(&g);
		pdb_set_str(&run->tool, g.tool);
	}
	for (size_t i = 0; i < g.nevents; i++)
		free(g.events[i]);
	for (int k = 0; k < NKINDS; k++) {
		for (size_t i = 0; i < g.names[k].cap; i++)
			free(g.names[k].v[i]);
		free(g.names[k].v);
	}
	for (size_t k = 0; k < g.nfuncs; k++) {
		free(g.funcs[k].file);
		free(g.funcs[k].fn);
	}
	free(g.funcs);
	free(g.slots);
	free(g.file);
	free(g.fn);
	pdb_buf_release(&g.desc);
	return ret;
}

static int parse_cachegrind(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	return parse_as(src, run, err, 0);
}

static int parse_callgrind(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	return parse_as(src, run, err, 1);
}

const struct pdb_format pdb_format_cachegrind = {
	.name = "cachegrind",
	.summary = "cachegrind.out files: the summary's events (Ir, D1mr, ...) as counts, "
		   "per-function totals as dims file and function",
	.detect = detect_cachegrind,
	.parse = parse_cachegrind,
};

const struct pdb_format pdb_format_callgrind = {
	.name = "callgrind",
	.summary = "callgrind.out files: the summary's events as counts, each function's own "
		   "cost as dims file and function",
	.detect = detect_callgrind,
	.parse = parse_callgrind,
};
