/* Positions in JSON text, which jansson does not keep: where the value at a
 * path starts, and the keys an object gives twice. */
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

/* A key given again in one object: where it is given again, and where the
 * value of its first occurrence starts. */
struct pdb_json_dup {
	char *key;
	struct pdb_json_pos again, first_value;
};
/* Every key given again in one object of text, in the text's order (a key
 * given three times twice): how many, into *dups (NULL for none); free
 * them with pdb_json_dups_free. */
size_t pdb_json_duplicate_keys(const char *text, size_t len, struct pdb_json_dup **dups);
void pdb_json_dups_free(struct pdb_json_dup *dups, size_t n);

#endif
