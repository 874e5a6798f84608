/* Log stream workloads: templated lines paced by intended send time, counted by a probe. */
#ifndef PDB_LOGSTREAM_WORKLOAD_H
#define PDB_LOGSTREAM_WORKLOAD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "loadgen/histogram.h"
#include "logstream/probe.h"
#include "logstream/spec.h"
#include "model.h"

struct pdb_logstream_opts {
	const struct pdb_logstream_spec *spec;
	double rate;                 /* lines/s after matrix expansion */
	volatile sig_atomic_t *stop; /* set on SIGINT/SIGTERM: stop sending, report */
	uint64_t seed;               /* template picks */
};

struct pdb_logstream_result {
	double elapsed;              /* s from line 0's due time to the last line sent, at least duration */
	uint64_t sent, errors;       /* lines the target took; lines that failed */
	uint64_t *sent_per_sec;      /* by the second the target took each line */
	size_t nsent_sec, cap_sent_sec;
	struct pdb_hist *send_delay; /* due -> handed to the target (pacing error) */
	size_t nprobed;              /* probes that counted deliveries (0: none) */
	double watched;              /* s from line 0's due time until the probes stopped */
	struct pdb_logstream_tally *tally; /* one per probe, at least one: tally[0] keeps the clock */
	size_t ntally;
	int interrupted;
	char error[256];             /* the last send failure, or "" */
	char warning[256];           /* what the numbers alone do not say, or "" */
};

/* Run the workload of opts->spec: send rate x duration lines, each when
 * it is due, to the target; count them with the probe (or each of probes:,
 * on the same lines) until all arrived at every probe or the drain time
 * passed. 0 with res filled (release with
 * pdb_logstream_result_release), or -1 with err (target unreachable,
 * template, probe). */
int pdb_logstream_run(const struct pdb_logstream_opts *opts, struct pdb_logstream_result *res,
		      struct pdb_err *err);
void pdb_logstream_result_release(struct pdb_logstream_result *res);

/* Add res to run as the series of bench with dims: per-second send_rate,
 * receive_rate, delivery_delay_p99 (the receiving side's series with the
 * dim stage for each of probes:); delivery_delay and send_delay
 * histograms as weighted samples with percentile stats (over every
 * repetition); per repetition sent, received, missing, missing_pct,
 * errors, and with a matching probe duplicated, foreign, unmatched,
 * delivery_delay_mean, for a counts-only probe delivery_time (s until the
 * final count) and excess (counted beyond what was sent), for a command
 * probe probe_errors. */
void pdb_logstream_result_to_run(const struct pdb_logstream_result *res, const struct pdb_logstream_spec *ls,
				 struct pdb_run *run, const char *bench, const struct pdb_attr *dims, size_t ndims);

#endif
