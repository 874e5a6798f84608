/* Run specs: the YAML that `perfdb run` reads (benchmarks, matrix, repetitions). */
#include "runner/spec.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/map_spec.h"
#include "kafka/workload_spec.h"
#include "logstream/spec.h"
#include "runner/instrument.h"
#include "runner/placeholder.h"
#include "runner/sample_spec.h"
#include "runner/spec_keys.h"
#include "util.h"
#include "yaml_doc.h"

#define DEFAULT_REPEAT 5
#define MAX_REPEAT 1000000
#define MAX_NAME 64 /* the messages below say 64 */

static int bad(struct pdb_spec_reader *r, const json_t *v, const char *fmt, const char *what)
{
	return pdb_spec_bad(r, v, fmt, what);
}

/* A command (the field of key k): a shell string or a list of arguments. */
static int read_command(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v,
			void *out)
{
	struct pdb_command *c = (struct pdb_command *)((char *)out + k->offset);
	size_t i;
	json_t *item;

	if (json_is_string(v)) {
		c->shell = pdb_xstrdup(json_string_value(v));
		return 0;
	}
	if (!json_is_array(v) || json_array_size(v) == 0)
		return bad(r, v, "%s: expected a shell string or a non-empty list of arguments", k->name);
	c->argv = pdb_xcalloc(json_array_size(v) + 1, sizeof *c->argv);
	json_array_foreach(v, i, item) {
		if (!(c->argv[i] = pdb_yaml_scalar_text(item)))
			return bad(r, item, "%s: expected a plain argument", k->name);
	}
	return 0;
}

/* repeat: a whole number, or auto (an adaptive A/B run); the first auto's
 * place is kept, for the error when the run turns out to have no variants. */
static int read_repeat(struct pdb_spec_reader *r, const json_t *v, int *repeat, int *is_auto)
{
	struct pdb_spec *spec = r->ctx;
	int line, col;

	if (!json_is_string(v) || strcmp(json_string_value(v), "auto") != 0) {
		*is_auto = 0;
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > MAX_REPEAT)
			return bad(r, v, "%s: expected a whole number from 1 to 1000000, or auto", "repeat");
		*repeat = (int)json_integer_value(v);
		return 0;
	}
	*is_auto = 1;
	if (!spec->auto_where && pdb_yaml_where(r->doc, v, &line, &col) == 0)
		spec->auto_where = pdb_xasprintf("%s:%d:%d", r->doc->file, line, col);
	return 0;
}

static int read_top_repeat(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v,
			   void *out)
{
	struct pdb_spec *spec = out;

	(void)k;
	return read_repeat(r, v, &spec->repeat, &spec->repeat_auto);
}

static int read_bench_repeat(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v,
			     void *out)
{
	struct pdb_bench_spec *b = out;

	(void)k;
	return read_repeat(r, v, &b->repeat, &b->repeat_auto);
}

static const char *const directions[] = { "lower", "higher", "none", NULL };
static const int direction_of[] = { PDB_DIR_LOWER, PDB_DIR_HIGHER, PDB_DIR_NONE };

/* A metric entry as read: its direction the index in directions, or -1. */
struct metric_entry {
	struct pdb_regex_metric m;
	int direction;
};

static const struct pdb_spec_key metric_keys[] = {
	PDB_KEY(struct metric_entry, "name", PDB_KEY_TEXT, m.name),
	PDB_KEY(struct metric_entry, "regex", PDB_KEY_REGEX, m.regex),
	PDB_KEY(struct metric_entry, "unit", PDB_KEY_PLAIN, m.unit),
	PDB_KEY_ONE_OF(struct metric_entry, "direction", direction, directions),
};
static const struct pdb_spec_section metric_section = {
	"a metric", metric_keys, sizeof metric_keys / sizeof metric_keys[0],
};

static int read_metrics(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v,
			void *out)
{
	struct pdb_bench_spec *b = out;
	size_t i;
	json_t *m;

	if (!json_is_array(v))
		return bad(r, v, "%s: expected a list of {name, regex, unit, direction}", k->name);
	b->metrics = pdb_xcalloc(json_array_size(v) + 1, sizeof *b->metrics);
	json_array_foreach(v, i, m) {
		struct metric_entry e = { .direction = -1 };
		int rc = pdb_spec_read_map(r, m, &metric_section, &e);
		b->metrics[b->nmetrics++] = e.m; /* released with the spec, read or not */
		if (rc < 0)
			return -1;
		if (!e.m.name || !e.m.regex)
			return bad(r, m, "%s: each needs a name and a regex", k->name);
		if (!e.m.unit)
			b->metrics[i].unit = pdb_xstrdup("");
		b->metrics[i].has_direction = e.direction >= 0;
		b->metrics[i].direction = e.direction >= 0 ? direction_of[e.direction] : PDB_DIR_NONE;
	}
	return 0;
}

static int read_env(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_bench_spec *b = out;
	const char *name;
	json_t *ev;

	if (!json_is_object(v))
		return bad(r, v, "%s: expected a mapping NAME: value", k->name);
	b->env = pdb_xcalloc(json_object_size(v) + 1, sizeof *b->env);
	json_object_foreach((json_t *)v, name, ev) {
		char *text = pdb_yaml_scalar_text(ev);
		if (!text)
			return bad(r, ev, "%s: expected a plain value", k->name);
		b->env[b->nenv].key = pdb_xstrdup(name);
		b->env[b->nenv++].value = text;
	}
	return 0;
}

static const struct pdb_spec_key parse_keys[] = {
	PDB_KEY(struct pdb_bench_spec, "format", PDB_KEY_TEXT, parse_format),
	PDB_KEY(struct pdb_bench_spec, "file", PDB_KEY_TEXT, parse_file), /* relative to cwd: at run time */
	PDB_KEY(struct pdb_bench_spec, "map", PDB_KEY_PATH, parse_map),
};
static const struct pdb_spec_section parse_section = {
	"parse", parse_keys, sizeof parse_keys / sizeof parse_keys[0],
};

static int read_parse(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_bench_spec *b = out;

	const char *names[64];
	char hint[128];
	size_t n = 0;

	if (pdb_spec_read_map(r, v, &parse_section, b) < 0)
		return -1;
	if (b->parse_map) { /* read as ingest --map reads: the map is checked now */
		struct pdb_map_spec ms;
		if (b->parse_format && strcmp(b->parse_format, "map") != 0)
			return pdb_spec_bad(r, json_object_get(v, "format"), "format: a map reads the "
					    "output itself (format map, or no format)");
		if (pdb_map_spec_load(b->parse_map, &ms, r->err) < 0) { /* at the map's FILE:LINE:COL */
			pdb_map_spec_release(&ms);
			return -1;
		}
		pdb_map_spec_release(&ms);
		if (!b->parse_format)
			b->parse_format = pdb_xstrdup("map");
		return 0;
	}
	if (!b->parse_format)
		return bad(r, v, "%s: expected {format: NAME, file: PATH} or {map: MAP.yaml, file: PATH}", k->name);
	if (pdb_format_find(b->parse_format))
		return 0;
	while (pdb_formats[n] && n < sizeof names / sizeof names[0]) {
		names[n] = pdb_formats[n]->name;
		n++;
	}
	if (!*pdb_did_you_mean(b->parse_format, names, n, hint, sizeof hint))
		snprintf(hint, sizeof hint, " (perfdb ingest --list-formats lists them)");
	return pdb_spec_bad(r, json_object_get(v, "format"), "format: '%s' is not an ingest format%s",
			    b->parse_format, hint);
}

static int read_kafka(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_bench_spec *b = out;

	(void)k;
	return (b->kafka = pdb_kafka_spec_read(r->doc, v, r->doc->file, r->err)) ? 0 : -1;
}

static int read_stream(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_bench_spec *b = out;

	(void)k;
	return (b->stream = pdb_logstream_spec_read(r->doc, v, r->doc->file, r->err)) ? 0 : -1;
}

/* A matrix NAME: [values] into *out and *n (vcpus values are CPU counts). */
static int read_matrix_into(struct pdb_spec_reader *r, const json_t *v, struct pdb_matrix_param **out,
			    size_t *n)
{
	const char *key;
	json_t *list;

	if (!json_is_object(v))
		return bad(r, v, "%s: expected a mapping NAME: [values]", "matrix");
	*out = pdb_xcalloc(json_object_size(v) + 1, sizeof **out);
	json_object_foreach((json_t *)v, key, list) {
		struct pdb_matrix_param *p = &(*out)[(*n)++];
		size_t i;
		json_t *item;
		p->name = pdb_xstrdup(key);
		if (!json_is_array(list) || json_array_size(list) == 0)
			return bad(r, list, "matrix '%s': expected a non-empty list", key);
		p->values = pdb_xcalloc(json_array_size(list), sizeof *p->values);
		p->where = pdb_xcalloc(json_array_size(list), sizeof *p->where);
		json_array_foreach(list, i, item) {
			int line, col;
			if (!(p->values[i] = pdb_yaml_scalar_text(item)))
				return bad(r, item, "matrix '%s': expected plain values", key);
			if (pdb_yaml_where(r->doc, item, &line, &col) == 0)
				p->where[i] = pdb_xasprintf("%s:%d:%d", r->doc->file, line, col);
			p->nvalues++;
		}
		if (strcmp(key, "vcpus") == 0)
			for (i = 0; i < p->nvalues; i++) {
				int64_t cpus;
				if (pdb_parse_int64(p->values[i], 1, 4096, &cpus) < 0)
					return bad(r, json_array_get(list, i), "%s: expected a CPU count", "vcpus");
			}
	}
	return 0;
}

static int read_matrix(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v,
		       void *out)
{
	struct pdb_spec *spec = out;

	(void)k;
	return read_matrix_into(r, v, &spec->matrix, &spec->nmatrix);
}

static int read_bench_matrix(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v,
			     void *out)
{
	struct pdb_bench_spec *b = out;

	(void)k;
	return read_matrix_into(r, v, &b->matrix, &b->nmatrix);
}

/* sample: of a benchmark, or of the spec (every benchmark without its own). */
static int read_sample(struct pdb_spec_reader *r, const json_t *v, struct pdb_sample_spec **out)
{
	pdb_sample_spec_free(*out);
	return (*out = pdb_sample_spec_read(r, v)) ? 0 : -1;
}

static int read_bench_sample(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v,
			     void *out)
{
	(void)k;
	return read_sample(r, v, &((struct pdb_bench_spec *)out)->sample);
}

static int read_top_sample(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v,
			   void *out)
{
	(void)k;
	return read_sample(r, v, &((struct pdb_spec *)out)->sample);
}

/* measure: a list of instruments into *mask. */
static int read_measure(struct pdb_spec_reader *r, const json_t *v, unsigned *mask)
{
	char why[300];
	size_t i;
	json_t *item;

	if (!json_is_array(v))
		return bad(r, v, "%s: expected a list of instruments: instructions, cycles, branch-misses, "
			   "cache-misses", "measure");
	*mask = 0;
	json_array_foreach(v, i, item) {
		unsigned bit = json_is_string(item) ? pdb_measure_find(json_string_value(item), why, sizeof why) : 0;
		if (!json_is_string(item))
			return bad(r, item, "%s: expected an instrument's name", "measure");
		if (!bit)
			return pdb_spec_bad(r, item, "measure: %s", why);
		*mask |= bit;
	}
	return 0;
}

static int read_top_measure(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v,
			    void *out)
{
	(void)k;
	return read_measure(r, v, &((struct pdb_spec *)out)->measure);
}

static int read_bench_measure(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v,
			      void *out)
{
	(void)k;
	return read_measure(r, v, &((struct pdb_bench_spec *)out)->measure);
}

static const struct pdb_spec_key bench_keys[] = {
	PDB_KEY(struct pdb_bench_spec, "name", PDB_KEY_PLAIN, name),
	PDB_KEY_READ_FIELD(struct pdb_bench_spec, "command", command, read_command),
	PDB_KEY_READ_FIELD(struct pdb_bench_spec, "setup", setup, read_command),
	PDB_KEY_READ_FIELD(struct pdb_bench_spec, "teardown", teardown, read_command),
	PDB_KEY(struct pdb_bench_spec, "cwd", PDB_KEY_TEXT, cwd),
	PDB_KEY_RANGE(struct pdb_bench_spec, "timeout", PDB_KEY_SECONDS, timeout, 0.001, PDB_SPEC_MAX_SECONDS),
	PDB_KEY_RANGE(struct pdb_bench_spec, "warmup", PDB_KEY_INT, warmup, 0, MAX_REPEAT),
	PDB_KEY_READ("repeat", read_bench_repeat),
	PDB_KEY(struct pdb_bench_spec, "allow_failure", PDB_KEY_BOOL, allow_failure),
	PDB_KEY_READ("env", read_env),
	PDB_KEY_READ("parse", read_parse),
	PDB_KEY_READ("metrics", read_metrics),
	PDB_KEY_READ("kafka", read_kafka),
	PDB_KEY_READ("stream", read_stream),
	PDB_KEY_READ("matrix", read_bench_matrix),
	PDB_KEY_READ("sample", read_bench_sample),
	PDB_KEY_READ("measure", read_bench_measure),
};
static const struct pdb_spec_section bench_section = {
	"a benchmark", bench_keys, sizeof bench_keys / sizeof bench_keys[0],
};

static int read_bench(struct pdb_spec_reader *r, const json_t *o, const struct pdb_spec *spec,
		      struct pdb_bench_spec *b)
{
	b->warmup = spec->warmup;
	b->repeat = spec->repeat;
	b->repeat_auto = spec->repeat_auto;
	b->measure = spec->measure;
	if (!json_is_object(o))
		return bad(r, o, "%s: each benchmark is a mapping with a name and a command", "benchmarks");
	if (pdb_spec_read_map(r, o, &bench_section, b) < 0)
		return -1;
	if (!b->name)
		return bad(r, o, "%s: a benchmark needs a name", "benchmarks");
	if (!b->command.argv && !b->command.shell && !b->kafka && !b->stream)
		return bad(r, o, "benchmark '%s' needs a command (or kafka, or stream)", b->name);
	if ((b->command.argv || b->command.shell) + !!b->kafka + !!b->stream > 1)
		return bad(r, o, "benchmark '%s' has more than one of command, kafka and stream", b->name);
	if ((b->kafka || b->stream) && b->measure && json_object_get(o, "measure"))
		return bad(r, json_object_get(o, "measure"), "benchmark '%s': measure: instruments count a "
			   "command's process tree, and it has none (kafka: or stream:)", b->name);
	if (b->kafka || b->stream)
		b->measure = 0; /* the spec's measure: is of the commands */
	return 0;
}

static int text_names(const char *text, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = text ? strchr(text, '{') : NULL; p; p = strchr(p + 1, '{'))
		if (strncmp(p + 1, name, len) == 0 && p[1 + len] == '}')
			return 1;
	return 0;
}

static int command_each(const struct pdb_command *c, int (*fn)(void *ctx, const char *text), void *ctx)
{
	int rc = 0;

	if (c->shell && (rc = fn(ctx, c->shell)))
		return rc;
	for (size_t i = 0; c->argv && c->argv[i]; i++)
		if ((rc = fn(ctx, c->argv[i])))
			return rc;
	return 0;
}

/* The texts here are those runner.c's expand(), run_kafka and run_stream
 * (and run.c's dry run) put matrix values into. */
int pdb_bench_each_text(const struct pdb_bench_spec *b, int (*fn)(void *ctx, const char *text), void *ctx)
{
	const char *one[] = { b->cwd, b->parse_file, b->kafka ? b->kafka->rate : NULL,
			      b->stream ? b->stream->rate : NULL };
	int rc;

	if ((rc = command_each(&b->command, fn, ctx)) || (rc = command_each(&b->setup, fn, ctx)) ||
	    (rc = command_each(&b->teardown, fn, ctx)))
		return rc;
	for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
		if (one[i] && (rc = fn(ctx, one[i])))
			return rc;
	for (size_t i = 0; i < b->nenv; i++)
		if ((rc = fn(ctx, b->env[i].value)))
			return rc;
	return 0;
}

static int names_in(void *ctx, const char *text)
{
	return text_names(text, ctx);
}

int pdb_bench_names(const struct pdb_bench_spec *b, const char *name)
{
	return pdb_bench_each_text(b, names_in, (void *)name);
}

/* The string value equal to text under v (its place), or NULL. */
static const json_t *value_of(const json_t *v, const char *text)
{
	const char *key;
	const json_t *item, *found;
	size_t i;

	if (json_is_string(v))
		return strcmp(json_string_value(v), text) == 0 ? v : NULL;
	if (json_is_object(v))
		json_object_foreach((json_t *)v, key, item)
			if ((found = value_of(item, text)))
				return found;
	if (json_is_array(v))
		json_array_foreach(v, i, item)
			if ((found = value_of(item, text)))
				return found;
	return NULL;
}

/* Where the {NAME}s of a text are noted: its benchmark and its mapping. */
struct noting {
	struct pdb_spec_reader *r;
	struct pdb_spec *spec;
	size_t bench;
	const json_t *under;
};

static int note_text(void *ctx, const char *text)
{
	struct noting *n = ctx;
	const json_t *at = value_of(n->under, text);
	size_t len;
	int line = 0, col = 0;

	if (pdb_yaml_where(n->r->doc, at ? at : n->under, &line, &col) < 0)
		line = col = 0;
	for (const char *p = pdb_placeholder_next(text, text, &len); p; p = pdb_placeholder_next(text, p + 1, &len)) {
		struct pdb_placeholder_use *u;
		n->spec->uses = pdb_xrealloc(n->spec->uses, (n->spec->nuses + 1) * sizeof *n->spec->uses);
		u = &n->spec->uses[n->spec->nuses++];
		*u = (struct pdb_placeholder_use){ n->bench, pdb_xstrndup(p + 1, len), pdb_xstrdup(n->r->doc->file),
						   line, col };
	}
	return 0;
}

/* Every {NAME} of the texts the runner expands, with its place. */
static void note_uses(struct pdb_spec_reader *r, const json_t *root, struct pdb_spec *spec)
{
	struct noting n = { r, spec, spec->nbenches, json_object_get(root, "build") };

	command_each(&spec->build, note_text, &n);
	for (size_t bi = 0; bi < spec->nbenches; bi++) {
		n.bench = bi;
		n.under = json_array_get(json_object_get(root, "benchmarks"), bi);
		pdb_bench_each_text(&spec->benches[bi], note_text, &n);
	}
}

static const struct pdb_matrix_param *own_param(const struct pdb_bench_spec *b, const char *name)
{
	for (size_t i = 0; i < b->nmatrix; i++)
		if (strcmp(b->matrix[i].name, name) == 0)
			return &b->matrix[i];
	return NULL;
}

static int is_top_param(const struct pdb_spec *spec, const char *name)
{
	for (size_t i = 0; i < spec->nmatrix; i++)
		if (strcmp(spec->matrix[i].name, name) == 0)
			return 1;
	return 0;
}

/* Each benchmark's axes (spec.h); a parameter named by nothing is refused
 * where it is written: a typo, or dead. vcpus pins, named or not. */
static int resolve_axes(struct pdb_spec_reader *r, const json_t *root, struct pdb_spec *spec)
{
	const json_t *benches = json_object_get(root, "benchmarks");
	int *used = pdb_xcalloc(spec->nmatrix + 1, sizeof *used);
	int ret = -1;

	for (size_t bi = 0; bi < spec->nbenches; bi++) {
		struct pdb_bench_spec *b = &spec->benches[bi];
		const json_t *own = json_object_get(json_array_get(benches, bi), "matrix");
		b->axes = pdb_xcalloc(spec->nmatrix + b->nmatrix + 1, sizeof *b->axes);
		for (size_t i = 0; i < spec->nmatrix; i++) {
			const struct pdb_matrix_param *p = &spec->matrix[i], *mine = own_param(b, p->name);
			if (mine)
				b->axes[b->naxes++] = mine;
			else if (strcmp(p->name, "vcpus") == 0 || pdb_bench_names(b, p->name)) {
				b->axes[b->naxes++] = p;
				used[i] = 1;
			}
		}
		for (size_t i = 0; i < b->nmatrix; i++) {
			const char *name = b->matrix[i].name;
			if (strcmp(name, "vcpus") != 0 && !pdb_bench_names(b, name)) {
				pdb_spec_bad_key(r, own, name, "benchmark '%s': matrix '%s': {%s} is in none of its "
				    "command, setup, teardown, env, cwd, parse file or rate", b->name, name, name);
				goto out;
			}
			if (!is_top_param(spec, name))
				b->axes[b->naxes++] = &b->matrix[i];
		}
	}
	for (size_t i = 0; i < spec->nmatrix; i++)
		if (!used[i] && strcmp(spec->matrix[i].name, "vcpus") != 0) {
			const char *name = spec->matrix[i].name;
			pdb_spec_bad_key(r, json_object_get(root, "matrix"), name, "matrix '%s': no benchmark "
			    "uses {%s} (in its command, setup, teardown, env, cwd, parse file or rate)", name, name);
			goto out;
		}
	ret = 0;
out:
	free(used);
	return ret;
}

static void variants_release(struct pdb_spec *spec)
{
	for (size_t i = 0; i < spec->nvariants; i++) {
		for (size_t k = 0; k < spec->variants[i].nvars; k++) {
			free(spec->variants[i].vars[k].key);
			free(spec->variants[i].vars[k].value);
		}
		free(spec->variants[i].vars);
		free(spec->variants[i].name);
		free(spec->variants[i].git);
	}
	free(spec->variants);
	spec->variants = NULL;
	spec->nvariants = 0;
}

/* A variant's name or key: 1 to MAX_NAME letters, digits, '_', '.', '-'. */
static int valid_name(const char *s, size_t len)
{
	if (len == 0 || len > MAX_NAME)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", s[i]) || !s[i])
			return 0;
	return 1;
}

static struct pdb_variant *variant_named(struct pdb_spec *spec, const char *name, size_t len)
{
	struct pdb_variant *v;

	for (size_t i = 0; i < spec->nvariants; i++)
		if (strlen(spec->variants[i].name) == len && strncmp(spec->variants[i].name, name, len) == 0)
			return &spec->variants[i];
	spec->variants = pdb_xrealloc(spec->variants, (spec->nvariants + 1) * sizeof *spec->variants);
	v = &spec->variants[spec->nvariants++];
	memset(v, 0, sizeof *v);
	v->name = pdb_xstrndup(name, len);
	return v;
}

/* Set key of v to value (a copy), replacing an earlier value. */
static void variant_set(struct pdb_variant *v, const char *key, size_t keylen, const char *value)
{
	for (size_t i = 0; i < v->nvars; i++)
		if (strlen(v->vars[i].key) == keylen && strncmp(v->vars[i].key, key, keylen) == 0) {
			free(v->vars[i].value);
			v->vars[i].value = pdb_xstrdup(value);
			return;
		}
	v->vars = pdb_xrealloc(v->vars, (v->nvars + 1) * sizeof *v->vars);
	v->vars[v->nvars].key = pdb_xstrndup(key, keylen);
	v->vars[v->nvars++].value = pdb_xstrdup(value);
}

void pdb_variant_set(struct pdb_variant *v, const char *key, const char *value)
{
	variant_set(v, key, strlen(key), value);
}

/* Set key of v, or its revision when key is git. */
static void variant_set_key(struct pdb_variant *v, const char *key, size_t keylen, const char *value)
{
	if (keylen == 3 && strncmp(key, "git", 3) == 0) {
		free(v->git);
		v->git = pdb_xstrdup(value);
	} else
		variant_set(v, key, keylen, value);
}

int pdb_spec_has_git(const struct pdb_spec *spec)
{
	for (size_t i = 0; i < spec->nvariants; i++)
		if (spec->variants[i].git)
			return 1;
	return 0;
}

/* A lone variant with git: REV is the base of the current checkout: add
 * that candidate, "cand". */
static void add_current_checkout(struct pdb_spec *spec)
{
	if (spec->nvariants == 1 && spec->variants[0].git && strcmp(spec->variants[0].name, "cand") != 0)
		variant_named(spec, "cand", 4);
}

static int variant_has(const struct pdb_variant *v, const char *key)
{
	for (size_t i = 0; i < v->nvars; i++)
		if (strcmp(v->vars[i].key, key) == 0)
			return 1;
	return 0;
}

/* What is wrong with the variants as a whole (into buf), or NULL. */
static const char *variants_problem(const struct pdb_spec *spec, char *buf, size_t size)
{
	const struct pdb_variant *v = spec->variants;

	if (spec->nvariants != 2) {
		snprintf(buf, size, "expected two variants (the base, then the candidate), got %zu",
			 spec->nvariants);
		return buf;
	}
	for (size_t a = 0; a < 2; a++)
		for (size_t i = 0; i < v[a].nvars; i++) {
			if (pdb_spec_has_git(spec) && strcmp(v[a].vars[i].key, "dir") == 0) {
				snprintf(buf, size, "variant '%s': {dir} is the checkout of git: REV, not a key of its own",
					 v[a].name);
				return buf;
			}
			if (!variant_has(&v[1 - a], v[a].vars[i].key)) {
				snprintf(buf, size, "variant '%s' has no '%s' (every variant needs the same keys)",
					 v[1 - a].name, v[a].vars[i].key);
				return buf;
			}
			for (size_t m = 0; m < spec->nmatrix; m++)
				if (strcmp(spec->matrix[m].name, v[a].vars[i].key) == 0) {
					snprintf(buf, size, "variant key '%s' is also a matrix parameter",
						 v[a].vars[i].key);
					return buf;
				}
			for (size_t b = 0; b < spec->nbenches; b++)
				if (own_param(&spec->benches[b], v[a].vars[i].key)) {
					snprintf(buf, size, "variant key '%s' is also a matrix parameter",
						 v[a].vars[i].key);
					return buf;
				}
		}
	return NULL;
}

static int read_variants(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v,
			 void *out)
{
	struct pdb_spec *spec = out;
	const char *name, *key;
	json_t *vars, *value;

	(void)k;
	if (!json_is_object(v))
		return bad(r, v, "%s: expected a mapping NAME: {KEY: value}", "variants");
	json_object_foreach((json_t *)v, name, vars) {
		struct pdb_variant *var;
		if (!valid_name(name, strlen(name)))
			return pdb_spec_bad_key(r, v, name, "variant '%s': a name is 1 to 64 letters, digits, '_', '.' and '-'",
						name);
		if (!json_is_object(vars) || json_object_size(vars) == 0)
			return bad(r, vars, "variant '%s': expected a mapping KEY: value", name);
		var = variant_named(spec, name, strlen(name));
		json_object_foreach(vars, key, value) {
			char *text = pdb_yaml_scalar_text(value);
			if (!valid_name(key, strlen(key))) {
				free(text);
				return pdb_spec_bad_key(r, vars, key, "variant key '%s': a key is 1 to 64 letters, digits, "
							"'_', '.' and '-'", key);
			}
			if (!text)
				return bad(r, value, "variant '%s': expected a plain value", name);
			variant_set_key(var, key, strlen(key), text);
			free(text);
		}
	}
	add_current_checkout(spec);
	return 0;
}

int pdb_spec_set_variants(struct pdb_spec *spec, const char *const *args, size_t nargs,
			  struct pdb_err *err)
{
	char buf[256];
	const char *problem;

	variants_release(spec);
	for (size_t i = 0; i < nargs; i++) {
		const char *colon = strchr(args[i], ':'), *eq = colon ? strchr(colon, '=') : NULL;
		if (!colon || !eq)
			return pdb_err_set(err, PDB_EXIT_USAGE, "--variant: expected NAME:KEY=VALUE, got '%s'", args[i]);
		if (!valid_name(args[i], (size_t)(colon - args[i])) || !valid_name(colon + 1, (size_t)(eq - colon - 1)))
			return pdb_err_set(err, PDB_EXIT_USAGE, "--variant '%s': a name or key is 1 to 64 letters, digits, "
					   "'_', '.' and '-'", args[i]);
		variant_set_key(variant_named(spec, args[i], (size_t)(colon - args[i])), colon + 1,
				(size_t)(eq - colon - 1), eq + 1);
	}
	add_current_checkout(spec);
	if ((problem = variants_problem(spec, buf, sizeof buf)))
		return pdb_err_set(err, PDB_EXIT_USAGE, "--variant: %s", problem);
	return 0;
}

void pdb_spec_set_revisions(struct pdb_spec *spec, const char *const *names, const char *const *revs,
			    size_t n)
{
	variants_release(spec);
	for (size_t i = 0; i < n; i++)
		variant_set_key(variant_named(spec, names[i], strlen(names[i])), "git", 3, revs[i]);
}

void pdb_spec_set_measure(struct pdb_spec *spec, unsigned mask)
{
	for (size_t i = 0; i < spec->nbenches; i++)
		if (!spec->benches[i].kafka && !spec->benches[i].stream)
			spec->benches[i].measure = mask;
}

/* benchmarks: read after the top level's defaults (repeat: below it counts). */
static int read_later(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	(void)r, (void)k, (void)v, (void)out;
	return 0;
}

static const struct pdb_spec_key top_keys[] = {
	PDB_KEY_RANGE(struct pdb_spec, "warmup", PDB_KEY_INT, warmup, 0, MAX_REPEAT),
	PDB_KEY_READ("repeat", read_top_repeat),
	PDB_KEY_RANGE(struct pdb_spec, "max_repeat", PDB_KEY_INT, max_repeat, 2, MAX_REPEAT),
	PDB_KEY_RANGE(struct pdb_spec, "budget", PDB_KEY_SECONDS, budget, 0.001, PDB_SPEC_MAX_SECONDS),
	PDB_KEY(struct pdb_spec, "interleave", PDB_KEY_BOOL, interleave),
	PDB_KEY_READ("matrix", read_matrix),
	PDB_KEY_READ("variants", read_variants),
	PDB_KEY_READ_FIELD(struct pdb_spec, "build", build, read_command),
	PDB_KEY_READ("benchmarks", read_later),
	PDB_KEY_READ("sample", read_top_sample),
	PDB_KEY_READ("measure", read_top_measure),
};
static const struct pdb_spec_section top_section = {
	"a run spec", top_keys, sizeof top_keys / sizeof top_keys[0],
};

const struct pdb_spec_section *const *pdb_spec_sections(size_t *n)
{
	static const struct pdb_spec_section *const all[] = {
		&top_section, &bench_section, &metric_section, &parse_section,
		&pdb_kafka_section, &pdb_kafka_var_section, &pdb_logstream_section,
		&pdb_logstream_probe_section, &pdb_sample_section, &pdb_capacity_section,
	};

	*n = sizeof all / sizeof all[0];
	return all;
}

static int searched(const struct pdb_bench_spec *b)
{
	return (b->stream && b->stream->search) || (b->kafka && b->kafka->search);
}

/* A benchmark that searches its rate stores each step under the dim rate:
 * a matrix parameter rate of its own clashes, and so does a top one no other
 * benchmark names (said here rather than as an unused parameter). */
static int refuse_rate_axis(struct pdb_spec_reader *r, const json_t *root, const struct pdb_spec *spec)
{
	const json_t *benches = json_object_get(root, "benchmarks");
	int top_used = 0;

	for (size_t bi = 0; bi < spec->nbenches; bi++)
		if (!searched(&spec->benches[bi]) && pdb_bench_names(&spec->benches[bi], "rate"))
			top_used = 1;
	for (size_t bi = 0; bi < spec->nbenches; bi++) {
		const struct pdb_bench_spec *b = &spec->benches[bi];
		const json_t *matrix = NULL;
		if (!searched(b))
			continue;
		if (own_param(b, "rate"))
			matrix = json_object_get(json_array_get(benches, bi), "matrix");
		else if (is_top_param(spec, "rate") && !top_used)
			matrix = json_object_get(root, "matrix");
		if (matrix)
			return pdb_spec_bad_key(r, matrix, "rate", "matrix 'rate': benchmark '%s' "
			    "searches its rate and stores each step under the dim rate", b->name);
	}
	return 0;
}

int pdb_spec_load(const char *path, struct pdb_spec *spec, struct pdb_err *err)
{
	struct pdb_yaml_doc doc;
	struct pdb_spec_reader r = { .doc = &doc, .dir = "", .err = err, .ctx = spec };
	json_t *root, *benches, *v;
	int ret = -1;
	size_t i;

	memset(spec, 0, sizeof *spec);
	spec->repeat = DEFAULT_REPEAT;
	if (pdb_yaml_load(path, NULL, &doc, err) < 0)
		return -1;
	root = doc.root;
	if (!json_is_object(root)) {
		bad(&r, root, "%s", "a spec is a mapping with 'benchmarks'");
		goto out;
	}
	if (pdb_spec_read_map(&r, root, &top_section, spec) < 0)
		goto out;
	benches = json_object_get(root, "benchmarks");
	if (!json_is_array(benches) || json_array_size(benches) == 0) {
		bad(&r, benches ? benches : root, "%s", "'benchmarks' must be a non-empty list");
		goto out;
	}
	spec->benches = pdb_xcalloc(json_array_size(benches), sizeof *spec->benches);
	json_array_foreach(benches, i, v) {
		spec->nbenches++;
		if (read_bench(&r, v, spec, &spec->benches[i]) < 0)
			goto out;
		for (size_t k = 0; k < i; k++)
			if (strcmp(spec->benches[k].name, spec->benches[i].name) == 0) {
				bad(&r, v, "benchmark '%s' appears twice", spec->benches[i].name);
				goto out;
			}
	}
	if ((v = json_object_get(root, "variants"))) {
		char buf[256];
		const char *problem = variants_problem(spec, buf, sizeof buf);
		if (problem) {
			bad(&r, v, "%s", problem);
			goto out;
		}
	}
	if (refuse_rate_axis(&r, root, spec) < 0 || resolve_axes(&r, root, spec) < 0)
		goto out;
	note_uses(&r, root, spec);
	ret = 0;
out:
	pdb_yaml_doc_release(&doc);
	if (ret < 0)
		pdb_spec_release(spec);
	return ret;
}

static void command_release(struct pdb_command *c)
{
	for (size_t i = 0; c->argv && c->argv[i]; i++)
		free(c->argv[i]);
	free(c->argv);
	free(c->shell);
}

static void matrix_release(struct pdb_matrix_param *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(m[i].name);
		for (size_t k = 0; k < m[i].nvalues; k++) {
			free(m[i].values[k]);
			free(m[i].where[k]);
		}
		free(m[i].values);
		free(m[i].where);
	}
	free(m);
}

void pdb_spec_release(struct pdb_spec *spec)
{
	for (size_t i = 0; i < spec->nbenches; i++) {
		struct pdb_bench_spec *b = &spec->benches[i];
		free(b->name);
		command_release(&b->command);
		command_release(&b->setup);
		command_release(&b->teardown);
		for (size_t k = 0; k < b->nenv; k++) {
			free(b->env[k].key);
			free(b->env[k].value);
		}
		free(b->env);
		free(b->cwd);
		free(b->parse_format);
		free(b->parse_map);
		free(b->parse_file);
		for (size_t k = 0; k < b->nmetrics; k++) {
			free(b->metrics[k].name);
			free(b->metrics[k].regex);
			free(b->metrics[k].unit);
		}
		free(b->metrics);
		pdb_kafka_spec_free(b->kafka);
		pdb_logstream_spec_free(b->stream);
		matrix_release(b->matrix, b->nmatrix);
		free(b->axes);
		pdb_sample_spec_free(b->sample);
	}
	free(spec->benches);
	matrix_release(spec->matrix, spec->nmatrix);
	variants_release(spec);
	command_release(&spec->build);
	for (size_t i = 0; i < spec->nuses; i++) {
		free(spec->uses[i].name);
		free(spec->uses[i].file);
	}
	free(spec->uses);
	free(spec->here);
	free(spec->auto_where);
	pdb_sample_spec_free(spec->sample);
	memset(spec, 0, sizeof *spec);
}
