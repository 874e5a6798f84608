/* Valgrind's cachegrind: the instructions a process tree executes, each
 * process's count in a file of its own. */
#include "runner/cachegrind.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define FILE_MAX (64 << 20) /* a count file with --cache-sim=no: a few MB at most */

char *pdb_cachegrind_find(void)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	copy = pdb_xstrdup(path && *path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *p = pdb_xasprintf("%s/valgrind", *dir ? dir : ".");
		if (access(p, X_OK) == 0)
			found = p;
		else
			free(p);
	}
	free(copy);
	return found;
}

char **pdb_cachegrind_wrap(const char *valgrind, const char *dir)
{
	char **w = pdb_xcalloc(9, sizeof *w);
	size_t n = 0;

	w[n++] = pdb_xstrdup(valgrind);
	w[n++] = pdb_xstrdup("--tool=cachegrind");
	w[n++] = pdb_xstrdup("--cache-sim=no");
	w[n++] = pdb_xstrdup("--branch-sim=no");
	w[n++] = pdb_xstrdup("--trace-children=yes");
	w[n++] = pdb_xasprintf("--cachegrind-out-file=%s/cg.%%p", dir);
	w[n++] = pdb_xasprintf("--log-file=%s/vg.%%p", dir);
	w[n++] = pdb_xstrdup("--");
	return w;
}

void pdb_cachegrind_wrap_free(char **wrap)
{
	for (size_t i = 0; wrap && wrap[i]; i++)
		free(wrap[i]);
	free(wrap);
}

int pdb_cachegrind_summary(const char *text, double *ir)
{
	const char *p;
	char *end;
	unsigned long long v;

	for (p = text; p; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (strncmp(p, "summary:", 8) != 0)
			continue;
		v = strtoull(p + 8, &end, 10);
		if (end == p + 8)
			return -1;
		*ir = (double)v;
		return 0;
	}
	return -1;
}

/* The last line of valgrind's log of process pid: why it wrote no count. */
static void last_message(const char *dir, const char *pid, char *why, size_t size)
{
	char *path = pdb_xasprintf("%s/vg.%s", dir, pid), *text = pdb_read_file_capped(path, FILE_MAX), *end;
	char *line;

	free(path);
	if (!text)
		return;
	end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	line = strrchr(text, '\n');
	snprintf(why, size, "cachegrind wrote no count for process %s: %.300s", pid, line ? line + 1 : text);
	free(text);
}

int pdb_cachegrind_collect(const char *dir, double *ir, char *why, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int files = 0, ret = 0;

	*ir = 0;
	why[0] = '\0';
	while (d && ret == 0 && (e = readdir(d))) {
		char *path, *text;
		double v;
		if (strncmp(e->d_name, "cg.", 3) != 0)
			continue;
		path = pdb_xasprintf("%s/%s", dir, e->d_name);
		if ((text = pdb_read_file_capped(path, FILE_MAX)) && pdb_cachegrind_summary(text, &v) == 0) {
			*ir += v;
			files++;
		} else {
			snprintf(why, size, "cachegrind wrote no count for process %s", e->d_name + 3);
			last_message(dir, e->d_name + 3, why, size);
			ret = -1;
		}
		free(text);
		free(path);
	}
	if (d) {
		rewinddir(d);
		while ((e = readdir(d)))
			if (e->d_name[0] != '.') {
				char *path = pdb_xasprintf("%s/%s", dir, e->d_name);
				unlink(path);
				free(path);
			}
		closedir(d);
	}
	rmdir(dir);
	if (ret == 0 && files == 0) {
		snprintf(why, size, "cachegrind wrote no count (did valgrind start?)");
		ret = -1;
	}
	return ret;
}
