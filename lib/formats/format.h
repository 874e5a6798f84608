/* Formats: the adapter interface every result-file reader implements. */
#ifndef PDB_FORMAT_H
#define PDB_FORMAT_H

#include "err.h"
#include "model.h"
#include "parse/source.h"

struct pdb_format {
	const char *name;      /* --format NAME */
	const char *summary;   /* one line for --list-formats */
	/* How sure this adapter is that it reads src: 0 (no) to 100 (certain). */
	int (*detect)(const struct pdb_source *src);
	/* Add what src holds to run (results, attributes, run->tool).
	 * 0, or -1 with err (code PDB_EXIT_INPUT, file:line:col when known). */
	int (*parse)(const struct pdb_source *src, struct pdb_run *run,
		     struct pdb_err *err);
	int own_env;           /* the file carries its run's environment (canonical) */
};

/* All adapters, NULL-terminated, in --list-formats order. */
extern const struct pdb_format *const pdb_formats[];

const struct pdb_format *pdb_format_find(const char *name);
/* The adapter with the highest detect score above 0, or NULL. */
const struct pdb_format *pdb_format_detect(const struct pdb_source *src);

#endif
