/* The read model of a series' history: a series and its points across
 * runs, as the store reads them and as detect, the charts and the site use
 * them (memory only: no store call). */
#ifndef PDB_SERIES_H
#define PDB_SERIES_H

#include <stddef.h>
#include <stdint.h>

/* A series: (benchmark, dims, metric), comparable across runs. */
struct pdb_series {
	int64_t id;
	char *benchmark;
	char *dims;       /* compact JSON object text, sorted keys ("{}" when none) */
	char *metric;
	char *unit;       /* canonical */
	int direction;    /* enum pdb_direction */
};
void pdb_series_free(struct pdb_series *s, size_t n);

/* One run's value of a series: the median of its samples (weighted), or,
 * for a result with no samples, the tool's median, else its mean. */
struct pdb_history_point {
	int64_t run_id;
	int64_t seq;        /* the run's place in the order of runs */
	char *run_name;     /* NULL when unnamed */
	char *created_at;
	char *commit;       /* the run's commit attribute, or NULL */
	size_t n;           /* samples */
	double value, mean, min, max;
	double p5, q1, q3, p95; /* of the samples (NAN without) */
	double lower, upper;    /* the tool's bounds (Bencher lower_value, upper_value):
				 * NAN unless pdb_store_series_bounds read them */
};
void pdb_history_free(struct pdb_history_point *pts, size_t n);
/* A point of run_id without a value (NAN statistics, no labels). */
void pdb_history_point_init(struct pdb_history_point *p, int64_t run_id);

#endif
