/* Sources: one input given to ingest, as its reader and the parsing toolkit see it. */
#ifndef PDB_SOURCE_H
#define PDB_SOURCE_H

#include <stddef.h>

struct pdb_buf;

/* One input given to ingest. */
struct pdb_source {
	const char *path;            /* file or directory to read */
	const char *name;            /* as the user named it, for errors */
	const unsigned char *head;   /* first bytes of a file (NUL-terminated) */
	size_t head_len;
	int is_dir;
	const char *map_path;        /* --map MAP.yaml, or NULL */
	/* What a reader read but the file may not mean ("LINE:COL: what", one a
	 * line: a key given twice), for ingest to say and keep; NULL: unsaid. */
	struct pdb_buf *warnings;
};

#endif
