/* Decompress: gzip, zstd and xz result files (and a UTF-8 byte order mark),
 * recognised by their first bytes, and pipes, into temporary files that have
 * no name, within limits of size and ratio. */
#ifndef PDB_DECOMPRESS_H
#define PDB_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* How much one input may give once decompressed (or read from a pipe): a
 * bound on the disk, memory and time a compression bomb or an endless pipe
 * takes. A field left 0 takes its default. */
struct pdb_input_limits {
	uint64_t max_bytes; /* at most this many bytes (default 1 GiB) */
	double max_ratio;   /* at most this many times the compressed bytes read,
			     * once past PDB_RATIO_FLOOR (default 100) */
};

#define PDB_MAX_BYTES_DEFAULT ((uint64_t)1 << 30)
#define PDB_MAX_RATIO_DEFAULT 100.0
#define PDB_RATIO_FLOOR ((uint64_t)64 << 20) /* below it any ratio is fine */

/* The limits of l with its defaults filled in (l may be NULL). */
struct pdb_input_limits pdb_input_limits_or_default(const struct pdb_input_limits *l);

/* "1 GiB", "64 MiB", "1 KiB" or "N bytes": a limit for a message. */
void pdb_format_bytes(uint64_t n, char *buf, size_t size);

/* A temporary file without a name: created in $TMPDIR (or /tmp) and unlinked
 * at once, so that the system removes it on every exit, out of memory, a
 * signal and kill -9 included. path (/proc/self/fd/N) opens it again. */
struct pdb_temp {
	int fd; /* -1: none */
	char path[32];
};

void pdb_temp_init(struct pdb_temp *t);
void pdb_temp_close(struct pdb_temp *t);

/* "gzip", "zstd" or "xz" when head starts with that magic, else NULL. */
const char *pdb_compression_of(const unsigned char *head, size_t len);

/* When head (the first bytes of path) is compressed, or starts with a UTF-8
 * byte order mark, write the decompressed text (without the mark) to a new
 * temporary file out (the caller closes it): 1. Not compressed: 0. Corrupt
 * or truncated data, or more than lim allows: -1 with err naming name.
 * origin_size: 0 when path is the file as given, so that the ratio is of
 * what was read of it so far; else the size of that file (path is then
 * itself decompressed from it), the ratio's base. */
int pdb_decompress_to_temp(const char *path, const char *name, const unsigned char *head,
			   size_t head_len, uint64_t origin_size,
			   const struct pdb_input_limits *lim, struct pdb_temp *out,
			   struct pdb_err *err);

/* Copy what fd gives (standard input, a FIFO) until its end into a new
 * temporary file out: 0, or -1 with err naming name (read error, more than
 * lim->max_bytes). */
int pdb_spool_to_temp(int fd, const char *name, const struct pdb_input_limits *lim,
		      struct pdb_temp *out, struct pdb_err *err);

#endif
