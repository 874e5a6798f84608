/* Ingest: read result files with the right adapter into one run. */
#include "ingest.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fingerprint.h"
#include "formats/format.h"
#include "util.h"

#define HEAD_SIZE 65536

struct ingest {
	const struct pdb_ingest_opts *opts;
	struct pdb_run *run;
	struct pdb_buf sources;
	int own_env;      /* every file so far carried its own environment */
	int nfiles;
	const char *first_format;
};

/* Copy standard input to a temporary file; its path into out. */
static int spool_stdin(char *out, size_t size, struct pdb_err *err)
{
	const char *dir = getenv("TMPDIR");
	char buf[65536];
	size_t n;
	int fd;

	snprintf(out, size, "%s/perfdb-stdin-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(out);
	if (fd < 0)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "temporary file: %s", strerror(errno));
	while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
		if (write(fd, buf, n) != (ssize_t)n) {
			close(fd);
			unlink(out);
			return pdb_err_set(err, PDB_EXIT_RUNTIME, "temporary file: %s", strerror(errno));
		}
	close(fd);
	return 0;
}

static size_t read_head(const char *path, unsigned char *head)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0;

	if (f) {
		n = fread(head, 1, HEAD_SIZE, f);
		fclose(f);
	}
	head[n] = '\0';
	return n;
}

static int ingest_path(struct ingest *in, const char *path, const char *name,
		       struct pdb_err *err);

/* A directory no adapter claims: every regular file in it, by name. */
static int ingest_dir_files(struct ingest *in, const char *path, const char *name,
			    struct pdb_err *err)
{
	struct dirent **list = NULL;
	int n = scandir(path, &list, NULL, alphasort), ret = 0, any = 0;

	if (n < 0)
		return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "%s", strerror(errno));
	for (int i = 0; i < n; i++) {
		char *child = NULL, *child_name = NULL;
		struct stat sb;
		if (ret == 0 && list[i]->d_name[0] != '.') {
			child = pdb_xasprintf("%s/%s", path, list[i]->d_name);
			child_name = pdb_xasprintf("%s/%s", name, list[i]->d_name);
			if (stat(child, &sb) == 0 && S_ISREG(sb.st_mode)) {
				ret = ingest_path(in, child, child_name, err);
				any = 1;
			}
		}
		free(child);
		free(child_name);
		free(list[i]);
	}
	free(list);
	if (ret == 0 && !any)
		return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "no result files in this directory");
	return ret;
}

static const struct pdb_format *choose_format(const struct ingest *in,
					      const struct pdb_source *src,
					      struct pdb_err *err)
{
	const char *want = in->opts->format;
	const struct pdb_format *f;

	if (!want && in->opts->map_path)
		want = "map";
	if (want) {
		if (!(f = pdb_format_find(want)))
			pdb_err_set(err, PDB_EXIT_INPUT,
				    "unknown format '%s' (perfdb ingest --list-formats lists them)", want);
		return f;
	}
	f = pdb_format_detect(src);
	if (!f && !src->is_dir && src->head_len == 0)
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, 1, 1, "empty file");
	else if (!f && !src->is_dir)
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0,
			   "cannot tell which tool wrote this file; name it with --format (see --list-formats)");
	return f;
}

static int ingest_path(struct ingest *in, const char *path, const char *name,
		       struct pdb_err *err)
{
	unsigned char *head = NULL;
	struct pdb_source src = { .path = path, .name = name, .map_path = in->opts->map_path };
	const struct pdb_format *f;
	struct stat sb;
	int ret = -1;

	if (stat(path, &sb) < 0)
		return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "%s", strerror(errno));
	src.is_dir = S_ISDIR(sb.st_mode);
	if (!src.is_dir) {
		head = pdb_xmalloc(HEAD_SIZE + 1);
		src.head = head;
		src.head_len = read_head(path, head);
	}
	f = choose_format(in, &src, err);
	if (!f) {
		if (src.is_dir && !in->opts->format)
			ret = ingest_dir_files(in, path, name, err);
		goto out;
	}
	if (f->parse(&src, in->run, err) < 0)
		goto out;
	if (!in->first_format)
		in->first_format = f->name;
	if (!in->run->format)
		pdb_set_str(&in->run->format, f->name);
	else if (strcmp(in->run->format, f->name) != 0 && !f->own_env) {
		char *both = pdb_xasprintf("%s+%s", in->run->format, f->name);
		free(in->run->format);
		in->run->format = both;
	}
	in->own_env = in->own_env && f->own_env;
	in->nfiles++;
	ret = 0;
out:
	free(head);
	return ret;
}

struct pdb_run *pdb_ingest_files(const char *const *paths, size_t npaths,
				 const struct pdb_ingest_opts *opts,
				 const char **detected, struct pdb_err *err)
{
	struct ingest in = { .opts = opts, .own_env = 1 };
	char spooled[4096] = "", hex[65] = "";
	int ok = 0;

	in.run = pdb_run_new();
	pdb_buf_init(&in.sources);
	for (size_t i = 0; i < npaths; i++) {
		const char *path = paths[i], *name = paths[i];
		if (strcmp(path, "-") == 0) {
			if (spooled[0])
				goto fail_usage;
			if (spool_stdin(spooled, sizeof spooled, err) < 0)
				goto out;
			path = spooled;
			name = "<stdin>";
		}
		if (i == 0 && pdb_sha256_file(path, hex) < 0)
			hex[0] = '\0';
		if (ingest_path(&in, path, name, err) < 0)
			goto out;
		pdb_buf_printf(&in.sources, "%s%s", i ? "," : "", name);
	}
	/* the run keeps a sha256 its file named (canonical JSON) */
	if (hex[0] && !in.run->sha256)
		pdb_set_str(&in.run->sha256, hex);
	if (in.sources.data && !in.run->source)
		pdb_set_str(&in.run->source, in.sources.data);
	for (size_t i = 0; i < in.run->nresults; i++)
		for (size_t d = 0; d < opts->ndims; d++)
			pdb_result_set_dim(&in.run->results[i], opts->dims[d].key, opts->dims[d].value);
	for (size_t i = 0; i < opts->nattrs; i++)
		pdb_run_set_attr(in.run, opts->attrs[i].key, opts->attrs[i].value);
	if (opts->name)
		pdb_set_str(&in.run->name, opts->name);
	if (opts->fingerprint && !in.own_env)
		pdb_fingerprint_capture(in.run);
	if (in.run->nresults == 0) {
		pdb_err_set(err, PDB_EXIT_INPUT, "%s: no results found", in.sources.data ? in.sources.data : "input");
		goto out;
	}
	if (detected)
		*detected = in.first_format;
	ok = 1;
	goto out;
fail_usage:
	pdb_err_set(err, PDB_EXIT_USAGE, "standard input ('-') can be read only once");
out:
	if (spooled[0])
		unlink(spooled);
	pdb_buf_release(&in.sources);
	if (!ok) {
		pdb_run_free(in.run);
		return NULL;
	}
	return in.run;
}
