/* compare's gate: its options, and one comparison printed with the exit status it gives. */
#ifndef PDB_CMD_COMPARE_GATE_H
#define PDB_CMD_COMPARE_GATE_H

#include <stdint.h>

#include "cmd.h"
#include "compare.h"
#include "compare_config.h"
#include "compare_output.h"

/* The gate's options, in compare's table and in run's (with --compare):
 * cmd_next_option returns a letter or a GATE_ code for them. */
enum { GATE_ALPHA = 0x2100, GATE_FAIL_ON, GATE_HOLM, GATE_STRICT_ENV, GATE_ALL, GATE_TITLE };
extern const char *const compare_gate_formats[];
#define COMPARE_GATE_OPTIONS \
	{ "format", 'F', "FMT", "text, markdown, json, junit or csv", \
	  .choices = compare_gate_formats, .def = "text" }, \
	{ "threshold", 't', "PCT", "fail level in % (default: the configuration's, else by\n" \
				   "metric: 5, 10 for p95 and beyond)", \
	  .type = CMD_NUMBER, .min = 0, .max = 1e6 }, \
	{ "alpha", GATE_ALPHA, "A", "significance level (default: the configuration's, else\n" \
				    PDB_ALPHA_DEFAULT_TEXT ")", \
	  .type = CMD_NUMBER, .min = 0, .above = 1, .max = 0.5 }, \
	{ "config", 'c', "FILE", "thresholds, directions, ignores (default ./perfdb.yaml)" }, \
	{ "metric", 'm', "GLOB", "only metrics matching GLOB" }, \
	{ "bench", 'b', "GLOB", "only benchmarks matching GLOB" }, \
	{ "fail-on", GATE_FAIL_ON, "LIST", "verdicts that fail the gate, comma-separated (add\n" \
					    "missing, insufficient, inconclusive; never: report\n" \
					    "only)", .def = "regression,failed" }, \
	{ "all", GATE_ALL, NULL, "also show constant and bookkeeping series" }, \
	{ "title", GATE_TITLE, "TEXT", "markdown: a heading above the summary (shards appending\n" \
				       "to one file stay apart)" }, \
	{ "holm", GATE_HOLM, NULL, "Holm-adjust p-values across series" }, \
	{ "strict-env", GATE_STRICT_ENV, NULL, "exit 3 when cpu_model, vcpus or host differ" }

struct compare_gate {
	int format, strict_env;
	const char *config;           /* --config, or NULL: ./perfdb.yaml when it exists */
	struct compare_view view;
	struct pdb_compare_opts cmp;
	struct pdb_compare_config cfg;
	/* an adaptive run's: added to the reason of each gated series still
	 * inconclusive ("the budget (300 s) ended at 23 pairs"), and said
	 * under the text and Markdown tables ("adaptive: 5 looks ..."); NULL: none */
	const char *open_note, *footnote;
};

/* The gate with the defaults of cmd's table. */
void compare_gate_init(struct compare_gate *g, const struct command *cmd);
void compare_gate_release(struct compare_gate *g);

/* Take option c (a gate option's letter or GATE_ code) with its value
 * (optarg, cmd_arg) for cmd: -1 when c is not a gate option, 0 when
 * taken, else the exit status of a usage error (said on stderr). */
int compare_gate_option(struct compare_gate *g, const struct command *cmd, int c);

/* Load the configuration; 0, or the exit status of its error (said on stderr
 * as "perfdb: WHO: ..."). */
int compare_gate_config(struct compare_gate *g, const char *who);

/* Compare the candidate runs with the baseline runs, print the result in
 * the chosen format on stdout (warnings on stderr) and return the exit
 * status: 0 pass, 1 the gate fails, 3 no series in common (the headline
 * says NO COMPARISON) or differing environments with strict_env, or the
 * code of an error. */
int compare_gate_run(struct compare_gate *g, struct pdb_store *store, const int64_t *base,
		     size_t nbase, const int64_t *cand, size_t ncand, const char *who);
/* The same over runs in memory (compare --against's sides). */
int compare_gate_run_runs(struct compare_gate *g, struct pdb_store *store, struct pdb_run *const *base,
			  size_t nbase, struct pdb_run *const *cand, size_t ncand, const char *who);

#endif
