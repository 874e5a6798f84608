/* Placeholders: the {NAME}s the runner puts values into, one list for the
 * expansion and for the check that refuses a name it does not hold. */
#include "runner/placeholder.h"

#include <string.h>

#include "runner/plan.h"
#include "util.h"

#define MAX_NAME 64 /* as a variant's key (spec.c) */
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"

/* The list: benchmark bench's matrix parameters (their values at point),
 * the keys of variant (of the first, for names alone: every variant has the
 * same keys), and dir. fn(ctx, name, value) for each until it returns
 * non-zero; value NULL where point or variant is none. */
static int each(const struct pdb_spec *spec, size_t bench, size_t point, size_t variant,
		int (*fn)(void *ctx, const char *name, const char *value), void *ctx)
{
	const struct pdb_bench_spec *b = bench < spec->nbenches ? &spec->benches[bench] : NULL;
	const struct pdb_variant *v = variant < spec->nvariants ? &spec->variants[variant]
				      : spec->nvariants ? &spec->variants[0] : NULL;
	int any = variant >= spec->nvariants;

	for (size_t i = 0; b && i < b->naxes; i++)
		if (fn(ctx, b->axes[i]->name,
		       point != PDB_PLAN_NO_POINT ? pdb_plan_value(spec, bench, point, i) : NULL))
			return 1;
	for (size_t i = 0; v && i < v->nvars; i++)
		if (fn(ctx, v->vars[i].key, any ? NULL : v->vars[i].value))
			return 1;
	return fn(ctx, "dir", spec->here);
}

struct find {
	const char *p;
	size_t len;
	const char *value;
	int found;
};

static int find_one(void *ctx, const char *name, const char *value)
{
	struct find *f = ctx;

	if (strlen(name) != f->len || strncmp(name, f->p, f->len) != 0)
		return 0;
	f->found = 1;
	f->value = value;
	return 1;
}

const char *pdb_placeholder_value(const struct pdb_spec *spec, size_t bench, size_t point, size_t variant,
				  const char *p, size_t len)
{
	struct find f = { p, len, NULL, 0 };

	each(spec, point == PDB_PLAN_NO_POINT ? SIZE_MAX : bench, point, variant, find_one, &f);
	return f.value;
}

const char *pdb_placeholder_next(const char *text, const char *p, size_t *len)
{
	for (p = strchr(p, '{'); p; p = strchr(p + 1, '{')) {
		size_t n = strspn(p + 1, NAME_CHARS);
		if (n >= 1 && n <= MAX_NAME && p[1 + n] == '}' && !(p > text && p[-1] == '$')) {
			*len = n;
			return p;
		}
	}
	return NULL;
}

struct names {
	const char *list[256];
	size_t n;
};

static int add_name(void *ctx, const char *name, const char *value)
{
	struct names *ns = ctx;

	(void)value;
	if (ns->n < sizeof ns->list / sizeof ns->list[0])
		ns->list[ns->n++] = name;
	return 0;
}

int pdb_placeholder_check(const struct pdb_spec *spec, struct pdb_err *err)
{
	for (size_t i = 0; i < spec->nuses; i++) {
		const struct pdb_placeholder_use *u = &spec->uses[i];
		struct find f = { u->name, strlen(u->name), NULL, 0 };
		struct names ns = { .n = 0 };
		const char *near;
		if (each(spec, u->bench, PDB_PLAN_NO_POINT, SIZE_MAX, find_one, &f), f.found)
			continue;
		each(spec, u->bench, PDB_PLAN_NO_POINT, SIZE_MAX, add_name, &ns);
		if (!(near = pdb_closest(u->name, ns.list, ns.n)))
			continue; /* the command's own braces: awk's {print} */
		return pdb_err_at(err, PDB_EXIT_INPUT, u->file, u->line, u->col, "%s%s%sunknown placeholder {%s}%s%s%s",
				  u->bench < spec->nbenches ? "benchmark '" : "build: ",
				  u->bench < spec->nbenches ? spec->benches[u->bench].name : "",
				  u->bench < spec->nbenches ? "': " : "", u->name, " (did you mean {", near,
				  "}?)");
	}
	return 0;
}

char *pdb_placeholder_expand(const struct pdb_spec *spec, size_t bench, size_t point, size_t variant,
		      const char *text)
{
	struct pdb_buf b;
	const char *p = text;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	while (*p) {
		const char *close = *p == '{' ? strchr(p, '}') : NULL;
		const char *value = close ? pdb_placeholder_value(spec, bench, point, variant, p + 1,
									    (size_t)(close - p - 1))
				    : NULL;
		if (value) {
			pdb_buf_puts(&b, value);
			p = close + 1;
		} else {
			pdb_buf_add(&b, p, 1);
			p++;
		}
	}
	return b.data;
}
