/* Fuzz target: YAML documents (lib/yaml_doc.h) and MAP.yaml specs, and YAML data via --map. */
#include "formats/map_spec.h"
#include "fuzz_common.h"
#include "yaml_doc.h"

static char yaml_path[4096], csv_path[4096], map_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char csv[] = "test,rate,logs/s,delay\nsyslog,1000,996.7,1.8\nsyslog,5000,,3.9\n";
	static const char map[] =
		"input: yaml\nrecords: benchmarks[*]\nbenchmark: {column: name}\n"
		"dims: [threads]\nmetrics: [{column: time_ms, name: time, unit: ms}]\n"
		"attrs: [{column: $.host, name: host}]\n";

	(void)argc;
	(void)argv;
	fuzz_tmpfile(yaml_path, ".yaml");
	fuzz_tmpfile(csv_path, ".csv");
	fuzz_tmpfile(map_path, ".yaml");
	fuzz_write(csv_path, (const uint8_t *)csv, sizeof csv - 1);
	fuzz_write(map_path, (const uint8_t *)map, sizeof map - 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pdb_yaml_doc doc;
	struct pdb_map_spec spec;
	struct pdb_err err;

	fuzz_write(yaml_path, data, size);
	if (pdb_yaml_load(yaml_path, NULL, &doc, &err) == 0) {
		int line, col;
		pdb_yaml_where(&doc, doc.root, &line, &col);
		pdb_yaml_doc_release(&doc);
	}
	pdb_map_spec_load(yaml_path, &spec, &err);
	pdb_map_spec_release(&spec);
	/* the input as a MAP.yaml over a CSV, and as YAML data under a map */
	fuzz_ingest(csv_path, NULL, yaml_path);
	fuzz_ingest(yaml_path, NULL, map_path);
	return 0;
}
