/* compare's gate: its options, and one comparison printed with the exit status it gives. */
#include "compare_gate.h"

#include "dim_filter.h"

#include <stdlib.h>
#include <string.h>

#include "compare_verdict.h"
#include "gather/compare_gather.h"
#include "runner/adaptive.h"
#include "util.h"

enum { FMT_TEXT, FMT_MARKDOWN, FMT_JSON, FMT_JUNIT, FMT_CSV };

static int parse_fail_on(const char *text, unsigned *out, char *bad, size_t size);

void compare_gate_init(struct compare_gate *g, const struct command *cmd)
{
	char bad[128];

	memset(g, 0, sizeof *g);
	if (parse_fail_on(cmd_default_text(cmd, "fail-on"), &g->view.fail_on, bad, sizeof bad) < 0)
		abort(); /* the table's default is not a --fail-on */
	g->format = cmd_default_choice(cmd, "format");
	pdb_compare_opts_init(&g->cmp);
	pdb_compare_config_init(&g->cfg);
}

void compare_gate_release(struct compare_gate *g)
{
	pdb_compare_config_release(&g->cfg);
}

/* --fail-on: a comma list of verdicts, or never. 0, or -1 with the bad word in bad. */
static int parse_fail_on(const char *text, unsigned *out, char *bad, size_t size)
{
	char *copy = pdb_xstrdup(text), *save = NULL;
	int ret = 0;

	*out = 0;
	for (char *w = strtok_r(copy, ",", &save); w && ret == 0; w = strtok_r(NULL, ",", &save)) {
		int v = pdb_verdict_parse(w);
		if (strcmp(w, "never") == 0 && !strchr(text, ','))
			*out = 0;
		else if (v >= 0 && v != PDB_VERDICT_UNCHANGED && v != PDB_VERDICT_IMPROVEMENT &&
			 v != PDB_VERDICT_NEW)
			*out |= 1u << v;
		else {
			snprintf(bad, size, "%s", w);
			ret = -1;
		}
	}
	if (ret == 0 && !*copy) {
		snprintf(bad, size, "%s", text);
		ret = -1;
	}
	free(copy);
	return ret;
}

/* --format, in the order of FMT_TEXT, FMT_MARKDOWN, ... */
const char *const compare_gate_formats[] = { "text", "markdown", "json", "junit", "csv", NULL };

int compare_gate_option(struct compare_gate *g, const struct command *cmd, int c)
{
	const char *arg = optarg;
	char bad[128];

	switch (c) {
	case 'F': g->format = cmd_arg.choice; return 0;
	case 't': g->cmp.threshold_pct = cmd_arg.number; return 0;
	case GATE_ALPHA: g->cmp.alpha = cmd_arg.number; return 0;
	case 'c': g->config = arg; return 0;
	case 'm': g->cmp.metric_glob = arg; return 0;
	case 'b': g->cmp.bench_glob = arg; return 0;
	case GATE_FAIL_ON:
		if (parse_fail_on(arg, &g->view.fail_on, bad, sizeof bad) < 0)
			return cmd_usage_error(cmd, "--fail-on: unknown verdict '%s' (expected a comma "
					       "list of failed, regression, missing, insufficient, "
					       "inconclusive, or never)", bad);
		return 0;
	case GATE_ALL: g->view.all = 1; return 0;
	case GATE_TITLE: g->view.title = arg; return 0;
	case GATE_HOLM: g->cmp.holm = 1; return 0;
	case GATE_STRICT_ENV: g->strict_env = 1; return 0;
	default: return -1;
	}
}

int compare_gate_config(struct compare_gate *g, const char *who)
{
	struct pdb_err err;

	return cmd_compare_config(g->config, &g->cfg, &g->cmp.config, &err) < 0 ? cmd_fail(who, &err) : 0;
}

static int env_check(const struct pdb_compare *c, int strict, const char *who)
{
	for (size_t i = 0; i < c->nenv; i++) {
		/* the values are the runs' attributes: escaped for the terminal */
		char *key = cmd_escape_controls(c->env[i].key);
		char *base = cmd_escape_controls(c->env[i].base);
		char *cand = cmd_escape_controls(c->env[i].cand);
		fprintf(stderr, "perfdb: %s: %senvironments differ: %s '%s' (baseline) vs "
			"'%s' (candidate)\n", who, strict ? "" : "warning: ", key, base, cand);
		free(key);
		free(base);
		free(cand);
	}
	return strict && c->nenv ? -1 : 0;
}

/* One line on stderr for each thing the table alone could hide: runs that did
 * not complete, series too small to judge. */
static void warn(const struct pdb_compare *c, const char *who)
{
	size_t insufficient = 0;
	const char *first = NULL;

	for (size_t side = 0; side < 2; side++) {
		const struct pdb_compare_run *runs = side ? c->cand : c->base;
		size_t n = side ? c->ncand : c->nbase;
		for (size_t i = 0; i < n; i++)
			if (strcmp(runs[i].status, "complete") != 0)
				cmd_say(who, "warning: %s run%lld ended %s: its "
					"benchmarks may not have run", side ? "candidate" : "baseline",
					(long long)runs[i].id, runs[i].status);
	}
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		if (r->verdict == PDB_VERDICT_INSUFFICIENT && pdb_compare_row_counted(r) &&
		    !insufficient++)
			first = r->reason;
	}
	if (insufficient) {
		char *safe = first ? cmd_escape_controls(first) : NULL;
		fprintf(stderr, "perfdb: %s: %zu series insufficient%s%s%s\n", who, insufficient,
			safe ? " (the first: " : "", safe ? safe : "", safe ? ")" : "");
		free(safe);
	}
}

/* An adaptive run that ended before its series were conclusive says why
 * in each open row's reason, in every format. */
static void note_open_rows(struct pdb_compare *c, const char *note)
{
	for (size_t i = 0; note && i < c->nrows; i++) {
		struct pdb_compare_row *r = &c->rows[i];
		char *reason;
		if (!pdb_adaptive_row_open(r))
			continue;
		reason = r->reason ? pdb_xasprintf("%s; %s", r->reason, note) : pdb_xstrdup(note);
		free(r->reason);
		r->reason = reason;
	}
}

static int show(struct compare_gate *g, struct pdb_compare *result, const char *who);

/* The gate's answer to a comparison that returned rc: its error, a --dim
 * that matched no dim, or the comparison shown; result released. */
static int answer(struct compare_gate *g, int rc, struct pdb_compare *result,
		  struct pdb_err *err, const char *who)
{
	int status;

	if (rc < 0 || pdb_dim_filter_check(g->cmp.dims, err) < 0)
		status = cmd_fail(who, err);
	else
		status = show(g, result, who);
	pdb_compare_release(result);
	return status;
}

int compare_gate_run(struct compare_gate *g, struct pdb_store *store, const int64_t *base,
		     size_t nbase, const int64_t *cand, size_t ncand, const char *who)
{
	struct pdb_compare result = { 0 };
	struct pdb_err err;

	return answer(g, pdb_compare_run_groups(store, base, nbase, cand, ncand, &g->cmp, &result,
						&err), &result, &err, who);
}

int compare_gate_run_runs(struct compare_gate *g, struct pdb_store *store, struct pdb_run *const *base,
			  size_t nbase, struct pdb_run *const *cand, size_t ncand, const char *who)
{
	struct pdb_compare result = { 0 };
	struct pdb_err err;

	return answer(g, pdb_compare_runs(store, base, nbase, cand, ncand, &g->cmp, &result, &err),
		      &result, &err, who);
}

/* Print the comparison, return its exit status. */
static int show(struct compare_gate *g, struct pdb_compare *result, const char *who)
{
	int status;

	if (env_check(result, g->strict_env, who) < 0)
		return PDB_EXIT_INPUT;
	note_open_rows(result, g->open_note);
	g->view.failed = pdb_compare_failed(result, g->view.fail_on);
	g->view.opts = &g->cmp;
	switch (g->format) {
	case FMT_TEXT: compare_print_text(result, &g->view, stdout); break;
	case FMT_MARKDOWN: compare_print_markdown(result, &g->view, stdout); break;
	case FMT_JSON: compare_print_json(result, &g->view, stdout); break;
	case FMT_JUNIT: compare_print_junit(result, &g->view, stdout); break;
	default: compare_print_csv(result, &g->view, stdout); break;
	}
	if (g->footnote && (g->format == FMT_TEXT || g->format == FMT_MARKDOWN))
		printf("%s\n", g->footnote);
	warn(result, who);
	if (g->view.failed && result->nbase == 1 && result->ncand == 1)
		cmd_bisect_hint(who, NULL, "the baseline and the candidate", result->base[0].commit,
				result->cand[0].commit);
	/* the status the headline announced (pdb_compare_outcome) */
	status = pdb_compare_outcome_status(pdb_compare_outcome(result, g->view.fail_on));
	if (status == PDB_EXIT_INPUT) {
		fprintf(stderr, "perfdb: %s: no series in common: %zu new, %zu missing "
			"(were the benchmarks renamed, or filtered out?)\n", who,
			result->counts[PDB_VERDICT_NEW], result->counts[PDB_VERDICT_MISSING]);
		status = PDB_EXIT_INPUT;
	}
	return status;
}
