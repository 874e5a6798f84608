/* Output messages tied to their input by a payload value: the $SEQ or $GUID the pipeline kept. */
#ifndef PDB_KAFKA_MATCH_H
#define PDB_KAFKA_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "kafka/workload_spec.h"

/* The sequence of the input message that payload (len bytes, not
 * terminated) came from, by ks->match: the value at a JSON path, or the
 * first group of a regex (the whole match without one), read as a
 * decimal $SEQ or as a $GUID made under guid_key. 0, or -1 when payload
 * holds no such value. */
int pdb_kafka_match_seq(const struct pdb_kafka_spec *ks, uint64_t guid_key, const char *payload,
			size_t len, uint64_t *seq);

#endif
