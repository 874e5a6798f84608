/* Store: run selectors (run42, 42, a name, latest, latest~N, latest:K=V). */
#include "store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A parsed selector: either an exact id/name, or "the Nth newest run
 * matching these attributes, at or before the place max_seq" (the order of
 * runs: store.h). */
struct selector {
	int64_t id;          /* >0: exact id */
	const char *name;    /* exact name */
	int64_t back;        /* latest~back */
	char *filter;        /* "k=v,k=v" copy, or NULL */
};

static int parse_selector(const char *text, struct selector *sel, struct pdb_err *err)
{
	const char *p;
	int64_t v;

	memset(sel, 0, sizeof *sel);
	if (strncmp(text, "run", 3) == 0 && pdb_parse_int64(text + 3, 1, INT64_MAX, &v) == 0) {
		sel->id = v;
		return 0;
	}
	if (pdb_parse_int64(text, 1, INT64_MAX, &v) == 0) {
		sel->id = v;
		return 0;
	}
	if (strncmp(text, "latest", 6) != 0 || (text[6] && text[6] != '~' && text[6] != ':')) {
		sel->name = text;
		return 0;
	}
	p = text + 6;
	if (*p == '~') {
		const char *colon = strchr(p, ':');
		char *num = pdb_xstrndup(p + 1, colon ? (size_t)(colon - p - 1) : strlen(p + 1));
		int bad = pdb_parse_int64(num, 0, 1000000000, &sel->back);
		free(num);
		if (bad)
			return pdb_err_set(err, PDB_EXIT_USAGE, "bad run selector '%s': expected latest~N", text);
		p = colon ? colon : p + strlen(p);
	}
	if (*p == ':') {
		if (!strchr(p + 1, '='))
			return pdb_err_set(err, PDB_EXIT_USAGE, "bad run selector '%s': expected latest:KEY=VALUE", text);
		sel->filter = pdb_xstrdup(p + 1);
	}
	return 0;
}

/* SQL matching runs by "k=v,k=v" (all must hold) and seq <= ?1, newest first. */
static sqlite3_stmt *filtered_query(struct pdb_store *store, const char *filter,
				    int64_t max_seq, int64_t limit, int64_t offset,
				    struct pdb_err *err)
{
	struct pdb_buf sql;
	sqlite3_stmt *st;

	pdb_buf_init(&sql);
	pdb_buf_puts(&sql, "SELECT r.id FROM runs r WHERE r.seq <= ?1");
	pdb_store_filter_sql(&sql, filter, 4);
	pdb_buf_puts(&sql, " ORDER BY r.seq DESC LIMIT ?2 OFFSET ?3");
	st = pdb_store_prepare(store, sql.data, err);
	pdb_buf_release(&sql);
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, max_seq);
	sqlite3_bind_int64(st, 2, limit);
	sqlite3_bind_int64(st, 3, offset);
	pdb_store_filter_bind(st, filter, 4);
	return st;
}

/* Up to limit ids of runs matching sel, newest first, skipping sel->back. */
static int select_ids(struct pdb_store *store, const struct selector *sel,
		      const char *text, int64_t max_seq, int64_t limit,
		      int64_t **ids, size_t *nids, struct pdb_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc;

	*ids = NULL;
	*nids = 0;
	if (sel->id || sel->name) {
		st = pdb_store_prepare(store, sel->id ? "SELECT id FROM runs WHERE id = ?"
						      : "SELECT id FROM runs WHERE name = ?", err);
		if (!st)
			return -1;
		if (sel->id)
			sqlite3_bind_int64(st, 1, sel->id);
		else
			sqlite3_bind_text(st, 1, sel->name, -1, SQLITE_STATIC);
	} else {
		st = filtered_query(store, sel->filter, max_seq, limit, sel->back, err);
		if (!st)
			return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pdb_grow((void **)ids, &cap, *nids + 1, sizeof **ids);
		(*ids)[(*nids)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		return pdb_store_fail(store, err, "select runs");
	}
	if (*nids == 0)
		return pdb_err_set(err, PDB_EXIT_INPUT, "no run matches '%s'", text);
	return 0;
}

int pdb_store_resolve(struct pdb_store *store, const char *selector,
		      int64_t *id, struct pdb_err *err)
{
	struct selector sel;
	int64_t *ids = NULL;
	size_t n;
	int ret = -1;

	if (parse_selector(selector, &sel, err) < 0)
		return -1;
	if (select_ids(store, &sel, selector, INT64_MAX, 1, &ids, &n, err) == 0) {
		*id = ids[0];
		ret = 0;
	}
	free(ids);
	free(sel.filter);
	return ret;
}

int pdb_store_resolve_since(struct pdb_store *store, const char *selector,
			    int64_t *id, size_t *fewer, struct pdb_err *err)
{
	struct selector sel;
	int64_t *ids = NULL, back;
	size_t n;
	int ret = -1;

	*fewer = 0;
	if (parse_selector(selector, &sel, err) < 0)
		return -1;
	back = sel.back;
	if (select_ids(store, &sel, selector, INT64_MAX, 1, &ids, &n, err) == 0) {
		*id = ids[0];
		ret = 0;
	} else if (err->code == PDB_EXIT_INPUT && !sel.id && !sel.name && back > 0) {
		/* fewer than back + 1 runs match: all of them, the oldest last */
		sel.back = 0;
		free(ids);
		if (select_ids(store, &sel, selector, INT64_MAX, back, &ids, &n, err) == 0) {
			*id = ids[n - 1];
			*fewer = n;
			ret = 0;
		}
	}
	free(ids);
	free(sel.filter);
	return ret;
}

int pdb_store_resolve_group(struct pdb_store *store, const char *selector,
			    int last, int64_t **ids, size_t *nids, struct pdb_err *err)
{
	struct selector sel;
	int ret = -1;

	*ids = NULL;
	*nids = 0;
	if (last > 0) {
		int64_t top, seq;
		if (pdb_store_resolve(store, selector, &top, err) < 0 ||
		    pdb_store_run_seq(store, top, &seq, err) < 0 ||
		    parse_selector(selector, &sel, err) < 0)
			return -1;
		/* the last N runs sharing the selector's filter, up to and with top */
		{
			struct selector group = { .filter = sel.filter };
			ret = select_ids(store, &group, selector, seq, last, ids, nids, err);
		}
		free(sel.filter);
	} else if ((strncmp(selector, "latest", 6) == 0 && strchr(selector, ':')) ||
		   !strchr(selector, ',')) {
		/* latest:K=V,K=V and latest~N:K=V,K=V are one selector, not a list */
		*ids = pdb_xmalloc(sizeof **ids);
		ret = pdb_store_resolve(store, selector, *ids, err);
		*nids = ret == 0 ? 1 : 0;
	} else {
		char *copy = pdb_xstrdup(selector), *save = NULL, *tok;
		size_t cap = 0;
		ret = 0;
		for (tok = strtok_r(copy, ",", &save); tok && ret == 0; tok = strtok_r(NULL, ",", &save)) {
			pdb_grow((void **)ids, &cap, *nids + 1, sizeof **ids);
			ret = pdb_store_resolve(store, tok, &(*ids)[*nids], err);
			if (ret == 0)
				(*nids)++;
		}
		free(copy);
	}
	if (ret < 0 || pdb_store_sort_runs(store, *ids, *nids, err) < 0) {
		free(*ids);
		*ids = NULL;
		*nids = 0;
		return -1;
	}
	return 0;
}
