/* Kafka workload results as series of a run (time series, latency histograms,
 * totals), and their release. */
#include "kafka/workload.h"

#include <stdlib.h>
#include <string.h>

#include "loadgen/hist_result.h"
#include "loadgen/rate.h"
#include "util.h"

static void add_hist(struct pdb_run *run, const char *bench, const struct pdb_attr *dims, size_t ndims,
		     const char *metric, const struct pdb_hist *h)
{
	if (h->n)
		pdb_kafka_hist_to_result(pdb_run_series(run, bench, dims, ndims, metric, "s", PDB_DIR_LOWER), h);
}

/* consumer_lag of each group: samples at their time offsets, max and final. */
static void add_lags(const struct pdb_kafka_result *res, struct pdb_run *run, const char *bench,
		     const struct pdb_attr *dims, size_t ndims)
{
	struct pdb_attr *d = pdb_xcalloc(ndims + 1, sizeof *d);

	if (ndims)
		memcpy(d, dims, ndims * sizeof *d);
	for (size_t g = 0; g < res->nlags; g++) {
		const struct pdb_kafka_lag *l = &res->lags[g];
		struct pdb_result *r;
		double max = 0;
		if (l->n == 0)
			continue;
		d[ndims] = (struct pdb_attr){ .key = "group", .value = (char *)l->group };
		r = pdb_run_series(run, bench, d, ndims + 1, "consumer_lag", "count", PDB_DIR_LOWER);
		if (pdb_result_get_stat(r, "max", &max) < 0)
			max = 0;
		for (size_t i = 0; i < l->n; i++) {
			pdb_result_add_at(r, l->t[i], l->lag[i]);
			if (l->lag[i] > max)
				max = l->lag[i];
		}
		pdb_result_set_stat(r, "max", max);
		pdb_result_set_stat(r, "final", l->lag[l->n - 1]);
	}
	free(d);
}

/* values per second over the seconds of throughput of the messages
 * counted by msgs (pdb_rate_seconds), or 0 when none came. */
static void rate_series(struct pdb_result *r, const uint64_t *msgs, const uint64_t *values, size_t n)
{
	size_t first, end;

	pdb_rate_seconds(msgs, n, &first, &end);
	for (size_t i = first; i < end; i++)
		pdb_result_add_at(r, (double)i, (double)values[i]);
	if (first == end)
		pdb_result_add_raw(r, 0);
}

void pdb_kafka_result_to_run(const struct pdb_kafka_result *res, struct pdb_run *run,
			     const char *bench, const struct pdb_attr *dims, size_t ndims)
{
	double cum_sent = (double)res->warm_sent, cum_consumed = (double)res->warm_received;
	size_t whole = (size_t)res->elapsed, watched = (size_t)res->watched, n = res->nseconds;
	uint64_t *sent = pdb_xcalloc(4 * n + 1, sizeof *sent), *bytes = sent + n, *consumed = bytes + n,
		 *consumed_bytes = consumed + n;

	if (whole > n)
		whole = n;
	if (watched > n)
		watched = n;
	if (watched < whole)
		watched = whole;
	/* per-second series over the whole seconds sent, the consuming side's
	 * over the drain as well: a lagging pipeline goes on delivering */
	for (size_t i = 0; i < watched; i++) {
		const struct pdb_kafka_second *s = &res->seconds[i];
		double t = (double)i;
		cum_sent += (double)s->sent;
		cum_consumed += (double)s->consumed;
		if (i < whole) {
			pdb_result_add_at(pdb_run_series(run, bench, dims, ndims, "errors_per_second", "count", PDB_DIR_LOWER), t, (double)s->errors);
			if (s->delivery_p99 > 0)
				pdb_result_add_at(pdb_run_series(run, bench, dims, ndims, "delivery_latency_p99", "s", PDB_DIR_LOWER), t, s->delivery_p99);
		}
		if (res->consumed)
			pdb_result_add_at(pdb_run_series(run, bench, dims, ndims, "backlog", "count", PDB_DIR_LOWER), t, cum_sent - cum_consumed);
		if (s->e2e_p99 > 0)
			pdb_result_add_at(pdb_run_series(run, bench, dims, ndims, "e2e_latency_p99", "s", PDB_DIR_LOWER), t, s->e2e_p99);
	}
	/* the rates over their seconds of throughput (lib/loadgen/rate.c) */
	for (size_t i = 0; i < n; i++) {
		sent[i] = res->seconds[i].sent;
		bytes[i] = res->seconds[i].bytes;
		consumed[i] = res->seconds[i].consumed;
		consumed_bytes[i] = res->seconds[i].consumed_bytes;
	}
	if (res->elapsed > 0) {
		rate_series(pdb_run_series(run, bench, dims, ndims, "produce_rate", "msg/s", PDB_DIR_HIGHER), sent, sent, n);
		rate_series(pdb_run_series(run, bench, dims, ndims, "produce_throughput", "B/s", PDB_DIR_HIGHER), sent, bytes, n);
	}
	if (res->consumed) {
		rate_series(pdb_run_series(run, bench, dims, ndims, "consume_rate", "msg/s", PDB_DIR_HIGHER), consumed, consumed, n);
		rate_series(pdb_run_series(run, bench, dims, ndims, "consume_throughput", "B/s", PDB_DIR_HIGHER), consumed,
			    consumed_bytes, n);
	}
	free(sent);
	add_lags(res, run, bench, dims, ndims);
	add_hist(run, bench, dims, ndims, "delivery_latency", res->delivery);
	if (res->matchable)
		add_hist(run, bench, dims, ndims, "e2e_latency", res->e2e);
	add_hist(run, bench, dims, ndims, "send_delay", res->send_delay);
	pdb_result_add_raw(pdb_run_series(run, bench, dims, ndims, "sent", "count", PDB_DIR_NONE), (double)res->sent);
	if (res->consumed)
		pdb_result_add_raw(pdb_run_series(run, bench, dims, ndims, "received", "count", PDB_DIR_NONE), (double)res->received);
	pdb_result_add_raw(pdb_run_series(run, bench, dims, ndims, "errors", "count", PDB_DIR_LOWER), (double)res->errors);
	if (res->matchable && !res->interrupted) {
		pdb_result_add_raw(pdb_run_series(run, bench, dims, ndims, "lost", "count", PDB_DIR_LOWER), (double)res->lost);
		pdb_result_add_raw(pdb_run_series(run, bench, dims, ndims, "duplicated", "count", PDB_DIR_LOWER), (double)res->duplicated);
		pdb_result_add_raw(pdb_run_series(run, bench, dims, ndims, "unmatched", "count", PDB_DIR_LOWER), (double)res->unmatched);
	}
}

void pdb_kafka_result_release(struct pdb_kafka_result *res)
{
	free(res->delivery);
	free(res->e2e);
	free(res->send_delay);
	free(res->seconds);
	for (size_t g = 0; g < res->nlags; g++) {
		free(res->lags[g].t);
		free(res->lags[g].lag);
	}
	free(res->lags);
	memset(res, 0, sizeof *res);
}
