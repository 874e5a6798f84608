/* Fuzz target: perfdb's canonical JSON; what it accepts must round-trip exactly. */
#include <jansson.h>

#include "canonical.h"
#include "fuzz_common.h"

static char data_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_tmpfile(data_path, ".json");
	return 0;
}

static char *dump(const struct pdb_run *run)
{
	json_t *doc = pdb_canonical_from_run(run);
	char *s = json_dumps(doc, JSON_SORT_KEYS | JSON_COMPACT);

	json_decref(doc);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pdb_ingest_opts opts = { .format = "perfdb" };
	const char *paths[] = { data_path };
	struct pdb_run *run, *again = NULL;
	struct pdb_err err;
	char *first, *second = NULL;
	json_t *doc;

	fuzz_write(data_path, data, size);
	if (!(run = pdb_ingest_files(paths, 1, &opts, NULL, &err)))
		return 0;
	first = dump(run);
	doc = json_loads(first, 0, NULL);
	again = pdb_run_new();
	if (!doc || pdb_canonical_to_run(doc, again, "again", &err) < 0) {
		fprintf(stderr, "canonical output does not read back: %s\n%s\n", err.msg, first);
		abort();
	}
	free(again->source);
	again->source = run->source ? strdup(run->source) : NULL;
	free(again->sha256);
	again->sha256 = run->sha256 ? strdup(run->sha256) : NULL;
	second = dump(again);
	if (strcmp(first, second) != 0) {
		fprintf(stderr, "canonical round trip differs:\n%s\n%s\n", first, second);
		abort();
	}
	json_decref(doc);
	free(first);
	free(second);
	pdb_run_free(run);
	pdb_run_free(again);
	return 0;
}
