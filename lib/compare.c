/* Compare: match the series of two run groups and give each a verdict. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_cpu.h"
#include "compare_geomean.h"
#include "compare_run_wide.h"
#include "compare_strategy.h"
#include "compare_verdict.h"
#include "metric_role.h"
#include "stats.h"
#include "units.h"
#include "dim_filter.h"
#include "util.h"

void pdb_compare_opts_init(struct pdb_compare_opts *opts)
{
	memset(opts, 0, sizeof *opts);
	opts->alpha = NAN;
	opts->threshold_pct = NAN;
}

/* One result of one run of a side, under its series key. */
struct entry {
	char *key;               /* benchmark \x1f dims json \x1f metric */
	char *dims_json;
	const struct pdb_result *r;
	const char *tool;        /* of its run (pdb_run_tool_of), NULL: not known */
};

/* Working state of one comparison. */
struct ctx {
	const struct pdb_compare_input *in;
	const struct pdb_compare_opts *opts;
	struct pdb_compare *out;
	struct compare_test t;         /* what the tests of a series read and keep */
	struct pdb_compare_scope scope; /* where the history lies */
	const struct entry *base_e, *cand_e; /* every entry of each side, by key */
	size_t nbase_e, ncand_e;
	size_t cap;
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->key, ((const struct entry *)b)->key);
}

/* Every result of a side's runs whose benchmark and metric pass the globs,
 * sorted by series key (the values of one key are used as a set, so the
 * order among them does not matter). */
static struct entry *side_entries(struct pdb_run *const *runs, size_t nruns,
				  const struct pdb_compare_opts *opts, size_t *n)
{
	struct entry *e = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < runs[i]->nresults; j++) {
			const struct pdb_result *r = &runs[i]->results[j];
			char *dims_json;
			if (!pdb_dim_filter_pass(opts->dims, r->dims, r->ndims) ||
			    !pdb_glob_match(opts->bench_glob, r->benchmark) ||
			    !pdb_glob_match(opts->metric_glob, r->metric))
				continue;
			/* a run in which the benchmark failed has no value for it,
			 * whatever the tool timed (hyperfine --ignore-failure) */
			dims_json = pdb_dims_text(r->dims, r->ndims);
			if (pdb_run_find_failure(runs[i], r->benchmark, dims_json)) {
				free(dims_json);
				continue;
			}
			pdb_grow((void **)&e, &cap, *n + 1, sizeof *e);
			e[*n].dims_json = dims_json;
			e[*n].key = pdb_compare_key(r->benchmark, e[*n].dims_json, r->metric);
			e[*n].r = r;
			e[*n].tool = pdb_run_tool_of(runs[i]->tool, runs[i]->format);
			(*n)++;
		}
	if (*n) /* qsort of no array is undefined */
		qsort(e, *n, sizeof *e, cmp_entry);
	return e;
}

static void entries_free(struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].key);
		free(e[i].dims_json);
	}
	free(e);
}


/* The values of a series on one side: one run gives its raw samples
 * (unless they are weighted histogram buckets); several runs give one
 * value each. NaN values are left out. */
static double *side_values(const struct entry *e, size_t ne, size_t nruns, size_t *n)
{
	double *v;
	size_t most = 0;

	/* at most every sample of every entry: one block, no regrowing */
	for (size_t i = 0; i < ne; i++)
		most += e[i].r->nsamples ? e[i].r->nsamples : 1;
	v = pdb_xmalloc((most ? most : 1) * sizeof *v);
	*n = 0;
	for (size_t i = 0; i < ne; i++) {
		const struct pdb_result *r = e[i].r;
		if (nruns == 1 && r->nsamples > 0 && !pdb_result_has_weights(r)) {
			for (size_t k = 0; k < r->nsamples; k++)
				if (!isnan(r->samples[k].value))
					v[(*n)++] = r->samples[k].value;
		} else {
			double x = pdb_result_value(r);
			if (!isnan(x))
				v[(*n)++] = x;
		}
	}
	return v;
}

static int all_positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0))
			return 0;
	return 1;
}

/* A time of 0 is one below the clock's resolution (user or system time
 * counted in ticks, a coarse timer), not a value without a ratio: each is
 * read at half the smallest time measured on either side, so that the row
 * stays in the ratio tests of its family (a paired or rank test of log
 * values) rather than switching to absolute differences. Nothing is read
 * when a value is negative or none is above 0. Returns how many were. */
static size_t floor_zero_times(double *b, size_t nb, double *a, size_t na, double *floor)
{
	double least = INFINITY;
	size_t n = 0;

	for (size_t i = 0; i < nb + na; i++) {
		double v = i < nb ? b[i] : a[i - nb];
		if (v < 0)
			return 0;
		if (v > 0 && v < least)
			least = v;
	}
	if (!isfinite(least))
		return 0;
	*floor = least / 2;
	for (size_t i = 0; i < nb + na; i++) {
		double *v = i < nb ? &b[i] : &a[i - nb];
		if (*v == 0) {
			*v = *floor;
			n++;
		}
	}
	return n;
}

/* Adds a sentence to a row's reason ("; " between). */
static void add_reason(struct pdb_compare_row *row, char *text)
{
	if (row->reason) {
		char *both = pdb_xasprintf("%s; %s", row->reason, text);
		free(row->reason);
		free(text);
		text = both;
	}
	row->reason = text;
}

/* A row whose change (the test's estimate: Hodges-Lehmann over all pairs,
 * a ratio of geometric means) goes the other way from its medians says
 * both, so that "2.238 ms -> 1.987 ms, +18.5 %" does not read as a
 * contradiction: two new users took it for one. */
static void note_medians_against_estimate(struct pdb_compare_row *r)
{
	char medians[48], estimate[48];
	double m;

	m = pdb_compare_median_change_pct(r);
	if (!(fabs(r->change_pct) > 0) || !(fabs(m) >= 1) || (m > 0) == (r->change_pct > 0))
		return;
	pdb_pct_change(m, medians, sizeof medians);
	pdb_pct_change(r->change_pct, estimate, sizeof estimate);
	add_reason(r, pdb_xasprintf("the medians moved %s; the change is the test's estimate "
				    "over all the values, %s", medians, estimate));
}

/* The median and mean of v; copy (room for n) is scratch space. */
static void describe(const double *v, size_t n, double *copy, double *median, double *mean)
{
	if (n > 0)
		memcpy(copy, v, n * sizeof *copy);
	*median = pdb_stats_median(copy, n);
	*mean = pdb_stats_mean(v, n);
}

static struct pdb_compare_row *new_row(struct ctx *c, const struct entry *e)
{
	struct pdb_compare *out = c->out;
	struct pdb_compare_row *row;

	pdb_grow((void **)&out->rows, &c->cap, out->nrows + 1, sizeof *out->rows);
	row = &out->rows[out->nrows++];
	memset(row, 0, sizeof *row);
	row->benchmark = pdb_xstrdup(e->r->benchmark);
	row->dims = pdb_dims_display(e->r->dims, e->r->ndims);
	row->dims_json = pdb_xstrdup(e->dims_json);
	row->metric = pdb_xstrdup(e->r->metric);
	row->unit = pdb_xstrdup(e->r->unit);
	row->direction = e->r->direction;
	row->median_base = row->median_cand = row->mean_base = row->mean_cand = NAN;
	row->change_pct = row->ci_low_pct = row->ci_high_pct = NAN;
	row->change_abs = row->ci_low_abs = row->ci_high_abs = NAN;
	row->p_value = row->warn_pct = row->history_spread_pct = row->run_noise_pct = NAN;
	row->run_wide_pct = NAN;
	row->band = "samples";
	row->verdict = PDB_VERDICT_COUNT; /* not decided yet */
	return row;
}

/* Whether every value of both sides is one and the same. */
static int constant(const double *b, size_t nb, const double *a, size_t na)
{
	for (size_t i = 1; i < nb; i++)
		if (b[i] != b[0])
			return 0;
	for (size_t i = 0; i < na; i++)
		if (a[i] != b[0])
			return 0;
	return nb > 0 && na > 0;
}

/* Whether both sides hold the CPU time of e's benchmark and dims: then
 * that CPU time speaks for its wall time against the load (compare_cpu.c),
 * and the wall time needs no assumed run-to-run noise of its own. */
static int cpu_on_both_sides(const struct ctx *c, const struct entry *e)
{
	const char *cpu = pdb_metric_cpu_of(e->r->metric);
	struct entry key = { .key = cpu ? pdb_compare_key(e->r->benchmark, e->dims_json, cpu) : NULL };
	int both = key.key && c->nbase_e && c->ncand_e &&
		   bsearch(&key, c->base_e, c->nbase_e, sizeof key, cmp_entry) &&
		   bsearch(&key, c->cand_e, c->ncand_e, sizeof key, cmp_entry);

	free(key.key);
	return both;
}

/* A run compared with itself: nothing can differ, so the change is 0 and
 * its interval [0, 0], whatever a test would add for the noise between
 * two runs (none ran twice). */
static void same_runs(struct pdb_compare_row *row, int positive)
{
	row->test = "same-run";
	row->p_value = 1;
	if (positive)
		row->change_pct = row->ci_low_pct = row->ci_high_pct = 0;
	else
		row->change_abs = row->ci_low_abs = row->ci_high_abs = 0;
}

/* Whether the candidate runs are the baseline runs (ids of stored runs). */
static int same_run_groups(struct pdb_run *const *b, size_t nb, struct pdb_run *const *c, size_t nc)
{
	if (nb != nc)
		return 0;
	for (size_t i = 0; i < nc; i++) {
		size_t k = 0;
		while (k < nb && !(b[k] == c[i] || (b[k]->id > 0 && b[k]->id == c[i]->id)))
			k++;
		if (k == nb)
			return 0;
	}
	return 1;
}

/* Compare one series key: be/ne base entries, ce/nc candidate entries. */
static void compare_series(struct ctx *c, const struct entry *be, size_t nb,
			   const struct entry *ce, size_t nc)
{
	const struct entry *e = nc ? ce : be;
	const struct pdb_compare_opts *o = c->opts;
	double *b = NULL, *a = NULL, thr, warn = NAN;
	int direction = e->r->direction, gate = -1;
	enum pdb_metric_role role = pdb_metric_role(e->r->metric,
						    pdb_result_get_dim(e->r, "process") != NULL);
	struct pdb_compare_row *row;

	thr = pdb_metric_default_threshold(e->r->metric);
	if (o->config && !isnan(o->config->threshold_pct))
		thr = o->config->threshold_pct;
	if (!isnan(o->threshold_pct))
		thr = o->threshold_pct;
	if (o->config && !isnan(o->config->warn_pct))
		warn = o->config->warn_pct;
	if (o->config && pdb_compare_config_apply(o->config, e->r->benchmark, e->r->metric,
						  &thr, &warn, &direction, &gate))
		return;
	if (o->config && !isnan(o->config->run_noise_pct))
		c->t.run_noise = log1p(o->config->run_noise_pct / 100);
	else if (role == PDB_ROLE_WALL && cpu_on_both_sides(c, e))
		c->t.run_noise = 0;
	else
		c->t.run_noise = pdb_metric_run_noise(role);
	c->t.single_noise = role == PDB_ROLE_CPU;
	row = new_row(c, e);
	row->tool_base = nb ? pdb_xstrdup(be->tool ? be->tool : "") : NULL;
	row->tool_cand = nc ? pdb_xstrdup(ce->tool ? ce->tool : "") : NULL;
	row->direction = direction;
	row->threshold_pct = thr;
	row->warn_pct = warn;
	/* named by --metric or a rule, or of a gated role */
	row->gated = gate >= 0 ? gate : o->metric_glob != NULL || pdb_metric_role_gated(role);
	b = side_values(be, nb, c->out->nbase, &row->n_base);
	a = side_values(ce, nc, c->out->ncand, &row->n_cand);
	pdb_grow((void **)&c->t.scratch, &c->t.scratch_cap, row->n_base + row->n_cand + 1,
		 sizeof *c->t.scratch);
	describe(b, row->n_base, c->t.scratch, &row->median_base, &row->mean_base);
	describe(a, row->n_cand, c->t.scratch, &row->median_cand, &row->mean_cand);
	if (row->n_base == 0 || row->n_cand == 0) {
		/* on both sides but with no value to compare: insufficient */
		row->verdict = nb && nc ? PDB_VERDICT_INSUFFICIENT
			: row->n_base == 0 ? PDB_VERDICT_NEW : PDB_VERDICT_MISSING;
		if (row->verdict == PDB_VERDICT_INSUFFICIENT)
			row->reason = pdb_xstrdup("no values on one side");
		row->band = NULL;
		goto out;
	}
	/* (a count that repeats exactly is the news, not a constant to hide) */
	if (constant(b, row->n_base, a, row->n_cand) && role != PDB_ROLE_COUNT_EXACT)
		row->hidden = PDB_HIDDEN_CONSTANT;
	if (role == PDB_ROLE_BOOKKEEPING)
		row->hidden = PDB_HIDDEN_BOOKKEEPING;
	if (pdb_unit_is_duration(row->unit))
		row->n_zero = floor_zero_times(b, row->n_base, a, row->n_cand, &row->zero_floor);
	c->t.positive = all_positive(b, row->n_base) && all_positive(a, row->n_cand);
	/* a stored baseline (id 0: an adaptive run's look has none) */
	c->t.history = c->scope.until > 0 ? pdb_compare_history_find(c->in, e->key) : NULL;
	c->t.cand_id = c->scope.cand_id;
	{
		struct compare_side sb = { b, row->n_base, row->median_base, c->out->nbase,
					   nb == 1 ? be->r : NULL, 0 };
		struct compare_side sa = { a, row->n_cand, row->median_cand, c->out->ncand,
					   nc == 1 ? ce->r : NULL, 1 };
		if (c->out->self)
			same_runs(row, c->t.positive);
		else
			compare_test_series(&c->t, row, &sb, &sa, role == PDB_ROLE_COUNT_EXACT);
	}
out:
	free(b);
	free(a);
}

/* A row of its own for what failed: benchmark and dims, no values. */
static struct pdb_compare_row *failure_row(struct ctx *c, const struct pdb_failure *f,
					   const char *dims_json)
{
	struct pdb_compare *out = c->out;
	struct pdb_compare_row *row;

	pdb_grow((void **)&out->rows, &c->cap, out->nrows + 1, sizeof *out->rows);
	row = &out->rows[out->nrows++];
	memset(row, 0, sizeof *row);
	row->benchmark = pdb_xstrdup(f->benchmark);
	row->dims = pdb_dims_display(f->dims, f->ndims);
	row->dims_json = pdb_xstrdup(dims_json);
	row->metric = pdb_xstrdup("");
	row->unit = pdb_xstrdup("");
	row->median_base = row->median_cand = row->mean_base = NAN;
	row->mean_cand = row->change_pct = row->ci_low_pct = NAN;
	row->ci_high_pct = row->change_abs = row->ci_low_abs = NAN;
	row->ci_high_abs = row->p_value = row->history_spread_pct = NAN;
	row->threshold_pct = row->warn_pct = row->run_noise_pct = row->run_wide_pct = NAN;
	row->gated = 1;
	return row;
}

/* The tool of run's values, "" when not known. */
static const char *run_tool(const struct pdb_run *run)
{
	const char *t = pdb_run_tool_of(run->tool, run->format);

	return t ? t : "";
}

/* Whether a failure in a run of tool speaks for row: the row's values on
 * that side (cand: the candidate's) come from that tool's runs; a row
 * with none on that side, by its values on the other. */
static int row_of_tool(const struct pdb_compare_row *row, int cand, const char *tool)
{
	const char *mine = cand ? row->tool_cand : row->tool_base;
	const char *other = cand ? row->tool_base : row->tool_cand;

	return pdb_same_tool(mine ? mine : other, tool);
}

/* A benchmark that failed in a candidate run: every row of it (benchmark and
 * dims) gets the verdict failed, whatever its timings say; a failure with no
 * row (a tool's error entry has no values) gets a row of its own. */
static void mark_failures(struct ctx *c, struct pdb_run *const *cand, size_t ncand)
{
	struct pdb_compare *out = c->out;

	for (size_t i = 0; i < ncand; i++)
		for (size_t k = 0; k < cand[i]->nfailures; k++) {
			const struct pdb_failure *f = &cand[i]->failures[k];
			char *dims_json;
			struct pdb_compare_row *row;
			int matched = 0;
			if (!pdb_glob_match(c->opts->bench_glob, f->benchmark) ||
			    !pdb_dim_filter_pass(c->opts->dims, f->dims, f->ndims) ||
			    (c->opts->config && pdb_compare_config_ignores(c->opts->config, f->benchmark)))
				continue; /* --bench or the configuration left it out */
			dims_json = pdb_dims_text(f->dims, f->ndims);
			for (size_t r = 0; r < out->nrows; r++) {
				row = &out->rows[r];
				if (strcmp(row->benchmark, f->benchmark) != 0 ||
				    strcmp(row->dims_json, dims_json) != 0 || !row_of_tool(row, 1, run_tool(cand[i])))
					continue;
				matched = 1;
				if (row->verdict == PDB_VERDICT_FAILED)
					continue; /* failed in an earlier run of the group */
				row->verdict = PDB_VERDICT_FAILED;
				free(row->reason);
				row->reason = pdb_xstrdup(f->reason);
			}
			if (!matched) {
				row = failure_row(c, f, dims_json);
				row->tool_cand = pdb_xstrdup(run_tool(cand[i]));
				row->verdict = PDB_VERDICT_FAILED;
				row->reason = pdb_xstrdup(f->reason);
			}
			free(dims_json);
		}
}

/* Rows of a benchmark that failed in the baseline: a row new in the
 * candidate because of it says so (it is not a benchmark that appeared);
 * one absent from the candidate too is missing, with the reason (else it
 * would have no row at all). */
static void mark_base_failures(struct ctx *c, struct pdb_run *const *base, size_t nbase)
{
	for (size_t r = 0; r < c->out->nrows; r++) {
		struct pdb_compare_row *row = &c->out->rows[r];
		const struct pdb_failure *f = NULL;
		for (size_t i = 0; i < nbase && !f; i++)
			if (row_of_tool(row, 0, run_tool(base[i])))
				f = pdb_run_find_failure(base[i], row->benchmark, row->dims_json);
		row->failed_in_base = f != NULL;
		if (!f || row->verdict != PDB_VERDICT_NEW)
			continue;
		free(row->reason);
		row->reason = pdb_xasprintf("it failed in the baseline: %s", f->reason);
	}
	for (size_t i = 0; i < nbase; i++)
		for (size_t k = 0; k < base[i]->nfailures; k++) {
			const struct pdb_failure *f = &base[i]->failures[k];
			char *dims_json = pdb_dims_text(f->dims, f->ndims);
			int found = 0;
			for (size_t r = 0; r < c->out->nrows && !found; r++)
				found = strcmp(c->out->rows[r].benchmark, f->benchmark) == 0 &&
					strcmp(c->out->rows[r].dims_json, dims_json) == 0 &&
					row_of_tool(&c->out->rows[r], 0, run_tool(base[i]));
			if (!found && pdb_glob_match(c->opts->bench_glob, f->benchmark) &&
			    pdb_dim_filter_pass(c->opts->dims, f->dims, f->ndims) &&
			    !(c->opts->config && pdb_compare_config_ignores(c->opts->config, f->benchmark))) {
				struct pdb_compare_row *row = failure_row(c, f, dims_json);
				row->tool_base = pdb_xstrdup(run_tool(base[i]));
				row->verdict = PDB_VERDICT_MISSING;
				row->failed_in_base = 1;
				row->reason = pdb_xasprintf("it failed in the baseline (%s) and is not in "
							    "the candidate", f->reason);
			}
			free(dims_json);
		}
}

static void holm_adjust(struct pdb_compare *out)
{
	double *p = pdb_xmalloc((out->nrows ? out->nrows : 1) * sizeof *p);

	for (size_t i = 0; i < out->nrows; i++)
		p[i] = out->rows[i].p_value;
	pdb_stats_holm(p, out->nrows);
	for (size_t i = 0; i < out->nrows; i++)
		out->rows[i].p_value = p[i];
	free(p);
}

static void describe_runs(struct pdb_run *const *runs, size_t n, struct pdb_compare_run **out)
{
	*out = pdb_xcalloc(n ? n : 1, sizeof **out);
	for (size_t i = 0; i < n; i++) {
		(*out)[i].id = runs[i]->id;
		(*out)[i].name = pdb_xstrdup(runs[i]->name);
		(*out)[i].created_at = pdb_xstrdup(runs[i]->created_at);
		(*out)[i].commit = pdb_xstrdup(pdb_run_get_attr(runs[i], "commit"));
		(*out)[i].branch = pdb_xstrdup(pdb_run_get_attr(runs[i], "branch"));
		(*out)[i].status = pdb_xstrdup(runs[i]->status ? runs[i]->status : "complete");
	}
}

/* Fingerprint attributes that must agree for a fair comparison. */
static void check_env(struct pdb_run *const *base, size_t nbase, struct pdb_run *const *cand,
		      size_t ncand, struct pdb_compare *out)
{
	static const char *const keys[] = { "cpu_model", "vcpus", "host" };
	size_t cap = 0;

	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		const char *ref = pdb_run_get_attr(base[0], keys[k]);
		for (size_t i = 0; i < nbase + ncand; i++) {
			struct pdb_run *r = i < nbase ? base[i] : cand[i - nbase];
			const char *v = pdb_run_get_attr(r, keys[k]);
			if ((!ref && !v) || (ref && v && strcmp(ref, v) == 0))
				continue;
			pdb_grow((void **)&out->env, &cap, out->nenv + 1, sizeof *out->env);
			out->env[out->nenv].key = pdb_xstrdup(keys[k]);
			out->env[out->nenv].base = pdb_xstrdup(ref ? ref : "");
			out->env[out->nenv].cand = pdb_xstrdup(v ? v : "");
			out->nenv++;
			break;
		}
	}
}

/* A series whose values come from one tool in the baseline and another in
 * the candidate (two tools writing one benchmark name) is said as the
 * environment difference "tool", once: those values may not be the same
 * measure at all. */
static void check_tools(struct pdb_compare *out)
{
	size_t cap = out->nenv;

	for (size_t i = 0; i < out->nrows; i++) {
		const struct pdb_compare_row *r = &out->rows[i];
		if (!r->tool_base || !r->tool_cand || pdb_same_tool(r->tool_base, r->tool_cand))
			continue;
		pdb_grow((void **)&out->env, &cap, out->nenv + 1, sizeof *out->env);
		out->env[out->nenv].key = pdb_xstrdup("tool");
		out->env[out->nenv].base = pdb_xstrdup(r->tool_base);
		out->env[out->nenv].cand = pdb_xstrdup(r->tool_cand);
		out->nenv++;
		return;
	}
}

/* Walk the two sorted entry lists in step, one series key at a time. */
static void match_series(struct ctx *c, const struct entry *be, size_t nbe,
			 const struct entry *ce, size_t nce)
{
	size_t i = 0, j = 0;

	while (i < nbe || j < nce) {
		int d = i >= nbe ? 1 : j >= nce ? -1 : strcmp(be[i].key, ce[j].key);
		size_t ni = 0, nj = 0;

		if (d <= 0)
			while (i + ni < nbe && strcmp(be[i + ni].key, be[i].key) == 0)
				ni++;
		if (d >= 0)
			while (j + nj < nce && strcmp(ce[j + nj].key, ce[j].key) == 0)
				nj++;
		compare_series(c, ni ? be + i : NULL, ni, nj ? ce + j : NULL, nj);
		i += ni;
		j += nj;
	}
}

/* An adaptive A/B pair was gated at its looks' alpha (alpha / looks,
 * the attribute ab_alpha of both runs): compared again, it gets the
 * interval the gate gave. Else alpha. */
static double pair_alpha(const struct pdb_run *base, const struct pdb_run *cand, double alpha)
{
	const char *b = pdb_run_get_attr(base, "ab_alpha"), *c = pdb_run_get_attr(cand, "ab_alpha");
	double a;

	if (b && c && strcmp(b, c) == 0 && pdb_parse_double(b, &a) == 0 && a > 0 && a < 1)
		return a;
	return alpha;
}

int pdb_compare(const struct pdb_compare_input *in, const struct pdb_compare_opts *opts,
		struct pdb_compare *out, struct pdb_err *err)
{
	struct pdb_run *const *brun = in->base, *const *crun = in->cand;
	size_t nbase = in->nbase, ncand = in->ncand;
	struct ctx c = { .in = in, .opts = opts, .out = out };
	struct entry *be = NULL, *ce = NULL;
	size_t nbe = 0, nce = 0;
	int ret = -1;

	memset(out, 0, sizeof *out);
	c.t.alpha = !isnan(opts->alpha) ? opts->alpha
		: opts->config && !isnan(opts->config->alpha) ? opts->config->alpha
		: PDB_ALPHA_DEFAULT;
	out->alpha = c.t.alpha;
	if (nbase == 0 || ncand == 0) {
		pdb_err_set(err, PDB_EXIT_USAGE, "a side of the comparison has no runs");
		goto out;
	}
	out->nbase = nbase;
	out->ncand = ncand;
	out->self = same_run_groups(brun, nbase, crun, ncand);
	c.t.one_run_a_side = nbase == 1 && ncand == 1;
	describe_runs(brun, nbase, &out->base);
	describe_runs(crun, ncand, &out->cand);
	check_env(brun, nbase, crun, ncand, out);
	pdb_compare_scope_of(brun, nbase, crun, ncand, &c.scope);
	c.t.branch = c.scope.branch;
	if (nbase == 1 && ncand == 1) {
		const char *ab = pdb_run_get_attr(brun[0], "ab"), *cab = pdb_run_get_attr(crun[0], "ab");
		c.t.paired = ab && cab && strcmp(ab, cab) == 0 && brun[0] != crun[0] &&
			   (brun[0]->id == 0 || brun[0]->id != crun[0]->id) &&
			   strcmp(out->base[0].status, "complete") == 0 &&
			   strcmp(out->cand[0].status, "complete") == 0;
	}
	if (c.t.paired && isnan(opts->alpha) && !(opts->config && !isnan(opts->config->alpha)))
		c.t.alpha = out->alpha = pair_alpha(brun[0], crun[0], c.t.alpha);
	be = side_entries(brun, nbase, opts, &nbe);
	ce = side_entries(crun, ncand, opts, &nce);
	c.base_e = be;
	c.nbase_e = nbe;
	c.cand_e = ce;
	c.ncand_e = nce;
	match_series(&c, be, nbe, ce, nce);
	out->npaired = c.t.npaired;
	mark_failures(&c, crun, ncand);
	mark_base_failures(&c, brun, nbase);
	check_tools(out);
	if (opts->holm)
		holm_adjust(out);
	for (size_t i = 0; i < out->nrows; i++)
		if (out->rows[i].verdict == PDB_VERDICT_COUNT) /* not new, missing, failed, ... */
			out->rows[i].verdict = pdb_compare_verdict(&out->rows[i], c.t.alpha, c.scope.branch);
	pdb_compare_check_run_wide(out->rows, out->nrows, in,
				   c.out->ncand == 1 && c.scope.until > 0 ? c.scope.cand_id : -1,
				   c.t.alpha, c.t.paired);
	pdb_compare_check_wall(out->rows, out->nrows, c.t.paired);
	for (size_t i = 0; i < out->nrows; i++) {
		struct pdb_compare_row *r = &out->rows[i];
		if (r->n_zero) {
			char floor[32];
			pdb_unit_format(r->zero_floor, r->unit, floor, sizeof floor);
			add_reason(r, pdb_xasprintf("%zu time%s of 0 read as %s, half the least "
						    "measured (below the clock's resolution)",
						    r->n_zero, r->n_zero == 1 ? "" : "s", floor));
		}
		note_medians_against_estimate(r);
		/* a metric with no direction that did not move says nothing */
		if (r->direction == PDB_DIR_NONE && r->verdict == PDB_VERDICT_UNCHANGED && !r->hidden)
			r->hidden = PDB_HIDDEN_CONSTANT;
		/* a resource is reported: in the table when it moved */
		if (!r->gated && r->direction != PDB_DIR_NONE && !r->hidden) {
			if (pdb_compare_row_reported(r))
				add_reason(r, pdb_xstrdup("reported, not gated: --metric or a "
							  "perfdb.yaml rule's gate: true gates it"));
			else if (r->verdict != PDB_VERDICT_FAILED)
				r->hidden = PDB_HIDDEN_NOT_GATED;
		}
		if (r->verdict == PDB_VERDICT_FAILED ||
		    (r->verdict == PDB_VERDICT_REGRESSION && r->gated))
			r->hidden = PDB_SHOWN;
		if (pdb_compare_row_reported(r))
			out->nreported++;
		else if (pdb_compare_row_counted(r))
			out->counts[r->verdict]++;
		out->nhidden += r->hidden != PDB_SHOWN;
	}
	if (out->nrows)
		qsort(out->rows, out->nrows, sizeof *out->rows, pdb_compare_row_order);
	pdb_compare_geomeans(out);
	ret = 0;
out:
	entries_free(be, nbe);
	entries_free(ce, nce);
	free(c.t.scratch);
	free(c.t.logs[0]);
	free(c.t.logs[1]);
	pdb_compare_scope_release(&c.scope);
	return ret;
}

void pdb_compare_release(struct pdb_compare *cmp)
{
	for (size_t i = 0; i < cmp->nrows; i++) {
		struct pdb_compare_row *r = &cmp->rows[i];
		free(r->benchmark);
		free(r->dims);
		free(r->dims_json);
		free(r->metric);
		free(r->unit);
		free(r->reason);
		free(r->tool_base);
		free(r->tool_cand);
	}
	free(cmp->rows);
	for (size_t i = 0; i < cmp->ngeomean; i++)
		free(cmp->geomean[i].metric);
	free(cmp->geomean);
	for (size_t side = 0; side < 2; side++) {
		struct pdb_compare_run *runs = side ? cmp->cand : cmp->base;
		size_t n = side ? cmp->ncand : cmp->nbase;
		for (size_t i = 0; runs && i < n; i++) {
			free(runs[i].name);
			free(runs[i].created_at);
			free(runs[i].commit);
			free(runs[i].branch);
			free(runs[i].status);
		}
		free(runs);
	}
	for (size_t i = 0; i < cmp->nenv; i++) {
		free(cmp->env[i].key);
		free(cmp->env[i].base);
		free(cmp->env[i].cand);
	}
	free(cmp->env);
	memset(cmp, 0, sizeof *cmp);
}
