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

static int bad(struct pdb_spec_reader *r, const json_t *v, const char *fmt, const char *what)
{
	return pdb_spec_bad(r, v, fmt, what);
}

static int read_props(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_kafka_spec *ks = out;
	int producer = !strcmp(k->name, "producer");
	struct pdb_attr **props = producer ? &ks->producer : &ks->consumer;
	size_t *n = producer ? &ks->nproducer : &ks->nconsumer;
	const char *name;
	json_t *pv;

	if (!json_is_object(v))
		return bad(r, v, "%s: expected a mapping of librdkafka properties", k->name);
	*props = pdb_xcalloc(json_object_size(v) + 1, sizeof **props);
	json_object_foreach((json_t *)v, name, pv) {
		char *text = pdb_yaml_scalar_text(pv);
		if (!text)
			return bad(r, pv, "%s: expected a plain value", k->name);
		(*props)[*n].key = pdb_xstrdup(name);
		(*props)[(*n)++].value = text;
	}
	return 0;
}

static int read_key(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_kafka_spec *ks = out;
	const char *s = json_string_value(v);

	(void)k;
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
static int read_match(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_kafka_spec *ks = out;
	const json_t *re = json_object_get(v, "regex");
	const char *what;

	(void)k;
	if (json_is_string(v) && json_string_value(v)[0] == '$') {
		ks->match_text = pdb_xstrdup(json_string_value(v));
		if (pdb_map_path_parse(ks->match_text, &ks->match_steps, &ks->nmatch_steps, &what) < 0)
			return pdb_spec_bad(r, v, "match: %s", what);
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

static int read_groups(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_kafka_spec *ks = out;
	size_t i;
	json_t *g;

	(void)k;
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

static int read_vars(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_kafka_spec *ks = out;

	(void)k;
	return pdb_kafka_read_vars(r, v, &ks->vars, &ks->nvars);
}

/* The lower-is-better metrics of a step, each one value or one a second. */
const char *const pdb_kafka_search_metrics[] = {
	"lost", "errors", "duplicated", "unmatched", "consumer_lag", "backlog", "e2e_latency_p99",
	"e2e_latency_p50", "e2e_latency_mean", "delivery_latency_p99", "errors_per_second", NULL,
};

static int read_rate(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_kafka_spec *ks = out;
	struct pdb_err ignored;
	double rate;

	if (json_is_object(v)) { /* a capacity search; a warm-up runs at its LOW */
		if (pdb_capacity_read(r, v, pdb_kafka_search_metrics, &ks->search) < 0)
			return -1;
		ks->rate = pdb_xasprintf("%.0f", ks->search->low);
		return 0;
	}
	if (!(ks->rate = pdb_yaml_scalar_text(v)) ||
	    (!strchr(ks->rate, '{') && pdb_kafka_parse_rate(ks->rate, &rate, &ignored) < 0))
		return bad(r, v, "%s: expected messages per second (0: as fast as possible), a {matrix} value or "
			   "{search: [LOW, HIGH], until: {METRIC: LIMIT}}", k->name);
	return 0;
}

static int read_consume(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_kafka_spec *ks = out;
	int consume;

	if (pdb_spec_bool(r, v, &consume, k->name) < 0)
		return -1;
	ks->produce_only = !consume;
	return 0;
}

static const struct pdb_spec_key kafka_keys[] = {
	PDB_KEY(struct pdb_kafka_spec, "brokers", PDB_KEY_TEXT, brokers),
	PDB_KEY(struct pdb_kafka_spec, "topic", PDB_KEY_TEXT, topic),
	PDB_KEY(struct pdb_kafka_spec, "output_topic", PDB_KEY_TEXT, output_topic),
	PDB_KEY(struct pdb_kafka_spec, "template", PDB_KEY_PATH, template_path),
	PDB_KEY_READ("producer", read_props),
	PDB_KEY_READ("consumer", read_props),
	PDB_KEY_READ("vars", read_vars),
	PDB_KEY_READ("key", read_key),
	PDB_KEY_READ("rate", read_rate),
	PDB_KEY_RANGE(struct pdb_kafka_spec, "size", PDB_KEY_INT, size, 1, 64 << 20),
	PDB_KEY_RANGE(struct pdb_kafka_spec, "partitions", PDB_KEY_INT, partitions, 1, 10000),
	PDB_KEY_RANGE(struct pdb_kafka_spec, "count", PDB_KEY_INT, count, 1, (double)(1LL << 40)),
	PDB_KEY_RANGE(struct pdb_kafka_spec, "duration", PDB_KEY_SECONDS, duration, 0.001, PDB_SPEC_MAX_SECONDS),
	PDB_KEY_RANGE(struct pdb_kafka_spec, "warmup", PDB_KEY_SECONDS, warmup, 0, PDB_SPEC_MAX_SECONDS),
	PDB_KEY_RANGE(struct pdb_kafka_spec, "drain", PDB_KEY_SECONDS, drain, 0, PDB_SPEC_MAX_SECONDS),
	PDB_KEY_READ("consume", read_consume),
	PDB_KEY_READ("match", read_match),
	PDB_KEY_READ("lag_groups", read_groups),
};
const struct pdb_spec_section pdb_kafka_section = {
	"kafka", kafka_keys, sizeof kafka_keys / sizeof kafka_keys[0],
};

/* A search's conditions need what they name measured: a consumer for
 * what comes back, lag_groups for consumer_lag. */
static int search_problem(struct pdb_spec_reader *r, const json_t *v, const struct pdb_kafka_spec *ks)
{
	const json_t *until = json_object_get(json_object_get(v, "rate"), "until");
	const json_t *settle = json_object_get(json_object_get(v, "rate"), "settle");

	if (settle)
		return bad(r, settle, "%s: a Kafka step does not settle: its drain waits for the lag to come down",
			   "settle");

	for (size_t i = 0; i < ks->search->nuntil; i++) {
		const char *m = ks->search->until[i].metric;
		if (!strcmp(m, "consumer_lag") && !ks->nlag_groups)
			return bad(r, json_object_get(until, m), "until: %s: needs lag_groups, the groups whose lag "
				   "is recorded", m);
		if (ks->produce_only && strcmp(m, "errors") && strcmp(m, "delivery_latency_p99") &&
		    strcmp(m, "errors_per_second") && strcmp(m, "consumer_lag"))
			return bad(r, json_object_get(until, m), "until: %s: consume: false measures nothing that "
				   "comes back", m);
	}
	return 0;
}

struct pdb_kafka_spec *pdb_kafka_spec_read(const struct pdb_yaml_doc *doc, const json_t *v,
					   const char *spec_path, struct pdb_err *err)
{
	struct pdb_kafka_spec *ks = pdb_xcalloc(1, sizeof *ks);
	char *dir = pdb_spec_dir(spec_path);
	struct pdb_spec_reader r = { .doc = doc, .dir = dir, .err = err };

	ks->size = DEFAULT_SIZE;
	ks->partitions = DEFAULT_PARTITIONS;
	ks->drain = DEFAULT_DRAIN;
	if (!json_is_object(v)) {
		bad(&r, v, "%s: expected a mapping with brokers and topic", "kafka");
		goto fail;
	}
	if (pdb_spec_read_map(&r, v, &pdb_kafka_section, ks) < 0)
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
	if (ks->search && search_problem(&r, v, ks) < 0)
		goto fail;
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
	pdb_capacity_free(ks->search);
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
