/* Site: write the pages whose inputs changed since the manifest, remove those of runs and benchmarks gone. */
#include "site/site_internal.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

void pdb_site_stats_release(struct pdb_site_stats *st)
{
	for (size_t i = 0; i < st->nnotes; i++)
		free(st->notes[i]);
	free(st->notes);
	memset(st, 0, sizeof *st);
}

/* 1 when dir holds nothing but "." and "..". */
/* Whether name is the manifest's temporary file (".perfdb-site.manifest.XXXXXX"):
 * a build killed while it claimed the folder leaves one. */
static int is_manifest_tmp(const char *name)
{
	size_t n = strlen(SITE_MANIFEST);

	return name[0] == '.' && strncmp(name + 1, SITE_MANIFEST, n) == 0 &&
	       name[n + 1] == '.' && strlen(name + n + 2) == 6;
}

/* Whether dir holds nothing but the manifest's temporary files and (when not
 * NULL) a file named but. */
static int is_empty_dir_but(const char *dir, const char *but)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = d != NULL;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
		    !(but && strcmp(e->d_name, but) == 0) && !is_manifest_tmp(e->d_name))
			empty = 0;
	if (d)
		closedir(d);
	return empty;
}

static int is_empty_dir(const char *dir)
{
	return is_empty_dir_but(dir, NULL);
}

/* The output folder: made, or one perfdb wrote before (its manifest is
 * there), or an empty one; a folder of other files is refused, since the
 * site would overwrite them. A new or empty folder is claimed at once with
 * an empty manifest, so that a build killed half-way leaves a folder the
 * next build takes as its own (*claimed: 1 made now, 2 empty and claimed). */
static int make_outdir(const char *dir, int *claimed, struct pdb_err *err)
{
	struct site_manifest none = { 0 };
	char *manifest;
	struct stat st;
	int made, ours;

	*claimed = 0;
	if (pdb_make_dir(dir, PDB_OUT_GIVEN, &made, err) < 0)
		return -1;
	manifest = pdb_xasprintf("%s/" SITE_MANIFEST, dir);
	ours = !made && lstat(manifest, &st) == 0;
	free(manifest);
	if (ours)
		return 0;
	if (!made && !is_empty_dir(dir))
		return pdb_err_set(err, PDB_EXIT_USAGE, "%s: holds files of its own and no "
				   SITE_MANIFEST ": give a new or empty folder", dir);
	*claimed = made ? 1 : 2;
	return site_manifest_write(dir, &none, err);
}

/* Leave a folder claimed for nothing as it was: empty, or not there. */
static void unclaim(const char *dir, int claimed)
{
	char *manifest = pdb_xasprintf("%s/" SITE_MANIFEST, dir);

	if (claimed && is_empty_dir_but(dir, SITE_MANIFEST)) {
		unlink(manifest);
		if (claimed == 1)
			rmdir(dir);
	}
	free(manifest);
}

/* Temporary files a killed build left (".NAME.XXXXXX", pdb_atomic_begin's) in
 * the folders the site writes: removed before it writes again. */
static void remove_leftovers(const char *outdir)
{
	static const char *const sub[] = { "", "/b", "/r" };

	for (size_t i = 0; i < sizeof sub / sizeof *sub; i++) {
		char *dir = pdb_xasprintf("%s%s", outdir, sub[i]);
		DIR *d = opendir(dir);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			size_t n = strlen(e->d_name);
			char *path;
			struct stat st;
			if (e->d_name[0] != '.' || n < 9 || e->d_name[n - 7] != '.')
				continue;
			path = pdb_xasprintf("%s/%s", dir, e->d_name);
			if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
				unlink(path);
			free(path);
		}
		if (d)
			closedir(d);
		free(dir);
	}
}

static int is_file(const struct site *s, const char *path)
{
	char *full = pdb_xasprintf("%s/%s", s->opts->outdir, path);
	struct stat st;
	int ok = lstat(full, &st) == 0 && S_ISREG(st.st_mode);

	free(full);
	return ok;
}

/* Whether the page at path is to be written: not when the manifest has it
 * with this key and it is there. Either way it is in the new manifest. */
static int page_due(struct site *s, const struct site_manifest *old, struct site_manifest *now,
		    const char *path, uint64_t key)
{
	int found;

	site_manifest_add(now, path, key);
	s->stats->pages++;
	return !(site_manifest_key(old, path, &found) == key && found && is_file(s, path));
}

/* Draw the page (a run's when run, else the index) and write it. */
static int write_page(struct site *s, const char *path, const struct site_run *run,
		      struct pdb_err *err)
{
	struct pdb_buf b;
	int rc;

	pdb_buf_init(&b);
	rc = run ? site_run_page(s, run, &b, err) : site_index_page(s, &b, err);
	if (rc == 0)
		rc = site_write_page(s, path, &b, err);
	if (rc == 0)
		s->stats->written++;
	pdb_buf_release(&b);
	return rc;
}

/* Benchmark pages to write, drawn by several threads: their history
 * charts are most of a site's time. A page is drawn from what was gathered
 * alone (no database), into a buffer of its own. */
struct bench_job {
	const struct site_bench *bench;
	int rc;
	struct pdb_err err;
};

struct bench_queue {
	struct site *s;
	struct bench_job *jobs;
	size_t n, next;
	pthread_mutex_t lock;
};

static void *bench_worker(void *arg)
{
	struct bench_queue *q = arg;

	for (;;) {
		struct bench_job *job;
		struct pdb_buf b;

		pthread_mutex_lock(&q->lock);
		job = q->next < q->n ? &q->jobs[q->next++] : NULL;
		pthread_mutex_unlock(&q->lock);
		if (!job)
			return NULL;
		pdb_buf_init(&b);
		job->rc = site_bench_page(q->s, job->bench, &b, &job->err);
		if (job->rc == 0)
			job->rc = site_write_page(q->s, job->bench->file, &b, &job->err);
		pdb_buf_release(&b);
	}
}

static int cmp_note(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Write the benchmark pages of jobs with s->opts->jobs threads (this one
 * among them); the first failure in page order is the error. */
static int write_bench_pages(struct site *s, struct bench_job *jobs, size_t n,
			     struct pdb_err *err)
{
	struct bench_queue q = { .s = s, .jobs = jobs, .n = n };
	size_t nthreads = s->opts->jobs > 1 ? (size_t)s->opts->jobs - 1 : 0, started = 0;
	size_t notes = s->stats->nnotes;
	pthread_t *threads = pdb_xcalloc(nthreads + 1, sizeof *threads);

	pthread_mutex_init(&q.lock, NULL);
	if (nthreads > n)
		nthreads = n;
	while (started < nthreads && pthread_create(&threads[started], NULL, bench_worker, &q) == 0)
		started++;
	bench_worker(&q);
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_destroy(&q.lock);
	free(threads);
	/* the notes of the pages in the order of their text, not of the threads */
	if (s->stats->nnotes > notes)
		qsort(s->stats->notes + notes, s->stats->nnotes - notes, sizeof *s->stats->notes,
		      cmp_note);
	for (size_t i = 0; i < n; i++) {
		if (jobs[i].rc < 0) {
			*err = jobs[i].err;
			return -1;
		}
		s->stats->written++;
	}
	return 0;
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
	h = site_hash_str(h, s->where);
	return site_hash(h, &s->since_id, sizeof s->since_id);
}

static int pages(struct site *s, const struct site_manifest *old, struct site_manifest *now,
		 struct pdb_err *err)
{
	uint64_t opts = options_key(s), all = opts;

	/* the index names the branches not shown, with their runs */
	for (size_t k = 0; k < s->nbranches; k++) {
		all = site_hash_str(all, s->branches[k].name);
		all = site_hash(all, &s->branches[k].runs, sizeof s->branches[k].runs);
	}
	struct bench_job *jobs = pdb_xcalloc(s->nbenches + 1, sizeof *jobs);
	size_t njobs = 0;
	int rc = -1;

	for (size_t i = 0; i < s->nruns; i++) {
		const struct site_run *r = &s->runs[i];
		all = site_hash(all, &r->key, sizeof r->key);
		if (page_due(s, old, now, r->file, site_hash(opts, &r->key, sizeof r->key)) &&
		    write_page(s, r->file, r, err) < 0)
			goto out;
	}
	for (size_t i = 0; i < s->nbenches; i++) {
		const struct site_bench *bench = &s->benches[i];
		uint64_t key = site_hash_str(opts, bench->name);
		key = site_hash(key, &bench->failed_key, sizeof bench->failed_key);
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
		if (page_due(s, old, now, bench->file, key))
			jobs[njobs++].bench = bench;
	}
	if (write_bench_pages(s, jobs, njobs, err) < 0)
		goto out;
	rc = page_due(s, old, now, "index.html", all) ? write_page(s, "index.html", NULL, err) : 0;
out:
	free(jobs);
	return rc;
}

int pdb_site_write(struct pdb_store *store, const struct pdb_site_opts *opts,
		   struct pdb_site_stats *st, struct pdb_err *err)
{
	struct site s = { .store = store, .opts = opts, .stats = st,
			  .title = opts->title ? opts->title : PDB_SITE_TITLE };
	struct site_manifest old = { 0 }, now = { 0 };
	char *index = NULL;
	struct stat sb;
	int rc = -1, claimed = 0;

	memset(st, 0, sizeof *st);
	if (make_outdir(opts->outdir, &claimed, err) < 0)
		goto out;
	remove_leftovers(opts->outdir);
	if (site_gather(&s, err) < 0 ||
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
	if (rc < 0)
		unclaim(opts->outdir, claimed);
	free(index);
	site_manifest_release(&old);
	site_manifest_release(&now);
	site_release(&s);
	return rc;
}
