/* JSON helpers for adapters: loading with file:line:col errors, NaN/Infinity, typed getters. */
#include "parse/json_util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/json_pos.h"
#include "util.h"

/* Stand-ins of the same length, so that error columns stay true. They start
 * with DEL (0x7f), which no tool writes into a string, so a real "n" or
 * "Infini" in a file stays a string, never a number. */
static const struct {
	const char *token, *standin;
	double value;
} nonfinite[] = {
	{ "-Infinity", "\"\x7f-Infin\"", -INFINITY },
	{ "Infinity", "\"\x7fInfin\"", INFINITY },
	{ "NaN", "\"\x7f\"", NAN },
};

/* Replace bare non-finite tokens outside strings, in place. */
static void replace_nonfinite(char *s, size_t n)
{
	int in_string = 0;

	if (!memmem(s, n, "NaN", 3) && !memmem(s, n, "Infinity", 8))
		return; /* most files: nothing to look for */
	for (size_t i = 0; i < n; i++) {
		if (in_string) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == '"')
				in_string = 0;
			continue;
		}
		if (s[i] == '"') {
			in_string = 1;
			continue;
		}
		if (s[i] != 'N' && s[i] != 'I' && s[i] != '-')
			continue;
		for (size_t k = 0; k < sizeof nonfinite / sizeof nonfinite[0]; k++) {
			size_t len = strlen(nonfinite[k].token);
			if (len <= n - i && memcmp(s + i, nonfinite[k].token, len) == 0) {
				memcpy(s + i, nonfinite[k].standin, len);
				i += len - 1;
				break;
			}
		}
	}
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0) {
		long size = ftell(f);
		if (size > 0)
			cap = (size_t)size + 1;
		rewind(f);
	}
	if (cap == 0)
		cap = 65536;
	buf = pdb_xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 == cap && !feof(f)) /* not at the end yet: the file grew */
			pdb_grow((void **)&buf, &cap, cap * 2, 1);
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

char *pdb_json_read(const struct pdb_source *src, size_t *len, struct pdb_err *err)
{
	char *text = read_file(src->path, len);

	if (!text) {
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0, "%s", strerror(errno));
		return NULL;
	}
	if (*len == 0) {
		free(text);
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, 1, 1, "empty file");
		return NULL;
	}
	return text;
}

void pdb_json_say_duplicates(struct pdb_buf *warnings, const struct pdb_json_dup *dups,
			     size_t n, size_t *said)
{
	for (size_t i = 0; i < n; i++, ++*said)
		if (warnings && *said < PDB_JSON_DUPS_SAID)
			pdb_buf_printf(warnings, "%d:%d: the key '%s' is given twice in one object "
				       "(its first value at %d:%d): the last value is kept\n",
				       dups[i].again.line, dups[i].again.col, dups[i].key,
				       dups[i].first_value.line, dups[i].first_value.col);
}

void pdb_json_say_more_duplicates(struct pdb_buf *warnings, size_t said)
{
	if (warnings && said > PDB_JSON_DUPS_SAID)
		pdb_buf_printf(warnings, "%zu more key%s given twice in one object (the first %d "
			       "said): the last values are kept\n", said - PDB_JSON_DUPS_SAID,
			       said - PDB_JSON_DUPS_SAID == 1 ? " is" : "s are", PDB_JSON_DUPS_SAID);
}

void pdb_json_note_duplicates(const char *text, size_t len, struct pdb_buf *warnings)
{
	struct pdb_json_dup *dups;
	size_t n = pdb_json_duplicate_keys(text, len, &dups), said = 0;

	pdb_json_say_duplicates(warnings, dups, n, &said);
	pdb_json_say_more_duplicates(warnings, said);
	pdb_json_dups_free(dups, n);
}

json_t *pdb_json_parse(char *text, size_t len, const char *name, int unique_keys,
		       struct pdb_buf *warnings, struct pdb_err *err)
{
	json_error_t jerr;
	json_t *doc;

	if (memchr(text, '\0', len)) {
		size_t at = (size_t)((char *)memchr(text, '\0', len) - text), line = 1, col = 1;
		for (size_t i = 0; i < at; i++, col++)
			if (text[i] == '\n')
				line++, col = 0;
		pdb_err_at(err, PDB_EXIT_INPUT, name, (int)line, (int)col,
			   "binary data (NUL byte), not JSON");
		return NULL;
	}
	replace_nonfinite(text, len);
	doc = json_loadb(text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);
	if (!doc && json_error_code(&jerr) == json_error_duplicate_key && !unique_keys) {
		if (warnings)
			pdb_json_note_duplicates(text, len, warnings);
		doc = json_loadb(text, len, JSON_DECODE_ANY, &jerr);
	}
	if (!doc && json_error_code(&jerr) == json_error_duplicate_key) {
		struct pdb_json_dup *dups;
		size_t n = pdb_json_duplicate_keys(text, len, &dups);
		if (n) { /* at the first, and how many more */
			char more[64] = "";
			if (n > 1)
				snprintf(more, sizeof more, "; %zu more key%s given twice after it", n - 1,
					 n == 2 ? "" : "s");
			pdb_err_at(err, PDB_EXIT_INPUT, name, dups[0].again.line, dups[0].again.col,
				   "duplicate key '%s' (its first value is at %d:%d)%s", dups[0].key,
				   dups[0].first_value.line, dups[0].first_value.col, more);
			pdb_json_dups_free(dups, n);
			return NULL;
		}
	}
	if (!doc) {
		int col = jerr.column > 0 ? jerr.column : 1;
		/* names and values end at a NUL: a string holding one would be cut short */
		pdb_err_at(err, PDB_EXIT_INPUT, name, jerr.line > 0 ? jerr.line : 1, col, "%s",
			   json_error_code(&jerr) == json_error_null_character
			   ? "\\u0000 (NUL) in a string: perfdb's names and values cannot hold it"
			   : jerr.text);
		return NULL;
	}
	return doc;
}

json_t *pdb_json_load(const struct pdb_source *src, struct pdb_err *err)
{
	size_t len = 0;
	char *text = pdb_json_read(src, &len, err);
	json_t *doc = text ? pdb_json_parse(text, len, src->name, 0, src->warnings, err) : NULL;

	free(text);
	return doc;
}

int pdb_json_num(const json_t *v, double *out)
{
	if (json_is_number(v)) {
		*out = json_number_value(v);
		return 0;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		for (size_t k = 0; k < sizeof nonfinite / sizeof nonfinite[0]; k++)
			if (strlen(s) + 2 == strlen(nonfinite[k].standin) &&
			    strncmp(s, nonfinite[k].standin + 1, strlen(s)) == 0) {
				*out = nonfinite[k].value;
				return 0;
			}
	}
	return -1;
}

int pdb_json_num_or_string(const json_t *v, double *out)
{
	if (pdb_json_num(v, out) == 0)
		return 0;
	return json_is_string(v) ? pdb_parse_double(json_string_value(v), out) : -1;
}

const char *pdb_json_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

char *pdb_json_text(const json_t *v)
{
	char *s, *copy;

	if (json_is_string(v))
		return pdb_xstrdup(json_string_value(v));
	if (json_is_real(v)) {
		char buf[32];
		pdb_fmt_double(json_real_value(v), buf);
		return pdb_xstrdup(buf);
	}
	s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
	copy = pdb_xstrdup(s ? s : "");
	free(s);
	return copy;
}

void pdb_json_entry(struct pdb_run *run, const char *path, size_t i)
{
	char *where = pdb_xasprintf("%s[%zu]", path, i);

	pdb_run_begin_entry(run, where);
	free(where);
}

int pdb_json_bad_in(struct pdb_err *err, const char *name, const char *text, size_t len,
		    const char *path, const char *what)
{
	struct pdb_json_pos at = { 0, 0 };
	char parent[512];
	size_t k = 0;

	/* $.metrics["a.b"] is the walk's $.metrics.a.b */
	for (const char *p = path; *p && k + 1 < sizeof parent; p++) {
		const char *end;
		if (p[0] == '[' && p[1] == '"' && (end = strstr(p + 2, "\"]"))) {
			size_t n = (size_t)(end - p - 2);
			if (k + 1 + n + 1 >= sizeof parent)
				break;
			parent[k++] = '.';
			memcpy(parent + k, p + 2, n);
			k += n;
			p = end + 1;
		} else
			parent[k++] = *p;
	}
	parent[k] = '\0';
	while (text && pdb_json_path_pos(text, len, parent, &at) < 0) {
		char *dot = strrchr(parent, '.'), *br = strrchr(parent, '[');
		char *cut = dot > br ? dot : br;

		if (!cut) { /* "$" itself: not JSON text */
			at.line = at.col = 0;
			break;
		}
		*cut = '\0'; /* a missing value: at its object's, its array's */
	}
	return pdb_err_at(err, PDB_EXIT_INPUT, name, at.line, at.col, "%s: %s", path, what);
}

int pdb_json_bad(struct pdb_err *err, const struct pdb_source *src,
		 const char *path, const char *what)
{
	struct pdb_err ignored;
	size_t len = 0;
	/* an error is met once: the text is read again only now, for the position */
	char *text = src->is_dir || path[0] != '$' ? NULL : pdb_json_read(src, &len, &ignored);
	int ret = pdb_json_bad_in(err, src->name, text, len, path, what);

	free(text);
	return ret;
}

int pdb_head_has(const struct pdb_source *src, const char *needle)
{
	return src->head && strstr((const char *)src->head, needle) != NULL;
}

int pdb_head_first(const struct pdb_source *src)
{
	for (size_t i = 0; src->head && i < src->head_len; i++) {
		/* skip a UTF-8 byte order mark */
		if (i == 0 && src->head_len >= 3 && memcmp(src->head, "\xef\xbb\xbf", 3) == 0) {
			i = 2;
			continue;
		}
		if (!isspace(src->head[i]))
			return src->head[i];
	}
	return 0;
}
