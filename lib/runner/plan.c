/* Run plans: a spec expanded into steps (matrix points, warm-ups, repetitions). */
#include "runner/plan.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void add_variant(struct pdb_plan *plan, int kind, size_t bench, size_t point, int rep,
			size_t variant, size_t look)
{
	pdb_grow((void **)&plan->steps, &plan->cap, plan->nsteps + 1, sizeof *plan->steps);
	plan->steps[plan->nsteps++] = (struct pdb_step){ kind, bench, point, rep, variant, look };
	if (kind == PDB_STEP_MEASURE)
		plan->nmeasure++;
}

/* Where the steps go: the plan, and the look they belong to. */
struct into {
	struct pdb_plan *plan;
	const struct pdb_spec *spec;
	size_t look;
};

/* The step once per variant (once without variants); measured repetitions
 * alternate their order, A B then B A (A B C then C B A), so that drift
 * hits every variant alike. */
static void add(const struct into *in, int kind, size_t bench, size_t point, int rep)
{
	size_t n = in->spec->nvariants ? in->spec->nvariants : 1;

	for (size_t k = 0; k < n; k++)
		add_variant(in->plan, kind, bench, point, rep,
			    kind == PDB_STEP_MEASURE && rep % 2 ? n - 1 - k : k, in->look);
}

static int has(const struct pdb_command *c)
{
	return c->argv || c->shell;
}

int pdb_plan_is_auto(const struct pdb_spec *spec, size_t b, int repeat)
{
	return repeat == PDB_PLAN_AUTO || (repeat == 0 && spec->benches[b].repeat_auto);
}

/* The repetitions [*from, *to) of benchmark b at the look of in. */
static void reps_range(const struct into *in, size_t b, int repeat, const int *looks, int *from,
		       int *to)
{
	if (pdb_plan_is_auto(in->spec, b, repeat)) {
		*from = in->look ? looks[in->look - 1] : 0;
		*to = looks[in->look];
		return;
	}
	*from = 0;
	*to = in->look ? 0 : repeat > 0 ? repeat : in->spec->benches[b].repeat;
}

/* The steps of one look at matrix point p for the chosen benchmarks, one
 * benchmark after the other. */
static void add_point(const struct into *in, const size_t *chosen, size_t nchosen, size_t p,
		      int repeat, const int *looks)
{
	const struct pdb_spec *spec = in->spec;
	int from, to;

	for (size_t i = 0; i < nchosen; i++) {
		const struct pdb_bench_spec *b = &spec->benches[chosen[i]];
		if (p >= pdb_plan_npoints(spec, chosen[i]))
			continue; /* it has fewer points */
		reps_range(in, chosen[i], repeat, looks, &from, &to);
		if (from >= to)
			continue; /* nothing of it at this look: no setup either */
		if (has(&b->setup))
			add(in, PDB_STEP_SETUP, chosen[i], p, 0);
		for (int w = 0; w < b->warmup; w++)
			add(in, PDB_STEP_WARMUP, chosen[i], p, w);
		for (int r = from; r < to; r++)
			add(in, PDB_STEP_MEASURE, chosen[i], p, r);
		if (has(&b->teardown))
			add(in, PDB_STEP_TEARDOWN, chosen[i], p, 0);
	}
}

/* interleave: true: the steps of one look for the chosen benchmarks at
 * every matrix point, round robin: every setup first, then warm-up w and
 * repetition r of each benchmark at each point in turn (point 1: A B,
 * point 2: A B, then again), then the teardowns, so that drift hits
 * every benchmark and every point alike. */
static void add_interleaved(const struct into *in, const size_t *chosen, size_t nchosen, size_t npoints,
			    int repeat, const int *looks)
{
	const struct pdb_spec *spec = in->spec;
	int most = 0, least = INT_MAX, most_warm = 0, from, to;

	for (size_t p = 0; p < npoints; p++)
		for (size_t i = 0; i < nchosen; i++) {
			if (p >= pdb_plan_npoints(spec, chosen[i]))
				continue;
			reps_range(in, chosen[i], repeat, looks, &from, &to);
			if (from >= to)
				continue;
			if (p == 0) {
				most = to > most ? to : most;
				least = from < least ? from : least;
				if (spec->benches[chosen[i]].warmup > most_warm)
					most_warm = spec->benches[chosen[i]].warmup;
			}
			if (has(&spec->benches[chosen[i]].setup))
				add(in, PDB_STEP_SETUP, chosen[i], p, 0);
		}
	for (int w = 0; w < most_warm; w++)
		for (size_t p = 0; p < npoints; p++)
			for (size_t i = 0; i < nchosen; i++) {
				if (p >= pdb_plan_npoints(spec, chosen[i]))
					continue;
				reps_range(in, chosen[i], repeat, looks, &from, &to);
				if (from < to && w < spec->benches[chosen[i]].warmup)
					add(in, PDB_STEP_WARMUP, chosen[i], p, w);
			}
	for (int r = least; r < most; r++)
		for (size_t p = 0; p < npoints; p++)
			for (size_t i = 0; i < nchosen; i++) {
				if (p >= pdb_plan_npoints(spec, chosen[i]))
					continue;
				reps_range(in, chosen[i], repeat, looks, &from, &to);
				if (r >= from && r < to)
					add(in, PDB_STEP_MEASURE, chosen[i], p, r);
			}
	for (size_t p = 0; p < npoints; p++)
		for (size_t i = 0; i < nchosen; i++) {
			if (p >= pdb_plan_npoints(spec, chosen[i]))
				continue;
			reps_range(in, chosen[i], repeat, looks, &from, &to);
			if (from < to && has(&spec->benches[chosen[i]].teardown))
				add(in, PDB_STEP_TEARDOWN, chosen[i], p, 0);
		}
}

int pdb_plan_build_looks(const struct pdb_spec *spec, const char *only, int repeat,
			 const int *looks, size_t nlooks, struct pdb_plan *plan,
			 struct pdb_err *err)
{
	size_t *chosen = pdb_xcalloc(spec->nbenches, sizeof *chosen), nchosen = 0;
	static const int none[] = { 0 };
	size_t npoints = 0; /* the most points of a chosen benchmark */

	memset(plan, 0, sizeof *plan);
	for (size_t b = 0; b < spec->nbenches; b++)
		if (pdb_glob_match(only, spec->benches[b].name)) {
			chosen[nchosen++] = b;
			if (pdb_plan_npoints(spec, b) > npoints)
				npoints = pdb_plan_npoints(spec, b);
		}
	if (nchosen == 0) {
		free(chosen);
		return pdb_err_set(err, PDB_EXIT_USAGE, "no benchmark matches '%s'", only);
	}
	for (size_t i = 0; i < nchosen && nlooks == 0; i++)
		if (pdb_plan_is_auto(spec, chosen[i], repeat)) {
			pdb_err_set(err, PDB_EXIT_USAGE, "benchmark '%s': repeat: auto needs a "
				    "schedule of looks", spec->benches[chosen[i]].name);
			free(chosen);
			return -1;
		}
	if (nlooks) {
		plan->looks = pdb_xcalloc(nlooks, sizeof *plan->looks);
		memcpy(plan->looks, looks, nlooks * sizeof *looks);
		plan->nlooks = nlooks;
	}
	for (size_t k = 0; k < (nlooks ? nlooks : 1); k++) {
		struct into in = { plan, spec, k };
		if (spec->interleave)
			add_interleaved(&in, chosen, nchosen, npoints, repeat, nlooks ? looks : none);
		for (size_t p = 0; p < npoints && !spec->interleave; p++)
			add_point(&in, chosen, nchosen, p, repeat, nlooks ? looks : none);
	}
	free(chosen);
	return 0;
}

int pdb_plan_build(const struct pdb_spec *spec, const char *only, int repeat,
		   struct pdb_plan *plan, struct pdb_err *err)
{
	return pdb_plan_build_looks(spec, only, repeat, NULL, 0, plan, err);
}

void pdb_plan_release(struct pdb_plan *plan)
{
	free(plan->steps);
	free(plan->looks);
	memset(plan, 0, sizeof *plan);
}

size_t pdb_plan_npoints(const struct pdb_spec *spec, size_t bench)
{
	const struct pdb_bench_spec *b = &spec->benches[bench];
	size_t n = 1;

	for (size_t i = 0; i < b->naxes; i++)
		n *= b->axes[i]->nvalues;
	return n;
}

const char *pdb_plan_value(const struct pdb_spec *spec, size_t bench, size_t point, size_t param)
{
	const struct pdb_bench_spec *b = &spec->benches[bench];

	/* mixed radix: the last parameter varies fastest */
	for (size_t i = b->naxes; i-- > param + 1;)
		point /= b->axes[i]->nvalues;
	return b->axes[param]->values[point % b->axes[param]->nvalues];
}

char *pdb_plan_point_text(const struct pdb_spec *spec, size_t bench, size_t point)
{
	const struct pdb_bench_spec *b = &spec->benches[bench];
	struct pdb_buf buf;

	pdb_buf_init(&buf);
	pdb_buf_puts(&buf, "");
	for (size_t i = 0; i < b->naxes; i++)
		pdb_buf_printf(&buf, "%s%s=%s", i ? "," : "", b->axes[i]->name,
			       pdb_plan_value(spec, bench, point, i));
	return buf.data;
}

int pdb_plan_vcpus(const struct pdb_spec *spec, size_t bench, size_t point)
{
	const struct pdb_bench_spec *b = &spec->benches[bench];
	int64_t n;

	for (size_t i = 0; i < b->naxes; i++)
		if (strcmp(b->axes[i]->name, "vcpus") == 0 &&
		    pdb_parse_int64(pdb_plan_value(spec, bench, point, i), 1, 4096, &n) == 0)
			return (int)n; /* range checked when the spec was read */
	return 0;
}
