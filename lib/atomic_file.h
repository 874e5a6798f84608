/* Atomic files: write beside the final name, then rename over it (a symlink there is replaced, never followed). */
#ifndef PDB_ATOMIC_FILE_H
#define PDB_ATOMIC_FILE_H

#include <stddef.h>

#include "err.h"

/* A new empty temporary file in path's directory, its name into tmp. 0, or -1 with err. */
int pdb_atomic_begin(const char *path, char *tmp, size_t size, struct pdb_err *err);
/* ok: rename tmp over path (0, or -1 with err); else remove tmp and return -1. */
int pdb_atomic_end(const char *tmp, const char *path, int ok, struct pdb_err *err);

/* The folders output is written into. PDB_DIR_GIVEN: a folder the user named
 * (a symlink to a folder is followed, as the user asked for it);
 * PDB_DIR_OWN: one perfdb makes inside it (a symlink there is refused, so
 * that no page lands outside the output). Made when missing (*made = 1 when
 * made now, if made is not NULL). 0, or -1 with err. */
enum pdb_dir_kind { PDB_DIR_GIVEN, PDB_DIR_OWN };
int pdb_make_dir(const char *dir, enum pdb_dir_kind kind, int *made, struct pdb_err *err);

#endif
