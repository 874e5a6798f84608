/* Store: look a run up by uuid (deduplication of runs that arrive more than once). */
#ifndef PDB_STORE_UUID_H
#define PDB_STORE_UUID_H

#include <stdint.h>

#include "store/store.h"

/* *id = the stored run with uuid, or 0 when there is none. 0 or -1 with err. */
int pdb_store_find_uuid(struct pdb_store *store, const char *uuid, int64_t *id,
			struct pdb_err *err);

#endif
