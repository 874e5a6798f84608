/* Map specs: a MAP.yaml that declares how a CSV, JSON or YAML file becomes series. */
#ifndef PDB_MAP_SPEC_H
#define PDB_MAP_SPEC_H

#include <stddef.h>

#include "err.h"

enum pdb_map_input { PDB_MAP_CSV, PDB_MAP_JSON, PDB_MAP_YAML };

/* Where a text or a number comes from: a column (a CSV column name, a
 * 1-based column number when the CSV has no header, or a field path in a
 * JSON/YAML record) or a constant. */
struct pdb_map_field {
	char *name;      /* dimension, attribute or metric name */
	char *column;    /* column or field path; NULL for a constant */
	char *value;     /* the constant; NULL when read from a column */
	long number;     /* CSV without header: 1-based column number */
	int line, col;   /* where the entry stands in MAP.yaml */
};

struct pdb_map_metric {
	struct pdb_map_field f;
	char *unit;      /* the raw unit as written, or NULL */
	int direction;   /* enum pdb_direction when has_direction */
	int has_direction;
	char *stat;      /* the column holds this statistic, not samples; or NULL */
};

struct pdb_map_spec {
	char *file;                     /* MAP.yaml as named, for errors */
	int input;                      /* enum pdb_map_input */
	char delimiter;                 /* CSV; 0: sniffed from the file */
	long header;                    /* CSV: row of column names, 0 = none */
	char *records;                  /* JSON/YAML: path to the list of records */
	int records_line, records_col;
	char *tool;                     /* run's tool, or NULL */
	struct pdb_map_field benchmark;
	struct pdb_map_field *dims;
	size_t ndims;
	struct pdb_map_metric *metrics;
	size_t nmetrics;
	struct pdb_map_field *attrs;
	size_t nattrs;
};

/* Read and check MAP.yaml at path. Errors: "MAP.yaml:LINE:COL: what",
 * code PDB_EXIT_INPUT. Release with pdb_map_spec_release (also after -1). */
int pdb_map_spec_load(const char *path, struct pdb_map_spec *spec, struct pdb_err *err);
void pdb_map_spec_release(struct pdb_map_spec *spec);

/* One step of a record path ("$.results[*]", "stats.p99", "runs[0].time"):
 * an object key, or an array index when key is NULL. */
struct pdb_map_step {
	char *key;
	long index;      /* -1: every element ("[*]", only at the end) */
};
/* Split path into steps (caller frees with pdb_map_steps_free). A leading
 * "$" is optional. 0, or -1 with *what set to a description of the fault. */
int pdb_map_path_parse(const char *path, struct pdb_map_step **steps, size_t *nsteps,
		       const char **what);
void pdb_map_steps_free(struct pdb_map_step *steps, size_t nsteps);

#endif
