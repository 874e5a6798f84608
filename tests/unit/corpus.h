/* Corpus test helpers: ingest files of ../shared/corpus and find series (include once per test). */
#ifndef PDB_TEST_CORPUS_H
#define PDB_TEST_CORPUS_H

#include "ingest.h"
#include "model.h"

/* Ingest corpus files (relative to the corpus) into one run, detecting the
 * format, which must be want. NULL when the corpus is absent. */
static struct pdb_run *ingest(const char *const *rel, size_t n, const char *want)
{
	const char *root = getenv("ROOT");
	char path[8][4096];
	const char *paths[8];
	struct pdb_ingest_opts opts = { 0 };
	const char *detected = NULL;
	struct pdb_err err;
	struct pdb_run *run;

	assert_true(n <= 8);
	for (size_t i = 0; i < n; i++) {
		snprintf(path[i], sizeof path[i], "%s/../shared/corpus/%s", root ? root : ".", rel[i]);
		if (access(path[i], R_OK) != 0)
			return NULL;
		paths[i] = path[i];
	}
	pdb_err_clear(&err);
	run = pdb_ingest_files(paths, n, &opts, &detected, &err);
	if (!run)
		fail_msg("%s: %s", rel[0], err.msg);
	assert_string_equal(detected, want);
	assert_string_equal(run->format, want);
	return run;
}

/* cmocka 1.1 has no assert_double_equal. */
#define assert_near(got, want, eps) near(got, want, eps, __FILE__, __LINE__)

static void near(double got, double want, double eps, const char *file, int line)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("%s:%d: %.17g, expected %.17g", file, line, got, want);
}

static const struct pdb_result *find(const struct pdb_run *run, const char *bench,
				     const char *metric, const char *dim, const char *value)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		const char *d = dim ? pdb_result_get_dim(r, dim) : NULL;
		if (strcmp(r->benchmark, bench) == 0 && strcmp(r->metric, metric) == 0 &&
		    (!dim || (d && strcmp(d, value) == 0)))
			return r;
	}
	fail_msg("no result %s %s", bench, metric);
	return NULL;
}

static double stat(const struct pdb_result *r, const char *name)
{
	double v = NAN;

	assert_int_equal(pdb_result_get_stat(r, name, &v), 0);
	return v;
}

static double mean(const struct pdb_result *r)
{
	double sum = 0;

	assert_true(r->nsamples > 0);
	for (size_t i = 0; i < r->nsamples; i++)
		sum += r->samples[i].value;
	return sum / (double)r->nsamples;
}

#endif
