/* Log stream workload specs: the `stream:` section of a benchmark in a run spec. */
#include "logstream/spec.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/template.h"
#include "util.h"

#define DEFAULT_DURATION 10.0
#define DEFAULT_DRAIN 5.0
#define DEFAULT_EVERY 1.0
#define DEFAULT_BATCH 1000
#define DEFAULT_MATCH "seq=([0-9]+)"
#define DEFAULT_TEMPLATE "perfdb seq=$SEQ ts=$TS"

static int bad(struct pdb_spec_reader *r, const json_t *v, const char *fmt, const char *what)
{
	return pdb_spec_bad(r, v, fmt, what);
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

static int read_target(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	static const char expect[] = "%s: expected udp://HOST:PORT, tcp://HOST:PORT, unix:PATH, file:PATH or http://HOST[:PORT]/PATH";
	struct pdb_logstream_target *t = &((struct pdb_logstream_spec *)out)->target;
	const char *s = json_string_value(v), *rest;

	(void)k;
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

static const struct pdb_spec_key probe_keys[] = {
	PDB_KEY(struct pdb_logstream_probe, "file", PDB_KEY_TEXT, file),
	PDB_KEY(struct pdb_logstream_probe, "match", PDB_KEY_REGEX, match),
	PDB_KEY(struct pdb_logstream_probe, "command", PDB_KEY_TEXT, command),
	PDB_KEY_RANGE(struct pdb_logstream_probe, "every", PDB_KEY_SECONDS, every, 0.01, PDB_SPEC_MAX_SECONDS),
	PDB_KEY(struct pdb_logstream_probe, "value", PDB_KEY_REGEX, value),
};
const struct pdb_spec_section pdb_logstream_probe_section = {
	"probe", probe_keys, sizeof probe_keys / sizeof probe_keys[0],
};

static int read_one_probe(struct pdb_spec_reader *r, const json_t *v, struct pdb_logstream_probe *p)
{
	if (!json_is_object(v))
		return bad(r, v, "%s: expected {file: PATH, match: REGEX} or {command: CMD, every: S, value: REGEX}", "probe");
	p->every = DEFAULT_EVERY;
	if (pdb_spec_read_map(r, v, &pdb_logstream_probe_section, p) < 0)
		return -1;
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

static int read_probe(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_logstream_spec *ls = out;

	(void)k;
	ls->has_probe = 1;
	return read_one_probe(r, v, &ls->probe);
}

/* probes: {STAGE: PROBE, ...}, each counting the same lines at a stage of its own. */
static int read_probes(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_logstream_spec *ls = out;
	const char *name;
	json_t *x;

	if (!json_is_object(v) || json_object_size(v) == 0)
		return bad(r, v, "%s: expected a mapping of stage names to probes", k->name);
	ls->probes = pdb_xcalloc(json_object_size(v), sizeof *ls->probes);
	json_object_foreach((json_t *)v, name, x) {
		struct pdb_logstream_probe *p = &ls->probes[ls->nprobes++];
		p->name = pdb_xstrdup(name);
		if (read_one_probe(r, x, p) < 0)
			return -1;
	}
	return 0;
}

static const char *const framings[] = { "lines", "syslog", NULL }; /* enum pdb_logstream_framing */

static int read_vars(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_logstream_spec *ls = out;

	(void)k;
	return pdb_kafka_read_vars(r, v, &ls->vars, &ls->nvars);
}

/* The lower-is-better metrics of a step, each one value or one a second. */
const char *const pdb_logstream_search_metrics[] = {
	"missing", "missing_pct", "errors", "delivery_delay_p99", "delivery_delay_mean", "duplicated",
	"excess", "delivery_time", "probe_errors", NULL,
};

static int read_rate(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v, void *out)
{
	struct pdb_logstream_spec *ls = out;
	struct pdb_err ignored;
	double rate;

	if (json_is_object(v)) { /* a capacity search; a warm-up runs at its LOW */
		if (pdb_capacity_read(r, v, pdb_logstream_search_metrics, &ls->search) < 0)
			return -1;
		ls->rate = pdb_xasprintf("%.0f", ls->search->low);
		return 0;
	}
	if (!(ls->rate = pdb_yaml_scalar_text(v)) ||
	    (!strchr(ls->rate, '{') && pdb_logstream_parse_rate(ls->rate, &rate, &ignored) < 0))
		return bad(r, v, "%s: expected lines per second (a positive number), a {matrix} value or "
			   "{search: [LOW, HIGH], until: {METRIC: LIMIT}}", k->name);
	return 0;
}

static const struct pdb_spec_key stream_keys[] = {
	PDB_KEY_READ("target", read_target),
	PDB_KEY_ONE_OF(struct pdb_logstream_spec, "framing", framing, framings),
	PDB_KEY(struct pdb_logstream_spec, "template", PDB_KEY_PATH, template_path),
	PDB_KEY_READ("vars", read_vars),
	PDB_KEY_READ("rate", read_rate),
	PDB_KEY_RANGE(struct pdb_logstream_spec, "duration", PDB_KEY_SECONDS, duration, 0.001, PDB_SPEC_MAX_SECONDS),
	PDB_KEY_RANGE(struct pdb_logstream_spec, "drain", PDB_KEY_SECONDS, drain, 0, PDB_SPEC_MAX_SECONDS),
	PDB_KEY_RANGE(struct pdb_logstream_spec, "batch", PDB_KEY_INT, batch, 1, 1000000),
	PDB_KEY(struct pdb_logstream_spec, "content_type", PDB_KEY_TEXT, content_type),
	PDB_KEY_READ("probe", read_probe),
	PDB_KEY_READ("probes", read_probes),
};
const struct pdb_spec_section pdb_logstream_section = {
	"stream", stream_keys, sizeof stream_keys / sizeof stream_keys[0],
};

/* A search's conditions need what they name measured: a probe, and for
 * delays and duplicates a probe that matches each line's $SEQ. A stage
 * that counts only does not block them: they are judged on the stages
 * that measure them (the worst of those), so one such stage is enough. */
static int search_problem(struct pdb_spec_reader *r, const json_t *v, const struct pdb_logstream_spec *ls)
{
	const json_t *rate = json_object_get(v, "rate");
	const json_t *until = json_object_get(rate, "until");
	const struct pdb_logstream_probe *p = ls->nprobes ? ls->probes : &ls->probe;
	size_t n = ls->nprobes ? ls->nprobes : (size_t)ls->has_probe;

	if (n == 0)
		return bad(r, rate, "%s: a search needs a probe (or probes) to judge its steps", "rate");
	for (size_t i = 0; i < ls->search->nuntil; i++) {
		const char *m = ls->search->until[i].metric;
		int needs_match = !strcmp(m, "delivery_delay_p99") || !strcmp(m, "delivery_delay_mean") ||
				  !strcmp(m, "duplicated"), matching = 0;
		for (size_t k = 0; k < n; k++)
			matching += p[k].file && p[k].match;
		if (needs_match && !matching)
			return pdb_spec_bad(r, json_object_get(until, m), "until: %s: %s counts lines only (a "
					    "command, or a file without match): it measures no delays or duplicates",
					    m, n > 1 ? "every probe" : "the probe");
	}
	return 0;
}

struct pdb_logstream_spec *pdb_logstream_spec_read(const struct pdb_yaml_doc *doc, const json_t *v,
						   const char *spec_path, struct pdb_err *err)
{
	struct pdb_logstream_spec *ls = pdb_xcalloc(1, sizeof *ls);
	char *dir = pdb_spec_dir(spec_path);
	struct pdb_spec_reader r = { .doc = doc, .dir = dir, .err = err };

	ls->framing = -1;
	ls->duration = DEFAULT_DURATION;
	ls->drain = DEFAULT_DRAIN;
	ls->batch = DEFAULT_BATCH;
	if (!json_is_object(v)) {
		bad(&r, v, "%s: expected a mapping with target and rate", "stream");
		goto fail;
	}
	if (pdb_spec_read_map(&r, v, &pdb_logstream_section, ls) < 0)
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
	if (ls->search && search_problem(&r, v, ls) < 0)
		goto fail;
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
	pdb_capacity_free(ls->search);
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
