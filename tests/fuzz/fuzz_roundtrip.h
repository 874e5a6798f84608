/* The round-trip property of every fuzz target: a run that ingest accepts is
 * stored and loaded back (as `perfdb show` loads it), written as canonical JSON
 * by the code `show --format json` uses, and ingested again as a perfdb file;
 * each step must give back the same run, or the target aborts naming the
 * first field that differs (libFuzzer keeps the input as a crash).
 * Equal: every string field, attribute, series (benchmark, dims, metric, unit,
 * raw unit and name, direction), sample value, offset and weight, statistic and
 * failure, in order (statistics by name: a JSON object, and the store keeps
 * them by name); doubles bit for bit (-0 included: samples and offsets keep it, statistics keep one zero),
 * any NaN equal to any NaN (NaN is "absent", written null). Not compared: id (0 until stored), scale (how a
 * parser converted the tool's unit, not part of the run) and own_identity (how
 * ingest chose source and sha256). */
#ifndef PDB_FUZZ_ROUNDTRIP_H
#define PDB_FUZZ_ROUNDTRIP_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "ingest.h"
#include "json_out.h"
#include "model.h"
#include "store/store.h"

static inline int fuzz_same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static inline int fuzz_same_double(double a, double b)
{
	return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static inline int fuzz_same_pairs(const struct pdb_attr *a, size_t na,
				  const struct pdb_attr *b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (!fuzz_same_str(a[i].key, b[i].key) || !fuzz_same_str(a[i].value, b[i].value))
			return 0;
	return 1;
}

/* The first difference of two series as text into why, or 0 when none. */
static inline int fuzz_result_differs(const struct pdb_result *a, const struct pdb_result *b,
				      char *why, size_t size)
{
	const char *field = NULL;

	if (!fuzz_same_str(a->benchmark, b->benchmark))
		field = "benchmark";
	else if (!fuzz_same_pairs(a->dims, a->ndims, b->dims, b->ndims))
		field = "dims";
	else if (!fuzz_same_str(a->metric, b->metric))
		field = "metric";
	else if (!fuzz_same_str(a->unit, b->unit))
		field = "unit";
	else if (!fuzz_same_str(a->raw_unit, b->raw_unit))
		field = "raw_unit";
	else if (!fuzz_same_str(a->raw_name, b->raw_name))
		field = "raw_name";
	else if (a->direction != b->direction)
		field = "direction";
	else if (a->nsamples != b->nsamples)
		field = "number of samples";
	else if (a->nstats != b->nstats)
		field = "number of stats";
	if (field)
		return snprintf(why, size, "%s", field), 1;
	for (size_t k = 0; k < a->nsamples; k++) {
		const struct pdb_sample *x = &a->samples[k], *y = &b->samples[k];
		if (!fuzz_same_double(x->value, y->value) || !fuzz_same_double(x->t, y->t) ||
		    !fuzz_same_double(x->weight, y->weight))
			return snprintf(why, size, "sample %zu: {%a, t %a, weight %a} against {%a, t %a, weight %a}",
					k + 1, x->value, x->t, x->weight, y->value, y->t, y->weight), 1;
	}
	for (size_t k = 0; k < a->nstats; k++) {
		double v;
		if (pdb_result_get_stat(b, a->stats[k].name, &v) < 0)
			return snprintf(why, size, "stat %s missing", a->stats[k].name), 1;
		if (!fuzz_same_double(a->stats[k].value, v))
			return snprintf(why, size, "stat %s: %a against %a", a->stats[k].name,
					a->stats[k].value, v), 1;
	}
	return 0;
}

/* The first difference of two runs as text into why, or 0 when none. */
static inline int fuzz_run_differs(const struct pdb_run *a, const struct pdb_run *b,
				   char *why, size_t size)
{
	static const char *const names[] = { "uuid", "name", "created_at", "tool", "format",
					     "source", "sha256", "status" };
	const char *x[] = { a->uuid, a->name, a->created_at, a->tool, a->format, a->source,
			    a->sha256, a->status };
	const char *y[] = { b->uuid, b->name, b->created_at, b->tool, b->format, b->source,
			    b->sha256, b->status };
	char sub[512];

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!fuzz_same_str(x[i], y[i]))
			return snprintf(why, size, "%s: \"%s\" against \"%s\"", names[i],
					x[i] ? x[i] : "(null)", y[i] ? y[i] : "(null)"), 1;
	if (!fuzz_same_pairs(a->attrs, a->nattrs, b->attrs, b->nattrs))
		return snprintf(why, size, "attrs (%zu against %zu)", a->nattrs, b->nattrs), 1;
	if (a->nresults != b->nresults)
		return snprintf(why, size, "%zu series against %zu", a->nresults, b->nresults), 1;
	for (size_t i = 0; i < a->nresults; i++)
		if (fuzz_result_differs(&a->results[i], &b->results[i], sub, sizeof sub))
			return snprintf(why, size, "series %zu (%s %s): %s", i + 1, a->results[i].benchmark,
					a->results[i].metric, sub), 1;
	if (a->nfailures != b->nfailures)
		return snprintf(why, size, "%zu failures against %zu", a->nfailures, b->nfailures), 1;
	for (size_t i = 0; i < a->nfailures; i++)
		if (!fuzz_same_str(a->failures[i].benchmark, b->failures[i].benchmark) ||
		    !fuzz_same_pairs(a->failures[i].dims, a->failures[i].ndims,
				     b->failures[i].dims, b->failures[i].ndims) ||
		    !fuzz_same_str(a->failures[i].reason, b->failures[i].reason))
			return snprintf(why, size, "failure %zu (%s)", i + 1, a->failures[i].benchmark), 1;
	return 0;
}

static inline void fuzz_roundtrip_fail(const char *step, const char *why, const char *json_path)
{
	fprintf(stderr, "round trip: %s: %s\n", step, why);
	if (json_path) {
		char line[4096];
		FILE *f = fopen(json_path, "r");
		while (f && fgets(line, sizeof line, f))
			fputs(line, stderr);
		if (f)
			fclose(f);
	}
	abort();
}

/* The property for run, accepted by ingest: store (run->id set), load,
 * canonical JSON (written to the scratch file json_path), ingest. */
static inline void fuzz_roundtrip(struct pdb_run *run, const char *json_path)
{
	struct pdb_ingest_opts opts = { .format = "perfdb" };
	const char *paths[] = { json_path };
	struct pdb_run *stored = NULL, *again;
	struct pdb_store *store;
	struct pdb_err err;
	char why[1024];
	json_t *doc;
	FILE *f;

	/* what `perfdb ingest` stores and `perfdb show` loads: a store refusing the
	 * run is ingest refusing the input, no round trip */
	if (!(store = pdb_store_open(":memory:", &err)))
		fuzz_roundtrip_fail("store", err.msg, NULL);
	if (pdb_store_insert_run(store, run, 1, &err) == 0 &&
	    !(stored = pdb_store_load_run(store, run->id, &err)))
		fuzz_roundtrip_fail("load of the stored run", err.msg, NULL);
	pdb_store_close(store);
	if (!stored)
		return;
	if (fuzz_run_differs(run, stored, why, sizeof why))
		fuzz_roundtrip_fail("stored and loaded", why, NULL);
	doc = pdb_canonical_from_run(stored);
	if (!(f = fopen(json_path, "w")))
		abort();
	pdb_json_write(f, doc, 2);
	if (fclose(f) != 0)
		abort();
	json_decref(doc);
	if (!(again = pdb_ingest_files(paths, 1, &opts, NULL, &err)))
		fuzz_roundtrip_fail("canonical JSON of an accepted run refused", err.msg, json_path);
	if (fuzz_run_differs(stored, again, why, sizeof why))
		fuzz_roundtrip_fail("canonical JSON read back", why, json_path);
	pdb_run_free(stored);
	pdb_run_free(again);
}

#endif
