/* perfdb sql: one read-only SQL statement over the database, samples unpacked. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "escape.h"
#include "json_out.h"
#include "util.h"

static int sql_main(int argc, char **argv, struct cmd_ctx *ctx);

static const char *const formats[] = { "csv", "tsv", "jsonl", "table", NULL };

enum { OPT_TIMEOUT = CMD_LONG_ONLY, OPT_MAX_MEMORY };

static const struct cmd_option options[] = {
	{ "format", 'F', "FMT", "csv with a header, tsv, jsonl (one JSON object a line)\n"
				"or table (aligned text)", .choices = formats, .def = "csv" },
	{ "timeout", OPT_TIMEOUT, "SECONDS", "stop the query after SECONDS (0: no bound)",
	  .type = CMD_NUMBER, .min = 0, .max = INFINITY, .def = "60" },
	{ "max-memory", OPT_MAX_MEMORY, "SIZE", "stop the query when SQLite would hold more than\n"
						"SIZE (512M, 2G; 0: no bound)",
	  .type = CMD_SIZE, .zero = 1, .def = "1G" },
	{ 0 },
};

const struct command cmd_sql = {
	.name = "sql", .run = sql_main,
	.summary = "run a read-only SQL query (samples unpacked in samples_v)",
	.synopsis = "[--format csv|tsv|jsonl|table] 'SELECT ...'",
	.options = options,
	.text = "One statement that only reads, on a read-only connection; writes, ATTACH,\n"
		"PRAGMAs that set something and functions that give a pointer or change state\n"
		"(fts3_tokenizer, load_extension) are refused (exit 2); a query past its time\n"
		"or memory bound is stopped (exit 4). Beside the tables (runs,\n"
		"run_attrs, series, results, stats, failures) two views:\n"
		"  samples_v  run_id, run_name, result_id, benchmark, dims, metric, unit,\n"
		"             direction, sample, value, t, weight (one row per sample)\n"
		"  stats_v    run_id, run_name, result_id, benchmark, dims, metric, unit,\n"
		"             direction, stat, value (one row per statistic)\n"
		"Reals print as the shortest text that reads back exactly; NULL is empty\n"
		"(null in jsonl); a blob is x'HEX'.\n",
};

enum { FMT_CSV, FMT_TSV, FMT_JSONL, FMT_TABLE };

struct printer {
	int format;
	FILE *out;
	const char *const *names;
	size_t ncols;
	struct cmd_table table;
	char *align;          /* table: r for a column whose first non-NULL value is a number */
	size_t not_utf8;      /* jsonl: text values written as x'HEX' */
	struct pdb_buf cell;
};

/* A cell as text (NULL: empty; reals as the shortest exact text). */
static void cell_text(struct pdb_buf *b, const struct pdb_sql_cell *c)
{
	char num[32];

	b->len = 0;
	pdb_buf_puts(b, "");
	switch (c->type) {
	case PDB_SQL_INT:
		pdb_buf_printf(b, "%lld", (long long)c->i);
		break;
	case PDB_SQL_REAL:
		pdb_json_fmt_real(c->r, num);
		pdb_buf_puts(b, num);
		break;
	case PDB_SQL_TEXT:
		pdb_buf_add(b, (const char *)c->data, c->len);
		break;
	case PDB_SQL_BLOB:
		pdb_buf_puts(b, "x'");
		for (size_t i = 0; i < c->len; i++)
			pdb_buf_printf(b, "%02x", c->data[i]);
		pdb_buf_puts(b, "'");
		break;
	}
}

/* A cell through pdb_escape_csv_n: quoted as needed, a formula neutralised
 * (numbers, negative ones too, stay numbers). */
static void put_csv(FILE *out, const char *s, size_t n)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_escape_csv_n(&b, s, n);
	if (b.len)
		fwrite(b.data, 1, b.len, out);
	pdb_buf_release(&b);
}

/* TSV has no quoting: tab, line breaks and backslash as \t \n \r \\. */
static void put_tsv(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *esc = s[i] == '\t' ? "\\t" : s[i] == '\n' ? "\\n" : s[i] == '\r' ? "\\r"
				: s[i] == '\\' ? "\\\\" : NULL;
		if (esc)
			fputs(esc, out);
		else
			fputc(s[i], out);
	}
}

static void put_field(struct printer *p, size_t col, const char *s, size_t n)
{
	if (col > 0)
		fputc(p->format == FMT_CSV ? ',' : '\t', p->out);
	if (p->format == FMT_CSV)
		put_csv(p->out, s, n);
	else
		put_tsv(p->out, s, n);
}

static void put_json_string(FILE *out, const char *s, size_t n)
{
	json_t *v = json_stringn(s, n);
	char *text = json_dumps(v, JSON_ENCODE_ANY);

	fputs(text, out);
	free(text);
	json_decref(v);
}

/* A jsonl value: numbers as numbers (infinities as canonical JSON writes
 * them, "Infinity"), text as a string, a blob or text that is not UTF-8 as
 * its x'HEX' string (counted, said at the end). */
static void put_json_value(struct printer *p, const struct pdb_sql_cell *c)
{
	char num[32];

	if (c->type == PDB_SQL_NULL) {
		fputs("null", p->out);
	} else if (c->type == PDB_SQL_INT) {
		fprintf(p->out, "%lld", (long long)c->i);
	} else if (c->type == PDB_SQL_REAL && isinf(c->r)) {
		fputs(c->r > 0 ? "\"Infinity\"" : "\"-Infinity\"", p->out);
	} else if (c->type == PDB_SQL_REAL) {
		pdb_json_fmt_real(c->r, num);
		fputs(num, p->out);
	} else {
		struct pdb_sql_cell hex = *c;
		json_t *v = c->type == PDB_SQL_TEXT ? json_stringn((const char *)c->data, c->len) : NULL;
		if (v) {
			json_decref(v);
			put_json_string(p->out, (const char *)c->data, c->len);
			return;
		}
		if (c->type == PDB_SQL_TEXT)
			p->not_utf8++;
		hex.type = PDB_SQL_BLOB;
		cell_text(&p->cell, &hex);
		put_json_string(p->out, p->cell.data, p->cell.len);
	}
}

static void on_columns(void *ctx, const char *const *names, size_t n)
{
	struct printer *p = ctx;

	p->names = names;
	p->ncols = n;
	if (p->format == FMT_TABLE) {
		p->align = pdb_xcalloc(n + 1, 1);
		memset(p->align, '?', n); /* left, unless the first value is a number */
		cmd_table_init(&p->table, n, p->align);
		cmd_table_add(&p->table, names);
		return;
	}
	if (p->format == FMT_JSONL || n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		put_field(p, i, names[i], strlen(names[i]));
	fputc('\n', p->out);
}

static void table_row(struct printer *p, const struct pdb_sql_cell *cells, size_t n)
{
	char **texts = pdb_xcalloc(n, sizeof *texts);

	for (size_t i = 0; i < n; i++) {
		if (p->align[i] == '?' && cells[i].type != PDB_SQL_NULL)
			p->align[i] = cells[i].type == PDB_SQL_INT || cells[i].type == PDB_SQL_REAL
				      ? 'r' : 'l';
		cell_text(&p->cell, &cells[i]);
		texts[i] = pdb_xstrdup(p->cell.data);
	}
	cmd_table_add(&p->table, (const char *const *)texts);
	for (size_t i = 0; i < n; i++)
		free(texts[i]);
	free(texts);
}

static void on_row(void *ctx, const struct pdb_sql_cell *cells, size_t n)
{
	struct printer *p = ctx;

	if (p->format == FMT_TABLE) {
		table_row(p, cells, n);
	} else if (p->format == FMT_JSONL) {
		fputc('{', p->out);
		for (size_t i = 0; i < n; i++) {
			if (i > 0)
				fputs(", ", p->out);
			put_json_string(p->out, p->names[i], strlen(p->names[i]));
			fputs(": ", p->out);
			put_json_value(p, &cells[i]);
		}
		fputs("}\n", p->out);
	} else {
		for (size_t i = 0; i < n; i++) {
			cell_text(&p->cell, &cells[i]);
			put_field(p, i, p->cell.data, p->cell.len);
		}
		fputc('\n', p->out);
	}
}

static int sql_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct printer p = { .format = cmd_default_choice(&cmd_sql, "format"), .out = stdout };
	struct pdb_sql_sink sink = { on_columns, on_row, &p };
	struct pdb_sql_limits limits = { cmd_default_number(&cmd_sql, "timeout"),
					 cmd_default_size(&cmd_sql, "max-memory") };
	struct pdb_store *store = NULL;
	struct pdb_err err;
	int c, status = PDB_EXIT_OK;

	pdb_buf_init(&p.cell);
	while ((c = cmd_next_option(argc, argv, &cmd_sql)) != -1) {
		switch (c) {
		case 'F': p.format = cmd_arg.choice; break;
		case OPT_TIMEOUT: limits.seconds = cmd_arg.number; break;
		case OPT_MAX_MEMORY: limits.memory = cmd_arg.size; break;
		default:
			if ((status = cmd_common_option(&cmd_sql, ctx, c)) >= 0)
				goto out;
			status = PDB_EXIT_OK;
		}
	}
	if (argc - optind != 1) {
		status = cmd_usage_error(&cmd_sql, argc == optind ? "a query is needed"
					 : "one query, quoted as one argument");
		goto out;
	}
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    pdb_store_sql(store, argv[optind], &limits, &sink, &err) < 0) {
		fflush(stdout);
		status = cmd_fail("sql", &err);
		goto out;
	}
	if (p.format == FMT_TABLE)
		cmd_table_print(&p.table, stdout);
	if (p.not_utf8)
		fprintf(stderr, "perfdb: sql: %zu text values were not UTF-8: written as x'HEX' "
			"strings\n", p.not_utf8);
out:
	if (p.format == FMT_TABLE && p.align)
		cmd_table_release(&p.table);
	free(p.align);
	pdb_buf_release(&p.cell);
	pdb_store_close(store);
	return status;
}
