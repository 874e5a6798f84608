/* YAML documents: libyaml read into jansson values, with each value's line:col kept. */
#ifndef PDB_YAML_DOC_H
#define PDB_YAML_DOC_H

#include <jansson.h>

#include "err.h"

/* A YAML file as a JSON value tree (mappings -> objects, sequences ->
 * arrays; plain scalars that read as numbers, true/false or null become
 * those, everything else a string), plus where each value stood. */
struct pdb_yaml_doc {
	json_t *root;
	char *file;            /* for error messages */
	struct pdb_yaml_pos *pos;
	size_t npos, cappos;
	size_t *slots;         /* pos by node: open addressing, a slot holds a
				* pos index + 1 (0: empty), the first place a node had */
	size_t nslots;         /* a power of 2 above twice npos, or 0 */
	struct pdb_yaml_keypos *keys; /* where each key of a mapping stood */
	size_t nkeys, capkeys;
	int explicit_end;      /* the document ended with "...", as a tool that
				* ends what it writes says it finished */
};

/* The most values a document's aliases may add to it (anchors and aliases
 * are read: each *ALIAS a copy of its &ANCHOR's value, "<<: *BASE" merges
 * BASE's keys into a mapping), so that nested aliases (a "billion laughs")
 * cannot take the memory. */
#define PDB_YAML_MAX_VALUES 1000000

/* Load the first document of path. name is used in errors (NULL: path).
 * On a syntax error: -1 with err = "FILE:LINE:COL: what" (code
 * PDB_EXIT_INPUT). Release with pdb_yaml_doc_release. */
int pdb_yaml_load(const char *path, const char *name, struct pdb_yaml_doc *doc,
		  struct pdb_err *err);
void pdb_yaml_doc_release(struct pdb_yaml_doc *doc);

/* Where value v (a node of doc->root) started: 1-based line and column.
 * Returns 0, or -1 when unknown (line and col then 0). */
int pdb_yaml_where(const struct pdb_yaml_doc *doc, const json_t *v, int *line, int *col);

/* Where key of mapping map (a node of doc->root) stood: for a key that
 * an alias or a merge key `<<` copied, where it stood in its anchor.
 * Returns 0, or -1 when unknown (line and col then 0). */
int pdb_yaml_key_where(const struct pdb_yaml_doc *doc, const json_t *map, const char *key, int *line,
		       int *col);

/* A scalar as text: strings as they are, numbers printed plainly (the
 * shortest exact form), booleans as true/false; NULL for anything else.
 * Caller frees. */
char *pdb_yaml_scalar_text(const json_t *v);

/* Fail at value v: "FILE:LINE:COL: message", with code. Returns -1. */
int pdb_yaml_bad(const struct pdb_yaml_doc *doc, const json_t *v, int code,
		 struct pdb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Fail at key of mapping map: "FILE:LINE:COL: message", with code. Returns -1. */
int pdb_yaml_bad_key(const struct pdb_yaml_doc *doc, const json_t *map, const char *key, int code,
		     struct pdb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

#endif
