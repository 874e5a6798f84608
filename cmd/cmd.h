/* Commands: the command table entry, shared option handling and output helpers. */
#ifndef PDB_CMD_H
#define PDB_CMD_H

#include <getopt.h>
#include <stdio.h>

#include "err.h"
#include "store.h"
#include "text_table.h"

#define PDB_VERSION "0.1.0"

struct cmd_ctx {
	const char *db_path; /* --db before the command, or NULL */
};

struct command {
	const char *name;
	int (*run)(int argc, char **argv, struct cmd_ctx *ctx);
	const char *usage;   /* "perfdb NAME ..." and its options, lines ending in \n */
	const char *summary; /* one line for `perfdb help` */
};

/* The command table (cmd/perfdb.c), NULL-ended; each cmd/NAME.c defines
 * one `const struct command cmd_NAME`. */
extern const struct command *const commands[];

/* Options every command takes; add CMD_COMMON_OPTIONS to its long options
 * and pass unknown letters to cmd_common_option. */
#define CMD_OPT_DB 0x1000
#define CMD_COMMON_OPTIONS { "db", required_argument, 0, CMD_OPT_DB }, \
	{ "help", no_argument, 0, 'h' }

/* getopt_long for cmd, which says what is wrong itself: an unknown option
 * ("unknown option '--tresh' (did you mean --threshold?)", the candidates
 * being longopts), a missing value ("option '--format' needs a value"), an
 * ambiguous abbreviation or a value given to a flag is a usage error on
 * stderr, and returns '?' (which cmd_common_option turns into status 2). */
int cmd_getopt(int argc, char **argv, const char *shortopts,
	       const struct option *longopts, const struct command *cmd);

/* Handles --db, -h and the '?' of cmd_getopt. Returns -1 to go on, or an
 * exit status (0 after help, 2 after a usage error). */
int cmd_common_option(const struct command *cmd, struct cmd_ctx *ctx, int c);

/* s for a terminal (pdb_escape_term: control characters as \n, \xNN, ...),
 * for text that may quote a result file. Caller frees. */
char *cmd_escape_controls(const char *s);
/* "perfdb: NAME: message" on stderr (control characters escaped); returns err->code. */
int cmd_fail(const char *name, const struct pdb_err *err);
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
