/* Fuzz target: JSON result files through every adapter (forced and detected) and --map. */
#include "fuzz_common.h"

static char data_path[4096], map_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char map[] =
		"input: json\nrecords: $.results\nbenchmark: {column: command}\n"
		"dims: [parameters.n]\nmetrics:\n  - {column: times, name: time, unit: s}\n"
		"  - {column: mean, name: time, unit: s, stat: mean}\n"
		"attrs: [{column: $.version, name: version}]\n";

	(void)argc;
	(void)argv;
	fuzz_tmpfile(data_path, ".json");
	fuzz_tmpfile(map_path, ".yaml");
	fuzz_write(map_path, (const uint8_t *)map, sizeof map - 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write(data_path, data, size);
	fuzz_all_formats(data_path);
	fuzz_ingest(data_path, NULL, map_path);
	return 0;
}
