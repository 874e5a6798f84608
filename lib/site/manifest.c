/* Site: the manifest, what each page was built from (a key per page), so that a rerun rewrites only what changed. */
#include "site/site_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"

#define MANIFEST SITE_MANIFEST
#define HEADER "perfdb site manifest 1"

/* The file: the header, then lines "KEY PATH" (KEY 16 hex digits) in path order. */
struct site_manifest_entry {
	char *path;
	uint64_t key;
};

void site_manifest_add(struct site_manifest *m, const char *path, uint64_t key)
{
	m->paths = pdb_xrealloc(m->paths, (m->n + 1) * sizeof *m->paths);
	m->keys = pdb_xrealloc(m->keys, (m->n + 1) * sizeof *m->keys);
	m->paths[m->n] = pdb_xstrdup(path);
	m->keys[m->n++] = key;
}

uint64_t site_manifest_key(const struct site_manifest *m, const char *path, int *found)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(m->paths[mid], path);
		if (c == 0) {
			*found = 1;
			return m->keys[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = 0;
	return 0;
}

void site_manifest_release(struct site_manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->paths[i]);
	free(m->paths);
	free(m->keys);
	memset(m, 0, sizeof *m);
}

int site_manifest_read(const char *dir, struct site_manifest *m, struct pdb_err *err)
{
	char *path = pdb_xasprintf("%s/" MANIFEST, dir), line[4096], *prev = NULL;
	FILE *f = fopen(path, "r");
	int rc = 0;

	memset(m, 0, sizeof *m);
	if (!f) {
		if (errno != ENOENT)
			rc = pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", path, strerror(errno));
		free(path);
		return rc;
	}
	/* a manifest of another format, or one that does not read, is no manifest:
	 * every page is written again */
	if (!fgets(line, sizeof line, f) || strcmp(line, HEADER "\n") != 0)
		goto out;
	while (fgets(line, sizeof line, f)) {
		uint64_t key;
		int used = 0;
		size_t len = strlen(line);

		if (len == 0 || line[len - 1] != '\n' ||
		    sscanf(line, "%16" SCNx64 " %n", &key, &used) != 1 || used != 17 ||
		    (prev && strcmp(prev, line + used) >= 0)) {
			site_manifest_release(m);
			break;
		}
		line[len - 1] = '\0';
		site_manifest_add(m, line + used, key);
		prev = m->paths[m->n - 1];
	}
out:
	fclose(f);
	free(path);
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct site_manifest_entry *x = a, *y = b;
	return strcmp(x->path, y->path);
}

void site_manifest_sort(struct site_manifest *m)
{
	struct site_manifest_entry *e = pdb_xmalloc((m->n + 1) * sizeof *e);

	for (size_t i = 0; i < m->n; i++)
		e[i] = (struct site_manifest_entry){ m->paths[i], m->keys[i] };
	qsort(e, m->n, sizeof *e, cmp_entry);
	for (size_t i = 0; i < m->n; i++) {
		m->paths[i] = e[i].path;
		m->keys[i] = e[i].key;
	}
	free(e);
}

int site_manifest_write(const char *dir, const struct site_manifest *m, struct pdb_err *err)
{
	char *path = pdb_xasprintf("%s/" MANIFEST, dir);
	struct pdb_atomic a;
	FILE *f = NULL;
	int ok = 0, rc = -1;

	if (pdb_atomic_begin(path, PDB_OUT_OWN, &a, err) < 0)
		goto out;
	if ((f = fopen(a.name, "w"))) {
		fputs(HEADER "\n", f);
		for (size_t i = 0; i < m->n; i++)
			fprintf(f, "%016" PRIx64 " %s\n", m->keys[i], m->paths[i]);
		ok = !ferror(f);
		ok = fclose(f) == 0 && ok;
	}
	if (!ok)
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", path, strerror(errno ? errno : EIO));
	rc = pdb_atomic_end(&a, ok, err);
out:
	free(path);
	return rc;
}
