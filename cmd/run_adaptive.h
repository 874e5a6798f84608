/* perfdb run --repeat auto: the looks between pairs, said on stderr. */
#ifndef PDB_CMD_RUN_ADAPTIVE_H
#define PDB_CMD_RUN_ADAPTIVE_H

#include "compare.h"
#include "runner/adaptive.h"
#include "runner/runner.h"
#include "store/store.h"

enum adaptive_end {
	ADAPTIVE_RUNNING,     /* no look has ended it (yet, or interrupted) */
	ADAPTIVE_CONCLUSIVE,  /* every gated series conclusive */
	ADAPTIVE_MAX_REPEAT,  /* the last look of the schedule */
	ADAPTIVE_BUDGET,      /* the next look's pairs would not fit the budget */
	ADAPTIVE_ERROR,       /* a look could not compare (said) */
	ADAPTIVE_FAILED,      /* the gate failed already: a regression more pairs
			       * cannot undo at this look's alpha */
};

struct adaptive {
	struct pdb_adaptive_schedule sched;
	double budget;                     /* seconds of measuring */
	int tty;                           /* stderr is a terminal: clear the progress bar */
	const char *who;                   /* the command its lines name; NULL: run */
	struct pdb_store *store;           /* read for history only */
	struct pdb_run *const *runs;       /* base, candidate: the runner fills them */
	const struct pdb_compare_opts *cmp; /* the gate's options, alpha the look's */
	unsigned fail_on;                  /* the gate's --fail-on */
	int end;                           /* enum adaptive_end */
	size_t look;                       /* the last look made (0-based) */
	int pairs;                         /* pairs at it */
	double elapsed;                    /* seconds at it */
	size_t open;                       /* gated series still inconclusive there */
};

/* The runner's look: compare the runs so far in memory, say the gated
 * series' intervals on stderr, and stop when all are conclusive, when the
 * gate has failed already, at the last look, or when the next look's pairs
 * would not fit the budget. */
int adaptive_look(struct adaptive *a, const struct pdb_look *l);

/* Whether the next look's pairs fit the budget, at the seconds a pair
 * has taken so far (setups and warm-ups included: an estimate on the safe
 * side); when they do not, says so on stderr. */
int adaptive_next_fits(const struct adaptive *a, const struct pdb_look *l);

/* "5 looks at 10, 15, 23, 35, 60 pairs, alpha 0.01/5 each" */
void adaptive_schedule_text(const struct adaptive *a, char *buf, size_t size);
/* How the run ended: "ended at look 2/5 (15 pairs, 12 s): every gated
 * series conclusive", or "" while nothing ended it. */
void adaptive_end_text(const struct adaptive *a, char *buf, size_t size);
/* What an inconclusive row's reason gets: "the budget (300 s) ended at 23
 * pairs", or NULL when the run ended conclusive. */
const char *adaptive_open_note(const struct adaptive *a, char *buf, size_t size);

#endif
