/* Capacity searches: the highest rate of a workload that meets every condition. */
#include "runner/capacity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "util.h"

#define MAX_RATE 1e8

/* What the key readers fill: the search and the metrics it may name. */
struct reading {
	struct pdb_capacity c;
	const char *const *metrics;
	int has_search;
};

static int read_search(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct reading *x = out;
	const json_t *lo = json_array_get(v, 0), *hi = json_array_get(v, 1);

	if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_integer(lo) || !json_is_integer(hi) ||
	    json_integer_value(lo) < 1 || json_integer_value(hi) > MAX_RATE ||
	    json_integer_value(lo) >= json_integer_value(hi))
		return pdb_spec_bad(r, v, "%s: expected [LOW, HIGH], whole rates per second from 1 to 100000000 "
				    "with LOW below HIGH", k->name);
	x->c.low = (double)json_integer_value(lo);
	x->c.high = (double)json_integer_value(hi);
	x->has_search = 1;
	return 0;
}

static int read_until(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct reading *x = out;
	const char *name;
	json_t *limit;

	if (!json_is_object(v) || json_object_size(v) == 0)
		return pdb_spec_bad(r, v, "%s: expected a mapping METRIC: LIMIT (each step passes when every "
				    "metric is at most its limit)", k->name);
	x->c.until = pdb_xcalloc(json_object_size(v), sizeof *x->c.until);
	json_object_foreach((json_t *)v, name, limit) {
		size_t n = 0;
		int known = 0;
		char hint[80], list[512] = "";
		for (; x->metrics[n]; n++) {
			known |= strcmp(x->metrics[n], name) == 0;
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", n ? ", " : "", x->metrics[n]);
		}
		if (!known)
			return pdb_spec_bad(r, limit, "%s: '%s' is not a metric a condition can name%s; it names "
					    "one of %s (lower is better)", k->name, name,
					    pdb_did_you_mean(name, x->metrics, n, hint, sizeof hint), list);
		if (!json_is_number(limit) || !isfinite(json_number_value(limit)) || json_number_value(limit) < 0)
			return pdb_spec_bad(r, limit, "%s: %s: expected a limit, a number from 0 (in the metric's "
					    "unit: %% for missing_pct, seconds for delays)", k->name, name);
		x->c.until[x->c.nuntil].metric = pdb_xstrdup(name);
		x->c.until[x->c.nuntil++].limit = json_number_value(limit);
	}
	return 0;
}

static int read_tolerance(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct reading *x = out;
	double pct = json_number_value(v);

	if (!json_is_number(v) || !isfinite(pct) || pct < 0.1 || pct > 100)
		return pdb_spec_bad(r, v, "%s: expected a percentage from 0.1 to 100", k->name);
	x->c.tolerance = pct;
	return 0;
}

static const struct pdb_spec_key search_keys[] = {
	PDB_KEY_READ("search", read_search),
	PDB_KEY_READ("until", read_until),
	PDB_KEY_RANGE(struct reading, "step", PDB_KEY_SECONDS, c.step, 0.1, PDB_SPEC_MAX_SECONDS),
	PDB_KEY_READ("tolerance", read_tolerance),
	PDB_KEY_RANGE(struct reading, "settle", PDB_KEY_SECONDS, c.settle, 0, PDB_SPEC_MAX_SECONDS),
};
const struct pdb_spec_section pdb_capacity_section = {
	"rate search", search_keys, sizeof search_keys / sizeof search_keys[0],
};

int pdb_capacity_read(struct pdb_spec_reader *r, const json_t *v, const char *const *metrics,
		      struct pdb_capacity **out)
{
	struct reading x = { .metrics = metrics };

	x.c.tolerance = PDB_CAPACITY_TOLERANCE;
	x.c.settle = PDB_CAPACITY_SETTLE;
	*out = NULL;
	if (pdb_spec_read_map(r, v, &pdb_capacity_section, &x) < 0)
		goto fail;
	if (!x.has_search || !x.c.nuntil) {
		pdb_spec_bad(r, v, "rate: a search needs search: [LOW, HIGH] and until: {METRIC: LIMIT}");
		goto fail;
	}
	x.c.text = pdb_xasprintf("%.0f..%.0f", x.c.low, x.c.high);
	*out = pdb_xmalloc(sizeof **out);
	**out = x.c;
	return 0;
fail:
	for (size_t i = 0; i < x.c.nuntil; i++)
		free(x.c.until[i].metric);
	free(x.c.until);
	return -1;
}

void pdb_capacity_free(struct pdb_capacity *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nuntil; i++)
		free(c->until[i].metric);
	free(c->until);
	free(c->text);
	free(c);
}

void pdb_capacity_until_text(const struct pdb_capacity *c, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->nuntil && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s <= %g", i == 0 ? "" : " and ",
					c->until[i].metric, c->until[i].limit);
}

/* Whether series r is the histogram of metric METRIC_STAT with the
 * statistic STAT (delivery_delay of delivery_delay_p99): *stat its value. */
static int stat_of(const struct pdb_result *r, const char *metric, double *stat)
{
	size_t n = strlen(r->metric);

	return strncmp(metric, r->metric, n) == 0 && metric[n] == '_' &&
	       pdb_result_get_stat(r, metric + n + 1, stat) == 0;
}

/* The stage (stream probes:) or group (kafka lag_groups) of a series, or NULL. */
static const char *stage_of(const struct pdb_result *r)
{
	const char *v = pdb_result_get_dim(r, "stage");

	return v ? v : pdb_result_get_dim(r, "group");
}

/* The worst (largest) value of metric among step's series of bench (every
 * sample: each second, each stage), and for METRIC_STAT the statistic of
 * the histogram METRIC (over every line of the step), with its unit; 0
 * when there is none. */
static int worst(const struct pdb_run *step, const char *bench, const char *metric, double *value,
		 const char **unit, const char **where)
{
	int found = 0;
	double stat;

	for (size_t i = 0; i < step->nresults; i++) {
		const struct pdb_result *r = &step->results[i];
		if (strcmp(r->benchmark, bench))
			continue;
		if (stat_of(r, metric, &stat) && (!found++ || stat > *value)) {
			*value = stat;
			*unit = r->unit;
			*where = stage_of(r);
		}
		if (strcmp(r->metric, metric))
			continue;
		for (size_t k = 0; k < r->nsamples; k++)
			if (!found++ || r->samples[k].value > *value) {
				*value = r->samples[k].value;
				*unit = r->unit;
				*where = stage_of(r);
			}
	}
	return found > 0;
}

int pdb_capacity_judge(const struct pdb_capacity *c, const struct pdb_run *step, const char *bench,
		       char *buf, size_t size, char *broke, size_t brokesize)
{
	size_t len = 0;
	int pass = 1;

	buf[0] = broke[0] = '\0';
	for (size_t i = 0; i < c->nuntil && len < size; i++) {
		const struct pdb_capacity_limit *l = &c->until[i];
		const char *unit = "", *where = NULL;
		char value[120], limit[64];
		double v = 0;
		if (!worst(step, bench, l->metric, &v, &unit, &where)) {
			len += (size_t)snprintf(buf + len, size - len, "%s%s not measured", i ? ", " : "", l->metric);
			if (pass)
				snprintf(broke, brokesize, "%s not measured", l->metric);
			pass = 0;
			continue;
		}
		pdb_unit_format(v, unit, value, sizeof value);
		if (where && v > 0) /* which stage or group was the worst */
			snprintf(value + strlen(value), sizeof value - strlen(value), " (%.40s)", where);
		pdb_unit_format(l->limit, unit, limit, sizeof limit);
		len += (size_t)snprintf(buf + len, size - len, "%s%s %s", i ? ", " : "", l->metric, value);
		if (v > l->limit) {
			if (pass)
				snprintf(broke, brokesize, "%s %s > %s", l->metric, value, limit);
			pass = 0;
		}
	}
	if (len < size)
		snprintf(buf + len, size - len, pass ? " - pass" : " - FAIL (%s)", broke);
	return pass;
}

/* One step at rate: its series into run (and a run of its own, judged). 1
 * pass, 0 fail, -1 error, -2 interrupted. */
static int try_rate(const struct pdb_capacity *c, const struct pdb_capacity_ops *ops, double rate,
		    struct pdb_run *run, const char *bench, const struct pdb_attr *dims, size_t ndims,
		    char *why, size_t whysize, struct pdb_err *err)
{
	struct pdb_attr *d = pdb_xcalloc(ndims + 1, sizeof *d);
	struct pdb_run *step = pdb_run_new();
	struct pdb_run *runs[2] = { step, run };
	char value[32], verdict[512], line[700];
	const char *note;
	int ret;

	if (ndims)
		memcpy(d, dims, ndims * sizeof *d);
	snprintf(value, sizeof value, "%.0f", rate);
	d[ndims] = (struct pdb_attr){ .key = "rate", .value = value };
	ret = ops->step(ops->ctx, rate, runs, bench, d, ndims + 1, err);
	if (ret == 0) {
		ret = pdb_capacity_judge(c, step, bench, verdict, sizeof verdict, why, whysize);
		snprintf(line, sizeof line, "rate %.0f %s: %s", rate, ops->unit, verdict);
		ops->note(ops->ctx, line);
		if (ops->settle && (note = ops->settle(ops->ctx)))
			ops->note(ops->ctx, note);
	} else {
		ret = ret > 0 ? -2 : -1;
	}
	pdb_run_free(step);
	free(d);
	return ret;
}

/* The geometric middle of lo and hi as a whole rate; 0 when there is none between. */
static double middle(double lo, double hi)
{
	double m = round(sqrt(lo * hi));

	return m > lo && m < hi ? m : 0;
}

int pdb_capacity_search(const struct pdb_capacity *c, const struct pdb_capacity_ops *ops, struct pdb_run *run,
			const char *bench, const struct pdb_attr *dims, size_t ndims,
			struct pdb_capacity_outcome *out, struct pdb_err *err)
{
	double lo = c->low, hi = c->high, m;
	char why[200] = "", first_why[200] = "";
	int r, hi_failed = 0;

	memset(out, 0, sizeof *out);
	r = try_rate(c, ops, lo, run, bench, dims, ndims, first_why, sizeof first_why, err);
	out->steps = 1;
	if (r < 0)
		goto stopped;
	if (r == 0) {
		snprintf(out->text, sizeof out->text, "no rate sustained: the lowest searched, %.0f %s, failed (%s)",
			 lo, ops->unit, first_why);
		out->failed = lo;
		return 0;
	}
	/* bisection between the highest passing and the lowest failing rate */
	while ((hi - lo) / lo * 100 > c->tolerance && (m = middle(lo, hi)) > 0) {
		r = try_rate(c, ops, m, run, bench, dims, ndims, why, sizeof why, err);
		out->steps++;
		if (r < 0)
			goto stopped;
		if (r) {
			lo = m;
		} else {
			hi = m;
			hi_failed = 1;
			snprintf(first_why, sizeof first_why, "%s", why);
		}
	}
	if (!hi_failed) { /* every rate passed so far: the highest searched decides */
		r = try_rate(c, ops, hi, run, bench, dims, ndims, why, sizeof why, err);
		out->steps++;
		if (r < 0)
			goto stopped;
		if (r)
			lo = hi;
		else
			snprintf(first_why, sizeof first_why, "%s", why);
		hi_failed = !r;
	}
	out->sustained = lo;
	out->failed = hi_failed ? hi : 0;
	if (hi_failed)
		snprintf(out->text, sizeof out->text, "%.0f %s sustained; %.0f %s failed (%s)", lo, ops->unit, hi,
			 ops->unit, first_why);
	else
		snprintf(out->text, sizeof out->text, "at least %.0f %s: the highest rate searched passed", lo, ops->unit);
	pdb_result_add_raw(pdb_run_series(run, bench, dims, ndims, "max_sustained_rate", ops->unit, PDB_DIR_HIGHER),
			   lo);
	return 0;
stopped:
	if (r == -1)
		return -1;
	out->interrupted = 1;
	snprintf(out->text, sizeof out->text, "interrupted after %d steps", out->steps);
	return 0;
}
