/* Tables of one run by matrix point: which series feeds each cell, and its
 * statistic. */
#include "table.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "dim_filter.h"
#include "units.h"

void pdb_table_release(struct pdb_table *t)
{
	if (!t)
		return;
	free(t->benchmark);
	for (size_t i = 0; i < t->ndims; i++)
		free(t->dims[i]);
	free(t->dims);
	for (size_t i = 0; i < t->ncols; i++) {
		free(t->cols[i].name);
		free(t->cols[i].metric);
	}
	free(t->cols);
	for (size_t i = 0; i < t->nrows * t->ndims; i++)
		free(t->keys[i]);
	free(t->keys);
	free(t->values);
	memset(t, 0, sizeof *t);
}

/* "a,b,c" split at commas into words (copies); empty words refused. */
static int split(const char *text, char ***out, size_t *n)
{
	const char *p = text;

	*out = NULL;
	*n = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		if (len == 0) {
			for (size_t i = 0; i < *n; i++)
				free((*out)[i]);
			free(*out);
			*out = NULL;
			*n = 0;
			return -1;
		}
		*out = pdb_xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = pdb_xstrndup(p, len);
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static void free_words(char **w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

static const char *const stat_names[] = { "mean", "median", "min", "max", "stddev",
					  "stddev_pop", "count", "pN" };

/* STAT of a column: 0, or -1 when it is none of them. */
static int parse_stat(const char *s, struct pdb_table_col *c)
{
	static const int codes[] = { PDB_TSTAT_MEAN, PDB_TSTAT_MEDIAN, PDB_TSTAT_MIN,
				     PDB_TSTAT_MAX, PDB_TSTAT_STDDEV, PDB_TSTAT_STDDEV_POP,
				     PDB_TSTAT_COUNT };

	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
		if (strcmp(s, stat_names[i]) == 0) {
			c->stat = codes[i];
			return 0;
		}
	if (s[0] == 'p' && s[1] && pdb_parse_double(s + 1, &c->pct) == 0 &&
	    c->pct >= 0 && c->pct <= 100 && strspn(s + 1, "0123456789.") == strlen(s + 1)) {
		c->stat = PDB_TSTAT_PCT;
		return 0;
	}
	return -1;
}

/* --cols: "[LABEL=]METRIC[:STAT]" or "[LABEL=]speedup", comma-separated. */
static int parse_cols(const char *text, struct pdb_table *t, struct pdb_err *err)
{
	char **words;
	size_t n;

	if (split(text, &words, &n) < 0)
		return pdb_err_set(err, PDB_EXIT_USAGE, "--cols '%s': an empty column", text);
	t->cols = pdb_xcalloc(n, sizeof *t->cols);
	for (size_t i = 0; i < n; i++) {
		struct pdb_table_col *c = &t->cols[t->ncols++];
		char *eq = strchr(words[i], '='), *spec = eq ? eq + 1 : words[i], *colon;
		c->name = eq ? pdb_xstrndup(words[i], (size_t)(eq - words[i])) : pdb_xstrdup(spec);
		c->scale = 1;
		if (!*spec || !*c->name) {
			pdb_err_set(err, PDB_EXIT_USAGE, "--cols: '%s' names no metric", words[i]);
			goto fail;
		}
		if (strcmp(spec, "speedup") == 0) {
			size_t k = i;
			while (k > 0 && t->cols[k - 1].stat == PDB_TSTAT_SPEEDUP)
				k--;
			if (k == 0) {
				pdb_err_set(err, PDB_EXIT_USAGE,
					    "--cols: speedup needs a metric before it (METRIC[:STAT],speedup)");
				goto fail;
			}
			c->stat = PDB_TSTAT_SPEEDUP;
			c->of = k - 1;
			continue;
		}
		colon = strrchr(spec, ':');
		c->metric = colon ? pdb_xstrndup(spec, (size_t)(colon - spec)) : pdb_xstrdup(spec);
		if (colon && parse_stat(colon + 1, c) < 0) {
			char near[64] = "";
			if (!(colon[1] == 'p' && colon[2] >= '0' && colon[2] <= '9'))
				pdb_did_you_mean(colon + 1, stat_names, 7, near, sizeof near);
			pdb_err_set(err, PDB_EXIT_INPUT, "--cols: unknown statistic '%s'%s (mean, median, "
				    "min, max, stddev, stddev_pop, count, pN such as p99)", colon + 1, near);
			goto fail;
		}
		if (!*c->metric) {
			pdb_err_set(err, PDB_EXIT_USAGE, "--cols: '%s' names no metric", words[i]);
			goto fail;
		}
	}
	free_words(words, n);
	return 0;
fail:
	free_words(words, n);
	return -1;
}

/* Whether r passes --dim K=V (and, exact, has the rows' dims and no more). */
static int held(const struct pdb_result *r, const struct pdb_table_spec *spec,
		const struct pdb_table *t)
{
	if (spec->exact) {
		if (r->ndims != t->ndims)
			return 0;
		for (size_t d = 0; d < t->ndims; d++)
			if (!pdb_result_get_dim(r, t->dims[d]))
				return 0;
	}
	return pdb_dim_filter_pass(spec->dims, r->dims, r->ndims);
}

static int has_metric(const struct pdb_run *run, const char *bench, const char *metric,
		      const struct pdb_table_spec *spec, const struct pdb_table *t)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		if (strcmp(r->benchmark, bench) == 0 && strcmp(r->metric, metric) == 0 && held(r, spec, t))
			return 1;
	}
	return 0;
}

static int has_dim(const struct pdb_run *run, const char *bench, const char *dim)
{
	for (size_t i = 0; i < run->nresults; i++)
		if ((!bench || strcmp(run->results[i].benchmark, bench) == 0) &&
		    pdb_result_get_dim(&run->results[i], dim))
			return 1;
	return 0;
}

/* The names of what a run has, for an error: "a, b, c" (at most 8). */
static void list_into(struct pdb_buf *b, const char *word)
{
	if (strstr(b->data ? b->data : "", word)) /* near enough for a message */
		return;
	if (b->len > 200)
		return;
	pdb_buf_printf(b, "%s%s", b->len ? ", " : "", word);
}

static char *dims_of(const struct pdb_run *run, const char *bench)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	for (size_t i = 0; i < run->nresults; i++)
		if (!bench || strcmp(run->results[i].benchmark, bench) == 0)
			for (size_t k = 0; k < run->results[i].ndims; k++)
				list_into(&b, run->results[i].dims[k].key);
	if (!b.len)
		pdb_buf_puts(&b, "none");
	return b.data;
}

static char *metrics_of(const struct pdb_run *run, const char *bench)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	for (size_t i = 0; i < run->nresults; i++)
		if (strcmp(run->results[i].benchmark, bench) == 0)
			list_into(&b, run->results[i].metric);
	return b.data;
}

static char *run_name(const struct pdb_run *run)
{
	return run->name ? pdb_xasprintf("run%lld (%s)", (long long)run->id, run->name)
			 : pdb_xasprintf("run%lld", (long long)run->id);
}

/* The benchmark of the table: the one named, else the only one with the
 * first dim and every metric. */
static int pick_benchmark(const struct pdb_run *run, const struct pdb_table_spec *spec,
			  struct pdb_table *t, struct pdb_err *err)
{
	const char *found = NULL;
	size_t nfound = 0;
	struct pdb_buf names;
	char *who = run_name(run);
	int rc = -1;

	pdb_buf_init(&names);
	pdb_buf_puts(&names, "");
	for (size_t i = 0; i < run->nresults && !found; i++)
		if (pdb_glob_match(spec->benchmark, run->results[i].benchmark))
			found = run->results[i].benchmark;
	if (!found) {
		pdb_err_set(err, PDB_EXIT_INPUT, "%s has no benchmark matching '%s'", who, spec->benchmark);
		goto out;
	}
	found = NULL;
	for (size_t i = 0; i < run->nresults; i++) {
		const char *b = run->results[i].benchmark;
		int ok = pdb_glob_match(spec->benchmark, b) && has_dim(run, b, t->dims[0]);
		for (size_t k = 0; ok && k < i; k++)
			ok = strcmp(run->results[k].benchmark, b) != 0;
		for (size_t c = 0; ok && c < t->ncols; c++)
			ok = !t->cols[c].metric || has_metric(run, b, t->cols[c].metric, spec, t);
		if (ok) {
			found = found ? found : b;
			nfound++;
			list_into(&names, b);
		}
	}
	if (nfound > 1) {
		pdb_err_set(err, PDB_EXIT_INPUT, "%zu benchmarks of %s have these dims and "
			    "metrics: %s (pick one with --bench)", nfound, who, names.data);
		goto out;
	}
	if (!found) /* a dim or metric is missing: said of the first with the dim, or of all */
		for (size_t i = 0; i < run->nresults && !found; i++)
			if (pdb_glob_match(spec->benchmark, run->results[i].benchmark) &&
			    has_dim(run, run->results[i].benchmark, t->dims[0]))
				found = run->results[i].benchmark;
	for (size_t d = 0; d < t->ndims; d++)
		if (!has_dim(run, found, t->dims[d])) {
			char *dims = dims_of(run, found);
			if (found)
				pdb_err_set(err, PDB_EXIT_INPUT, "--rows: %s has no dim '%s' in %s (its dims: %s)",
					    who, t->dims[d], found, dims);
			else
				pdb_err_set(err, PDB_EXIT_INPUT, "--rows: %s has no dim '%s' (its dims: %s)",
					    who, t->dims[d], dims);
			free(dims);
			goto out;
		}
	if (!found) {
		pdb_err_set(err, PDB_EXIT_INPUT, "--rows: no benchmark matching '%s' in %s has dim '%s'",
			    spec->benchmark, who, t->dims[0]);
		goto out;
	}
	for (size_t c = 0; c < t->ncols; c++)
		if (t->cols[c].metric && !has_metric(run, found, t->cols[c].metric, spec, t)) {
			char *m = metrics_of(run, found);
			pdb_err_set(err, PDB_EXIT_INPUT, "--cols: %s has no metric '%s' in %s%s (its metrics: %s)",
				    who, t->cols[c].metric, found, spec->dims && spec->dims->n ? " with those --dim" : "", m);
			free(m);
			goto out;
		}
	t->benchmark = pdb_xstrdup(found);
	rc = 0;
out:
	free(who);
	pdb_buf_release(&names);
	return rc;
}

/* Row keys: numbers by value, below words; words by bytes. */
static int key_cmp(const char *a, const char *b)
{
	double x, y;
	int na = pdb_parse_double(a, &x) == 0, nb = pdb_parse_double(b, &y) == 0;

	if (na && nb && x != y)
		return x < y ? -1 : 1;
	if (na != nb)
		return na ? -1 : 1;
	return strcmp(a, b);
}

/* qsort has no context: the table's dims, for by_key; one per thread, as the
 * site builds the tables of its benchmark pages on several (lib/site/site.c). */
static _Thread_local size_t sort_ndims;
/* the rows' keys as gathered, and the dims whose values keep that order */
static _Thread_local char **sort_keys;
static _Thread_local size_t sort_nrows;
static _Thread_local const int *sort_seen;

/* The first row, as gathered, whose value of dim d is v. */
static size_t first_seen(size_t d, const char *v)
{
	size_t i = 0;

	while (i < sort_nrows && strcmp(sort_keys[i * sort_ndims + d], v) != 0)
		i++;
	return i;
}

static int by_key(const void *a, const void *b)
{
	char *const *x = *(char *const *const *)a, *const *y = *(char *const *const *)b;

	for (size_t d = 0; d < sort_ndims; d++) {
		int c;
		if (sort_seen && sort_seen[d] && strcmp(x[d], y[d]) != 0) {
			size_t i = first_seen(d, x[d]), k = first_seen(d, y[d]);
			return i < k ? -1 : 1;
		}
		c = key_cmp(x[d], y[d]);
		if (c)
			return c;
	}
	return 0;
}

/* Whether the point key (ndims values) is among the first n of keys. */
static int has_point(char **keys, size_t n, size_t ndims, char *const *key)
{
	for (size_t i = 0; i < n; i++) {
		size_t d = 0;
		while (d < ndims && strcmp(keys[i * ndims + d], key[d]) == 0)
			d++;
		if (d == ndims)
			return 1;
	}
	return 0;
}

static int is_col_metric(const struct pdb_table *t, const char *metric)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (t->cols[c].metric && strcmp(t->cols[c].metric, metric) == 0)
			return 1;
	return 0;
}

/* The points: every combination of the dims' values a column's series has. */
static int gather_points(const struct pdb_run *run, const struct pdb_table_spec *spec,
			 struct pdb_table *t, struct pdb_err *err)
{
	size_t cap = 0;
	char **key = pdb_xcalloc(t->ndims, sizeof *key);
	char ***order;
	char **sorted;
	int *seen;

	for (size_t i = 0; i < run->nresults && !(t->ndims == 0 && t->nrows); i++) {
		const struct pdb_result *r = &run->results[i];
		size_t d = 0;
		if (strcmp(r->benchmark, t->benchmark) != 0 || !is_col_metric(t, r->metric) || !held(r, spec, t))
			continue;
		while (d < t->ndims && (key[d] = (char *)pdb_result_get_dim(r, t->dims[d])))
			d++;
		if (t->ndims == 0) { /* no dims (spec->exact): the one row of the series without */
			t->nrows = 1;
			continue;
		}
		if (d < t->ndims || has_point(t->keys, t->nrows, t->ndims, key))
			continue;
		pdb_grow((void **)&t->keys, &cap, (t->nrows + 1) * t->ndims, sizeof *t->keys);
		for (d = 0; d < t->ndims; d++)
			t->keys[t->nrows * t->ndims + d] = pdb_xstrdup(key[d]);
		t->nrows++;
	}
	free(key);
	if (!t->nrows) {
		char *who = run_name(run);
		pdb_err_set(err, PDB_EXIT_INPUT, "%s: no series of %s has all of --rows' dims%s",
			    who, t->benchmark, spec->dims && spec->dims->n ? " with those --dim" : "");
		free(who);
		return -1;
	}
	if (t->ndims == 0)
		return 0;
	/* a pipeline's stages and processes (spec->exact: lib/table_points.c) in
	 * the order of their first series, as the spec names them, not by name */
	seen = pdb_xcalloc(t->ndims, sizeof *seen);
	for (size_t d = 0; d < t->ndims; d++)
		seen[d] = spec->exact && (strcmp(t->dims[d], "stage") == 0 ||
					  strcmp(t->dims[d], "process") == 0);
	order = pdb_xmalloc(t->nrows * sizeof *order);
	for (size_t i = 0; i < t->nrows; i++)
		order[i] = &t->keys[i * t->ndims];
	sort_ndims = t->ndims;
	sort_keys = t->keys;
	sort_nrows = t->nrows;
	sort_seen = seen;
	qsort(order, t->nrows, sizeof *order, by_key);
	sort_seen = NULL;
	free(seen);
	sorted = pdb_xmalloc(t->nrows * t->ndims * sizeof *sorted);
	for (size_t i = 0; i < t->nrows; i++)
		memcpy(&sorted[i * t->ndims], order[i], t->ndims * sizeof *sorted);
	free(order);
	free(t->keys);
	t->keys = sorted;
	return 0;
}

/* The series of metric at row: of the benchmark's that agree with the row
 * on every dim of it they have (and have one at least), the one that has
 * most; NULL when none; two as specific is an error. */
static const struct pdb_result *cell_series(const struct pdb_run *run,
					    const struct pdb_result *const *cand, size_t ncand,
					    const struct pdb_table *t, size_t row, const char *metric,
					    struct pdb_err *err)
{
	const struct pdb_result *best = NULL;
	size_t best_n = 0;
	int tie = 0;

	for (size_t i = 0; i < ncand; i++) {
		const struct pdb_result *r = cand[i];
		size_t n = 0, d;
		for (d = 0; d < t->ndims; d++) {
			const char *v = pdb_result_get_dim(r, t->dims[d]);
			if (v && strcmp(v, t->keys[row * t->ndims + d]) != 0)
				break;
			n += v != NULL;
		}
		if (d < t->ndims || (n == 0 && t->ndims) || n < best_n)
			continue;
		tie = n == best_n && best;
		if (n > best_n || !best) {
			best = r;
			best_n = n;
		}
	}
	if (tie) {
		char *who = run_name(run);
		struct pdb_buf at;
		pdb_buf_init(&at);
		pdb_buf_puts(&at, "");
		for (size_t d = 0; d < t->ndims; d++)
			pdb_buf_printf(&at, "%s%s=%s", d ? "," : "", t->dims[d], t->keys[row * t->ndims + d]);
		pdb_err_set(err, PDB_EXIT_INPUT, "%s: %s has several series of '%s' at %s: they differ "
			    "in a dim that is not in --rows (add it there, or hold it with --dim K=V)",
			    who, t->benchmark, metric, at.data);
		pdb_buf_release(&at);
		free(who);
		return NULL;
	}
	return best;
}

/* The statistic a column asks for, stored by the tool (a result without
 * samples, or a histogram, whose buckets are coarser than the tool's own
 * figures); NaN when the tool did not store it. */
static double stored_stat(const struct pdb_result *r, const struct pdb_table_col *c)
{
	double v;
	char name[40], num[32];

	switch (c->stat) {
	case PDB_TSTAT_VALUE: return pdb_result_value(r);
	case PDB_TSTAT_MEAN: return pdb_result_get_stat(r, "mean", &v) == 0 ? v : NAN;
	case PDB_TSTAT_MEDIAN:
		return pdb_result_get_stat(r, "median", &v) == 0 || pdb_result_get_stat(r, "p50", &v) == 0
			? v : NAN;
	case PDB_TSTAT_MIN: return pdb_result_get_stat(r, "min", &v) == 0 ? v : NAN;
	case PDB_TSTAT_MAX: return pdb_result_get_stat(r, "max", &v) == 0 ? v : NAN;
	case PDB_TSTAT_STDDEV: return pdb_result_get_stat(r, "stddev", &v) == 0 ? v : NAN;
	case PDB_TSTAT_STDDEV_POP: return pdb_result_get_stat(r, "stddev_pop", &v) == 0 ? v : NAN;
	case PDB_TSTAT_COUNT: return pdb_result_get_stat(r, "n", &v) == 0 ? v : NAN;
	case PDB_TSTAT_PCT:
		pdb_fmt_double(c->pct, num);
		snprintf(name, sizeof name, "p%s", num);
		if (pdb_result_get_stat(r, name, &v) == 0)
			return v;
		return c->pct == 50 ? stored_stat(r, &(struct pdb_table_col){ .stat = PDB_TSTAT_MEDIAN }) : NAN;
	}
	return NAN;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

struct weighted {
	double v, w;
};

static int by_value(const void *a, const void *b)
{
	return by_double(&((const struct weighted *)a)->v, &((const struct weighted *)b)->v);
}

/* The statistic over r's samples (weights as frequencies). */
static double sample_stat(const struct pdb_result *r, const struct pdb_table_col *c)
{
	size_t n = r->nsamples;
	struct weighted *s = pdb_xmalloc(n * sizeof *s);
	double w = 0, sum = 0, ss = 0, mean, out = NAN, q;
	int weighted = 0;

	for (size_t i = 0; i < n; i++) {
		s[i].v = r->samples[i].value;
		s[i].w = pdb_sample_has_weight(&r->samples[i]) ? r->samples[i].weight : 1;
		weighted |= pdb_sample_has_weight(&r->samples[i]);
		w += s[i].w;
		sum += s[i].w * s[i].v;
	}
	qsort(s, n, sizeof *s, by_value);
	mean = sum / w;
	for (size_t i = 0; i < n; i++)
		ss += s[i].w * (s[i].v - mean) * (s[i].v - mean);
	switch (c->stat) {
	case PDB_TSTAT_MEAN: out = mean; break;
	case PDB_TSTAT_MIN: out = s[0].v; break;
	case PDB_TSTAT_MAX: out = s[n - 1].v; break;
	case PDB_TSTAT_STDDEV: out = w > 1 ? sqrt(ss / (w - 1)) : NAN; break;
	case PDB_TSTAT_STDDEV_POP: out = sqrt(ss / w); break;
	case PDB_TSTAT_COUNT: out = weighted ? round(w) : (double)n; break;
	case PDB_TSTAT_MEDIAN:
	case PDB_TSTAT_PCT:
		q = c->stat == PDB_TSTAT_MEDIAN ? 0.5 : c->pct / 100;
		if (!weighted) { /* type 7: numpy's and R's default */
			double h = (double)(n - 1) * q, lo = floor(h);
			size_t k = (size_t)lo;
			out = k + 1 < n ? s[k].v + (h - lo) * (s[k + 1].v - s[k].v) : s[n - 1].v;
		} else { /* the first value whose cumulative weight reaches q */
			double acc = 0;
			out = s[n - 1].v;
			for (size_t i = 0; i < n; i++)
				if ((acc += s[i].w) >= q * w) {
					out = s[i].v;
					break;
				}
		}
		break;
	default: out = pdb_result_value(r); break;
	}
	free(s);
	return out;
}

static double cell_value(const struct pdb_result *r, const struct pdb_table_col *c)
{
	int weighted = r->nsamples && pdb_sample_has_weight(&r->samples[0]);
	double v;

	if (c->stat == PDB_TSTAT_VALUE)
		return pdb_result_value(r);
	if (!r->nsamples)
		return stored_stat(r, c);
	if (weighted && !isnan(v = stored_stat(r, c)))
		return v;
	return sample_stat(r, c);
}

double pdb_table_mean(const struct pdb_result *r)
{
	return cell_value(r, &(struct pdb_table_col){ .stat = PDB_TSTAT_MEAN });
}

double pdb_speedup(double first, double v, int direction)
{
	/* lower is better (a time): the speed-up is the first's over this */
	return direction == PDB_DIR_LOWER ? first / v : v / first;
}

/* --unit for column c: the unit given for its name, or for its metric. */
static const char *unit_for(const struct pdb_table_spec *spec, const struct pdb_table_col *c)
{
	for (size_t i = 0; i < spec->nunits; i++)
		if (strcmp(spec->units[i].name, c->name) == 0)
			return spec->units[i].unit;
	for (size_t i = 0; c->metric && i < spec->nunits; i++)
		if (strcmp(spec->units[i].name, c->metric) == 0)
			return spec->units[i].unit;
	return NULL;
}

static int check_units(const struct pdb_table_spec *spec, const struct pdb_table *t,
		       struct pdb_err *err)
{
	for (size_t i = 0; i < spec->nunits; i++) {
		size_t c = 0;
		while (c < t->ncols && strcmp(spec->units[i].name, t->cols[c].name) != 0 &&
		       !(t->cols[c].metric && strcmp(spec->units[i].name, t->cols[c].metric) == 0))
			c++;
		if (c == t->ncols)
			return pdb_err_set(err, PDB_EXIT_USAGE, "--unit %s=%s: no column is named '%s'",
					   spec->units[i].name, spec->units[i].unit, spec->units[i].name);
	}
	return 0;
}

/* The unit and values of column c: the series', converted to --unit's. */
static int fill_column(const struct pdb_run *run, const struct pdb_table_spec *spec,
		       struct pdb_table *t, size_t c, struct pdb_err *err)
{
	struct pdb_table_col *col = &t->cols[c];
	const char *unit = unit_for(spec, col);
	const struct pdb_result **cand = NULL;
	size_t ncand = 0, cap = 0;
	int have_unit = 0;

	if (col->stat == PDB_TSTAT_SPEEDUP) {
		const struct pdb_table_col *of = &t->cols[col->of];
		double first = t->values[col->of];
		snprintf(col->unit, sizeof col->unit, "x");
		for (size_t r = 0; r < t->nrows; r++) {
			t->values[r * t->ncols + c] = pdb_speedup(first, t->values[r * t->ncols + col->of],
								  of->direction);
		}
		if (unit)
			return pdb_err_set(err, PDB_EXIT_INPUT, "--unit %s: a speed-up is a ratio (x)",
					   col->name);
		return 0;
	}
	/* the series the column's cells can take, once (a run may have 20,000) */
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		if (strcmp(r->metric, col->metric) == 0 && strcmp(r->benchmark, t->benchmark) == 0 &&
		    held(r, spec, t)) {
			pdb_grow((void **)&cand, &cap, ncand + 1, sizeof *cand);
			cand[ncand++] = r;
		}
	}
	for (size_t r = 0; r < t->nrows; r++) {
		const struct pdb_result *s = cell_series(run, cand, ncand, t, r, col->metric, err);
		double v;
		if (!s && err->msg[0]) {
			free(cand);
			return -1;
		}
		if (!s) {
			t->values[r * t->ncols + c] = NAN;
			continue;
		}
		if (!have_unit) {
			snprintf(col->unit, sizeof col->unit, "%s", s->unit);
			col->direction = s->direction;
			have_unit = 1;
		}
		v = cell_value(s, col);
		t->values[r * t->ncols + c] = v;
	}
	free(cand);
	if (col->stat == PDB_TSTAT_COUNT) {
		/* --unit METRIC=UNIT is for its values; naming the count itself is an error */
		int named = 0;
		for (size_t i = 0; i < spec->nunits; i++)
			named |= strcmp(spec->units[i].name, col->name) == 0;
		snprintf(col->unit, sizeof col->unit, "count");
		if (named)
			return pdb_err_set(err, PDB_EXIT_INPUT, "--unit %s: a count has no unit", col->name);
		return 0;
	}
	if (unit) {
		struct pdb_unit u;
		if (pdb_unit_parse(unit, &u) < 0)
			return pdb_err_set(err, PDB_EXIT_INPUT, "--unit %s=%s: unknown unit '%s'",
					   col->name, unit, unit);
		if (strcmp(u.canonical, col->unit) != 0)
			return pdb_err_set(err, PDB_EXIT_INPUT, "--unit %s=%s: %s is in %s, %s in %s",
					   col->name, unit, col->metric, col->unit, unit, u.canonical);
		col->scale = u.scale;
		snprintf(col->unit, sizeof col->unit, "%s", unit);
		for (size_t r = 0; r < t->nrows; r++)
			t->values[r * t->ncols + c] /= u.scale;
	}
	return 0;
}

/* The step of a column (a prefix, or a unit of time or of bytes): the
 * largest at most its smallest value, unless its largest would then need
 * more than five digits. */
static size_t pick_step(const double *scale, size_t n, double min, double max)
{
	size_t i = n - 1;

	while (i > 0 && min >= scale[i - 1] * 0.9995)
		i--;
	while (i > 0 && max / scale[i] >= 1e5)
		i--;
	return i;
}

/* How people read column c: one step and one number of decimals for the
 * whole column, three significant digits of its smallest value (at most
 * three decimals); whole numbers stay whole. */
static void shown(struct pdb_table *t, size_t c, int user_unit)
{
	struct pdb_table_col *col = &t->cols[c];
	static const double si[] = { 1e12, 1e9, 1e6, 1e3, 1 };
	static const char *const si_names[] = { "T", "G", "M", "k", "" };
	static const double times[] = { 1, 1e-3, 1e-6, 1e-9 };
	static const char *const time_names[] = { "s", "ms", "µs", "ns" };
	static const double bin[] = { 1099511627776.0, 1073741824.0, 1048576.0, 1024.0, 1 };
	static const char *const bin_names[] = { "TiB", "GiB", "MiB", "KiB", "B" };
	double max = 0, min = INFINITY;
	int whole = 1, digits;
	const char *u = col->unit;
	size_t i;

	for (size_t r = 0; r < t->nrows; r++) {
		double v = fabs(t->values[r * t->ncols + c]);
		if (!isfinite(v))
			continue;
		max = v > max ? v : max;
		min = v > 0 && v < min ? v : min;
		whole &= v == floor(v);
	}
	if (!isfinite(min))
		min = max;
	col->shown_scale = 1;
	snprintf(col->shown_unit, sizeof col->shown_unit, "%s", u);
	if (user_unit || col->stat == PDB_TSTAT_SPEEDUP || strcmp(u, "%") == 0 ||
	    strcmp(u, "count") == 0 || strcmp(u, "ratio") == 0) {
		/* as given, or a plain number: no step */
	} else if (strcmp(u, "s") == 0) {
		i = pick_step(times, 4, min, max);
		col->shown_scale = times[i];
		snprintf(col->shown_unit, sizeof col->shown_unit, "%s", time_names[i]);
	} else if (strcmp(u, "B") == 0) {
		i = pick_step(bin, 5, min, max);
		col->shown_scale = bin[i];
		snprintf(col->shown_unit, sizeof col->shown_unit, "%s", bin_names[i]);
	} else if (u[0] == 'B' || max >= 1e6) { /* B/s in kB/s, MB/s; a rate of millions in M */
		i = pick_step(si, 5, min, max);
		col->shown_scale = si[i];
		snprintf(col->shown_unit, sizeof col->shown_unit, u[0] == 'B' || !*si_names[i] ? "%s%s" : "%s %s",
			 si_names[i], u);
	}
	if (col->stat == PDB_TSTAT_SPEEDUP) {
		col->decimals = 1;
		return;
	}
	if (col->shown_scale == 1 && whole) {
		col->decimals = 0;
		return;
	}
	min /= col->shown_scale;
	digits = min > 0 ? (int)floor(log10(min * 1.0005)) + 1 : 1;
	col->decimals = digits >= 3 ? 0 : 3 - digits > 3 ? 3 : 3 - digits;
}

int pdb_table_fill(const struct pdb_run *run, const struct pdb_table_spec *spec,
		   struct pdb_table *t, struct pdb_err *err)
{
	if (check_units(spec, t, err) < 0 || (!t->benchmark && pick_benchmark(run, spec, t, err) < 0) ||
	    gather_points(run, spec, t, err) < 0)
		return -1;
	t->values = pdb_xmalloc(t->nrows * t->ncols * sizeof *t->values);
	for (size_t c = 0; c < t->ncols; c++) {
		pdb_err_clear(err);
		if (fill_column(run, spec, t, c, err) < 0)
			return -1;
		shown(t, c, t->cols[c].stat != PDB_TSTAT_COUNT && unit_for(spec, &t->cols[c]) != NULL);
	}
	return 0;
}

int pdb_table_merge_run(struct pdb_run *into, const struct pdb_run *run, struct pdb_err *err)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		struct pdb_buf dims;
		if (!pdb_run_find_result(into, r))
			continue;
		pdb_buf_init(&dims);
		pdb_buf_puts(&dims, "");
		for (size_t k = 0; k < r->ndims; k++)
			pdb_buf_printf(&dims, "%s%s=%s", k ? "," : " ", r->dims[k].key, r->dims[k].value);
		pdb_err_set(err, PDB_EXIT_USAGE, "%s%s %s is in two of the runs: a table of several "
			    "runs takes runs whose series differ by a dim (ingest --dim threads=N)",
			    r->benchmark, dims.data, r->metric);
		pdb_buf_release(&dims);
		return -1;
	}
	pdb_run_merge(into, run);
	return 0;
}

int pdb_table_build(const struct pdb_run *run, const struct pdb_table_spec *spec,
		    struct pdb_table *out, struct pdb_err *err)
{
	memset(out, 0, sizeof *out);
	if (!spec->rows || !*spec->rows || split(spec->rows, &out->dims, &out->ndims) < 0)
		return pdb_err_set(err, PDB_EXIT_USAGE, "--rows '%s': a dim name, or several "
				   "comma-separated", spec->rows ? spec->rows : "");
	for (size_t i = 0; i < run->nresults; i++)
		if (pdb_glob_match(spec->benchmark, run->results[i].benchmark))
			pdb_dim_filter_pass(spec->dims, run->results[i].dims, run->results[i].ndims);
	if (pdb_dim_filter_check(spec->dims, err) < 0) {
		pdb_table_release(out);
		return -1;
	}
	if (!spec->cols || parse_cols(spec->cols, out, err) < 0 || pdb_table_fill(run, spec, out, err) < 0) {
		if (!spec->cols)
			pdb_err_set(err, PDB_EXIT_USAGE, "--cols is needed");
		pdb_table_release(out);
		return -1;
	}
	return 0;
}
