/* Spec keys: one reader for every mapping of a run spec (its top level,
 * benchmarks, metrics, parse, kafka: and stream:), driven by key tables. */
#ifndef PDB_SPEC_KEYS_H
#define PDB_SPEC_KEYS_H

#include <jansson.h>
#include <stddef.h>

#include "err.h"
#include "yaml_doc.h"

/* What a reader needs: the document (for FILE:LINE:COL), the spec's
 * directory (relative paths), where errors go. */
struct pdb_spec_reader {
	const struct pdb_yaml_doc *doc;
	const char *dir;    /* of the spec, with a trailing '/', or "" */
	struct pdb_err *err;
	void *ctx;          /* the caller's, for custom readers */
};

#define PDB_SPEC_MAX_SECONDS 1e6 /* any duration of a spec: 11.6 days at most */

enum pdb_spec_type {
	PDB_KEY_TEXT,       /* char *: a non-empty string */
	PDB_KEY_PATH,       /* char *: a file name, relative ones to the spec's directory */
	PDB_KEY_PLAIN,      /* char *: any scalar as text (numbers too) */
	PDB_KEY_REGEX,      /* char *: a POSIX extended regex with a (group) */
	PDB_KEY_INT,        /* int, long or long long (by the field's size): a whole number in [min, max] */
	PDB_KEY_SECONDS,    /* double: finite seconds in [min, max] */
	PDB_KEY_BOOL,       /* int: true or false */
	PDB_KEY_CHOICE,     /* int: the index of the value in choices */
	PDB_KEY_CUSTOM,     /* read(r, v, out) does it all */
};

/* One key of a mapping: how its value is checked and where it goes (a
 * field of the struct out that pdb_spec_read_map is given). */
struct pdb_spec_key {
	const char *name;
	int type;                       /* enum pdb_spec_type */
	size_t offset, size;            /* of the field in out */
	double min, max;                /* PDB_KEY_INT, PDB_KEY_SECONDS */
	const char *const *choices;     /* PDB_KEY_CHOICE: NULL-terminated */
	/* PDB_KEY_CUSTOM: reads v (the value of key k) into out */
	int (*read)(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out);
};

#define PDB_KEY_FIELD(T, f) offsetof(T, f), sizeof(((T *)0)->f)
#define PDB_KEY(T, name, type, f) { name, type, PDB_KEY_FIELD(T, f), 0, 0, NULL, NULL }
#define PDB_KEY_RANGE(T, name, type, f, lo, hi) { name, type, PDB_KEY_FIELD(T, f), lo, hi, NULL, NULL }
#define PDB_KEY_ONE_OF(T, name, f, choices) { name, PDB_KEY_CHOICE, PDB_KEY_FIELD(T, f), 0, 0, choices, NULL }
#define PDB_KEY_READ(name, fn) { name, PDB_KEY_CUSTOM, 0, 0, 0, 0, NULL, fn }
#define PDB_KEY_READ_FIELD(T, name, f, fn) { name, PDB_KEY_CUSTOM, PDB_KEY_FIELD(T, f), 0, 0, NULL, fn }

/* A table of keys, named as errors and docs name its mapping ("a
 * benchmark", "kafka", "a metric"). */
struct pdb_spec_section {
	const char *name;
	const struct pdb_spec_key *keys;
	size_t nkeys;
};

/* Read mapping v key by key into out: a key not in the section is refused
 * ("FILE:LINE:COL: unknown key 'K' in NAME (did you mean X?)"), every
 * value is checked as its key says. 0, or -1 with err (PDB_EXIT_INPUT). */
int pdb_spec_read_map(struct pdb_spec_reader *r, const json_t *v, const struct pdb_spec_section *section,
		      void *out);

/* Fail at value v: "FILE:LINE:COL: WHAT: message". Returns -1. */
int pdb_spec_bad(struct pdb_spec_reader *r, const json_t *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Fail at key of mapping map (its key, not its value): as pdb_spec_bad. */
int pdb_spec_bad_key(struct pdb_spec_reader *r, const json_t *map, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Single values, for custom readers: as the types above (what names the key). */
int pdb_spec_text(struct pdb_spec_reader *r, const json_t *v, char **out, const char *what);
int pdb_spec_regex(struct pdb_spec_reader *r, const json_t *v, char **out, const char *what);
int pdb_spec_seconds(struct pdb_spec_reader *r, const json_t *v, double min, double max, double *out,
		     const char *what);
int pdb_spec_bool(struct pdb_spec_reader *r, const json_t *v, int *out, const char *what);
/* A path relative to the spec's directory (absolute ones as they are). Caller frees. */
char *pdb_spec_path(const struct pdb_spec_reader *r, const char *p);
/* The spec's directory with a trailing '/' ("" for none). Caller frees. */
char *pdb_spec_dir(const char *spec_path);

/* Every section of a run spec (the run spec's, kafka's, stream's), for
 * the test that each key is documented. */
const struct pdb_spec_section *const *pdb_spec_sections(size_t *n);

#endif
