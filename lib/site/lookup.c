/* Site: what the pages ask of what was read (a run by its id, a series'
 * point in a run, a failure that speaks for a series), and the hashes that
 * key a page to what it was built from. */
#include "site/site_internal.h"

#include <string.h>

uint64_t site_hash(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 1099511628211ULL;
	return h;
}

uint64_t site_hash_str(uint64_t h, const char *s)
{
	return site_hash(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

const struct site_run *site_find_run(const struct site *s, int64_t id)
{
	size_t lo = 0, hi = s->nruns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t other = s->runs[s->by_id[mid]].row->id;
		if (other == id)
			return &s->runs[s->by_id[mid]];
		if (other < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct pdb_history_point *site_point_at(const struct site_series *ss,
					      const struct site_run *run)
{
	size_t lo = 0, hi = ss->n;

	while (run && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ss->pts[mid].seq == run->row->seq)
			return &ss->pts[mid];
		if (ss->pts[mid].seq < run->row->seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The failure of benchmark (with dims as series.dims) in run, or NULL. */
const struct site_failure *site_failure_in(const struct site *s, const struct site_run *run,
					   const char *benchmark, const char *dims)
{
	for (size_t i = run->fail; i < run->fail + run->nfail; i++)
		if (strcmp(s->failures[i].row->benchmark, benchmark) == 0 &&
		    strcmp(s->failures[i].row->dims, dims) == 0)
			return &s->failures[i];
	return NULL;
}

int site_series_of_tool(const struct site *s, const struct site_series *ss, const char *tool)
{
	for (size_t i = 0; i < ss->n; i++) {
		const struct site_run *r = site_find_run(s, ss->pts[i].run_id);
		if (r && pdb_same_tool(pdb_run_tool_of(r->row->tool, r->row->format), tool))
			return 1;
	}
	return 0;
}

const struct site_failure *site_series_failed_in(const struct site *s, const struct site_series *ss,
						 const struct site_run *run)
{
	if (!run || !site_series_of_tool(s, ss, pdb_run_tool_of(run->row->tool, run->row->format)))
		return NULL;
	return site_failure_in(s, run, ss->s->benchmark, ss->s->dims);
}
