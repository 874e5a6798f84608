/* A run's values as compare's history test reads them (struct pdb_run_value,
 * lib/model.h): what a result is worth as one run of a series, and how a
 * run's values are packed into the one blob the store keeps for the run
 * (schema/010-run-values.sql; the store keeps the bytes, it does not read
 * them). */
#ifndef PDB_RUN_VALUES_H
#define PDB_RUN_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* A result's run value (its run_id left 0): with samples their median
 * (weighted ones too), quartiles and count; without, the tool's median,
 * else its p50, else its mean (NaN: none), quartiles NaN and count 0. */
void pdb_result_run_value(const struct pdb_result *r, struct pdb_run_value *out);
/* The value of a result without samples from the statistics its tool gave
 * (NaN: not given): its median, else its p50, else its mean. */
double pdb_run_value_of_stats(double median, double p50, double mean);

/* One entry of a run's blob: a series and its run value (v.run_id unused). */
struct pdb_series_value {
	int64_t series_id;
	struct pdb_run_value v;
};

/* The blob of a run's values: v sorted by series id in place (each id once),
 * packed; *len its bytes. Caller frees. */
unsigned char *pdb_run_values_pack(struct pdb_series_value *v, size_t n, size_t *len);

/* A reader of a blob, entry by entry in series order. */
struct pdb_run_values_cursor {
	const unsigned char *p, *end;
	int64_t last;      /* the previous entry's series id */
	int started;       /* an entry was read */
};
/* Start reading blob (len bytes); -1 and *why when it is not one pdb_run_values_pack
 * writes. */
int pdb_run_values_open(struct pdb_run_values_cursor *c, const void *blob, size_t len,
			const char **why);
/* The next entry into *out: 1, 0 at the end, -1 and *why when the blob is
 * corrupt (cut short, its ids not ascending, a kind it does not have). */
int pdb_run_values_next(struct pdb_run_values_cursor *c, struct pdb_series_value *out,
			const char **why);

#endif
