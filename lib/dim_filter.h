/* --dim K=V (repeatable): which series a command takes by their dims. One
 * parser and one matcher for plot, show, table, compare and export. */
#ifndef PDB_DIM_FILTER_H
#define PDB_DIM_FILTER_H

#include <stddef.h>

#include "err.h"
#include "model.h"

struct pdb_dim_filter {
	struct pdb_attr *want;  /* the K=V given, in order */
	size_t n;
	unsigned char *seen;    /* want[i]'s key is a dim of a series looked at */
	char **keys;            /* every dim key of the series looked at, sorted, for the error */
	size_t nkeys;
};

/* Add "K=V" (K and V not empty); 0, or -1 with err (PDB_EXIT_USAGE). */
int pdb_dim_filter_add(struct pdb_dim_filter *f, const char *text, struct pdb_err *err);
void pdb_dim_filter_release(struct pdb_dim_filter *f); /* NULL-safe */

/* Whether a series with these dims passes: every K given that it has is V
 * (a series without K, such as a stream's `sent` beside its stages, stays).
 * f NULL or empty: every series. Notes the dims' keys for
 * pdb_dim_filter_check. */
int pdb_dim_filter_pass(struct pdb_dim_filter *f, const struct pdb_attr *dims, size_t n);
/* The same for dims as the store keeps them (a JSON object's text). */
int pdb_dim_filter_pass_json(struct pdb_dim_filter *f, const char *dims_json);

/* After the series were looked at: 0, or -1 with err (PDB_EXIT_INPUT)
 * when a K given is a dim of none of them ("--dim rte=10: no series has
 * a dim 'rte' (their dims: rate, stage)"). */
int pdb_dim_filter_check(const struct pdb_dim_filter *f, struct pdb_err *err);

#endif
