/* Attribute helpers for adapters: keep what the model has no column for as run attributes. */
#ifndef PDB_ATTRS_UTIL_H
#define PDB_ATTRS_UTIL_H

#include <jansson.h>

#include "model.h"

/* A field of one benchmark: run attribute "KEY[BENCH]" = value. */
void pdb_attr_set_bench(struct pdb_run *run, const char *key, const char *bench,
			const char *value);
/* "KEY[BENCH]", for pdb_run_set_attrs. Caller frees. */
char *pdb_attr_bench_key(const char *key, const char *bench);
/* A JSON value as attribute key: strings as they are, numbers and booleans
 * as text, arrays as compact JSON; null is left out. */
void pdb_attr_set_json(struct pdb_run *run, const char *key, const json_t *v);
/* Every member of obj as "PREFIX.KEY", nested objects as "PREFIX.KEY.SUB". */
void pdb_attr_flatten(struct pdb_run *run, const char *prefix, const json_t *obj);

#endif
