/* JSON whose one long array is read an element at a time: memory bounded by the longest element. */
#include "parse/json_stream.h"

#include <stdlib.h>
#include <string.h>

#include "parse/json_pos.h"
#include "parse/json_util.h"
#include "util.h"

#define CHUNK (1 << 18)
#define KEY_MAX 64

/* The first pass: the shape of the text, byte by byte. */
struct shape {
	struct pdb_json_stream *s;
	const char *key;
	struct pdb_buf rest;
	long long off;
	int line, col;
	int depth, in_str, esc, root_done, bad;
	char str[KEY_MAX + 1];     /* the last string at depth 1 (a key, maybe) */
	size_t nstr;
	int str_long, key_is, after_colon;
	int in_array, arrays;      /* inside the array; arrays of that key seen */
	long long skipped;         /* characters inside the array since its last newline */
	int in_elem, elem_depth;
	struct pdb_json_pos array_at;
};

static void elem_begin(struct shape *h)
{
	struct pdb_json_stream *s = h->s;

	pdb_grow((void **)&s->elems, &s->cap, s->n + 1, sizeof *s->elems);
	s->elems[s->n] = (struct pdb_json_element){ h->off, 0, h->line, h->col };
	h->in_elem = 1;
}

static void elem_end(struct shape *h, long long end)
{
	h->s->elems[h->s->n].len = end - h->s->elems[h->s->n].offset;
	h->s->n++;
	h->in_elem = 0;
}

/* One byte c of the array's inside (depth >= 2, or a scalar at 2). */
static void array_byte(struct shape *h, unsigned char c)
{
	if (h->in_str) {
		if (h->esc)
			h->esc = 0;
		else if (c == '\\')
			h->esc = 1;
		else if (c == '"') {
			h->in_str = 0;
			if (h->in_elem && h->depth == 2)
				elem_end(h, h->off + 1); /* a string element */
		}
		return;
	}
	if (h->in_elem && h->depth == 2 && !strchr("{[\"", c) &&
	    (c == ',' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'))
		elem_end(h, h->off); /* a number, true, false or null ends */
	if (!h->in_elem && h->depth == 2 && !strchr(" \t\r\n,]", c))
		elem_begin(h);
	if (c == '"')
		h->in_str = 1;
	else if (c == '{' || c == '[')
		h->depth++;
	else if (c == '}' || c == ']') {
		h->depth--;
		if (h->in_elem && h->depth == 2)
			elem_end(h, h->off + 1);
		if (h->depth == 1) /* the array's own ']' */
			h->in_array = 0;
	}
}

/* One byte of the text outside the array: kept in rest, shape followed. */
static void rest_byte(struct shape *h, unsigned char c)
{
	if (h->in_str) {
		if (h->esc)
			h->esc = 0;
		else if (c == '\\')
			h->esc = 1;
		else if (c == '"')
			h->in_str = 0;
		else if (h->depth == 1 && h->nstr < KEY_MAX)
			h->str[h->nstr++] = (char)c;
		else if (h->depth == 1)
			h->str_long = 1;
		if (c == '\\' && h->depth == 1)
			h->str_long = 1; /* an escaped key is never taken for the array's */
		return;
	}
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
		return;
	if (h->root_done) {
		h->bad = 1; /* text after the root */
		return;
	}
	if (h->depth == 0 && c != '{') {
		h->bad = 1; /* not an object */
		return;
	}
	if (h->depth == 1 && h->after_colon && c == '[' && h->key_is) {
		if (h->arrays++) /* the key twice: jansson's last one, read whole */
			h->bad = 1;
		h->in_array = 1;
		h->array_at = (struct pdb_json_pos){ h->line, h->col };
		h->skipped = 0;
		h->depth++;
		h->after_colon = 0;
		return;
	}
	h->after_colon = 0;
	if (c == '"') {
		h->in_str = 1;
		h->nstr = 0;
		h->str_long = 0;
	} else if (c == ':' && h->depth == 1) {
		h->key_is = !h->str_long && h->nstr == strlen(h->key) &&
			    memcmp(h->str, h->key, h->nstr) == 0;
		h->after_colon = 1;
	} else if (c == '{' || c == '[')
		h->depth++;
	else if (c == '}' || c == ']') {
		if (--h->depth == 0)
			h->root_done = 1;
		if (h->depth < 0)
			h->bad = 1;
	}
}

static void shape_byte(struct shape *h, unsigned char c)
{
	if (c == '\0') {
		h->bad = 1; /* pdb_json_parse's error */
		return;
	}
	if (h->in_array) {
		array_byte(h, c);
		if (!h->in_array) { /* its ']': the inside was blanks, columns kept */
			for (long long k = 0; k < h->skipped; k++)
				pdb_buf_add(&h->rest, " ", 1);
			pdb_buf_add(&h->rest, "]", 1);
		} else if (c == '\n') {
			pdb_buf_add(&h->rest, "\n", 1);
			h->skipped = 0;
		} else if ((c & 0xc0) != 0x80)
			h->skipped++;
	} else {
		pdb_buf_add(&h->rest, (const char *)&c, 1);
		rest_byte(h, c);
	}
	h->off++;
	if (c == '\n')
		h->line++, h->col = 1;
	else if ((c & 0xc0) != 0x80) /* columns count characters, as jansson's do */
		h->col++;
}

void pdb_json_stream_close(struct pdb_json_stream *s)
{
	json_decref(s->rest);
	pdb_json_dups_free(s->after, s->nafter);
	free(s->elems);
	free(s->buf);
	if (s->f)
		fclose(s->f);
	memset(s, 0, sizeof *s);
}

/* The keys given twice in text, their places shifted to where text starts
 * in the file (line, col): how many, into *dups. */
static size_t duplicates_at(const char *text, size_t len, int line, int col,
			    struct pdb_json_dup **dups)
{
	size_t n = pdb_json_duplicate_keys(text, len, dups);

	for (size_t i = 0; i < n; i++)
		for (struct pdb_json_pos *p = &(*dups)[i].again; p;
		     p = p == &(*dups)[i].again ? &(*dups)[i].first_value : NULL) {
			if (p->line == 1)
				p->col += col - 1;
			p->line += line - 1;
		}
	return n;
}

static int before(struct pdb_json_pos a, struct pdb_json_pos b)
{
	return a.line < b.line || (a.line == b.line && a.col < b.col);
}

int pdb_json_stream_open(const struct pdb_source *src, const char *key,
			 struct pdb_json_stream *s, struct pdb_err *err)
{
	struct shape h = { .s = s, .key = key, .line = 1, .col = 1 };
	struct pdb_buf dup;
	unsigned char *chunk;
	size_t got;

	memset(s, 0, sizeof *s);
	s->src = src;
	if (src->is_dir || !(s->f = fopen(src->path, "rb")))
		return 0;
	pdb_buf_init(&h.rest);
	chunk = pdb_xmalloc(CHUNK);
	while (!h.bad && (got = fread(chunk, 1, CHUNK, s->f)) > 0)
		for (size_t i = 0; i < got && !h.bad; i++)
			shape_byte(&h, chunk[i]);
	free(chunk);
	if (h.bad || !h.root_done || !h.arrays || h.in_str || ferror(s->f)) {
		pdb_buf_release(&h.rest);
		pdb_json_stream_close(s);
		return 0;
	}
	pdb_buf_init(&dup);
	s->rest = pdb_json_parse(h.rest.data, h.rest.len, src->name, 0, &dup, err);
	if (s->rest && dup.len) {
		/* those before the array said now, those after it at the end */
		struct pdb_json_dup *dups;
		size_t n = duplicates_at(h.rest.data, h.rest.len, 1, 1, &dups), k = 0;
		while (k < n && before(dups[k].again, h.array_at))
			k++;
		pdb_json_say_duplicates(src->warnings, dups, k, &s->said);
		s->nafter = n - k;
		s->after = pdb_xmalloc((n - k + 1) * sizeof *s->after);
		memcpy(s->after, dups + k, (n - k) * sizeof *dups);
		for (size_t i = 0; i < k; i++)
			free(dups[i].key);
		free(dups);
	}
	pdb_buf_release(&dup);
	pdb_buf_release(&h.rest);
	if (!s->rest) { /* the whole text's error, as pdb_json_load gives it */
		pdb_json_stream_close(s);
		return 0;
	}
	return 1;
}

int pdb_json_stream_next(struct pdb_json_stream *s, json_t **v, size_t *index,
			 struct pdb_err *err)
{
	const struct pdb_json_element *e;
	struct pdb_buf dup;
	size_t len;

	if (s->next == s->n) {
		pdb_json_say_duplicates(s->src->warnings, s->after, s->nafter, &s->said);
		pdb_json_say_more_duplicates(s->src->warnings, s->said);
		pdb_json_dups_free(s->after, s->nafter);
		s->after = NULL;
		s->nafter = 0;
		return 0;
	}
	e = &s->elems[s->next];
	len = (size_t)e->len;
	if (len + 1 > s->capbuf)
		pdb_grow((void **)&s->buf, &s->capbuf, len + 1, 1);
	if (fseeko(s->f, (off_t)e->offset, SEEK_SET) < 0 || fread(s->buf, 1, len, s->f) != len)
		return pdb_err_at(err, PDB_EXIT_INPUT, s->src->name, e->line, e->col,
				  "the file changed while it was read");
	s->buf[len] = '\0';
	pdb_buf_init(&dup);
	*v = pdb_json_parse(s->buf, len, s->src->name, 0, &dup, err);
	if (!*v) { /* at its place in the file */
		if (err->line == 1)
			err->col += e->col - 1;
		err->line += e->line - 1;
	} else if (dup.len) {
		struct pdb_json_dup *dups;
		size_t n = duplicates_at(s->buf, len, e->line, e->col, &dups);
		pdb_json_say_duplicates(s->src->warnings, dups, n, &s->said);
		pdb_json_dups_free(dups, n);
	}
	pdb_buf_release(&dup);
	*index = s->next++;
	return *v ? 1 : -1;
}
