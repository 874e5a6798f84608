/* perfdb compare's output: text, Markdown, JSON, JUnit and CSV of one comparison. */
#ifndef PDB_CMD_COMPARE_OUTPUT_H
#define PDB_CMD_COMPARE_OUTPUT_H

#include <stdio.h>

#include "compare.h"
#include "compare_render.h"

/* What the reader asked for beside the comparison itself. */
struct compare_view {
	unsigned fail_on;      /* verdict bits that fail the gate (PDB_FAIL_ON_DEFAULT) */
	int all;               /* show hidden rows too */
	int failed;            /* the gate's answer: pdb_compare_failed */
	const char *title;     /* markdown: a heading above the summary, or NULL */
	const struct pdb_compare_opts *opts; /* the filters compared with, for the headline */
};

void compare_print_text(const struct pdb_compare *c, const struct compare_view *v, FILE *out);
void compare_print_markdown(const struct pdb_compare *c, const struct compare_view *v, FILE *out);
void compare_print_json(const struct pdb_compare *c, const struct compare_view *v, FILE *out);
void compare_print_junit(const struct pdb_compare *c, const struct compare_view *v, FILE *out);
void compare_print_csv(const struct pdb_compare *c, const struct compare_view *v, FILE *out);

#endif
