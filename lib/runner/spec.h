/* Run specs: the YAML that `perfdb run` reads (benchmarks, matrix, repetitions). */
#ifndef PDB_SPEC_H
#define PDB_SPEC_H

#include <stddef.h>

#include "err.h"
#include "model.h"

/* A command: an argv list, or a shell string run with /bin/sh -c. */
struct pdb_command {
	char **argv;        /* NULL-terminated; NULL when shell is used */
	char *shell;
};

struct pdb_regex_metric {
	char *name;
	char *regex;        /* POSIX extended; the first group is the value */
	char *unit;
	int direction;      /* enum pdb_direction */
	int has_direction;  /* direction: given; else the unit's */
};

struct pdb_kafka_spec;
struct pdb_logstream_spec;
struct pdb_sample_spec;

struct pdb_matrix_param {
	char *name;
	char **values;
	char **where;       /* each value's FILE:LINE:COL in the spec, or NULL */
	size_t nvalues;
};

struct pdb_bench_spec {
	char *name;
	struct pdb_command command, setup, teardown;
	struct pdb_kafka_spec *kafka; /* a Kafka load workload instead of command, or NULL */
	struct pdb_logstream_spec *stream; /* a log stream workload instead of command, or NULL */
	struct pdb_sample_spec *sample; /* sample: processes and the machine while it runs, or NULL (the spec's) */
	struct pdb_attr *env;
	size_t nenv;
	char *cwd;          /* NULL: the current directory */
	double timeout;     /* seconds; 0: none */
	int warmup, repeat;
	int repeat_auto;    /* repeat: auto: pairs added until compare is conclusive */
	int allow_failure;
	unsigned measure;   /* instruments (enum pdb_measure bits, runner/instrument.h): its own
			     * measure:, else the spec's; none for a kafka: or stream: benchmark */
	char *parse_format; /* ingest format of the command's output, or NULL */
	char *parse_file;   /* file it writes; NULL: its stdout */
	char *parse_map;    /* parse: {map: MAP.yaml} (format map), or NULL */
	struct pdb_regex_metric *metrics;
	size_t nmetrics;
	struct pdb_matrix_param *matrix; /* its own matrix: a parameter replaces the
					  * top level's of that name, or adds one */
	size_t nmatrix;
	/* The parameters it runs over (set by pdb_spec_load): the top level's
	 * that it names as {NAME} in a text the runner substitutes (and vcpus,
	 * which pins every benchmark), in their order, each replaced by its
	 * own of that name, then its own others. None: one point. */
	const struct pdb_matrix_param **axes;
	size_t naxes;
};

/* An A/B variant: the value of each {KEY} in its commands. */
struct pdb_variant {
	char *name;
	struct pdb_attr *vars;
	size_t nvars;
	char *git;          /* git: REV, checked out into a worktree ({dir}); NULL: none */
};

/* A {NAME} written in a text the runner expands, and where (checked by
 * pdb_placeholder_check once the variants are final). */
struct pdb_placeholder_use {
	size_t bench;       /* its benchmark; nbenches: the build */
	char *name;
	char *file;
	int line, col;      /* of the text's value in the spec */
};

struct pdb_spec {
	struct pdb_bench_spec *benches;
	size_t nbenches;
	struct pdb_matrix_param *matrix;
	size_t nmatrix;
	struct pdb_variant *variants; /* none, or two: the base, then the candidate
				       * (a bisection: one, or three) */
	size_t nvariants;
	int interleave;
	int warmup, repeat, repeat_auto; /* the top level's: each benchmark's defaults */
	unsigned measure;             /* the top level's measure:, each command benchmark's default */
	struct pdb_command build;     /* run first in each git: variant's checkout, else once in
				       * the current checkout */
	char *here;                   /* {dir} when no variant has git:: the current checkout
				       * (set by the runner), or NULL */
	double budget;                /* budget: seconds of an adaptive run; 0: the default */
	int max_repeat;               /* max_repeat: pairs of an adaptive run; 0: the default */
	char *auto_where;             /* FILE:LINE:COL of the first repeat: auto, or NULL */
	struct pdb_sample_spec *sample; /* sample: of every benchmark without its own, or NULL */
	struct pdb_placeholder_use *uses; /* every {NAME} of the expanded texts */
	size_t nuses;
};

/* Read a spec; errors are FILE:LINE:COL (code PDB_EXIT_INPUT). Release
 * with pdb_spec_release. */
int pdb_spec_load(const char *path, struct pdb_spec *spec, struct pdb_err *err);
void pdb_spec_release(struct pdb_spec *spec);

/* Replace the spec's variants with the command line's NAME:KEY=VALUE
 * texts (a NAME again adds a key to that variant); the first NAME is the
 * base; the key git is the variant's revision. 0, or -1 with a usage error
 * (code PDB_EXIT_USAGE). */
int pdb_spec_set_variants(struct pdb_spec *spec, const char *const *args, size_t nargs,
			  struct pdb_err *err);

/* Replace the spec's variants with n (at most PDB_CHECKOUTS_MAX), names[i]
 * checking revs[i] out, {dir} its worktree. A bisection measures a
 * revision alone when its instrument is exact (n 1: the plan runs each
 * step once, as variant 0), else good, a midpoint and bad in triples (n 3:
 * the plan runs them in the order 0 1 2, then 2 1 0, and again). */
void pdb_spec_set_revisions(struct pdb_spec *spec, const char *const *names, const char *const *revs,
			    size_t n);

/* --measure: every benchmark with a command measured under mask (enum
 * pdb_measure bits), whatever its spec says. */
void pdb_spec_set_measure(struct pdb_spec *spec, unsigned mask);

/* Whether benchmark b names {name} in a text the runner substitutes: its
 * command, setup, teardown, env values, cwd, parse file, or its kafka: or
 * stream: rate. */
int pdb_bench_names(const struct pdb_bench_spec *b, const char *name);
/* fn(ctx, text) for each of those texts until it returns non-zero (which
 * is returned; 0 when none did). */
int pdb_bench_each_text(const struct pdb_bench_spec *b, int (*fn)(void *ctx, const char *text), void *ctx);

/* Whether a variant has git: REV (then every variant has a {dir}). */
int pdb_spec_has_git(const struct pdb_spec *spec);

/* Set {key} of variant v to value (a copy), replacing an earlier value. */
void pdb_variant_set(struct pdb_variant *v, const char *key, const char *value);

#endif
