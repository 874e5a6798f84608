/* Store: pdb_unpack(samples, offsets, weights), a table-valued SQL function
 * giving one row per packed sample (index, value, t, weight) for `perfdb sql`. */
#include "store/store_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { COL_INDEX, COL_VALUE, COL_T, COL_WEIGHT, COL_SAMPLES, COL_OFFSETS, COL_WEIGHTS };

struct unpack_cursor {
	sqlite3_vtab_cursor base;
	struct pdb_sample *samples;
	sqlite3_int64 n, at;
};

static int unpack_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
			  sqlite3_vtab **vtab, char **errmsg)
{
	(void)aux, (void)argc, (void)argv, (void)errmsg;
	int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(idx INTEGER, value REAL, t REAL,"
				      " weight REAL, samples HIDDEN, offsets HIDDEN, weights HIDDEN)");
	if (rc != SQLITE_OK)
		return rc;
	*vtab = sqlite3_malloc(sizeof **vtab);
	if (!*vtab)
		return SQLITE_NOMEM;
	memset(*vtab, 0, sizeof **vtab);
	sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
	return SQLITE_OK;
}

static int unpack_disconnect(sqlite3_vtab *vtab)
{
	sqlite3_free(vtab);
	return SQLITE_OK;
}

/* The arguments are equality constraints on the hidden columns, passed in
 * column order; idxNum has bit k set when argument k is given. The samples
 * argument is required. */
static int unpack_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info)
{
	int argpos[3] = { -1, -1, -1 }, mask = 0, next = 1;

	(void)vtab;
	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		if (c->iColumn < COL_SAMPLES || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (!c->usable)
			return SQLITE_CONSTRAINT;
		argpos[c->iColumn - COL_SAMPLES] = i;
	}
	if (argpos[0] < 0)
		return SQLITE_CONSTRAINT;
	for (int k = 0; k < 3; k++) {
		if (argpos[k] < 0)
			continue;
		info->aConstraintUsage[argpos[k]].argvIndex = next++;
		info->aConstraintUsage[argpos[k]].omit = 1;
		mask |= 1 << k;
	}
	info->idxNum = mask;
	info->estimatedCost = 10;
	info->estimatedRows = 10;
	return SQLITE_OK;
}

static int unpack_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **cursor)
{
	struct unpack_cursor *c = sqlite3_malloc(sizeof *c);

	(void)vtab;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	*cursor = &c->base;
	return SQLITE_OK;
}

static int unpack_close(sqlite3_vtab_cursor *cursor)
{
	struct unpack_cursor *c = (struct unpack_cursor *)cursor;

	free(c->samples);
	sqlite3_free(c);
	return SQLITE_OK;
}

/* A blob that is not whole doubles, or offsets or weights not one per
 * sample, is a corrupt results row (as pdb_store_load_run says too). */
static int fail(struct unpack_cursor *c, int rc, char *msg)
{
	sqlite3_free(c->base.pVtab->zErrMsg);
	c->base.pVtab->zErrMsg = msg;
	return rc;
}

static int corrupt(struct unpack_cursor *c, const char *what, int bytes, sqlite3_int64 n)
{
	return fail(c, SQLITE_CORRUPT_VTAB, sqlite3_mprintf("database is corrupt: a results "
			"row's %s blob has %d bytes for %lld samples", what, bytes, n));
}

static int unpack_filter(sqlite3_vtab_cursor *cursor, int mask, const char *idxstr,
			 int argc, sqlite3_value **argv)
{
	static const char *const names[3] = { "samples", "offsets", "weights" };
	struct unpack_cursor *c = (struct unpack_cursor *)cursor;
	sqlite3_value *blobs[3] = { NULL, NULL, NULL };
	int arg = 0;

	(void)idxstr;
	for (int k = 0; k < 3 && arg < argc; k++)
		if (mask & (1 << k))
			blobs[k] = argv[arg++];
	free(c->samples);
	c->samples = NULL;
	c->at = c->n = 0;
	for (int k = 0; k < 3; k++)
		if (blobs[k] && sqlite3_value_type(blobs[k]) != SQLITE_BLOB &&
		    sqlite3_value_type(blobs[k]) != SQLITE_NULL)
			return fail(c, SQLITE_ERROR, sqlite3_mprintf("pdb_unpack takes the blobs "
				    "results.samples, offsets and weights; argument %d is not a blob", k + 1));
	c->n = sqlite3_value_bytes(blobs[0]) / 8;
	if (sqlite3_value_bytes(blobs[0]) % 8 != 0)
		return corrupt(c, names[0], sqlite3_value_bytes(blobs[0]), c->n);
	c->samples = pdb_xcalloc((size_t)c->n, sizeof *c->samples);
	for (sqlite3_int64 i = 0; i < c->n; i++)
		c->samples[i] = PDB_SAMPLE(0);
	for (int k = 0; k < 3; k++) {
		int bytes = blobs[k] ? sqlite3_value_bytes(blobs[k]) : 0;
		const unsigned char *blob = blobs[k] ? sqlite3_value_blob(blobs[k]) : NULL;
		if (k > 0 && bytes == 0)
			continue; /* no offsets, or no weights: NULL in every row */
		if (bytes != c->n * 8)
			return corrupt(c, names[k], bytes, c->n);
		pdb_store_unpack(blob, (size_t)c->n, k == 0 ? PDB_PACK_VALUE
					: k == 1 ? PDB_PACK_T : PDB_PACK_WEIGHT, c->samples);
	}
	return SQLITE_OK;
}

static int unpack_next(sqlite3_vtab_cursor *cursor)
{
	((struct unpack_cursor *)cursor)->at++;
	return SQLITE_OK;
}

static int unpack_eof(sqlite3_vtab_cursor *cursor)
{
	struct unpack_cursor *c = (struct unpack_cursor *)cursor;

	return c->at >= c->n;
}

/* A NaN (an absent offset or weight) is NULL, as SQLite has no NaN. */
static void result_real(sqlite3_context *ctx, double v)
{
	if (isnan(v))
		sqlite3_result_null(ctx);
	else
		sqlite3_result_double(ctx, v);
}

static int unpack_column(sqlite3_vtab_cursor *cursor, sqlite3_context *ctx, int col)
{
	struct unpack_cursor *c = (struct unpack_cursor *)cursor;
	const struct pdb_sample *s = &c->samples[c->at];

	switch (col) {
	case COL_INDEX: sqlite3_result_int64(ctx, c->at); break;
	case COL_VALUE: result_real(ctx, s->value); break;
	case COL_T: result_real(ctx, s->t); break;
	case COL_WEIGHT: result_real(ctx, s->weight); break;
	default: sqlite3_result_null(ctx); /* the arguments are not read back */
	}
	return SQLITE_OK;
}

static int unpack_rowid(sqlite3_vtab_cursor *cursor, sqlite3_int64 *rowid)
{
	*rowid = ((struct unpack_cursor *)cursor)->at;
	return SQLITE_OK;
}

static const sqlite3_module unpack_module = {
	.xConnect = unpack_connect,
	.xBestIndex = unpack_best_index,
	.xDisconnect = unpack_disconnect,
	.xOpen = unpack_open,
	.xClose = unpack_close,
	.xFilter = unpack_filter,
	.xNext = unpack_next,
	.xEof = unpack_eof,
	.xColumn = unpack_column,
	.xRowid = unpack_rowid,
};

int pdb_store_register_unpack(sqlite3 *db)
{
	return sqlite3_create_module(db, "pdb_unpack", &unpack_module, NULL);
}
