/* Escaping: text from the data made safe for each place it is written to.
 * One function per target; every string that came from a result file, a
 * run's attributes or the command line (names, dims, attributes, failure
 * reasons, commits, run names) goes through the one of its target. */
#ifndef PDB_ESCAPE_H
#define PDB_ESCAPE_H

#include <stddef.h>

#include "util.h"

/* Append s to b with & < > " ' as character references (text and
 * attribute values alike), control characters other than tab and line
 * breaks as U+FFFD. NULL appends nothing. */
void pdb_escape_html(struct pdb_buf *b, const char *s);
/* Append s to b so that Markdown (GitHub's included) shows it as text,
 * also inside a table cell: punctuation that means something (backticks,
 * |, *, _, [ ] ..., and < > &, so that no tag or reference forms) is
 * backslash-escaped, line breaks and tabs become spaces, other control
 * characters U+FFFD; the "://" of a
 * URL and the "." of "www." too, which GitHub would make a link of. (An
 * e-mail address still becomes a mailto: link: no escape prevents that.) */
void pdb_escape_md(struct pdb_buf *b, const char *s);
/* Append s to b as XML 1.0 text or attribute value: & < > " ' as
 * references, tab and line breaks as &#9; &#10; &#13; (kept in attributes),
 * every other control character (C0, DEL, C1), which XML 1.0 forbids or
 * parsers reject, as U+FFFD. */
void pdb_escape_xml(struct pdb_buf *b, const char *s);
/* Append s to b for a terminal: \n \r \t as those two characters, other
 * C0 characters (ESC, BEL) and DEL as \xNN, C1 characters (U+0080..U+009F,
 * which terminals also obey) as \u00NN, the bidirectional overrides and
 * isolates (U+202A..U+202E, U+2066..U+2069) and the line and paragraph
 * separators (U+2028, U+2029) as \u20NN; an escape sequence from the data
 * never reaches the terminal, nor reorders or breaks what follows it. */
void pdb_escape_term(struct pdb_buf *b, const char *s);
/* The same of n bytes. */
void pdb_escape_term_n(struct pdb_buf *b, const char *s, size_t n);
/* s for a terminal as pdb_escape_term writes it. Caller frees. */
char *pdb_term_text(const char *s);

/* Append the n bytes at s to b as one CSV cell (RFC 4180: quoted when it
 * holds , " or a line break, quotes doubled). A cell a spreadsheet would
 * take for a formula (starting with = + - @ tab or CR) is prefixed with a
 * single quote, unless it is a number ("-3.2", "+1e5", "-inf"): numbers
 * stay numbers. */
void pdb_escape_csv_n(struct pdb_buf *b, const char *s, size_t n);
void pdb_escape_csv(struct pdb_buf *b, const char *s);

#endif
