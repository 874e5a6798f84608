/* perfdb gc: delete the runs a retention policy does not keep, then reclaim the space. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd.h"
#include "retention.h"
#include "units.h"
#include "util.h"

static int gc_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_KEEP_LAST = CMD_LONG_ONLY, OPT_OLDER_THAN, OPT_KEEP_PER, OPT_DRY_RUN };

static const struct cmd_option options[] = {
	{ "keep-last", OPT_KEEP_LAST, "N", "keep the N newest runs",
	  .type = CMD_COUNT, .min = 0, .max = 1000000000 },
	{ "older-than", OPT_OLDER_THAN, "DAYS", "delete only runs created more than DAYS days ago",
	  .type = CMD_COUNT, .min = 0, .max = 1000000000 },
	{ "keep", 'k', "K=V", "keep every run whose attribute K is V (name=NAME: that run)" },
	{ "keep-per", OPT_KEEP_PER, "K[,K]", "keep the newest run of each combination of these\n"
					     "attributes' values", .def = "branch" },
	{ "where", 'w', "K=V[,K=V]", "only runs with these attributes are considered;\n"
				     "the others are kept and not counted" },
	{ "dry-run", OPT_DRY_RUN, NULL, "print what would be deleted, delete nothing" },
	{ 0 },
};

const struct command cmd_gc = {
	.name = "gc", .run = gc_main,
	.summary = "delete runs outside a retention policy and reclaim the space",
	.synopsis = "[--keep-last N] [--older-than DAYS] [--keep K=V]... [--keep-per K,K]\n"
		    "          [--where K=V]... [--dry-run]",
	.options = options,
	.text = "At least one of --keep-last and --older-than. A run is deleted when it is outside\n"
		"every rule given: not among the N newest, older than DAYS, matching no --keep,\n"
		"and not the newest run of its combination of --keep-per's attributes (a run\n"
		"without one of them has a value of its own for it). Then the file is vacuumed\n"
		"in place; prints each run removed and the file's size before and after.\n",
};

/* "removed run7 (nightly)  2026-...  branch main", a line for each of rows[at[]]. */
static void print_runs(const char *verb, const struct pdb_run_row *rows, const size_t *at,
		       size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const struct pdb_run_row *r = &rows[at[k]];
		char *name = r->name ? cmd_escape_controls(r->name) : NULL;
		char *branch = cmd_escape_controls(pdb_run_row_attr(r, "branch") ? pdb_run_row_attr(r, "branch") : "-");
		printf("%s run%lld%s%s%s  %s  branch %s\n", verb, (long long)r->id,
		       name ? " (" : "", name ? name : "", name ? ")" : "", r->created_at, branch);
		free(name);
		free(branch);
	}
}

static long long file_size(const char *path)
{
	struct stat st;
	long long n = stat(path, &st) == 0 ? (long long)st.st_size : 0;
	char *wal = pdb_xasprintf("%s-wal", path);

	if (stat(wal, &st) == 0)
		n += (long long)st.st_size;
	free(wal);
	return n;
}

/* --keep-per's attributes: the comma-separated names of arg (each non-empty),
 * pointers into arg. -1, or the status of a usage error. */
static int parse_per(char *arg, const char ***per, size_t *nper)
{
	free(*per);
	*per = NULL;
	*nper = 0;
	for (char *save = NULL, *k = strtok_r(arg, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		*per = pdb_xrealloc(*per, (*nper + 1) * sizeof **per);
		(*per)[(*nper)++] = k;
	}
	if (*nper == 0 || arg[0] == ',' || arg[strlen(arg) - 1] == ',')
		return cmd_usage_error(&cmd_gc, "--keep-per needs attribute names K[,K]");
	return -1;
}

static int gc_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct pdb_retention policy = { .keep_last = -1 };
	char *per_default = pdb_xstrdup(cmd_default_text(&cmd_gc, "keep-per"));
	struct pdb_run_filter filter = { 0 };
	struct pdb_store *store = NULL;
	struct pdb_run_row *rows = NULL;
	struct pdb_attr *keep = NULL;
	const char **per = NULL;
	struct pdb_buf where;
	struct pdb_err err;
	int64_t days = -1, *del = NULL;
	size_t *at = NULL; /* the rows of del */
	size_t nrows = 0, nkeep = 0, ndel = 0, nper = 0, cap = 0;
	int c, dry_run = 0, status = PDB_EXIT_OK;
	char cutoff[32] = "";
	const char *path;
	long long before, after;
	char size_before[48], size_after[48];

	pdb_buf_init(&where);
	if ((status = parse_per(per_default, &per, &nper)) >= 0)
		goto out;
	status = PDB_EXIT_OK;
	while ((c = cmd_next_option(argc, argv, &cmd_gc)) != -1) {
		if (c == OPT_KEEP_LAST) {
			policy.keep_last = cmd_arg.count;
		} else if (c == OPT_OLDER_THAN) {
			days = cmd_arg.count;
		} else if (c == 'k') {
			struct pdb_attr k;
			if (cmd_split_kv(optarg, &k.key, &k.value) < 0 || !*k.key) {
				status = cmd_usage_error(&cmd_gc, "--keep needs KEY=VALUE, got '%s'", optarg);
				goto out;
			}
			pdb_grow((void **)&keep, &cap, nkeep + 1, sizeof *keep);
			keep[nkeep++] = k;
		} else if (c == OPT_KEEP_PER) {
			if ((status = parse_per(optarg, &per, &nper)) >= 0)
				goto out;
		} else if (c == 'w') {
			if ((status = cmd_add_where(&cmd_gc, &where, optarg)) >= 0)
				goto out;
		} else if (c == OPT_DRY_RUN) {
			dry_run = 1;
		} else if ((status = cmd_common_option(&cmd_gc, ctx, c)) >= 0) {
			goto out;
		}
		status = PDB_EXIT_OK;
	}
	path = pdb_store_default_path(ctx->db_path);
	if (optind < argc) {
		status = cmd_usage_error(&cmd_gc, "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (policy.keep_last < 0 && days < 0) {
		status = cmd_usage_error(&cmd_gc, "expected --keep-last N or --older-than DAYS");
		goto out;
	}
	if (days >= 0) {
		char now[32];
		struct tm tm = { 0 };
		time_t t;
		pdb_now_iso(now);
		strptime(now, "%Y-%m-%dT%H:%M:%SZ", &tm);
		t = timegm(&tm) - (time_t)days * 86400;
		gmtime_r(&t, &tm);
		strftime(cutoff, sizeof cutoff, "%Y-%m-%dT%H:%M:%SZ", &tm);
		policy.cutoff = cutoff;
	}
	policy.keep = keep;
	policy.nkeep = nkeep;
	if (per) {
		policy.per = per;
		policy.nper = nper;
	}
	filter.where = where.len ? where.data : NULL;
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    pdb_store_list_runs(store, &filter, &rows, &nrows, &err) < 0) /* newest first */
		goto fail;
	at = pdb_xcalloc(nrows ? nrows : 1, sizeof *at);
	ndel = pdb_retention_select(&policy, rows, nrows, at);
	del = pdb_xcalloc(ndel ? ndel : 1, sizeof *del);
	for (size_t k = 0; k < ndel; k++)
		del[k] = rows[at[k]].id;
	before = file_size(path);
	pdb_unit_format_fixed((double)before, "B", size_before, sizeof size_before);
	if (dry_run) {
		print_runs("would remove", rows, at, ndel);
		printf("would remove %zu run%s, keep %zu%s (dry run: nothing changed); %s: %s\n",
		       ndel, ndel == 1 ? "" : "s", nrows - ndel, filter.where ? " of those matching"
		       : "", path, size_before);
		goto out;
	}
	/* said once done: a disk that fills mid-way removes nothing */
	if (pdb_store_delete_runs(store, del, ndel, &err) < 0)
		goto fail;
	print_runs("removed", rows, at, ndel);
	if (pdb_store_vacuum(store, &err) < 0)
		goto fail;
	after = file_size(path);
	pdb_unit_format_fixed((double)after, "B", size_after, sizeof size_after);
	printf("removed %zu run%s, kept %zu%s; %s: %s before, %s after\n", ndel,
	       ndel == 1 ? "" : "s", nrows - ndel, filter.where ? " of those matching" : "",
	       path, size_before, size_after);
	goto out;
fail:
	status = cmd_fail("gc", &err);
out:
	for (size_t i = 0; i < nkeep; i++) {
		free(keep[i].key);
		free(keep[i].value);
	}
	free(keep);
	free(per);
	free(per_default);
	free(at);
	free(del);
	pdb_buf_release(&where);
	pdb_run_rows_free(rows, nrows);
	pdb_store_close(store);
	return status;
}
