/* --dim K=V: the parser and the matcher every command uses (dim_filter.h). */
#include "dim_filter.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int pdb_dim_filter_add(struct pdb_dim_filter *f, const char *text, struct pdb_err *err)
{
	const char *eq = strchr(text, '=');

	if (!eq || eq == text || !eq[1])
		return pdb_err_set(err, PDB_EXIT_USAGE, "--dim '%s': expected K=V", text);
	f->want = pdb_xrealloc(f->want, (f->n + 1) * sizeof *f->want);
	f->seen = pdb_xrealloc(f->seen, f->n + 1);
	f->want[f->n] = (struct pdb_attr){ pdb_xstrndup(text, (size_t)(eq - text)),
					   pdb_xstrdup(eq + 1) };
	f->seen[f->n++] = 0;
	return 0;
}

void pdb_dim_filter_release(struct pdb_dim_filter *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++) {
		free(f->want[i].key);
		free(f->want[i].value);
	}
	for (size_t i = 0; i < f->nkeys; i++)
		free(f->keys[i]);
	free(f->want);
	free(f->seen);
	free(f->keys);
	memset(f, 0, sizeof *f);
}

/* Keep key in f->keys (sorted, once). */
static void note_key(struct pdb_dim_filter *f, const char *key)
{
	size_t lo = 0, hi = f->nkeys;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(f->keys[mid], key);
		if (c == 0)
			return;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	f->keys = pdb_xrealloc(f->keys, (f->nkeys + 1) * sizeof *f->keys);
	memmove(&f->keys[lo + 1], &f->keys[lo], (f->nkeys - lo) * sizeof *f->keys);
	f->keys[lo] = pdb_xstrdup(key);
	f->nkeys++;
}

/* The one rule: a dim K the series has must be V. */
static int pass_one(struct pdb_dim_filter *f, const char *key, const char *value)
{
	int ok = 1;

	note_key(f, key);
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->want[i].key, key) == 0) {
			f->seen[i] = 1;
			ok &= strcmp(f->want[i].value, value) == 0;
		}
	return ok;
}

int pdb_dim_filter_pass(struct pdb_dim_filter *f, const struct pdb_attr *dims, size_t n)
{
	int ok = 1;

	if (!f || !f->n)
		return 1;
	for (size_t i = 0; i < n; i++)
		ok &= pass_one(f, dims[i].key, dims[i].value);
	return ok;
}

int pdb_dim_filter_pass_json(struct pdb_dim_filter *f, const char *dims_json)
{
	json_t *o, *v;
	const char *key;
	int ok = 1;

	if (!f || !f->n)
		return 1;
	if (!dims_json || !(o = json_loads(dims_json, 0, NULL)))
		return 1;
	json_object_foreach(o, key, v) {
		char num[64];
		const char *text = json_is_string(v) ? json_string_value(v) : NULL;
		if (!text && json_is_number(v)) {
			snprintf(num, sizeof num, "%.17g", json_number_value(v));
			text = num;
		}
		ok &= pass_one(f, key, text ? text : "");
	}
	json_decref(o);
	return ok;
}

int pdb_dim_filter_check(const struct pdb_dim_filter *f, struct pdb_err *err)
{
	struct pdb_buf known;

	for (size_t i = 0; f && i < f->n; i++) {
		if (f->seen[i])
			continue;
		pdb_buf_init(&known);
		pdb_buf_puts(&known, "");
		for (size_t k = 0; k < f->nkeys; k++)
			pdb_buf_printf(&known, "%s%s", k ? ", " : "", f->keys[k]);
		pdb_err_set(err, PDB_EXIT_INPUT, "--dim %s=%s: no series has a dim '%s' (%s%s)",
			    f->want[i].key, f->want[i].value, f->want[i].key,
			    f->nkeys ? "their dims: " : "they have no dims", known.data);
		pdb_buf_release(&known);
		return -1;
	}
	return 0;
}
