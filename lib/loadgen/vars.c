/* Template variables: the `vars:` of a kafka: or stream: workload, each a CSV column. */
#include "loadgen/vars.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

int pdb_kafka_parse_hot(const char *text, double *values, double *share)
{
	char *a = pdb_xstrdup(text), *colon = strchr(a, ':'), *pa, *pb;
	int ret = -1;

	if (!colon)
		goto out;
	*colon = '\0';
	pa = a + strlen(a) - 1;
	pb = colon + strlen(colon + 1);
	if (pa < a || *pa != '%' || *pb != '%')
		goto out;
	*pa = *pb = '\0';
	if (pdb_parse_double(a, values) < 0 || pdb_parse_double(colon + 1, share) < 0 ||
	    *values <= 0 || *values > 100 || *share < 0 || *share > 100)
		goto out;
	*values /= 100;
	*share /= 100;
	ret = 0;
out:
	free(a);
	return ret;
}

static int read_hot(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_kafka_var *var = out;

	if (!json_is_string(v) || pdb_kafka_parse_hot(json_string_value(v), &var->hot_values, &var->hot_share) < 0)
		return pdb_spec_bad(r, v, "%s: expected \"VALUES%%:PICKS%%\" such as \"10%%:80%%\"", k->name);
	return 0;
}

static const struct pdb_spec_key var_keys[] = {
	PDB_KEY(struct pdb_kafka_var, "csv", PDB_KEY_PATH, csv),
	PDB_KEY_RANGE(struct pdb_kafka_var, "column", PDB_KEY_INT, column, 1, 100000),
	PDB_KEY_READ("hot", read_hot),
	PDB_KEY(struct pdb_kafka_var, "header", PDB_KEY_BOOL, header),
};
const struct pdb_spec_section pdb_kafka_var_section = {
	"a variable", var_keys, sizeof var_keys / sizeof var_keys[0],
};

int pdb_kafka_read_vars(struct pdb_spec_reader *r, const json_t *v, struct pdb_kafka_var **vars,
			size_t *nvars)
{
	const char *name;
	json_t *x;

	if (!json_is_object(v))
		return pdb_spec_bad(r, v, "%s: expected a mapping NAME: {csv: FILE, column: N}", "vars");
	*vars = pdb_xcalloc(json_object_size(v) + 1, sizeof **vars);
	json_object_foreach((json_t *)v, name, x) {
		struct pdb_kafka_var *var = &(*vars)[(*nvars)++];
		if (!strcmp(name, "SEQ") || !strcmp(name, "TS") || !strcmp(name, "GUID"))
			return pdb_spec_bad(r, x, "vars: %s is built in", name);
		var->name = pdb_xstrdup(name);
		var->column = 1;
		if (pdb_spec_read_map(r, x, &pdb_kafka_var_section, var) < 0)
			return -1;
		if (!var->csv)
			return pdb_spec_bad(r, x, "vars: %s: expected {csv: FILE, column: N, hot: \"10%%:80%%\"}", name);
	}
	return 0;
}
