/* Commands: the command table entry, shared option handling and output helpers. */
#ifndef PDB_CMD_H
#define PDB_CMD_H

#include <getopt.h>
#include <stdio.h>

#include "err.h"
#include "store/store.h"
#include "text_table.h"

#define PDB_VERSION "0.1.0"

struct cmd_ctx {
	const char *db_path; /* --db before the command, or NULL */
};

/* One option of a command: getopt_long's long option and short letter,
 * the lines of -h and of the man page, and the bash completion are all
 * made from it (cmd/common.c, cmd/generate.c). */
struct cmd_option {
	const char *name;   /* the long option, without "--" */
	int val;            /* its short letter, or a code >= CMD_LONG_ONLY when it has none;
			     * what cmd_next_option returns for it */
	const char *arg;    /* the value's name ("FILE", "N"), or NULL: a flag; FILE, DIR,
			     * RUN and FORMAT (an ingest format) tell the completion what it is */
	const char *help;   /* what -h says, lines separated by '\n' */
	const char *const *choices; /* the words the value must be (NULL-ended), or NULL */
};
#define CMD_LONG_ONLY 0x100

/* What a command's operands are, for the completion. */
enum cmd_operand { CMD_OPERAND_NONE, CMD_OPERAND_RUN, CMD_OPERAND_FILE, CMD_OPERAND_COMMAND };

struct command {
	const char *name;
	int (*run)(int argc, char **argv, struct cmd_ctx *ctx);
	const char *summary;   /* one line for `perfdb help` */
	const char *synopsis;  /* what follows "perfdb NAME" on the usage line */
	const struct cmd_option *options; /* ended by { 0 }; --db and -h are added */
	const char *text;      /* what -h prints under the options, lines ending in \n;
				* the man page's DESCRIPTION (an indented line is kept as is) */
	enum cmd_operand operand;
	const char *const *kinds; /* the words its first operand must be (plot's KIND), or NULL */
};

/* The command table (cmd/perfdb.c), NULL-ended; each cmd/NAME.c defines
 * one `const struct command cmd_NAME`. */
extern const struct command *const commands[];

/* Options every command takes beside its own (--db FILE, -h/--help);
 * a command may give --db a help of its own in its table (val CMD_OPT_DB). */
#define CMD_OPT_DB 0x1000
extern const struct cmd_option cmd_common_options[];

/* The next option of cmd's command line, as getopt_long returns it: an
 * option's val, -1 at the end, '?' after a usage error. Says what is wrong
 * itself: an unknown option ("unknown option '--tresh' (did you mean
 * --threshold?)"), a missing value ("option '--format' needs a value"), an
 * ambiguous abbreviation or a value given to a flag is a usage error on
 * stderr, and returns '?' (which cmd_common_option turns into status 2). */
int cmd_next_option(int argc, char **argv, const struct command *cmd);

/* Handles --db, -h and the '?' of cmd_next_option. Returns -1 to go on, or an
 * exit status (0 after help, 2 after a usage error). */
int cmd_common_option(const struct command *cmd, struct cmd_ctx *ctx, int c);

/* What perfdb is, in a few lines: `perfdb help` and perfdb(1) say it. */
extern const char cmd_about[];

/* perfdb --generate KIND: a man page (man, man-COMMAND, man-formats), the
 * bash completion (complete-bash) or the option tables as text (options)
 * on out; the exit status (2 for an unknown KIND, said on stderr). */
int cmd_generate(const char *kind, FILE *out);

/* cmd's options, its own then the common ones it did not give a help of
 * its own, into out (room for CMD_MAX_OPTIONS; more aborts); returns how many. */
#define CMD_MAX_OPTIONS 48
size_t cmd_options(const struct command *cmd, const struct cmd_option **out);

/* s for a terminal (pdb_escape_term: control characters as \n, \xNN, ...),
 * for text that may quote a result file. Caller frees. */
char *cmd_escape_controls(const char *s);
/* "perfdb: NAME: message" on stderr (control characters escaped); returns err->code. */
int cmd_fail(const char *name, const struct pdb_err *err);
/* "perfdb: NAME: " and the message on stderr, the whole message escaped for
 * the terminal (it may quote names from the data): every note and warning. */
void cmd_say(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* When commits good and bad lie 2 or more commits apart in the git
 * repository here, say (as cmd_say, subject and between naming what they
 * are) the perfdb bisect command that finds the one that made the change;
 * 1 when said. Asks git, so once per pair of commits. */
int cmd_bisect_hint(const char *name, const char *subject, const char *between,
		    const char *good, const char *bad);
/* Usage error: "perfdb: NAME: message (see perfdb NAME -h)", one line on
 * stderr; returns 2. */
int cmd_usage_error(const struct command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cmd_print_usage(const struct command *cmd, FILE *out);

/* Open the database chosen by --db, $PERFDB_DB or ./perfdb.db. */
struct pdb_store *cmd_open_store(struct cmd_ctx *ctx, struct pdb_err *err);
/* The same for commands that only read: a missing file is exit 3, not created. */
struct pdb_store *cmd_open_existing_store(struct cmd_ctx *ctx, struct pdb_err *err);

/* compare's and report's configuration: path, else ./perfdb.yaml when it
 * exists, loaded into cfg and pointed to by *use; none leaves *use alone.
 * 0, or -1 with err. */
struct pdb_compare_config;
int cmd_compare_config(const char *path, struct pdb_compare_config *cfg,
		       const struct pdb_compare_config **use, struct pdb_err *err);

/* Output formats: index of name in the NULL-ended list allowed, or -1. */
int cmd_parse_format(const char *name, const char *const *allowed);
/* "512", "64k", "1G", "2TiB" (powers of 1024) into *out, above 0: 0, or -1. */
int cmd_parse_size(const char *text, uint64_t *out);
/* Colour on out: a terminal and no NO_COLOR. */
int cmd_use_color(FILE *out);
/* An output folder as given, without its trailing slashes ("public/" is
 * "public", so that the paths printed read public/index.html; "/" stays). */
char *cmd_output_dir(char *arg);
/* Split "K=V" into key and value (pointers into a copy the caller frees). */
int cmd_split_kv(const char *text, char **key, char **value);
/* --where K=V[,K=V...], repeatable: every part appended to where ("k=v,k=v",
 * all must match). -1 when taken, else the status of a usage error for a
 * part without KEY=. */
struct pdb_buf;
int cmd_add_where(const struct command *cmd, struct pdb_buf *where, const char *arg);

/* --dim K=V, repeatable (lib/dim_filter.c: series whose dim K is another
 * value are left out): added to dims. -1 when taken, else the status of a
 * usage error. The help line every command gives it: */
struct pdb_dim_filter;
int cmd_add_dim(const struct command *cmd, struct pdb_dim_filter *dims, const char *arg);
#define CMD_DIM_HELP "only series whose dim K is V or that have no dim K\n" \
	"(repeatable, all must hold)"

/* Aligned text tables (lib/text_table.c) printed to a stream. Cells are copied. */
struct cmd_table {
	struct pdb_text_table t;
};
void cmd_table_init(struct cmd_table *t, size_t ncols, const char *align);
/* Cells are copied escaped for the terminal (pdb_escape_term). */
void cmd_table_add(struct cmd_table *t, const char *const *row);
/* The same, the last cell drawn in colour (a static "\033[31m"-style code). */
void cmd_table_add_styled(struct cmd_table *t, const char *const *row, const char *style);
void cmd_table_print(const struct cmd_table *t, FILE *out);
void cmd_table_release(struct cmd_table *t);

#endif
