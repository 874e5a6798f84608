/* Positions in JSON text, which jansson does not keep: where the value at a
 * path starts, and the first key an object gives twice. */
#ifndef PDB_JSON_POS_H
#define PDB_JSON_POS_H

#include <stddef.h>

struct pdb_json_pos {
	int line, col; /* 1-based; columns count characters, as jansson's do */
};

/* Where the value at path starts ("$", "$.created_at", "$.results[2].samples[0]":
 * keys after '.', indices in brackets, as the canonical reader names them).
 * 0, or -1 when text has no such value. */
int pdb_json_path_pos(const char *text, size_t len, const char *path, struct pdb_json_pos *at);

/* The first key given twice in one object of text: 1 with *key (caller frees),
 * where its second occurrence starts and where its first value starts; 0 when
 * no key is given twice. */
int pdb_json_duplicate_key(const char *text, size_t len, char **key,
			   struct pdb_json_pos *second, struct pdb_json_pos *first_value);

#endif
