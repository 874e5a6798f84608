/* Output files and folders, one rule for every writer: a regular file (or
 * none) is written beside its name and renamed over it; a device or FIFO is
 * written in place; a symlink is followed when the user named it, refused
 * inside an output folder, where perfdb names the files. */
#ifndef PDB_ATOMIC_FILE_H
#define PDB_ATOMIC_FILE_H

#include <stddef.h>

#include "err.h"

/* PDB_OUT_GIVEN: a file or folder the user named: a symlink there is
 * followed, as the user asked for it. PDB_OUT_OWN: one perfdb names inside
 * an output folder (report, site): a symlink there is refused, so that
 * nothing lands outside the output. */
enum pdb_out_kind { PDB_OUT_GIVEN, PDB_OUT_OWN };

struct pdb_atomic {
	char name[4096 + 16]; /* what the writer opens and writes */
	char target[4096];    /* the file name is renamed over; "" when written in place */
};

/* Decide how path is written: a new empty temporary file beside the regular
 * file path names (a symlink followed, for PDB_OUT_GIVEN), or path itself
 * for a character or block device or a FIFO. A directory, a socket, a
 * symlink to nothing, and a symlink of PDB_OUT_OWN are refused. 0, or -1
 * with err. */
int pdb_atomic_begin(const char *path, enum pdb_out_kind kind, struct pdb_atomic *a,
		     struct pdb_err *err);
/* ok: rename the temporary file over its target (0, or -1 with err); else
 * remove it and return -1. Written in place: 0 when ok, else -1. */
int pdb_atomic_end(const struct pdb_atomic *a, int ok, struct pdb_err *err);

/* The folders output is written into, made when missing (*made = 1 when
 * made now, if made is not NULL): kind as for files. 0, or -1 with err. */
int pdb_make_dir(const char *dir, enum pdb_out_kind kind, int *made, struct pdb_err *err);

#endif
