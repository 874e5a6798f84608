/* Store: the queries behind `perfdb report` (the default baseline). */
#ifndef PDB_STORE_REPORT_H
#define PDB_STORE_REPORT_H

#include <stdint.h>

#include "store/store.h"

/* 1 when runs a and b each have a value of one series (not of a benchmark
 * that failed in its run), 0 when not, -1 with err. */
int pdb_store_runs_share(struct pdb_store *store, int64_t a, int64_t b, struct pdb_err *err);

#endif
