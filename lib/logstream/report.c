/* Log stream results as series of a run: rates per second, delay histograms, delivery totals. */
#include "logstream/workload.h"

#include "loadgen/hist_result.h"
#include "loadgen/rate.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* h as weighted samples of metric (s), percentiles over every repetition so far. */
static void add_hist(struct pdb_run *run, const char *bench, const struct pdb_attr *dims, size_t ndims,
		     const char *metric, int direction, const struct pdb_hist *h)
{
	if (h->n)
		pdb_kafka_hist_to_result(pdb_run_series(run, bench, dims, ndims, metric, "s", direction), h);
}

static void total(struct pdb_run *run, const char *bench, const struct pdb_attr *dims, size_t ndims,
		  const char *metric, const char *unit, int direction, double v)
{
	pdb_result_add_raw(pdb_run_series(run, bench, dims, ndims, metric, unit, direction), v);
}

/* Lines per second as the rate's samples: the seconds of throughput
 * (pdb_rate_seconds), or 0 when nothing came. */
static void rate_series(struct pdb_result *r, const uint64_t *counts, size_t n)
{
	size_t first, end;

	pdb_rate_seconds(counts, n, &first, &end);
	for (size_t i = first; i < end; i++)
		pdb_result_add_at(r, (double)i, (double)counts[i]);
	if (first == end)
		pdb_result_add_raw(r, 0);
}

/* What probe k of res counted, as the series of bench with dims (and its stage's). */
static void probe_to_run(const struct pdb_logstream_result *res, size_t k, struct pdb_run *run,
			 const char *bench, const struct pdb_attr *dims, size_t ndims)
{
	const struct pdb_logstream_tally *t = &res->tally[k];
	uint64_t received = atomic_load(&t->received);
	double last = t->last_change ? (double)(t->last_change - t->t0) / 1e9 : 0;

	rate_series(pdb_run_series(run, bench, dims, ndims, "receive_rate", "lines/s", PDB_DIR_HIGHER), t->arrived, t->nsec);
	for (size_t i = 0; i < t->nsec; i++)
		if (t->delay_p99[i] > 0)
			pdb_result_add_at(pdb_run_series(run, bench, dims, ndims, "delivery_delay_p99", "s", PDB_DIR_LOWER), (double)i,
			       t->delay_p99[i]);
	total(run, bench, dims, ndims, "received", "count", PDB_DIR_NONE, (double)received);
	/* a stage that rounds the sequences loses nothing the probe can tell (a warning says it) */
	if (!res->interrupted && !pdb_logstream_rounded(t)) {
		double missing = received < res->sent ? (double)(res->sent - received) : 0;
		total(run, bench, dims, ndims, "missing", "count", PDB_DIR_LOWER, missing);
		total(run, bench, dims, ndims, "missing_pct", "%", PDB_DIR_LOWER,
		      res->sent ? 100 * missing / (double)res->sent : 0);
	}
	if (t->matched) {
		add_hist(run, bench, dims, ndims, "delivery_delay", PDB_DIR_LOWER, t->delay);
		if (t->delay->n)
			total(run, bench, dims, ndims, "delivery_delay_mean", "s", PDB_DIR_LOWER, pdb_hist_mean(t->delay) / 1e9);
		total(run, bench, dims, ndims, "duplicated", "count", PDB_DIR_LOWER, (double)t->duplicated);
		/* lines of another run (a sequence not sent), lines the regex did not match */
		total(run, bench, dims, ndims, "foreign", "count", PDB_DIR_NONE, (double)t->foreign);
		total(run, bench, dims, ndims, "unmatched", "count", PDB_DIR_NONE,
		      (double)(t->lines - received - t->duplicated - t->foreign));
	} else {
		if (received > 0)
			total(run, bench, dims, ndims, "delivery_time", "s", PDB_DIR_LOWER, last);
		/* counted beyond what was sent: the count is not of these lines alone */
		total(run, bench, dims, ndims, "excess", "count", PDB_DIR_LOWER,
		      received > res->sent ? (double)(received - res->sent) : 0);
	}
	if (t->command) /* runs of the command that gave no count */
		total(run, bench, dims, ndims, "probe_errors", "count", PDB_DIR_LOWER, (double)t->probe_errors);
}

void pdb_logstream_result_to_run(const struct pdb_logstream_result *res, const struct pdb_logstream_spec *ls,
				 struct pdb_run *run, const char *bench, const struct pdb_attr *dims, size_t ndims)
{
	struct pdb_attr *d = pdb_xcalloc(ndims + 1, sizeof *d);

	rate_series(pdb_run_series(run, bench, dims, ndims, "send_rate", "lines/s", PDB_DIR_HIGHER), res->sent_per_sec,
		    res->nsent_sec);
	/* perfdb's own pacing, not the pipeline's: reported, never gated */
	add_hist(run, bench, dims, ndims, "send_delay", PDB_DIR_NONE, res->send_delay);
	total(run, bench, dims, ndims, "sent", "count", PDB_DIR_NONE, (double)res->sent);
	total(run, bench, dims, ndims, "errors", "count", PDB_DIR_LOWER, (double)res->errors);
	if (ndims)
		memcpy(d, dims, ndims * sizeof *d);
	for (size_t k = 0; k < res->nprobed; k++) {
		if (!ls->nprobes) { /* the one probe: no stage */
			probe_to_run(res, k, run, bench, dims, ndims);
			continue;
		}
		d[ndims] = (struct pdb_attr){ .key = "stage", .value = ls->probes[k].name };
		probe_to_run(res, k, run, bench, d, ndims + 1);
	}
	free(d);
}
