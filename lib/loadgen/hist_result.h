/* Latency histograms as results: weighted samples with percentile stats. */
#ifndef PDB_LOADGEN_HIST_RESULT_H
#define PDB_LOADGEN_HIST_RESULT_H

#include "loadgen/histogram.h"
#include "model.h"

/* h (nanoseconds) added to r (seconds) as weighted samples, then r's max and
 * its percentiles and mean over every sample so far (no percentile above the
 * max: a bucket's value may lie above the largest value in it). Shared by the
 * kafka: and stream: workloads. */
void pdb_kafka_hist_to_result(struct pdb_result *r, const struct pdb_hist *h);

#endif
