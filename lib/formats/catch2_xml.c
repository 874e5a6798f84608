/* Format: Catch2 XML reporter (-r xml): BenchmarkResults with mean and std
 * dev bounds, failed test cases. Read by the module xml.so
 * (catch2_xml_read.c), loaded when a file is first read. */
#include "formats/catch2_xml_read.h"
#include "formats/format.h"
#include "module.h"
#include "parse/json_util.h"

/* linked in (unit tests, fuzzing), or NULL: then the module is loaded */
#pragma weak pdb_catch2_xml_read

static int detect(const struct pdb_source *src)
{
	if (!pdb_head_has(src, "<Catch"))
		return 0;
	if (pdb_head_has(src, "<BenchmarkResults"))
		return 95;
	return pdb_head_has(src, "<TestCase") || pdb_head_has(src, "<OverallResults") ? 60 : 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	pdb_catch2_xml_read_fn *fn = PDB_MODULE_FN("xml", pdb_catch2_xml_read, err);

	return fn ? fn(src, run, err) : -1;
}

const struct pdb_format pdb_format_catch2_xml = {
	.name = "catch2-xml",
	.summary = "Catch2 XML reporter (-r xml): time mean and std dev with bounds per benchmark, "
		   "failed test cases",
	.detect = detect,
	.parse = parse,
};
