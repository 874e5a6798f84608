/* Positions in JSON text: one walk over the text, which jansson has parsed
 * already (on text it could not parse the walk stops where it is lost). */
#include "parse/json_pos.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_DEPTH 2048 /* jansson's */

struct key_seen {
	char *key;
	size_t len;
	struct pdb_json_pos value;
};

struct walk {
	const char *s;
	size_t n, i;
	struct pdb_json_pos pos;
	const char *want;          /* a path to find, or NULL */
	struct pdb_json_pos found;
	struct pdb_buf path;       /* of the value being walked */
	int dups;                  /* look for keys given twice */
	struct pdb_json_dup *dup;  /* those found, in the text's order */
	size_t ndup, capdup;
	int done;
};

static void step(struct walk *w)
{
	unsigned char c = (unsigned char)w->s[w->i++];

	if (c == '\n') {
		w->pos.line++;
		w->pos.col = 1;
	} else if ((c & 0xc0) != 0x80) { /* a character's first byte */
		w->pos.col++;
	}
}

static void blanks(struct walk *w)
{
	while (w->i < w->n && strchr(" \t\r\n", w->s[w->i]) && w->s[w->i])
		step(w);
}

static int hex4(const char *s, unsigned *out)
{
	*out = 0;
	for (int k = 0; k < 4; k++) {
		char c = s[k];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		*out = *out * 16 + (unsigned)d;
	}
	return 0;
}

static void put_utf8(struct pdb_buf *b, unsigned cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp, n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12), u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
	} else {
		u[0] = (char)(0xf0 | cp >> 18), u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3f)), u[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
	}
	pdb_buf_add(b, u, n);
}

/* A string at w->i (its opening quote), decoded into out. */
static int string(struct walk *w, struct pdb_buf *out)
{
	static const char plain[] = "\"\\/bfnrt", decoded[] = "\"\\/\b\f\n\r\t";

	step(w);
	while (w->i < w->n && w->s[w->i] != '"') {
		char c = w->s[w->i];
		unsigned cp, lo;
		if (c != '\\') {
			pdb_buf_add(out, &c, 1);
			step(w);
			continue;
		}
		if (w->i + 1 >= w->n)
			return -1;
		c = w->s[w->i + 1];
		if (c != 'u') {
			const char *k = strchr(plain, c);
			if (!k || !c)
				return -1;
			pdb_buf_add(out, &decoded[k - plain], 1);
			step(w), step(w);
			continue;
		}
		if (w->i + 6 > w->n || hex4(w->s + w->i + 2, &cp) < 0)
			return -1;
		for (int k = 0; k < 6; k++)
			step(w);
		if (cp >= 0xd800 && cp < 0xdc00 && w->i + 6 <= w->n && w->s[w->i] == '\\' &&
		    w->s[w->i + 1] == 'u' && hex4(w->s + w->i + 2, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			for (int k = 0; k < 6; k++)
				step(w);
		}
		put_utf8(out, cp);
	}
	if (w->i >= w->n)
		return -1;
	step(w);
	return 0;
}

static int value(struct walk *w, int depth);

/* The value after a key or an array's comma, its path extended by what. */
static int member(struct walk *w, int depth, const char *what, size_t what_len)
{
	size_t len = w->path.len;
	int ret;

	pdb_buf_add(&w->path, what, what_len);
	ret = value(w, depth + 1);
	w->path.len = len;
	w->path.data[len] = '\0';
	return ret;
}

static int object(struct walk *w, int depth)
{
	struct key_seen *seen = NULL;
	size_t nseen = 0, cap = 0;
	struct pdb_buf key, what;
	int ret = -1;

	pdb_buf_init(&key);
	pdb_buf_init(&what);
	pdb_buf_add(&key, "", 0);
	step(w);
	blanks(w);
	if (w->i < w->n && w->s[w->i] == '}') {
		step(w);
		ret = 0;
		goto out;
	}
	while (w->i < w->n && !w->done) {
		struct pdb_json_pos key_at = w->pos;
		size_t k = 0;
		key.len = 0;
		if (w->s[w->i] != '"' || string(w, &key) < 0)
			goto out;
		blanks(w);
		if (w->i >= w->n || w->s[w->i] != ':')
			goto out;
		step(w);
		blanks(w);
		while (w->dups && k < nseen &&
		       (seen[k].len != key.len || memcmp(seen[k].key, key.data ? key.data : "", key.len) != 0))
			k++;
		if (w->dups && k < nseen) { /* said, and its value walked on for more */
			pdb_grow((void **)&w->dup, &w->capdup, w->ndup + 1, sizeof *w->dup);
			w->dup[w->ndup++] = (struct pdb_json_dup){ pdb_xstrndup(key.data, key.len),
								   key_at, seen[k].value };
		} else if (w->dups) {
			pdb_grow((void **)&seen, &cap, nseen + 1, sizeof *seen);
			seen[nseen++] = (struct key_seen){ pdb_xstrndup(key.data, key.len), key.len, w->pos };
		}
		what.len = 0;
		pdb_buf_add(&what, ".", 1);
		pdb_buf_add(&what, key.data, key.len);
		if (member(w, depth, what.data, what.len) < 0)
			goto out;
		blanks(w);
		if (w->i < w->n && w->s[w->i] == '}') {
			step(w);
			ret = 0;
			goto out;
		}
		if (w->i >= w->n || w->s[w->i] != ',')
			goto out;
		step(w);
		blanks(w);
	}
	ret = w->done ? 0 : -1;
out:
	for (size_t k = 0; k < nseen; k++)
		free(seen[k].key);
	free(seen);
	pdb_buf_release(&key);
	pdb_buf_release(&what);
	return ret;
}

static int array(struct walk *w, int depth)
{
	char what[32];

	step(w);
	blanks(w);
	if (w->i < w->n && w->s[w->i] == ']') {
		step(w);
		return 0;
	}
	for (size_t k = 0; w->i < w->n && !w->done; k++) {
		int n = snprintf(what, sizeof what, "[%zu]", k);
		if (member(w, depth, what, (size_t)n) < 0)
			return -1;
		blanks(w);
		if (w->i < w->n && w->s[w->i] == ']') {
			step(w);
			return 0;
		}
		if (w->i >= w->n || w->s[w->i] != ',')
			return -1;
		step(w);
		blanks(w);
	}
	return w->done ? 0 : -1;
}

static int value(struct walk *w, int depth)
{
	struct pdb_buf skip;
	int ret;

	if (depth > MAX_DEPTH || w->i >= w->n)
		return -1;
	if (w->want && strcmp(w->path.data, w->want) == 0) {
		w->found = w->pos;
		w->done = !w->dups;
		if (w->done)
			return 0;
	}
	switch (w->s[w->i]) {
	case '{':
		return object(w, depth);
	case '[':
		return array(w, depth);
	case '"':
		pdb_buf_init(&skip);
		ret = string(w, &skip);
		pdb_buf_release(&skip);
		return ret;
	default: /* a number, true, false, null */
		while (w->i < w->n && !strchr(" \t\r\n,]}", w->s[w->i]) && w->s[w->i])
			step(w);
		return 0;
	}
}

static void walk(struct walk *w, const char *text, size_t len)
{
	w->s = text;
	w->n = len;
	w->pos = (struct pdb_json_pos){ 1, 1 };
	pdb_buf_init(&w->path);
	pdb_buf_puts(&w->path, "$");
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		w->i = 3; /* a byte order mark: no column */
	blanks(w);
	value(w, 0);
	pdb_buf_release(&w->path);
}

int pdb_json_path_pos(const char *text, size_t len, const char *path, struct pdb_json_pos *at)
{
	struct walk w = { .want = path };

	walk(&w, text, len);
	*at = w.found;
	return w.found.line ? 0 : -1;
}

size_t pdb_json_duplicate_keys(const char *text, size_t len, struct pdb_json_dup **dups)
{
	struct walk w = { .dups = 1 };

	walk(&w, text, len);
	*dups = w.dup;
	return w.ndup;
}

void pdb_json_dups_free(struct pdb_json_dup *dups, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(dups[i].key);
	free(dups);
}
