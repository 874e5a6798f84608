/* Log stream workload specs: the `stream:` section of a benchmark in a run spec. */
#include "logstream/spec.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kafka/template.h"
#include "util.h"

#define DEFAULT_DURATION 10.0
#define DEFAULT_DRAIN 5.0
#define DEFAULT_EVERY 1.0
#define DEFAULT_BATCH 1000
#define DEFAULT_MATCH "seq=([0-9]+)"
#define DEFAULT_TEMPLATE "perfdb seq=$SEQ ts=$TS"

struct reader {
	const struct pdb_yaml_doc *doc;
	const char *dir;    /* of the spec, with a trailing '/', or "" */
	struct pdb_err *err;
};

static int bad(struct reader *r, const json_t *v, const char *fmt, const char *what)
{
	return pdb_yaml_bad(r->doc, v, PDB_EXIT_INPUT, r->err, fmt, what);
}

static int unknown(struct reader *r, const json_t *v, const char *key, const char *where,
		   const char *const *keys, size_t n)
{
	char hint[80];

	return pdb_yaml_bad(r->doc, v, PDB_EXIT_INPUT, r->err, "unknown key '%s' in %s%s", key, where,
			    pdb_did_you_mean(key, keys, n, hint, sizeof hint));
}

static char *path_of(struct reader *r, const char *p)
{
	return p[0] == '/' ? pdb_xstrdup(p) : pdb_xasprintf("%s%s", r->dir, p);
}

static int read_text(struct reader *r, const json_t *v, char **out, const char *what)
{
	if (!json_is_string(v) || !*json_string_value(v))
		return bad(r, v, "%s: expected text", what);
	free(*out);
	*out = pdb_xstrdup(json_string_value(v));
	return 0;
}

static int read_seconds(struct reader *r, const json_t *v, double min, double *out, const char *what)
{
	if (!json_is_number(v) || json_number_value(v) < min || !isfinite(json_number_value(v)) ||
	    json_number_value(v) > 1e6)
		return bad(r, v, "%s: expected seconds", what);
	*out = json_number_value(v);
	return 0;
}

/* A POSIX extended regex with a (group), into *out. */
static int read_regex(struct reader *r, const json_t *v, char **out, const char *what)
{
	regex_t re;
	size_t groups;

	if (read_text(r, v, out, what) < 0)
		return -1;
	if (regcomp(&re, *out, REG_EXTENDED) != 0)
		return bad(r, v, "%s: not a valid POSIX extended regular expression", what);
	groups = re.re_nsub;
	regfree(&re);
	if (groups < 1)
		return bad(r, v, "%s: needs a (group) around the value", what);
	return 0;
}

/* "HOST:PORT" or "[V6]:PORT" (default_port when there is none and it is
 * not NULL) into t->host and t->port; *rest points after them. */
static int split_host_port(const char *s, const char *default_port, struct pdb_logstream_target *t,
			   const char **rest)
{
	const char *end = strpbrk(s, "/?"), *colon;
	int64_t port;

	if (!end)
		end = s + strlen(s);
	*rest = end;
	if (s[0] == '[') {
		const char *close = memchr(s, ']', (size_t)(end - s));
		if (!close || close == s + 1)
			return -1;
		t->host = pdb_xstrndup(s + 1, (size_t)(close - s - 1));
		colon = close + 1 < end && close[1] == ':' ? close + 1 : NULL;
		if (!colon && close + 1 != end)
			return -1;
	} else {
		colon = memchr(s, ':', (size_t)(end - s));
		t->host = pdb_xstrndup(s, (size_t)((colon ? colon : end) - s));
	}
	if (!*t->host)
		return -1;
	t->port = colon ? pdb_xstrndup(colon + 1, (size_t)(end - colon - 1)) : pdb_xstrdup(default_port);
	if (!t->port || pdb_parse_int64(t->port, 1, 65535, &port) < 0)
		return -1;
	return 0;
}

static int read_target(struct reader *r, const json_t *v, struct pdb_logstream_target *t)
{
	static const char expect[] = "%s: expected udp://HOST:PORT, tcp://HOST:PORT, unix:PATH, file:PATH or http://HOST[:PORT]/PATH";
	const char *s = json_string_value(v), *rest;

	if (!s || !*s)
		return bad(r, v, expect, "target");
	t->text = pdb_xstrdup(s);
	if (!strncmp(s, "tcp://", 6) || !strncmp(s, "udp://", 6)) {
		t->kind = s[0] == 't' ? PDB_LOGSTREAM_TCP : PDB_LOGSTREAM_UDP;
		if (split_host_port(s + 6, NULL, t, &rest) < 0 || *rest)
			return bad(r, v, "%s: expected HOST:PORT with a port from 1 to 65535", "target");
	} else if (!strncmp(s, "unix:", 5) || !strncmp(s, "file:", 5)) {
		t->kind = s[0] == 'u' ? PDB_LOGSTREAM_UNIX : PDB_LOGSTREAM_FILE;
		if (!s[5])
			return bad(r, v, "%s: expected a path after the colon", "target");
		t->path = pdb_xstrdup(s + 5);
	} else if (!strncmp(s, "http://", 7)) {
		t->kind = PDB_LOGSTREAM_HTTP;
		if (split_host_port(s + 7, "80", t, &rest) < 0)
			return bad(r, v, "%s: expected http://HOST[:PORT]/PATH with a port from 1 to 65535", "target");
		t->path = pdb_xstrdup(*rest ? rest : "/");
	} else if (!strncmp(s, "https://", 8)) {
		return bad(r, v, "%s: https is not supported (perfdb has no TLS library): use http:// or a local TLS proxy", "target");
	} else {
		return bad(r, v, expect, "target");
	}
	return 0;
}

static int read_probe(struct reader *r, const json_t *v, struct pdb_logstream_probe *p)
{
	static const char *const keys[] = { "file", "match", "command", "every", "value" };
	const char *key;
	json_t *x;

	if (!json_is_object(v))
		return bad(r, v, "%s: expected {file: PATH, match: REGEX} or {command: CMD, every: S, value: REGEX}", "probe");
	p->every = DEFAULT_EVERY;
	json_object_foreach((json_t *)v, key, x) {
		int rc;
		if (!strcmp(key, "file"))
			rc = read_text(r, x, &p->file, key);
		else if (!strcmp(key, "command"))
			rc = read_text(r, x, &p->command, key);
		else if (!strcmp(key, "match"))
			rc = read_regex(r, x, &p->match, key);
		else if (!strcmp(key, "value"))
			rc = read_regex(r, x, &p->value, key);
		else if (!strcmp(key, "every"))
			rc = read_seconds(r, x, 0.01, &p->every, key);
		else
			rc = unknown(r, x, key, "probe", keys, sizeof keys / sizeof keys[0]);
		if (rc < 0)
			return -1;
	}
	if (!p->file == !p->command)
		return bad(r, v, "%s: needs a file or a command (one of them)", "probe");
	if (p->file && (json_object_get(v, "value") || json_object_get(v, "every")))
		return bad(r, json_object_get(v, "value") ? json_object_get(v, "value") : json_object_get(v, "every"),
			   "%s: value and every go with a command probe", "probe");
	if (p->command && json_object_get(v, "match"))
		return bad(r, json_object_get(v, "match"), "%s: a command probe counts only: give value, not match", "probe");
	if (p->command && !p->value)
		return bad(r, v, "%s: a command probe needs value: a regex whose group is the count", "probe");
	return 0;
}

/* probes: {STAGE: PROBE, ...}, each counting the same lines at a stage of its own. */
static int read_probes(struct reader *r, const json_t *v, struct pdb_logstream_spec *ls)
{
	const char *name;
	json_t *x;

	if (!json_is_object(v) || json_object_size(v) == 0)
		return bad(r, v, "%s: expected a mapping of stage names to probes", "probes");
	ls->probes = pdb_xcalloc(json_object_size(v), sizeof *ls->probes);
	json_object_foreach((json_t *)v, name, x) {
		struct pdb_logstream_probe *p = &ls->probes[ls->nprobes++];
		p->name = pdb_xstrdup(name);
		if (read_probe(r, x, p) < 0)
			return -1;
	}
	return 0;
}

static int read_key_value(struct reader *r, const char *key, const json_t *v, struct pdb_logstream_spec *ls)
{
	static const char *const keys[] = {
		"target", "framing", "template", "vars", "rate", "duration", "drain", "batch",
		"content_type", "probe", "probes",
	};

	if (!strcmp(key, "target"))
		return read_target(r, v, &ls->target);
	if (!strcmp(key, "framing")) {
		const char *s = json_string_value(v);
		if (!s || (strcmp(s, "syslog") && strcmp(s, "lines")))
			return bad(r, v, "%s: expected syslog or lines", key);
		ls->framing = !strcmp(s, "syslog") ? PDB_LOGSTREAM_SYSLOG : PDB_LOGSTREAM_LINES;
		return 0;
	}
	if (!strcmp(key, "template")) {
		if (!json_is_string(v) || !*json_string_value(v))
			return bad(r, v, "%s: expected a file name", key);
		ls->template_path = path_of(r, json_string_value(v));
		return 0;
	}
	if (!strcmp(key, "vars"))
		return pdb_kafka_read_vars(r->doc, r->dir, v, &ls->vars, &ls->nvars, r->err);
	if (!strcmp(key, "rate")) {
		double rate;
		struct pdb_err ignored;
		if (!(ls->rate = pdb_yaml_scalar_text(v)) ||
		    (!strchr(ls->rate, '{') && pdb_logstream_parse_rate(ls->rate, &rate, &ignored) < 0))
			return bad(r, v, "%s: expected lines per second (a positive number) or a {matrix} value", key);
		return 0;
	}
	if (!strcmp(key, "duration"))
		return read_seconds(r, v, 0.001, &ls->duration, key);
	if (!strcmp(key, "drain"))
		return read_seconds(r, v, 0, &ls->drain, key);
	if (!strcmp(key, "batch")) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 1000000)
			return bad(r, v, "%s: expected lines per request (1 to 1000000)", key);
		ls->batch = (long)json_integer_value(v);
		return 0;
	}
	if (!strcmp(key, "content_type"))
		return read_text(r, v, &ls->content_type, key);
	if (!strcmp(key, "probe")) {
		ls->has_probe = 1;
		return read_probe(r, v, &ls->probe);
	}
	if (!strcmp(key, "probes"))
		return read_probes(r, v, ls);
	return unknown(r, v, key, "stream", keys, sizeof keys / sizeof keys[0]);
}

struct pdb_logstream_spec *pdb_logstream_spec_read(const struct pdb_yaml_doc *doc, const json_t *v,
						   const char *spec_path, struct pdb_err *err)
{
	struct pdb_logstream_spec *ls = pdb_xcalloc(1, sizeof *ls);
	const char *slash = strrchr(spec_path, '/'), *key;
	char *dir = slash ? pdb_xstrndup(spec_path, (size_t)(slash - spec_path + 1)) : pdb_xstrdup("");
	struct reader r = { .doc = doc, .dir = dir, .err = err };
	json_t *x;

	ls->framing = -1;
	ls->duration = DEFAULT_DURATION;
	ls->drain = DEFAULT_DRAIN;
	ls->batch = DEFAULT_BATCH;
	if (!json_is_object(v)) {
		bad(&r, v, "%s: expected a mapping with target and rate", "stream");
		goto fail;
	}
	json_object_foreach((json_t *)v, key, x)
		if (read_key_value(&r, key, x, ls) < 0)
			goto fail;
	if (!ls->target.text || !ls->rate) {
		bad(&r, v, "%s: needs a target and a rate (lines/s)", "stream");
		goto fail;
	}
	if (ls->framing < 0) /* syslog on sockets, lines to files and http */
		ls->framing = ls->target.kind == PDB_LOGSTREAM_FILE || ls->target.kind == PDB_LOGSTREAM_HTTP
			      ? PDB_LOGSTREAM_LINES : PDB_LOGSTREAM_SYSLOG;
	if (ls->target.kind != PDB_LOGSTREAM_HTTP && (json_object_get(v, "batch") || json_object_get(v, "content_type"))) {
		bad(&r, json_object_get(v, "batch") ? json_object_get(v, "batch") : json_object_get(v, "content_type"),
		    "%s: batch and content_type go with an http target", "stream");
		goto fail;
	}
	if (ls->vars && !ls->template_path) {
		bad(&r, json_object_get(v, "vars"), "%s: variables need a template", "vars");
		goto fail;
	}
	if (ls->template_path) { /* a template that does not compile fails before anything runs */
		struct pdb_kafka_template *tpl;
		FILE *f = fopen(ls->template_path, "rb");
		if (!f) {
			pdb_yaml_bad(doc, json_object_get(v, "template"), PDB_EXIT_INPUT, err, "template: %s: %s",
				     ls->template_path, strerror(errno));
			goto fail;
		}
		fclose(f);
		if (!(tpl = pdb_logstream_template_new(ls, 0, err)))
			goto fail;
		pdb_kafka_template_free(tpl);
	}
	if (ls->has_probe && ls->nprobes) {
		bad(&r, json_object_get(v, "probes"), "%s: give probe or probes, not both", "probes");
		goto fail;
	}
	if (ls->has_probe && ls->probe.file && !ls->probe.match && !ls->template_path)
		ls->probe.match = pdb_xstrdup(DEFAULT_MATCH); /* the default template's */
	for (size_t i = 0; i < ls->nprobes; i++)
		if (ls->probes[i].file && !ls->probes[i].match && !ls->template_path)
			ls->probes[i].match = pdb_xstrdup(DEFAULT_MATCH);
	if (!ls->content_type)
		ls->content_type = pdb_xstrdup("text/plain");
	free(dir);
	return ls;
fail:
	free(dir);
	pdb_logstream_spec_free(ls);
	return NULL;
}

static void probe_free(struct pdb_logstream_probe *p)
{
	free(p->file);
	free(p->match);
	free(p->command);
	free(p->value);
	free(p->name);
}

void pdb_logstream_spec_free(struct pdb_logstream_spec *ls)
{
	if (!ls)
		return;
	free(ls->target.text);
	free(ls->target.host);
	free(ls->target.port);
	free(ls->target.path);
	free(ls->template_path);
	for (size_t i = 0; i < ls->nvars; i++) {
		free(ls->vars[i].name);
		free(ls->vars[i].csv);
	}
	free(ls->vars);
	free(ls->rate);
	free(ls->content_type);
	probe_free(&ls->probe);
	for (size_t i = 0; i < ls->nprobes; i++)
		probe_free(&ls->probes[i]);
	free(ls->probes);
	free(ls);
}

struct pdb_kafka_template *pdb_logstream_template_new(const struct pdb_logstream_spec *ls, uint64_t seed,
						     struct pdb_err *err)
{
	if (!ls->template_path)
		return pdb_kafka_template_new(DEFAULT_TEMPLATE, "template", NULL, 0, NULL, seed, err);
	return pdb_kafka_template_load(ls->template_path, ls->vars, ls->nvars, NULL, seed, err);
}

int pdb_logstream_parse_rate(const char *text, double *rate, struct pdb_err *err)
{
	if (pdb_parse_double(text, rate) < 0 || !isfinite(*rate) || *rate <= 0 || *rate > 1e8)
		return pdb_err_set(err, PDB_EXIT_INPUT, "rate: '%s' is not lines per second", text);
	return 0;
}
