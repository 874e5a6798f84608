/* Canonical JSON: perfdb's own lossless form of a run (what `show --format json` prints). */
#ifndef PDB_CANONICAL_H
#define PDB_CANONICAL_H

#include <jansson.h>

#include "err.h"
#include "model.h"

/* The canonical form of run. Caller owns (json_decref). */
json_t *pdb_canonical_from_run(const struct pdb_run *run);

/* Fill run from the canonical document text (len bytes, NUL-terminated;
 * changed in place: see pdb_json_parse): uuid, name, created_at, tool,
 * format, source, sha256, status, attrs, results and failures. A key given
 * twice is an error. name names the file or message in errors, which say
 * where in text the value is. 0, or -1 with err. */
int pdb_canonical_read(char *text, size_t len, struct pdb_run *run, const char *name,
		       struct pdb_err *err);
/* The same from file loaded with pdb_json_doc_load (unique keys), whose
 * results[*].samples (PDB_CANONICAL_PACKED) may be packed: each packed
 * array is freed as it becomes samples; an error reads the file's text
 * again to say where. */
#define PDB_CANONICAL_PACKED "$.results[*].samples"
struct pdb_json_doc;
struct pdb_source;
int pdb_canonical_read_packed(struct pdb_json_doc *doc, const struct pdb_source *file,
			      struct pdb_run *run, struct pdb_err *err);

/* Print a double as JSON: integers without a fraction, NaN/inf as null. */
json_t *pdb_json_number(double v);

#endif
