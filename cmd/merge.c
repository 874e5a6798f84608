/* perfdb merge: copy every run of other perfdb databases into this one. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "util.h"

static int merge_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_DRY_RUN = CMD_LONG_ONLY };

static const struct cmd_option options[] = {
	{ "dry-run", OPT_DRY_RUN, NULL, "do everything but commit: print what would be merged" },
	{ "db", CMD_OPT_DB, "FILE", "the database merged into (created when missing)" },
	{ 0 },
};

const struct command cmd_merge = {
	.name = "merge", .run = merge_main,
	.summary = "merge the runs of other databases into this one",
	.synopsis = "[--dry-run] FILE.db...",
	.options = options,
	.text = "Copies every run of each FILE.db (one transaction per file), keeping uuids,\n"
		"times, names, attributes, samples, stats and failures. A run whose uuid is\n"
		"here already is skipped; a name taken by another run becomes NAME~2 (the\n"
		"attribute merge.renamed_from keeps the old one), with a warning. An older\n"
		"FILE.db is migrated first; one from a newer perfdb is refused.\n",
	.operand = CMD_OPERAND_FILE,
};

struct rename_ctx {
	const char *source;
};

static void on_rename(void *ctx, const struct pdb_run *run, const char *was)
{
	const struct rename_ctx *c = ctx;
	char *line = pdb_xasprintf("%s: run %s is named '%s' here already: merged as '%s' (run%lld)",
				   c->source, run->uuid, was, run->name, (long long)run->id);
	char *safe = cmd_escape_controls(line);

	fprintf(stderr, "perfdb: merge: warning: %s\n", safe);
	free(safe);
	free(line);
}

static int merge_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct pdb_store *store = NULL, *src = NULL;
	struct pdb_err err;
	size_t merged = 0, skipped = 0;
	int c, dry_run = 0, status = PDB_EXIT_OK;
	const char *path;

	while ((c = cmd_next_option(argc, argv, &cmd_merge)) != -1) {
		if (c == OPT_DRY_RUN)
			dry_run = 1;
		else if ((status = cmd_common_option(&cmd_merge, ctx, c)) >= 0)
			goto out;
		else
			status = PDB_EXIT_OK;
	}
	if (optind >= argc) {
		status = cmd_usage_error(&cmd_merge, "expected at least one FILE.db");
		goto out;
	}
	/* every source is checked before anything is merged */
	for (int i = optind; i < argc; i++)
		if (access(argv[i], F_OK) != 0) {
			pdb_err_set(&err, PDB_EXIT_INPUT, "%s: no such file", argv[i]);
			status = cmd_fail("merge", &err);
			goto out;
		}
	path = pdb_store_default_path(ctx->db_path);
	/* a dry run into a database that does not exist yet creates none */
	if (dry_run && access(path, F_OK) != 0)
		store = pdb_store_open(":memory:", &err);
	else
		store = pdb_store_open(path, &err);
	if (!store) {
		status = cmd_fail("merge", &err);
		goto out;
	}
	if (pdb_store_readonly(store)) {
		pdb_err_set(&err, PDB_EXIT_RUNTIME, "%s: read-only: cannot merge into it", path);
		status = cmd_fail("merge", &err);
		goto out;
	}
	for (int i = optind; i < argc; i++) {
		struct rename_ctx rc = { argv[i] };
		struct pdb_merge_stats st;
		if (!(src = pdb_store_open_existing(argv[i], &err)) ||
		    pdb_store_merge(store, src, dry_run, on_rename, &rc, &st, &err) < 0) {
			status = cmd_fail("merge", &err);
			goto out;
		}
		merged += st.merged;
		skipped += st.skipped;
		pdb_store_close(src);
		src = NULL;
	}
	if (dry_run)
		printf("would merge %zu run%s, skip %zu (dry run: nothing changed)\n", merged,
		       merged == 1 ? "" : "s", skipped);
	else
		printf("merged %zu run%s, skipped %zu\n", merged, merged == 1 ? "" : "s", skipped);
out:
	pdb_store_close(src);
	pdb_store_close(store);
	return status;
}
