/* Load-tool helpers: a benchmark none of whose requests succeeded is a failure of the run. */
#ifndef PDB_LOAD_UTIL_H
#define PDB_LOAD_UTIL_H

#include "model.h"

/* For every benchmark (with its dims) of run whose `requests` all failed
 * (`errors` + `non_2xx` + `non_2xx_3xx` reach them), or that has no
 * `successful` one but errors: a failure with the counts as its reason.
 * Partial errors stay metrics, gated as lower is better. */
void pdb_load_mark_failures(struct pdb_run *run);

#endif
