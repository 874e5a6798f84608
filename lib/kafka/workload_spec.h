/* Kafka workload specs: the `kafka:` section of a benchmark in a run spec. */
#ifndef PDB_KAFKA_WORKLOAD_SPEC_H
#define PDB_KAFKA_WORKLOAD_SPEC_H

#include <regex.h>
#include <stddef.h>

#include "err.h"
#include "formats/map_spec.h"
#include "loadgen/vars.h"
#include "model.h"
#include "runner/capacity.h"
#include "runner/spec_keys.h"
#include "yaml_doc.h"

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

/* What a capacity search of a Kafka load may set a limit on (NULL-terminated). */
extern const char *const pdb_kafka_search_metrics[];

/* The keys of kafka:, for the docs test. */
extern const struct pdb_spec_section pdb_kafka_section;

#endif
