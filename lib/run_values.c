/* A run's values: the rule of what a result is worth as one run of a series
 * (compare's history test reads it), and the blob the store keeps of them. */
#include "run_values.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The blob: a format byte, then per series in ascending id
 *   varint  the id's step from the entry before (from 0 for the first; >= 1 after)
 *   varint  n << 2 | kind
 *   8 bytes value, a little-endian double
 *   kind 2: 8 bytes q1, 8 bytes q3; kind 1: q1 = q3 = value; kind 0: q1, q3 NaN.
 * About 26 bytes a result; the ids of a run's series are mostly consecutive,
 * so a step takes a byte. */
#define FORMAT 1
enum { KIND_NO_QUARTILES, KIND_ONE_VALUE, KIND_QUARTILES };

double pdb_run_value_of_stats(double median, double p50, double mean)
{
	return !isnan(median) ? median : !isnan(p50) ? p50 : mean;
}

void pdb_result_run_value(const struct pdb_result *r, struct pdb_run_value *out)
{
	struct pdb_summary s;
	double median = NAN, p50 = NAN, mean = NAN;

	out->run_id = 0;
	out->n = r->nsamples;
	out->q1 = out->q3 = NAN;
	if (r->nsamples > 0) {
		pdb_result_summary(r, &s);
		out->value = s.median;
		out->q1 = s.q1;
		out->q3 = s.q3;
		return;
	}
	pdb_result_get_stat(r, "median", &median);
	pdb_result_get_stat(r, "p50", &p50);
	pdb_result_get_stat(r, "mean", &mean);
	out->value = pdb_run_value_of_stats(median, p50, mean);
}

static int cmp_series(const void *a, const void *b)
{
	int64_t x = ((const struct pdb_series_value *)a)->series_id;
	int64_t y = ((const struct pdb_series_value *)b)->series_id;
	return x < y ? -1 : x > y;
}

static unsigned char *put_varint(unsigned char *p, uint64_t x)
{
	while (x >= 0x80) {
		*p++ = (unsigned char)(x | 0x80);
		x >>= 7;
	}
	*p++ = (unsigned char)x;
	return p;
}

static unsigned char *put_double(unsigned char *p, double d)
{
	uint64_t u;

	memcpy(&u, &d, 8);
	pdb_put_le64(p, u);
	return p + 8;
}

static int same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

unsigned char *pdb_run_values_pack(struct pdb_series_value *v, size_t n, size_t *len)
{
	/* at most 10 + 10 + 24 bytes an entry */
	unsigned char *blob = pdb_xmalloc(1 + n * 44), *p = blob;
	uint64_t last = 0;

	if (n > 1)
		qsort(v, n, sizeof *v, cmp_series);
	*p++ = FORMAT;
	for (size_t i = 0; i < n; i++) {
		const struct pdb_run_value *x = &v[i].v;
		int kind = isnan(x->q1) && isnan(x->q3) ? KIND_NO_QUARTILES
			 : same_bits(x->q1, x->value) && same_bits(x->q3, x->value) ? KIND_ONE_VALUE
			 : KIND_QUARTILES;

		p = put_varint(p, (uint64_t)v[i].series_id - last);
		last = (uint64_t)v[i].series_id;
		p = put_varint(p, (uint64_t)x->n << 2 | (uint64_t)kind);
		p = put_double(p, x->value);
		if (kind == KIND_QUARTILES) {
			p = put_double(p, x->q1);
			p = put_double(p, x->q3);
		}
	}
	*len = (size_t)(p - blob);
	return blob;
}

int pdb_run_values_open(struct pdb_run_values_cursor *c, const void *blob, size_t len,
			const char **why)
{
	const unsigned char *p = blob;

	memset(c, 0, sizeof *c);
	if (!p || len == 0) {
		*why = "empty";
		return -1;
	}
	if (p[0] != FORMAT) {
		*why = "a format this perfdb does not write";
		return -1;
	}
	c->p = p + 1;
	c->end = p + len;
	return 0;
}

static int get_varint(struct pdb_run_values_cursor *c, uint64_t *x)
{
	*x = 0;
	for (int shift = 0; c->p < c->end && shift < 64; shift += 7) {
		unsigned char b = *c->p++;
		*x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
	}
	return -1;
}

static int get_double(struct pdb_run_values_cursor *c, double *d)
{
	uint64_t u;

	if (c->end - c->p < 8)
		return -1;
	u = pdb_get_le64(c->p);
	c->p += 8;
	memcpy(d, &u, 8);
	return 0;
}

int pdb_run_values_next(struct pdb_run_values_cursor *c, struct pdb_series_value *out,
			const char **why)
{
	uint64_t step, nk;
	int64_t id;
	int kind;

	if (c->p >= c->end)
		return 0;
	*why = "cut short";
	if (get_varint(c, &step) < 0 || get_varint(c, &nk) < 0)
		return -1;
	id = (int64_t)((uint64_t)c->last + step);
	if (c->started && (step == 0 || id <= c->last)) {
		*why = "series ids not in ascending order";
		return -1;
	}
	kind = (int)(nk & 3);
	if (kind > KIND_QUARTILES) {
		*why = "an entry of an unknown kind";
		return -1;
	}
	out->series_id = id;
	out->v.run_id = 0;
	out->v.n = (size_t)(nk >> 2);
	out->v.q1 = out->v.q3 = NAN;
	if (get_double(c, &out->v.value) < 0)
		return -1;
	if (kind == KIND_ONE_VALUE)
		out->v.q1 = out->v.q3 = out->v.value;
	else if (kind == KIND_QUARTILES &&
		 (get_double(c, &out->v.q1) < 0 || get_double(c, &out->v.q3) < 0))
		return -1;
	c->last = id;
	c->started = 1;
	return 1;
}
