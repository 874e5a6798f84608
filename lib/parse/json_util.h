/* JSON helpers for adapters: loading with file:line:col errors, NaN/Infinity, typed getters. */
#ifndef PDB_JSON_UTIL_H
#define PDB_JSON_UTIL_H

#include <jansson.h>

#include "err.h"
#include "model.h"
#include "parse/json_pos.h"
#include "parse/source.h"

/* Load src as JSON. Bare NaN, Infinity and -Infinity (Google Benchmark,
 * BenchmarkDotNet) are accepted and read back by pdb_json_num. On a syntax
 * error: NULL and err = "FILE:LINE:COL: what". Caller json_decrefs. */
json_t *pdb_json_load(const struct pdb_source *src, struct pdb_err *err);
/* The two halves of pdb_json_load: src's text (NUL-terminated, *len bytes;
 * caller frees), and text parsed (its NaN and Infinity tokens replaced in
 * place, errors naming name). A key given twice in one object: with
 * unique_keys an error at the second, naming where the first value is;
 * without, the last value is kept (iperf3 3.12 writes some keys twice) and
 * said in warnings (when not NULL) by pdb_json_note_duplicates. */
char *pdb_json_read(const struct pdb_source *src, size_t *len, struct pdb_err *err);
json_t *pdb_json_parse(char *text, size_t len, const char *name, int unique_keys,
		       struct pdb_buf *warnings, struct pdb_err *err);
/* Every key text gives twice in one object, said into warnings as
 * "LINE:COL: ..." each (nothing when there is none), the first
 * PDB_JSON_DUPS_SAID of them and then how many more. */
void pdb_json_note_duplicates(const char *text, size_t len, struct pdb_buf *warnings);
/* Its two halves, for a file read in parts: dups said (warnings NULL:
 * unsaid), *said counting the file's so far; and, at the file's end, how
 * many more than PDB_JSON_DUPS_SAID there were. */
#define PDB_JSON_DUPS_SAID 10
void pdb_json_say_duplicates(struct pdb_buf *warnings, const struct pdb_json_dup *dups,
			     size_t n, size_t *said);
void pdb_json_say_more_duplicates(struct pdb_buf *warnings, size_t said);

/* A number from a JSON value (also NaN/Infinity tokens and numeric strings
 * when allow_string). 0, or -1 when v is not a number. */
int pdb_json_num(const json_t *v, double *out);
int pdb_json_num_or_string(const json_t *v, double *out);

/* obj[key] as a string, or NULL when absent or not a string. */
const char *pdb_json_str(const json_t *obj, const char *key);

/* A JSON value as text (strings as they are, others dumped); caller frees. */
char *pdb_json_text(const json_t *v);

/* Begin the entry (pdb_run_begin_entry) that is element i of the array at
 * path ("$", "$.results"): one benchmark's whole result. */
void pdb_json_entry(struct pdb_run *run, const char *path, size_t i);

/* Fail with "FILE:LINE:COL: PATH: what", at the value path names ("$",
 * "$.results[2].mean"), or, when it is missing, at the nearest object or
 * array it would be in (jansson keeps no positions: src is read again, the
 * walk of pdb_json_path_pos finds it); "FILE: PATH: what" when none is found. */
int pdb_json_bad(struct pdb_err *err, const struct pdb_source *src,
		 const char *path, const char *what);
/* The same in text already read (len bytes; NULL: no position). */
int pdb_json_bad_in(struct pdb_err *err, const char *name, const char *text, size_t len,
		    const char *path, const char *what);

/* Cheap detection helper: does the head contain needle? */
int pdb_head_has(const struct pdb_source *src, const char *needle);
/* First non-blank character of the head ('{', '[', ...), or 0. */
int pdb_head_first(const struct pdb_source *src);

#endif
