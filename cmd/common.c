/* Commands: shared option handling, errors and aligned tables. */
#include "cmd.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare_config.h"
#include "dim_filter.h"
#include "escape.h"
#include "runner/git.h"
#include "util.h"

/* The long option name is (exactly, else a prefix that getopt_long took
 * for an abbreviation) and whose val is val (any when val is 0). */
static const struct option *find_long(const struct option *longopts, const char *name,
				      size_t len, int val)
{
	const struct option *prefix = NULL;

	for (const struct option *o = longopts; o->name; o++) {
		if (val && o->val != val)
			continue;
		if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
			return o;
		if (!prefix && strncmp(o->name, name, len) == 0)
			prefix = o;
	}
	return prefix;
}

/* "unknown option '--NAME' (did you mean --X?)" or "option '--NAME' is
 * ambiguous (--A, --B)" for argument arg ("--NAME" or "--NAME=VALUE"). */
static void bad_long(const struct command *cmd, const struct option *longopts, const char *arg)
{
	const char *name = arg + 2, *near;
	size_t len = strcspn(name, "="), n = 0;
	const char **names;
	char *word = pdb_xstrndup(name, len);
	struct pdb_buf matches;

	for (const struct option *o = longopts; o->name; o++)
		n++;
	names = pdb_xcalloc(n ? n : 1, sizeof *names);
	pdb_buf_init(&matches);
	n = 0;
	for (const struct option *o = longopts; o->name; o++) {
		names[n++] = o->name;
		if (len && strncmp(o->name, word, len) == 0)
			pdb_buf_printf(&matches, "%s--%s", matches.len ? ", " : "", o->name);
	}
	if (len && strchr(matches.data ? matches.data : "", ','))
		cmd_usage_error(cmd, "option '--%s' is ambiguous (%s)", word, matches.data);
	else if ((near = pdb_closest_abbrev(word, names, n)))
		cmd_usage_error(cmd, "unknown option '--%s' (did you mean --%s?)", word, near);
	else
		cmd_usage_error(cmd, "unknown option '--%s'", word);
	pdb_buf_release(&matches);
	free(names);
	free(word);
}

/* getopt_long with the messages of cmd_next_option. */
static int next_option(int argc, char **argv, const char *shortopts,
		       const struct option *longopts, const struct command *cmd)
{
	char optstring[2 * CMD_MAX_OPTIONS + 2];
	const char *arg;
	const struct option *o;
	int c;

	/* a leading ':' tells a missing value (':') from an unknown option ('?') */
	snprintf(optstring, sizeof optstring, "%s%s", shortopts[0] == ':' ? "" : ":", shortopts);
	opterr = 0;
	c = getopt_long(argc, argv, optstring, longopts, NULL);
	if (c != '?' && c != ':')
		return c;
	/* a long option and a short one at the end of its word have moved optind on */
	arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	if (c == ':') {
		if (strncmp(arg, "--", 2) == 0 &&
		    (o = find_long(longopts, arg + 2, strcspn(arg + 2, "="), optopt)))
			cmd_usage_error(cmd, "option '--%s' needs a value", o->name);
		else
			cmd_usage_error(cmd, "option '-%c' needs a value", optopt);
	} else if (optopt == 0 && strncmp(arg, "--", 2) == 0) {
		bad_long(cmd, longopts, arg);
	} else if (optopt && strncmp(arg, "--", 2) == 0 && strchr(arg, '=') &&
		   (o = find_long(longopts, arg + 2, strcspn(arg + 2, "="), optopt)) &&
		   o->has_arg == no_argument) {
		cmd_usage_error(cmd, "option '--%s' takes no value", o->name);
	} else if (optopt > 0 && optopt < 128) {
		cmd_usage_error(cmd, "unknown option '-%c'", optopt);
	} else {
		cmd_usage_error(cmd, "unknown option '%s'", arg);
	}
	return '?';
}

const struct cmd_option cmd_common_options[] = {
	{ "db", CMD_OPT_DB, "FILE", "the database", NULL },
	{ "help", 'h', NULL, "print this help and exit", NULL },
	{ 0 },
};

/* The option named name in the table options (ended by { 0 }), or NULL. */
static const struct cmd_option *find_option(const struct cmd_option *options, const char *name)
{
	for (const struct cmd_option *o = options; o && o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

size_t cmd_options(const struct command *cmd, const struct cmd_option **out)
{
	const struct cmd_option *const tables[] = { cmd->options, cmd_common_options };
	size_t n = 0;

	for (size_t t = 0; t < 2; t++)
		for (const struct cmd_option *o = tables[t]; o && o->name; o++) {
			if (t == 1 && find_option(cmd->options, o->name))
				continue; /* the command's own --db */
			if (n == CMD_MAX_OPTIONS)
				abort(); /* a table longer than CMD_MAX_OPTIONS: raise it */
			out[n++] = o;
		}
	return n;
}

int cmd_next_option(int argc, char **argv, const struct command *cmd)
{
	const struct cmd_option *opts[CMD_MAX_OPTIONS];
	struct option longopts[CMD_MAX_OPTIONS + 1];
	char shortopts[2 * CMD_MAX_OPTIONS + 1], *p = shortopts;
	size_t n = cmd_options(cmd, opts);

	for (size_t i = 0; i < n; i++) {
		longopts[i] = (struct option){ opts[i]->name,
			opts[i]->arg ? required_argument : no_argument, 0, opts[i]->val };
		if (opts[i]->val < CMD_LONG_ONLY) {
			*p++ = (char)opts[i]->val;
			if (opts[i]->arg)
				*p++ = ':';
		}
	}
	longopts[n] = (struct option){ 0 };
	*p = '\0';
	return next_option(argc, argv, shortopts, longopts, cmd);
}

int cmd_common_option(const struct command *cmd, struct cmd_ctx *ctx, int c)
{
	switch (c) {
	case CMD_OPT_DB:
		ctx->db_path = optarg;
		return -1;
	case 'h':
		cmd_print_usage(cmd, stdout);
		return PDB_EXIT_OK;
	case '?': /* cmd_next_option said what was wrong */
		return PDB_EXIT_USAGE;
	default: /* an option of the command's that it forgot to handle */
		return cmd_usage_error(cmd, "option %d is not handled (a bug)", c);
	}
}

void cmd_say(const char *name, const char *fmt, ...)
{
	char *msg, *safe;
	va_list ap;

	va_start(ap, fmt);
	msg = pdb_xvasprintf(fmt, ap);
	va_end(ap);
	safe = cmd_escape_controls(msg);
	fprintf(stderr, "perfdb: %s: %s\n", name, safe);
	free(msg);
	free(safe);
}

int cmd_bisect_hint(const char *name, const char *subject, const char *between,
		    const char *good, const char *bad)
{
	long n = good && bad ? pdb_git_distance(good, bad) : -1;

	if (n < 2)
		return 0;
	cmd_say(name, "%s%s%ld commits lie between %s: perfdb bisect SPEC --good %.12s --bad %.12s "
		"finds the one that made the change", subject ? subject : "", subject ? ": " : "", n,
		between, good, bad);
	return 1;
}

int cmd_fail(const char *name, const struct pdb_err *err)
{
	char msg[1200];

	pdb_err_format(err, msg, sizeof msg);
	cmd_say(name, "%s", msg); /* an error may quote the input */
	return err->code ? err->code : PDB_EXIT_RUNTIME;
}

/* "  -F, --format FMT" or "      --all": an option's left column in -h. */
static void option_label(const struct cmd_option *o, char *out, size_t size)
{
	char letter[8] = "    ";

	if (o->val < CMD_LONG_ONLY)
		snprintf(letter, sizeof letter, "-%c, ", o->val);
	snprintf(out, size, "  %s--%s%s%s", letter, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* The help column: two spaces after the widest label of at most 24
 * characters; a wider label has its help two spaces after it. */
#define LABEL_MAX 24

void cmd_print_usage(const struct command *cmd, FILE *out)
{
	const struct cmd_option *opts[CMD_MAX_OPTIONS];
	size_t n, col = 0;
	char label[128];

	fprintf(out, "usage: perfdb %s%s%s\n", cmd->name, *cmd->synopsis ? " " : "", cmd->synopsis);
	n = cmd_options(cmd, opts);
	for (size_t i = 0; i < n; i++) {
		option_label(opts[i], label, sizeof label);
		if (strlen(label) <= LABEL_MAX && strlen(label) + 2 > col)
			col = strlen(label) + 2;
	}
	for (size_t i = 0; i < n; i++) {
		const char *line = opts[i]->help;
		size_t len;
		option_label(opts[i], label, sizeof label);
		len = strcspn(line, "\n");
		if (strlen(label) + 2 <= col)
			fprintf(out, "%-*s%.*s\n", (int)col, label, (int)len, line);
		else
			fprintf(out, "%s  %.*s\n", label, (int)len, line);
		for (line += len; *line == '\n'; line += len) {
			line++;
			len = strcspn(line, "\n");
			fprintf(out, "%*s%.*s\n", (int)col, "", (int)len, line);
		}
	}
	fputs(cmd->text ? cmd->text : "", out);
}

int cmd_usage_error(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "perfdb: %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see perfdb %s -h)\n", cmd->name);
	return PDB_EXIT_USAGE;
}

struct pdb_store *cmd_open_store(struct cmd_ctx *ctx, struct pdb_err *err)
{
	return pdb_store_open(pdb_store_default_path(ctx->db_path), err);
}

struct pdb_store *cmd_open_existing_store(struct cmd_ctx *ctx, struct pdb_err *err)
{
	const char *path = pdb_store_default_path(ctx->db_path);

	if (access(path, F_OK) != 0) {
		pdb_err_set(err, PDB_EXIT_INPUT, "no database at %s (perfdb ingest or perfdb run "
			    "creates one; --db or PERFDB_DB names another)", path);
		return NULL;
	}
	return pdb_store_open(path, err);
}

int cmd_parse_size(const char *text, uint64_t *out)
{
	static const char units[] = "kmgt";
	char *end;
	unsigned long long n;
	const char *u;
	uint64_t scale = 1;

	if (!text || !(*text >= '0' && *text <= '9'))
		return -1;
	errno = 0;
	n = strtoull(text, &end, 10);
	if (errno || n == 0)
		return -1;
	if (*end && (u = strchr(units, tolower((unsigned char)*end)))) {
		scale = (uint64_t)1 << (10 * (u - units + 1));
		end++;
		if (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0)
			end += strlen(end);
	}
	if (*end || n > UINT64_MAX / scale)
		return -1;
	*out = (uint64_t)n * scale;
	return 0;
}

int cmd_parse_format(const char *name, const char *const *allowed)
{
	for (int i = 0; allowed[i]; i++)
		if (strcmp(name, allowed[i]) == 0)
			return i;
	return -1;
}

int cmd_use_color(FILE *out)
{
	const char *no = getenv("NO_COLOR");
	return isatty(fileno(out)) && !(no && *no);
}

char *cmd_output_dir(char *arg)
{
	size_t n = strlen(arg);

	while (n > 1 && arg[n - 1] == '/')
		arg[--n] = '\0';
	return arg;
}

int cmd_split_kv(const char *text, char **key, char **value)
{
	const char *eq = strchr(text, '=');

	if (!eq || eq == text)
		return -1;
	*key = pdb_xstrndup(text, (size_t)(eq - text));
	*value = pdb_xstrdup(eq + 1);
	return 0;
}

int cmd_add_where(const struct command *cmd, struct pdb_buf *where, const char *arg)
{
	const char *part = arg;

	do {
		const char *end = strchr(part, ','), *eq = strchr(part, '=');
		if (!eq || eq == part || (end && eq > end))
			return cmd_usage_error(cmd, "--where needs KEY=VALUE[,KEY=VALUE], got '%s'", arg);
		part = end ? end + 1 : NULL;
	} while (part);
	pdb_buf_printf(where, "%s%s", where->len ? "," : "", arg);
	return -1;
}

int cmd_add_dim(const struct command *cmd, struct pdb_dim_filter *dims, const char *arg)
{
	struct pdb_err err;

	if (pdb_dim_filter_add(dims, arg, &err) < 0)
		return cmd_usage_error(cmd, "%s", err.msg);
	return -1;
}

void cmd_table_init(struct cmd_table *t, size_t ncols, const char *align)
{
	pdb_text_table_init(&t->t, ncols, align);
}

char *cmd_escape_controls(const char *s)
{
	return pdb_term_text(s);
}

void cmd_table_add_styled(struct cmd_table *t, const char *const *row, const char *style)
{
	pdb_text_table_add(&t->t, row, style);
}

void cmd_table_add(struct cmd_table *t, const char *const *row)
{
	pdb_text_table_add(&t->t, row, NULL);
}

void cmd_table_print(const struct cmd_table *t, FILE *out)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_text_table_write(&t->t, &b);
	fputs(b.data, out);
	pdb_buf_release(&b);
}

void cmd_table_release(struct cmd_table *t)
{
	pdb_text_table_release(&t->t);
}

int cmd_compare_config(const char *path, struct pdb_compare_config *cfg,
		       const struct pdb_compare_config **use, struct pdb_err *err)
{
	if (!path && access("perfdb.yaml", F_OK) == 0)
		path = "perfdb.yaml";
	if (!path)
		return 0;
	if (pdb_compare_config_load(path, cfg, err) < 0)
		return -1;
	*use = cfg;
	return 0;
}
