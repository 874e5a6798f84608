/* Site: the runs and series of the site read from the store, their change points, in attention order. */
#include "site/site_internal.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "branches.h"
#include "compare_config.h"
#include "gather/detect_gather.h"
#include "detect_wall.h"

/* for qsort, which has no context argument; one per thread, as lib/table.c's */
static _Thread_local const struct site *sort_site;

/* Each point's run name, time and commit, from the runs already read. */
static void label_points(const struct site *s, struct site_series *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		struct pdb_history_point *p = &ss->pts[i];
		const struct site_run *r = site_find_run(s, p->run_id);
		const char *commit = r ? pdb_run_row_attr(r->row, "commit") : NULL;

		if (!r)
			continue;
		p->run_name = r->row->name ? pdb_xstrdup(r->row->name) : NULL;
		p->created_at = pdb_xstrdup(r->row->created_at);
		p->commit = commit ? pdb_xstrdup(commit) : NULL;
	}
}

static _Thread_local const struct site *sort_runs_site; /* for qsort, as sort_site */

static int cmp_run_at(const void *a, const void *b)
{
	int64_t x = sort_runs_site->runs[*(const size_t *)a].row->id;
	int64_t y = sort_runs_site->runs[*(const size_t *)b].row->id;

	return x < y ? -1 : x > y;
}

/* The selected runs in the order of runs, each with the run it is compared with. */
static int gather_runs(struct site *s, struct pdb_err *err)
{
	struct pdb_run_filter f = { .count_series = 1 }; /* the index and run pages say them */
	int64_t *ids = NULL;
	size_t nids = 0;
	char *note;

	if (pdb_store_list_runs(s->store, &f, &s->rows, &s->nrows, err) < 0)
		return -1;
	s->since_seq = pdb_run_rows_seq(s->rows, s->nrows, s->since_id);
	/* runs of several branches are not one history: without --where the
	 * site shows the branch of the rule, and its index names the others */
	pdb_history_where_of(s->rows, s->nrows, s->since_seq, s->opts->where, &s->where, &note,
			     &s->branches, &s->nbranches);
	if (note)
		site_note(s, "%s", note);
	free(note);
	if (pdb_store_run_ids(s->store, s->where, &ids, &nids, err) < 0)
		return -1;
	if (nids == 0 && s->opts->where) { /* a typo would empty a published site */
		free(ids);
		return pdb_err_set(err, PDB_EXIT_INPUT, "--where %s: no run matches",
				   s->opts->where);
	}
	s->runs = pdb_xcalloc(nids + 1, sizeof *s->runs);
	s->by_id = pdb_xcalloc(nids + 1, sizeof *s->by_id);
	if (nids)
		qsort(ids, nids, sizeof *ids, pdb_cmp_int64);
	/* rows are newest first */
	for (size_t i = s->nrows; i-- > 0;) {
		const struct pdb_run_row *r = &s->rows[i];
		if (!bsearch(&r->id, ids, nids, sizeof *ids, pdb_cmp_int64) || r->seq < s->since_seq)
			continue;
		s->runs[s->nruns].row = r;
		s->runs[s->nruns].file = pdb_xasprintf("r/run%lld.html", (long long)r->id);
		s->by_id[s->nruns] = s->nruns;
		s->nruns++;
	}
	free(ids);
	sort_runs_site = s;
	qsort(s->by_id, s->nruns, sizeof *s->by_id, cmp_run_at);
	for (size_t i = 0; i < s->nruns; i++) {
		struct site_run *run = &s->runs[i];

		s->branches_mixed |= !pdb_branch_same(run->row, s->runs[0].row);
		run->newest = 1;
		for (size_t j = i + 1; j < s->nruns && run->newest; j++)
			run->newest = !pdb_branch_same(s->runs[j].row, run->row);
	}
	return 0;
}

static int cmp_series_key(const void *pa, const void *pb)
{
	const struct pdb_series *a = sort_site->series[*(const size_t *)pa].s;
	const struct pdb_series *b = sort_site->series[*(const size_t *)pb].s;
	int c = strcmp(a->benchmark, b->benchmark);

	return c ? c : strcmp(a->dims, b->dims);
}

/* The series of a benchmark and dims: order[*lo, *hi) of the series sorted by them. */
static void series_of_key(const struct site *s, const size_t *order, const char *benchmark,
			  const char *dims, size_t *lo, size_t *hi)
{
	size_t a = 0, b = s->nseries;

	while (a < b) {
		size_t mid = a + (b - a) / 2;
		const struct pdb_series *m = s->series[order[mid]].s;
		int c = strcmp(m->benchmark, benchmark);
		if ((c ? c : strcmp(m->dims, dims)) < 0)
			a = mid + 1;
		else
			b = mid;
	}
	*lo = *hi = a;
	while (*hi < s->nseries && strcmp(s->series[order[*hi]].s->benchmark, benchmark) == 0 &&
	       strcmp(s->series[order[*hi]].s->dims, dims) == 0)
		(*hi)++;
}

/* The tool of the run that failure f is in. */
static const char *tool_of(const struct site *s, const struct site_failure *f)
{
	const struct pdb_run_row *r = site_find_run(s, f->row->run_id)->row;

	return pdb_run_tool_of(r->tool, r->format);
}

/* Whether the run ran the benchmark of failure f: a value of it, or a
 * failure, in a run of f's tool (another tool's benchmark of that name is
 * another benchmark). */
static int ran(const struct site *s, const size_t *order, size_t lo, size_t hi,
	       const struct site_run *run, const struct site_failure *f)
{
	if (!pdb_same_tool(pdb_run_tool_of(run->row->tool, run->row->format), tool_of(s, f)))
		return 0;
	for (size_t k = lo; k < hi; k++)
		if (site_point_at(&s->series[order[k]], run))
			return 1;
	return site_failure_in(s, run, f->row->benchmark, f->row->dims) != NULL;
}

/* Whether f, in run r, is the newest news of its benchmark on r's branch:
 * no later run of the branch ran it. Then its since: the first run of the
 * failures before it on the branch, over runs that did not run it, up to
 * a run with a value (else to the first run of the site: since_open). */
static int failing_now(struct site *s, const size_t *order, const struct site_run *r,
		       struct site_failure *f)
{
	size_t lo, hi, i = (size_t)(r - s->runs);
	int stopped = 0;

	series_of_key(s, order, f->row->benchmark, f->row->dims, &lo, &hi);
	for (size_t j = i + 1; j < s->nruns; j++)
		if (pdb_branch_same(s->runs[j].row, r->row) && ran(s, order, lo, hi, &s->runs[j], f))
			return 0;
	f->since = r->row->id;
	for (size_t j = i; j-- > 0 && !stopped;) {
		const struct site_run *q = &s->runs[j];
		if (!pdb_branch_same(q->row, r->row) ||
		    !pdb_same_tool(pdb_run_tool_of(q->row->tool, q->row->format), tool_of(s, f)))
			continue;
		if (site_failure_in(s, q, f->row->benchmark, f->row->dims))
			f->since = q->row->id;
		else
			stopped = ran(s, order, lo, hi, q, f);
	}
	f->since_open = !stopped && s->since_id > 0;
	return 1;
}

/* The failures of the selected runs, and which of them fail now. */
static int gather_failures(struct site *s, struct pdb_err *err)
{
	size_t *order;

	if (pdb_store_failure_rows(s->store, s->since_id, &s->frows, &s->nfrows, err) < 0)
		return -1;
	s->failures = pdb_xcalloc(s->nfrows + 1, sizeof *s->failures);
	for (size_t i = 0; i < s->nfrows; i++) {
		struct site_run *run = (struct site_run *)site_find_run(s, s->frows[i].run_id);
		struct site_failure *f = &s->failures[s->nfailures];

		if (!run)
			continue;
		if (!run->nfail)
			run->fail = s->nfailures;
		run->nfail++;
		f->row = &s->frows[i];
		f->dims = pdb_dims_json_display(f->row->dims);
		s->nfailures++;
	}
	order = pdb_xmalloc((s->nseries + 1) * sizeof *order);
	for (size_t i = 0; i < s->nseries; i++)
		order[i] = i;
	sort_site = s;
	qsort(order, s->nseries, sizeof *order, cmp_series_key);
	s->failing = pdb_xcalloc(s->nfailures + 1, sizeof *s->failing);
	for (size_t i = 0; i < s->nruns; i++)
		for (size_t k = s->runs[i].fail; k < s->runs[i].fail + s->runs[i].nfail; k++)
			if (failing_now(s, order, &s->runs[i], &s->failures[k]))
				s->failing[s->nfailing++] = &s->failures[k];
	free(order);
	return 0;
}

/* What fails now of the series' benchmark and dims (the newest), or NULL. */
static const struct site_failure *failing_of(const struct site *s, const struct site_series *ss)
{
	for (size_t i = s->nfailing; i-- > 0;)
		if (strcmp(s->failing[i]->row->benchmark, ss->s->benchmark) == 0 &&
		    strcmp(s->failing[i]->row->dims, ss->s->dims) == 0 &&
		    site_series_of_tool(s, ss, tool_of(s, s->failing[i])))
			return s->failing[i];
	return NULL;
}

static void drop_missing(struct site_series *ss)
{
	size_t k = 0;

	for (size_t i = 0; i < ss->n; i++) {
		if (isfinite(ss->pts[i].value)) {
			ss->pts[k++] = ss->pts[i];
		} else {
			free(ss->pts[i].run_name);
			free(ss->pts[i].created_at);
			free(ss->pts[i].commit);
		}
	}
	ss->n = k;
}

static int changed_of(const struct site_series *ss)
{
	int att = ATT_NONE;

	for (size_t k = 0; k < ss->res.ncps; k++) {
		const struct pdb_change_point *cp = &ss->res.cps[k];
		if (ss->n - cp->index > SITE_RECENT || cp->cpu_steady)
			continue;
		if (cp->regression)
			return ATT_REGRESSION;
		att = ATT_CHANGE;
	}
	return att;
}

static uint64_t series_key(const struct site_series *ss)
{
	uint64_t h = site_hash(SITE_HASH_START, &ss->s->id, sizeof ss->s->id);

	h = site_hash_str(h, ss->s->unit);
	h = site_hash(h, &ss->s->direction, sizeof ss->s->direction);
	if (ss->failing) {
		h = site_hash(h, &ss->failing->row->run_id, sizeof ss->failing->row->run_id);
		h = site_hash(h, &ss->failing->since, sizeof ss->failing->since);
		h = site_hash(h, &ss->failing->since_open, sizeof ss->failing->since_open);
	}
	for (size_t i = 0; i < ss->n; i++) {
		h = site_hash(h, &ss->pts[i].run_id, sizeof ss->pts[i].run_id);
		h = site_hash(h, &ss->pts[i].value, sizeof ss->pts[i].value);
	}
	return h;
}

/* What each series calls for, now that failures are known, and its key. */
static void series_attention(struct site *s)
{
	for (size_t i = 0; i < s->nseries; i++) {
		struct site_series *ss = &s->series[i];
		ss->failing = failing_of(s, ss);
		ss->attention = ss->failing ? ATT_FAILED : ss->changed;
		ss->key = series_key(ss);
	}
}

/* The history of one series (its points, read: ss->pts, ss->n) and its
 * change points; the split resumes from the detect cache and *next receives
 * the state to cache. */
static int gather_series(struct site *s, struct site_series *ss, struct pdb_detect_state *next,
			 struct pdb_err *err)
{
	struct pdb_detect_opts o;
	double *x;
	int rc;

	drop_missing(ss);
	label_points(s, ss);
	if (ss->n == 0)
		return 0;
	if (s->bounds && pdb_store_series_bounds(s->store, ss->s->id, ss->pts, ss->n, err) < 0)
		return -1;
	x = pdb_xmalloc(ss->n * sizeof *x);
	for (size_t i = 0; i < ss->n; i++)
		x[i] = ss->pts[i].value;
	pdb_detect_opts_init(&o);
	pdb_detect_opts_for(&o, ss->s->metric, ss->s->unit, ss->s->direction);
	rc = pdb_detect_resumed(s->store, ss->s->id, s->params, 1, x, ss->n, &o, next, &ss->res,
				err);
	free(x);
	ss->changed = changed_of(ss);
	return rc;
}

static void series_release(struct site_series *ss)
{
	free(ss->dims);
	pdb_history_free(ss->pts, ss->n);
	pdb_detect_result_release(&ss->res);
	memset(ss, 0, sizeof *ss);
}

/* Wall-time change points against the CPU time of their benchmark, as
 * detect checks them (pdb_detect_check_wall), and what each series then
 * calls for. */
static void check_wall(struct site *s)
{
	struct pdb_detect_view *v = pdb_xcalloc(s->nseries + 1, sizeof *v);

	for (size_t i = 0; i < s->nseries; i++) {
		struct site_series *ss = &s->series[i];
		int64_t *ids = pdb_xcalloc(ss->n + 1, sizeof *ids);
		double *x = pdb_xcalloc(ss->n + 1, sizeof *x);

		for (size_t k = 0; k < ss->n; k++) {
			ids[k] = ss->pts[k].run_id;
			x[k] = ss->pts[k].value;
		}
		v[i] = (struct pdb_detect_view){ .benchmark = ss->s->benchmark, .dims = ss->s->dims,
			.metric = ss->s->metric, .run_ids = ids, .values = x, .n = ss->n,
			.res = &ss->res };
	}
	pdb_detect_check_wall(v, s->nseries);
	for (size_t i = 0; i < s->nseries; i++) {
		free((void *)v[i].run_ids);
		free((void *)v[i].values);
		s->series[i].changed = changed_of(&s->series[i]);
	}
	free(v);
}

static int gather_all_series(struct site *s, struct pdb_err *err)
{
	struct pdb_detect_opts o;
	struct pdb_history_point **pts;
	size_t *npts, next = 0;
	int rc = -1;

	if (pdb_store_list_series(s->store, NULL, NULL, &s->all, &s->nall, err) < 0 ||
	    pdb_store_has_bounds(s->store, &s->bounds, err) < 0)
		return -1;
	pts = pdb_xcalloc(s->nall + 1, sizeof *pts);
	npts = pdb_xcalloc(s->nall + 1, sizeof *npts);
	if (pdb_store_all_points(s->store, s->where, s->since_id, s->all, s->nall, pts,
				 npts, err) < 0) {
		free(pts);
		free(npts);
		return -1;
	}
	pdb_detect_opts_init(&o);
	s->params = pdb_detect_params(&o, s->since_id, s->where);
	s->series = pdb_xcalloc(s->nall + 1, sizeof *s->series);
	s->states = pdb_xcalloc(s->nall + 1, sizeof *s->states);
	s->entries = pdb_xcalloc(s->nall + 1, sizeof *s->entries);
	for (size_t i = 0; i < s->nall; i++) {
		struct site_series *ss = &s->series[s->nseries];

		ss->s = &s->all[i];
		ss->pts = pts[i];
		ss->n = npts[i];
		next = i + 1;
		if (gather_series(s, ss, &s->states[s->nentries], err) < 0) {
			series_release(ss);
			goto out;
		}
		if (ss->n == 0) {
			series_release(ss);
			continue;
		}
		ss->dims = pdb_dims_json_display(ss->s->dims);
		s->entries[s->nentries].series_id = ss->s->id;
		s->entries[s->nentries].state = &s->states[s->nentries];
		s->nentries++;
		s->nseries++;
	}
	check_wall(s);
	rc = 0;
out:
	for (size_t i = next; i < s->nall; i++) /* not handed to a series */
		pdb_history_free(pts[i], npts[i]);
	free(pts);
	free(npts);
	return rc;
}

/* The file of a benchmark's page: its name with what is not [A-Za-z0-9._-]
 * replaced by '_', a '.' first too (a file whose name starts with a dot is
 * hidden, and static hosts skip it: "./bin/x", ".."), and then, when a
 * character was replaced (or the name is empty), a hash of the name so that
 * two names stay two files. */
static char *bench_file(const char *name)
{
	struct pdb_buf b;
	int plain = *name != '\0';

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "b/");
	for (const char *p = name; *p && b.len < 80; p++) {
		int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			 (*p >= '0' && *p <= '9') || (*p == '.' && p != name) || *p == '_' ||
			 *p == '-';
		plain &= ok;
		pdb_buf_add(&b, ok ? p : "_", 1);
	}
	plain &= strlen(name) + 2 == b.len;
	if (!plain)
		pdb_buf_printf(&b, "-%08llx",
			       (unsigned long long)(site_hash_str(SITE_HASH_START, name) & 0xffffffffULL));
	pdb_buf_puts(&b, ".html");
	return b.data;
}

static int cmp_file_then_name(const void *pa, const void *pb)
{
	const struct site_bench *a = *(const struct site_bench *const *)pa;
	const struct site_bench *b = *(const struct site_bench *const *)pb;
	int c = strcasecmp(a->file, b->file);

	return c ? c : strcmp(a->name, b->name);
}

/* Page files that differ in case only, or whose hashes met, would be one file
 * (on a case-insensitive disk, or always): the first by name keeps its file,
 * the others become "NAME~2.html", "NAME~3.html" ('~' is in no other page's
 * name, so these cannot meet a page again). */
static void unique_bench_files(struct site *s)
{
	struct site_bench **by = pdb_xmalloc((s->nbenches + 1) * sizeof *by);

	for (size_t i = 0; i < s->nbenches; i++)
		by[i] = &s->benches[i];
	qsort(by, s->nbenches, sizeof *by, cmp_file_then_name);
	for (size_t i = 1, first = 0; i < s->nbenches; i++) {
		char *f = by[i]->file;
		if (strcasecmp(f, by[first]->file) != 0) {
			first = i; /* the group's first keeps its file */
			continue;
		}
		by[i]->file = pdb_xasprintf("%.*s~%zu.html", (int)(strlen(f) - 5), f, i - first + 1);
		free(f);
	}
	free(by);
}

static int cmp_series(const void *pa, const void *pb)
{
	const struct site_series *a = &sort_site->series[*(const size_t *)pa];
	const struct site_series *b = &sort_site->series[*(const size_t *)pb];

	if (a->attention != b->attention)
		return a->attention - b->attention;
	return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

static int cmp_bench(const void *pa, const void *pb)
{
	const struct site_bench *a = pa, *b = pb;
	int c = strcmp(a->group, b->group);

	if (a->group_attention != b->group_attention)
		return a->group_attention - b->group_attention;
	if (c)
		return c;
	if (a->attention != b->attention)
		return a->attention - b->attention;
	return strcmp(a->name, b->name);
}

static int cmp_group(const void *pa, const void *pb)
{
	const struct site_bench *a = pa, *b = pb;
	int c = strcmp(a->group, b->group);

	return c ? c : strcmp(a->name, b->name);
}

/* Benchmarks from the series (listed by benchmark), each with its series
 * in attention order. */
static void gather_benches(struct site *s)
{
	s->benches = pdb_xcalloc(s->nseries + 1, sizeof *s->benches);
	for (size_t i = 0; i < s->nseries; i++) {
		struct site_series *ss = &s->series[i];
		struct site_bench *b = s->nbenches ? &s->benches[s->nbenches - 1] : NULL;

		if (!b || strcmp(b->name, ss->s->benchmark) != 0) {
			const char *slash = strchr(ss->s->benchmark, '/');
			b = &s->benches[s->nbenches++];
			b->name = pdb_xstrdup(ss->s->benchmark);
			b->group = slash ? pdb_xstrndup(b->name, (size_t)(slash - ss->s->benchmark))
					 : pdb_xstrdup("");
			b->file = bench_file(b->name);
			b->series = pdb_xmalloc((s->nseries - i) * sizeof *b->series);
			b->attention = ATT_NONE;
		}
		b->series[b->n++] = i;
		if (ss->attention < b->attention)
			b->attention = ss->attention;
	}
	/* a group's attention: the most urgent of its benchmarks */
	qsort(s->benches, s->nbenches, sizeof *s->benches, cmp_group);
	for (size_t i = 0, j; i < s->nbenches; i = j) {
		int att = ATT_NONE;
		for (j = i; j < s->nbenches && strcmp(s->benches[j].group, s->benches[i].group) == 0; j++)
			att = s->benches[j].attention < att ? s->benches[j].attention : att;
		for (size_t k = i; k < j; k++)
			s->benches[k].group_attention = att;
	}
	sort_site = s;
	for (size_t i = 0; i < s->nbenches; i++)
		qsort(s->benches[i].series, s->benches[i].n, sizeof *s->benches[i].series, cmp_series);
	qsort(s->benches, s->nbenches, sizeof *s->benches, cmp_bench);
	unique_bench_files(s);
	for (size_t i = 0; i < s->nbenches; i++)
		for (size_t k = 0; k < s->benches[i].n; k++)
			s->series[s->benches[i].series[k]].bench = i;
}

static int cmp_bench_name(const void *a, const void *b)
{
	return strcmp((*(const struct site_bench *const *)a)->name,
		      (*(const struct site_bench *const *)b)->name);
}

/* Each failure's benchmark page (when it has one), and each page's failures. */
static void bench_failures(struct site *s)
{
	const struct site_bench **by_name = pdb_xmalloc((s->nbenches + 1) * sizeof *by_name);

	for (size_t i = 0; i < s->nbenches; i++) {
		by_name[i] = &s->benches[i];
		s->benches[i].failed_key = SITE_HASH_START;
	}
	qsort(by_name, s->nbenches, sizeof *by_name, cmp_bench_name);
	for (size_t i = 0; i < s->nfailures; i++) {
		struct site_failure *f = &s->failures[i];
		struct site_bench key = { .name = f->row->benchmark }, *b;
		const struct site_bench *kp = &key, **found;

		found = bsearch(&kp, by_name, s->nbenches, sizeof *by_name, cmp_bench_name);
		if (!found)
			continue;
		f->bench = *found;
		b = (struct site_bench *)f->bench;
		b->nfailed++;
		b->failed_key = site_hash(b->failed_key, &f->row->run_id, sizeof f->row->run_id);
		b->failed_key = site_hash_str(b->failed_key, f->row->dims);
		b->failed_key = site_hash_str(b->failed_key, f->row->reason);
		b->failed_key = site_hash(b->failed_key, &f->since, sizeof f->since);
		b->failed_key = site_hash(b->failed_key, &f->since_open, sizeof f->since_open);
		/* the run's link shows its name */
		b->failed_key = site_hash_str(b->failed_key, site_find_run(s, f->row->run_id)->row->name);
	}
	free(by_name);
}

static void run_values(struct site *s)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < s->nseries; i++) {
			const struct site_series *ss = &s->series[i];
			for (size_t k = 0; k < ss->n; k++) {
				struct site_run *r = (struct site_run *)site_find_run(s, ss->pts[k].run_id);
				if (!r)
					continue;
				if (pass == 1)
					r->values[r->nvalues] = (struct site_value){ i, k };
				r->nvalues++;
			}
		}
		for (size_t i = 0; pass == 0 && i < s->nruns; i++) {
			s->runs[i].values = pdb_xmalloc((s->runs[i].nvalues + 1) *
							sizeof *s->runs[i].values);
			s->runs[i].nvalues = 0;
		}
	}
}

/* Whether run q has a value of a series that run r has. */
static int shares(const struct site *s, const struct site_run *r, const struct site_run *q)
{
	for (size_t v = 0; v < r->nvalues; v++)
		if (site_point_at(&s->series[r->values[v].series], q))
			return 1;
	return 0;
}

static const struct pdb_run_row *history_row(void *ctx, size_t i)
{
	return ((const struct site *)ctx)->runs[i].row;
}

static int history_shares(void *ctx, size_t a, size_t b)
{
	const struct site *s = ctx;

	return shares(s, &s->runs[a], &s->runs[b]);
}

/* The run each run is compared with, by the baseline rule (lib/branches.h);
 * 0 when none. */
static void run_prevs(struct site *s)
{
	struct pdb_baseline_history h = { s->nruns, history_row, NULL, history_shares, s };
	size_t base;

	for (size_t i = 0; i < s->nruns; i++)
		if (pdb_baseline_index(&h, i, &base) == 1)
			s->runs[i].prev = s->runs[base].row->id;
}

/* The comparison's configuration, for the keys of the pages that show one. */
static uint64_t config_hash(const struct pdb_compare_config *cfg)
{
	uint64_t h = SITE_HASH_START;

	if (!cfg)
		return h;
	h = site_hash(h, &cfg->alpha, sizeof cfg->alpha);
	h = site_hash(h, &cfg->threshold_pct, sizeof cfg->threshold_pct);
	h = site_hash(h, &cfg->warn_pct, sizeof cfg->warn_pct);
	for (size_t i = 0; i < cfg->nrules; i++) {
		const struct pdb_compare_rule *r = &cfg->rules[i];
		int flags[3] = { r->direction, r->has_direction, r->ignore };
		h = site_hash_str(h, r->benchmark);
		h = site_hash_str(h, r->metric);
		h = site_hash(h, &r->threshold_pct, sizeof r->threshold_pct);
		h = site_hash(h, &r->warn_pct, sizeof r->warn_pct);
		h = site_hash(h, flags, sizeof flags);
	}
	return h;
}

/* A run's page shows its values, those of the run it is compared with and
 * whether a change point or an outlier is at it; the newest run of a branch
 * also the statistical comparison (whose band may come from the runs
 * before): its key covers all of them. */
static void run_keys(struct site *s)
{
	uint64_t *values = pdb_xmalloc((s->nruns + 1) * sizeof *values), before = SITE_HASH_START;
	uint64_t config = config_hash(s->opts->config);

	for (size_t i = 0; i < s->nruns; i++) {
		values[i] = SITE_HASH_START;
		for (size_t v = 0; v < s->runs[i].nvalues; v++) {
			const struct site_series *ss = &s->series[s->runs[i].values[v].series];
			size_t k = s->runs[i].values[v].k;
			values[i] = site_hash(values[i], &ss->s->id, sizeof ss->s->id);
			values[i] = site_hash(values[i], &ss->pts[k].value, sizeof ss->pts[k].value);
			for (size_t c = 0; c < ss->res.ncps; c++) {
				const struct pdb_change_point *cp = &ss->res.cps[c];
				int flags = cp->regression | cp->improvement << 1 | cp->confirmed << 2 |
					    cp->tentative << 3;
				if (cp->index != k)
					continue;
				values[i] = site_hash(values[i], &flags, sizeof flags);
			}
			for (size_t c = 0; c < ss->res.noutliers; c++)
				if (ss->res.outliers[c].index == k)
					values[i] = site_hash(values[i], &c, sizeof c);
		}
	}
	for (size_t i = 0; i < s->nruns; i++) {
		struct site_run *r = &s->runs[i];
		const struct site_run *p = r->prev ? site_find_run(s, r->prev) : NULL;
		uint64_t h = site_hash(r->newest ? before : SITE_HASH_START, &r->prev, sizeof r->prev);

		before = site_hash(before, &r->row->id, sizeof r->row->id);
		r->shown = site_hash(SITE_HASH_START, &r->row->id, sizeof r->row->id);
		r->shown = site_hash_str(r->shown, r->row->name);
		r->shown = site_hash_str(r->shown, r->row->created_at);
		for (size_t k = 0; k < r->row->nattrs; k++) {
			r->shown = site_hash_str(r->shown, r->row->attrs[k].key);
			r->shown = site_hash_str(r->shown, r->row->attrs[k].value);
		}
		h = site_hash(h, &r->shown, sizeof r->shown);
		h = site_hash(h, &r->newest, sizeof r->newest);
		if (r->newest)
			h = site_hash(h, &config, sizeof config);
		h = site_hash_str(h, r->row->status);
		h = site_hash_str(h, r->row->tool);
		h = site_hash_str(h, r->row->format);
		h = site_hash(h, &values[i], sizeof values[i]);
		for (size_t k = r->fail; k < r->fail + r->nfail; k++) {
			const struct site_failure *f = &s->failures[k];
			int page = f->bench != NULL;
			h = site_hash_str(h, f->row->benchmark);
			h = site_hash_str(h, f->row->dims);
			h = site_hash_str(h, f->row->reason);
			h = site_hash(h, &f->since, sizeof f->since);
			h = site_hash(h, &f->since_open, sizeof f->since_open);
			h = site_hash(h, &page, sizeof page);
		}
		if (p)
			h = site_hash(h, &values[p - s->runs], sizeof values[0]);
		r->key = h;
	}
	free(values);
}

/* Everything is read in one read transaction, and the detect cache (shared
 * with perfdb detect) saved in it at the end: a cache never holds what
 * another process changed meanwhile. */
int site_gather(struct site *s, struct pdb_err *err)
{
	const char *note;
	size_t fewer;

	if (pdb_store_begin_read(s->store, err) < 0)
		return -1;
	if (s->opts->since &&
	    pdb_store_resolve_since(s->store, s->opts->since, &s->since_id, &fewer, err) < 0)
		goto fail;
	if (s->opts->since && fewer)
		site_note(s, "--since %s: only %zu run%s match%s: all of them, from run%lld",
			  s->opts->since, fewer, fewer == 1 ? "" : "s", fewer == 1 ? "es" : "",
			  (long long)s->since_id);
	if (gather_runs(s, err) < 0 || gather_all_series(s, err) < 0 || gather_failures(s, err) < 0 ||
	    pdb_detect_cache_save(s->store, s->params, NULL, s->entries, s->nentries, &note, err) < 0)
		goto fail;
	if (note)
		site_note(s, "%s", note);
	series_attention(s);
	gather_benches(s);
	bench_failures(s);
	run_values(s);
	run_prevs(s);
	run_keys(s);
	return 0;
fail:
	pdb_store_rollback(s->store);
	return -1;
}

void site_release(struct site *s)
{
	for (size_t i = 0; i < s->nentries; i++)
		pdb_detect_state_release(&s->states[i]);
	free(s->states);
	free(s->entries);
	free(s->params);
	for (size_t i = 0; i < s->nseries; i++)
		series_release(&s->series[i]);
	free(s->series);
	for (size_t i = 0; i < s->nbenches; i++) {
		free(s->benches[i].name);
		free(s->benches[i].group);
		free(s->benches[i].file);
		free(s->benches[i].series);
	}
	free(s->benches);
	for (size_t i = 0; i < s->nruns; i++) {
		free(s->runs[i].file);
		free(s->runs[i].values);
	}
	free(s->runs);
	free(s->by_id);
	for (size_t i = 0; i < s->nfailures; i++)
		free(s->failures[i].dims);
	free(s->failures);
	free(s->failing);
	pdb_failure_rows_free(s->frows, s->nfrows);
	pdb_run_rows_free(s->rows, s->nrows);
	pdb_series_free(s->all, s->nall);
	free(s->branches);
	free(s->where);
}
