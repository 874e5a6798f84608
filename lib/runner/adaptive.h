/* Adaptive A/B runs: when to look at the pairs so far, and what a look says. */
#ifndef PDB_ADAPTIVE_H
#define PDB_ADAPTIVE_H

#include <stddef.h>

#include "compare.h"

/* Pairs, when neither spec nor flag says: the budget is the bound. On a
 * loaded runner a 10 % change needed 60-670 pairs (docs/gate-noise.md): a
 * cap of 60 ended every noisy run before its budget. */
#define PDB_ADAPTIVE_MAX_REPEAT 1000
#define PDB_ADAPTIVE_BUDGET 300.0   /* seconds of measuring, likewise */
#define PDB_ADAPTIVE_MAX_LOOKS 32

/* A fixed schedule of looks: the pairs done at each, and the alpha each
 * look tests at. Looking K times at the same data and stopping at the
 * first conclusive look would raise the error rates about K-fold; testing
 * every look at alpha / K (Bonferroni) keeps the chance of any false call
 * over the whole schedule at or under alpha, whatever the looks find. */
struct pdb_adaptive_schedule {
	int looks[PDB_ADAPTIVE_MAX_LOOKS];
	size_t nlooks;              /* K */
	double alpha;               /* the alpha asked for */
	double look_alpha;          /* alpha / K: every look's and the final comparison's */
};

/* The schedule for alpha and max_repeat: the first look at the fewest
 * pairs whose signed-rank test can reach alpha / K at all, then 1.5 times
 * as many at each look, the last at max_repeat. 0, or -1 with a usage
 * error when max_repeat is too few pairs for even one look at alpha. */
int pdb_adaptive_schedule(double alpha, int max_repeat, struct pdb_adaptive_schedule *out,
			  struct pdb_err *err);

/* Whether a row keeps an adaptive run going: gated (a direction) and shown,
 * and neither a verdict more pairs cannot change (new, missing, failed, a
 * failure in the base) nor a conclusive one (regression, improvement,
 * unchanged). */
int pdb_adaptive_row_open(const struct pdb_compare_row *row);
/* Whether the row is one a look reports: gated and shown. */
int pdb_adaptive_row_gated(const struct pdb_compare_row *row);

#endif
