/* Format: perfdb's own canonical JSON (what `perfdb show --format json` prints). */
#include <string.h>

#include "canonical.h"
#include "formats/format.h"
#include "formats/json_util.h"

/* What show prints first (uuid, created_at, status before the attributes) or,
 * for a hand-written file, the results' own keys: a run with many attributes
 * has its results past the window detection reads. */
static int detect(const struct pdb_source *src)
{
	if (pdb_head_first(src) != '{')
		return 0;
	if (pdb_head_has(src, "\"uuid\"") && pdb_head_has(src, "\"created_at\"") &&
	    pdb_head_has(src, "\"status\"") && pdb_head_has(src, "\"attrs\""))
		return 90;
	return pdb_head_has(src, "\"results\"") && pdb_head_has(src, "\"benchmark\"") &&
	       pdb_head_has(src, "\"metric\"") && pdb_head_has(src, "\"direction\"") ? 90 : 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	json_t *doc = pdb_json_load(src, err);
	int ret;

	if (!doc)
		return -1;
	ret = pdb_canonical_to_run(doc, run, src->name, err);
	json_decref(doc);
	return ret;
}

const struct pdb_format pdb_format_canonical = {
	.name = "perfdb",
	.summary = "perfdb canonical JSON (perfdb show --format json); round-trips exactly",
	.detect = detect,
	.parse = parse,
	.own_env = 1,
};
