/* Output messages tied to their input by a payload value: the $SEQ or $GUID the pipeline kept. */
#include "kafka/match.h"

#include <jansson.h>
#include <string.h>

#include "loadgen/template.h"

/* A decimal sequence or a GUID. */
static int value_seq(uint64_t guid_key, const char *text, size_t len, uint64_t *seq)
{
	uint64_t v = 0;

	if (len == 0)
		return -1;
	if (len == 36)
		return pdb_kafka_guid_seq(guid_key, text, len, seq);
	if (len > 19)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(text[i] - '0');
	}
	*seq = v;
	return 0;
}

static int path_seq(const struct pdb_kafka_spec *ks, uint64_t guid_key, const char *payload, size_t len,
		    uint64_t *seq)
{
	json_t *doc = json_loadb(payload, len, JSON_DECODE_ANY, NULL), *v = doc;
	int ret = -1;

	for (size_t i = 0; v && i < ks->nmatch_steps; i++)
		v = ks->match_steps[i].key ? json_object_get(v, ks->match_steps[i].key)
					   : json_array_get(v, (size_t)ks->match_steps[i].index);
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*seq = (uint64_t)json_integer_value(v);
		ret = 0;
	} else if (json_is_string(v)) {
		ret = value_seq(guid_key, json_string_value(v), json_string_length(v), seq);
	}
	json_decref(doc);
	return ret;
}

static int regex_seq(const struct pdb_kafka_spec *ks, uint64_t guid_key, const char *payload, size_t len,
		     uint64_t *seq)
{
	regmatch_t m[2] = { { .rm_so = 0, .rm_eo = (regoff_t)len } };
	int g = ks->match_re.re_nsub > 0;

	if (regexec(&ks->match_re, payload, 2, m, REG_STARTEND) != 0 || m[g].rm_so < 0)
		return -1;
	return value_seq(guid_key, payload + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so), seq);
}

int pdb_kafka_match_seq(const struct pdb_kafka_spec *ks, uint64_t guid_key, const char *payload,
			size_t len, uint64_t *seq)
{
	if (!payload)
		return -1;
	if (ks->match == PDB_KAFKA_MATCH_PATH)
		return path_seq(ks, guid_key, payload, len, seq);
	if (ks->match == PDB_KAFKA_MATCH_REGEX)
		return regex_seq(ks, guid_key, payload, len, seq);
	return -1;
}
