/* perfdb rm: delete runs and everything they hold. */
#include <stdlib.h>

#include "cmd.h"

static int rm_main(int argc, char **argv, struct cmd_ctx *ctx);

const struct command cmd_rm = {
	"rm", rm_main,
	"perfdb rm RUN...\n"
	"      --db FILE  the database\n"
	"Deletes each run; all selectors are resolved first, so a bad one deletes nothing.\n",
	"delete runs",
};

static int rm_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option longopts[] = { CMD_COMMON_OPTIONS, { 0, 0, 0, 0 } };
	struct pdb_store *store = NULL;
	struct pdb_err err;
	int64_t *ids = NULL;
	int c, status = PDB_EXIT_OK;

	while ((c = cmd_getopt(argc, argv, "h", longopts, &cmd_rm)) != -1)
		if ((status = cmd_common_option(&cmd_rm, ctx, c)) >= 0)
			goto out;
	status = PDB_EXIT_OK;
	if (optind >= argc) {
		status = cmd_usage_error(&cmd_rm, "expected at least one RUN");
		goto out;
	}
	if (!(store = cmd_open_existing_store(ctx, &err))) {
		status = cmd_fail("rm", &err);
		goto out;
	}
	ids = calloc((size_t)(argc - optind), sizeof *ids);
	for (int i = optind; i < argc; i++)
		if (pdb_store_resolve(store, argv[i], &ids[i - optind], &err) < 0) {
			status = cmd_fail("rm", &err);
			goto out;
		}
	for (int i = 0; i < argc - optind; i++)
		if (pdb_store_delete_run(store, ids[i], &err) < 0) {
			status = cmd_fail("rm", &err);
			goto out;
		}
out:
	free(ids);
	pdb_store_close(store);
	return status;
}
