/* Output files, one rule for every writer: a regular file (or none) is
 * written beside its name and renamed over it; a device or FIFO is written
 * in place; a symlink is followed to what it names, by the same rule. */
#ifndef PDB_ATOMIC_FILE_H
#define PDB_ATOMIC_FILE_H

#include <stddef.h>

#include "err.h"

struct pdb_atomic {
	char name[4096 + 16]; /* what the writer opens and writes */
	char target[4096];    /* the file name is renamed over; "" when written in place */
};

/* Decide how path is written: a new empty temporary file beside the regular
 * file path names (a symlink followed), or path itself for a character or
 * block device or a FIFO. A directory, a socket, a symlink to nothing are
 * refused. 0, or -1 with err. */
int pdb_atomic_begin(const char *path, struct pdb_atomic *a, struct pdb_err *err);
/* ok: rename the temporary file over its target (0, or -1 with err); else
 * remove it and return -1. Written in place: 0 when ok, else -1. */
int pdb_atomic_end(const struct pdb_atomic *a, int ok, struct pdb_err *err);

/* The folders output is written into. PDB_DIR_GIVEN: a folder the user named
 * (a symlink to a folder is followed, as the user asked for it);
 * PDB_DIR_OWN: one perfdb makes inside it (a symlink there is refused, so
 * that no page lands outside the output). Made when missing (*made = 1 when
 * made now, if made is not NULL). 0, or -1 with err. */
enum pdb_dir_kind { PDB_DIR_GIVEN, PDB_DIR_OWN };
int pdb_make_dir(const char *dir, enum pdb_dir_kind kind, int *made, struct pdb_err *err);

#endif
