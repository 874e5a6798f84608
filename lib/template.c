/* Templates: {{name}} placeholders and {{#name}}...{{/name}} blocks filled from variables. */
#include "template.h"

#include <ctype.h>
#include <string.h>

#define MAX_DEPTH 16

struct tag {
	char kind;          /* 0: value, '#': open block, '/': close block */
	const char *name;   /* into the template, len bytes */
	size_t len;
	const char *start, *end; /* the whole tag, end one past "}}" */
};

struct filler {
	const char *tmpl, *source;
	const struct pdb_template_var *vars;
	size_t nvars;
	struct pdb_err *err;
};

static int fail_at(const struct filler *f, const char *at, const char *what,
		   const char *name, size_t len)
{
	int line = 1, col = 1;

	for (const char *p = f->tmpl; p < at; p++) {
		if (*p == '\n') {
			line++;
			col = 1;
		} else if (((unsigned char)*p & 0xc0) != 0x80) {
			col++;
		}
	}
	return pdb_err_at(f->err, PDB_EXIT_INPUT, f->source, line, col, "%s%s%.*s%s", what,
			  len ? " '" : "", (int)len, name ? name : "", len ? "'" : "");
}

/* Parse the tag at p (which starts with "{{"). */
static int parse_tag(const struct filler *f, const char *p, struct tag *t)
{
	const char *q = p + 2;

	t->start = p;
	t->kind = 0;
	if (*q == '#' || *q == '/')
		t->kind = *q++;
	t->name = q;
	while (isalnum((unsigned char)*q) || *q == '_')
		q++;
	t->len = (size_t)(q - t->name);
	if (t->len == 0 || q[0] != '}' || q[1] != '}')
		return fail_at(f, p, "'{{' starts no {{name}}, {{#name}} or {{/name}} tag", NULL, 0);
	t->end = q + 2;
	return 0;
}

static const struct pdb_template_var *lookup(const struct filler *f, const struct tag *t)
{
	for (size_t i = 0; i < f->nvars; i++)
		if (strlen(f->vars[i].name) == t->len &&
		    memcmp(f->vars[i].name, t->name, t->len) == 0)
			return &f->vars[i];
	return NULL;
}

/* A block tag alone on its line: drop the indentation already written to
 * out (when not NULL) and return where to go on after the line's end;
 * else t->end. */
static const char *standalone(const struct tag *t, const char *line_start, struct pdb_buf *out)
{
	const char *p = t->end;
	size_t back = 0;

	for (const char *q = line_start; q < t->start; q++)
		if (*q != ' ' && *q != '\t')
			return t->end;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\r')
		p++;
	if (*p != '\n' && *p != '\0')
		return t->end;
	back = (size_t)(t->start - line_start);
	if (out && back <= out->len) {
		out->len -= back;
		out->data[out->len] = '\0';
	}
	return *p ? p + 1 : p;
}

/* The end of the block opened by open: after its matching {{/name}}. */
static int skip_block(const struct filler *f, const struct tag *open, const char **resume,
		      const char **line_start)
{
	const char *p = open->end;
	int depth = 0;
	struct tag t;

	while ((p = strstr(p, "{{")) != NULL) {
		if (parse_tag(f, p, &t) < 0)
			return -1;
		if (t.kind && t.len == open->len && memcmp(t.name, open->name, t.len) == 0) {
			if (t.kind == '#') {
				depth++;
			} else if (depth-- == 0) {
				const char *ls = t.start;
				while (ls > f->tmpl && ls[-1] != '\n')
					ls--;
				*line_start = ls;
				*resume = t.end;
				return 0;
			}
		}
		p = t.end;
	}
	return fail_at(f, open->start, "unclosed block", open->name, open->len);
}

int pdb_template_fill(const char *tmpl, const char *source,
		      const struct pdb_template_var *vars, size_t nvars,
		      struct pdb_buf *out, struct pdb_err *err)
{
	struct filler f = { tmpl, source, vars, nvars, err };
	struct tag open[MAX_DEPTH];
	size_t depth = 0;
	const char *p = tmpl, *line = tmpl;

	pdb_buf_puts(out, "");
	while (*p) {
		const struct pdb_template_var *v;
		const char *next = strstr(p, "{{");
		struct tag t;

		if (!next) {
			pdb_buf_puts(out, p);
			break;
		}
		for (const char *q = p; q < next; q++)
			if (*q == '\n')
				line = q + 1;
		pdb_buf_add(out, p, (size_t)(next - p));
		if (parse_tag(&f, next, &t) < 0)
			return -1;
		if (!(v = lookup(&f, &t)))
			return fail_at(&f, next, "unknown placeholder", t.name, t.len);
		if (t.kind == 0) {
			pdb_buf_puts(out, v->value ? v->value : "");
			p = t.end;
			continue;
		}
		if (t.kind == '/') {
			if (depth == 0 || open[depth - 1].len != t.len ||
			    memcmp(open[depth - 1].name, t.name, t.len) != 0)
				return fail_at(&f, next, "block closed but not open", t.name, t.len);
			depth--;
			p = standalone(&t, line, out);
			line = p;
			continue;
		}
		if (v->value && *v->value) {
			if (depth == MAX_DEPTH)
				return fail_at(&f, next, "blocks nested too deep at", t.name, t.len);
			open[depth++] = t;
			p = standalone(&t, line, out);
			line = p;
			continue;
		}
		/* an empty block: drop it, with its tag lines when they stand alone */
		p = standalone(&t, line, out);
		if (skip_block(&f, &t, &p, &line) < 0)
			return -1;
		{
			struct tag close = { '/', t.name, t.len, p - t.len - 5, p };
			p = standalone(&close, line, NULL);
			line = p;
		}
	}
	if (depth > 0)
		return fail_at(&f, open[depth - 1].start, "unclosed block", open[depth - 1].name,
			       open[depth - 1].len);
	return 0;
}
