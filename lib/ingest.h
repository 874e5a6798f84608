/* Ingest: read result files with the right adapter into one run. */
#ifndef PDB_INGEST_H
#define PDB_INGEST_H

#include <stddef.h>

#include "err.h"
#include "model.h"

struct pdb_ingest_opts {
	const char *format;          /* adapter name, or NULL to detect */
	const char *name;            /* run name, or NULL */
	const char *map_path;        /* --map MAP.yaml, or NULL */
	const struct pdb_attr *attrs;/* --attr K=V */
	size_t nattrs;
	const struct pdb_attr *dims; /* --dim K=V, added to every series */
	size_t ndims;
	int fingerprint;             /* capture the environment */
};

/* Parse paths ("-" is standard input) into one new run: results, tool,
 * format, source, sha256 (of the first file), attributes. Nothing is
 * stored. Returns the run (caller frees) or NULL with err.
 * *detected (may be NULL) receives the adapter name used for the first file. */
struct pdb_run *pdb_ingest_files(const char *const *paths, size_t npaths,
				 const struct pdb_ingest_opts *opts,
				 const char **detected, struct pdb_err *err);

#endif
