/* Attribute helpers for adapters: keep what the model has no column for as run attributes. */
#include "formats/attrs_util.h"

#include <stdlib.h>

#include "parse/json_util.h"
#include "util.h"

char *pdb_attr_bench_key(const char *key, const char *bench)
{
	return pdb_xasprintf("%s[%s]", key, bench);
}

void pdb_attr_set_bench(struct pdb_run *run, const char *key, const char *bench,
			const char *value)
{
	char *k = pdb_attr_bench_key(key, bench);

	pdb_run_set_attr(run, k, value);
	free(k);
}

void pdb_attr_set_json(struct pdb_run *run, const char *key, const json_t *v)
{
	char *text;

	if (!v || json_is_null(v))
		return;
	text = pdb_json_text(v);
	pdb_run_set_attr(run, key, text);
	free(text);
}

void pdb_attr_flatten(struct pdb_run *run, const char *prefix, const json_t *obj)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)obj, key, v) {
		char *k = pdb_xasprintf("%s.%s", prefix, key);
		if (json_is_object(v))
			pdb_attr_flatten(run, k, v);
		else
			pdb_attr_set_json(run, k, v);
		free(k);
	}
}
