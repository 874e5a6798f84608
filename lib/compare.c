/* Compare: match the series of two run groups and give each a verdict. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_cpu.h"
#include "metric_role.h"
#include "stats.h"
#include "units.h"
#include "util.h"

#define HISTORY_RUNS 30      /* runs of the baseline branch the run-to-run noise is read from */
#define HISTORY_MIN_RUNS 5   /* fewer: no history test */
#define LEVEL_RUNS 3         /* the branch's level: the median of its newest runs */
#define LEVEL_SPIKE 4.0      /* the farthest a baseline run is taken for a spike of the
			      * load off that level, in run-to-run changes' SDs */
/* The absolute changes from one run to the next, each capped at CAP times
 * their median (a step or a spike in the history is one or two changes,
 * which then count as large, not as the scale), have a mean of
 * CAPPED_MEAN_ABS_NORMAL times the changes' SD when they are normal:
 * E min(|Z|, a) for a = 3 x 0.6745 (3 median absolute values). */
#define CAP 3.0
#define CAPPED_MEAN_ABS_NORMAL 0.7819
/* Degrees of freedom of that scale per change it is read from (successive
 * changes overlap, and a mean of absolute values is less efficient than a
 * variance): calibrated by the seeded sequential A/A gates of
 * tests/unit/test_compare_gate.c. A quantile scale (the 75th percentile of
 * the changes) had 0.37 a change: with 6-10 runs of history its interval
 * was so wide that a +64 % change passed as inconclusive. */
#define SCALE_DF_PER_CHANGE 0.6
/* Welch's test below this many values a side has one degree of freedom or
 * so: an interval of [-99 %, +12000 %] says less than "insufficient". */
#define WELCH_MIN_N 3

static const char *const verdict_names[PDB_VERDICT_COUNT] = {
	"failed", "regression", "improvement", "unchanged", "inconclusive", "insufficient",
	"new", "missing",
};

/* Metrics that say how a benchmark ran, not how fast: hidden by default. */
static const char *const bookkeeping[] = {
	"iterations", "repetitions", "rounds", "runs", "forks", "warmup_iterations", NULL,
};

const char *pdb_verdict_name(int verdict)
{
	return verdict >= 0 && verdict < PDB_VERDICT_COUNT ? verdict_names[verdict] : "?";
}

int pdb_verdict_parse(const char *name)
{
	for (int v = 0; v < PDB_VERDICT_COUNT; v++)
		if (strcmp(verdict_names[v], name) == 0)
			return v;
	return -1;
}

void pdb_compare_opts_init(struct pdb_compare_opts *opts)
{
	memset(opts, 0, sizeof *opts);
	opts->alpha = NAN;
	opts->threshold_pct = NAN;
}

/* A stored series by key, for history look-ups. */
struct series_ref {
	char *key;
	int64_t id;
};

/* One result of one run of a side, under its series key. */
struct entry {
	char *key;               /* benchmark \x1f dims json \x1f metric */
	char *dims_json;
	const struct pdb_result *r;
	const char *tool;        /* of its run (pdb_run_tool_of), NULL: not known */
};

/* Working state of one comparison. */
struct ctx {
	struct pdb_store *store;
	const struct pdb_compare_opts *opts;
	struct pdb_compare *out;
	double alpha;
	int64_t history_until;         /* the newest baseline run: history ends there */
	char *history_where;           /* "branch=B" of that run; NULL: every run */
	const char *history_branch;    /* B, for reasons; NULL without */
	int64_t cand_id;               /* the candidate run, never its own history */
	struct series_ref *series;     /* sorted by key, loaded on first need */
	size_t nseries;
	int series_loaded;
	size_t hl_nx, hl_ny, hl_k;     /* the interval rank of the last sizes */
	int paired;                    /* an A/B pair: repetition i of each side ran together */
	double run_noise;              /* the series' assumed run-to-run noise (log SD)
					* before a history exists; 0: none */
	int single_noise;              /* one value a side is tested against it (CPU time) */
	const struct entry *base_e, *cand_e; /* every entry of each side, by key */
	size_t nbase_e, ncand_e;
	size_t cap;
	double *scratch;               /* logs and copies of one series, reused */
	size_t scratch_cap;
};

static char *series_key(const char *bench, const char *dims_json, const char *metric)
{
	return pdb_xasprintf("%s\x1f%s\x1f%s", bench, dims_json, metric);
}

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
			if (!pdb_glob_match(opts->bench_glob, r->benchmark) ||
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
			e[*n].key = series_key(r->benchmark, e[*n].dims_json, r->metric);
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

static int has_weights(const struct pdb_result *r)
{
	for (size_t i = 0; i < r->nsamples; i++)
		if (pdb_sample_has_weight(&r->samples[i]))
			return 1;
	return 0;
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
		if (nruns == 1 && r->nsamples > 0 && !has_weights(r)) {
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

/* The median and mean of v; copy (room for n) is scratch space. */
static void describe(const double *v, size_t n, double *copy, double *median, double *mean)
{
	if (n > 0)
		memcpy(copy, v, n * sizeof *copy);
	*median = pdb_stats_median(copy, n);
	*mean = pdb_stats_mean(v, n);
}

static int cmp_series_ref(const void *a, const void *b)
{
	return strcmp(((const struct series_ref *)a)->key, ((const struct series_ref *)b)->key);
}

/* Load the series table once, sorted by key, for history look-ups. */
static int load_series(struct ctx *c, struct pdb_err *err)
{
	struct pdb_series *s;
	size_t n;

	if (c->series_loaded)
		return 0;
	if (pdb_store_list_series(c->store, c->opts->bench_glob, c->opts->metric_glob,
				  &s, &n, err) < 0)
		return -1;
	c->series = pdb_xcalloc(n ? n : 1, sizeof *c->series);
	for (size_t i = 0; i < n; i++) {
		c->series[i].key = series_key(s[i].benchmark, s[i].dims, s[i].metric);
		c->series[i].id = s[i].id;
	}
	c->nseries = n;
	qsort(c->series, n, sizeof *c->series, cmp_series_ref);
	pdb_series_free(s, n);
	c->series_loaded = 1;
	return 0;
}

/* The id of the stored series with this key, or 0. */
static int64_t find_series(const struct ctx *c, const char *key)
{
	size_t lo = 0, hi = c->nseries;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = strcmp(c->series[mid].key, key);
		if (d == 0)
			return c->series[mid].id;
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct_of_log(double d)
{
	return 100 * expm1(d) + 0.0; /* + 0.0: no "-0" */
}

/* Statistics of a series with several values a side. */
/* Whether the values of both sides take at least n/2 distinct values each.
 * Values on a coarse grid (rusage's user and system times come in clock
 * ticks) make most per-pair differences 0 or one tick: the signed-rank test
 * and its Walsh averages then see a shift of half a tick in A/A pairs (seen:
 * +8.9 %, p 0.002, in 2 of 6 A/A runs), so such series keep Mann-Whitney. */
static int fine_grained(const double *b, const double *a, size_t n)
{
	for (int side = 0; side < 2; side++) {
		double *v = pdb_xmalloc((n ? n : 1) * sizeof *v);
		size_t distinct = n > 0;
		memcpy(v, side ? a : b, n * sizeof *v);
		qsort(v, n, sizeof *v, cmp_double);
		for (size_t i = 1; i < n; i++)
			distinct += v[i] != v[i - 1];
		free(v);
		if (2 * distinct < n)
			return 0;
	}
	return 1;
}

/* Welch's t test of the shift, on log values when all are above 0 (the
 * change as a ratio): samples too small for a rank test to reach alpha
 * (3 against 3 cannot give p < 0.1), where a t test still can. */
static void compare_welch(struct ctx *c, struct pdb_compare_row *row, const double *b,
			  const double *a, int positive)
{
	struct pdb_welch w;
	double *lb, *la;

	pdb_grow((void **)&c->scratch, &c->scratch_cap, row->n_base + row->n_cand,
		 sizeof *c->scratch);
	lb = c->scratch;
	la = c->scratch + row->n_base;
	for (size_t i = 0; i < row->n_base; i++)
		lb[i] = positive ? log(b[i]) : b[i];
	for (size_t i = 0; i < row->n_cand; i++)
		la[i] = positive ? log(a[i]) : a[i];
	if (pdb_stats_welch(lb, row->n_base, la, row->n_cand, 1 - c->alpha, &w) < 0)
		return; /* not finite: no interval, insufficient */
	row->test = positive ? "welch-t-log" : "welch-t";
	row->p_value = w.p;
	if (positive) {
		row->change_pct = pct_of_log(w.shift);
		row->ci_low_pct = pct_of_log(w.lo);
		row->ci_high_pct = pct_of_log(w.hi);
	} else {
		row->change_abs = w.shift;
		row->ci_low_abs = w.lo;
		row->ci_high_abs = w.hi;
	}
}

/* A row with too little to test: the change of the medians, and why. */
static void median_change(struct pdb_compare_row *row, int positive, char *reason)
{
	if (positive)
		row->change_pct = pct_of_log(log(row->median_cand / row->median_base));
	else
		row->change_abs = row->median_cand - row->median_base;
	row->reason = reason;
}

/* The interval at 1 - alpha and the p-value of a change d (log ratio)
 * read as normal with standard error se (0: known exactly). */
static void normal_interval(const struct ctx *c, struct pdb_compare_row *row, double d, double se)
{
	double z = pdb_stats_norm_isf(c->alpha / 2);

	row->ci_low_pct = pct_of_log(d - z * se);
	row->ci_high_pct = pct_of_log(d + z * se);
	row->p_value = se > 0 ? fmin(1, 2 * pdb_stats_norm_sf(fabs(d) / se)) : d == 0;
}

/* One run against one run, not an A/B pair, with no history of the
 * series: the samples' interval says how much the run's own samples vary,
 * not how much the next run will move under another load. Widen it by
 * the run-to-run noise assumed for the metric (each side's location varies
 * by c->run_noise), and test the change against both: the log interval's
 * half-width becomes sqrt(w^2 + (z sqrt 2 tau)^2). */
static void add_run_noise(struct ctx *c, struct pdb_compare_row *row)
{
	double z = pdb_stats_norm_isf(c->alpha / 2), se_w;

	if (c->paired || c->out->nbase != 1 || c->out->ncand != 1 || !(c->run_noise > 0) ||
	    isnan(row->ci_low_pct) || isnan(row->change_pct))
		return;
	se_w = (log1p(row->ci_high_pct / 100) - log1p(row->ci_low_pct / 100)) / (2 * z);
	normal_interval(c, row, log1p(row->change_pct / 100),
			sqrt(se_w * se_w + 2 * c->run_noise * c->run_noise));
	row->run_noise_pct = pct_of_log(c->run_noise);
	row->band = "samples+run noise";
}

/* A near-exact count (instructions): repetitions agree to within a tiny
 * spread, so the change of the medians is known to within that spread,
 * the larger side's in log terms, plus the run-to-run noise assumed for
 * the count (ASLR, the environment's size: c->run_noise a run). A rank
 * test of values that tie could not tell +2 % from +0.01 %; this can. */
static void compare_exact(struct ctx *c, struct pdb_compare_row *row, const double *b,
			  const double *a)
{
	double z = pdb_stats_norm_isf(c->alpha / 2), spread = 0, d, hw;

	for (int side = 0; side < 2; side++) {
		const double *v = side ? a : b;
		size_t n = side ? row->n_cand : row->n_base;
		double lo = v[0], hi = v[0];
		for (size_t i = 1; i < n; i++) {
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
		spread = fmax(spread, log(hi / lo));
	}
	d = log(row->median_cand / row->median_base);
	hw = spread + z * M_SQRT2 * c->run_noise;
	row->test = "exact";
	row->band = "samples";
	row->change_pct = pct_of_log(d);
	normal_interval(c, row, d, hw / z);
	if (c->run_noise > 0)
		row->run_noise_pct = pct_of_log(c->run_noise);
}

/* Statistics of a series with several values a side: paired for an A/B
 * pair, else Mann-Whitney with the Hodges-Lehmann interval, else (too few
 * values for a rank test at alpha) Welch. */
static void compare_samples(struct ctx *c, struct pdb_compare_row *row, const double *b,
			    const double *a, int positive)
{
	struct pdb_mwu mwu;
	double est, lo, hi;
	double *lb, *la;

	row->band = "samples";
	if (c->paired && positive && row->n_base == row->n_cand && row->n_base <= PDB_STATS_PAIRED_MAX &&
	    pdb_stats_signed_rank_min_p(row->n_base) <= c->alpha && fine_grained(b, a, row->n_base)) {
		pdb_grow((void **)&c->scratch, &c->scratch_cap, row->n_base, sizeof *c->scratch);
		for (size_t i = 0; i < row->n_base; i++)
			c->scratch[i] = log(a[i]) - log(b[i]);
		pdb_stats_signed_rank(c->scratch, row->n_base, &mwu);
		pdb_stats_hodges_lehmann_paired(c->scratch, row->n_base, 1 - c->alpha, &est, &lo, &hi);
		row->p_value = mwu.p;
		row->change_pct = pct_of_log(est);
		row->ci_low_pct = pct_of_log(lo);
		row->ci_high_pct = pct_of_log(hi);
		row->test = "wilcoxon-signed-rank";
		c->out->npaired++;
		return;
	}
	if (pdb_stats_mwu_min_p(row->n_base, row->n_cand) > c->alpha) {
		if (row->n_base >= WELCH_MIN_N && row->n_cand >= WELCH_MIN_N) {
			compare_welch(c, row, b, a, positive);
			add_run_noise(c, row);
		} else
			median_change(row, positive,
				      pdb_xasprintf("needs at least %d values a side (has %zu and %zu)",
						    WELCH_MIN_N, row->n_base, row->n_cand));
		return;
	}
	row->test = "mann-whitney";
	if (c->hl_nx != row->n_base || c->hl_ny != row->n_cand) {
		c->hl_nx = row->n_base;
		c->hl_ny = row->n_cand;
		c->hl_k = pdb_stats_hl_rank(row->n_base, row->n_cand, 1 - c->alpha);
	}
	pdb_stats_mann_whitney(a, row->n_cand, b, row->n_base, &mwu);
	row->p_value = mwu.p;
	if (positive) {
		pdb_grow((void **)&c->scratch, &c->scratch_cap, row->n_base + row->n_cand,
			 sizeof *c->scratch);
		lb = c->scratch;
		la = c->scratch + row->n_base;
		for (size_t i = 0; i < row->n_base; i++)
			lb[i] = log(b[i]);
		for (size_t i = 0; i < row->n_cand; i++)
			la[i] = log(a[i]);
		pdb_stats_hodges_lehmann_at(lb, row->n_base, la, row->n_cand, c->hl_k,
					    &est, &lo, &hi);
		row->change_pct = pct_of_log(est);
		row->ci_low_pct = pct_of_log(lo);
		row->ci_high_pct = pct_of_log(hi);
		add_run_noise(c, row);
	} else {
		pdb_stats_hodges_lehmann_at(b, row->n_base, a, row->n_cand, c->hl_k,
					    &row->change_abs, &row->ci_low_abs,
					    &row->ci_high_abs);
	}
}

/* The standard error of the median of log values read from their
 * quartiles: a normal sample's IQR is 1.349 SD, its median's error
 * 1.2533 SD / sqrt(n). 0 with fewer than 2 values. */
static double log_median_se(double q1, double q3, size_t n)
{
	if (n < 2 || !(q1 > 0) || !(q3 >= q1))
		return 0;
	return 1.2533 * log(q3 / q1) / 1.349 / sqrt((double)n);
}

/* The same for raw values above 0 (one run's samples). */
static double values_median_se(const double *v, size_t n)
{
	double *sorted, se;

	if (n < 2)
		return 0;
	sorted = pdb_xmalloc(n * sizeof *sorted);
	memcpy(sorted, v, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, cmp_double);
	se = log_median_se(pdb_stats_quantile(sorted, n, 0.25),
			   pdb_stats_quantile(sorted, n, 0.75), n);
	free(sorted);
	return se;
}

/* The run-to-run noise of a series on the baseline's branch, from its
 * newest HISTORY_RUNS runs up to the baseline (the candidate left out):
 * *tau_d, the SD of the change of a run's location (log median) from one
 * run to the next, read robustly as the 75th percentile of the absolute
 * changes (a step in the history moves one change, not the scale); *se2,
 * the mean squared error of a run's median from its own samples. Returns
 * the runs read (0 when the series has no stored history), -1 on error. */
static long history_noise(struct ctx *c, const char *key, double *tau_d, double *se2,
			  double *level, struct pdb_err *err)
{
	struct pdb_history_point *pts = NULL;
	double *loc = NULL, *chg = NULL;
	size_t npts = 0, k = 0, skip = 0;
	int64_t id;
	long ret = -1;

	if (load_series(c, err) < 0)
		return -1;
	if (!(id = find_series(c, key)))
		return 0;
	if (pdb_store_series_last(c->store, id, c->history_where, c->history_until,
				  HISTORY_RUNS + 1, &pts, &npts, err) < 0)
		goto out;
	loc = pdb_xmalloc((npts ? npts : 1) * sizeof *loc);
	chg = pdb_xmalloc((npts ? npts : 1) * sizeof *chg);
	*se2 = 0;
	for (size_t i = 0; i < npts; i++)
		skip += pts[i].run_id != c->cand_id && pts[i].value > 0 && isfinite(pts[i].value);
	skip = skip > HISTORY_RUNS ? skip - HISTORY_RUNS : 0; /* the newest only */
	for (size_t i = 0; i < npts; i++) {
		const struct pdb_history_point *p = &pts[i];
		double se;
		if (p->run_id == c->cand_id || !(p->value > 0) || !isfinite(p->value))
			continue;
		if (skip) {
			skip--;
			continue;
		}
		loc[k] = log(p->value);
		if (k > 0)
			chg[k - 1] = fabs(loc[k] - loc[k - 1]);
		se = log_median_se(p->q1, p->q3, p->n);
		*se2 += se * se;
		k++;
	}
	ret = (long)k;
	if (k < 2)
		goto out;
	*se2 /= (double)k;
	/* the branch's level: the median of its newest LEVEL_RUNS runs */
	{
		double last[LEVEL_RUNS];
		size_t nl = k < LEVEL_RUNS ? k : LEVEL_RUNS;
		memcpy(last, loc + k - nl, nl * sizeof *last);
		*level = pdb_stats_median(last, nl);
	}
	{
		double sum = 0, cap;
		qsort(chg, k - 1, sizeof *chg, cmp_double);
		cap = CAP * pdb_stats_quantile(chg, k - 1, 0.5);
		for (size_t i = 0; i + 1 < k; i++)
			sum += fmin(chg[i], cap);
		*tau_d = sum / (double)(k - 1) / CAPPED_MEAN_ABS_NORMAL;
	}
out:
	free(loc);
	free(chg);
	pdb_history_free(pts, npts);
	return ret;
}

/* The candidate run against the run-to-run noise of the baseline's branch
 * (a random-effects view: each run's location varies around the branch's
 * level by a between-run spread, and its median by its own samples' error).
 * The change is the candidate's log median minus the baseline's (one run)
 * or the median of the baseline runs' medians (a group); its interval is
 * Student's t at the history's degrees of freedom times the SD the model
 * predicts for that difference. Returns 1 when decided, 0 when the branch
 * has fewer than HISTORY_MIN_RUNS runs of the series, -1 on error. */
static int compare_history(struct ctx *c, struct pdb_compare_row *row, const char *key,
			   const double *b, const double *a, struct pdb_err *err)
{
	double tau_d = 0, se2 = 0, level = NAN, tau_b2, var_ref, var_cand, se, sd, d, q, df;
	size_t nbase = c->out->nbase;
	long k;

	/* a baseline not stored (id 0: an adaptive run's look) has no history */
	if (c->paired || c->out->ncand != 1 || c->history_until <= 0 ||
	    !(row->median_base > 0) || !(row->median_cand > 0))
		return 0;
	if ((k = history_noise(c, key, &tau_d, &se2, &level, err)) < 0)
		return -1;
	if (k < HISTORY_MIN_RUNS)
		return 0;
	/* a change between two runs holds twice a run's variance */
	tau_b2 = fmax(0, tau_d * tau_d / 2 - se2);
	if (nbase == 1) {
		se = values_median_se(b, row->n_base);
		var_ref = tau_b2 + se * se;
	} else {
		/* the median of nbase run values: pi/2 times the variance of their mean */
		var_ref = M_PI / 2 * (tau_b2 + se2) / (double)nbase;
	}
	se = values_median_se(a, row->n_cand);
	var_cand = tau_b2 + se * se;
	sd = sqrt(var_ref + var_cand);
	df = fmax(1, SCALE_DF_PER_CHANGE * (double)(k - 1));
	d = log(row->median_cand) - log(row->median_base);
	q = sd > 0 ? pdb_stats_t_isf(c->alpha / 2, df) : 0;
	row->p_value = sd > 0 ? fmin(1, 2 * pdb_stats_t_sf(fabs(d) / sd, df)) : d == 0;
	row->change_pct = pct_of_log(d);
	row->ci_low_pct = pct_of_log(d - q * sd);
	row->ci_high_pct = pct_of_log(d + q * sd);
	if (nbase == 1 && isfinite(level) && sd > 0 &&
	    fabs(log(row->median_base) - level) <= LEVEL_SPIKE * tau_d) {
		/* one baseline run may itself be a spike of the load: the change
		 * must hold against the branch's level too (the median of its
		 * newest runs), and the row keeps the weaker of the two tests. A
		 * baseline further off the level than a spike goes is another
		 * regime (a release measured apart, a revert), not the load's. */
		double d2 = log(row->median_cand) - level;
		double sd2 = sqrt(M_PI / 2 * (tau_b2 + se2) / LEVEL_RUNS + var_cand);
		double p2 = d2 * d > 0 ? fmin(1, 2 * pdb_stats_t_sf(fabs(d2) / sd2, df)) : 1;
		row->p_value = fmax(row->p_value, p2);
		row->ci_low_pct = fmin(row->ci_low_pct, pct_of_log(d2 - q * sd2));
		row->ci_high_pct = fmax(row->ci_high_pct, pct_of_log(d2 + q * sd2));
	}
	row->band = "history";
	row->test = "history";
	row->n_history = (size_t)k;
	row->history_spread_pct = pct_of_log(tau_d / M_SQRT2);
	return 1;
}

static int cmp_sample_value(const void *a, const void *b)
{
	double x = ((const struct pdb_sample *)a)->value, y = ((const struct pdb_sample *)b)->value;
	return x < y ? -1 : x > y;
}

/* The interval of the median of a histogram (its values weighted by event
 * counts) at level conf: the events of ranks N/2 -+ z sqrt(N)/2, widened to
 * the edges of the buckets they fall in (a bucket's events lie between the
 * value of the bucket below and its own). -1 when the weights are not event
 * counts (fractions that add up to less than 2). */
static int histogram_median_interval(const struct pdb_result *r, double conf, double *lo,
				     double *hi)
{
	struct pdb_sample *v = pdb_xmalloc((r->nsamples ? r->nsamples : 1) * sizeof *v);
	double total = 0, acc = 0, z, rlo, rhi;
	size_t n = 0;

	for (size_t i = 0; i < r->nsamples; i++)
		if (r->samples[i].weight > 0 && r->samples[i].value > 0)
			v[n++] = r->samples[i];
	for (size_t i = 0; i < n; i++)
		total += v[i].weight;
	if (total < 2) {
		free(v);
		return -1;
	}
	qsort(v, n, sizeof *v, cmp_sample_value);
	z = pdb_stats_norm_isf((1 - conf) / 2);
	rlo = fmax(0, total / 2 - z * sqrt(total) / 2);
	rhi = fmin(total, total / 2 + z * sqrt(total) / 2);
	*lo = v[0].value;
	*hi = v[n - 1].value;
	for (size_t i = 0; i < n; i++) {
		double before = acc;
		acc += v[i].weight;
		if (before <= rlo && rlo < acc)
			*lo = i > 0 ? v[i - 1].value : v[i].value;
		if (before < rhi && rhi <= acc) {
			*hi = v[i].value;
			break;
		}
	}
	free(v);
	return 0;
}

/* One value a side. A histogram on each side (one run, many events) gets
 * the interval of its median from its counts: the change's interval joins
 * the two medians' intervals at 1 - alpha/2 each. An aggregate with no
 * spread and no history is insufficient, whatever its values: no fixed band
 * calls it changed, and none calls it unchanged. */
static void compare_single(struct ctx *c, struct pdb_compare_row *row, const struct entry *be,
			   size_t nb, const struct entry *ce, size_t nc, int positive)
{
	double blo, bhi, clo, chi;

	row->band = NULL;
	if (!positive && row->median_cand != row->median_base) {
		median_change(row, 0, pdb_xstrdup("one value a side, not all above 0: "
						  "no ratio to judge"));
		return;
	}
	/* equal values are no proof either: 0 and 0 is as insufficient as 5 and 5 */
	median_change(row, positive, NULL);
	if (positive && nb == 1 && nc == 1 && c->out->nbase == 1 && c->out->ncand == 1 &&
	    has_weights(be->r) && has_weights(ce->r) &&
	    histogram_median_interval(be->r, 1 - c->alpha / 2, &blo, &bhi) == 0 &&
	    histogram_median_interval(ce->r, 1 - c->alpha / 2, &clo, &chi) == 0) {
		row->test = "histogram";
		row->band = "samples";
		row->ci_low_pct = pct_of_log(log(clo / bhi));
		row->ci_high_pct = pct_of_log(log(chi / blo));
		return;
	}
	if (positive && c->single_noise && c->run_noise > 0 && !c->paired &&
	    c->out->nbase == 1 && c->out->ncand == 1) {
		/* CPU time: the run-to-run noise assumed is all the spread there is */
		free(row->reason);
		row->reason = NULL;
		row->test = "run-noise";
		row->band = "run noise";
		normal_interval(c, row, log(row->median_cand / row->median_base),
				M_SQRT2 * c->run_noise);
		row->run_noise_pct = pct_of_log(c->run_noise);
		return;
	}
	row->reason = pdb_xasprintf("one value a side and fewer than %d runs of history%s%s: "
				    "no spread to judge", HISTORY_MIN_RUNS,
				    c->history_branch ? " on " : "",
				    c->history_branch ? c->history_branch : "");
}

/* The verdict of a compared series (after any Holm adjustment): from its
 * interval, in percent, or absolute when a value is <= 0 (then against the
 * threshold as a fraction of the larger median). Unchanged means the whole
 * interval is inside the threshold. */
static int verdict_of(const struct ctx *c, struct pdb_compare_row *row)
{
	/* worse-side sign: +1 when larger is worse; none is gated as lower
	 * but never called a regression or an improvement */
	double s = pdb_direction_worse_sign(row->direction);
	int gated = row->direction != PDB_DIR_NONE;
	int percent = !isnan(row->ci_low_pct);
	double lo = percent ? row->ci_low_pct : row->ci_low_abs;
	double hi = percent ? row->ci_high_pct : row->ci_high_abs;
	double est = percent ? row->change_pct : row->change_abs;
	double thr = percent ? row->threshold_pct
		: row->threshold_pct / 100 * fmax(fabs(row->median_base), fabs(row->median_cand));
	double wlo = fmin(s * lo, s * hi), whi = fmax(s * lo, s * hi), w = s * est;
	int sig;

	if (isnan(lo) || isnan(hi)) {
		/* no interval: equal single values, or too little to tell */
		if (!row->test && !row->reason && row->change_abs == 0)
			return PDB_VERDICT_UNCHANGED;
		if (!row->reason)
			row->reason = pdb_xstrdup("no interval could be computed from these values");
		return PDB_VERDICT_INSUFFICIENT;
	}
	sig = !isnan(row->p_value) ? row->p_value <= c->alpha : (wlo > 0 || whi < 0);
	row->warn = gated && percent && !isnan(row->warn_pct) && sig && wlo > 0 &&
		    w >= row->warn_pct && w < thr;
	if (gated && sig && wlo > 0 && w >= thr)
		return PDB_VERDICT_REGRESSION;
	if (gated && sig && whi < 0 && -w >= thr)
		return PDB_VERDICT_IMPROVEMENT;
	if (wlo >= -thr && whi <= thr)
		return PDB_VERDICT_UNCHANGED;
	if (!gated)
		row->reason = pdb_xasprintf("no direction, not gated: the interval reaches past ±%g %%",
					    row->threshold_pct);
	else if (sig)
		row->reason = pdb_xasprintf("significant, but the interval straddles the %g %% "
					    "threshold", row->threshold_pct);
	else if (!isnan(row->run_noise_pct))
		row->reason = pdb_xasprintf("inside the run-to-run noise assumed until %d runs of "
					    "history%s%s (±%.3g %% a run): history would tell",
					    HISTORY_MIN_RUNS, c->history_branch ? " on " : "",
					    c->history_branch ? c->history_branch : "",
					    row->run_noise_pct);
	else if (row->n_history)
		row->reason = pdb_xasprintf("not significant against the run-to-run noise of its "
					    "last %zu runs%s%s (±%.3g %% a run): more runs would tell",
					    row->n_history, c->history_branch ? " on " : "",
					    c->history_branch ? c->history_branch : "",
					    row->history_spread_pct);
	else
		row->reason = pdb_xasprintf("the interval is wider than ±%g %%: more values "
					    "would tell", row->threshold_pct);
	return PDB_VERDICT_INCONCLUSIVE;
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
	struct entry key = { .key = cpu ? series_key(e->r->benchmark, e->dims_json, cpu) : NULL };
	int both = key.key && c->nbase_e && c->ncand_e &&
		   bsearch(&key, c->base_e, c->nbase_e, sizeof key, cmp_entry) &&
		   bsearch(&key, c->cand_e, c->ncand_e, sizeof key, cmp_entry);

	free(key.key);
	return both;
}

/* Compare one series key: be/ne base entries, ce/nc candidate entries. */
static int compare_series(struct ctx *c, const struct entry *be, size_t nb,
			  const struct entry *ce, size_t nc, struct pdb_err *err)
{
	const struct entry *e = nc ? ce : be;
	const struct pdb_compare_opts *o = c->opts;
	double *b = NULL, *a = NULL, thr, warn = NAN;
	int direction = e->r->direction, positive, decided, ret = -1, gate = -1;
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
		return 0;
	if (o->config && !isnan(o->config->run_noise_pct))
		c->run_noise = log1p(o->config->run_noise_pct / 100);
	else if (role == PDB_ROLE_WALL && cpu_on_both_sides(c, e))
		c->run_noise = 0;
	else
		c->run_noise = pdb_metric_run_noise(role);
	c->single_noise = role == PDB_ROLE_CPU;
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
	pdb_grow((void **)&c->scratch, &c->scratch_cap, row->n_base + row->n_cand + 1,
		 sizeof *c->scratch);
	describe(b, row->n_base, c->scratch, &row->median_base, &row->mean_base);
	describe(a, row->n_cand, c->scratch, &row->median_cand, &row->mean_cand);
	if (row->n_base == 0 || row->n_cand == 0) {
		/* on both sides but with no value to compare: insufficient */
		row->verdict = nb && nc ? PDB_VERDICT_INSUFFICIENT
			: row->n_base == 0 ? PDB_VERDICT_NEW : PDB_VERDICT_MISSING;
		if (row->verdict == PDB_VERDICT_INSUFFICIENT)
			row->reason = pdb_xstrdup("no values on one side");
		row->band = NULL;
		ret = 0;
		goto out;
	}
	/* (a count that repeats exactly is the news, not a constant to hide) */
	if (constant(b, row->n_base, a, row->n_cand) && role != PDB_ROLE_COUNT_EXACT)
		row->hidden = PDB_HIDDEN_CONSTANT;
	for (size_t i = 0; bookkeeping[i]; i++)
		if (strcmp(row->metric, bookkeeping[i]) == 0)
			row->hidden = PDB_HIDDEN_BOOKKEEPING;
	if (pdb_unit_is_duration(row->unit))
		row->n_zero = floor_zero_times(b, row->n_base, a, row->n_cand, &row->zero_floor);
	positive = all_positive(b, row->n_base) && all_positive(a, row->n_cand);
	if ((decided = compare_history(c, row, e->key, b, a, err)) < 0)
		goto out;
	if (decided)
		;
	else if (role == PDB_ROLE_COUNT_EXACT && positive)
		compare_exact(c, row, b, a);
	else if (row->n_base >= 2 && row->n_cand >= 2)
		compare_samples(c, row, b, a, positive);
	else
		compare_single(c, row, be, nb, ce, nc, positive);
	ret = 0;
out:
	free(b);
	free(a);
	return ret;
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
	row->threshold_pct = row->warn_pct = row->run_noise_pct = NAN;
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

/* Rows in the order a reviewer reads them: what fails first, then what is
 * gone, then what cannot be told, then the rest. */
static int verdict_rank(int v)
{
	static const int rank[PDB_VERDICT_COUNT] = {
		[PDB_VERDICT_FAILED] = 0, [PDB_VERDICT_REGRESSION] = 1,
		[PDB_VERDICT_MISSING] = 2, [PDB_VERDICT_INCONCLUSIVE] = 3,
		[PDB_VERDICT_INSUFFICIENT] = 4, [PDB_VERDICT_NEW] = 5,
		[PDB_VERDICT_IMPROVEMENT] = 6, [PDB_VERDICT_UNCHANGED] = 7,
	};
	return rank[v];
}

/* How much worse, for ordering: the change on the worse side, NaN last. */
static double worseness(const struct pdb_compare_row *r)
{
	double s = pdb_direction_worse_sign(r->direction);
	double v = isnan(r->change_pct) ? r->change_abs : r->change_pct;
	return isnan(v) ? -INFINITY : s * v;
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct pdb_compare_row *a = pa, *b = pb;
	double wa = worseness(a), wb = worseness(b);
	int d;

	if (a->hidden != b->hidden) /* hidden rows last, whatever their verdict */
		return (a->hidden != PDB_SHOWN) - (b->hidden != PDB_SHOWN);
	if (verdict_rank(a->verdict) != verdict_rank(b->verdict))
		return verdict_rank(a->verdict) - verdict_rank(b->verdict);
	/* a metric with no direction is never worse: a total that grows with
	 * the run's length (fio's io_bytes) after every gated row of its verdict */
	if ((a->direction == PDB_DIR_NONE) != (b->direction == PDB_DIR_NONE))
		return (a->direction == PDB_DIR_NONE) - (b->direction == PDB_DIR_NONE);
	if (wa != wb)
		return wa > wb ? -1 : 1;
	if ((d = strcmp(a->benchmark, b->benchmark)) != 0)
		return d;
	if ((d = strcmp(a->dims_json, b->dims_json)) != 0)
		return d;
	return strcmp(a->metric, b->metric);
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether a row enters its metric's geomean: shown, gated, with a
 * direction and a percentage (a resource is reported in the table, not
 * summed into a headline number). */
static int in_geomean(const struct pdb_compare_row *r)
{
	return !isnan(r->change_pct) && !r->hidden && r->gated && r->direction != PDB_DIR_NONE;
}

/* Geometric mean per metric of exp(dir * ln(cand/base)) over the series
 * that in_geomean takes (of a metric with no direction,
 * > 1 is not worse: fio's io_bytes doubles with the runtime), with an
 * interval: each series' log interval read as normal (its half-width over
 * z), the mean's SE sqrt(sum se^2) / n. A series without an interval
 * leaves the geomean without one: inconclusive, never "worse". */
static void geomeans(struct pdb_compare *out)
{
	const char **metrics = pdb_xmalloc((out->nrows ? out->nrows : 1) * sizeof *metrics);
	double z = pdb_stats_norm_isf(out->alpha / 2);
	size_t nm = 0, cap = 0;

	for (size_t i = 0; i < out->nrows; i++)
		if (in_geomean(&out->rows[i]))
			metrics[nm++] = out->rows[i].metric;
	qsort(metrics, nm, sizeof *metrics, cmp_str);
	for (size_t i = 0; i < nm; i++) {
		struct pdb_compare_geomean *g;
		double sum = 0, var = 0, thr = 0;
		size_t n = 0;

		if (i > 0 && strcmp(metrics[i], metrics[i - 1]) == 0)
			continue;
		for (size_t k = 0; k < out->nrows; k++) {
			const struct pdb_compare_row *r = &out->rows[k];
			double se;
			if (!in_geomean(r) || strcmp(r->metric, metrics[i]) != 0)
				continue;
			sum += pdb_direction_worse_sign(r->direction) * log1p(r->change_pct / 100);
			se = (log1p(r->ci_high_pct / 100) - log1p(r->ci_low_pct / 100)) / (2 * z);
			var += se * se; /* NaN without an interval: none for the mean */
			thr = fmax(thr, r->threshold_pct);
			n++;
		}
		pdb_grow((void **)&out->geomean, &cap, out->ngeomean + 1, sizeof *out->geomean);
		g = &out->geomean[out->ngeomean++];
		g->metric = pdb_xstrdup(metrics[i]);
		g->ratio = exp(sum / (double)n);
		g->n = n;
		g->low = exp(sum / (double)n - z * sqrt(var) / (double)n);
		g->high = exp(sum / (double)n + z * sqrt(var) / (double)n);
		thr = log1p(thr / 100);
		g->verdict = isnan(var) ? PDB_VERDICT_INCONCLUSIVE
			: log(g->low) > 0 && log(g->ratio) >= thr ? PDB_VERDICT_REGRESSION
			: log(g->high) < 0 && -log(g->ratio) >= thr ? PDB_VERDICT_IMPROVEMENT
			: log(g->low) >= -thr && log(g->high) <= thr ? PDB_VERDICT_UNCHANGED
			: PDB_VERDICT_INCONCLUSIVE;
	}
	free(metrics);
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

/* Load every run of a side into *runs (allocated even on failure). */
static int load_runs(struct pdb_store *store, const int64_t *ids, size_t n,
		     struct pdb_run ***runs, struct pdb_err *err)
{
	*runs = pdb_xcalloc(n ? n : 1, sizeof **runs);
	for (size_t i = 0; i < n; i++)
		if (!((*runs)[i] = pdb_store_load_run(store, ids[i], err)))
			return -1;
	return 0;
}

static void runs_free(struct pdb_run **runs, size_t n)
{
	for (size_t i = 0; runs && i < n; i++)
		pdb_run_free(runs[i]);
	free(runs);
}

/* Walk the two sorted entry lists in step, one series key at a time. */
static int match_series(struct ctx *c, const struct entry *be, size_t nbe,
			const struct entry *ce, size_t nce, struct pdb_err *err)
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
		if (compare_series(c, ni ? be + i : NULL, ni, nj ? ce + j : NULL, nj, err) < 0)
			return -1;
		i += ni;
		j += nj;
	}
	return 0;
}

/* Where the history test reads the run-to-run noise: the branch of the
 * newest baseline run (in the order of runs), up to that run; the candidate (one run) is
 * never its own history. A branch name holding a comma cannot be an
 * attribute filter: such a baseline reads every run. */
static void history_of(struct ctx *c, struct pdb_run *const *brun, size_t nbase,
		       struct pdb_run *const *crun, size_t ncand)
{
	const struct pdb_run *newest = brun[0];

	for (size_t i = 1; i < nbase; i++)
		if (brun[i]->seq > newest->seq)
			newest = brun[i];
	c->history_until = newest->id;
	c->history_branch = pdb_run_get_attr(newest, "branch");
	if (c->history_branch && !strchr(c->history_branch, ','))
		c->history_where = pdb_xasprintf("branch=%s", c->history_branch);
	else
		c->history_branch = NULL;
	c->cand_id = ncand == 1 ? crun[0]->id : -1;
}

/* Whether a row enters the gate's counts: every row of a gated metric or
 * of one without a direction; of a resource, only what failed (what moved
 * is counted apart, pdb_compare_row_reported). */
static int counted(const struct pdb_compare_row *r)
{
	return r->gated || r->direction == PDB_DIR_NONE || r->verdict == PDB_VERDICT_FAILED;
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

int pdb_compare_runs(struct pdb_store *store, struct pdb_run *const *brun, size_t nbase,
		     struct pdb_run *const *crun, size_t ncand,
		     const struct pdb_compare_opts *opts, struct pdb_compare *out,
		     struct pdb_err *err)
{
	struct ctx c = { .store = store, .opts = opts, .out = out };
	struct entry *be = NULL, *ce = NULL;
	size_t nbe = 0, nce = 0;
	int ret = -1;

	memset(out, 0, sizeof *out);
	c.alpha = !isnan(opts->alpha) ? opts->alpha
		: opts->config && !isnan(opts->config->alpha) ? opts->config->alpha
		: PDB_ALPHA_DEFAULT;
	out->alpha = c.alpha;
	if (nbase == 0 || ncand == 0) {
		pdb_err_set(err, PDB_EXIT_USAGE, "a side of the comparison has no runs");
		goto out;
	}
	out->nbase = nbase;
	out->ncand = ncand;
	describe_runs(brun, nbase, &out->base);
	describe_runs(crun, ncand, &out->cand);
	check_env(brun, nbase, crun, ncand, out);
	history_of(&c, brun, nbase, crun, ncand);
	if (nbase == 1 && ncand == 1) {
		const char *ab = pdb_run_get_attr(brun[0], "ab"), *cab = pdb_run_get_attr(crun[0], "ab");
		c.paired = ab && cab && strcmp(ab, cab) == 0 && brun[0] != crun[0] &&
			   (brun[0]->id == 0 || brun[0]->id != crun[0]->id) &&
			   strcmp(out->base[0].status, "complete") == 0 &&
			   strcmp(out->cand[0].status, "complete") == 0;
	}
	if (c.paired && isnan(opts->alpha) && !(opts->config && !isnan(opts->config->alpha)))
		c.alpha = out->alpha = pair_alpha(brun[0], crun[0], c.alpha);
	be = side_entries(brun, nbase, opts, &nbe);
	ce = side_entries(crun, ncand, opts, &nce);
	c.base_e = be;
	c.nbase_e = nbe;
	c.cand_e = ce;
	c.ncand_e = nce;
	if (match_series(&c, be, nbe, ce, nce, err) < 0)
		goto out;
	mark_failures(&c, crun, ncand);
	mark_base_failures(&c, brun, nbase);
	check_tools(out);
	if (opts->holm)
		holm_adjust(out);
	for (size_t i = 0; i < out->nrows; i++)
		if (out->rows[i].verdict == PDB_VERDICT_COUNT) /* not new, missing, failed, ... */
			out->rows[i].verdict = verdict_of(&c, &out->rows[i]);
	pdb_compare_check_wall(out->rows, out->nrows, c.paired);
	for (size_t i = 0; i < out->nrows; i++) {
		struct pdb_compare_row *r = &out->rows[i];
		if (r->n_zero) {
			char floor[32];
			pdb_unit_format(r->zero_floor, r->unit, floor, sizeof floor);
			add_reason(r, pdb_xasprintf("%zu time%s of 0 read as %s, half the least "
						    "measured (below the clock's resolution)",
						    r->n_zero, r->n_zero == 1 ? "" : "s", floor));
		}
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
		else if (counted(r))
			out->counts[r->verdict]++;
		out->nhidden += r->hidden != PDB_SHOWN;
	}
	if (out->nrows)
		qsort(out->rows, out->nrows, sizeof *out->rows, cmp_row);
	geomeans(out);
	ret = 0;
out:
	entries_free(be, nbe);
	entries_free(ce, nce);
	for (size_t i = 0; i < c.nseries; i++)
		free(c.series[i].key);
	free(c.series);
	free(c.scratch);
	free(c.history_where);
	return ret;
}

int pdb_compare_run_groups(struct pdb_store *store, const int64_t *base, size_t nbase,
			   const int64_t *cand, size_t ncand,
			   const struct pdb_compare_opts *opts, struct pdb_compare *out,
			   struct pdb_err *err)
{
	struct pdb_run **brun = NULL, **crun = NULL;
	int ret = -1;

	memset(out, 0, sizeof *out);
	if (nbase == 0 || ncand == 0) {
		pdb_err_set(err, PDB_EXIT_USAGE, "a side of the comparison has no runs");
		goto out;
	}
	if (load_runs(store, base, nbase, &brun, err) < 0 ||
	    load_runs(store, cand, ncand, &crun, err) < 0)
		goto out;
	ret = pdb_compare_runs(store, brun, nbase, crun, ncand, opts, out, err);
out:
	runs_free(brun, nbase);
	runs_free(crun, ncand);
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

int pdb_compare_row_fails(const struct pdb_compare_row *row, unsigned fail_on)
{
	if (!(fail_on & (1u << row->verdict)))
		return 0;
	/* a row of a failure has no metric, so no direction */
	return row->verdict == PDB_VERDICT_FAILED || row->failed_in_base ||
	       (row->direction != PDB_DIR_NONE && row->gated);
}

int pdb_compare_row_reported(const struct pdb_compare_row *r)
{
	return !r->gated && r->direction != PDB_DIR_NONE &&
	       (r->verdict == PDB_VERDICT_REGRESSION || r->verdict == PDB_VERDICT_IMPROVEMENT);
}

int pdb_compare_failed(const struct pdb_compare *cmp, unsigned fail_on)
{
	for (size_t i = 0; i < cmp->nrows; i++)
		if (pdb_compare_row_fails(&cmp->rows[i], fail_on))
			return 1;
	/* the candidate's runs only: a baseline that ended failed is what a
	 * recovery is compared with (it is warned about) */
	if (fail_on & (1u << PDB_VERDICT_FAILED))
		for (size_t i = 0; i < cmp->ncand; i++)
			if (strcmp(cmp->cand[i].status, "complete") != 0)
				return 1;
	return 0;
}

size_t pdb_compare_in_common(const struct pdb_compare *cmp)
{
	size_t n = 0;

	for (size_t i = 0; i < cmp->nrows; i++)
		n += (cmp->rows[i].n_base > 0 || cmp->rows[i].failed_in_base) &&
		     (cmp->rows[i].n_cand > 0 || cmp->rows[i].verdict == PDB_VERDICT_FAILED);
	return n;
}
