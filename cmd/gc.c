/* perfdb gc: delete the runs a retention policy does not keep, then reclaim the space. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd.h"
#include "units.h"
#include "util.h"

static int gc_main(int argc, char **argv, struct cmd_ctx *ctx);

const struct command cmd_gc = {
	"gc", gc_main,
	"perfdb gc [--keep-last N] [--older-than DAYS] [--keep K=V]... [--dry-run]\n"
	"  -l, --keep-last N       keep the N newest runs\n"
	"  -o, --older-than DAYS   delete only runs created more than DAYS days ago\n"
	"  -k, --keep K=V          keep every run whose attribute K is V (name=NAME: that run)\n"
	"  -n, --dry-run           print what would be deleted, delete nothing\n"
	"      --db FILE           the database\n"
	"At least one of --keep-last and --older-than. A run is deleted when it is outside\n"
	"every rule given: not among the N newest, older than DAYS, matching no --keep,\n"
	"and not the newest run of its branch (the attribute branch; runs without one\n"
	"count as one branch). Then the file is vacuumed in place; prints each run\n"
	"removed and the file's size before and after.\n",
	"delete runs outside a retention policy and reclaim the space",
};

struct keep {
	char *key, *value;
};

static int kept_by(const struct pdb_run_row *r, const struct keep *keep, size_t nkeep)
{
	for (size_t i = 0; i < nkeep; i++) {
		if (strcmp(keep[i].key, "name") == 0 && r->name && strcmp(r->name, keep[i].value) == 0)
			return 1;
		for (size_t a = 0; a < r->nattrs; a++)
			if (strcmp(r->attrs[a].key, keep[i].key) == 0 &&
			    strcmp(r->attrs[a].value, keep[i].value) == 0)
				return 1;
	}
	return 0;
}

static const char *branch_of(const struct pdb_run_row *r)
{
	for (size_t a = 0; a < r->nattrs; a++)
		if (strcmp(r->attrs[a].key, "branch") == 0)
			return r->attrs[a].value;
	return NULL;
}

/* Whether an earlier (newer) row has the same branch. */
/* "removed run7 (nightly)  2026-...  branch main", a line for each of rows[at[]]. */
static void print_runs(const char *verb, const struct pdb_run_row *rows, const size_t *at,
		       size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const struct pdb_run_row *r = &rows[at[k]];
		char *name = r->name ? cmd_escape_controls(r->name) : NULL;
		char *branch = cmd_escape_controls(branch_of(r) ? branch_of(r) : "-");
		printf("%s run%lld%s%s%s  %s  branch %s\n", verb, (long long)r->id,
		       name ? " (" : "", name ? name : "", name ? ")" : "", r->created_at, branch);
		free(name);
		free(branch);
	}
}

static int newest_of_branch(const struct pdb_run_row *rows, size_t i)
{
	const char *b = branch_of(&rows[i]);

	for (size_t k = 0; k < i; k++) {
		const char *o = branch_of(&rows[k]);
		if ((!b && !o) || (b && o && strcmp(b, o) == 0))
			return 0;
	}
	return 1;
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

static int gc_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "keep-last", required_argument, 0, 'l' },
		{ "older-than", required_argument, 0, 'o' },
		{ "keep", required_argument, 0, 'k' },
		{ "dry-run", no_argument, 0, 'n' },
		CMD_COMMON_OPTIONS,
		{ 0, 0, 0, 0 },
	};
	struct pdb_run_filter all = { 0 };
	struct pdb_store *store = NULL;
	struct pdb_run_row *rows = NULL;
	struct keep *keep = NULL;
	struct pdb_err err;
	int64_t last = -1, days = -1, *del = NULL;
	size_t *at = NULL; /* the rows of del */
	size_t nrows = 0, nkeep = 0, ndel = 0, cap = 0;
	int c, dry_run = 0, status = PDB_EXIT_OK;
	char cutoff[32] = "";
	const char *path;
	long long before, after;
	char size_before[48], size_after[48];

	while ((c = cmd_getopt(argc, argv, "l:o:k:nh", longopts, &cmd_gc)) != -1) {
		if (c == 'l' || c == 'o') {
			int64_t *v = c == 'l' ? &last : &days;
			if (pdb_parse_int64(optarg, 0, 1000000000, v) < 0) {
				status = cmd_usage_error(&cmd_gc, "--%s needs a whole number, got '%s'",
							 c == 'l' ? "keep-last" : "older-than", optarg);
				goto out;
			}
		} else if (c == 'k') {
			struct keep k;
			if (cmd_split_kv(optarg, &k.key, &k.value) < 0 || !*k.key) {
				status = cmd_usage_error(&cmd_gc, "--keep needs KEY=VALUE, got '%s'", optarg);
				goto out;
			}
			pdb_grow((void **)&keep, &cap, nkeep + 1, sizeof *keep);
			keep[nkeep++] = k;
		} else if (c == 'n') {
			dry_run = 1;
		} else if ((status = cmd_common_option(&cmd_gc, ctx, c)) >= 0) {
			goto out;
		} else {
			status = PDB_EXIT_OK;
		}
	}
	path = pdb_store_default_path(ctx->db_path);
	if (optind < argc) {
		status = cmd_usage_error(&cmd_gc, "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (last < 0 && days < 0) {
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
	}
	if (!(store = cmd_open_existing_store(ctx, &err)) ||
	    pdb_store_list_runs(store, &all, &rows, &nrows, &err) < 0) /* newest first */
		goto fail;
	for (size_t i = 0; i < nrows; i++) {
		const struct pdb_run_row *r = &rows[i];
		if ((last >= 0 && (int64_t)i < last) ||
		    (*cutoff && strcmp(r->created_at, cutoff) >= 0) ||
		    kept_by(r, keep, nkeep) || newest_of_branch(rows, i))
			continue;
		del = pdb_xrealloc(del, (ndel + 1) * sizeof *del);
		at = pdb_xrealloc(at, (ndel + 1) * sizeof *at);
		at[ndel] = i;
		del[ndel++] = r->id;
	}
	before = file_size(path);
	pdb_unit_format_fixed((double)before, "B", size_before, sizeof size_before);
	if (dry_run) {
		print_runs("would remove", rows, at, ndel);
		printf("would remove %zu run%s, keep %zu (dry run: nothing changed); %s: %s\n",
		       ndel, ndel == 1 ? "" : "s", nrows - ndel, path, size_before);
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
	printf("removed %zu run%s, kept %zu; %s: %s before, %s after\n", ndel,
	       ndel == 1 ? "" : "s", nrows - ndel, path, size_before, size_after);
	goto out;
fail:
	status = cmd_fail("gc", &err);
out:
	for (size_t i = 0; i < nkeep; i++) {
		free(keep[i].key);
		free(keep[i].value);
	}
	free(keep);
	free(at);
	free(del);
	pdb_run_rows_free(rows, nrows);
	pdb_store_close(store);
	return status;
}
