/* perfdb bisect: what it found, as text, Markdown or JSON. */
#ifndef PDB_CMD_BISECT_OUTPUT_H
#define PDB_CMD_BISECT_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "bisect_measure.h"
#include "runner/git.h"

enum bisect_outcome {
	BISECT_NO_CHANGE,  /* good and bad differ by less than the margin: exit 0 */
	BISECT_LOCATED,    /* one commit: exit 1 */
	BISECT_RANGE,      /* several adjacent commits made it: exit 1 */
	BISECT_UNDECIDED,  /* the budget or a measurement ended first: exit 3 */
};

/* One revision measured, and its verdict. */
struct bisect_step {
	size_t index;                      /* 0: good, n: bad, else the commit's place */
	int side;                          /* enum pdb_bisect_side */
	double share;                      /* of the whole change; NaN for good */
	double lo, est, hi;                /* its change from good (log ratios): the
					    * median of its triples' and its interval */
	struct bisect_measured m;
};

struct bisect_report {
	const char *id, *good_rev, *bad_rev;
	const struct pdb_git_commit *commits; /* good, then the n commits after it, bad last */
	size_t n;
	int exact;                         /* an exact instrument: one run a revision */
	double margin_pct;                 /* the smallest change worth bisecting */
	struct bisect_row row;             /* the series followed; the whole change */
	int outcome;                       /* enum bisect_outcome */
	size_t first, last;                /* the range found (first == last: one commit);
					    * undecided: the commits that remain */
	const struct bisect_step *steps;
	size_t nsteps;
};

enum { BISECT_TEXT, BISECT_MARKDOWN, BISECT_JSON };
void bisect_print(const struct bisect_report *r, int format);

#endif
