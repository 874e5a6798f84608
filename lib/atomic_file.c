/* Atomic files: write beside the final name, then rename over it (a symlink there is replaced, never followed). */
#include "atomic_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pdb_atomic_begin(const char *path, char *tmp, size_t size, struct pdb_err *err)
{
	const char *slash = strrchr(path, '/');
	int fd;

	/* the same directory, so that rename cannot cross filesystems */
	if (slash)
		snprintf(tmp, size, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
	else
		snprintf(tmp, size, ".%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", path, strerror(errno));
	fchmod(fd, 0644);
	close(fd);
	return 0;
}

int pdb_atomic_end(const char *tmp, const char *path, int ok, struct pdb_err *err)
{
	if (ok && rename(tmp, path) == 0)
		return 0;
	if (ok)
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", path, strerror(errno));
	unlink(tmp);
	return -1;
}

int pdb_make_dir(const char *dir, enum pdb_dir_kind kind, int *made, struct pdb_err *err)
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
	there = errno == EEXIST && (kind == PDB_DIR_GIVEN ? stat(dir, &st) : lstat(dir, &st)) == 0;
	if (there && S_ISDIR(st.st_mode))
		return 0;
	if (errno != EEXIST)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", dir, strerror(errno));
	return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: exists and is not a directory%s", dir,
			   kind == PDB_DIR_OWN ? " (a symlink is not followed)" : "");
}
