/* Modules embedded in the binary, loaded when first used: written to a
 * memory file (memfd) and opened with dlopen. */
#include "module.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* the build's table, ended by a NULL name; weak: a program that links the
 * modules' code itself (unit tests, fuzzing) has none */
extern const struct pdb_embedded_module pdb_embedded_modules[] __attribute__((weak));

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	const char *name;
	void *handle;
} loaded[8];
static size_t nloaded;

static void *open_module(const char *name, struct pdb_err *err)
{
	const struct pdb_embedded_module *m = pdb_embedded_modules;
	char path[64];
	void *handle = NULL;
	size_t size, done = 0;
	int fd;

	while (m && m->name && strcmp(m->name, name) != 0)
		m++;
	if (!m || !m->name) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "this perfdb was built without the module %s", name);
		return NULL;
	}
	snprintf(path, sizeof path, "perfdb-%s.so", name);
	if ((fd = memfd_create(path, MFD_CLOEXEC)) < 0) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "cannot load the module %s: memfd_create: %s", name,
			    strerror(errno));
		return NULL;
	}
	size = (size_t)(m->end - m->start);
	while (done < size) {
		ssize_t n = write(fd, m->start + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			pdb_err_set(err, PDB_EXIT_RUNTIME, "cannot load the module %s: write: %s", name,
				    strerror(n < 0 ? errno : EIO));
			goto out;
		}
		done += (size_t)n;
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if (!(handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		pdb_err_set(err, PDB_EXIT_RUNTIME, "cannot load the module %s: %s", name, dlerror());
out:
	close(fd); /* the mapping keeps what it needs */
	return handle;
}

void *pdb_module_symbol(const char *name, const char *symbol, struct pdb_err *err)
{
	void *handle = NULL, *address = NULL;
	size_t i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < nloaded && strcmp(loaded[i].name, name) != 0; i++)
		;
	if (i < nloaded) {
		handle = loaded[i].handle;
	} else if ((handle = open_module(name, err)) && nloaded < sizeof loaded / sizeof *loaded) {
		loaded[nloaded].name = name;
		loaded[nloaded++].handle = handle;
	}
	if (handle && !(address = dlsym(handle, symbol)))
		pdb_err_set(err, PDB_EXIT_RUNTIME, "the module %s has no %s: %s", name, symbol,
			    dlerror());
	pthread_mutex_unlock(&lock);
	return address;
}
