/* Text reading for adapters: a result file line by line, with the line number kept for errors. */
#ifndef PDB_TEXT_UTIL_H
#define PDB_TEXT_UTIL_H

#include <stddef.h>

#include "err.h"
#include "parse/source.h"

/* Called with each line (its newline kept, NUL-terminated) after *lineno
 * was advanced to it. Return 0 to go on, -1 to stop (err filled). */
typedef int (*pdb_text_line_fn)(void *ctx, char *line, size_t len);

/* Text enters perfdb as UTF-8 only (JSON and YAML parsers refuse anything
 * else too): 0, or -1 with err at FILE:LINE:COL of the first invalid byte. */
int pdb_text_check_utf8(const struct pdb_source *src, const char *line, size_t n,
			long lineno, struct pdb_err *err);

/* Read src line by line (each checked with pdb_text_check_utf8). 0, or -1 with err: unreadable file, an empty file
 * (FILE:1:1), or what fn reported. */
int pdb_text_read(const struct pdb_source *src, pdb_text_line_fn fn, void *ctx,
		  long *lineno, struct pdb_err *err);

/* A file that lacks what its tool writes last (cut short): -1 with err =
 * "FILE:LINE:COL: fmt...", at the end of its text (its last line, the
 * column past that line's last character, its newline not counted), where
 * what is missing would have followed. */
int pdb_text_cut_short(const struct pdb_source *src, struct pdb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
