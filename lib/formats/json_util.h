/* JSON helpers for adapters: loading with file:line:col errors, NaN/Infinity, typed getters. */
#ifndef PDB_JSON_UTIL_H
#define PDB_JSON_UTIL_H

#include <jansson.h>

#include "err.h"
#include "formats/format.h"

/* Load src as JSON. Bare NaN, Infinity and -Infinity (Google Benchmark,
 * BenchmarkDotNet) are accepted and read back by pdb_json_num. On a syntax
 * error: NULL and err = "FILE:LINE:COL: what". Caller json_decrefs. */
json_t *pdb_json_load(const struct pdb_source *src, struct pdb_err *err);
/* The two halves of pdb_json_load: src's text (NUL-terminated, *len bytes;
 * caller frees), and text parsed (its NaN and Infinity tokens replaced in
 * place, errors naming name). A key given twice in one object: with
 * unique_keys an error at the second, naming where the first value is;
 * without, the last value is kept (iperf3 3.12 writes some keys twice) and
 * said in warnings (when not NULL) by pdb_json_note_duplicate. */
char *pdb_json_read(const struct pdb_source *src, size_t *len, struct pdb_err *err);
json_t *pdb_json_parse(char *text, size_t len, const char *name, int unique_keys,
		       struct pdb_buf *warnings, struct pdb_err *err);
/* The first key text gives twice in one object, said into warnings as
 * "LINE:COL: ..." (nothing when there is none). */
void pdb_json_note_duplicate(const char *text, size_t len, struct pdb_buf *warnings);

/* A number from a JSON value (also NaN/Infinity tokens and numeric strings
 * when allow_string). 0, or -1 when v is not a number. */
int pdb_json_num(const json_t *v, double *out);
int pdb_json_num_or_string(const json_t *v, double *out);

/* obj[key] as a string, or NULL when absent or not a string. */
const char *pdb_json_str(const json_t *obj, const char *key);

/* A JSON value as text (strings as they are, others dumped); caller frees. */
char *pdb_json_text(const json_t *v);

/* Fail with "FILE: PATH: what" (no line: jansson keeps no positions). */
int pdb_json_bad(struct pdb_err *err, const struct pdb_source *src,
		 const char *path, const char *what);

/* Cheap detection helper: does the head contain needle? */
int pdb_head_has(const struct pdb_source *src, const char *needle);
/* First non-blank character of the head ('{', '[', ...), or 0. */
int pdb_head_first(const struct pdb_source *src);

#endif
