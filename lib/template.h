/* Templates: {{name}} placeholders and {{#name}}...{{/name}} blocks filled from variables. */
#ifndef PDB_TEMPLATE_H
#define PDB_TEMPLATE_H

#include <stddef.h>

#include "err.h"
#include "util.h"

struct pdb_template_var {
	const char *name;
	const char *value;   /* inserted as is (the caller escapes); NULL counts as "" */
};

/* Fill tmpl into out. {{name}} is replaced by the variable's value;
 * {{#name}}...{{/name}} is kept when the value is not empty and dropped
 * otherwise; a block tag alone on its line takes the line with it. Names
 * are letters, digits and '_'. An unknown name, an unclosed or crossed
 * block, or a "{{" that starts no tag fails with err at source:line:col
 * (code PDB_EXIT_INPUT). Returns 0 or -1; out holds what was filled. */
int pdb_template_fill(const char *tmpl, const char *source,
		      const struct pdb_template_var *vars, size_t nvars,
		      struct pdb_buf *out, struct pdb_err *err);

#endif
