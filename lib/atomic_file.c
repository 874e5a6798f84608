/* Output files and folders: a regular file replaced whole by a rename, a device or FIFO
 * written in place, a symlink followed or refused (the rule in atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file beside target, in its directory so that rename cannot
 * cross filesystems. */
static int make_temp(const char *path, struct pdb_atomic *a, struct pdb_err *err)
{
	const char *slash = strrchr(a->target, '/');
	int fd;

	if (slash)
		snprintf(a->name, sizeof a->name, "%.*s/.%s.XXXXXX", (int)(slash - a->target),
			 a->target, slash + 1);
	else
		snprintf(a->name, sizeof a->name, ".%s.XXXXXX", a->target);
	if ((fd = mkstemp(a->name)) < 0)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", path, strerror(errno));
	fchmod(fd, 0644);
	close(fd);
	return 0;
}

int pdb_atomic_begin(const char *path, enum pdb_out_kind kind, struct pdb_atomic *a,
		     struct pdb_err *err)
{
	struct stat st;
	char *real;

	a->name[0] = a->target[0] = '\0';
	if (strlen(path) >= sizeof a->target)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: name too long", path);
	if (kind == PDB_OUT_OWN && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: a symlink, not followed inside "
				   "the output folder: remove it", path);
	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", path, strerror(errno));
		if (lstat(path, &st) == 0)
			return pdb_err_set(err, PDB_EXIT_RUNTIME,
					   "%s: a symlink to nothing, not written", path);
		snprintf(a->target, sizeof a->target, "%s", path);
		return make_temp(path, a, err);
	}
	if (S_ISDIR(st.st_mode))
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: is a directory", path);
	if (S_ISSOCK(st.st_mode))
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: is a socket, not written", path);
	if (!S_ISREG(st.st_mode)) {
		/* a device or a FIFO: written where it is, nothing to rename */
		snprintf(a->name, sizeof a->name, "%s", path);
		return 0;
	}
	if (!(real = realpath(path, NULL)) || strlen(real) >= sizeof a->target) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", path,
			    real ? "name too long" : strerror(errno));
		free(real);
		return -1;
	}
	snprintf(a->target, sizeof a->target, "%s", real);
	free(real);
	return make_temp(path, a, err);
}

int pdb_atomic_end(const struct pdb_atomic *a, int ok, struct pdb_err *err)
{
	if (!a->target[0])
		return ok ? 0 : -1;
	if (ok && rename(a->name, a->target) == 0)
		return 0;
	if (ok)
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", a->target, strerror(errno));
	unlink(a->name);
	return -1;
}

int pdb_make_dir(const char *dir, enum pdb_out_kind kind, int *made, struct pdb_err *err)
{
	struct stat st;
	int there;

	if (made)
		*made = 0;
	if (mkdir(dir, 0777) == 0) {
		if (made)
			*made = 1;
		return 0;
	}
	there = errno == EEXIST && (kind == PDB_OUT_GIVEN ? stat(dir, &st) : lstat(dir, &st)) == 0;
	if (there && S_ISDIR(st.st_mode))
		return 0;
	if (errno != EEXIST)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", dir, strerror(errno));
	return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: exists and is not a directory%s", dir,
			   kind == PDB_OUT_OWN ? " (a symlink is not followed)" : "");
}
