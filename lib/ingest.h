/* Ingest: read result files with the right adapter into one run. */
#ifndef PDB_INGEST_H
#define PDB_INGEST_H

#include <stddef.h>

#include "decompress.h"
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
	int strict;                  /* a file skipped in a directory is an error */
	struct pdb_input_limits limits; /* per input, decompressed (0: defaults) */
};

/* Parse paths ("-" is standard input) into one new run: results, tool,
 * format, source, sha256 (of the first file), attributes, failures. Nothing
 * is stored. Compressed files (gzip, zstd, xz) are read through, standard
 * input and FIFOs copied first, each within opts->limits (a regular file too:
 * at most limits.max_bytes); any other kind of file (a device) is refused.
 * Temporary files have no name: nothing is left on any exit. A directory
 * no adapter claims gives every file in it (subdirectories too) that an
 * adapter recognises; each file skipped, unrecognised or holding the same
 * results as a richer one, becomes the attribute ingest.skipped[NAME] with
 * the reason. Returns the run (caller frees) or NULL with err.
 * *detected (may be NULL) receives the adapter name used for the first file. */
struct pdb_run *pdb_ingest_files(const char *const *paths, size_t npaths,
				 const struct pdb_ingest_opts *opts,
				 const char **detected, struct pdb_err *err);

#endif
