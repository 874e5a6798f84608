/* perfdb bisect: the commit that changed a benchmark, found by measurement. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect.h"
#include "bisect_measure.h"
#include "bisect_output.h"
#include "cmd.h"
#include "compare_config.h"
#include "gather/compare_gather.h"
#include "runner/git.h"
#include "runner/instrument.h"
#include "util.h"


static int bisect_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_GOOD = CMD_LONG_ONLY, OPT_BAD, OPT_BUDGET };

static const char *const formats[] = { "text", "markdown", "json", NULL };

static const struct cmd_option options[] = {
	{ "good", OPT_GOOD, "REV", "a revision without the change (required)" },
	{ "bad", OPT_BAD, "REV", "a later revision with it (required); good must be\n"
				 "its ancestor" },
	{ "bench", 'b', "GLOB", "only the benchmarks matching GLOB run and count" },
	{ "metric", 'm', "M", "the metric followed (default: instructions when every\n"
			      "benchmark run measures them, else wall_time)" },
	{ "budget", OPT_BUDGET, "SECONDS", "measuring time of the whole bisection; each A/B run\n"
					   "gets the rest over the steps left",
	  .type = CMD_NUMBER, .min = 0, .above = 1, .max = INFINITY, .def = "1800" },
	{ "format", 'F', "FMT", "text, markdown or json", .choices = formats, .def = "text" },
	{ "config", 'c', "FILE", "alpha and thresholds (default ./perfdb.yaml)" },
	{ 0 },
};

const struct command cmd_bisect = {
	.name = "bisect", .run = bisect_main,
	.summary = "find the commit that changed a benchmark, by measurement",
	.synopsis = "[OPTIONS] --good REV --bad REV SPEC.yaml",
	.options = options,
	.text = "Run in a git repository. Confirms that good and bad differ on the metric\n"
		"(an A/B run of the two, adaptive pairs), then measures midpoints, each\n"
		"checked out and built (the spec's build:) in a worktree, against good:\n"
		"a revision carrying under 25 % of the change is good, over 75 % bad, in\n"
		"between part of a change split over several commits (a range). With\n"
		"measure: [instructions] one run of each revision. Every run is stored\n"
		"with its commit and a bisect attribute. Exit 1 when a regression is\n"
		"found, 0 when good and bad do not differ or the change is an\n"
		"improvement (named all the same), 3 when the budget ends first (the\n"
		"commits that remain are said); Ctrl-C: 130, worktrees removed.\n",
	.operand = CMD_OPERAND_FILE,
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct bisection {
	struct bisect_env env;
	struct bisect_report rep;
	struct bisect_row *row;            /* &rep.row */
	struct pdb_bisect b;
	struct bisect_step *steps;
	size_t nsteps, cap;
	double alpha, budget, spent;
	int all_unchanged;                 /* the whole change's rows are all unchanged */
};

/* A row the bisection can follow: gated, shown or hidden as constant (an
 * exact count that did not move). */
static int gated(const struct pdb_compare_row *r)
{
	return r->direction != PDB_DIR_NONE && r->gated &&
	       (r->hidden == PDB_SHOWN || r->hidden == PDB_HIDDEN_CONSTANT);
}

/* The whole change: the gated row that changed most, followed from then
 * on; whether every gated row is unchanged. */
static void choose_row(struct bisection *s, const struct pdb_compare *c)
{
	const struct pdb_compare_row *best = NULL;
	size_t n = 0, unchanged = 0;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		if (!gated(r) || isnan(r->change_pct))
			continue;
		n++;
		/* an exact count is its estimate: unchanged within the
		 * threshold (1 % for instructions), whatever a history says */
		unchanged += s->rep.exact ? fabs(r->change_pct) <= r->threshold_pct
					  : r->verdict == PDB_VERDICT_UNCHANGED;
		if (!best || fabs(r->change_pct) > fabs(best->change_pct))
			best = r;
	}
	s->all_unchanged = n > 0 && unchanged == n;
	if (!best)
		return;
	free(s->row->benchmark);
	free(s->row->dims);
	free(s->row->metric);
	s->row->benchmark = pdb_xstrdup(best->benchmark);
	s->row->dims = pdb_xstrdup(best->dims);
	s->row->metric = pdb_xstrdup(best->metric);
	bisect_row_set(s->row, best);
	if (s->rep.exact)
		s->row->lo = s->row->hi = s->row->est;
}

static int judge_total(void *ctx, const struct pdb_compare *c)
{
	struct bisection *s = ctx;

	choose_row(s, c);
	return s->all_unchanged || (s->row->metric && pdb_bisect_total_known(s->row->lo, s->row->hi));
}

static struct bisect_step *new_step(struct bisection *s, size_t index)
{
	struct bisect_step *st;

	pdb_grow((void **)&s->steps, &s->cap, s->nsteps + 1, sizeof *s->steps);
	st = &s->steps[s->nsteps++];
	memset(st, 0, sizeof *st);
	st->index = index;
	st->share = st->lo = st->est = st->hi = NAN;
	return st;
}

static int judge_step(void *ctx, const struct pdb_compare *c)
{
	struct bisection *s = ctx;
	struct bisect_step *st = &s->steps[s->nsteps - 1];
	const struct pdb_compare_row *r = bisect_find_row(c, s->row);
	struct bisect_row at = *s->row;

	if (!r)
		return 0;
	bisect_row_set(&at, r);
	if (s->rep.exact)
		at.lo = at.hi = at.est;
	st->lo = at.lo;
	st->est = at.est;
	st->hi = at.hi;
	st->side = pdb_bisect_side(at.lo, at.est, at.hi, s->row->lo, s->row->hi, &st->share);
	if (st->side != PDB_BISECT_OPEN)
		fprintf(stderr, "perfdb: bisect: %zu/%zu %.12s: share %.2f: %s\n", st->index, s->rep.n,
			s->rep.commits[st->index].sha, st->share, pdb_bisect_side_name(st->side));
	return st->side != PDB_BISECT_OPEN;
}

/* Steps left when the ranges stand as they are (a change by one commit). */
static size_t steps_left(const struct pdb_bisect *b)
{
	size_t n = pdb_bisect_steps(b->start_hi - b->start_lo);
	if (b->end_hi != b->start_hi)
		n += pdb_bisect_steps(b->end_hi - b->end_lo);
	return n;
}

static double share_of_budget(const struct bisection *s, size_t after)
{
	return (s->budget - s->spent) / (double)(after + 1);
}

/* Measure good and bad and decide whether they differ. An exit status, or
 * -1 to bisect. */
static int confirm(struct bisection *s)
{
	const char *good = s->rep.commits[0].sha, *bad = s->rep.commits[s->rep.n].sha;
	struct bisect_step *g = new_step(s, 0);
	struct bisect_step *b;
	int status;

	if (s->rep.exact) {
		struct pdb_compare c;
		struct pdb_err err;
		if ((status = bisect_measure_one(&s->env, "good", good, &g->m)) != 0)
			return status;
		b = new_step(s, s->rep.n);
		if ((status = bisect_measure_one(&s->env, "bad", bad, &b->m)) != 0)
			return status;
		if (pdb_compare_run_groups(s->env.store, &g->m.cand, 1, &b->m.cand, 1, &s->env.cmp, &c, &err) < 0) {
			pdb_compare_release(&c);
			return cmd_fail("bisect", &err);
		}
		choose_row(s, &c);
		pdb_compare_release(&c);
	} else {
		b = g;
		b->index = s->rep.n;
		if ((status = bisect_measure_ab(&s->env, "good", good, "bad", bad,
						pdb_bisect_alpha(s->alpha, s->rep.n, 0),
						share_of_budget(s, pdb_bisect_steps(s->rep.n)), judge_total, s,
						&b->m)) != 0)
			return status;
		s->spent += b->m.seconds;
	}
	g->side = PDB_BISECT_GOOD;
	b->side = PDB_BISECT_BAD;
	if (s->row->metric) {
		b->lo = s->row->lo;
		b->est = s->row->est;
		b->hi = s->row->hi;
	}
	if (s->all_unchanged) {
		s->rep.outcome = BISECT_NO_CHANGE;
		return PDB_EXIT_OK;
	}
	if (!s->row->metric || !pdb_bisect_total_known(s->row->lo, s->row->hi)) {
		fprintf(stderr, "perfdb: bisect: good and bad were not told apart%s\n",
			s->row->metric ? " closely enough to bisect (the change's interval is too wide)" : "");
		s->rep.outcome = BISECT_UNDECIDED;
		s->rep.first = 1;
		s->rep.last = s->rep.n;
		return PDB_EXIT_INPUT;
	}
	return -1;
}

/* Bisect the commits between: an exit status. */
static int bisect_commits(struct bisection *s)
{
	size_t i;
	int status;

	pdb_bisect_init(&s->b, s->rep.n);
	while ((i = pdb_bisect_next(&s->b)) != 0) {
		struct bisect_step *st = new_step(s, i);
		const char *sha = s->rep.commits[i].sha;
		if (s->rep.exact) {
			struct pdb_compare c;
			struct pdb_err err;
			if ((status = bisect_measure_one(&s->env, "mid", sha, &st->m)) != 0)
				return status;
			if (pdb_compare_run_groups(s->env.store, &s->steps[0].m.cand, 1, &st->m.cand, 1, &s->env.cmp,
						   &c, &err) < 0) {
				pdb_compare_release(&c);
				return cmd_fail("bisect", &err);
			}
			judge_step(s, &c);
			pdb_compare_release(&c);
		} else {
			if ((status = bisect_measure_ab(&s->env, "good", s->rep.commits[0].sha, "mid", sha,
							pdb_bisect_alpha(s->alpha, s->rep.n, 1),
							share_of_budget(s, steps_left(&s->b) - 1), judge_step, s,
							&st->m)) != 0)
				return status;
			s->spent += st->m.seconds;
		}
		if (st->side == PDB_BISECT_OPEN) {
			s->rep.outcome = BISECT_UNDECIDED;
			s->rep.first = s->b.start_lo + 1;
			s->rep.last = s->b.end_hi;
			fprintf(stderr, "perfdb: bisect: %.12s could not be placed within its share of the budget\n", sha);
			return PDB_EXIT_INPUT;
		}
		pdb_bisect_record(&s->b, i, st->side);
	}
	s->rep.first = s->b.start_hi;
	s->rep.last = s->b.end_hi;
	s->rep.outcome = s->rep.first == s->rep.last ? BISECT_LOCATED : BISECT_RANGE;
	/* an improvement located is news, not a failure */
	return bisect_row_worse(s->row) ? PDB_EXIT_REGRESSION : PDB_EXIT_OK;
}

/* Whether every benchmark the bisection runs measures instructions. */
static int all_count_instructions(const struct pdb_spec *spec, const char *only)
{
	size_t n = 0;

	for (size_t b = 0; b < spec->nbenches; b++) {
		if (!pdb_glob_match(only, spec->benches[b].name))
			continue;
		if (!(spec->benches[b].measure & PDB_MEASURE_INSTRUCTIONS))
			return 0;
		n++;
	}
	return n > 0;
}

static int bisect_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct bisection s = { 0 };
	struct pdb_spec spec = { 0 };
	struct pdb_compare_config cfg;
	struct sigaction sa = { .sa_handler = on_signal };
	struct pdb_err err;
	const char *good = NULL, *bad = NULL, *metric = NULL, *config = NULL;
	struct pdb_git_commit *commits = NULL;
	size_t ncommits = 0;
	char id[37];
	int c, format, status;

	pdb_compare_config_init(&cfg);
	pdb_compare_opts_init(&s.env.cmp);
	s.row = &s.rep.row;
	s.rep.outcome = -1; /* until one is found: an error prints no report */
	s.row->lo = s.row->est = s.row->hi = NAN;
	format = cmd_default_choice(&cmd_bisect, "format");
	s.budget = cmd_default_number(&cmd_bisect, "budget");
	while ((c = cmd_next_option(argc, argv, &cmd_bisect)) != -1) {
		switch (c) {
		case OPT_GOOD: good = optarg; break;
		case OPT_BAD: bad = optarg; break;
		case 'b': s.env.only = optarg; break;
		case 'm': metric = optarg; break;
		case 'c': config = optarg; break;
		case 'F': format = cmd_arg.choice; break;
		case OPT_BUDGET: s.budget = cmd_arg.number; break;
		default:
			if ((status = cmd_common_option(&cmd_bisect, ctx, c)) >= 0)
				goto out;
		}
	}
	if (optind + 1 != argc) {
		status = cmd_usage_error(&cmd_bisect, "expected one SPEC.yaml");
		goto out;
	}
	if (!good || !bad) {
		status = cmd_usage_error(&cmd_bisect, "--good REV and --bad REV are both needed");
		goto out;
	}
	if (pdb_spec_load(argv[optind], &spec, &err) < 0 ||
	    cmd_compare_config(config, &cfg, &s.env.cmp.config, &err) < 0 ||
	    pdb_git_commits_between(good, bad, &commits, &ncommits, &err) < 0) {
		status = cmd_fail("bisect", &err);
		goto out;
	}
	s.rep.exact = all_count_instructions(&spec, s.env.only) && (!metric || strcmp(metric, "instructions") == 0);
	s.env.cmp.metric_glob = metric ? metric : s.rep.exact ? "instructions" : "wall_time";
	s.env.cmp.bench_glob = s.env.only;
	s.alpha = s.env.cmp.config && !isnan(s.env.cmp.config->alpha) ? s.env.cmp.config->alpha : PDB_ALPHA_DEFAULT;
	pdb_uuid4(id);
	s.rep.id = id;
	s.rep.good_rev = good;
	s.rep.bad_rev = bad;
	s.rep.commits = commits;
	s.rep.n = ncommits - 1;
	s.env.spec = &spec;
	s.env.spec_path = argv[optind];
	s.env.id = id;
	s.env.stop = &stop_requested;
	s.env.tty = isatty(2);
	if (!(s.env.store = cmd_open_store(ctx, &err))) {
		status = cmd_fail("bisect", &err);
		goto out;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	fprintf(stderr, "perfdb: bisect: %s: %zu commits after %s up to %s; following %s%s\n", id, s.rep.n, good,
		bad, s.env.cmp.metric_glob, s.rep.exact ? " (exact: one run of each revision)" : "");
	if ((status = confirm(&s)) < 0)
		status = bisect_commits(&s);
	if (s.rep.outcome >= 0) {
		s.rep.steps = s.steps;
		s.rep.nsteps = s.nsteps;
		bisect_print(&s.rep, format);
	}
out:
	pdb_bisect_release(&s.b);
	free(s.steps);
	free(s.row->benchmark);
	free(s.row->dims);
	free(s.row->metric);
	pdb_git_commits_free(commits, ncommits);
	pdb_compare_config_release(&cfg);
	pdb_spec_release(&spec);
	pdb_store_close(s.env.store);
	return status;
}
