/* detect's acceptance by the runs' ranks, outside Otava's mode
 * (lib/detect_accept.c). Pure functions. */
#ifndef PDB_DETECT_ACCEPT_H
#define PDB_DETECT_ACCEPT_H

#include <stddef.h>

#include "detect_significance.h"

/* A series' positions in the order of its values, and room for two of its
 * stretches: a rank test of a long stretch walks the order (len steps)
 * where sorting it would cost m log m comparisons. */
struct detect_ranks {
	size_t *order, len;
	double *sx, *sy;
};
void detect_ranks_init(struct detect_ranks *rk, const double *y, size_t len);
void detect_ranks_free(struct detect_ranks *rk);

/* The acceptance's p of change point i of idx[0..n) against its
 * neighbours (the runs from end on count only for the change points
 * there); above 1 while a side is an excursion. */
double detect_evidence_at(const double *y, size_t len, size_t end, const size_t *idx, size_t n,
			  size_t i, const struct detect_rule *r);
/* Backward elimination over cand[0..n): keep[k] gets the p below which
 * candidate k is accepted. */
void detect_elimination(const double *y, size_t len, const size_t *cand, size_t n,
			const struct detect_rule *r, double *keep);
/* Keep the candidates idx[k] with keep[k] < level, in place; their count. */
size_t detect_accept(size_t *idx, const double *keep, size_t n, double level);
/* The most runs of an excursion that ends at change point k (the first
 * regime: k = 0). */
size_t detect_excursion_max(size_t k);

#endif
