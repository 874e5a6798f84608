/* Fuzz target: the YAML perfdb reads as configuration, not data: a run
 * spec (lib/runner/spec.c, with its kafka:, stream:, sample: and matrix
 * sections, as `perfdb run` and `bisect` read it) and a perfdb.yaml
 * (lib/compare_config.c, its compare: section, as compare, detect, plot
 * and report read it). */
#include "compare_config.h"
#include "fuzz_common.h"
#include "runner/spec.h"

static char yaml_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_tmpfile(yaml_path, ".yaml");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pdb_spec spec;
	struct pdb_compare_config cfg;
	struct pdb_err err;

	fuzz_write(yaml_path, data, size);
	if (pdb_spec_load(yaml_path, &spec, &err) == 0) {
		for (size_t i = 0; i < spec.nbenches; i++)
			pdb_bench_names(&spec.benches[i], "rate");
		pdb_spec_has_git(&spec);
		pdb_spec_release(&spec);
	}
	if (pdb_compare_config_load(yaml_path, &cfg, &err) == 0) {
		double threshold = 5, warn = 2;
		int direction = 0, gate = -1;
		pdb_compare_config_ignores(&cfg, "spin");
		pdb_compare_config_apply(&cfg, "spin", "wall_time", &threshold, &warn, &direction, &gate);
	}
	pdb_compare_config_release(&cfg);
	return 0;
}
