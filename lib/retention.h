/* Which runs a retention policy (perfdb gc) deletes: the rule, apart from the
 * command that prints it and the store that deletes. */
#ifndef PDB_RETENTION_H
#define PDB_RETENTION_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

struct pdb_retention {
	int64_t keep_last;              /* keep the N newest runs; -1: no such rule */
	const char *cutoff;             /* keep runs created at or after this UTC time
					 * (created_at's form); NULL: no such rule */
	const struct pdb_attr *keep;    /* keep a run with any of these attributes */
	size_t nkeep;                   /* (key "name": the run of that name) */
	const char *const *per;         /* never delete the newest run of each combination */
	size_t nper;                    /* of these attributes' values (absent: a value) */
};

/* The rows (newest first, as pdb_store_list_runs gives them) that policy
 * deletes: a run outside every rule. Their indices, ascending, into del
 * (room for n); returns how many. */
size_t pdb_retention_select(const struct pdb_retention *policy,
			    const struct pdb_run_row *rows, size_t n, size_t *del);

#endif
