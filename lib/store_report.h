/* Store: the queries behind `perfdb report` (the default baseline). */
#ifndef PDB_STORE_REPORT_H
#define PDB_STORE_REPORT_H

#include <stdint.h>

#include "store.h"

/* The newest run before run before_id in the order of runs whose attributes
 * match where ("k=v,k=v"; NULL: any run) that has a value of a series
 * run before_id has a value of (as the site compares a run). *id = 0 when
 * there is none. */
int pdb_store_previous_run(struct pdb_store *store, int64_t before_id, const char *where,
			   int64_t *id, struct pdb_err *err);

#endif
