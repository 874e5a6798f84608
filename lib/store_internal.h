/* Store internals shared by the lib/store*.c files (not for other modules). */
#ifndef PDB_STORE_INTERNAL_H
#define PDB_STORE_INTERNAL_H

#include <sqlite3.h>

#include "store.h"

struct pdb_migration {
	const char *name;
	const char *sql;
};
extern const struct pdb_migration pdb_migrations[]; /* generated, NULL-ended */

struct pdb_store {
	sqlite3 *db;
	char *path;
};

/* Fill err from the database's last error; returns -1. */
int pdb_store_fail(struct pdb_store *store, struct pdb_err *err, const char *what);
/* Prepare sql or fill err. */
sqlite3_stmt *pdb_store_prepare(struct pdb_store *store, const char *sql,
				struct pdb_err *err);
int pdb_store_exec(struct pdb_store *store, const char *sql, struct pdb_err *err);
/* BEGIN IMMEDIATE / COMMIT / ROLLBACK. */
int pdb_store_begin(struct pdb_store *store, struct pdb_err *err);
int pdb_store_commit(struct pdb_store *store, struct pdb_err *err);
void pdb_store_rollback(struct pdb_store *store);

/* Pack and unpack arrays of doubles (little-endian) for sample blobs. */
void pdb_store_pack(const struct pdb_sample *s, size_t n, int which, unsigned char *out);
void pdb_store_unpack(const unsigned char *blob, size_t n, int which, struct pdb_sample *s);
enum { PDB_PACK_VALUE, PDB_PACK_T, PDB_PACK_WEIGHT };

#endif
