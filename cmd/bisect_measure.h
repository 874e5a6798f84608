/* perfdb bisect: one measurement, a revision alone or an A/B run of two, stored. */
#ifndef PDB_CMD_BISECT_MEASURE_H
#define PDB_CMD_BISECT_MEASURE_H

#include <signal.h>
#include <stdint.h>

#include "bisect.h"
#include "bisect_trees.h"
#include "compare.h"
#include "runner/runner.h"
#include "runner/spec.h"
#include "store/store.h"

/* What every measurement of one bisection shares. */
struct bisect_env {
	struct pdb_spec *spec;
	struct pdb_store *store;
	const char *only;                  /* --bench: the benchmarks run, or NULL */
	const char *spec_path;             /* the runs' source */
	const char *id;                    /* the bisect attribute of every run */
	struct pdb_compare_opts cmp;       /* --bench, --metric, the config */
	volatile sig_atomic_t *stop;
	struct bisect_trees *trees;        /* each revision's worktree, built once */
	int tty;
};

/* The series a bisection follows, and where a measurement put it: log
 * ratios of the candidate to the base. */
struct bisect_row {
	char *benchmark, *dims, *metric;   /* NULL until chosen */
	double lo, est, hi;                /* NaN: not measured */
	int direction;                     /* the metric's (enum pdb_direction) */
};

/* Whether row's change from base to candidate is for the worse (a metric
 * with no direction: any change). */
int bisect_row_worse(const struct bisect_row *row);

/* When a run of triples stops: the runs so far (good, mid, bad) at look l
 * of the schedule's nlooks; 1 to stop, 0 for more triples. */
typedef int (*bisect_judge)(void *ctx, struct pdb_run *const *runs, const struct pdb_look *l);

/* One measurement's outcome. */
struct bisect_measured {
	int64_t runs[3];                   /* the runs stored, in the order measured */
	size_t nruns;
	int reps;                          /* repetitions of each revision: triples */
	double seconds;                    /* of measuring */
	int decided;                       /* the judge stopped it */
};

/* A run of good, mid and bad (commits, variants "good", "mid", "bad"), each
 * in its worktree (checked out and built the first time, env->trees),
 * repeated in triples in the order good mid bad, bad mid good (mid always
 * between them, so that drift within a triple cancels in its contrasts),
 * look by look on the schedule looks, at most budget seconds, until judge
 * says stop; the three runs stored, sharing an ab attribute. 0, or an exit status (said on stderr:
 * 130 when interrupted, nothing then stored while building). The
 * worktrees stay until bisect_trees_release. */
int bisect_measure_triples(const struct bisect_env *env, const char *good, const char *mid, const char *bad,
			   const struct pdb_bisect_looks *looks, double budget, bisect_judge judge, void *ctx,
			   struct bisect_measured *m);

/* commit measured alone (one run of the spec's repetitions, as variant
 * name), stored. 0, or an exit status as above. */
int bisect_measure_one(const struct bisect_env *env, const char *name, const char *commit,
		       struct bisect_measured *m);

/* The row of c that is row's series; NULL when c has none. */
const struct pdb_compare_row *bisect_find_row(const struct pdb_compare *c, const struct bisect_row *row);
/* Whether a and b name the same series. */
int bisect_same_row(const struct bisect_row *a, const struct bisect_row *b);
/* Put the change of r (its estimate and interval, as log ratios) into row. */
void bisect_row_set(struct bisect_row *row, const struct pdb_compare_row *r);
/* The logs of row's series' samples in run, in the order measured (a
 * repetition each): their number, or 0 when run has none. Caller frees *logs. */
size_t bisect_row_logs(const struct pdb_run *run, const struct bisect_row *row, double **logs);

#endif
