/* Message templates: $SEQ, $TS, $GUID and CSV-backed variables with a skewed hot set. */
#include "loadgen/template.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/csv_util.h"

uint64_t pdb_kafka_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct column_ctx {
	const struct pdb_kafka_var *var;
	struct pdb_kafka_values *out;
	size_t cap;
};

static int on_row(void *vctx, struct pdb_csv *csv, char **fields, size_t nfields,
		  struct pdb_err *err)
{
	struct column_ctx *c = vctx;

	if (c->var->header && pdb_csv_row(csv) == 1)
		return 0;
	if ((size_t)c->var->column > nfields)
		return pdb_csv_bad(csv, err, nfields - 1, "variable %s: no column %ld in this row (%zu columns)",
				   c->var->name, c->var->column, nfields);
	pdb_grow((void **)&c->out->values, &c->cap, c->out->n + 1, sizeof *c->out->values);
	c->out->values[c->out->n++] = pdb_xstrdup(fields[c->var->column - 1]);
	return 0;
}

int pdb_kafka_values_load(const struct pdb_kafka_var *var, struct pdb_kafka_values *out,
			  struct pdb_err *err)
{
	struct pdb_source src = { .path = var->csv, .name = var->csv };
	struct column_ctx c = { .var = var, .out = out };

	memset(out, 0, sizeof *out);
	if (pdb_csv_read(&src, ',', on_row, &c, err) < 0)
		goto fail;
	if (out->n == 0) {
		pdb_err_at(err, PDB_EXIT_INPUT, var->csv, 1, 1, "variable %s: no values", var->name);
		goto fail;
	}
	out->hot_share = var->hot_share;
	if (var->hot_values > 0) {
		out->nhot = (size_t)((double)out->n * var->hot_values + 0.999999);
		if (out->nhot < 1)
			out->nhot = 1;
	}
	if (out->nhot >= out->n)
		out->nhot = 0; /* everything hot is the same as uniform */
	return 0;
fail:
	pdb_kafka_values_release(out);
	return -1;
}

void pdb_kafka_values_release(struct pdb_kafka_values *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->values[i]);
	free(v->values);
	memset(v, 0, sizeof *v);
}

size_t pdb_kafka_values_pick(const struct pdb_kafka_values *v, uint64_t *rng)
{
	uint64_t r = pdb_kafka_rand(rng);
	double u = (double)(r >> 11) / 9007199254740992.0; /* [0, 1) */
	uint64_t r2 = pdb_kafka_rand(rng);

	if (v->nhot == 0)
		return (size_t)(r2 % v->n);
	if (u < v->hot_share)
		return (size_t)(r2 % v->nhot);
	return v->nhot + (size_t)(r2 % (v->n - v->nhot));
}

enum part_kind { PART_TEXT, PART_SEQ, PART_TS, PART_GUID, PART_VAR };

struct part {
	int kind;          /* enum part_kind */
	size_t off, len;   /* PART_TEXT: a slice of text */
	size_t var;        /* PART_VAR */
};

struct pdb_kafka_template {
	char *text;
	struct part *parts;
	size_t nparts, cap;
	struct pdb_kafka_values *vals;
	size_t nvals;
	size_t *picked;     /* per variable for the message being rendered */
	long key_var;       /* index, or -1 */
	uint64_t rng, guid_key;
};

static void add_part(struct pdb_kafka_template *t, int kind, size_t off, size_t len, size_t var)
{
	pdb_grow((void **)&t->parts, &t->cap, t->nparts + 1, sizeof *t->parts);
	t->parts[t->nparts++] = (struct part){ .kind = kind, .off = off, .len = len, .var = var };
}

static void where(const char *text, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static long var_index(const struct pdb_kafka_var *vars, size_t nvars, const char *name, size_t len)
{
	for (size_t i = 0; i < nvars; i++)
		if (strlen(vars[i].name) == len && strncmp(vars[i].name, name, len) == 0)
			return (long)i;
	return -1;
}

/* One $NAME or ${NAME} at text[*i] (the '$'): add its part, advance *i. */
static int parse_ref(struct pdb_kafka_template *t, const char *source, const struct pdb_kafka_var *vars,
		     size_t nvars, size_t *i, struct pdb_err *err)
{
	const char *text = t->text;
	size_t start = *i, p = start + 1, name, len;
	int braced = text[p] == '{', line, col;
	long vi;

	p += braced;
	name = p;
	while (isalnum((unsigned char)text[p]) || text[p] == '_')
		p++;
	len = p - name;
	if (len == 0 || (braced && text[p] != '}')) {
		where(text, start, &line, &col);
		return pdb_err_at(err, PDB_EXIT_INPUT, source, line, col,
				  "expected $NAME or ${NAME} (use $$ for a dollar)");
	}
	*i = p + braced;
	if (len == 3 && strncmp(text + name, "SEQ", 3) == 0)
		add_part(t, PART_SEQ, 0, 0, 0);
	else if (len == 2 && strncmp(text + name, "TS", 2) == 0)
		add_part(t, PART_TS, 0, 0, 0);
	else if (len == 4 && strncmp(text + name, "GUID", 4) == 0)
		add_part(t, PART_GUID, 0, 0, 0);
	else if ((vi = var_index(vars, nvars, text + name, len)) >= 0)
		add_part(t, PART_VAR, 0, 0, (size_t)vi);
	else {
		where(text, start, &line, &col);
		return pdb_err_at(err, PDB_EXIT_INPUT, source, line, col,
				  "unknown variable $%.*s (not $SEQ, $TS, $GUID or one of vars)", (int)len, text + name);
	}
	return 0;
}

struct pdb_kafka_template *pdb_kafka_template_new(const char *text, const char *source,
						  const struct pdb_kafka_var *vars, size_t nvars,
						  const char *key_var, uint64_t seed,
						  struct pdb_err *err)
{
	struct pdb_kafka_template *t = pdb_xcalloc(1, sizeof *t);
	size_t i = 0, lit = 0;

	t->text = pdb_xstrdup(text);
	t->rng = seed;
	t->guid_key = seed;
	t->key_var = -1;
	t->vals = pdb_xcalloc(nvars + 1, sizeof *t->vals);
	t->picked = pdb_xcalloc(nvars + 1, sizeof *t->picked);
	while (t->text[i]) {
		if (t->text[i] != '$') {
			i++;
			continue;
		}
		if (i > lit)
			add_part(t, PART_TEXT, lit, i - lit, 0);
		if (t->text[i + 1] == '$') {
			add_part(t, PART_TEXT, i, 1, 0);
			i += 2;
		} else if (parse_ref(t, source, vars, nvars, &i, err) < 0) {
			goto fail;
		}
		lit = i;
	}
	if (i > lit)
		add_part(t, PART_TEXT, lit, i - lit, 0);
	if (key_var && (t->key_var = var_index(vars, nvars, key_var, strlen(key_var))) < 0) {
		pdb_err_set(err, PDB_EXIT_INPUT, "key: $%s is not one of vars", key_var);
		goto fail;
	}
	for (; t->nvals < nvars; t->nvals++)
		if (pdb_kafka_values_load(&vars[t->nvals], &t->vals[t->nvals], err) < 0)
			goto fail;
	return t;
fail:
	pdb_kafka_template_free(t);
	return NULL;
}

void pdb_kafka_template_guid_key(struct pdb_kafka_template *t, uint64_t key)
{
	t->guid_key = key;
}

void pdb_kafka_template_free(struct pdb_kafka_template *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nvals; i++)
		pdb_kafka_values_release(&t->vals[i]);
	free(t->vals);
	free(t->picked);
	free(t->parts);
	free(t->text);
	free(t);
}

static void add_uint(struct pdb_buf *out, uint64_t v)
{
	char buf[24], *p = buf + sizeof buf;

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	pdb_buf_add(out, p, (size_t)(buf + sizeof buf - p));
}

#define M60 ((1ULL << 60) - 1)
#define C1 0x9e3779b97f4a7c15ULL
#define C2 0xbf58476d1ce4e5b9ULL

/* An invertible mix of 60 bits: odd multipliers and a self-inverse xorshift. */
static uint64_t mix60(uint64_t x)
{
	x = (x * C1) & M60;
	x ^= x >> 30;
	x = (x * C2) & M60;
	return x ^ (x >> 30);
}

static uint64_t inverse_odd(uint64_t c)
{
	uint64_t inv = c;

	for (int i = 0; i < 6; i++) /* Newton: each step doubles the correct bits */
		inv *= 2 - c * inv;
	return inv;
}

static uint64_t unmix60(uint64_t x)
{
	x ^= x >> 30;
	x = (x * inverse_odd(C2)) & M60;
	x ^= x >> 30;
	return (x * inverse_odd(C1)) & M60;
}

/* The 64 bits after the version: a check that ties the GUID to key. */
static uint64_t guid_check(uint64_t key, uint64_t a60)
{
	uint64_t state = key ^ a60;

	return (pdb_kafka_rand(&state) & 0x3fffffffffffffffULL) | 0x8000000000000000ULL; /* variant 10 */
}

void pdb_kafka_guid(uint64_t key, uint64_t seq, char out[36])
{
	static const char hex[] = "0123456789abcdef";
	uint64_t a60 = mix60((seq ^ key) & M60), b = guid_check(key, a60);
	uint64_t a = (a60 >> 12) << 16 | 0x4000ULL | (a60 & 0xfff); /* version 4 */
	int k = 0;

	for (int i = 0; i < 32; i++) {
		uint64_t w = i < 16 ? a : b;
		if (i == 8 || i == 12 || i == 16 || i == 20)
			out[k++] = '-';
		out[k++] = hex[(w >> (60 - 4 * (i % 16))) & 0xf];
	}
}

int pdb_kafka_guid_seq(uint64_t key, const char *text, size_t len, uint64_t *seq)
{
	uint64_t w[2] = { 0, 0 }, a60;
	int digits = 0;

	if (len != 36)
		return -1;
	for (size_t i = 0; i < len; i++) {
		int c = tolower((unsigned char)text[i]), d;
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (c != '-')
				return -1;
			continue;
		}
		if (!isxdigit(c))
			return -1;
		d = isdigit(c) ? c - '0' : c - 'a' + 10;
		w[digits / 16] = w[digits / 16] << 4 | (uint64_t)d;
		digits++;
	}
	if ((w[0] >> 12 & 0xf) != 4)
		return -1;
	a60 = (w[0] >> 16) << 12 | (w[0] & 0xfff);
	if (guid_check(key, a60) != w[1])
		return -1;
	*seq = (unmix60(a60) ^ key) & M60;
	return 0;
}

void pdb_kafka_template_render(struct pdb_kafka_template *t, uint64_t seq, int64_t ts_ms,
			       struct pdb_buf *out)
{
	out->len = 0;
	for (size_t i = 0; i < t->nvals; i++)
		t->picked[i] = pdb_kafka_values_pick(&t->vals[i], &t->rng);
	for (size_t i = 0; i < t->nparts; i++) {
		const struct part *p = &t->parts[i];
		switch (p->kind) {
		case PART_TEXT: pdb_buf_add(out, t->text + p->off, p->len); break;
		case PART_SEQ: add_uint(out, seq); break;
		case PART_TS: add_uint(out, (uint64_t)ts_ms); break;
		case PART_GUID: {
			char g[36];
			pdb_kafka_guid(t->guid_key, seq, g);
			pdb_buf_add(out, g, sizeof g);
			break;
		}
		case PART_VAR: pdb_buf_puts(out, t->vals[p->var].values[t->picked[p->var]]); break;
		}
	}
	if (!out->data)
		pdb_buf_add(out, "", 0);
}

const char *pdb_kafka_template_key(const struct pdb_kafka_template *t)
{
	if (t->key_var < 0)
		return NULL;
	return t->vals[t->key_var].values[t->picked[t->key_var]];
}

struct pdb_kafka_template *pdb_kafka_template_load(const char *path,
						   const struct pdb_kafka_var *vars, size_t nvars,
						   const char *key_var, uint64_t seed,
						   struct pdb_err *err)
{
	struct pdb_kafka_template *tpl;
	struct pdb_buf text;
	char chunk[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f) {
		pdb_err_at(err, PDB_EXIT_INPUT, path, 0, 0, "cannot read the template: %s", strerror(errno));
		return NULL;
	}
	pdb_buf_init(&text);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		pdb_buf_add(&text, chunk, n);
	fclose(f);
	if (text.len && text.data[text.len - 1] == '\n')
		text.data[--text.len] = '\0';
	tpl = pdb_kafka_template_new(text.data ? text.data : "", path, vars, nvars, key_var, seed, err);
	pdb_buf_release(&text);
	return tpl;
}
