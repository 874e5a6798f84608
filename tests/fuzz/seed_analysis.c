/* The analysis target's seeds (tests/fuzz/fuzz_runs.h) from fixture files:
 * each run a file gives as a history of six runs of a branch, the last 20 %
 * slower, and the runs of each folder's files in order as one input.
 * Usage: seed_analysis OUTDIR FILE... (a file no reader takes is passed over). */
#include <string.h>

#include "fuzz_runs.h"
#include "ingest.h"

static void write_seed(const char *dir, const char *name, struct pdb_run *const *runs,
		       const double *scale, size_t n)
{
	char *path = pdb_xasprintf("%s/%s", dir, name);
	FILE *f;

	for (char *c = path + strlen(dir) + 1; *c; c++)
		if (*c == '/')
			*c = '_';
	if ((f = fopen(path, "wb"))) {
		fuzz_runs_encode(f, runs, scale, n);
		fclose(f);
	}
	free(path);
}

int main(int argc, char **argv)
{
	static const double history[] = { 1, 1.01, 0.99, 1.02, 1, 1.2 }, same[FUZZ_RUNS_MAX] = {
		1, 1, 1, 1, 1, 1, 1, 1 };
	struct pdb_ingest_opts opts = { .limits = { .max_bytes = (uint64_t)8 << 20 } };
	struct pdb_run *folder[FUZZ_RUNS_MAX];
	size_t nfolder = 0;
	char *dir = NULL;

	if (argc < 2)
		return 2;
	for (int i = 2; i <= argc; i++) {
		const char *path = i < argc ? argv[i] : "", *slash = strrchr(path, '/');
		size_t dlen = slash ? (size_t)(slash - path) : 0;
		struct pdb_run *run = NULL, *six[6];
		struct pdb_err err;
		char *name;

		/* a folder's runs, written when the next file is of another folder */
		if (dir && (strlen(dir) != dlen || strncmp(dir, path, dlen) != 0 ||
			    nfolder == FUZZ_RUNS_MAX)) {
			name = pdb_xasprintf("folder-%s", dir);
			if (nfolder > 1)
				write_seed(argv[1], name, folder, same, nfolder);
			free(name);
			for (size_t k = 0; k < nfolder; k++)
				pdb_run_free(folder[k]);
			nfolder = 0;
			free(dir);
			dir = NULL;
		}
		if (i == argc)
			break;
		if (!(run = pdb_ingest_files(&path, 1, &opts, NULL, &err)))
			continue;
		for (size_t k = 0; k < 6; k++)
			six[k] = run;
		name = pdb_xasprintf("history-%s", path);
		write_seed(argv[1], name, six, history, 6);
		free(name);
		if (!dir)
			dir = pdb_xstrndup(path, dlen);
		folder[nfolder++] = run;
	}
	return 0;
}
