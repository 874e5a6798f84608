/* Text reading for adapters: a result file line by line, with the line number kept for errors. */
#include "formats/text_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pdb_text_read(const struct pdb_source *src, pdb_text_line_fn fn, void *ctx,
		  long *lineno, struct pdb_err *err)
{
	FILE *f = fopen(src->path, "rb");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	if (!f)
		return pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0, "%s", strerror(errno));
	while (ret == 0 && (n = getline(&line, &cap, f)) > 0) {
		(*lineno)++;
		ret = fn(ctx, line, (size_t)n);
	}
	if (ret == 0 && *lineno == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, 1, 1, "empty file");
	free(line);
	fclose(f);
	return ret;
}
