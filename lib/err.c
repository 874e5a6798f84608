/* Errors: filling and formatting struct pdb_err. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void pdb_err_clear(struct pdb_err *err)
{
	memset(err, 0, sizeof *err);
}

int pdb_err_set(struct pdb_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	pdb_err_clear(err);
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

int pdb_err_at(struct pdb_err *err, int code, const char *source, int line,
	       int col, const char *fmt, ...)
{
	va_list ap;

	pdb_err_clear(err);
	err->code = code;
	snprintf(err->source, sizeof err->source, "%s", source ? source : "");
	err->line = line;
	err->col = col;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

void pdb_err_format(const struct pdb_err *err, char *buf, unsigned long size)
{
	if (err->source[0] && err->line > 0 && err->col > 0)
		snprintf(buf, size, "%s:%d:%d: %s", err->source, err->line,
			 err->col, err->msg);
	else if (err->source[0] && err->line > 0)
		snprintf(buf, size, "%s:%d: %s", err->source, err->line, err->msg);
	else if (err->source[0])
		snprintf(buf, size, "%s: %s", err->source, err->msg);
	else
		snprintf(buf, size, "%s", err->msg);
}
