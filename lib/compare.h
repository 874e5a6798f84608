/* Compare: match the series of two run groups and give each a verdict. */
#ifndef PDB_COMPARE_H
#define PDB_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "compare_config.h"
#include "compare_input.h"
#include "compare_row.h"
#include "err.h"

struct pdb_dim_filter;
struct pdb_compare_opts {
	double alpha;          /* NaN: config, else 0.01 */
	double threshold_pct;  /* NaN: config, else 5 (10 for p95 and beyond) */
	const char *bench_glob, *metric_glob; /* NULL: all */
	struct pdb_dim_filter *dims; /* --dim K=V, NULL: all (lib/dim_filter.h) */
	int holm;              /* Holm-adjust p-values across series */
	const struct pdb_compare_config *config; /* NULL: none */
};
void pdb_compare_opts_init(struct pdb_compare_opts *opts);

/* Compare the candidate runs with the baseline runs, from memory alone (the
 * runs and their history, lib/compare_input.h; lib/gather/compare_gather.h
 * reads them from the store). One run a side uses its samples; several
 * runs a side use one value per run (its median). An A/B pair (one
 * complete run a side sharing an ab attribute) has its series of equal
 * length, enough pairs for alpha and values above 0 tested paired: the
 * Wilcoxon signed-rank test and Hodges-Lehmann estimate of the
 * per-repetition log ratios. With one candidate run and a stored baseline,
 * a series with enough history on the baseline's branch is tested against
 * its run-to-run noise. out is filled (release with pdb_compare_release,
 * also after -1). */
int pdb_compare(const struct pdb_compare_input *in, const struct pdb_compare_opts *opts,
		struct pdb_compare *out, struct pdb_err *err);
void pdb_compare_release(struct pdb_compare *cmp);

#endif
