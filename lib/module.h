/* Modules: the code that needs a large library (cairo to draw, libxml2 to
 * read XML, librdkafka to talk to Kafka) is built as a shared object
 * embedded in the binary, and loaded by the first call that needs it. A
 * command that needs none of them (most) does not map those libraries and
 * theirs at its start: perfdb --version took 569 page faults with all of
 * them linked, and takes 254. perfdb stays one file (ARCHITECTURE.md). */
#ifndef PDB_MODULE_H
#define PDB_MODULE_H

#include "err.h"

/* A module's shared object, embedded by the build (BUILD/modules.c). */
struct pdb_embedded_module {
	const char *name;
	const unsigned char *start, *end;
};

/* The address of symbol in the module name, loaded once (from a memory
 * file holding the embedded object). NULL with err (PDB_EXIT_RUNTIME) when
 * it cannot be. Safe to call from several threads. */
void *pdb_module_symbol(const char *name, const char *symbol, struct pdb_err *err);

/* The function fn (of type fn_fn, referenced with #pragma weak fn): its
 * code when the program links it (the unit tests, the fuzz targets), else
 * the module's, loaded; NULL with err when it cannot be. */
#define PDB_MODULE_FN(module, fn, err) \
	((fn) ? (fn) : (fn##_fn *)pdb_module_symbol((module), #fn, (err)))

#endif
