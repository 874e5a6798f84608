/* Text reading for adapters: a result file line by line, with the line number kept for errors. */
#include "parse/text_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int pdb_text_check_utf8(const struct pdb_source *src, const char *line, size_t n,
			long lineno, struct pdb_err *err)
{
	size_t ok = pdb_utf8_valid_len(line, n);
	const char *nul = memchr(line, '\0', ok);

	if (nul) /* valid UTF-8, but no text file holds it */
		return pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)lineno, (int)(nul - line) + 1,
				  "binary data (NUL byte)");
	if (ok == n)
		return 0;
	return pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)lineno, (int)ok + 1,
			  "invalid UTF-8 (byte 0x%02x): perfdb reads text as UTF-8",
			  (unsigned char)line[ok]);
}

int pdb_text_read(const struct pdb_source *src, pdb_text_line_fn fn, void *ctx,
		  long *lineno, struct pdb_err *err)
{
	FILE *f = fopen(src->path, "rb");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	if (!f)
		return pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0, "%s", strerror(errno));
	while (ret == 0 && (n = getline(&line, &cap, f)) > 0) {
		(*lineno)++;
		ret = pdb_text_check_utf8(src, line, (size_t)n, *lineno, err);
		if (ret == 0)
			ret = fn(ctx, line, (size_t)n);
	}
	if (ret == 0 && *lineno == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, 1, 1, "empty file");
	free(line);
	fclose(f);
	return ret;
}

int pdb_text_cut_short(const struct pdb_source *src, struct pdb_err *err, const char *fmt, ...)
{
	FILE *f = fopen(src->path, "rb");
	char *line = NULL, msg[512];
	size_t cap = 0;
	ssize_t n;
	long lineno = 0, col = 0;
	va_list ap;

	while (f && (n = getline(&line, &cap, f)) > 0) {
		lineno++;
		col = (long)n + (line[n - 1] == '\n' ? 0 : 1);
	}
	free(line);
	if (f)
		fclose(f);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return pdb_err_at(err, PDB_EXIT_INPUT, src->name, lineno ? (int)lineno : 1,
			  lineno ? (int)col : 1, "%s", msg);
}
