/* Text tables: aligned columns for a terminal, written into a buffer. */
#ifndef PDB_TEXT_TABLE_H
#define PDB_TEXT_TABLE_H

#include <stddef.h>

#include "util.h"

struct pdb_text_table {
	size_t ncols, nrows, cap;
	char **cells;         /* nrows * ncols, escaped for the terminal */
	const char **styles;  /* per row: an SGR colour for the last cell, or NULL */
	const char *align;    /* per column: 'l' or 'r' */
};
void pdb_text_table_init(struct pdb_text_table *t, size_t ncols, const char *align);
/* Cells are copied through pdb_escape_term: bytes from a result file never
 * reach a terminal raw. style: a static SGR code ("\033[31m") for the last
 * cell, or NULL. */
void pdb_text_table_add(struct pdb_text_table *t, const char *const *row, const char *style);
/* The rows, columns two spaces apart, each row ended by a newline. */
void pdb_text_table_write(const struct pdb_text_table *t, struct pdb_buf *out);
void pdb_text_table_release(struct pdb_text_table *t);

#endif
