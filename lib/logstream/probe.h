/* Log stream probes: count delivered lines in a followed file or by a polled command. */
#ifndef PDB_LOGSTREAM_PROBE_H
#define PDB_LOGSTREAM_PROBE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "loadgen/histogram.h"
#include "logstream/spec.h"

/* What the sender and the probe share. The sender sets t0 and rate before
 * pdb_logstream_probe_start and counts sent; the probe thread owns the rest
 * until pdb_logstream_probe_stop (received may be read meanwhile). */
struct pdb_logstream_tally {
	int64_t t0;                 /* CLOCK_MONOTONIC ns when line 0 was due */
	double rate;                /* line seq was due at t0 + seq / rate */
	uint64_t base;              /* line seq carries $SEQ = base + seq */
	atomic_ullong sent;         /* lines handed out: base .. base + sent - 1 are ours */
	atomic_ullong received;     /* distinct sequences seen, or the count (counts only) */
	int matched;                /* sequences are matched: delays and duplicates known */
	int command;                /* a command probe (counts only) */
	uint64_t lines;             /* read by a file probe */
	uint64_t duplicated, foreign; /* sequences seen again, sequences not sent */
	uint64_t near;              /* of foreign: within a float's precision of base .. base + sent - 1 */
	uint64_t probe_errors;      /* command runs that gave no count */
	struct pdb_hist *delay;     /* arrival seen by the probe minus due */
	uint64_t *arrived;          /* received per second after t0 */
	double *delay_p99;          /* per second after t0 (s); 0: nothing arrived */
	size_t nsec, capsec;
	int64_t last_change;        /* when received last grew (ns), 0: never */
	char error[256];            /* the last probe failure, or "" */
};

struct pdb_logstream_prober;

/* Whether what t matched says a stage rounded the sequences: values near
 * them but not one of them (pdb_logstream_tally.near), and sequences seen
 * again, as many lines rounded to one value are. */
int pdb_logstream_rounded(const struct pdb_logstream_tally *t);

/* Get ready to count for probe p: a file probe remembers where the file
 * ends now (what is there already is not counted); a command probe runs the
 * command once for the count to start from. NULL with err (PDB_EXIT_RUNTIME
 * or PDB_EXIT_INPUT) when it cannot. The tally must outlive the prober. */
struct pdb_logstream_prober *pdb_logstream_probe_open(const struct pdb_logstream_probe *p,
						      struct pdb_logstream_tally *tally,
						      struct pdb_err *err);
/* Start counting in a thread of its own. 0, or -1 with err. */
int pdb_logstream_probe_start(struct pdb_logstream_prober *pr, struct pdb_err *err);
/* Stop the thread (when started) and free the prober. NULL-safe. */
void pdb_logstream_probe_close(struct pdb_logstream_prober *pr);

#endif
