/* Site: write the pages whose inputs changed since the manifest, remove those of runs and benchmarks gone. */
#include "site/site_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void pdb_site_stats_release(struct pdb_site_stats *st)
{
	for (size_t i = 0; i < st->nnotes; i++)
		free(st->notes[i]);
	free(st->notes);
	memset(st, 0, sizeof *st);
}

/* 1 when dir holds nothing but "." and "..". */
static int is_empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = d != NULL;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = 0;
	if (d)
		closedir(d);
	return empty;
}

/* The output folder: made, or one perfdb wrote before (its manifest is
 * there), or an empty one; a folder of other files is refused, since the
 * site would overwrite them. */
static int make_outdir(const char *dir, struct pdb_err *err)
{
	char *manifest;
	struct stat st;
	int ours;

	if (mkdir(dir, 0777) == 0)
		return 0;
	if (errno != EEXIST || stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", dir,
				   errno == EEXIST ? "exists and is not a directory" : strerror(errno));
	manifest = pdb_xasprintf("%s/" SITE_MANIFEST, dir);
	ours = lstat(manifest, &st) == 0;
	free(manifest);
	if (!ours && !is_empty_dir(dir))
		return pdb_err_set(err, PDB_EXIT_USAGE, "%s: holds files of its own and no "
				   SITE_MANIFEST ": give a new or empty folder", dir);
	return 0;
}

static int is_file(const struct site *s, const char *path)
{
	char *full = pdb_xasprintf("%s/%s", s->opts->outdir, path);
	struct stat st;
	int ok = lstat(full, &st) == 0 && S_ISREG(st.st_mode);

	free(full);
	return ok;
}

enum page_kind { PAGE_INDEX, PAGE_BENCH, PAGE_RUN };

/* Write the page at path unless the manifest has it with this key (and it is there). */
static int page(struct site *s, const struct site_manifest *old, struct site_manifest *now,
		const char *path, uint64_t key, int kind, const void *what, struct pdb_err *err)
{
	struct pdb_buf b;
	int found, rc;

	site_manifest_add(now, path, key);
	s->stats->pages++;
	if (site_manifest_key(old, path, &found) == key && found && is_file(s, path))
		return 0;
	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	rc = kind == PAGE_INDEX ? site_index_page(s, &b, err) :
	     kind == PAGE_BENCH ? site_bench_page(s, what, &b, err) : site_run_page(s, what, &b, err);
	if (rc == 0)
		rc = site_write_page(s, path, &b, err);
	if (rc == 0)
		s->stats->written++;
	pdb_buf_release(&b);
	return rc;
}

/* Pages of the old manifest that the site no longer has (only regular files). */
static void remove_stale(struct site *s, const struct site_manifest *old,
			 const struct site_manifest *now)
{
	for (size_t i = 0; i < old->n; i++) {
		int found;
		char *full;
		site_manifest_key(now, old->paths[i], &found);
		if (found || !is_file(s, old->paths[i]) || strstr(old->paths[i], ".."))
			continue;
		full = pdb_xasprintf("%s/%s", s->opts->outdir, old->paths[i]);
		if (unlink(full) == 0)
			s->stats->removed++;
		else
			site_note(s, "%s: not removed: %s", full, strerror(errno));
		free(full);
	}
}

/* What every page depends on: the site's format and options, and the
 * perfdb that draws it (a new build may draw a page differently). */
static uint64_t options_key(const struct site *s)
{
	int format = SITE_FORMAT;
	uint64_t h = site_hash(SITE_HASH_START, &format, sizeof format);
	char exe[65] = "";

	if (pdb_sha256_file("/proc/self/exe", exe) == 0)
		h = site_hash_str(h, exe);

	h = site_hash_str(h, s->title);
	h = site_hash_str(h, s->opts->base_url);
	h = site_hash_str(h, s->opts->where);
	return site_hash(h, &s->since_id, sizeof s->since_id);
}

static int pages(struct site *s, const struct site_manifest *old, struct site_manifest *now,
		 struct pdb_err *err)
{
	uint64_t opts = options_key(s), all = opts;

	for (size_t i = 0; i < s->nruns; i++) {
		const struct site_run *r = &s->runs[i];
		all = site_hash(all, &r->key, sizeof r->key);
		if (page(s, old, now, r->file, site_hash(opts, &r->key, sizeof r->key), PAGE_RUN, r,
			 err) < 0)
			return -1;
	}
	for (size_t i = 0; i < s->nbenches; i++) {
		const struct site_bench *bench = &s->benches[i];
		uint64_t key = site_hash_str(opts, bench->name);
		for (size_t k = 0; k < bench->n; k++) {
			const struct site_series *ss = &s->series[bench->series[k]];
			key = site_hash(key, &ss->key, sizeof ss->key);
			for (size_t p = 0; p < ss->n; p++) {
				const struct site_run *r = site_find_run(s, ss->pts[p].run_id);
				if (r)
					key = site_hash(key, &r->shown, sizeof r->shown);
			}
		}
		all = site_hash(all, &key, sizeof key);
		if (page(s, old, now, bench->file, key, PAGE_BENCH, bench, err) < 0)
			return -1;
	}
	return page(s, old, now, "index.html", all, PAGE_INDEX, NULL, err);
}

int pdb_site_write(struct pdb_store *store, const struct pdb_site_opts *opts,
		   struct pdb_site_stats *st, struct pdb_err *err)
{
	struct site s = { .store = store, .opts = opts, .stats = st,
			  .title = opts->title ? opts->title : "Performance dashboard" };
	struct site_manifest old = { 0 }, now = { 0 };
	char *index = NULL;
	struct stat sb;
	int rc = -1;

	memset(st, 0, sizeof *st);
	if (make_outdir(opts->outdir, err) < 0 || site_gather(&s, err) < 0 ||
	    site_manifest_read(opts->outdir, &old, err) < 0 || pages(&s, &old, &now, err) < 0)
		goto out;
	site_manifest_sort(&now);
	remove_stale(&s, &old, &now);
	if (site_manifest_write(opts->outdir, &now, err) < 0)
		goto out;
	index = pdb_xasprintf("%s/index.html", opts->outdir);
	st->index_bytes = stat(index, &sb) == 0 ? (size_t)sb.st_size : 0;
	st->runs = s.nruns;
	st->series = s.nseries;
	st->benchmarks = s.nbenches;
	rc = 0;
out:
	free(index);
	site_manifest_release(&old);
	site_manifest_release(&now);
	site_release(&s);
	return rc;
}
