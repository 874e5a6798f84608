/* JSON with long arrays of numbers kept packed: 8 bytes a number instead of a jansson value each. */
#ifndef PDB_JSON_PACKED_H
#define PDB_JSON_PACKED_H

#include <jansson.h>

#include "err.h"
#include "parse/source.h"

/* Arrays with fewer numbers stay jansson arrays. */
#define PDB_JSON_PACK_MIN 256

/* The numbers of one packed array, as jansson would have read them. */
struct pdb_json_numbers {
	double *values;
	unsigned char *integer; /* bit i set: element i was written as an integer */
	size_t n;
};

struct pdb_json_doc {
	json_t *root;
	struct pdb_json_numbers *packed;
	size_t npacked, cappacked;
};

/* Load src as pdb_json_load does, with the same values and the same errors,
 * but read the file in chunks: an array of PDB_JSON_PACK_MIN or more plain
 * numbers whose path is one of keep (NULL-ended, at most 8, made of ".KEY"
 * and "[*]" steps: "$.results[*].times") stays packed, and
 * pdb_json_doc_numbers reads it; every other value is jansson's. unique_keys
 * as for pdb_json_parse.
 * 0, or -1 with err. pdb_json_doc_free after either. */
int pdb_json_doc_load(const struct pdb_source *src, const char *const *keep, int unique_keys,
		      struct pdb_json_doc *doc, struct pdb_err *err);
void pdb_json_doc_free(struct pdb_json_doc *doc);

/* The numbers of v when v is a packed array, else NULL (v is then a jansson
 * value: an array to read element by element, or no array at all). */
const struct pdb_json_numbers *pdb_json_doc_numbers(const struct pdb_json_doc *doc,
						    const json_t *v);
/* Free v's packed numbers once they are read (v then has none), so that a
 * big file's numbers are not held twice while they become samples. */
void pdb_json_doc_drop(struct pdb_json_doc *doc, const json_t *v);
/* The jansson array a packed array stands for (a new reference). */
json_t *pdb_json_numbers_array(const struct pdb_json_numbers *nums);

#endif
