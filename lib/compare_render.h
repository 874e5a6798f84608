/* Compare render: one comparison as people read it — the headline and the
 * table — as text, Markdown or HTML, every string from the data escaped for
 * its target (lib/escape.c). compare, run --compare, report and site all
 * draw the comparison through this one renderer. */
#ifndef PDB_COMPARE_RENDER_H
#define PDB_COMPARE_RENDER_H

#include <stddef.h>

#include "compare.h"
#include "text_table.h"
#include "util.h"

enum pdb_render {
	PDB_RENDER_TEXT,      /* a terminal: pdb_escape_term */
	PDB_RENDER_MARKDOWN,  /* pdb_escape_md */
	PDB_RENDER_HTML,      /* pdb_escape_html */
	PDB_RENDER_PLAIN,     /* as it is, for a writer that escapes it after (XML) */
};

/* The gate's answer over a comparison. */
enum pdb_outcome {
	PDB_OUTCOME_PASS,
	PDB_OUTCOME_FAIL,  /* pdb_compare_failed */
	PDB_OUTCOME_NONE,  /* nothing to compare: no series on both sides */
};
int pdb_compare_outcome(const struct pdb_compare *c, unsigned fail_on);
/* The exit status of an outcome: 0, 1 (PDB_EXIT_REGRESSION), 3 (PDB_EXIT_INPUT). */
int pdb_compare_outcome_status(int outcome);

/* "regression,failed": the verdicts of fail_on, "never" for none. */
void pdb_compare_fail_on_text(unsigned fail_on, char *out, size_t size);
/* "1 failed, 2 regression, ..." in the order of the verdicts, of the rows
 * the table shows; "no series shown, 3 hidden", "no series". */
void pdb_compare_counts_text(const struct pdb_compare *c, struct pdb_buf *b);
/* The answer first, as compare prints it and the report heads its page:
 * "FAIL: 1 failed, 3 unchanged (fails on failed,regression)", "PASS: ...",
 * or "NO COMPARISON: no series match --bench GLOB" (opts: the filters the
 * comparison was made with, NULL: none). Escaped for fmt. */
void pdb_compare_headline(const struct pdb_compare *c, unsigned fail_on,
			  const struct pdb_compare_opts *opts, int fmt, struct pdb_buf *b);
/* "run42 (name)" for one run, "run40,run41" for a group, escaped for fmt. */
void pdb_compare_runs_label(const struct pdb_compare_run *runs, size_t n, int fmt,
			    struct pdb_buf *b);
/* s escaped for fmt. */
void pdb_render_text(int fmt, struct pdb_buf *b, const char *s);

/* The table of rows, a row at a time: begin, rows, end (which writes the
 * text table, aligned, or closes the HTML one). color: SGR colours on the
 * text's verdicts. */
struct pdb_compare_table {
	int fmt, color;
	struct pdb_buf *b;
	struct pdb_text_table text;
};
void pdb_compare_table_begin(struct pdb_compare_table *t, int fmt, int color, struct pdb_buf *b);
void pdb_compare_table_row(struct pdb_compare_table *t, const struct pdb_compare_row *r);
void pdb_compare_table_end(struct pdb_compare_table *t);
/* Every row of c shown by default (all: hidden ones too) in one table, then
 * a line counting the hidden rows and the note of the tests used; "The two
 * runs have no series in common." when there is no row. */
void pdb_compare_table_all(const struct pdb_compare *c, int fmt, int all, struct pdb_buf *b);

#endif
