/* perfdb: main, global options and the command table. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

extern const struct command cmd_help, cmd_ingest, cmd_runs, cmd_show, cmd_rm, cmd_compare, cmd_run, cmd_detect, cmd_plot, cmd_mock_kafka, cmd_report;

const struct command *const commands[] = {
	&cmd_run,
	&cmd_ingest,
	&cmd_runs,
	&cmd_show,
	&cmd_rm,
	&cmd_compare,
	&cmd_plot,
	&cmd_detect,
	&cmd_mock_kafka,
	&cmd_report,
	&cmd_help,
	NULL,
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; commands[i]; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static void print_overview(FILE *out)
{
	fputs("usage: perfdb [--db FILE] COMMAND [OPTIONS] [ARGS]\n\n"
	      "perfdb keeps benchmark results in one SQLite file, compares runs and\n"
	      "gates CI on regressions.\n\ncommands:\n", out);
	for (size_t i = 0; commands[i]; i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\n'perfdb help COMMAND' or 'perfdb COMMAND -h' shows a command's options.\n"
	      "The database is --db FILE, else $PERFDB_DB, else ./perfdb.db.\n", out);
}

static int help_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	const struct command *cmd;

	(void)ctx;
	if (argc < 2) {
		print_overview(stdout);
		return PDB_EXIT_OK;
	}
	if (!(cmd = find_command(argv[1]))) {
		fprintf(stderr, "perfdb: help: unknown command '%s'\n", argv[1]);
		return PDB_EXIT_USAGE;
	}
	cmd_print_usage(cmd, stdout);
	return PDB_EXIT_OK;
}

const struct command cmd_help = {
	"help", help_main, "perfdb help [COMMAND]\n", "list the commands, or show one's options",
};

int main(int argc, char **argv)
{
	struct cmd_ctx ctx = { 0 };
	char prefixed[64];
	const struct command *cmd;
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "--version") == 0) {
			printf("perfdb %s\n", PDB_VERSION);
			return PDB_EXIT_OK;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			print_overview(stdout);
			return PDB_EXIT_OK;
		} else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
			ctx.db_path = argv[i + 1];
			i += 2;
		} else if (strncmp(argv[i], "--db=", 5) == 0) {
			ctx.db_path = argv[i] + 5;
			i++;
		} else {
			fprintf(stderr, "perfdb: unknown option '%s'\n", argv[i]);
			print_overview(stderr);
			return PDB_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		print_overview(stderr);
		return PDB_EXIT_USAGE;
	}
	if (!(cmd = find_command(argv[i]))) {
		fprintf(stderr, "perfdb: unknown command '%s' (perfdb help lists them)\n", argv[i]);
		return PDB_EXIT_USAGE;
	}
	/* getopt's own messages then read "perfdb: show: unrecognized option" */
	argv[i] = prefixed;
	snprintf(prefixed, sizeof prefixed, "perfdb: %s", cmd->name);
	optind = 1;
	return cmd->run(argc - i, argv + i, &ctx);
}
