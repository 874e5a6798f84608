/* CSV reading for adapters: libcsv, streamed row by row, with file:line:col errors. */
#include "parse/csv_util.h"
#include "parse/text_util.h"

#include <csv.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct pdb_csv {
	const struct pdb_source *src;
	char delim;
	pdb_csv_row_fn fn;
	void *ctx;
	struct pdb_err *err;
	char **fields;       /* buffers reused from row to row */
	size_t *fieldcap;
	size_t nfields, nalloc, cap;
	long line, row;
	char *text;          /* the physical line being fed (for columns) */
	int failed;
};

long pdb_csv_line(const struct pdb_csv *csv)
{
	return csv->line;
}

long pdb_csv_row(const struct pdb_csv *csv)
{
	return csv->row;
}

/* Byte column (1-based) where field starts on the current physical line;
 * approximate for rows that span lines. */
static int field_col(const struct pdb_csv *csv, size_t field)
{
	const char *p = csv->text ? csv->text : "";
	size_t f = 0;
	int quoted = 0;
	const char *start = p;

	for (; *p && f < field; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == csv->delim && !quoted) {
			f++;
			start = p + 1;
		}
	}
	return (int)(start - (csv->text ? csv->text : "")) + 1;
}

int pdb_csv_bad(struct pdb_csv *csv, struct pdb_err *err, size_t field,
		const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return pdb_err_at(err, PDB_EXIT_INPUT, csv->src->name, (int)csv->line,
			  field_col(csv, field), "%s", msg);
}

struct named {
	const char *name;
	size_t at;
};

static int by_name_then_place(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->at < y->at ? -1 : x->at > y->at;
}

int pdb_csv_unique_names(struct pdb_csv *csv, char **fields, size_t nfields,
			 struct pdb_err *err)
{
	struct named *v = pdb_xcalloc(nfields + 1, sizeof *v);
	size_t n = 0, first = 0, second = 0;

	for (size_t i = 0; i < nfields; i++)
		if (fields[i][0])
			v[n++] = (struct named){ fields[i], i };
	qsort(v, n, sizeof *v, by_name_then_place); /* wide headers: not n * n */
	for (size_t i = 1; i < n; i++)
		if (strcmp(v[i].name, v[i - 1].name) == 0 && (i < 2 || strcmp(v[i - 2].name, v[i].name) != 0) &&
		    (!second || v[i].at < second)) {
			first = v[i - 1].at + 1;
			second = v[i].at + 1;
		}
	free(v);
	if (!second)
		return 0;
	return pdb_csv_bad(csv, err, second - 1, "the column '%s' is named twice (columns %zu and "
			   "%zu): one of them would not be read", fields[second - 1], first, second);
}

static void on_field(void *data, size_t len, void *ctx)
{
	struct pdb_csv *csv = ctx;

	size_t i = csv->nfields;

	if (i == csv->nalloc) {
		size_t cap = csv->cap;
		pdb_grow((void **)&csv->fields, &csv->cap, i + 1, sizeof *csv->fields);
		pdb_grow((void **)&csv->fieldcap, &cap, i + 1, sizeof *csv->fieldcap);
		csv->fields[i] = NULL;
		csv->fieldcap[i] = 0;
		csv->nalloc++;
	}
	pdb_grow((void **)&csv->fields[i], &csv->fieldcap[i], len + 1, 1);
	if (len)
		memcpy(csv->fields[i], data, len);
	csv->fields[i][len] = '\0';
	csv->nfields++;
}

static void clear_fields(struct pdb_csv *csv)
{
	csv->nfields = 0;
}

static void on_row(int term, void *ctx)
{
	struct pdb_csv *csv = ctx;

	(void)term;
	if (!csv->failed && !(csv->nfields == 1 && csv->fields[0][0] == '\0')) {
		csv->row++;
		if (csv->fn(csv->ctx, csv, csv->fields, csv->nfields, csv->err) < 0)
			csv->failed = 1;
	}
	clear_fields(csv);
}

int pdb_csv_read(const struct pdb_source *src, char delim, pdb_csv_row_fn fn,
		 void *ctx, struct pdb_err *err)
{
	struct csv_parser parser;
	struct pdb_csv csv = { .src = src, .delim = delim, .fn = fn, .ctx = ctx, .err = err };
	FILE *f = fopen(src->path, "rb");
	size_t cap = 0;
	ssize_t n;
	int ret = -1;

	if (!f)
		return pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0, "%s", strerror(errno));
	if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) {
		fclose(f);
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "csv: cannot initialise parser");
	}
	csv_set_delim(&parser, (unsigned char)delim);
	while (!csv.failed && (n = getline(&csv.text, &cap, f)) > 0) {
		csv.line++;
		if (memchr(csv.text, '\0', (size_t)n)) {
			pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)csv.line,
				   (int)strlen(csv.text) + 1, "binary data (NUL byte) in a CSV file");
			goto out;
		}
		if (pdb_text_check_utf8(src, csv.text, (size_t)n, (long)csv.line, err) < 0)
			goto out;
		if (csv_parse(&parser, csv.text, (size_t)n, on_field, on_row, &csv) != (size_t)n) {
			pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)csv.line, 1, "%s",
				   csv_strerror(csv_error(&parser)));
			goto out;
		}
	}
	if (!csv.failed && csv_fini(&parser, on_field, on_row, &csv) != 0) {
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, (int)csv.line, 1,
			   "unterminated quoted field");
		goto out;
	}
	if (!csv.failed && ferror(f)) {
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0, "%s", strerror(errno));
		goto out;
	}
	if (!csv.failed && csv.row == 0) {
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, 1, 1, "empty file");
		goto out;
	}
	ret = csv.failed ? -1 : 0;
out:
	for (size_t i = 0; i < csv.nalloc; i++)
		free(csv.fields[i]);
	free(csv.fields);
	free(csv.fieldcap);
	free(csv.text);
	csv_free(&parser);
	fclose(f);
	return ret;
}

char pdb_csv_sniff(const struct pdb_source *src)
{
	const char *p = (const char *)src->head;
	size_t comma = 0, tab = 0, semi = 0;

	for (; p && *p && *p != '\n'; p++) {
		comma += *p == ',';
		tab += *p == '\t';
		semi += *p == ';';
	}
	if (tab > comma && tab >= semi)
		return '\t';
	if (semi > comma)
		return ';';
	return ',';
}
