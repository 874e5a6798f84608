/* detect's cache as data: a split state to and from the row the store
 * keeps, and the text naming what a cached split depends on. */
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

int pdb_detect_state_of_row(const struct pdb_detect_cache_row *r, struct pdb_detect_state *s)
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

void pdb_detect_row_of_state(const struct pdb_detect_state *s, struct pdb_detect_cache_row *r)
{
	r->covered = (int64_t)s->covered;
	r->checksum = s->checksum;
	r->resume = (int64_t)s->resume;
	r->weak = positions_text(s->weak, s->nweak);
	r->xcovered = (int64_t)s->xcovered;
	r->xchecksum = s->xchecksum;
	r->spikes = positions_text(s->spikes, s->nspikes);
}
