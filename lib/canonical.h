/* Canonical JSON: perfdb's own lossless form of a run (what `show --format json` prints). */
#ifndef PDB_CANONICAL_H
#define PDB_CANONICAL_H

#include <jansson.h>

#include "err.h"
#include "formats/json_packed.h"
#include "model.h"

/* The canonical form of run. Caller owns (json_decref). */
json_t *pdb_canonical_from_run(const struct pdb_run *run);

/* Fill run from a canonical document (uuid, name, created_at, tool, format,
 * source, status, attrs and results are taken from it). source names the
 * file in errors. 0, or -1 with err. */
int pdb_canonical_to_run(json_t *doc, struct pdb_run *run, const char *source,
			 struct pdb_err *err);
/* The same from a document loaded with pdb_json_doc_load, whose
 * results[*].samples may be packed (PDB_CANONICAL_PACKED). */
#define PDB_CANONICAL_PACKED "$.results[*].samples"
int pdb_canonical_doc_to_run(struct pdb_json_doc *doc, struct pdb_run *run,
			     const char *source, struct pdb_err *err);

/* Print a double as JSON: integers without a fraction, NaN/inf as null. */
json_t *pdb_json_number(double v);

#endif
