/* The read model of a series' history: freeing what the store read. */
#include "series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pdb_series_free(struct pdb_series *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].benchmark);
		free(s[i].dims);
		free(s[i].metric);
		free(s[i].unit);
	}
	free(s);
}

void pdb_history_point_init(struct pdb_history_point *p, int64_t run_id)
{
	memset(p, 0, sizeof *p);
	p->run_id = run_id;
	p->value = p->mean = p->min = p->max = NAN;
	p->p5 = p->q1 = p->q3 = p->p95 = p->lower = p->upper = NAN;
}

void pdb_history_free(struct pdb_history_point *pts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(pts[i].run_name);
		free(pts[i].created_at);
		free(pts[i].commit);
	}
	free(pts);
}
