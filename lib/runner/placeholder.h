/* Placeholders: the {NAME}s the runner puts values into, one list for the
 * expansion and for the check that refuses a name it does not hold. */
#ifndef PDB_PLACEHOLDER_H
#define PDB_PLACEHOLDER_H

#include <stddef.h>

#include "err.h"
#include "runner/spec.h"

/* The value of {p..p+len} for benchmark bench at point of variant, or NULL:
 * the benchmark's matrix parameters at point, the variant's keys, {dir}
 * (a git: variant's worktree, else the current checkout). With point
 * PDB_PLAN_NO_POINT the matrix is not read (a build: bench is then not read). */
const char *pdb_placeholder_value(const struct pdb_spec *spec, size_t bench, size_t point, size_t variant,
				  const char *p, size_t len);

/* text with every placeholder (an axis of bench at point, a {KEY} of the
 * variant, {dir}) replaced by its value; other braces are left alone. With
 * point PDB_PLAN_NO_POINT, no axis (a build runs before any matrix point;
 * bench is then not read). Caller frees. */
char *pdb_placeholder_expand(const struct pdb_spec *spec, size_t bench, size_t point, size_t variant,
			     const char *text);

/* The next {NAME} of text from p on that the check reads: NAME of 1 to 64
 * letters, digits, '_', '.' and '-', the '{' not after a '$' (the shell's
 * ${NAME}); its '{', the name's length in *len, or NULL. */
const char *pdb_placeholder_next(const char *text, const char *p, size_t *len);

/* A {NAME} of the texts the runner expands that is not one of the list above
 * for its benchmark (at any point, of any variant) but within two edits of
 * one is a misspelling: an input error at its place in the spec,
 * "FILE:LINE:COL: benchmark 'B': unknown placeholder {NAME} (did you mean
 * {dir}?)" (PDB_EXIT_INPUT); further from every one, it is the command's own
 * text (awk's {print}) and stays. Asked once the spec's variants are final
 * (the command line's, a bisection's revisions). */
int pdb_placeholder_check(const struct pdb_spec *spec, struct pdb_err *err);

#endif
