/* Commands: shared option handling, errors and aligned tables. */
#include "cmd.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare_config.h"
#include "util.h"

int cmd_common_option(const struct command *cmd, struct cmd_ctx *ctx, int c)
{
	switch (c) {
	case CMD_OPT_DB:
		ctx->db_path = optarg;
		return -1;
	case 'h':
		cmd_print_usage(cmd, stdout);
		return PDB_EXIT_OK;
	default: /* getopt printed what was wrong */
		cmd_print_usage(cmd, stderr);
		return PDB_EXIT_USAGE;
	}
}

int cmd_fail(const char *name, const struct pdb_err *err)
{
	char msg[1200];

	pdb_err_format(err, msg, sizeof msg);
	fprintf(stderr, "perfdb: %s: %s\n", name, msg);
	return err->code ? err->code : PDB_EXIT_RUNTIME;
}

void cmd_print_usage(const struct command *cmd, FILE *out)
{
	fprintf(out, "usage: %s", cmd->usage);
}

int cmd_usage_error(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "perfdb: %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	cmd_print_usage(cmd, stderr);
	return PDB_EXIT_USAGE;
}

struct pdb_store *cmd_open_store(struct cmd_ctx *ctx, struct pdb_err *err)
{
	return pdb_store_open(pdb_store_default_path(ctx->db_path), err);
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

int cmd_split_kv(const char *text, char **key, char **value)
{
	const char *eq = strchr(text, '=');

	if (!eq || eq == text)
		return -1;
	*key = pdb_xstrndup(text, (size_t)(eq - text));
	*value = pdb_xstrdup(eq + 1);
	return 0;
}

void cmd_table_init(struct cmd_table *t, size_t ncols, const char *align)
{
	memset(t, 0, sizeof *t);
	t->ncols = ncols;
	t->align = align;
}

void cmd_table_add(struct cmd_table *t, const char *const *row)
{
	pdb_grow((void **)&t->cells, &t->cap, (t->nrows + 1) * t->ncols, sizeof *t->cells);
	for (size_t c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] = pdb_xstrdup(row[c] ? row[c] : "");
	t->nrows++;
}

/* Display width: count UTF-8 lead bytes, not bytes. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void cmd_table_print(const struct cmd_table *t, FILE *out)
{
	size_t *w = pdb_xcalloc(t->ncols, sizeof *w);

	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t cw = width(t->cells[r * t->ncols + c]);
			if (cw > w[c])
				w[c] = cw;
		}
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *cell = t->cells[r * t->ncols + c];
			int pad = (int)(w[c] - width(cell));
			int last = c + 1 == t->ncols;
			if (t->align[c] == 'r')
				fprintf(out, "%*s%s", pad, "", cell);
			else
				fprintf(out, "%s%*s", cell, last ? 0 : pad, "");
			if (!last)
				fputs("  ", out);
		}
		fputc('\n', out);
	}
	free(w);
}

void cmd_table_release(struct cmd_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof *t);
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
