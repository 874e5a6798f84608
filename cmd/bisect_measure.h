/* perfdb bisect: one measurement, a revision alone or an A/B run of two, stored. */
#ifndef PDB_CMD_BISECT_MEASURE_H
#define PDB_CMD_BISECT_MEASURE_H

#include <signal.h>
#include <stdint.h>

#include "compare.h"
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

/* When an A/B run's looks stop: the rows of the look's comparison; 1 to
 * stop, 0 for more pairs. */
typedef int (*bisect_judge)(void *ctx, const struct pdb_compare *c);

/* One measurement's outcome. */
struct bisect_measured {
	int64_t base, cand;                /* the runs stored (base 0: none) */
	int pairs;                         /* pairs of an A/B run */
	double seconds;                    /* of measuring */
	int decided;                       /* the judge stopped it */
};

/* An A/B run of commit base (variant base_name) against commit cand
 * (cand_name), both checked out and built in worktrees, with pairs added
 * look by look at alpha, at most budget seconds, until judge says stop;
 * both runs stored. 0, or an exit status (said on stderr: 130 when
 * interrupted, nothing then stored while building). The worktrees are
 * removed whatever happens. */
int bisect_measure_ab(const struct bisect_env *env, const char *base_name, const char *base,
		      const char *cand_name, const char *cand, double alpha, double budget,
		      bisect_judge judge, void *ctx, struct bisect_measured *m);

/* commit measured alone (one run of the spec's repetitions, as variant
 * name), stored. 0, or an exit status as above. */
int bisect_measure_one(const struct bisect_env *env, const char *name, const char *commit,
		       struct bisect_measured *m);

/* The row of c that is row's series; NULL when c has none. */
const struct pdb_compare_row *bisect_find_row(const struct pdb_compare *c, const struct bisect_row *row);
/* Put the change of r (its estimate and interval, as log ratios) into row. */
void bisect_row_set(struct bisect_row *row, const struct pdb_compare_row *r);

#endif
