/* compare's gate: its options, and one comparison printed with the exit status it gives. */
#ifndef PDB_CMD_COMPARE_GATE_H
#define PDB_CMD_COMPARE_GATE_H

#include <stdint.h>

#include "cmd.h"
#include "compare.h"
#include "compare_config.h"
#include "compare_output.h"

/* Option codes of the gate's long options; the first six in the order of
 * compare's letters F, t, a, c, m, b (COMPARE_GATE_LETTERS). */
enum {
	GATE_FORMAT = 0x2100, GATE_THRESHOLD, GATE_ALPHA, GATE_CONFIG, GATE_METRIC, GATE_BENCH,
	GATE_FAIL_ON, GATE_HOLM, GATE_STRICT_ENV, GATE_ALL, GATE_TITLE
};
#define COMPARE_GATE_LETTERS "Ftacmb"
#define COMPARE_GATE_OPTIONS \
	{ "format", required_argument, 0, GATE_FORMAT }, \
	{ "threshold", required_argument, 0, GATE_THRESHOLD }, \
	{ "alpha", required_argument, 0, GATE_ALPHA }, \
	{ "config", required_argument, 0, GATE_CONFIG }, \
	{ "metric", required_argument, 0, GATE_METRIC }, \
	{ "bench", required_argument, 0, GATE_BENCH }, \
	{ "fail-on", required_argument, 0, GATE_FAIL_ON }, \
	{ "holm", no_argument, 0, GATE_HOLM }, \
	{ "strict-env", no_argument, 0, GATE_STRICT_ENV }, \
	{ "all", no_argument, 0, GATE_ALL }, \
	{ "title", required_argument, 0, GATE_TITLE }

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

void compare_gate_init(struct compare_gate *g);
void compare_gate_release(struct compare_gate *g);

/* Take option c (a GATE_ code) with its value arg for cmd: -1 when c is
 * not a gate option, 0 when taken, else the exit status of a usage error
 * (said on stderr). */
int compare_gate_option(struct compare_gate *g, const struct command *cmd, int c, const char *arg);

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

#endif
