/* Chart kinds: scaling — which benchmark and metric, its lines by the other dims, their rows and USL fits. */
#include "chart/kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dim_filter.h"
#include "metric_role.h"
#include "stats.h"
#include "table.h"
#include "util.h"

/* One measured value at a vCPU count. */
struct point {
	const struct pdb_result *r;
	double vcpus, value;
	char *line;     /* the varying other dims, "batch=100" (chosen metric only) */
};

static int vcpus_of(const struct pdb_run *run, const struct pdb_result *r, double *out)
{
	const char *v = pdb_result_get_dim(r, "vcpus");

	if (!v)
		v = pdb_run_get_attr(run, "vcpus");
	return v && pdb_parse_double(v, out) == 0 && *out > 0 ? 0 : -1;
}

static int same_candidate(const struct pdb_result *a, const struct pdb_result *b)
{
	return strcmp(a->benchmark, b->benchmark) == 0 && strcmp(a->metric, b->metric) == 0;
}

/* How much a metric suits a scaling chart: named throughput, an ops/s-like
 * rate (docs/s, req/s), another rate (B/s), a time; a rate per CPU-second
 * (pdb_metric_per_cpu_second: it cannot grow with vCPUs) and a resource
 * (what the gate leaves out by default, pdb_metric_role_gated: memory, a
 * stressor's per-method rates) as little as what is none of these. why
 * says so. */
static int preference(const struct pdb_result *r, const char **why)
{
	size_t len = strlen(r->unit);

	if (pdb_metric_per_cpu_second(r->metric)) {
		*why = "a rate per CPU-second, which cannot grow with vCPUs";
		return 0;
	}
	if (!pdb_metric_role_gated(pdb_metric_role(r->metric, pdb_result_get_dim(r, "process") != NULL))) {
		*why = "a resource, reported beside what the benchmark measures";
		return 0;
	}
	if (strcmp(r->metric, "throughput") == 0) {
		*why = "by name";
		return 4;
	}
	if (r->direction == PDB_DIR_HIGHER && len > 2 && strcmp(r->unit + len - 2, "/s") == 0 &&
	    strcmp(r->unit, "B/s") != 0 && strcmp(r->unit, "bit/s") != 0) {
		*why = "an ops/s-like rate";
		return 3;
	}
	if (r->direction == PDB_DIR_HIGHER) {
		*why = "a rate";
		return 2;
	}
	if (strcmp(r->unit, "s") == 0) {
		*why = "as runs per second";
		return 1;
	}
	*why = "no rate or time at several vCPU counts";
	return 0;
}

/* Distinct vCPU counts among the points of candidate r (line: of that line only). */
static size_t distinct_counts(const struct point *pts, size_t n, const struct pdb_result *r,
			      const char *line)
{
	double *v = pdb_xmalloc((n ? n : 1) * sizeof *v);
	size_t m = 0, d = 0;

	for (size_t i = 0; i < n; i++)
		if (same_candidate(pts[i].r, r) && (!line || strcmp(pts[i].line, line) == 0))
			v[m++] = pts[i].vcpus;
	qsort(v, m, sizeof *v, pdb_cmp_double);
	for (size_t i = 0; i < m; i++)
		d += i == 0 || v[i] != v[i - 1];
	free(v);
	return d;
}

static double mean_of(const double *v, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

/* Rows of one line: one per vCPU count (the mean when several runs have
 * it: the speed-up rule, lib/table.h), and its fit. */
static void fill_line(const struct point *pts, size_t n, const struct pdb_result *cand,
		      int from_time, struct pdb_scaling_line *ln)
{
	double *vals = pdb_xmalloc((n ? n : 1) * sizeof *vals);
	double *counts = pdb_xmalloc((n ? n : 1) * sizeof *counts);
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (same_candidate(pts[i].r, cand) && strcmp(pts[i].line, ln->label) == 0)
			counts[m++] = pts[i].vcpus;
	qsort(counts, m, sizeof *counts, pdb_cmp_double);
	ln->rows = pdb_xcalloc(m ? m : 1, sizeof *ln->rows);
	for (size_t c = 0; c < m; c++) {
		size_t k = 0;
		if (c > 0 && counts[c] == counts[c - 1])
			continue;
		for (size_t i = 0; i < n; i++)
			if (same_candidate(pts[i].r, cand) && strcmp(pts[i].line, ln->label) == 0 &&
			    pts[i].vcpus == counts[c])
				vals[k++] = from_time ? 1 / pts[i].value : pts[i].value;
		ln->rows[ln->n].vcpus = counts[c];
		ln->rows[ln->n].throughput = mean_of(vals, k);
		ln->n++;
	}
	for (size_t i = 0; i < ln->n; i++) {
		struct pdb_scaling_row *row = &ln->rows[i], *first = &ln->rows[0];
		row->per_vcpu = row->throughput / row->vcpus;
		row->speedup = pdb_speedup(first->throughput, row->throughput, PDB_DIR_HIGHER);
		row->efficiency = 100 * row->per_vcpu / first->per_vcpu;
		row->increase = i == 0 ? NAN : (row->throughput - ln->rows[i - 1].throughput) /
						(row->vcpus - ln->rows[i - 1].vcpus);
	}
	if (ln->n >= 4) {
		for (size_t i = 0; i < ln->n; i++) {
			counts[i] = ln->rows[i].vcpus;
			vals[i] = ln->rows[i].throughput;
		}
		ln->has_usl = pdb_usl_fit(counts, vals, ln->n, &ln->usl) == 0;
	}
	free(vals);
	free(counts);
}

static void skip(struct pdb_scaling *s, char *what, const char *why)
{
	s->skipped = pdb_xrealloc(s->skipped, (s->nskipped + 1) * sizeof *s->skipped);
	s->skipped[s->nskipped++] = pdb_xasprintf("%s: %s", what, why);
	free(what);
}

/* Whether dim d (not vcpus) has one value in every point of the candidate. */
static int held_dim(const struct point *pts, size_t n, const struct pdb_result *cand,
		    const struct pdb_attr *d)
{
	for (size_t i = 0; i < n; i++) {
		const char *v;
		if (!same_candidate(pts[i].r, cand))
			continue;
		v = pdb_result_get_dim(pts[i].r, d->key);
		if (!v || strcmp(v, d->value) != 0)
			return 0;
	}
	return 1;
}

/* Whether dim key moves with vCPUs among the points of the candidate: every
 * point has it, with one value at each vCPU count (threads={vcpus}), so that
 * it splits no line. */
static int follows_vcpus(const struct point *pts, size_t n, const struct pdb_result *cand,
			 const char *key)
{
	for (size_t i = 0; i < n; i++) {
		const char *v;
		if (!same_candidate(pts[i].r, cand))
			continue;
		if (!(v = pdb_result_get_dim(pts[i].r, key)))
			return 0;
		for (size_t j = 0; j < i; j++) {
			const char *w;
			if (!same_candidate(pts[j].r, cand) || pts[j].vcpus != pts[i].vcpus)
				continue;
			w = pdb_result_get_dim(pts[j].r, key);
			if (!w || strcmp(v, w) != 0)
				return 0;
		}
	}
	return 1;
}

/* Whether a dim of a point of the candidate draws no line apart: vcpus
 * itself, a dim held fixed, or one that follows vCPUs. */
static int not_a_line(const struct point *pts, size_t n, const struct pdb_result *cand,
		      const struct pdb_attr *d)
{
	return strcmp(d->key, "vcpus") == 0 || held_dim(pts, n, cand, d) ||
	       follows_vcpus(pts, n, cand, d->key);
}

/* The held dims of the candidate, those that follow vCPUs, and each of its
 * points' line label. */
static void name_lines(struct point *pts, size_t n, const struct pdb_result *cand,
		       struct pdb_scaling *s)
{
	struct pdb_buf held, follow;

	pdb_buf_init(&held);
	pdb_buf_puts(&held, "");
	pdb_buf_init(&follow);
	pdb_buf_puts(&follow, "");
	for (size_t k = 0; k < cand->ndims; k++) {
		const struct pdb_attr *d = &cand->dims[k];
		if (strcmp(d->key, "vcpus") == 0)
			continue;
		if (held_dim(pts, n, cand, d))
			pdb_buf_printf(&held, "%s%s=%s", held.len ? "," : "", d->key, d->value);
		else if (follows_vcpus(pts, n, cand, d->key))
			pdb_buf_printf(&follow, "%s%s", follow.len ? "," : "", d->key);
	}
	s->held = held.data;
	s->follows = follow.data;
	for (size_t i = 0; i < n; i++) {
		const struct pdb_result *r = pts[i].r;
		struct pdb_buf b;
		if (!same_candidate(r, cand))
			continue;
		pdb_buf_init(&b);
		pdb_buf_puts(&b, "");
		for (size_t k = 0; k < r->ndims; k++)
			if (!not_a_line(pts, n, cand, &r->dims[k]))
				pdb_buf_printf(&b, "%s%s=%s", b.len ? "," : "", r->dims[k].key,
					       r->dims[k].value);
		pts[i].line = b.data;
	}
}

/* The dims that split the candidate's points into lines, "threads" or
 * "batch and threads" (none when its points share one line). Caller frees. */
static char *splitting_dims(const struct point *pts, size_t n, const struct pdb_result *cand)
{
	struct pdb_buf b;
	char **keys = pdb_xmalloc(sizeof *keys);
	size_t nk = 0;

	for (size_t i = 0; i < n; i++) {
		if (!same_candidate(pts[i].r, cand))
			continue;
		for (size_t k = 0; k < pts[i].r->ndims; k++) {
			const struct pdb_attr *d = &pts[i].r->dims[k];
			size_t j = 0;
			while (j < nk && strcmp(keys[j], d->key) != 0)
				j++;
			if (j < nk || not_a_line(pts, n, cand, d))
				continue;
			keys = pdb_xrealloc(keys, (nk + 1) * sizeof *keys);
			keys[nk++] = d->key;
		}
	}
	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	for (size_t j = 0; j < nk; j++)
		pdb_buf_printf(&b, "%s%s", j == 0 ? "" : j + 1 == nk ? " and " : ", ", keys[j]);
	free(keys);
	return b.data;
}

static int cmp_label(const void *a, const void *b)
{
	return pdb_chart_cmp_dims(*(char *const *)a, *(char *const *)b);
}

/* The lines of the candidate, sorted; those at one count only are left out. */
static void make_lines(const struct point *pts, size_t n, const struct pdb_result *cand,
		       struct pdb_scaling *s)
{
	char **labels = pdb_xmalloc((n ? n : 1) * sizeof *labels);
	size_t nl = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		if (!same_candidate(pts[i].r, cand))
			continue;
		while (k < nl && strcmp(labels[k], pts[i].line) != 0)
			k++;
		if (k == nl)
			labels[nl++] = pts[i].line;
	}
	qsort(labels, nl, sizeof *labels, cmp_label);
	s->lines = pdb_xcalloc(nl ? nl : 1, sizeof *s->lines);
	for (size_t k = 0; k < nl; k++) {
		if (distinct_counts(pts, n, cand, labels[k]) < 2) {
			skip(s, pdb_xasprintf("%s [%s] %s", cand->benchmark, labels[k], cand->metric),
			     "measured at one vCPU count only");
			continue;
		}
		s->lines[s->nlines].label = pdb_xstrdup(labels[k]);
		fill_line(pts, n, cand, s->from_time, &s->lines[s->nlines]);
		s->nlines++;
	}
	free(labels);
}

/* The best candidate: most preferred metric, then most vCPU counts. */
static const struct pdb_result *choose(const struct point *pts, size_t n, const char **why)
{
	const struct pdb_result *best = NULL;
	int best_pref = -1;
	size_t best_d = 0;

	for (size_t i = 0; i < n; i++) {
		const char *w;
		int pref = preference(pts[i].r, &w);
		size_t d = distinct_counts(pts, n, pts[i].r, NULL);
		if (d >= 2 && (pref > best_pref || (pref == best_pref && d > best_d))) {
			best = pts[i].r;
			best_pref = pref;
			best_d = d;
			*why = w;
		}
	}
	return best;
}

/* Other benchmarks that could have been drawn: left out, with the way to draw them. */
static void other_benchmarks(const struct point *pts, size_t n, const struct pdb_result *cand,
			     struct pdb_scaling *s)
{
	for (size_t i = 0; i < n; i++) {
		int seen = strcmp(pts[i].r->benchmark, cand->benchmark) == 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(pts[k].r->benchmark, pts[i].r->benchmark) == 0;
		if (!seen && distinct_counts(pts, n, pts[i].r, NULL) >= 2)
			skip(s, pdb_xstrdup(pts[i].r->benchmark),
			     "another benchmark (one per chart): draw it with --bench");
	}
}

int pdb_scaling_of(struct pdb_run *const *runs, size_t nsel, const struct pdb_plot_opts *opts,
		   struct pdb_scaling *out, struct pdb_err *err)
{
	struct point *pts = NULL;
	size_t npts = 0, cap = 0;
	const struct pdb_result *cand;
	const char *why = NULL;
	int ret = -1;

	memset(out, 0, sizeof *out);
	for (size_t k = 0; k < nsel; k++)
		for (size_t i = 0; i < runs[k]->nresults; i++) {
			const struct pdb_result *r = &runs[k]->results[i];
			double vc, v = pdb_table_mean(r); /* the speed-up rule's (lib/table.h) */
			if (!pdb_dim_filter_pass(opts->dims, r->dims, r->ndims) ||
			    !pdb_glob_match(opts->bench_glob, r->benchmark) ||
			    !pdb_glob_match(opts->metric_glob, r->metric) ||
			    vcpus_of(runs[k], r, &vc) < 0 || !(v > 0))
				continue;
			pdb_grow((void **)&pts, &cap, npts + 1, sizeof *pts);
			pts[npts].r = r;
			pts[npts].vcpus = vc;
			pts[npts].value = v;
			pts[npts].line = NULL;
			npts++;
		}
	if (!(cand = choose(pts, npts, &why))) {
		pdb_err_set(err, PDB_EXIT_INPUT, "no series with a vcpus dimension or attribute at "
			    "two or more counts in the runs given%s",
			    opts->bench_glob || opts->metric_glob ? " (and --bench/--metric)" : "");
		goto out;
	}
	out->benchmark = pdb_xstrdup(cand->benchmark);
	out->metric = pdb_xstrdup(cand->metric);
	out->from_time = cand->direction != PDB_DIR_HIGHER && strcmp(cand->unit, "s") == 0;
	out->unit = pdb_xstrdup(out->from_time ? "runs/s" : cand->unit);
	out->why = pdb_xstrdup(opts->metric_glob ? "--metric" : why);
	name_lines(pts, npts, cand, out);
	make_lines(pts, npts, cand, out);
	other_benchmarks(pts, npts, cand, out);
	if (out->nlines == 0) {
		char *split = splitting_dims(pts, npts, cand);
		int many = strstr(split, " and ") != NULL;
		pdb_err_set(err, PDB_EXIT_INPUT, "%s %s: no line of the other dims has two or more "
			    "vCPU counts: %s split%s the points into lines of one count each (to draw "
			    "a line, measure a value of %s at two or more counts, or give %s one value "
			    "a count, as {vcpus} in a spec does)", out->benchmark, out->metric, split,
			    many ? "" : "s", many ? "each" : "it", many ? "each" : "it");
		free(split);
		pdb_scaling_release(out);
		goto out;
	}
	ret = 0;
out:
	for (size_t i = 0; i < npts; i++)
		free(pts[i].line);
	free(pts);
	return ret;
}

void pdb_scaling_release(struct pdb_scaling *s)
{
	free(s->benchmark);
	free(s->metric);
	free(s->unit);
	free(s->why);
	free(s->held);
	free(s->follows);
	for (size_t i = 0; i < s->nlines; i++) {
		free(s->lines[i].label);
		free(s->lines[i].rows);
	}
	free(s->lines);
	for (size_t i = 0; i < s->nskipped; i++)
		free(s->skipped[i]);
	free(s->skipped);
	memset(s, 0, sizeof *s);
}
