/* Retention: the runs perfdb gc deletes. */
#include "retention.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static int kept_by_attr(const struct pdb_run_row *r, const struct pdb_retention *p)
{
	for (size_t i = 0; i < p->nkeep; i++) {
		const char *key = p->keep[i].key, *want = p->keep[i].value;
		const char *v = strcmp(key, "name") == 0 ? r->name : pdb_run_row_attr(r, key);
		if (v && strcmp(v, want) == 0)
			return 1;
	}
	return 0;
}

/* The combination of row r's values of per's attributes, as one string:
 * each value after a byte saying whether it is there (absent != empty). */
static char *combination(const struct pdb_retention *p, const struct pdb_run_row *r)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	for (size_t a = 0; a < p->nper; a++) {
		const char *v = pdb_run_row_attr(r, p->per[a]);
		pdb_buf_printf(&b, "%c%s\x01", v ? '+' : '-', v ? v : "");
	}
	return b.data;
}

struct keyed {
	char *key;
	size_t row;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* newest[i] = 1 when no newer row (a lower index) has row i's combination. */
static void mark_newest(const struct pdb_retention *p, const struct pdb_run_row *rows,
			size_t n, unsigned char *newest)
{
	struct keyed *k = pdb_xcalloc(n ? n : 1, sizeof *k);

	for (size_t i = 0; i < n; i++)
		k[i] = (struct keyed){ combination(p, &rows[i]), i };
	qsort(k, n, sizeof *k, cmp_keyed);
	for (size_t i = 0; i < n; i++)
		newest[k[i].row] = i == 0 || strcmp(k[i].key, k[i - 1].key) != 0;
	for (size_t i = 0; i < n; i++)
		free(k[i].key);
	free(k);
}

size_t pdb_retention_select(const struct pdb_retention *p, const struct pdb_run_row *rows,
			    size_t n, size_t *del)
{
	unsigned char *newest = pdb_xcalloc(n ? n : 1, 1);
	size_t ndel = 0;

	mark_newest(p, rows, n, newest);
	for (size_t i = 0; i < n; i++) {
		const struct pdb_run_row *r = &rows[i];
		if ((p->keep_last >= 0 && (int64_t)i < p->keep_last) ||
		    (p->cutoff && strcmp(r->created_at, p->cutoff) >= 0) ||
		    kept_by_attr(r, p) || newest[i])
			continue;
		del[ndel++] = i;
	}
	free(newest);
	return ndel;
}
