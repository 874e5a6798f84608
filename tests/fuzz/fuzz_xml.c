/* Fuzz target: XML result files (Catch2 -r xml) through catch2-xml, forced and detected. */
#include "fuzz_common.h"

static char data_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_tmpfile(data_path, ".xml");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write(data_path, data, size);
	fuzz_ingest(data_path, "catch2-xml", NULL);
	fuzz_ingest(data_path, NULL, NULL);
	return 0;
}
