/* perfdb rm: delete runs and everything they hold. */
#include <stdlib.h>

#include "cmd.h"
#include "util.h"

static int rm_main(int argc, char **argv, struct cmd_ctx *ctx);

static const struct cmd_option options[] = {
	{ "where", 'w', "K=V[,K=V]", "every run with these attributes (repeatable: all must match;\n"
				     "none is not an error)" },
	{ 0 },
};

const struct command cmd_rm = {
	.name = "rm", .run = rm_main,
	.summary = "delete runs",
	.synopsis = "RUN... | --where K=V[,K=V]...",
	.options = options,
	.text = "Deletes each run named and every run --where matches, in one transaction; all\n"
		"selectors are resolved first, so a bad one deletes nothing.\n",
	.operand = CMD_OPERAND_RUN,
};

/* Sort ids and drop repeats (a run named twice, or named and matched). */
static size_t unique_ids(int64_t *ids, size_t n)
{
	size_t k = 0;

	qsort(ids, n, sizeof *ids, pdb_cmp_int64);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || ids[k - 1] != ids[i])
			ids[k++] = ids[i];
	return k;
}

static int rm_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct pdb_store *store = NULL;
	struct pdb_buf where;
	struct pdb_err err;
	int64_t *ids = NULL;
	size_t n = 0;
	int c, status = PDB_EXIT_OK;

	pdb_buf_init(&where);
	while ((c = cmd_next_option(argc, argv, &cmd_rm)) != -1)
		if ((status = c == 'w' ? cmd_add_where(&cmd_rm, &where, optarg)
				       : cmd_common_option(&cmd_rm, ctx, c)) >= 0)
			goto out;
	status = PDB_EXIT_OK;
	if (optind >= argc && !where.len) {
		status = cmd_usage_error(&cmd_rm, "expected at least one RUN or --where");
		goto out;
	}
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    (where.len && pdb_store_run_ids(store, where.data, &ids, &n, &err) < 0))
		goto fail;
	ids = pdb_xrealloc(ids, (n + (size_t)(argc - optind) + 1) * sizeof *ids);
	for (int i = optind; i < argc; i++)
		if (pdb_store_resolve(store, argv[i], &ids[n++], &err) < 0)
			goto fail;
	if (pdb_store_delete_runs(store, ids, unique_ids(ids, n), &err) < 0)
		goto fail;
	goto out;
fail:
	status = cmd_fail("rm", &err);
out:
	free(ids);
	pdb_buf_release(&where);
	pdb_store_close(store);
	return status;
}
