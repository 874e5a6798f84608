/* Fuzzing helpers: inputs go through real files, as ingest reads them. */
#ifndef PDB_FUZZ_COMMON_H
#define PDB_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/format.h"
#include "fuzz_roundtrip.h"
#include "ingest.h"
#include "model.h"

/* A file in $TMPDIR made once per process; path into out (4096 bytes). */
static inline void fuzz_tmpfile(char *out, const char *suffix)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(out, 4096, "%s/pdb-fuzz-XXXXXX%s", dir && *dir ? dir : "/tmp", suffix);
	fd = mkstemps(out, (int)strlen(suffix));
	if (fd < 0)
		abort();
	close(fd);
}

static inline void fuzz_write(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
}

/* Ingest path with adapter format (NULL: detect) and map (may be NULL); an
 * accepted run must round-trip (fuzz_roundtrip.h). Inputs give at most 8 MiB
 * decompressed (--max-input 8M): a gzip bomb seed meets the bound within the
 * fuzzer's timeout, as the 1 GiB default would not under the sanitizers. */
static inline void fuzz_ingest(const char *path, const char *format, const char *map)
{
	static char json_path[4096];
	struct pdb_ingest_opts opts = { .format = format, .map_path = map,
					.limits = { .max_bytes = (uint64_t)8 << 20 } };
	struct pdb_err err;
	const char *paths[] = { path };
	struct pdb_run *run = pdb_ingest_files(paths, 1, &opts, NULL, &err);

	if (!json_path[0])
		fuzz_tmpfile(json_path, ".json");
	if (run)
		fuzz_roundtrip(run, json_path);
	pdb_run_free(run);
}

/* Every adapter but map, forced, then detection. */
static inline void fuzz_all_formats(const char *path)
{
	for (size_t i = 0; pdb_formats[i]; i++)
		if (strcmp(pdb_formats[i]->name, "map") != 0)
			fuzz_ingest(path, pdb_formats[i]->name, NULL);
	fuzz_ingest(path, NULL, NULL);
}

#endif
