/* Kafka workload specs: the `kafka:` section of a benchmark in a run spec. */
#include "kafka/workload_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define DEFAULT_SIZE 100
#define DEFAULT_DURATION 10.0
#define DEFAULT_DRAIN 5.0
#define DEFAULT_PARTITIONS 3

struct reader {
	const struct pdb_yaml_doc *doc;
	const char *dir;    /* of the spec, with a trailing '/', or "" */
	struct pdb_err *err;
};

static int bad(struct reader *r, const json_t *v, const char *fmt, const char *what)
{
	return pdb_yaml_bad(r->doc, v, PDB_EXIT_INPUT, r->err, fmt, what);
}

static char *path_of(struct reader *r, const char *p)
{
	return p[0] == '/' ? pdb_xstrdup(p) : pdb_xasprintf("%s%s", r->dir, p);
}

static int read_props(struct reader *r, const json_t *v, struct pdb_attr **out, size_t *n,
		      const char *what)
{
	const char *k;
	json_t *pv;

	if (!json_is_object(v))
		return bad(r, v, "%s: expected a mapping of librdkafka properties", what);
	*out = pdb_xcalloc(json_object_size(v) + 1, sizeof **out);
	json_object_foreach((json_t *)v, k, pv) {
		char *text = pdb_yaml_scalar_text(pv);
		if (!text)
			return bad(r, pv, "%s: expected a plain value", what);
		(*out)[*n].key = pdb_xstrdup(k);
		(*out)[(*n)++].value = text;
	}
	return 0;
}

static int read_seconds(struct reader *r, const json_t *v, double min, double *out, const char *what)
{
	if (!json_is_number(v) || json_number_value(v) < min || !isfinite(json_number_value(v)))
		return bad(r, v, "%s: expected seconds", what);
	*out = json_number_value(v);
	return 0;
}

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

static int read_var(struct reader *r, const char *name, const json_t *v, struct pdb_kafka_var *var)
{
	const json_t *csv = json_object_get(v, "csv"), *col = json_object_get(v, "column");
	const json_t *hot = json_object_get(v, "hot"), *header = json_object_get(v, "header");
	const char *k;
	json_t *x;

	var->name = pdb_xstrdup(name);
	if (!json_is_object(v) || !json_is_string(csv))
		return bad(r, v, "vars: %s: expected {csv: FILE, column: N, hot: \"10%%:80%%\"}", name);
	json_object_foreach((json_t *)v, k, x)
		if (strcmp(k, "csv") && strcmp(k, "column") && strcmp(k, "hot") && strcmp(k, "header")) {
			static const char *const keys[] = { "csv", "column", "hot", "header" };
			char hint[80];
			return pdb_yaml_bad(r->doc, x, PDB_EXIT_INPUT, r->err, "vars: unknown key '%s'%s", k,
					    pdb_did_you_mean(k, keys, 4, hint, sizeof hint));
		}
	var->csv = path_of(r, json_string_value(csv));
	var->column = 1;
	if (col && (!json_is_integer(col) || json_integer_value(col) < 1 || json_integer_value(col) > 100000))
		return bad(r, col, "%s: expected a column number (1 is the first)", "column");
	if (col)
		var->column = (long)json_integer_value(col);
	if (header && !json_is_boolean(header))
		return bad(r, header, "%s: expected true or false", "header");
	var->header = json_is_true(header);
	if (hot && (!json_is_string(hot) ||
		    pdb_kafka_parse_hot(json_string_value(hot), &var->hot_values, &var->hot_share) < 0))
		return bad(r, hot, "%s: expected \"VALUES%%:PICKS%%\" such as \"10%%:80%%\"", "hot");
	return 0;
}

int pdb_kafka_read_vars(const struct pdb_yaml_doc *doc, const char *dir, const json_t *v,
			struct pdb_kafka_var **vars, size_t *nvars, struct pdb_err *err)
{
	struct reader rd = { .doc = doc, .dir = dir, .err = err }, *r = &rd;
	const char *k;
	json_t *x;

	if (!json_is_object(v))
		return bad(r, v, "%s: expected a mapping NAME: {csv: FILE, column: N}", "vars");
	*vars = pdb_xcalloc(json_object_size(v) + 1, sizeof **vars);
	json_object_foreach((json_t *)v, k, x) {
		if (!strcmp(k, "SEQ") || !strcmp(k, "TS") || !strcmp(k, "GUID"))
			return bad(r, x, "vars: %s is built in", k);
		if (read_var(r, k, x, &(*vars)[(*nvars)++]) < 0)
			return -1;
	}
	return 0;
}

static int read_key(struct reader *r, const json_t *v, struct pdb_kafka_spec *ks)
{
	const char *s = json_string_value(v);

	if (!s)
		return bad(r, v, "%s: expected none, sequence or $VARIABLE", "key");
	if (strcmp(s, "none") == 0)
		ks->key = PDB_KAFKA_KEY_NONE;
	else if (strcmp(s, "sequence") == 0)
		ks->key = PDB_KAFKA_KEY_SEQ;
	else if (s[0] == '$' && s[1]) {
		ks->key = PDB_KAFKA_KEY_VAR;
		ks->key_var = pdb_xstrdup(s + 1);
	} else
		return bad(r, v, "%s: expected none, sequence or $VARIABLE", "key");
	return 0;
}

/* match: "$.PATH" or {regex: RE} (group 1, or the whole match, is the value). */
static int read_match(struct reader *r, const json_t *v, struct pdb_kafka_spec *ks)
{
	const json_t *re = json_object_get(v, "regex");
	const char *what;

	if (json_is_string(v) && json_string_value(v)[0] == '$') {
		ks->match_text = pdb_xstrdup(json_string_value(v));
		if (pdb_map_path_parse(ks->match_text, &ks->match_steps, &ks->nmatch_steps, &what) < 0)
			return pdb_yaml_bad(r->doc, v, PDB_EXIT_INPUT, r->err, "match: %s", what);
		for (size_t i = 0; i < ks->nmatch_steps; i++)
			if (!ks->match_steps[i].key && ks->match_steps[i].index < 0)
				return bad(r, v, "%s: [*] picks many values; the path must name one", "match");
		ks->match = PDB_KAFKA_MATCH_PATH;
		return 0;
	}
	if (!json_is_object(v) || json_object_size(v) != 1 || !json_is_string(re))
		return bad(r, v, "%s: expected a JSON path such as \"$.seq\" or {regex: 'seq=([0-9]+)'}", "match");
	ks->match_text = pdb_xstrdup(json_string_value(re));
	if (regcomp(&ks->match_re, ks->match_text, REG_EXTENDED) != 0) {
		free(ks->match_text);
		ks->match_text = NULL;
		return bad(r, re, "%s: not an extended regular expression", "match");
	}
	ks->match = PDB_KAFKA_MATCH_REGEX;
	return 0;
}

static int read_groups(struct reader *r, const json_t *v, struct pdb_kafka_spec *ks)
{
	size_t i;
	json_t *g;

	if (!json_is_array(v) || json_array_size(v) == 0)
		return bad(r, v, "%s: expected a list of consumer group names", "lag_groups");
	ks->lag_groups = pdb_xcalloc(json_array_size(v) + 1, sizeof *ks->lag_groups);
	json_array_foreach(v, i, g) {
		if (!json_is_string(g) || !*json_string_value(g))
			return bad(r, g, "%s: expected a consumer group name", "lag_groups");
		ks->lag_groups[ks->nlag_groups++] = pdb_xstrdup(json_string_value(g));
	}
	return 0;
}

static int read_key_value(struct reader *r, const char *key, const json_t *v, struct pdb_kafka_spec *ks)
{
	if (!strcmp(key, "brokers") || !strcmp(key, "topic") || !strcmp(key, "output_topic") ||
	    !strcmp(key, "template")) {
		char **field = !strcmp(key, "brokers") ? &ks->brokers : !strcmp(key, "topic") ? &ks->topic
			     : !strcmp(key, "output_topic") ? &ks->output_topic : &ks->template_path;
		if (!json_is_string(v) || !*json_string_value(v))
			return bad(r, v, "%s: expected text", key);
		*field = !strcmp(key, "template") ? path_of(r, json_string_value(v))
			 : pdb_xstrdup(json_string_value(v));
		return 0;
	}
	if (!strcmp(key, "producer"))
		return read_props(r, v, &ks->producer, &ks->nproducer, key);
	if (!strcmp(key, "consumer"))
		return read_props(r, v, &ks->consumer, &ks->nconsumer, key);
	if (!strcmp(key, "vars"))
		return pdb_kafka_read_vars(r->doc, r->dir, v, &ks->vars, &ks->nvars, r->err);
	if (!strcmp(key, "key"))
		return read_key(r, v, ks);
	if (!strcmp(key, "match"))
		return read_match(r, v, ks);
	if (!strcmp(key, "lag_groups"))
		return read_groups(r, v, ks);
	if (!strcmp(key, "rate")) {
		double rate;
		struct pdb_err ignored;
		if (!(ks->rate = pdb_yaml_scalar_text(v)) || (!strchr(ks->rate, '{') && pdb_kafka_parse_rate(ks->rate, &rate, &ignored) < 0))
			return bad(r, v, "%s: expected messages per second (0: as fast as possible) or a {matrix} value", key);
		return 0;
	}
	if (!strcmp(key, "size") || !strcmp(key, "partitions") || !strcmp(key, "count")) {
		long long max = !strcmp(key, "size") ? 64LL << 20 : !strcmp(key, "partitions") ? 10000 : 1LL << 40;
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > max)
			return bad(r, v, "%s: expected a positive whole number in range", key);
		if (!strcmp(key, "size"))
			ks->size = (long)json_integer_value(v);
		else if (!strcmp(key, "partitions"))
			ks->partitions = (int)json_integer_value(v);
		else
			ks->count = (long long)json_integer_value(v);
		return 0;
	}
	if (!strcmp(key, "duration"))
		return read_seconds(r, v, 0.001, &ks->duration, key);
	if (!strcmp(key, "warmup"))
		return read_seconds(r, v, 0, &ks->warmup, key);
	if (!strcmp(key, "drain"))
		return read_seconds(r, v, 0, &ks->drain, key);
	if (!strcmp(key, "consume")) {
		if (!json_is_boolean(v))
			return bad(r, v, "%s: expected true or false", key);
		ks->produce_only = !json_is_true(v);
		return 0;
	}
	{
		static const char *const keys[] = {
			"brokers", "topic", "output_topic", "template", "producer", "consumer", "vars",
			"key", "rate", "size", "partitions", "count", "duration", "warmup", "drain",
			"consume", "match", "lag_groups",
		};
		char hint[80];
		return pdb_yaml_bad(r->doc, v, PDB_EXIT_INPUT, r->err, "unknown key '%s' in kafka%s", key,
				    pdb_did_you_mean(key, keys, sizeof keys / sizeof keys[0],
						     hint, sizeof hint));
	}
}

struct pdb_kafka_spec *pdb_kafka_spec_read(const struct pdb_yaml_doc *doc, const json_t *v,
					   const char *spec_path, struct pdb_err *err)
{
	struct pdb_kafka_spec *ks = pdb_xcalloc(1, sizeof *ks);
	const char *slash = strrchr(spec_path, '/');
	char *dir = slash ? pdb_xstrndup(spec_path, (size_t)(slash - spec_path + 1)) : pdb_xstrdup("");
	struct reader r = { .doc = doc, .dir = dir, .err = err };
	const char *key;
	json_t *x;

	ks->size = DEFAULT_SIZE;
	ks->partitions = DEFAULT_PARTITIONS;
	ks->drain = DEFAULT_DRAIN;
	if (!json_is_object(v)) {
		bad(&r, v, "%s: expected a mapping with brokers and topic", "kafka");
		goto fail;
	}
	json_object_foreach((json_t *)v, key, x)
		if (read_key_value(&r, key, x, ks) < 0)
			goto fail;
	if (!ks->brokers || !ks->topic) {
		bad(&r, v, "%s: needs brokers (a bootstrap list or mock:N) and topic", "kafka");
		goto fail;
	}
	if (ks->duration > 0 && ks->count > 0) {
		bad(&r, json_object_get(v, "count"), "%s: give duration or count, not both", "kafka");
		goto fail;
	}
	if (ks->duration == 0 && ks->count == 0)
		ks->duration = DEFAULT_DURATION;
	if (ks->produce_only && ks->output_topic) {
		bad(&r, json_object_get(v, "output_topic"), "%s: consume: false has no output topic to read", "output_topic");
		goto fail;
	}
	if (ks->match && ks->produce_only) {
		bad(&r, json_object_get(v, "match"), "%s: consume: false reads no output to match", "match");
		goto fail;
	}
	if (ks->match && !ks->template_path) {
		bad(&r, json_object_get(v, "match"), "%s: needs a template whose $SEQ or $GUID the pipeline keeps", "match");
		goto fail;
	}
	if (json_object_get(v, "size") && ks->template_path) {
		bad(&r, json_object_get(v, "size"), "%s: give size or template, not both", "kafka");
		goto fail;
	}
	if (ks->key == PDB_KAFKA_KEY_VAR && !ks->template_path) {
		bad(&r, json_object_get(v, "key"), "%s: a variable key needs a template", "key");
		goto fail;
	}
	if (ks->key == PDB_KAFKA_KEY_VAR) {
		size_t i;
		for (i = 0; i < ks->nvars && strcmp(ks->vars[i].name, ks->key_var); i++)
			;
		if (i == ks->nvars) {
			bad(&r, json_object_get(v, "key"), "key: $%s is not one of vars", ks->key_var);
			goto fail;
		}
	}
	if (!ks->rate)
		ks->rate = pdb_xstrdup("0");
	free(dir);
	return ks;
fail:
	free(dir);
	pdb_kafka_spec_free(ks);
	return NULL;
}

static void props_free(struct pdb_attr *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].key);
		free(p[i].value);
	}
	free(p);
}

void pdb_kafka_spec_free(struct pdb_kafka_spec *ks)
{
	if (!ks)
		return;
	free(ks->brokers);
	props_free(ks->producer, ks->nproducer);
	props_free(ks->consumer, ks->nconsumer);
	free(ks->topic);
	free(ks->output_topic);
	free(ks->template_path);
	for (size_t i = 0; i < ks->nvars; i++) {
		free(ks->vars[i].name);
		free(ks->vars[i].csv);
	}
	free(ks->vars);
	free(ks->key_var);
	free(ks->rate);
	if (ks->match == PDB_KAFKA_MATCH_REGEX)
		regfree(&ks->match_re);
	free(ks->match_text);
	pdb_map_steps_free(ks->match_steps, ks->nmatch_steps);
	for (size_t i = 0; i < ks->nlag_groups; i++)
		free(ks->lag_groups[i]);
	free(ks->lag_groups);
	free(ks);
}

int pdb_kafka_parse_rate(const char *text, double *rate, struct pdb_err *err)
{
	if (pdb_parse_double(text, rate) < 0 || !isfinite(*rate) || *rate < 0 || *rate > 1e9)
		return pdb_err_set(err, PDB_EXIT_INPUT, "rate: '%s' is not messages per second", text);
	return 0;
}
