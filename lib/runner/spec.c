/* Run specs: the YAML that `perfdb run` reads (benchmarks, matrix, repetitions). */
#include "runner/spec.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "kafka/workload_spec.h"
#include "logstream/spec.h"
#include "util.h"
#include "yaml_doc.h"

#define DEFAULT_REPEAT 5
#define MAX_REPEAT 1000000
#define MAX_NAME 64 /* the messages below say 64 */

struct reader {
	struct pdb_yaml_doc doc;
	struct pdb_err *err;
};

static int bad(struct reader *r, const json_t *v, const char *fmt, const char *what)
{
	return pdb_yaml_bad(&r->doc, v, PDB_EXIT_INPUT, r->err, fmt, what);
}

static int read_command(struct reader *r, const json_t *v, struct pdb_command *out,
			const char *what)
{
	size_t i;
	json_t *item;

	if (json_is_string(v)) {
		out->shell = pdb_xstrdup(json_string_value(v));
		return 0;
	}
	if (!json_is_array(v) || json_array_size(v) == 0)
		return bad(r, v, "%s: expected a shell string or a non-empty list of arguments", what);
	out->argv = pdb_xcalloc(json_array_size(v) + 1, sizeof *out->argv);
	json_array_foreach(v, i, item) {
		if (!(out->argv[i] = pdb_yaml_scalar_text(item)))
			return bad(r, item, "%s: expected a plain argument", what);
	}
	return 0;
}

static int read_int(struct reader *r, const json_t *v, int min, int max, int *out,
		    const char *what)
{
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
		return bad(r, v, "%s: expected a whole number in range", what);
	*out = (int)json_integer_value(v);
	return 0;
}

/* repeat: a whole number, or auto (an adaptive A/B run); the first auto's
 * place is kept, for the error when the run turns out to have no variants. */
static int read_repeat(struct reader *r, const json_t *v, struct pdb_spec *spec, int *repeat,
		       int *is_auto)
{
	int line, col;

	if (!json_is_string(v) || strcmp(json_string_value(v), "auto") != 0) {
		*is_auto = 0;
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > MAX_REPEAT)
			return bad(r, v, "%s: expected a whole number in range, or auto", "repeat");
		*repeat = (int)json_integer_value(v);
		return 0;
	}
	*is_auto = 1;
	if (!spec->auto_where && pdb_yaml_where(&r->doc, v, &line, &col) == 0)
		spec->auto_where = pdb_xasprintf("%s:%d:%d", r->doc.file, line, col);
	return 0;
}

static int read_bool(struct reader *r, const json_t *v, int *out, const char *what)
{
	if (!json_is_boolean(v))
		return bad(r, v, "%s: expected true or false", what);
	*out = json_is_true(v);
	return 0;
}

static int read_metrics(struct reader *r, const json_t *v, struct pdb_bench_spec *b)
{
	size_t i;
	json_t *m;

	if (!json_is_array(v))
		return bad(r, v, "%s: expected a list of {name, regex, unit}", "metrics");
	b->metrics = pdb_xcalloc(json_array_size(v), sizeof *b->metrics);
	json_array_foreach(v, i, m) {
		struct pdb_regex_metric *rm = &b->metrics[b->nmetrics];
		const char *name = json_string_value(json_object_get(m, "name"));
		const char *re = json_string_value(json_object_get(m, "regex"));
		const char *unit = json_string_value(json_object_get(m, "unit"));
		regex_t compiled;
		if (!json_is_object(m) || !name || !re)
			return bad(r, m, "%s: each needs a name and a regex", "metrics");
		if (regcomp(&compiled, re, REG_EXTENDED) != 0)
			return bad(r, json_object_get(m, "regex"), "%s: not a valid POSIX extended regular expression", "regex");
		if (compiled.re_nsub < 1) {
			regfree(&compiled);
			return bad(r, json_object_get(m, "regex"), "%s: needs a (group) around the value", "regex");
		}
		regfree(&compiled);
		rm->name = pdb_xstrdup(name);
		rm->regex = pdb_xstrdup(re);
		rm->unit = pdb_xstrdup(unit ? unit : "");
		b->nmetrics++;
	}
	return 0;
}

static int read_bench(struct reader *r, const json_t *o, struct pdb_spec *spec,
		      struct pdb_bench_spec *b, int warmup, int repeat, int repeat_auto)
{
	const char *key;
	json_t *v;

	if (!json_is_object(o))
		return bad(r, o, "%s: each benchmark is a mapping with a name and a command", "benchmarks");
	b->warmup = warmup;
	b->repeat = repeat;
	b->repeat_auto = repeat_auto;
	json_object_foreach((json_t *)o, key, v) {
		int rc = 0;
		if (strcmp(key, "name") == 0) {
			if (!(b->name = pdb_yaml_scalar_text(v)))
				rc = bad(r, v, "%s: expected text", key);
		} else if (strcmp(key, "command") == 0) {
			rc = read_command(r, v, &b->command, key);
		} else if (strcmp(key, "setup") == 0) {
			rc = read_command(r, v, &b->setup, key);
		} else if (strcmp(key, "teardown") == 0) {
			rc = read_command(r, v, &b->teardown, key);
		} else if (strcmp(key, "cwd") == 0) {
			if (!json_is_string(v))
				rc = bad(r, v, "%s: expected a directory", key);
			else
				b->cwd = pdb_xstrdup(json_string_value(v));
		} else if (strcmp(key, "timeout") == 0) {
			if (!json_is_number(v) || json_number_value(v) <= 0)
				rc = bad(r, v, "%s: expected seconds (a positive number)", key);
			else
				b->timeout = json_number_value(v);
		} else if (strcmp(key, "warmup") == 0) {
			rc = read_int(r, v, 0, MAX_REPEAT, &b->warmup, key);
		} else if (strcmp(key, "repeat") == 0) {
			rc = read_repeat(r, v, spec, &b->repeat, &b->repeat_auto);
		} else if (strcmp(key, "allow_failure") == 0) {
			rc = read_bool(r, v, &b->allow_failure, key);
		} else if (strcmp(key, "env") == 0) {
			const char *k;
			json_t *ev;
			if (!json_is_object(v))
				rc = bad(r, v, "%s: expected a mapping NAME: value", key);
			b->env = pdb_xcalloc(json_object_size(v) + 1, sizeof *b->env);
			json_object_foreach(v, k, ev) {
				char *text = pdb_yaml_scalar_text(ev);
				if (!text && rc == 0)
					rc = bad(r, ev, "%s: expected a plain value", "env");
				if (!text)
					break;
				b->env[b->nenv].key = pdb_xstrdup(k);
				b->env[b->nenv++].value = text;
			}
		} else if (strcmp(key, "parse") == 0) {
			const char *format = json_string_value(json_object_get(v, "format"));
			const char *file = json_string_value(json_object_get(v, "file"));
			if (!json_is_object(v) || !format)
				rc = bad(r, v, "%s: expected {format: NAME, file: PATH}", key);
			else {
				b->parse_format = pdb_xstrdup(format);
				b->parse_file = pdb_xstrdup(file);
			}
		} else if (strcmp(key, "metrics") == 0) {
			rc = read_metrics(r, v, b);
		} else if (strcmp(key, "kafka") == 0) {
			if (!(b->kafka = pdb_kafka_spec_read(&r->doc, v, r->doc.file, r->err)))
				rc = -1;
		} else if (strcmp(key, "stream") == 0) {
			if (!(b->stream = pdb_logstream_spec_read(&r->doc, v, r->doc.file, r->err)))
				rc = -1;
		} else {
			static const char *const keys[] = {
				"name", "command", "setup", "teardown", "cwd", "timeout", "warmup",
				"repeat", "allow_failure", "env", "parse", "metrics", "kafka", "stream",
			};
			char hint[80];
			rc = pdb_yaml_bad(&r->doc, v, PDB_EXIT_INPUT, r->err,
					  "unknown key '%s' in a benchmark%s", key,
					  pdb_did_you_mean(key, keys, sizeof keys / sizeof keys[0],
							   hint, sizeof hint));
		}
		if (rc < 0)
			return -1;
	}
	if (!b->name)
		return bad(r, o, "%s: a benchmark needs a name", "benchmarks");
	if (!b->command.argv && !b->command.shell && !b->kafka && !b->stream)
		return bad(r, o, "benchmark '%s' needs a command (or kafka, or stream)", b->name);
	if ((b->command.argv || b->command.shell) + !!b->kafka + !!b->stream > 1)
		return bad(r, o, "benchmark '%s' has more than one of command, kafka and stream", b->name);
	return 0;
}

static int read_matrix(struct reader *r, const json_t *v, struct pdb_spec *spec)
{
	const char *key;
	json_t *list;

	if (!json_is_object(v))
		return bad(r, v, "%s: expected a mapping NAME: [values]", "matrix");
	spec->matrix = pdb_xcalloc(json_object_size(v) + 1, sizeof *spec->matrix);
	json_object_foreach((json_t *)v, key, list) {
		struct pdb_matrix_param *p = &spec->matrix[spec->nmatrix++];
		size_t i;
		json_t *item;
		p->name = pdb_xstrdup(key);
		if (!json_is_array(list) || json_array_size(list) == 0)
			return bad(r, list, "matrix '%s': expected a non-empty list", key);
		p->values = pdb_xcalloc(json_array_size(list), sizeof *p->values);
		json_array_foreach(list, i, item) {
			if (!(p->values[i] = pdb_yaml_scalar_text(item)))
				return bad(r, item, "matrix '%s': expected plain values", key);
			p->nvalues++;
		}
		if (strcmp(key, "vcpus") == 0)
			for (i = 0; i < p->nvalues; i++) {
				int64_t n;
				if (pdb_parse_int64(p->values[i], 1, 4096, &n) < 0)
					return bad(r, json_array_get(list, i), "%s: expected a CPU count", "vcpus");
			}
	}
	return 0;
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
		}
	return NULL;
}

static int read_variants(struct reader *r, const json_t *v, struct pdb_spec *spec)
{
	const char *name, *key;
	json_t *vars, *value;

	if (!json_is_object(v))
		return bad(r, v, "%s: expected a mapping NAME: {KEY: value}", "variants");
	json_object_foreach((json_t *)v, name, vars) {
		struct pdb_variant *var;
		if (!valid_name(name, strlen(name)))
			return bad(r, vars, "variant '%s': a name is 1 to 64 letters, digits, '_', '.' and '-'", name);
		if (!json_is_object(vars) || json_object_size(vars) == 0)
			return bad(r, vars, "variant '%s': expected a mapping KEY: value", name);
		var = variant_named(spec, name, strlen(name));
		json_object_foreach(vars, key, value) {
			char *text = pdb_yaml_scalar_text(value);
			if (!valid_name(key, strlen(key))) {
				free(text);
				return bad(r, value, "variant key '%s': a key is 1 to 64 letters, digits, '_', '.' and '-'", key);
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

static int read_top_key(struct reader *r, const char *key, const json_t *v,
			struct pdb_spec *spec, int *warmup, int *repeat, int *repeat_auto)
{
	if (strcmp(key, "warmup") == 0)
		return read_int(r, v, 0, MAX_REPEAT, warmup, key);
	if (strcmp(key, "repeat") == 0)
		return read_repeat(r, v, spec, repeat, repeat_auto);
	if (strcmp(key, "max_repeat") == 0)
		return read_int(r, v, 2, MAX_REPEAT, &spec->max_repeat, key);
	if (strcmp(key, "budget") == 0) {
		if (!json_is_number(v) || json_number_value(v) <= 0)
			return bad(r, v, "%s: expected seconds (a positive number)", key);
		spec->budget = json_number_value(v);
		return 0;
	}
	if (strcmp(key, "interleave") == 0)
		return read_bool(r, v, &spec->interleave, key);
	if (strcmp(key, "matrix") == 0)
		return read_matrix(r, v, spec);
	if (strcmp(key, "variants") == 0)
		return read_variants(r, v, spec);
	if (strcmp(key, "build") == 0)
		return read_command(r, v, &spec->build, key);
	if (strcmp(key, "benchmarks") == 0)
		return 0; /* read after the defaults above */
	{
		static const char *const keys[] = { "warmup", "repeat", "interleave", "matrix", "variants",
						    "build", "benchmarks", "max_repeat", "budget" };
		char hint[80];
		return pdb_yaml_bad(&r->doc, v, PDB_EXIT_INPUT, r->err, "unknown key '%s'%s", key,
				    pdb_did_you_mean(key, keys, sizeof keys / sizeof keys[0],
						     hint, sizeof hint));
	}
}

int pdb_spec_load(const char *path, struct pdb_spec *spec, struct pdb_err *err)
{
	struct reader r = { .err = err };
	json_t *root, *benches, *v;
	int warmup = 0, repeat = DEFAULT_REPEAT, repeat_auto = 0, ret = -1;
	const char *key;
	size_t i;

	memset(spec, 0, sizeof *spec);
	if (pdb_yaml_load(path, NULL, &r.doc, err) < 0)
		return -1;
	root = r.doc.root;
	if (!json_is_object(root)) {
		bad(&r, root, "%s", "a spec is a mapping with 'benchmarks'");
		goto out;
	}
	json_object_foreach(root, key, v)
		if (read_top_key(&r, key, v, spec, &warmup, &repeat, &repeat_auto) < 0)
			goto out;
	if ((v = json_object_get(root, "variants"))) {
		char buf[256];
		const char *problem = variants_problem(spec, buf, sizeof buf);
		if (problem) {
			bad(&r, v, "%s", problem);
			goto out;
		}
	}
	benches = json_object_get(root, "benchmarks");
	if (!json_is_array(benches) || json_array_size(benches) == 0) {
		bad(&r, benches ? benches : root, "%s", "'benchmarks' must be a non-empty list");
		goto out;
	}
	spec->benches = pdb_xcalloc(json_array_size(benches), sizeof *spec->benches);
	json_array_foreach(benches, i, v) {
		spec->nbenches++;
		if (read_bench(&r, v, spec, &spec->benches[i], warmup, repeat, repeat_auto) < 0)
			goto out;
		for (size_t k = 0; k < i; k++)
			if (strcmp(spec->benches[k].name, spec->benches[i].name) == 0) {
				bad(&r, v, "benchmark '%s' appears twice", spec->benches[i].name);
				goto out;
			}
	}
	ret = 0;
out:
	pdb_yaml_doc_release(&r.doc);
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
		free(b->parse_file);
		for (size_t k = 0; k < b->nmetrics; k++) {
			free(b->metrics[k].name);
			free(b->metrics[k].regex);
			free(b->metrics[k].unit);
		}
		free(b->metrics);
		pdb_kafka_spec_free(b->kafka);
		pdb_logstream_spec_free(b->stream);
	}
	free(spec->benches);
	for (size_t i = 0; i < spec->nmatrix; i++) {
		free(spec->matrix[i].name);
		for (size_t k = 0; k < spec->matrix[i].nvalues; k++)
			free(spec->matrix[i].values[k]);
		free(spec->matrix[i].values);
	}
	free(spec->matrix);
	variants_release(spec);
	command_release(&spec->build);
	free(spec->auto_where);
	memset(spec, 0, sizeof *spec);
}
