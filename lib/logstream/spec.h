/* Log stream workload specs: the `stream:` section of a benchmark in a run spec. */
#ifndef PDB_LOGSTREAM_SPEC_H
#define PDB_LOGSTREAM_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "loadgen/vars.h"
#include "runner/capacity.h"
#include "yaml_doc.h"

enum pdb_logstream_kind {
	PDB_LOGSTREAM_TCP, PDB_LOGSTREAM_UDP, PDB_LOGSTREAM_UNIX, PDB_LOGSTREAM_FILE,
	PDB_LOGSTREAM_HTTP,
};

enum pdb_logstream_framing { PDB_LOGSTREAM_LINES, PDB_LOGSTREAM_SYSLOG };

/* Where lines go: target as written, split into its parts. */
struct pdb_logstream_target {
	int kind;                   /* enum pdb_logstream_kind */
	char *text;                 /* "tcp://127.0.0.1:10514" */
	char *host, *port;          /* tcp, udp, http */
	char *path;                 /* unix and file: the path; http: the request path */
};

/* Where delivered lines are counted: a followed file, or a polled command. */
struct pdb_logstream_probe {
	char *file;                 /* followed like tail -F, or NULL */
	char *match;                /* regex whose first group is a line's $SEQ, or NULL */
	char *command;              /* shell command printing a count, or NULL */
	char *value;                /* regex whose first group is that count */
	double every;               /* seconds between runs of command */
	char *name;                 /* probes: its stage; NULL for the one probe: */
};

struct pdb_logstream_spec {
	struct pdb_logstream_target target;
	int framing;                /* enum pdb_logstream_framing */
	char *template_path;        /* NULL: "perfdb seq=$SEQ ts=$TS" */
	struct pdb_kafka_var *vars; /* CSV variables of the template */
	size_t nvars;
	char *rate;                 /* lines/s as written; may hold {matrix} names (a search: its LOW) */
	struct pdb_capacity *search; /* rate: {search: ...}: the highest rate that holds, or NULL */
	double duration, drain;     /* seconds */
	long batch;                 /* http: lines per POST at most */
	char *content_type;         /* http */
	int has_probe;
	struct pdb_logstream_probe probe;
	struct pdb_logstream_probe *probes; /* probes: one per stage, in spec order; or NULL */
	size_t nprobes;
};

/* Read the `stream:` mapping v of doc (spec_path names the spec: template
 * and CSV paths are relative to its directory). Errors are FILE:LINE:COL
 * (PDB_EXIT_INPUT). Returns a spec the caller frees with
 * pdb_logstream_spec_free, or NULL. */
struct pdb_logstream_spec *pdb_logstream_spec_read(const struct pdb_yaml_doc *doc, const json_t *v,
						   const char *spec_path, struct pdb_err *err);
void pdb_logstream_spec_free(struct pdb_logstream_spec *ls); /* NULL-safe */

/* The keys of stream: and of its probe, for the docs test. */
extern const struct pdb_spec_section pdb_logstream_section, pdb_logstream_probe_section;

struct pdb_kafka_template;

/* What a capacity search of a stream may set a limit on (NULL-terminated). */
extern const char *const pdb_logstream_search_metrics[];

/* The spec's template (its file, or the default "perfdb seq=$SEQ ts=$TS")
 * compiled with its variables, picks seeded by seed. NULL with err
 * (TEMPLATE:LINE:COL) when it does not compile. Caller frees with
 * pdb_kafka_template_free. */
struct pdb_kafka_template *pdb_logstream_template_new(const struct pdb_logstream_spec *ls, uint64_t seed,
						     struct pdb_err *err);

/* The rate after matrix expansion: lines/s, positive; -1 with err. */
int pdb_logstream_parse_rate(const char *text, double *rate, struct pdb_err *err);

#endif
