/* Store: series and their values across runs (for compare, detect and plot). */
#include "store/store_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static char *column_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? pdb_xstrdup((const char *)s) : NULL;
}

int pdb_store_series_rows(struct pdb_store *store, sqlite3_stmt *st, const char *bench_glob,
			  const char *metric_glob, struct pdb_series **out, size_t *n,
			  const char *what, struct pdb_err *err)
{
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *bench = (const char *)sqlite3_column_text(st, 1);
		const char *metric = (const char *)sqlite3_column_text(st, 3);
		struct pdb_series *s;

		if (!pdb_glob_match(bench_glob, bench) || !pdb_glob_match(metric_glob, metric))
			continue;
		pdb_grow((void **)out, &cap, *n + 1, sizeof **out);
		s = &(*out)[(*n)++];
		s->id = sqlite3_column_int64(st, 0);
		s->benchmark = pdb_xstrdup(bench);
		s->dims = column_dup(st, 2);
		s->metric = pdb_xstrdup(metric);
		s->unit = column_dup(st, 4);
		s->direction = sqlite3_column_int(st, 5);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		pdb_series_free(*out, *n);
		*out = NULL;
		*n = 0;
		return pdb_store_fail(store, err, what);
	}
	return 0;
}

int pdb_store_list_series(struct pdb_store *store, const char *bench_glob,
			  const char *metric_glob, struct pdb_series **out,
			  size_t *n, struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT id, benchmark, dims, metric, unit, direction FROM series"
		" ORDER BY benchmark, dims, metric", err);

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	return pdb_store_series_rows(store, st, bench_glob, metric_glob, out, n, "list series", err);
}

/* For a result without samples: the tool's median (else mean), min, max. */
static int point_stats(struct pdb_store *store, int64_t result_id,
		       struct pdb_history_point *p, struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT name, value FROM stats WHERE result_id = ?"
		" AND name IN ('median', 'p50', 'mean', 'min', 'max')", err);
	double median = NAN, p50 = NAN;
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, result_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		double v = sqlite3_column_type(st, 1) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 1);
		if (strcmp(name, "median") == 0)
			median = v;
		else if (strcmp(name, "p50") == 0)
			p50 = v;
		else if (strcmp(name, "mean") == 0)
			p->mean = v;
		else if (strcmp(name, "min") == 0)
			p->min = v;
		else
			p->max = v;
	}
	sqlite3_finalize(st);
	p->value = pdb_run_value_of_stats(median, p50, p->mean);
	return rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "series history stats");
}

/* The value of one result row: the summary of its samples. */
static void point_values(sqlite3_stmt *st, struct pdb_history_point *p)
{
	struct pdb_result r = { 0 };
	struct pdb_summary sum;
	struct pdb_sample one;
	const unsigned char *blob = sqlite3_column_blob(st, 3);
	const unsigned char *weights = sqlite3_column_blob(st, 4);
	size_t n = (size_t)sqlite3_column_bytes(st, 3) / 8;

	p->value = p->mean = p->min = p->max = NAN; /* its labels are set */
	p->p5 = p->q1 = p->q3 = p->p95 = p->lower = p->upper = NAN;
	p->n = n;
	if (blob && n > 0) {
		/* most points have a single sample: no allocation for those */
		r.samples = n == 1 ? &one : pdb_xmalloc(n * sizeof *r.samples);
		for (size_t k = 0; k < n; k++)
			r.samples[k] = PDB_SAMPLE(NAN);
		r.nsamples = n;
		pdb_store_unpack(blob, n, PDB_PACK_VALUE, r.samples);
		if (weights && (size_t)sqlite3_column_bytes(st, 4) == n * 8)
			pdb_store_unpack(weights, n, PDB_PACK_WEIGHT, r.samples);
		pdb_result_summary(&r, &sum);
		if (r.samples != &one)
			free(r.samples);
		p->value = sum.median;
		p->mean = sum.mean;
		p->min = sum.min;
		p->max = sum.max;
		p->p5 = sum.p5;
		p->q1 = sum.q1;
		p->q3 = sum.q3;
		p->p95 = sum.p95;
	}
}

/* The commit attribute of each point's run. A dense series (points in at
 * least half of the runs lo..hi, stored in the order they were measured)
 * reads the commits of lo..hi in one range scan merged by run id; a sparse
 * one looks each run up (a lookup per row in the main query cost more than
 * the whole scan). */
static int point_commits(struct pdb_store *store, struct pdb_history_point *pts,
			 size_t n, struct pdb_err *err)
{
	int64_t lo = pts[0].run_id, hi = pts[n - 1].run_id;
	int dense = lo <= hi && (uint64_t)(hi - lo) < 2 * (uint64_t)n;

	for (size_t i = 1; dense && i < n; i++)
		dense = pts[i - 1].run_id < pts[i].run_id;
	sqlite3_stmt *st = pdb_store_prepare(store, dense
		/* +key: the primary key's run order, not run_attrs_key and a sort */
		? "SELECT run_id, value FROM run_attrs WHERE run_id >= ?1"
		  " AND run_id <= ?2 AND +key = 'commit' ORDER BY run_id"
		: "SELECT run_id, value FROM run_attrs WHERE run_id = ?1"
		  " AND key = 'commit'", err);
	size_t i = 0, k = 0;
	int rc;

	if (!st)
		return -1;
	do {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, dense ? lo : pts[i].run_id);
		if (dense)
			sqlite3_bind_int64(st, 2, hi);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t id = sqlite3_column_int64(st, 0);

			if (!dense) {
				pts[i].commit = column_dup(st, 1);
				continue;
			}
			while (k < n && pts[k].run_id < id)
				k++;
			if (k < n && pts[k].run_id == id)
				pts[k].commit = column_dup(st, 1);
		}
	} while (rc == SQLITE_DONE && !dense && ++i < n);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "series history commits");
}

static int cmp_point_seq(const void *a, const void *b)
{
	int64_t x = ((const struct pdb_history_point *)a)->seq;
	int64_t y = ((const struct pdb_history_point *)b)->seq;
	return x < y ? -1 : x > y;
}

/* Points read in the order they were stored into the order of runs (most
 * histories are in it already: no sort). */
static void order_points(struct pdb_history_point *pts, size_t n)
{
	for (size_t k = 1; k < n; k++)
		if (pts[k - 1].seq > pts[k].seq) {
			qsort(pts, n, sizeof *pts, cmp_point_seq);
			return;
		}
}

/* The points of a series over the runs of range b, the newest `last` only
 * when last > 0; with labels, each with its run's name, created_at and
 * commit. */
static int read_points(struct pdb_store *store, int64_t series_id, const char *where,
		       const struct pdb_order_bounds *b, size_t last, int labels,
		       struct pdb_history_point **pts, size_t *n, struct pdb_err *err)
{
	struct pdb_buf sql;
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*pts = NULL;
	*n = 0;
	pdb_buf_init(&sql);
	pdb_buf_puts(&sql, labels
		? "SELECT r.id, r.name, r.created_at, res.samples, res.weights, res.id, r.seq"
		: "SELECT res.run_id, NULL, NULL, res.samples, res.weights, res.id, r.seq");
	/* the results of the series by results_series (series_id, run_id) from
	 * lo_id on, each run looked up for its place */
	pdb_buf_puts(&sql, " FROM results res CROSS JOIN runs r ON r.id = res.run_id"
		     " WHERE res.series_id = ?1 AND res.run_id >= ?2 AND r.seq >= ?3 AND r.seq <= ?4"
		     " AND NOT " PDB_FAILED_IN_RUN("res"));
	pdb_store_filter_sql(&sql, where, 5);
	if (last)
		pdb_buf_printf(&sql, " ORDER BY r.seq DESC LIMIT %zu", last);
	st = pdb_store_prepare_kept(store, sql.data, err);
	pdb_buf_release(&sql);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, series_id);
	sqlite3_bind_int64(st, 2, b->lo_id);
	sqlite3_bind_int64(st, 3, b->lo);
	sqlite3_bind_int64(st, 4, b->hi);
	pdb_store_filter_bind(st, where, 5);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pdb_history_point *p;
		pdb_grow((void **)pts, &cap, *n + 1, sizeof **pts);
		p = &(*pts)[(*n)++];
		p->run_id = sqlite3_column_int64(st, 0);
		p->run_name = column_dup(st, 1);
		p->created_at = column_dup(st, 2);
		p->commit = NULL;
		p->seq = sqlite3_column_int64(st, 6);
		point_values(st, p);
		if (p->n == 0 && point_stats(store, sqlite3_column_int64(st, 5), p, err) < 0) {
			rc = SQLITE_ERROR;
			break;
		}
	}
	sqlite3_reset(st);
	order_points(*pts, *n);
	if (rc == SQLITE_DONE && labels && *n > 0 && point_commits(store, *pts, *n, err) < 0)
		rc = SQLITE_ERROR;
	if (rc != SQLITE_DONE) {
		pdb_history_free(*pts, *n);
		*pts = NULL;
		*n = 0;
		return rc == SQLITE_ERROR ? -1 : pdb_store_fail(store, err, "series history");
	}
	return 0;
}

int pdb_store_series_history(struct pdb_store *store, int64_t series_id,
			     const char *where, int64_t since_id, int64_t until_id,
			     struct pdb_history_point **pts, size_t *n,
			     struct pdb_err *err)
{
	struct pdb_order_bounds b;

	*pts = NULL;
	*n = 0;
	if (pdb_store_order_bounds(store, since_id, until_id, &b, err) < 0)
		return -1;
	return read_points(store, series_id, where, &b, 0, 1, pts, n, err);
}

int pdb_store_series_last(struct pdb_store *store, int64_t series_id, const char *where,
			  int64_t until_id, size_t count, struct pdb_history_point **pts,
			  size_t *n, struct pdb_err *err)
{
	struct pdb_order_bounds b;

	*pts = NULL;
	*n = 0;
	if (count == 0 || pdb_store_order_bounds(store, 0, until_id, &b, err) < 0)
		return count == 0 ? 0 : -1;
	return read_points(store, series_id, where, &b, count, 0, pts, n, err);
}

struct series_slot {
	int64_t id;
	size_t index;
};

static int cmp_slot(const void *a, const void *b)
{
	int64_t x = ((const struct series_slot *)a)->id, y = ((const struct series_slot *)b)->id;
	return x < y ? -1 : x > y;
}

int pdb_store_all_points(struct pdb_store *store, const char *where, int64_t since_id,
			 const struct pdb_series *series, size_t nseries,
			 struct pdb_history_point **pts, size_t *n, struct pdb_err *err)
{
	struct series_slot *slots = pdb_xmalloc((nseries + 1) * sizeof *slots);
	size_t *cap = pdb_xcalloc(nseries + 1, sizeof *cap);
	struct pdb_order_bounds b;
	struct pdb_buf sql;
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_ERROR;

	for (size_t i = 0; i < nseries; i++) {
		slots[i] = (struct series_slot){ series[i].id, i };
		pts[i] = NULL;
		n[i] = 0;
	}
	qsort(slots, nseries, sizeof *slots, cmp_slot);
	pdb_buf_init(&sql);
	/* the columns of read_points; one pass over the results in the order
	 * they are stored costs less than a range scan of each series' index
	 * and a lookup of each of its rows */
	pdb_buf_puts(&sql, "SELECT res.run_id, NULL, NULL, res.samples, res.weights, res.id,"
		     " res.series_id, r.seq FROM results res CROSS JOIN runs r ON r.id = res.run_id"
		     " WHERE +res.run_id >= ?1 AND r.seq >= ?2 AND NOT " PDB_FAILED_IN_RUN("res"));
	pdb_store_filter_sql(&sql, where, 3);
	if (pdb_store_order_bounds(store, since_id, 0, &b, err) == 0)
		st = pdb_store_prepare(store, sql.data, err);
	pdb_buf_release(&sql);
	if (!st)
		goto out;
	sqlite3_bind_int64(st, 1, b.lo_id);
	sqlite3_bind_int64(st, 2, b.lo);
	pdb_store_filter_bind(st, where, 3);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct series_slot key = { sqlite3_column_int64(st, 6), 0 }, *slot;
		struct pdb_history_point *p;

		slot = bsearch(&key, slots, nseries, sizeof *slots, cmp_slot);
		if (!slot)
			continue;
		pdb_grow((void **)&pts[slot->index], &cap[slot->index], n[slot->index] + 1,
			 sizeof **pts);
		p = &pts[slot->index][n[slot->index]++];
		memset(p, 0, sizeof *p);
		p->run_id = sqlite3_column_int64(st, 0);
		p->seq = sqlite3_column_int64(st, 7);
		point_values(st, p);
		if (p->n == 0 && point_stats(store, sqlite3_column_int64(st, 5), p, err) < 0) {
			rc = SQLITE_ERROR;
			break;
		}
	}
	sqlite3_finalize(st);
	for (size_t i = 0; rc == SQLITE_DONE && i < nseries; i++)
		order_points(pts[i], n[i]);
out:
	free(slots);
	free(cap);
	if (rc == SQLITE_DONE)
		return 0;
	for (size_t i = 0; i < nseries; i++) {
		pdb_history_free(pts[i], n[i]);
		pts[i] = NULL;
		n[i] = 0;
	}
	return rc == SQLITE_ERROR ? -1 : pdb_store_fail(store, err, "series points");
}

int pdb_store_count_until(struct pdb_store *store, const char *where, int64_t until_id,
			  size_t *count, struct pdb_err *err)
{
	struct pdb_order_bounds b;
	struct pdb_buf sql;
	sqlite3_stmt *st = NULL;
	int rc;

	*count = 0;
	pdb_buf_init(&sql);
	pdb_buf_puts(&sql, "SELECT count(*) FROM runs r WHERE r.seq >= ?1 AND r.seq <= ?2");
	pdb_store_filter_sql(&sql, where, 3);
	if (pdb_store_order_bounds(store, 0, until_id, &b, err) == 0)
		st = pdb_store_prepare(store, sql.data, err);
	pdb_buf_release(&sql);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, b.lo);
	sqlite3_bind_int64(st, 2, b.hi);
	pdb_store_filter_bind(st, where, 3);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*count = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : pdb_store_fail(store, err, "count runs");
}

int pdb_store_series_values(struct pdb_store *store, int64_t series_id,
			    const char *where, int64_t since_id, int64_t after_run,
			    struct pdb_series_values *v, struct pdb_err *err)
{
	struct pdb_history_point *pts;
	struct pdb_order_bounds b;
	int64_t after = 0;
	size_t n;

	if (pdb_store_order_bounds(store, since_id, 0, &b, err) < 0 ||
	    pdb_store_run_seq(store, after_run, &after, err) < 0)
		return -1;
	if (after_run > 0 && after == 0)
		return pdb_err_set(err, PDB_EXIT_INPUT, "run%lld is not stored", (long long)after_run);
	/* one lower bound on run_id: with two, SQLite would bound its index
	 * range by one and filter every row of the series by the other */
	if (after >= b.lo) {
		b.lo = after + 1;
		if (pdb_store_order_lo_id(store, &b, err) < 0)
			return -1;
	}
	if (read_points(store, series_id, where, &b, 0, 0, &pts, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		v->last_run = pts[i].run_id;
		v->rows++;
		if (!isfinite(pts[i].value))
			continue;
		if (v->n == v->cap) {
			v->cap = v->cap ? 2 * v->cap : 64;
			v->run_ids = pdb_xrealloc(v->run_ids, v->cap * sizeof *v->run_ids);
			v->values = pdb_xrealloc(v->values, v->cap * sizeof *v->values);
		}
		v->run_ids[v->n] = pts[i].run_id;
		v->values[v->n++] = pts[i].value;
	}
	pdb_history_free(pts, n);
	return 0;
}

void pdb_series_values_release(struct pdb_series_values *v)
{
	if (!v)
		return;
	free(v->run_ids);
	free(v->values);
	memset(v, 0, sizeof *v);
}

int pdb_store_series_failures(struct pdb_store *store, const struct pdb_series *series,
			      const char *where, int64_t since_id, int64_t until_id,
			      struct pdb_history_point **pts, size_t *n, struct pdb_err *err)
{
	struct pdb_order_bounds b;
	struct pdb_buf sql;
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*pts = NULL;
	*n = 0;
	if (pdb_store_order_bounds(store, since_id, until_id, &b, err) < 0)
		return -1;
	pdb_buf_init(&sql);
	pdb_buf_puts(&sql, "SELECT f.run_id, r.seq FROM failures f JOIN runs r ON r.id = f.run_id"
		     " WHERE f.benchmark = ?1 AND f.dims = ?2 AND r.seq >= ?3 AND r.seq <= ?4");
	pdb_store_filter_sql(&sql, where, 5);
	pdb_buf_puts(&sql, " ORDER BY r.seq");
	st = pdb_store_prepare(store, sql.data, err);
	pdb_buf_release(&sql);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, series->benchmark, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, series->dims ? series->dims : "{}", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, b.lo);
	sqlite3_bind_int64(st, 4, b.hi);
	pdb_store_filter_bind(st, where, 5);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pdb_history_point *p;
		pdb_grow((void **)pts, &cap, *n + 1, sizeof **pts);
		p = &(*pts)[(*n)++];
		pdb_history_point_init(p, sqlite3_column_int64(st, 0));
		p->seq = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	for (size_t i = 0; rc == SQLITE_DONE && i < *n; i++)
		if (pdb_store_point_label(store, &(*pts)[i], err) < 0)
			rc = SQLITE_ERROR;
	if (rc == SQLITE_DONE)
		return 0;
	pdb_history_free(*pts, *n);
	*pts = NULL;
	*n = 0;
	return rc == SQLITE_ERROR ? -1 : pdb_store_fail(store, err, "series failures");
}

int pdb_store_point_label(struct pdb_store *store, struct pdb_history_point *p,
			  struct pdb_err *err)
{
	sqlite3_stmt *st = pdb_store_prepare(store,
		"SELECT r.name, r.created_at, a.value FROM runs r"
		" LEFT JOIN run_attrs a ON a.run_id = r.id AND a.key = 'commit'"
		" WHERE r.id = ?1", err);
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, p->run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		p->run_name = column_dup(st, 0);
		p->created_at = column_dup(st, 1);
		p->commit = column_dup(st, 2);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "run label");
}

int pdb_store_series_bounds(struct pdb_store *store, int64_t series_id,
			    struct pdb_history_point *pts, size_t n, struct pdb_err *err)
{
	sqlite3_stmt *st;
	size_t k = 0;
	int rc;

	if (n == 0)
		return 0;
	st = pdb_store_prepare(store,
		"SELECT r.seq, s.name, s.value FROM results res"
		" JOIN runs r ON r.id = res.run_id"
		" JOIN stats s ON s.result_id = res.id AND s.name IN ('lower_value', 'upper_value')"
		" WHERE res.series_id = ?1 AND r.seq >= ?2 AND r.seq <= ?3"
		" ORDER BY r.seq", err);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, series_id);
	sqlite3_bind_int64(st, 2, pts[0].seq);
	sqlite3_bind_int64(st, 3, pts[n - 1].seq);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t seq = sqlite3_column_int64(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		double v = sqlite3_column_type(st, 2) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 2);

		while (k < n && pts[k].seq < seq)
			k++;
		if (k < n && pts[k].seq == seq)
			*(strcmp(name, "lower_value") == 0 ? &pts[k].lower : &pts[k].upper) = v;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : pdb_store_fail(store, err, "series bounds");
}

int pdb_store_has_bounds(struct pdb_store *store, int *yes, struct pdb_err *err)
{
	return pdb_store_query_int(store, "SELECT EXISTS (SELECT 1 FROM stats WHERE name IN"
				   " ('lower_value', 'upper_value'))", yes, "bounds", err);
}
