/* Runs from fuzz bytes, and fixture runs as such bytes (the analysis target's
 * input and its seeds): every byte string is some runs, so that the fuzzer
 * works on the values, names and shapes analysis meets, not on a syntax.
 *
 *   input   := NRUNS run...                  (1 + NRUNS % FUZZ_RUNS_MAX runs)
 *   run     := BRANCH FLAGS NRES result... NFAIL failure...
 *              BRANCH % 4: 0, 1 main, 2 dev, 3 a string follows;
 *              FLAGS: 1 an `ab` attribute, 2 a name (a string follows),
 *              4 status failed, 8 status interrupted
 *   result  := str:benchmark NDIMS (str:key str:value)... str:metric str:unit
 *              KIND NSAMPLES sample... stat...
 *              KIND: 1 time offsets, 2 weights, (KIND >> 2) % 4 stats
 *   sample  := value [value:t] [value:weight]
 *   stat    := str:name value
 *   failure := str:benchmark str:reason
 *   str     := LEN (< 0x80) then LEN bytes, or 0x80 + i: the i-th string
 *              read before (modulo their count), so that runs share names
 *   value   := T: T < 12 the special values below, T == 0xff then 8 bytes
 *              of a double, else the whole number T - 11 (ties)
 * Bytes past the end read as 0. */
#ifndef PDB_FUZZ_RUNS_H
#define PDB_FUZZ_RUNS_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"

#define FUZZ_RUNS_MAX 8
#define FUZZ_RESULTS_MAX 16
#define FUZZ_SAMPLES_MAX 64

static const double fuzz_special[12] = { NAN, INFINITY, -INFINITY, 0.0, -0.0, -1.0, DBL_MAX,
					 -DBL_MAX, 5e-324, 1e308, -1e308, 1e-300 };

struct fuzz_in {
	const uint8_t *p;
	size_t n;
	char **seen; /* the strings read, for 0x80 + i */
	size_t nseen, cap;
};

static inline uint8_t fuzz_byte(struct fuzz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static inline double fuzz_value(struct fuzz_in *in)
{
	uint8_t t = fuzz_byte(in), raw[8] = { 0 };
	double v;

	if (t < 12)
		return fuzz_special[t];
	if (t != 0xff)
		return t - 11;
	for (int i = 0; i < 8; i++)
		raw[i] = fuzz_byte(in);
	memcpy(&v, raw, sizeof v);
	return v;
}

/* A string (owned by in, until fuzz_in_release). */
static inline const char *fuzz_str(struct fuzz_in *in)
{
	uint8_t b = fuzz_byte(in);
	char *s;

	if (b & 0x80)
		return in->nseen ? in->seen[(b & 0x7f) % in->nseen] : "";
	s = pdb_xcalloc(b + 1u, 1);
	for (uint8_t i = 0; i < b; i++)
		s[i] = (char)fuzz_byte(in);
	pdb_grow((void **)&in->seen, &in->cap, in->nseen + 1, sizeof *in->seen);
	return in->seen[in->nseen++] = s;
}

static inline void fuzz_in_release(struct fuzz_in *in)
{
	for (size_t i = 0; i < in->nseen; i++)
		free(in->seen[i]);
	free(in->seen);
}

static inline void fuzz_result(struct fuzz_in *in, struct pdb_run *run)
{
	const char *bench = fuzz_str(in), *metric, *unit;
	struct pdb_attr dims[2];
	size_t ndims = 0, want = fuzz_byte(in) % 3, n;
	struct pdb_result *r;
	uint8_t kind;

	for (size_t i = 0; i < want; i++) {
		const char *k = fuzz_str(in), *v = fuzz_str(in);
		int again = 0;
		for (size_t j = 0; j < ndims; j++)
			again |= strcmp(dims[j].key, k) == 0;
		if (!again) /* a reader never gives a dim twice */
			dims[ndims++] = (struct pdb_attr){ (char *)k, (char *)v };
	}
	metric = fuzz_str(in);
	unit = fuzz_str(in);
	r = pdb_run_result_with_dims(run, bench, dims, ndims, metric, unit);
	kind = fuzz_byte(in);
	n = fuzz_byte(in) % (FUZZ_SAMPLES_MAX + 1);
	for (size_t i = 0; i < n; i++) {
		struct pdb_sample s = PDB_SAMPLE(fuzz_value(in));
		if (kind & 1)
			s.t = fuzz_value(in);
		if (kind & 2)
			s.weight = fuzz_value(in);
		pdb_result_add_sample(r, &s);
	}
	for (int i = 0; i < (kind >> 2) % 4; i++) {
		const char *name = fuzz_str(in);
		pdb_result_set_stat(r, name, fuzz_value(in));
	}
}

/* The runs of data[0..size) into runs (FUZZ_RUNS_MAX); their count. Run k
 * is created at second k of 2024 (the order of runs). */
static inline size_t fuzz_runs_decode(const uint8_t *data, size_t size, struct pdb_run **runs)
{
	struct fuzz_in in = { .p = data, .n = size };
	size_t n = 1 + fuzz_byte(&in) % FUZZ_RUNS_MAX;

	for (size_t k = 0; k < n; k++) {
		struct pdb_run *run = runs[k] = pdb_run_new();
		uint8_t branch = fuzz_byte(&in) % 4, flags = fuzz_byte(&in);
		size_t nres, nfail;
		char when[32];

		snprintf(when, sizeof when, "2024-01-01T00:00:%02zuZ", k);
		pdb_set_str(&run->created_at, when);
		pdb_set_str(&run->tool, "fuzz");
		pdb_set_str(&run->format, "fuzz");
		pdb_run_set_attr(run, "branch", branch < 2 ? "main" : branch == 2 ? "dev"
				 : fuzz_str(&in));
		if (flags & 1)
			pdb_run_set_attr(run, "ab", "1");
		if (flags & 2)
			pdb_set_str(&run->name, fuzz_str(&in));
		if (flags & 12)
			pdb_set_str(&run->status, flags & 4 ? "failed" : "interrupted");
		nres = fuzz_byte(&in) % (FUZZ_RESULTS_MAX + 1);
		for (size_t i = 0; i < nres; i++)
			fuzz_result(&in, run);
		nfail = fuzz_byte(&in) % 3;
		for (size_t i = 0; i < nfail; i++) {
			const char *bench = fuzz_str(&in);
			pdb_run_add_failure(run, bench, NULL, 0, fuzz_str(&in));
		}
	}
	fuzz_in_release(&in);
	return n;
}

/* ---- the encoder, for the seeds: fixture runs as input bytes ---- */

static inline void fuzz_put_str(FILE *out, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	n = n < 0x7f ? n : 0x7f;
	fputc((int)n, out);
	fwrite(s ? s : "", 1, n, out);
}

static inline void fuzz_put_value(FILE *out, double v)
{
	fputc(0xff, out);
	fwrite(&v, sizeof v, 1, out);
}

/* runs[0..n) (at most FUZZ_RUNS_MAX, each value multiplied by scale[k]) as input. */
static inline void fuzz_runs_encode(FILE *out, struct pdb_run *const *runs, const double *scale,
				    size_t n)
{
	fputc((int)(n - 1), out);
	for (size_t k = 0; k < n; k++) {
		const struct pdb_run *run = runs[k];
		size_t nres = run->nresults < FUZZ_RESULTS_MAX ? run->nresults : FUZZ_RESULTS_MAX;
		size_t nfail = run->nfailures < 2 ? run->nfailures : 2;
		fputc(0, out); /* main */
		fputc(0, out);
		fputc((int)nres, out);
		for (size_t i = 0; i < nres; i++) {
			const struct pdb_result *r = &run->results[i];
			size_t ns = r->nsamples < FUZZ_SAMPLES_MAX ? r->nsamples : FUZZ_SAMPLES_MAX;
			size_t nd = r->ndims < 2 ? r->ndims : 2, nst = r->nstats < 3 ? r->nstats : 3;
			int t = ns && pdb_sample_has_t(&r->samples[0]);
			int w = ns && pdb_sample_has_weight(&r->samples[0]);
			fuzz_put_str(out, r->benchmark);
			fputc((int)nd, out);
			for (size_t d = 0; d < nd; d++) {
				fuzz_put_str(out, r->dims[d].key);
				fuzz_put_str(out, r->dims[d].value);
			}
			fuzz_put_str(out, r->metric);
			fuzz_put_str(out, r->unit);
			fputc(t | w << 1 | (int)nst << 2, out);
			fputc((int)ns, out);
			for (size_t s = 0; s < ns; s++) {
				fuzz_put_value(out, r->samples[s].value * scale[k]);
				if (t)
					fuzz_put_value(out, r->samples[s].t);
				if (w)
					fuzz_put_value(out, r->samples[s].weight);
			}
			for (size_t s = 0; s < nst; s++) {
				fuzz_put_str(out, r->stats[s].name);
				fuzz_put_value(out, r->stats[s].value * scale[k]);
			}
		}
		fputc((int)nfail, out);
		for (size_t i = 0; i < nfail; i++) {
			fuzz_put_str(out, run->failures[i].benchmark);
			fuzz_put_str(out, run->failures[i].reason);
		}
	}
}

#endif
