/* CSV reading for adapters: libcsv, streamed row by row, with file:line:col errors. */
#ifndef PDB_CSV_UTIL_H
#define PDB_CSV_UTIL_H

#include <stddef.h>

#include "err.h"
#include "parse/source.h"

struct pdb_csv;

/* Called once per row (the header too) with NUL-terminated fields.
 * Return 0 to go on, -1 to stop (after filling err, e.g. with pdb_csv_bad). */
typedef int (*pdb_csv_row_fn)(void *ctx, struct pdb_csv *csv, char **fields,
			      size_t nfields, struct pdb_err *err);

/* Stream src through libcsv with the given delimiter (',' or '\t').
 * Memory stays bounded by the longest row. Blank lines are skipped.
 * 0, or -1 with err (malformed CSV gets FILE:LINE:COL). */
int pdb_csv_read(const struct pdb_source *src, char delim, pdb_csv_row_fn fn,
		 void *ctx, struct pdb_err *err);

/* 1-based physical line where the current row ends, and number of the row
 * (1 = first row, the header when there is one). */
long pdb_csv_line(const struct pdb_csv *csv);
long pdb_csv_row(const struct pdb_csv *csv);

/* Fail at field (0-based) of the current row: "FILE:LINE:COL: message". */
int pdb_csv_bad(struct pdb_csv *csv, struct pdb_err *err, size_t field,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A header row (the current one) that names a column twice would have one
 * of the two read and the other dropped: -1 with err at the second, naming
 * the first; else 0. Empty names, which no reader looks up, may repeat. */
int pdb_csv_unique_names(struct pdb_csv *csv, char **fields, size_t nfields,
			 struct pdb_err *err);

/* Sniff the delimiter from the head of a file: ',', '\t' or ';'. */
char pdb_csv_sniff(const struct pdb_source *src);

#endif
