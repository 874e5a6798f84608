/* detect over the store's cache: a split state to and from the row the
 * store keeps, the split resumed from it, the states saved. */
#include "detect_cache.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

char *pdb_detect_params(const struct pdb_detect_opts *o, int64_t since_id, const char *where)
{
	char pvalue[32];

	/* split=2: the split of report mode also tests plateaus (caches of
	 * the first split are not reused); split=3: the split of report mode
	 * no longer depends on P (its gate is fixed), so P is not named */
	if (o->outliers == PDB_OUTLIERS_KEEP)
		pdb_fmt_double(o->pvalue, pvalue);
	else
		strcpy(pvalue, "any");
	return pdb_xasprintf("split=3;window=%zu;pvalue=%s;outliers=%s;since=%lld;where=%s",
			     o->window, pvalue, o->outliers == PDB_OUTLIERS_KEEP ? "keep" : "report",
			     (long long)since_id, where ? where : "");
}

/* Parse "3,17,40" (ascending, each below bound) into *pos[0..*n); -1 if bad. */
static int parse_positions(const char *text, size_t bound, size_t **pos, size_t *n)
{
	size_t cap = 0;
	const char *p = text;

	while (*p) {
		char num[32];
		size_t len = strcspn(p, ",");
		int64_t v;

		if (len == 0 || len >= sizeof num)
			return -1;
		memcpy(num, p, len);
		num[len] = '\0';
		if (pdb_parse_int64(num, 1, INT64_MAX, &v) < 0 ||
		    (uint64_t)v >= bound || (*n > 0 && (size_t)v <= (*pos)[*n - 1]))
			return -1;
		pdb_grow((void **)pos, &cap, *n + 1, sizeof **pos);
		(*pos)[(*n)++] = (size_t)v;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* A cached row into *s when it holds together; -1 (s left empty) when not. */
static int state_of_row(const struct pdb_detect_cache_row *r, struct pdb_detect_state *s)
{
	memset(s, 0, sizeof *s);
	if (!(r->covered > 0 && r->resume >= 0 && r->resume < r->covered && r->weak &&
	      r->xcovered >= 0 && r->spikes))
		return -1;
	s->covered = (size_t)r->covered;
	s->resume = (size_t)r->resume;
	s->checksum = r->checksum;
	s->xcovered = (size_t)r->xcovered;
	s->xchecksum = r->xchecksum;
	if (parse_positions(r->weak, s->covered, &s->weak, &s->nweak) == 0 &&
	    parse_positions(r->spikes, s->xcovered, &s->spikes, &s->nspikes) == 0)
		return 0;
	pdb_detect_state_release(s);
	return -1;
}

/* A list of positions as the row keeps it: "3,17,40" ("" for none). */
static char *positions_text(const size_t *pos, size_t n)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	for (size_t k = 0; k < n; k++)
		pdb_buf_printf(&b, "%s%zu", k ? "," : "", pos[k]);
	return b.data;
}

/* The row of a state (its lists malloc'ed). */
static void row_of_state(const struct pdb_detect_state *s, struct pdb_detect_cache_row *r)
{
	r->covered = (int64_t)s->covered;
	r->checksum = s->checksum;
	r->resume = (int64_t)s->resume;
	r->weak = positions_text(s->weak, s->nweak);
	r->xcovered = (int64_t)s->xcovered;
	r->xchecksum = s->xchecksum;
	r->spikes = positions_text(s->spikes, s->nspikes);
}

int pdb_detect_resumed(struct pdb_store *store, int64_t series_id, const char *params,
		       int use_cache, const double *x, size_t n, const struct pdb_detect_opts *o,
		       struct pdb_detect_state *next, struct pdb_detect_result *res,
		       struct pdb_err *err)
{
	struct pdb_detect_state cached = { 0 };
	struct pdb_detect_cache_row row;
	int found = 0, rc;

	if (use_cache) {
		if (pdb_store_detect_cache_get(store, series_id, params, &row, &found, err) < 0)
			return -1;
		found = found && state_of_row(&row, &cached) == 0;
		pdb_detect_cache_row_release(&row);
	}
	rc = pdb_detect(x, n, o, found ? &cached : NULL, next, res, err);
	pdb_detect_state_release(&cached);
	return rc;
}

int pdb_detect_cache_save(struct pdb_store *store, const char *params, const char *selection,
			  const struct pdb_detect_cache_entry *e, size_t n, const char **note,
			  struct pdb_err *err)
{
	struct pdb_detect_cache_put_entry *rows;
	int rc;

	*note = NULL;
	if (pdb_store_readonly(store)) {
		pdb_store_rollback(store);
		*note = "the database is read-only: the detect cache is not updated";
		return 0;
	}
	rows = pdb_xcalloc(n ? n : 1, sizeof *rows);
	for (size_t i = 0; i < n; i++) {
		rows[i].series_id = e[i].series_id;
		rows[i].values = e[i].values;
		row_of_state(e[i].state, &rows[i].row);
	}
	rc = pdb_store_detect_cache_put(store, params, selection, rows, n, err);
	for (size_t i = 0; i < n; i++) {
		free(rows[i].row.weak);
		free(rows[i].row.spikes);
	}
	free(rows);
	if (rc < 0)
		return -1;
	if (rc == 1)
		*note = "another process wrote to the database while it was read: the detect "
			"cache is not updated";
	return 0;
}
