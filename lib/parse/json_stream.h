/* JSON whose one long array is read an element at a time: memory bounded by the longest element. */
#ifndef PDB_JSON_STREAM_H
#define PDB_JSON_STREAM_H

#include <jansson.h>
#include <stdio.h>

#include "err.h"
#include "parse/json_pos.h"
#include "parse/source.h"

struct pdb_json_element {
	long long offset, len;   /* bytes of the element in the file */
	int line, col;           /* where it starts */
};

struct pdb_json_stream {
	const struct pdb_source *src;
	json_t *rest;            /* the root object, the array's member an empty array */
	struct pdb_json_element *elems;
	size_t n, next, cap;
	FILE *f;
	char *buf;
	size_t capbuf;
	size_t said;             /* keys given twice said so far */
	struct pdb_json_dup *after; /* keys twice in the rest, after the array: said at the end */
	size_t nafter;
};

/* Open src, a JSON object whose member key is an array, for reading that
 * array an element at a time: one pass checks the text's shape and keeps
 * the rest of the object (rest: with the array empty, every position as in
 * the file). 1: streamed; 0: not of that shape, or a text whose error
 * pdb_json_load gives (read it whole; nothing is kept); -1 with err.
 * pdb_json_stream_close after 1. */
int pdb_json_stream_open(const struct pdb_source *src, const char *key,
			 struct pdb_json_stream *s, struct pdb_err *err);
/* The next element (a new reference; *index its place): 1, 0 at the end, or
 * -1 with err at the file's LINE:COL. Keys given twice are said as
 * pdb_json_load says them (in src->warnings, in the file's order). */
int pdb_json_stream_next(struct pdb_json_stream *s, json_t **v, size_t *index,
			 struct pdb_err *err);
void pdb_json_stream_close(struct pdb_json_stream *s);

#endif
