/* Fuzz target: perfdb's canonical JSON; what it accepts must round-trip exactly. */
#include "fuzz_common.h"

static char data_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_tmpfile(data_path, ".json");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write(data_path, data, size);
	fuzz_ingest(data_path, "perfdb", NULL);
	return 0;
}
