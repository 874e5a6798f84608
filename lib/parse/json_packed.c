/* JSON with long arrays of numbers kept packed: 8 bytes a number instead of a jansson value each. */
#include "parse/json_packed.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/json_util.h"
#include "util.h"

/* A packed array in the text jansson parses: ["\x7fpacked",INDEX], an array
 * no file holds (a file with a DEL byte is never packed). Positions in that
 * text are not the file's: a file it cannot parse is read again as a whole,
 * for the error jansson gives on the file itself. */
#define MARK "\x7fpacked"
#define CHUNK (1 << 18)
#define TOKEN_MAX 40       /* a longer number: its array stays as written */
#define PENDING_MAX 65536  /* a longer array that is not packed is read again */
#define KEEP_MAX 8

enum state { TEXT, STRING, ESCAPE, OPEN, NUMBER, AFTER_NUMBER, AFTER_COMMA };

struct scan {
	int fd;
	struct pdb_buf out;         /* the text jansson parses */
	struct pdb_json_doc *doc;
	enum state state;
	int has_del, failed;
	/* the array being read, from '[' at offset start */
	off_t start;
	struct pdb_buf pending;     /* its bytes while at most PENDING_MAX */
	char token[TOKEN_MAX + 1];
	size_t ntoken;
	struct pdb_json_numbers nums;
	size_t capnums;
};

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* A number as jansson reads it (JSON's grammar, integers by strtoll, the
 * others by strtod), or -1 when jansson would refuse it or an integer would
 * not survive a double. */
static int number_value(const char *t, size_t n, double *out, int *integer)
{
	size_t i = t[0] == '-';
	long long v;

	if (i < n && t[i] == '0')
		i++;
	else if (i < n && t[i] >= '1' && t[i] <= '9')
		while (i < n && is_digit((unsigned char)t[i]))
			i++;
	else
		return -1;
	*integer = 1;
	if (i < n && t[i] == '.') {
		*integer = 0;
		if (++i == n || !is_digit((unsigned char)t[i]))
			return -1;
		while (i < n && is_digit((unsigned char)t[i]))
			i++;
	}
	if (i < n && (t[i] == 'e' || t[i] == 'E')) {
		*integer = 0;
		if (++i < n && (t[i] == '+' || t[i] == '-'))
			i++;
		if (i == n || !is_digit((unsigned char)t[i]))
			return -1;
		while (i < n && is_digit((unsigned char)t[i]))
			i++;
	}
	if (i != n)
		return -1;
	errno = 0;
	if (!*integer) {
		*out = strtod(t, NULL);
		return isinf(*out) ? -1 : 0; /* jansson: "real number overflow" */
	}
	v = strtoll(t, NULL, 10);
	if (errno == ERANGE || v > (1LL << 53) || v < -(1LL << 53))
		return -1;
	*out = (double)v;
	return 0;
}

static int end_number(struct scan *s)
{
	struct pdb_json_numbers *a = &s->nums;
	double v;
	int integer;

	s->token[s->ntoken] = '\0';
	if (number_value(s->token, s->ntoken, &v, &integer) < 0)
		return -1;
	if (a->n == s->capnums) {
		size_t cap = s->capnums;
		pdb_grow((void **)&a->values, &s->capnums, a->n + 1, sizeof *a->values);
		a->integer = pdb_xrealloc(a->integer, (s->capnums + 7) / 8);
		memset(a->integer + (cap + 7) / 8, 0, (s->capnums + 7) / 8 - (cap + 7) / 8);
	}
	a->values[a->n] = v;
	if (integer)
		a->integer[a->n / 8] |= (unsigned char)(1u << (a->n % 8));
	a->n++;
	s->state = AFTER_NUMBER;
	return 0;
}

/* A byte of the array being read, kept for writing it out as it was. */
static void keep(struct scan *s, unsigned char c)
{
	if (s->pending.len < PENDING_MAX)
		pdb_buf_add(&s->pending, (const char *)&c, 1);
}

/* The array's bytes up to offset end into the text, as the file has them. */
static void write_as_is(struct scan *s, off_t end)
{
	size_t len = (size_t)(end - s->start), got = 0;

	if (s->pending.len == len) {
		pdb_buf_add(&s->out, s->pending.data, len);
		return;
	}
	pdb_grow((void **)&s->out.data, &s->out.cap, s->out.len + len + 1, 1);
	while (got < len) {
		ssize_t n = pread(s->fd, s->out.data + s->out.len + got, len - got,
				  s->start + (off_t)got);
		if (n <= 0) {
			s->failed = 1;
			return;
		}
		got += (size_t)n;
	}
	s->out.len += len;
	s->out.data[s->out.len] = '\0';
}

static void clear_numbers(struct scan *s)
{
	if (s->nums.n)
		memset(s->nums.integer, 0, (s->nums.n + 7) / 8);
	s->nums.n = 0;
}

/* ']' at pos ends the array: packed when long enough, else as it was. */
static void close_array(struct scan *s, off_t pos)
{
	struct pdb_json_doc *doc = s->doc;
	char mark[64];

	s->state = TEXT;
	if (s->nums.n < PDB_JSON_PACK_MIN) {
		write_as_is(s, pos + 1);
		clear_numbers(s);
		return;
	}
	snprintf(mark, sizeof mark, "[\"" MARK "\",%zu]", doc->npacked);
	pdb_buf_puts(&s->out, mark);
	pdb_grow((void **)&doc->packed, &doc->cappacked, doc->npacked + 1, sizeof *doc->packed);
	s->nums.values = pdb_xrealloc(s->nums.values, s->nums.n * sizeof *s->nums.values);
	s->nums.integer = pdb_xrealloc(s->nums.integer, (s->nums.n + 7) / 8);
	doc->packed[doc->npacked++] = s->nums;
	memset(&s->nums, 0, sizeof s->nums);
	s->capnums = 0;
}

static void step(struct scan *s, unsigned char c, off_t pos);

/* Not an array of plain numbers: what was read goes out as it was, and c is
 * read again as text. */
static void give_up(struct scan *s, unsigned char c, off_t pos)
{
	write_as_is(s, pos);
	clear_numbers(s);
	s->state = TEXT;
	step(s, c, pos);
}

static void array_byte(struct scan *s, unsigned char c, off_t pos)
{
	int number_byte = is_digit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';

	if (number_byte && s->state != AFTER_NUMBER &&
	    !(s->state == NUMBER && s->ntoken == TOKEN_MAX)) {
		if (s->state != NUMBER) {
			s->state = NUMBER;
			s->ntoken = 0;
		}
		s->token[s->ntoken++] = (char)c;
		keep(s, c);
		return;
	}
	if (s->state == NUMBER && end_number(s) < 0) { /* any other byte ends a number */
		give_up(s, c, pos);
		return;
	}
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
		keep(s, c);
	} else if (c == ',' && s->state == AFTER_NUMBER) {
		s->state = AFTER_COMMA;
		keep(s, c);
	} else if (c == ']' && (s->state == AFTER_NUMBER || s->state == OPEN)) {
		keep(s, c);
		close_array(s, pos);
	} else {
		give_up(s, c, pos);
	}
}

static void step(struct scan *s, unsigned char c, off_t pos)
{
	switch (s->state) {
	case STRING:
		s->state = c == '\\' ? ESCAPE : c == '"' ? TEXT : STRING;
		break;
	case ESCAPE:
		s->state = STRING;
		break;
	case TEXT:
		if (c == '[') {
			s->state = OPEN;
			s->start = pos;
			s->pending.len = 0;
			keep(s, c);
			return;
		}
		if (c == '"')
			s->state = STRING;
		break;
	default:
		array_byte(s, c, pos);
		return;
	}
	pdb_buf_add(&s->out, (const char *)&c, 1);
}

/* The file through the scan into s->out and s->doc->packed; 0, or -1 when
 * it cannot be read so (pdb_json_load then reads it, or says why not). */
static int scan_file(struct scan *s, const char *path)
{
	unsigned char *chunk;
	off_t pos = 0;
	ssize_t n = 0;

	if ((s->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	chunk = pdb_xmalloc(CHUNK);
	while (!s->failed && (n = read(s->fd, chunk, CHUNK)) > 0)
		for (ssize_t i = 0; i < n; i++, pos++) {
			s->has_del |= chunk[i] == 0x7f;
			step(s, chunk[i], pos);
		}
	if (n < 0)
		s->failed = 1;
	if (s->state >= OPEN)
		write_as_is(s, pos); /* the file ends inside an array */
	free(chunk);
	close(s->fd);
	return s->failed || s->has_del || s->out.len == 0 ? -1 : 0;
}

static int is_mark(const struct pdb_json_doc *doc, const json_t *v, size_t *index)
{
	const json_t *m = json_array_get(v, 0), *i = json_array_get(v, 1);

	if (json_array_size(v) != 2 || !json_is_string(m) ||
	    strcmp(json_string_value(m), MARK) != 0 || !json_is_integer(i) ||
	    json_integer_value(i) < 0 || (size_t)json_integer_value(i) >= doc->npacked)
		return 0;
	*index = (size_t)json_integer_value(i);
	return 1;
}

void pdb_json_doc_drop(struct pdb_json_doc *doc, const json_t *v)
{
	size_t index;

	if (!is_mark(doc, v, &index))
		return;
	free(doc->packed[index].values);
	free(doc->packed[index].integer);
	memset(&doc->packed[index], 0, sizeof doc->packed[index]);
}

/* The rest of a keep path after one step to key (NULL: an array element). */
static const char *path_step(const char *path, const char *key)
{
	size_t n;

	if (!path)
		return NULL;
	if (!key)
		return strncmp(path, "[*]", 3) == 0 ? path + 3 : NULL;
	n = strlen(key);
	if (path[0] != '.' || strncmp(path + 1, key, n) != 0 ||
	    (path[n + 1] != '\0' && path[n + 1] != '.' && path[n + 1] != '['))
		return NULL;
	return path + 1 + n;
}

/* Packed arrays under v that no keep path reaches become jansson arrays;
 * the replacement of v when v is one of them, else NULL. */
static json_t *unpack(struct pdb_json_doc *doc, json_t *v, const char *const *paths, size_t npaths)
{
	const char *sub[KEEP_MAX];
	const char *key;
	json_t *child, *r;
	size_t index;

	if (is_mark(doc, v, &index)) {
		for (size_t k = 0; k < npaths; k++)
			if (paths[k] && !*paths[k])
				return NULL;
		r = pdb_json_numbers_array(&doc->packed[index]);
		pdb_json_doc_drop(doc, v);
		return r;
	}
	if (json_is_array(v)) {
		for (size_t k = 0; k < npaths; k++)
			sub[k] = path_step(paths[k], NULL);
		for (size_t i = 0; i < json_array_size(v); i++)
			if ((r = unpack(doc, json_array_get(v, i), sub, npaths)))
				json_array_set_new(v, i, r);
	}
	json_object_foreach(v, key, child) {
		for (size_t k = 0; k < npaths; k++)
			sub[k] = path_step(paths[k], key);
		if ((r = unpack(doc, child, sub, npaths)))
			json_object_set_new_nocheck(v, key, r);
	}
	return NULL;
}

int pdb_json_doc_load(const struct pdb_source *src, const char *const *keep, int unique_keys,
		      struct pdb_json_doc *doc, struct pdb_err *err)
{
	struct scan s = { .doc = doc };
	const char *paths[KEEP_MAX];
	struct pdb_err ignored;
	struct pdb_buf dup;
	size_t npaths = 0;
	json_t *r;

	memset(doc, 0, sizeof *doc);
	pdb_buf_init(&s.out);
	pdb_buf_init(&s.pending);
	pdb_buf_init(&dup);
	if (scan_file(&s, src->path) == 0)
		doc->root = pdb_json_parse(s.out.data, s.out.len, src->name, unique_keys, &dup, &ignored);
	if (doc->root && dup.len && src->warnings) {
		/* positions in the packed text are not the file's: found again in it */
		size_t len = 0;
		char *text = pdb_json_read(src, &len, &ignored);

		if (text)
			pdb_json_note_duplicates(text, len, src->warnings);
		free(text);
	}
	pdb_buf_release(&dup);
	pdb_buf_release(&s.out);
	pdb_buf_release(&s.pending);
	free(s.nums.values);
	free(s.nums.integer);
	if (!doc->root) {
		/* unreadable or not JSON: read as a whole, for the same error */
		size_t len = 0;
		char *text;

		pdb_json_doc_free(doc);
		text = pdb_json_read(src, &len, err);
		doc->root = text ? pdb_json_parse(text, len, src->name, unique_keys, src->warnings, err)
			  : NULL;
		free(text);
		return doc->root ? 0 : -1;
	}
	for (; keep && keep[npaths] && npaths < KEEP_MAX; npaths++)
		paths[npaths] = keep[npaths] + 1; /* after the "$" */
	if ((r = unpack(doc, doc->root, paths, npaths))) {
		json_decref(doc->root);
		doc->root = r;
	}
	return 0;
}

void pdb_json_doc_free(struct pdb_json_doc *doc)
{
	json_decref(doc->root);
	for (size_t i = 0; i < doc->npacked; i++) {
		free(doc->packed[i].values);
		free(doc->packed[i].integer);
	}
	free(doc->packed);
	memset(doc, 0, sizeof *doc);
}

const struct pdb_json_numbers *pdb_json_doc_numbers(const struct pdb_json_doc *doc,
						    const json_t *v)
{
	size_t index;

	return is_mark(doc, v, &index) ? &doc->packed[index] : NULL;
}

json_t *pdb_json_numbers_array(const struct pdb_json_numbers *nums)
{
	json_t *a = json_array();

	for (size_t i = 0; i < nums->n; i++)
		json_array_append_new(a, nums->integer[i / 8] & (1u << (i % 8))
				      ? json_integer((json_int_t)nums->values[i])
				      : json_real(nums->values[i]));
	return a;
}
