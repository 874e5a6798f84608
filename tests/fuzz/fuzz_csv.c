/* Fuzz target: CSV result files through every adapter (forced and detected) and --map. */
#include "fuzz_common.h"

static char data_path[4096], map_path[4096], nohead_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char map[] =
		"input: csv\nbenchmark: {column: benchmark}\ndims: [vcpus]\n"
		"metrics:\n  - {column: docs/s, name: throughput, unit: docs/s}\n"
		"  - {column: p99, name: latency, unit: ms, stat: p99}\n"
		"attrs: [{column: commit, name: commit}]\n";
	static const char nohead[] =
		"input: csv\nheader: 0\ndelimiter: \";\"\nbenchmark: {column: 1}\n"
		"dims: [{column: 2, name: n}]\nmetrics: [{column: 3, name: t, unit: ms}]\n";

	(void)argc;
	(void)argv;
	fuzz_tmpfile(data_path, ".csv");
	fuzz_tmpfile(map_path, ".yaml");
	fuzz_tmpfile(nohead_path, ".yaml");
	fuzz_write(map_path, (const uint8_t *)map, sizeof map - 1);
	fuzz_write(nohead_path, (const uint8_t *)nohead, sizeof nohead - 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write(data_path, data, size);
	fuzz_all_formats(data_path);
	fuzz_ingest(data_path, NULL, map_path);
	fuzz_ingest(data_path, NULL, nohead_path);
	return 0;
}
