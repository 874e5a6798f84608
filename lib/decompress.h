/* Decompress: gzip, zstd and xz result files (and a UTF-8 byte order mark), recognised by their first bytes, to a temporary file. */
#ifndef PDB_DECOMPRESS_H
#define PDB_DECOMPRESS_H

#include <stddef.h>

#include "err.h"

/* "gzip", "zstd" or "xz" when head starts with that magic, else NULL. */
const char *pdb_compression_of(const unsigned char *head, size_t len);

/* When head (the first bytes of path) is compressed, or starts with a UTF-8
 * byte order mark, write the decompressed text (without the mark) to a new
 * temporary file, its path into out_path (the caller unlinks it):
 * 1. Not compressed: 0 and out_path "". Corrupt or truncated data: -1 with err
 * naming name. */
int pdb_decompress_to_temp(const char *path, const char *name, const unsigned char *head,
			   size_t head_len, char *out_path, size_t size, struct pdb_err *err);

#endif
