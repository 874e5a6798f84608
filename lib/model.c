/* Model: a run in memory, with its attributes and results (series values). */
#include "model.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The run's results are found by key through a small open-addressing table
 * (ingesting a million CSV rows must not scan the results per row). */
struct result_index {
	char **keys;
	size_t *slots; /* result index + 1; 0 = empty */
	size_t cap;
};

/* A benchmark (with its dims) given by an entry of the file being read
 * (pdb_run_begin_entry): the entry that gave it last and which occurrence
 * of it that entry is. */
struct entry_group {
	unsigned entry, occurrence, count;
	char *where;    /* of its first entry */
};

struct pdb_run_private {
	struct pdb_run run;
	struct result_index index;
	unsigned entry;             /* the current entry, 0: none (results merge) */
	char *entry_where;
	struct result_index groups; /* (benchmark, dims) -> entry_group index + 1 */
	struct entry_group *group;
	size_t ngroups, capgroups;
	struct pdb_entry_repeat *repeats;
	size_t nrepeats, caprepeats;
	char **result_where;        /* of results[i]'s entry, or NULL */
	size_t capwhere;
};

struct pdb_run *pdb_run_new(void)
{
	struct pdb_run_private *p = pdb_xcalloc(1, sizeof *p);
	char now[32];

	pdb_uuid4(p->run.uuid);
	pdb_now_iso(now);
	p->run.created_at = pdb_xstrdup(now);
	p->run.status = pdb_xstrdup("complete");
	return &p->run;
}

static void free_attrs(struct pdb_attr *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(a[i].key);
		free(a[i].value);
	}
	free(a);
}

static void free_result(struct pdb_result *r)
{
	free(r->benchmark);
	free_attrs(r->dims, r->ndims);
	free(r->metric);
	free(r->unit);
	free(r->raw_unit);
	free(r->raw_name);
	free(r->samples);
	for (size_t i = 0; i < r->nstats; i++)
		free(r->stats[i].name);
	free(r->stats);
}

void pdb_run_free(struct pdb_run *run)
{
	struct pdb_run_private *p = (struct pdb_run_private *)run;

	if (!run)
		return;
	free(run->name);
	free(run->created_at);
	free(run->tool);
	free(run->format);
	free(run->source);
	free(run->sha256);
	free(run->status);
	free_attrs(run->attrs, run->nattrs);
	for (size_t i = 0; i < run->nresults; i++)
		free_result(&run->results[i]);
	free(run->results);
	for (size_t i = 0; i < run->nfailures; i++) {
		free(run->failures[i].benchmark);
		free_attrs(run->failures[i].dims, run->failures[i].ndims);
		free(run->failures[i].reason);
	}
	free(run->failures);
	for (size_t i = 0; i < p->index.cap; i++)
		free(p->index.keys[i]);
	free(p->index.keys);
	free(p->index.slots);
	pdb_run_end_entries(run);
	pdb_entry_repeats_free(p->repeats, p->nrepeats);
	for (size_t i = 0; i < p->capwhere; i++)
		free(p->result_where[i]);
	free(p->result_where);
	free(p);
}

void pdb_set_str(char **field, const char *value)
{
	char *copy = pdb_xstrdup(value);
	free(*field);
	*field = copy;
}

/* Insert or replace key=value in a sorted attribute array. */
static void attrs_set(struct pdb_attr **attrs, size_t *n, size_t *cap,
		      const char *key, const char *value)
{
	size_t lo = 0, hi = *n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp((*attrs)[mid].key, key);
		if (c == 0) {
			pdb_set_str(&(*attrs)[mid].value, value);
			return;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	pdb_grow((void **)attrs, cap, *n + 1, sizeof **attrs);
	memmove(&(*attrs)[lo + 1], &(*attrs)[lo], (*n - lo) * sizeof **attrs);
	(*attrs)[lo].key = pdb_xstrdup(key);
	(*attrs)[lo].value = pdb_xstrdup(value);
	(*n)++;
}

static const char *attrs_get(const struct pdb_attr *attrs, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(attrs[i].key, key) == 0)
			return attrs[i].value;
	return NULL;
}

static int failure_cmp(const struct pdb_failure *f, const char *benchmark,
		       const char *dims_text)
{
	int c = strcmp(f->benchmark, benchmark);
	char *text;

	if (c)
		return c;
	text = pdb_dims_text(f->dims, f->ndims);
	c = strcmp(text, dims_text);
	free(text);
	return c;
}

static unsigned entry_occurrence(struct pdb_run_private *p, const char *benchmark,
				 const struct pdb_attr *sorted, size_t ndims);

void pdb_run_add_failure(struct pdb_run *run, const char *benchmark,
			 const struct pdb_attr *dims, size_t ndims, const char *reason)
{
	struct pdb_failure *f;
	struct pdb_attr *sorted = NULL;
	size_t capdims = 0, at = 0;
	unsigned occ;
	char *text;

	for (size_t i = 0; i < ndims; i++)
		attrs_set(&sorted, &at, &capdims, dims[i].key, dims[i].value);
	occ = entry_occurrence((struct pdb_run_private *)run, benchmark, sorted, at);
	if (occ > 1) {
		char num[16];
		snprintf(num, sizeof num, "%u", occ);
		attrs_set(&sorted, &at, &capdims, "occurrence", num);
	}
	text = pdb_dims_text(sorted, at);
	ndims = at;
	for (at = 0; at < run->nfailures; at++) {
		int c = failure_cmp(&run->failures[at], benchmark, text);
		if (c == 0) {
			pdb_set_str(&run->failures[at].reason, reason);
			free_attrs(sorted, ndims);
			free(text);
			return;
		}
		if (c > 0)
			break;
	}
	free(text);
	pdb_grow((void **)&run->failures, &run->capfailures, run->nfailures + 1,
		 sizeof *run->failures);
	memmove(&run->failures[at + 1], &run->failures[at],
		(run->nfailures - at) * sizeof *run->failures);
	f = &run->failures[at];
	f->benchmark = pdb_xstrdup(benchmark);
	f->dims = sorted;
	f->ndims = ndims;
	f->reason = pdb_xstrdup(reason);
	run->nfailures++;
}

const char *pdb_run_tool_of(const char *tool, const char *format)
{
	return format && strchr(format, '+') ? NULL : tool;
}

int pdb_same_tool(const char *a, const char *b)
{
	return !a || !b || !*a || !*b || strcmp(a, b) == 0;
}

const struct pdb_failure *pdb_run_find_failure(const struct pdb_run *run,
					       const char *benchmark, const char *dims_text)
{
	for (size_t i = 0; i < run->nfailures; i++)
		if (failure_cmp(&run->failures[i], benchmark, dims_text) == 0)
			return &run->failures[i];
	return NULL;
}

void pdb_run_set_attr(struct pdb_run *run, const char *key, const char *value)
{
	attrs_set(&run->attrs, &run->nattrs, &run->capattrs, key, value);
}

/* By key, then in the order given. */
static int given_cmp(const void *a, const void *b)
{
	const struct pdb_attr *x = *(const struct pdb_attr *const *)a;
	const struct pdb_attr *y = *(const struct pdb_attr *const *)b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x > y) - (x < y);
}

void pdb_run_set_attrs(struct pdb_run *run, const struct pdb_attr *kv, size_t n)
{
	const struct pdb_attr **in;
	struct pdb_attr *out;
	size_t i = 0, j = 0, k = 0, cap = run->nattrs + n;

	if (n == 0)
		return;
	in = pdb_xmalloc(n * sizeof *in);
	for (size_t x = 0; x < n; x++)
		in[x] = &kv[x];
	qsort(in, n, sizeof *in, given_cmp);
	out = pdb_xmalloc(cap * sizeof *out);
	while (i < run->nattrs || j < n) {
		int c;
		if (j + 1 < n && strcmp(in[j]->key, in[j + 1]->key) == 0) {
			j++; /* the later value of the key wins */
			continue;
		}
		c = i == run->nattrs ? 1 : j == n ? -1 : strcmp(run->attrs[i].key, in[j]->key);
		if (c <= 0)
			out[k] = run->attrs[i++];
		if (c == 0)
			pdb_set_str(&out[k].value, in[j++]->value);
		if (c > 0) {
			out[k].key = pdb_xstrdup(in[j]->key);
			out[k].value = pdb_xstrdup(in[j++]->value);
		}
		k++;
	}
	free(in);
	free(run->attrs);
	run->attrs = out;
	run->nattrs = k;
	run->capattrs = cap;
}

const char *pdb_run_get_attr(const struct pdb_run *run, const char *key)
{
	return attrs_get(run->attrs, run->nattrs, key);
}

void pdb_result_set_dim(struct pdb_result *r, const char *key, const char *value)
{
	attrs_set(&r->dims, &r->ndims, &r->capdims, key, value);
}

const char *pdb_result_get_dim(const struct pdb_result *r, const char *key)
{
	return attrs_get(r->dims, r->ndims, key);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static char *result_key(const char *benchmark, const struct pdb_attr *dims,
			size_t ndims, const char *metric)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, benchmark);
	for (size_t i = 0; i < ndims; i++) {
		pdb_buf_add(&b, "\x1f", 1);
		pdb_buf_puts(&b, dims[i].key);
		pdb_buf_add(&b, "\x1e", 1);
		pdb_buf_puts(&b, dims[i].value);
	}
	pdb_buf_add(&b, "\x1d", 1);
	pdb_buf_puts(&b, metric);
	return b.data;
}


static size_t *index_slot(struct result_index *ix, const char *key, char ***keyp)
{
	size_t i = (size_t)hash_str(key) & (ix->cap - 1);

	while (ix->slots[i] && strcmp(ix->keys[i], key) != 0)
		i = (i + 1) & (ix->cap - 1);
	*keyp = &ix->keys[i];
	return &ix->slots[i];
}

static void index_rebuild(struct result_index *ix, size_t cap)
{
	struct result_index old = *ix;

	ix->cap = cap;
	ix->keys = pdb_xcalloc(cap, sizeof *ix->keys);
	ix->slots = pdb_xcalloc(cap, sizeof *ix->slots);
	for (size_t i = 0; i < old.cap; i++) {
		char **kp;
		size_t *slot;
		if (!old.slots[i])
			continue;
		slot = index_slot(ix, old.keys[i], &kp);
		*slot = old.slots[i];
		*kp = old.keys[i];
	}
	free(old.keys);
	free(old.slots);
}

static int dims_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pdb_attr *)a)->key, ((const struct pdb_attr *)b)->key);
}

void pdb_run_begin_entry(struct pdb_run *run, const char *where)
{
	struct pdb_run_private *p = (struct pdb_run_private *)run;

	p->entry++;
	pdb_set_str(&p->entry_where, where);
}

void pdb_run_end_entries(struct pdb_run *run)
{
	struct pdb_run_private *p = (struct pdb_run_private *)run;

	for (size_t i = 0; i < p->groups.cap; i++)
		free(p->groups.keys[i]);
	free(p->groups.keys);
	free(p->groups.slots);
	memset(&p->groups, 0, sizeof p->groups);
	for (size_t i = 0; i < p->ngroups; i++)
		free(p->group[i].where);
	free(p->group);
	p->group = NULL;
	p->ngroups = p->capgroups = 0;
	free(p->entry_where);
	p->entry_where = NULL;
	p->entry = 0;
}

const char *pdb_run_result_where(const struct pdb_run *run, size_t i)
{
	const struct pdb_run_private *p = (const struct pdb_run_private *)run;

	return i < p->capwhere ? p->result_where[i] : NULL;
}

struct pdb_entry_repeat *pdb_run_take_repeats(struct pdb_run *run, size_t *n)
{
	struct pdb_run_private *p = (struct pdb_run_private *)run;
	struct pdb_entry_repeat *r = p->repeats;

	*n = p->nrepeats;
	p->repeats = NULL;
	p->nrepeats = p->caprepeats = 0;
	return r;
}

void pdb_entry_repeats_free(struct pdb_entry_repeat *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].benchmark);
		free(r[i].dims);
		free(r[i].first);
		free(r[i].again);
	}
	free(r);
}

/* Which occurrence of (benchmark, sorted dims) the current entry is: 1 for
 * the first entry that gives it (and without entries), N for the Nth, which
 * is said in the repeats. */
static unsigned entry_occurrence(struct pdb_run_private *p, const char *benchmark,
				 const struct pdb_attr *sorted, size_t ndims)
{
	struct entry_group *g;
	size_t *slot;
	char *key, **kp;

	if (!p->entry)
		return 1;
	key = result_key(benchmark, sorted, ndims, "");
	if ((p->ngroups + 1) * 2 > p->groups.cap)
		index_rebuild(&p->groups, p->groups.cap ? p->groups.cap * 2 : 64);
	slot = index_slot(&p->groups, key, &kp);
	if (!*slot) {
		*kp = key;
		pdb_grow((void **)&p->group, &p->capgroups, p->ngroups + 1, sizeof *p->group);
		g = &p->group[p->ngroups++];
		*slot = p->ngroups;
		g->entry = p->entry;
		g->occurrence = g->count = 1;
		g->where = pdb_xstrdup(p->entry_where ? p->entry_where : "");
		return 1;
	}
	free(key);
	g = &p->group[*slot - 1];
	if (g->entry != p->entry) {
		struct pdb_entry_repeat *r;

		g->entry = p->entry;
		g->occurrence = ++g->count;
		pdb_grow((void **)&p->repeats, &p->caprepeats, p->nrepeats + 1, sizeof *p->repeats);
		r = &p->repeats[p->nrepeats++];
		r->benchmark = pdb_xstrdup(benchmark);
		r->dims = pdb_dims_display(sorted, ndims);
		r->first = pdb_xstrdup(g->where);
		r->again = pdb_xstrdup(p->entry_where ? p->entry_where : "");
		r->occurrence = g->occurrence;
	}
	return g->occurrence;
}

/* dims (sorted, n of them, in a malloc'ed array) with occurrence=N added
 * when the current entry gives their series a second time or more. */
static struct pdb_attr *with_occurrence(struct pdb_run_private *p, const char *benchmark,
					struct pdb_attr *sorted, size_t *n, char num[16])
{
	unsigned occ = entry_occurrence(p, benchmark, sorted, *n);

	if (occ < 2)
		return sorted;
	snprintf(num, 16, "%u", occ);
	sorted = pdb_xrealloc(sorted, (*n + 1) * sizeof *sorted);
	sorted[(*n)++] = (struct pdb_attr){ .key = (char *)"occurrence", .value = num };
	qsort(sorted, *n, sizeof *sorted, dims_cmp);
	return sorted;
}

/* The result of the series, *made 1 when it is added here: then with no
 * unit yet, scale 1, direction none. */
static struct pdb_result *result_of(struct pdb_run *run, const char *benchmark,
				    const struct pdb_attr *dims, size_t ndims, const char *metric,
				    int *made)
{
	char num[16];
	struct pdb_run_private *p = (struct pdb_run_private *)run;
	struct pdb_attr *sorted = NULL;
	struct pdb_result *r;
	size_t *slot;
	char **kp, *key;

	if (ndims) {
		sorted = pdb_xmalloc(ndims * sizeof *sorted);
		memcpy(sorted, dims, ndims * sizeof *sorted);
		qsort(sorted, ndims, sizeof *sorted, dims_cmp);
	}
	sorted = with_occurrence(p, benchmark, sorted, &ndims, num);
	key = result_key(benchmark, sorted, ndims, metric);
	if ((run->nresults + 1) * 2 > p->index.cap)
		index_rebuild(&p->index, p->index.cap ? p->index.cap * 2 : 64);
	slot = index_slot(&p->index, key, &kp);
	*made = !*slot;
	if (*slot) {
		free(key);
		free(sorted);
		return &run->results[*slot - 1];
	}
	*kp = key;
	pdb_grow((void **)&run->results, &run->capresults, run->nresults + 1,
		 sizeof *run->results);
	if (p->entry && p->entry_where) {
		size_t old = p->capwhere;
		pdb_grow((void **)&p->result_where, &p->capwhere, run->nresults + 1,
			 sizeof *p->result_where);
		memset(p->result_where + old, 0, (p->capwhere - old) * sizeof *p->result_where);
		p->result_where[run->nresults] = pdb_xstrdup(p->entry_where);
	}
	r = &run->results[run->nresults++];
	*slot = run->nresults;
	memset(r, 0, sizeof *r);
	r->benchmark = pdb_xstrdup(benchmark);
	r->metric = pdb_xstrdup(metric);
	for (size_t i = 0; i < ndims; i++)
		pdb_result_set_dim(r, sorted[i].key, sorted[i].value);
	free(sorted);
	r->scale = 1;
	return r;
}

struct pdb_result *pdb_run_result_with_dims(struct pdb_run *run,
					    const char *benchmark,
					    const struct pdb_attr *dims, size_t ndims,
					    const char *metric, const char *raw_unit)
{
	int made;
	struct pdb_result *r = result_of(run, benchmark, dims, ndims, metric, &made);
	struct pdb_unit unit;

	if (!made)
		return r;
	pdb_unit_parse(raw_unit, &unit);
	r->unit = pdb_xstrdup(unit.canonical);
	if (raw_unit && strcmp(raw_unit, unit.canonical) != 0)
		r->raw_unit = pdb_xstrdup(raw_unit);
	r->scale = unit.scale;
	r->direction = unit.direction;
	return r;
}

struct pdb_result *pdb_run_result_unparsed(struct pdb_run *run, const char *benchmark,
					   const struct pdb_attr *dims, size_t ndims,
					   const char *metric)
{
	int made;

	return result_of(run, benchmark, dims, ndims, metric, &made);
}

struct pdb_result *pdb_run_add_result(struct pdb_run *run, const char *benchmark,
				      const char *metric, const char *raw_unit)
{
	return pdb_run_result_with_dims(run, benchmark, NULL, 0, metric, raw_unit);
}

/* A statistic keeps one zero: -0 is 0 (the store's REAL columns keep no -0:
 * SQLite writes an integral REAL as an integer). Samples and their offsets
 * are kept as written, -0 too (they are stored packed, bit for bit). */
static double one_zero(double v)
{
	return v == 0 ? 0.0 : v;
}

void pdb_result_add_sample(struct pdb_result *r, const struct pdb_sample *s)
{
	pdb_grow((void **)&r->samples, &r->capsamples, r->nsamples + 1,
		 sizeof *r->samples);
	r->samples[r->nsamples++] = *s;
}

/* A scale below 1 that is the inverse of a whole number (ms: 1e-3) divides,
 * so that 351 ms reads 0.351 s and not 0.35100000000000003 s. */
double pdb_result_canonical(const struct pdb_result *r, double raw)
{
	double inv;

	if (r->scale >= 1 || r->scale <= 0)
		return raw * r->scale;
	inv = nearbyint(1.0 / r->scale);
	return fabs(inv * r->scale - 1.0) < 1e-12 ? raw / inv : raw * r->scale;
}

void pdb_result_add_raw(struct pdb_result *r, double raw_value)
{
	struct pdb_sample s = PDB_SAMPLE(pdb_result_canonical(r, raw_value));
	pdb_result_add_sample(r, &s);
}

void pdb_result_set_stat(struct pdb_result *r, const char *name, double value)
{
	value = one_zero(value);
	for (size_t i = 0; i < r->nstats; i++)
		if (strcmp(r->stats[i].name, name) == 0) {
			r->stats[i].value = value;
			return;
		}
	pdb_grow((void **)&r->stats, &r->capstats, r->nstats + 1, sizeof *r->stats);
	r->stats[r->nstats].name = pdb_xstrdup(name);
	r->stats[r->nstats].value = value;
	r->nstats++;
}

void pdb_result_set_stat_raw(struct pdb_result *r, const char *name, double raw)
{
	pdb_result_set_stat(r, name, pdb_result_canonical(r, raw));
}

int pdb_result_get_stat(const struct pdb_result *r, const char *name, double *out)
{
	for (size_t i = 0; i < r->nstats; i++)
		if (strcmp(r->stats[i].name, name) == 0) {
			*out = r->stats[i].value;
			return 0;
		}
	return -1;
}

/* Whether s reads the same in JSON: printable ASCII, no '"' nor '\\'. */
static int json_plain(const char *s)
{
	for (; s && *s; s++)
		if (*s < 0x20 || *s > 0x7e || *s == '"' || *s == '\\')
			return 0;
	return s != NULL;
}

/* Dims of plain text, sorted and each once (the common case), written
 * without the JSON library, which costs some 3,000 instructions for "{}";
 * else NULL. */
static char *plain_dims_text(const struct pdb_attr *dims, size_t ndims)
{
	size_t len = 3; /* {} and the NUL */
	char *text, *at;

	for (size_t i = 0; i < ndims; i++) {
		if (!json_plain(dims[i].key) || !json_plain(dims[i].value) ||
		    (i && strcmp(dims[i - 1].key, dims[i].key) >= 0))
			return NULL;
		len += strlen(dims[i].key) + strlen(dims[i].value) + 6; /* ,"k":"v" */
	}
	at = text = pdb_xmalloc(len);
	*at++ = '{';
	for (size_t i = 0; i < ndims; i++)
		at += sprintf(at, "%s\"%s\":\"%s\"", i ? "," : "", dims[i].key, dims[i].value);
	memcpy(at, "}", 2);
	return text;
}

char *pdb_dims_text(const struct pdb_attr *dims, size_t ndims)
{
	json_t *o;
	char *s, *copy;

	if ((copy = plain_dims_text(dims, ndims)))
		return copy;
	o = json_object();
	for (size_t i = 0; i < ndims; i++)
		json_object_set_new(o, dims[i].key, json_string(dims[i].value));
	s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
	json_decref(o);
	copy = pdb_xstrdup(s);
	free(s);
	return copy;
}

char *pdb_dims_display(const struct pdb_attr *dims, size_t ndims)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	for (size_t i = 0; i < ndims; i++)
		pdb_buf_printf(&b, "%s%s=%s", i ? "," : "", dims[i].key, dims[i].value);
	return b.data;
}

static int cmp_sample(const void *a, const void *b)
{
	double x = ((const struct pdb_sample *)a)->value, y = ((const struct pdb_sample *)b)->value;
	return (x > y) - (x < y);
}

/* Sort samples by value as qsort with cmp_sample would (both sorts are
 * stable: glibc's qsort is a merge sort), by insertion when they are few
 * and none is NaN: the common summary of one run's 10-50 samples spent most
 * of its time in qsort's indirect calls and copies. */
#define INSERTION_MAX 64
static void sort_samples(struct pdb_sample *v, size_t n, int has_nan)
{
	if (n > INSERTION_MAX || has_nan) {
		qsort(v, n, sizeof *v, cmp_sample);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		struct pdb_sample x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1].value > x.value; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* The first of the sorted v whose cumulative weight reaches q of wsum. */
static double weighted_quantile(const struct pdb_sample *v, size_t n, double wsum, double q)
{
	double acc = 0;

	for (size_t i = 0; i < n; i++) {
		acc += v[i].weight;
		if (acc >= q * wsum)
			return v[i].value;
	}
	return v[n - 1].value;
}

void pdb_result_summary(const struct pdb_result *r, struct pdb_summary *out)
{
	struct pdb_sample *v, one;
	double sum = 0, wsum = 0, var = 0, acc = 0;
	size_t n = r->nsamples, i;
	int weighted = 0, counts = 1, has_nan = 0;

	out->n = n;
	out->mean = out->median = out->min = out->max = out->stddev = NAN;
	out->p5 = out->q1 = out->q3 = out->p95 = NAN;
	if (n == 0)
		return;
	/* a single sample (the common case) needs no heap copy and no sort */
	v = n == 1 ? &one : pdb_xmalloc(n * sizeof *v);
	memcpy(v, r->samples, n * sizeof *v);
	/* histogram buckets carry weights: every statistic below honours them */
	for (i = 0; i < n; i++) {
		if (pdb_sample_has_weight(&v[i])) {
			weighted = 1;
			counts &= v[i].weight >= 0 && v[i].weight == floor(v[i].weight);
		} else
			v[i].weight = 1.0;
		sum += v[i].weight * v[i].value;
		wsum += v[i].weight;
		has_nan |= isnan(v[i].value);
	}
	/* buckets of event counts: n is the events; weights that are shares
	 * (OpenMessaging's quantiles) count no events: n stays the buckets */
	if (weighted && counts)
		out->n = (size_t)llround(wsum);
	if (n > 1)
		sort_samples(v, n, has_nan);
	out->min = v[0].value;
	out->max = v[n - 1].value;
	out->mean = wsum > 0 ? sum / wsum : NAN;
	for (i = 0; i < n && acc + v[i].weight < wsum / 2; i++)
		acc += v[i].weight;
	if (i >= n)
		i = n - 1;
	/* exactly half the weight below: the midpoint, as for an even count */
	out->median = acc + v[i].weight == wsum / 2 && i + 1 < n
		? (v[i].value + v[i + 1].value) / 2 : v[i].value;
	for (i = 0; i < n; i++)
		var += v[i].weight * (v[i].value - out->mean) * (v[i].value - out->mean);
	out->stddev = wsum > 1 ? sqrt(var / (wsum - 1)) : NAN;
	out->p5 = weighted_quantile(v, n, wsum, 0.05);
	out->q1 = weighted_quantile(v, n, wsum, 0.25);
	out->q3 = weighted_quantile(v, n, wsum, 0.75);
	out->p95 = weighted_quantile(v, n, wsum, 0.95);
	if (v != &one)
		free(v);
}

void pdb_result_add_values(struct pdb_result *dst, const struct pdb_result *src)
{
	pdb_set_str(&dst->unit, src->unit);
	dst->scale = src->scale;
	dst->direction = src->direction;
	if (src->raw_unit)
		pdb_set_str(&dst->raw_unit, src->raw_unit);
	if (src->raw_name)
		pdb_set_str(&dst->raw_name, src->raw_name);
	for (size_t k = 0; k < src->nsamples; k++)
		pdb_result_add_sample(dst, &src->samples[k]);
	for (size_t k = 0; k < src->nstats; k++)
		pdb_result_set_stat(dst, src->stats[k].name, src->stats[k].value);
}

struct pdb_result *pdb_run_series(struct pdb_run *run, const char *benchmark,
				  const struct pdb_attr *dims, size_t ndims, const char *metric,
				  const char *unit, int direction)
{
	struct pdb_result *r = pdb_run_result_with_dims(run, benchmark, dims, ndims, metric, unit);

	r->direction = direction;
	return r;
}

void pdb_result_add_at(struct pdb_result *r, double t, double v)
{
	struct pdb_sample s = PDB_SAMPLE(v);

	s.t = t;
	pdb_result_add_sample(r, &s);
}

size_t pdb_run_find_result(const struct pdb_run *run, const struct pdb_result *r)
{
	const struct pdb_run_private *p = (const struct pdb_run_private *)run;
	char *key, **kp;
	size_t slot;

	if (!p->index.cap)
		return 0;
	key = result_key(r->benchmark, r->dims, r->ndims, r->metric);
	slot = *index_slot((struct result_index *)&p->index, key, &kp);
	free(key);
	return slot;
}

void pdb_run_merge_some(struct pdb_run *dst, const struct pdb_run *src, const char *skip)
{
	for (size_t i = 0; i < src->nresults; i++) {
		const struct pdb_result *r = &src->results[i];

		if (skip && skip[i])
			continue;
		pdb_result_add_values(pdb_run_result_with_dims(dst, r->benchmark, r->dims, r->ndims,
							       r->metric, r->unit), r);
	}
	pdb_run_set_attrs(dst, src->attrs, src->nattrs);
	for (size_t i = 0; i < src->nfailures; i++)
		pdb_run_add_failure(dst, src->failures[i].benchmark, src->failures[i].dims,
				    src->failures[i].ndims, src->failures[i].reason);
	if (src->tool && !dst->tool)
		pdb_set_str(&dst->tool, src->tool);
	if (src->sha256 && !dst->sha256)
		pdb_set_str(&dst->sha256, src->sha256);
}

void pdb_run_merge(struct pdb_run *dst, const struct pdb_run *src)
{
	pdb_run_merge_some(dst, src, NULL);
}

char *pdb_dims_json_display(const char *json)
{
	json_t *doc = json_loads(json, 0, NULL), *v;
	const char *key;
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	json_object_foreach(doc, key, v)
		pdb_buf_printf(&b, "%s%s=%s", b.len ? "," : "", key,
			       json_is_string(v) ? json_string_value(v) : "?");
	json_decref(doc);
	return b.data;
}

double pdb_result_value(const struct pdb_result *r)
{
	struct pdb_summary s;
	double v;

	if (r->nsamples > 0) {
		pdb_result_summary(r, &s);
		return s.median;
	}
	if (pdb_result_get_stat(r, "median", &v) == 0 || pdb_result_get_stat(r, "p50", &v) == 0 ||
	    pdb_result_get_stat(r, "mean", &v) == 0)
		return v;
	return r->nstats == 1 ? r->stats[0].value : NAN;
}
