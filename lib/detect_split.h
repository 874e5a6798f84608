/* detect's calculator (lib/detect_split.c): E-divisive means over sliding
 * windows, the candidates of change points. Pure functions. */
#ifndef PDB_DETECT_SPLIT_H
#define PDB_DETECT_SPLIT_H

#include <stddef.h>

#include "detect.h"

/* Sliding windows of `window` with step window/2 from state->resume on,
 * adding weak change points (p <= pmax; plateaus: also a regime that ends
 * inside its interval) to state; *weak gets them all, sorted. */
void detect_split(const double *x, size_t n, size_t window, double pmax, int plateaus,
		  struct pdb_detect_state *state, size_t **weak, size_t *nweak);

#endif
