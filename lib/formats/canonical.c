/* Format: perfdb's own canonical JSON (what `perfdb show --format json` prints). */
#include <stdlib.h>
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
	size_t len = 0;
	char *text = pdb_json_read(src, &len, err);
	int ret = text ? pdb_canonical_read(text, len, run, src->name, err) : -1;

	free(text);
	return ret;
}

const struct pdb_format pdb_format_canonical = {
	.name = "perfdb",
	.summary = "perfdb canonical JSON (perfdb show --format json); round-trips exactly",
	.detect = detect,
	.parse = parse,
	.own_env = 1,
};
