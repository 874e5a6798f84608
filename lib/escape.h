/* Escaping: text from the data made safe for HTML and for Markdown tables. */
#ifndef PDB_ESCAPE_H
#define PDB_ESCAPE_H

#include "util.h"

/* Append s to b with & < > " ' as character references (text and
 * attribute values alike). NULL appends nothing. */
void pdb_escape_html(struct pdb_buf *b, const char *s);
/* Append s to b so that Markdown (GitHub's included) shows it as text,
 * also inside a table cell: punctuation that means something is
 * backslash-escaped, < > & become references, line breaks spaces. */
void pdb_escape_md(struct pdb_buf *b, const char *s);

#endif
