/* perfdb: main, global options and the command table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd.h"
#include "util.h"

extern const struct command cmd_help, cmd_bisect, cmd_ingest, cmd_runs, cmd_show, cmd_table, cmd_rm, cmd_merge, cmd_export, cmd_sql, cmd_gc, cmd_compare, cmd_run, cmd_detect, cmd_plot, cmd_mock_kafka, cmd_report, cmd_site;

const struct command *const commands[] = {
	&cmd_run,
	&cmd_ingest,
	&cmd_runs,
	&cmd_show,
	&cmd_table,
	&cmd_rm,
	&cmd_merge,
	&cmd_export,
	&cmd_sql,
	&cmd_gc,
	&cmd_compare,
	&cmd_plot,
	&cmd_detect,
	&cmd_bisect,
	&cmd_mock_kafka,
	&cmd_report,
	&cmd_site,
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

/* The command name is a misspelling of, or NULL. */
static const char *near_command(const char *name)
{
	const char *names[32];
	size_t n = 0;

	for (size_t i = 0; commands[i] && n < sizeof names / sizeof names[0]; i++)
		names[n++] = commands[i]->name;
	return pdb_closest(name, names, n);
}

/* "unknown command 'comapre' (did you mean compare?)" after prefix; 2. */
static int unknown_command(const char *prefix, const char *name)
{
	const char *near = near_command(name);

	if (near)
		fprintf(stderr, "%sunknown command '%s' (did you mean %s?)\n", prefix, name, near);
	else
		fprintf(stderr, "%sunknown command '%s' (perfdb help lists them)\n", prefix, name);
	return PDB_EXIT_USAGE;
}

const char cmd_about[] =
	"perfdb keeps benchmark results in one SQLite file, compares runs and\n"
	"gates CI on regressions.\n";

static void print_overview(FILE *out)
{
	fprintf(out, "usage: perfdb [--db FILE] COMMAND [OPTIONS] [ARGS]\n\n%s\ncommands:\n", cmd_about);
	for (size_t i = 0; commands[i]; i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\n'perfdb help COMMAND' or 'perfdb COMMAND -h' shows a command's options;\n"
	      "man perfdb-COMMAND its manual page. The database is --db FILE, else\n"
	      "$PERFDB_DB, else ./perfdb.db. perfdb --version prints the version;\n"
	      "perfdb --generate complete-bash|complete-zsh prints the bash and zsh\n"
	      "completions (md-head-COMMAND, md-options-COMMAND, md-commands and\n"
	      "md-formats the blocks of the manual's sources, for make docs).\n", out);
}

static int help_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	const struct command *cmd;
	int c, status;

	while ((c = cmd_next_option(argc, argv, &cmd_help)) != -1)
		if ((status = cmd_common_option(&cmd_help, ctx, c)) >= 0)
			return status;
	if (optind >= argc) {
		print_overview(stdout);
		return PDB_EXIT_OK;
	}
	if (optind + 1 < argc)
		return cmd_usage_error(&cmd_help, "expected one COMMAND, got %d", argc - optind);
	if (!(cmd = find_command(argv[optind])))
		return unknown_command("perfdb: help: ", argv[optind]);
	cmd_print_usage(cmd, stdout);
	return PDB_EXIT_OK;
}

const struct command cmd_help = {
	.name = "help", .run = help_main,
	.summary = "list the commands, or show one's options",
	.synopsis = "[COMMAND]",
	.text = "With no COMMAND, lists the commands; with one, shows its options (as\n"
		"'perfdb COMMAND -h' does).\n",
	.operand = CMD_OPERAND_COMMAND,
};

int main(int argc, char **argv)
{
	struct cmd_ctx ctx = { 0 };
	const struct command *cmd;
	int i = 1, status;

	/* jansson allocates through perfdb's allocator: out of memory is exit 4 there too */
	json_set_alloc_funcs(pdb_xmalloc, free);

	while (i < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "--version") == 0) {
			printf("perfdb %s\n", PDB_VERSION);
			return PDB_EXIT_OK;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			print_overview(stdout);
			return PDB_EXIT_OK;
		} else if (strcmp(argv[i], "--generate") == 0 && i + 1 < argc) {
			return cmd_generate(argv[i + 1], stdout);
		} else if (strncmp(argv[i], "--generate=", 11) == 0) {
			return cmd_generate(argv[i] + 11, stdout);
		} else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
			ctx.db_path = argv[i + 1];
			i += 2;
		} else if (strncmp(argv[i], "--db=", 5) == 0) {
			ctx.db_path = argv[i] + 5;
			i++;
		} else if (strcmp(argv[i], "--db") == 0) {
			fputs("perfdb: option '--db' needs a value (see perfdb -h)\n", stderr);
			return PDB_EXIT_USAGE;
		} else {
			static const char *const globals[] = { "db", "help", "version", "generate" };
			size_t len = strcspn(argv[i], "=");
			char *word = pdb_xstrndup(argv[i], len);
			const char *near = strncmp(word, "--", 2) == 0
				? pdb_closest(word + 2, globals, 4) : NULL;
			if (near)
				fprintf(stderr, "perfdb: unknown option '%s' (did you mean --%s?) (see perfdb -h)\n",
					word, near);
			else
				fprintf(stderr, "perfdb: unknown option '%s' (see perfdb -h)\n", word);
			free(word);
			return PDB_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		print_overview(stderr);
		return PDB_EXIT_USAGE;
	}
	if (!(cmd = find_command(argv[i])))
		return unknown_command("perfdb: ", argv[i]);
	/* the commands' options go through cmd_next_option, which says what is
	 * wrong itself: getopt_long must not (opterr = 0 there) */
	optind = 1;
	status = cmd->run(argc - i, argv + i, &ctx);
	/* a full disk or a closed pipe must not pass for success */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "perfdb: %s: cannot write the output: %s\n", cmd->name,
			strerror(errno ? errno : EIO));
		status = PDB_EXIT_RUNTIME;
	}
	return status;
}
