/* Spec keys: one reader for every mapping of a run spec (its top level,
 * benchmarks, metrics, parse, kafka: and stream:), driven by key tables. */
#include "runner/spec_keys.h"

#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_CHOICES 16

int pdb_spec_bad(struct pdb_spec_reader *r, const json_t *v, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return pdb_yaml_bad(r->doc, v, PDB_EXIT_INPUT, r->err, "%s", msg);
}

int pdb_spec_bad_key(struct pdb_spec_reader *r, const json_t *map, const char *key, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return pdb_yaml_bad_key(r->doc, map, key, PDB_EXIT_INPUT, r->err, "%s", msg);
}

int pdb_spec_text(struct pdb_spec_reader *r, const json_t *v, char **out, const char *what)
{
	if (!json_is_string(v) || !*json_string_value(v))
		return pdb_spec_bad(r, v, "%s: expected text", what);
	free(*out);
	*out = pdb_xstrdup(json_string_value(v));
	return 0;
}

int pdb_spec_regex(struct pdb_spec_reader *r, const json_t *v, char **out, const char *what)
{
	regex_t re;
	size_t groups;

	if (pdb_spec_text(r, v, out, what) < 0)
		return -1;
	if (regcomp(&re, *out, REG_EXTENDED) != 0)
		return pdb_spec_bad(r, v, "%s: not a valid POSIX extended regular expression", what);
	groups = re.re_nsub;
	regfree(&re);
	if (groups < 1)
		return pdb_spec_bad(r, v, "%s: needs a (group) around the value", what);
	return 0;
}

int pdb_spec_seconds(struct pdb_spec_reader *r, const json_t *v, double min, double max, double *out,
		     const char *what)
{
	double s = json_number_value(v);

	if (!json_is_number(v) || !isfinite(s) || s < min || s > max)
		return pdb_spec_bad(r, v, "%s: expected seconds from %.15g to %.15g", what, min, max);
	*out = s;
	return 0;
}

int pdb_spec_bool(struct pdb_spec_reader *r, const json_t *v, int *out, const char *what)
{
	if (!json_is_boolean(v))
		return pdb_spec_bad(r, v, "%s: expected true or false", what);
	*out = json_is_true(v);
	return 0;
}

char *pdb_spec_path(const struct pdb_spec_reader *r, const char *p)
{
	return p[0] == '/' ? pdb_xstrdup(p) : pdb_xasprintf("%s%s", r->dir, p);
}

char *pdb_spec_dir(const char *spec_path)
{
	const char *slash = strrchr(spec_path, '/');

	return slash ? pdb_xstrndup(spec_path, (size_t)(slash - spec_path + 1)) : pdb_xstrdup("");
}

static int read_int(struct pdb_spec_reader *r, const json_t *v, const struct pdb_spec_key *k, void *field)
{
	long long n = json_integer_value(v);

	if (!json_is_integer(v) || n < (long long)k->min || n > (long long)k->max)
		return pdb_spec_bad(r, v, "%s: expected a whole number from %.0f to %.0f", k->name, k->min, k->max);
	if (k->size == sizeof(int))
		*(int *)field = (int)n;
	else if (k->size == sizeof(long))
		*(long *)field = (long)n;
	else
		*(long long *)field = n;
	return 0;
}

/* "lower, higher or none" */
static void choices_text(const char *const *choices, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; choices[i] && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i == 0 ? "" : choices[i + 1] ? ", " : " or ",
					choices[i]);
}

static int read_choice(struct pdb_spec_reader *r, const json_t *v, const struct pdb_spec_key *k, int *field)
{
	const char *s = json_string_value(v);
	char list[256], hint[80];
	size_t n = 0;

	while (k->choices[n] && n < MAX_CHOICES)
		n++;
	for (size_t i = 0; s && i < n; i++)
		if (strcmp(s, k->choices[i]) == 0) {
			*field = (int)i;
			return 0;
		}
	choices_text(k->choices, list, sizeof list);
	if (!s)
		return pdb_spec_bad(r, v, "%s: expected %s", k->name, list);
	return pdb_spec_bad(r, v, "%s: '%s' is not %s%s", k->name, s, list,
			    pdb_did_you_mean(s, k->choices, n, hint, sizeof hint));
}

static int read_value(struct pdb_spec_reader *r, const json_t *v, const struct pdb_spec_key *k, void *out)
{
	void *field = (char *)out + k->offset;
	char **text = field;

	switch (k->type) {
	case PDB_KEY_TEXT:
		return pdb_spec_text(r, v, text, k->name);
	case PDB_KEY_PATH:
		if (!json_is_string(v) || !*json_string_value(v))
			return pdb_spec_bad(r, v, "%s: expected a file name", k->name);
		free(*text);
		*text = pdb_spec_path(r, json_string_value(v));
		return 0;
	case PDB_KEY_PLAIN:
		free(*text);
		if (!(*text = pdb_yaml_scalar_text(v)))
			return pdb_spec_bad(r, v, "%s: expected a plain value", k->name);
		return 0;
	case PDB_KEY_REGEX:
		return pdb_spec_regex(r, v, text, k->name);
	case PDB_KEY_INT:
		return read_int(r, v, k, field);
	case PDB_KEY_SECONDS:
		return pdb_spec_seconds(r, v, k->min, k->max, field, k->name);
	case PDB_KEY_BOOL:
		return pdb_spec_bool(r, v, field, k->name);
	case PDB_KEY_CHOICE:
		return read_choice(r, v, k, field);
	default:
		return k->read(r, k, v, out);
	}
}

int pdb_spec_read_map(struct pdb_spec_reader *r, const json_t *v, const struct pdb_spec_section *section,
		      void *out)
{
	const char *key;
	json_t *x;

	if (!json_is_object(v))
		return pdb_spec_bad(r, v, "%s: expected a mapping", section->name);
	json_object_foreach((json_t *)v, key, x) {
		const struct pdb_spec_key *k = NULL;
		for (size_t i = 0; i < section->nkeys && !k; i++)
			if (strcmp(section->keys[i].name, key) == 0)
				k = &section->keys[i];
		if (!k) {
			const char *names[64];
			char hint[80];
			size_t n = 0;
			for (; n < section->nkeys && n < 64; n++)
				names[n] = section->keys[n].name;
			return pdb_spec_bad_key(r, v, key, "unknown key '%s' in %s%s", key, section->name,
					    pdb_did_you_mean(key, names, n, hint, sizeof hint));
		}
		if (read_value(r, x, k, out) < 0)
			return -1;
	}
	return 0;
}
