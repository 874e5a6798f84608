/* Message templates: $SEQ, $TS, $GUID and CSV-backed variables with a skewed hot set. */
#ifndef PDB_KAFKA_TEMPLATE_H
#define PDB_KAFKA_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "loadgen/vars.h"
#include "util.h"

/* A fast seeded generator (splitmix64), for payloads and picks. */
uint64_t pdb_kafka_rand(uint64_t *state);

/* The values of one CSV-backed variable and how to pick them. */
struct pdb_kafka_values {
	char **values;
	size_t n, nhot;     /* the hot set is the first nhot values in file order */
	double hot_share;
};

/* Read var's column. 0, or -1 with err (FILE:LINE:COL). Release with
 * pdb_kafka_values_release. */
int pdb_kafka_values_load(const struct pdb_kafka_var *var, struct pdb_kafka_values *out,
			  struct pdb_err *err);
void pdb_kafka_values_release(struct pdb_kafka_values *v);
/* Index of a value: hot ones with probability hot_share, else a cold one;
 * uniform within each set. */
size_t pdb_kafka_values_pick(const struct pdb_kafka_values *v, uint64_t *rng);

struct pdb_kafka_template;

/* The $GUID of message seq under key: a version-4 UUID that encodes seq
 * (below 2^60), so that a pipeline keeping it ties an output message to
 * its input. */
void pdb_kafka_guid(uint64_t key, uint64_t seq, char out[36]);
/* The seq of text, a GUID made under key: 0, or -1 when it is not one
 * (another run's, or no GUID at all). */
int pdb_kafka_guid_seq(uint64_t key, const char *text, size_t len, uint64_t *seq);

/* Compile text (source names it in errors): literal text with $SEQ,
 * $TS (ms since the epoch), $GUID (pdb_kafka_guid under seed, or the key
 * given to pdb_kafka_template_guid_key) and $NAME of vars (also ${NAME});
 * $$ is a dollar. key_var (or NULL) names the variable whose value is each
 * message's key; seed drives the picks. Values are loaded now. Caller
 * frees. */
struct pdb_kafka_template *pdb_kafka_template_new(const char *text, const char *source,
						  const struct pdb_kafka_var *vars, size_t nvars,
						  const char *key_var, uint64_t seed,
						  struct pdb_err *err);
/* The same for the template file at path (its final newline is not part of
 * the text); a file that cannot be read is an error naming it. */
struct pdb_kafka_template *pdb_kafka_template_load(const char *path,
						   const struct pdb_kafka_var *vars, size_t nvars,
						   const char *key_var, uint64_t seed,
						   struct pdb_err *err);
void pdb_kafka_template_free(struct pdb_kafka_template *t); /* NULL-safe */
/* Make the $GUIDs under key (a run's own, so no other run's match). */
void pdb_kafka_template_guid_key(struct pdb_kafka_template *t, uint64_t key);

/* Render message seq sent at ts_ms into out (emptied first); each variable
 * is picked once per message. The key (when key_var was given) is then
 * pdb_kafka_template_key's, valid until the next render. */
void pdb_kafka_template_render(struct pdb_kafka_template *t, uint64_t seq, int64_t ts_ms,
			       struct pdb_buf *out);
const char *pdb_kafka_template_key(const struct pdb_kafka_template *t);

#endif
