/* detect's cache as data: its split states to and from the rows the
 * store keeps without interpreting them (lib/gather/detect_gather.h
 * reads and writes those). */
#ifndef PDB_DETECT_CACHE_H
#define PDB_DETECT_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "detect.h"
#include "detect_row.h"

/* The text naming what a cached split depends on: the options, since_id
 * and where (NULL: none). Caller frees. */
char *pdb_detect_params(const struct pdb_detect_opts *o, int64_t since_id, const char *where);

/* The state a cached row holds, when it holds together (0); -1, with *s
 * left empty, when not. */
int pdb_detect_state_of_row(const struct pdb_detect_cache_row *r, struct pdb_detect_state *s);
/* The row of a state (its lists malloc'ed). */
void pdb_detect_row_of_state(const struct pdb_detect_state *s, struct pdb_detect_cache_row *r);

#endif
