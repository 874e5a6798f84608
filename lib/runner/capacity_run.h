/* Capacity searches of stream: and kafka: workloads: their steps. */
#ifndef PDB_CAPACITY_RUN_H
#define PDB_CAPACITY_RUN_H

#include <signal.h>
#include <stdint.h>

#include "err.h"
#include "model.h"
#include "runner/capacity.h"

struct pdb_logstream_spec;
struct pdb_kafka_spec;

/* Where a search's lines for the user go. */
struct pdb_capacity_notes {
	void (*note)(void *ctx, const char *line);
	void *ctx;
	volatile sig_atomic_t *stop;
	uint64_t seed;
};

/* The search of ls->search: steps of the stream
 * workload at one rate each, for the search's step seconds (else the
 * workload's duration); after a stream step that left lines undelivered,
 * a wait of settle seconds at most until the probes see nothing new. As
 * pdb_capacity_search. */
int pdb_capacity_run_stream(const struct pdb_logstream_spec *ls, const struct pdb_capacity_notes *n,
			    struct pdb_run *run, const char *bench, const struct pdb_attr *dims, size_t ndims,
			    struct pdb_capacity_outcome *out, struct pdb_err *err);
/* The same for a Kafka load (ks->search): no settling, the drain waits
 * for the lag to come down. */
int pdb_capacity_run_kafka(const struct pdb_kafka_spec *ks, const struct pdb_capacity_notes *n,
			   struct pdb_run *run, const char *bench, const struct pdb_attr *dims, size_t ndims,
			   struct pdb_capacity_outcome *out, struct pdb_err *err);

#endif
