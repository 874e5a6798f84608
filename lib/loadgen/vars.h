/* Template variables: the `vars:` of a kafka: or stream: workload, each a CSV column. */
#ifndef PDB_LOADGEN_VARS_H
#define PDB_LOADGEN_VARS_H

#include <jansson.h>
#include <stddef.h>

#include "runner/spec_keys.h"

/* A template variable whose values come from a CSV column. */
struct pdb_kafka_var {
	char *name;
	char *csv;          /* path, relative ones resolved against the spec's directory */
	long column;        /* 1-based */
	int header;         /* skip the first row */
	double hot_values;  /* share of the values that are hot (0: uniform choice) */
	double hot_share;   /* share of the picks that go to the hot values */
};

/* A spec's `vars:` mapping v (NAME: {csv, column, hot, header}), CSV
 * paths relative to the spec's directory, appended to *vars (the
 * spec that owns them frees them). 0, or -1 with err at FILE:LINE:COL.
 * Shared by the kafka: and stream: workloads. */
int pdb_kafka_read_vars(struct pdb_spec_reader *r, const json_t *v, struct pdb_kafka_var **vars,
			size_t *nvars);

/* The keys of a variable, for the docs test. */
extern const struct pdb_spec_section pdb_kafka_var_section;

/* Parse "10%:80%" (share of values : share of picks). 0 or -1. */
int pdb_kafka_parse_hot(const char *text, double *values, double *share);

#endif
