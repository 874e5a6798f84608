/* Format: perfdb's own canonical JSON (what `perfdb show --format json` prints). */
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "formats/format.h"
#include "parse/json_packed.h"
#include "parse/json_util.h"

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

/* Long sample arrays read packed (8 bytes a number); a file the packed
 * reader cannot load (not JSON, a key twice) is read as text, whose
 * reader says where and names both keys. */
static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	static const char *const packed[] = { PDB_CANONICAL_PACKED, NULL };
	struct pdb_json_doc doc;
	struct pdb_err ignored;
	size_t len = 0;
	char *text;
	int ret;

	if (pdb_json_doc_load(src, packed, 1, &doc, &ignored) == 0) {
		ret = pdb_canonical_read_packed(&doc, src, run, err);
		pdb_json_doc_free(&doc);
		return ret;
	}
	pdb_json_doc_free(&doc);
	text = pdb_json_read(src, &len, err);
	ret = text ? pdb_canonical_read(text, len, run, src->name, err) : -1;
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
