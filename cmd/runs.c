/* perfdb runs: list stored runs, newest first. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "json_out.h"
#include "util.h"

static int runs_main(int argc, char **argv, struct cmd_ctx *ctx);

static const char *const formats[] = { "text", "json", NULL };

static const struct cmd_option options[] = {
	{ "format", 'F', "FMT", "text or json", .choices = formats, .def = "text" },
	{ "limit", 'l', "N", "at most N runs", .type = CMD_COUNT, .min = 1, .max = 1000000000 },
	{ "where", 'w', "K=V[,K=V]", "only runs with these attributes (repeatable)" },
	{ 0 },
};

const struct command cmd_runs = {
	.name = "runs", .run = runs_main,
	.summary = "list runs, newest first",
	.synopsis = "[--format text|json] [--limit N] [--where K=V]...",
	.options = options,
};

/* Attributes worth a column in the text listing, in this order. */
static const char *const key_attrs[] = { "commit", "branch", "host", "vcpus", NULL };

static void print_text(const struct pdb_run_row *rows, size_t n)
{
	static const char *header[] = { "id", "name", "created", "tool", "series", "attributes" };
	struct cmd_table t;

	cmd_table_init(&t, 6, "llllrl");
	cmd_table_add(&t, header);
	for (size_t i = 0; i < n; i++) {
		char id[32], series[32];
		struct pdb_buf attrs;
		const char *row[6];

		snprintf(id, sizeof id, "run%lld", (long long)rows[i].id);
		snprintf(series, sizeof series, "%lld", (long long)rows[i].nseries);
		pdb_buf_init(&attrs);
		pdb_buf_puts(&attrs, "");
		for (size_t k = 0; key_attrs[k]; k++) {
			const char *v = pdb_run_row_attr(&rows[i], key_attrs[k]);
			if (!v)
				continue;
			if (strcmp(key_attrs[k], "commit") == 0 && strlen(v) > 12)
				pdb_buf_printf(&attrs, "%s%s=%.12s", attrs.len ? " " : "", key_attrs[k], v);
			else
				pdb_buf_printf(&attrs, "%s%s=%s", attrs.len ? " " : "", key_attrs[k], v);
		}
		if (strcmp(rows[i].status, "complete") != 0)
			pdb_buf_printf(&attrs, "%s[%s]", attrs.len ? " " : "", rows[i].status);
		row[0] = id;
		row[1] = rows[i].name ? rows[i].name : "-";
		row[2] = rows[i].created_at;
		row[3] = rows[i].tool ? rows[i].tool : "-";
		row[4] = series;
		row[5] = attrs.data;
		cmd_table_add(&t, row);
		pdb_buf_release(&attrs);
	}
	cmd_table_print(&t, stdout);
	cmd_table_release(&t);
}

static void print_json(const struct pdb_run_row *rows, size_t n)
{
	json_t *list = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object(), *attrs = json_object();
		json_object_set_new(o, "id", json_sprintf("run%lld", (long long)rows[i].id));
		json_object_set_new(o, "name", rows[i].name ? json_string(rows[i].name) : json_null());
		json_object_set_new(o, "created_at", json_string(rows[i].created_at));
		json_object_set_new(o, "tool", rows[i].tool ? json_string(rows[i].tool) : json_null());
		json_object_set_new(o, "format", rows[i].format ? json_string(rows[i].format) : json_null());
		json_object_set_new(o, "status", json_string(rows[i].status));
		json_object_set_new(o, "series", json_integer(rows[i].nseries));
		for (size_t k = 0; k < rows[i].nattrs; k++)
			json_object_set_new(attrs, rows[i].attrs[k].key, json_string(rows[i].attrs[k].value));
		json_object_set_new(o, "attrs", attrs);
		json_array_append_new(list, o);
	}
	pdb_json_write(stdout, list, 2);
	putchar('\n');
	json_decref(list);
}

static int runs_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct pdb_run_filter filter = { .count_series = 1 };
	struct pdb_store *store = NULL;
	struct pdb_run_row *rows = NULL;
	struct pdb_buf where;
	struct pdb_err err;
	size_t nrows = 0;
	int c, format = cmd_default_choice(&cmd_runs, "format"), status = PDB_EXIT_OK;

	pdb_buf_init(&where);
	while ((c = cmd_next_option(argc, argv, &cmd_runs)) != -1) {
		switch (c) {
		case 'F': format = cmd_arg.choice; break;
		case 'l': filter.limit = (int)cmd_arg.count; break;
		case 'w':
			if ((status = cmd_add_where(&cmd_runs, &where, optarg)) >= 0)
				goto out;
			status = PDB_EXIT_OK;
			break;
		default:
			if ((status = cmd_common_option(&cmd_runs, ctx, c)) >= 0)
				goto out;
			status = PDB_EXIT_OK;
		}
	}
	if (optind != argc) {
		status = cmd_usage_error(&cmd_runs, "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	filter.where = where.len ? where.data : NULL;
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    pdb_store_list_runs(store, &filter, &rows, &nrows, &err) < 0) {
		status = cmd_fail("runs", &err);
		goto out;
	}
	if (format == 1)
		print_json(rows, nrows);
	else
		print_text(rows, nrows);
out:
	pdb_run_rows_free(rows, nrows);
	pdb_store_close(store);
	pdb_buf_release(&where);
	return status;
}
