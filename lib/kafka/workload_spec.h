/* Kafka workload specs: the `kafka:` section of a benchmark in a run spec. */
#ifndef PDB_KAFKA_WORKLOAD_SPEC_H
#define PDB_KAFKA_WORKLOAD_SPEC_H

#include <regex.h>
#include <stddef.h>

#include "err.h"
#include "formats/map_spec.h"
#include "model.h"
#include "runner/capacity.h"
#include "runner/spec_keys.h"
#include "yaml_doc.h"

/* A template variable whose values come from a CSV column. */
struct pdb_kafka_var {
	char *name;
	char *csv;          /* path, relative ones resolved against the spec's directory */
	long column;        /* 1-based */
	int header;         /* skip the first row */
	double hot_values;  /* share of the values that are hot (0: uniform choice) */
	double hot_share;   /* share of the picks that go to the hot values */
};

enum pdb_kafka_key { PDB_KAFKA_KEY_NONE, PDB_KAFKA_KEY_SEQ, PDB_KAFKA_KEY_VAR };

/* How an output message without perfdb's header is tied to its input: a
 * value the pipeline keeps in the payload, the $SEQ or $GUID of the input. */
enum pdb_kafka_match { PDB_KAFKA_MATCH_HEADER, PDB_KAFKA_MATCH_PATH, PDB_KAFKA_MATCH_REGEX };

struct pdb_kafka_spec {
	char *brokers;              /* "host:port,..." or "mock:N" */
	struct pdb_attr *producer;  /* librdkafka properties passed through */
	size_t nproducer;
	struct pdb_attr *consumer;
	size_t nconsumer;
	char *topic, *output_topic; /* output_topic may be NULL */
	int partitions;             /* topics created on a mock cluster */
	long size;                  /* payload bytes without a template */
	char *template_path;        /* NULL: random payloads of size bytes */
	struct pdb_kafka_var *vars;
	size_t nvars;
	int key;                    /* enum pdb_kafka_key */
	char *key_var;              /* with PDB_KAFKA_KEY_VAR */
	char *rate;                 /* msg/s as written; may hold {matrix} names (a search: its LOW) */
	struct pdb_capacity *search; /* rate: {search: ...}: the highest rate that holds, or NULL */
	double duration;            /* seconds of measurement (0 with count) */
	long long count;            /* messages to measure (0 with duration) */
	double warmup;              /* seconds produced before measuring */
	double drain;               /* seconds to wait for stragglers */
	int produce_only;           /* consume: false: no consumer, no header */
	int match;                  /* enum pdb_kafka_match */
	char *match_text;           /* the path or regex as written */
	struct pdb_map_step *match_steps; /* PDB_KAFKA_MATCH_PATH: "$.seq" */
	size_t nmatch_steps;
	regex_t match_re;           /* PDB_KAFKA_MATCH_REGEX: its first group (else the whole match) is the value */
	char **lag_groups;          /* consumer groups whose lag on topic is recorded */
	size_t nlag_groups;
};

/* Read the `kafka:` mapping v of doc (spec_path names the spec, for
 * relative paths). Errors are FILE:LINE:COL (PDB_EXIT_INPUT). Returns a
 * spec the caller frees with pdb_kafka_spec_free, or NULL. */
struct pdb_kafka_spec *pdb_kafka_spec_read(const struct pdb_yaml_doc *doc, const json_t *v,
					   const char *spec_path, struct pdb_err *err);
void pdb_kafka_spec_free(struct pdb_kafka_spec *ks); /* NULL-safe */

/* The rate after matrix expansion: 0 (flat out) or messages/s; -1 with
 * err when text is not a rate. */
int pdb_kafka_parse_rate(const char *text, double *rate, struct pdb_err *err);

/* A spec's `vars:` mapping v (NAME: {csv, column, hot, header}), CSV
 * paths relative to the spec's directory, appended to *vars (the
 * spec that owns them frees them). 0, or -1 with err at FILE:LINE:COL.
 * Shared by the kafka: and stream: workloads. */
int pdb_kafka_read_vars(struct pdb_spec_reader *r, const json_t *v, struct pdb_kafka_var **vars,
			size_t *nvars);

/* What a capacity search of a Kafka load may set a limit on (NULL-terminated). */
extern const char *const pdb_kafka_search_metrics[];

/* The keys of kafka: and of a variable, for the docs test. */
extern const struct pdb_spec_section pdb_kafka_section, pdb_kafka_var_section;

/* Parse "10%:80%" (share of values : share of picks). 0 or -1. */
int pdb_kafka_parse_hot(const char *text, double *values, double *share);

#endif
