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
#include "compare_cpu.h"
#include "gather/compare_gather.h"
#include "metric_role.h"
#include "runner/adaptive.h"
#include "runner/git.h"
#include "runner/instrument.h"
#include "runner/placeholder.h"
#include "stats.h"
#include "util.h"

static int bisect_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_GOOD = CMD_LONG_ONLY, OPT_BAD, OPT_BUDGET };

/* The smallest change worth bisecting by time, in %: half the 20 % a
 * bisection is meant for, so that a machine's noise is never bisected. */
#define BISECT_MARGIN_PCT 10.0

static const char *const formats[] = { "text", "markdown", "json", NULL };

static const struct cmd_option options[] = {
	{ "good", OPT_GOOD, "REV", "a revision without the change (required)" },
	{ "bad", OPT_BAD, "REV", "a later revision with it (required); good must be\n"
				 "its ancestor" },
	{ "bench", 'b', "GLOB", "only the benchmarks matching GLOB run and count" },
	{ "metric", 'm', "M", "the metric followed (default: instructions when every\n"
			      "benchmark run measures them, else cpu_time when the\n"
			      "benchmarks compute, else wall_time)" },
	{ "threshold", 't', "PCT", "the smallest change worth bisecting: good and bad\n"
				   "closer than PCT % are no change (default 10, and\n"
				   "an exact count's own threshold: 1 % for instructions)",
	  .type = CMD_NUMBER, .min = 0, .above = 1, .max = 1000 },
	{ "budget", OPT_BUDGET, "SECONDS", "measuring time of the whole bisection; each step\n"
					   "may take all that is left, and stops at its first\n"
					   "deciding look",
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
	.text = "Run in a git repository. Each revision is checked out and built (the\n"
		"spec's build:) once, in a worktree kept until the bisection ends. Each\n"
		"step runs good, a midpoint and bad in triples, the midpoint always\n"
		"between the two, adding triples until it is decided: the first step\n"
		"until good and bad differ by the threshold or more, or by less (no\n"
		"change: exit 0), every step until the midpoint is nearer good,\n"
		"nearer bad, or carries between 1/8 and 7/8 of the change (a change\n"
		"split over several commits: a range).\n"
		"Each interval is the sign test's, sequential over the looks. With\n"
		"measure: [instructions] one run of each revision. Every run is\n"
		"stored with its commit and a bisect attribute. Exit 1 when a\n"
		"regression is found, 0 when good and bad differ by less than the\n"
		"threshold or the change is an improvement (named all the same), 3\n"
		"when the budget ends first (the commits that remain are said);\n"
		"Ctrl-C: 130, worktrees removed.\n",
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
	double margin_pct;                 /* --threshold; NaN: an exact count's own */
	struct pdb_bisect_looks looks;     /* of every step, the midpoints' ranks */
	size_t whole_rank[PDB_BISECT_MAX_LOOKS]; /* the whole change's ranks at them */
	int metric_given;                  /* --metric, or an exact instrument's */
	int all_unchanged;                 /* the whole change's rows are all within the margin */
	int confirmed;                     /* the whole change is a regression or an improvement */
};

/* A row the bisection can follow: gated, shown or hidden as constant (an
 * exact count that did not move). */
static int gated(const struct pdb_compare_row *r)
{
	return r->direction != PDB_DIR_NONE && r->gated &&
	       (r->hidden == PDB_SHOWN || r->hidden == PDB_HIDDEN_CONSTANT);
}

/* The whole change: the gated row that changed most, followed from then
 * on. With exact counts, whether every gated row is within the margin
 * (the count's threshold unless --threshold), and whether the one followed
 * is beyond it. */
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
		 * margin, whatever a history says */
		unchanged += fabs(r->change_pct) <= (isnan(s->margin_pct) ? r->threshold_pct : s->margin_pct);
		if (!best || fabs(r->change_pct) > fabs(best->change_pct))
			best = r;
	}
	if (s->rep.exact)
		s->all_unchanged = n > 0 && unchanged == n;
	if (!best)
		return;
	s->rep.margin_pct = isnan(s->margin_pct) ? best->threshold_pct : s->margin_pct;
	if (s->rep.exact)
		s->confirmed = fabs(best->change_pct) > s->rep.margin_pct;
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

/* The median of metric's samples of every benchmark in run, summed (0
 * when it has none). */
static double median_sum(const struct pdb_run *run, const char *metric)
{
	double sum = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		double *v;
		if (strcmp(r->metric, metric) != 0 || !r->nsamples)
			continue;
		v = pdb_xcalloc(r->nsamples, sizeof *v);
		for (size_t k = 0; k < r->nsamples; k++)
			v[k] = r->samples[k].value;
		sum += pdb_stats_median(v, r->nsamples);
		free(v);
	}
	return sum;
}

/* Without --metric: CPU time where the benchmarks compute (their CPU time
 * speaks for their wall time at good's first look), as the gate judges a
 * wall time on a shared machine; else wall time. */
static void choose_metric(struct bisection *s, const struct pdb_run *good)
{
	if (s->metric_given)
		return;
	s->metric_given = 1;
	s->env.cmp.metric_glob = pdb_cpu_speaks_for(median_sum(good, PDB_METRIC_CPU), median_sum(good, "wall_time"))
				 ? PDB_METRIC_CPU : "wall_time";
	fprintf(stderr, "perfdb: bisect: following %s (%s)\n", s->env.cmp.metric_glob,
		strcmp(s->env.cmp.metric_glob, PDB_METRIC_CPU) == 0 ? "the benchmarks compute"
		: "the benchmarks wait more than they compute");
}

/* By time, the whole change from the triples so far at rank k: every
 * gated row's b - g by the sign test against the margin. No change when
 * all lie within it; confirmed when the row followed changed by it or
 * more (its interval then the whole change's). */
static void judge_whole(struct bisection *s, const struct pdb_compare *c, struct pdb_run *const *runs, size_t k)
{
	double margin = log1p(s->margin_pct / 100);
	size_t n = 0, same = 0;

	s->confirmed = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		struct bisect_row at = { .benchmark = r->benchmark, .dims = r->dims, .metric = r->metric };
		double *g, *b, est, lo, hi;
		size_t ng, nb;
		int v = -1;
		if (!gated(r))
			continue;
		ng = bisect_row_logs(runs[0], &at, &g);
		nb = bisect_row_logs(runs[2], &at, &b);
		if (ng && ng == nb)
			v = pdb_bisect_whole(g, b, ng, k, margin, &est, &lo, &hi);
		free(g);
		free(b);
		if (v < 0)
			continue;
		n++;
		same += v == PDB_BISECT_WHOLE_SAME;
		if (s->row->metric && !bisect_same_row(&at, s->row))
			continue;
		s->row->lo = lo;
		s->row->est = est;
		s->row->hi = hi;
		s->confirmed = v == PDB_BISECT_WHOLE_CHANGED;
	}
	s->all_unchanged = n > 0 && same == n;
}

/* The place of the step's midpoint from the triples so far (the exact
 * path passes single values): its side and change from good. */
static void place_step(struct bisection *s, struct bisect_step *st, const double *g, const double *m,
		       const double *b, size_t n, size_t k)
{
	struct pdb_bisect_place p;
	int sign = s->row->est < 0 ? -1 : 1;

	if (s->rep.exact) {
		pdb_bisect_place_exact(g[0], m[0], b[0], &p);
		st->lo = st->est = st->hi = m[0] - g[0];
	} else if (pdb_bisect_place_of(g, m, b, n, k, &p) < 0 ||
		   pdb_bisect_contrast(g, m, b, n, 0, k, &st->est, &st->lo, &st->hi) < 0)
		return;
	st->share = s->row->est != 0 ? st->est / s->row->est : NAN;
	st->side = pdb_bisect_side(&p, sign);
}

/* A look at a run of triples: the whole change (at the first step, until
 * it is confirmed or within the margin), then the midpoint's place, each
 * at its rank of the look. */
static int judge_triples(void *ctx, struct pdb_run *const *runs, const struct pdb_look *l)
{
	struct bisection *s = ctx;
	struct bisect_step *st = &s->steps[s->nsteps - 1];
	double *logs[3] = { NULL, NULL, NULL };
	size_t n[3];
	int done;

	choose_metric(s, runs[0]);
	if (!s->confirmed) {
		struct pdb_compare c;
		struct pdb_err err;
		/* compare names the rows, their directions and the one that
		 * changed most; the sign test judges them */
		if (pdb_compare_runs(s->env.store, &runs[0], 1, &runs[2], 1, &s->env.cmp, &c, &err) < 0) {
			cmd_fail("bisect", &err);
			pdb_compare_release(&c);
			return 1;
		}
		choose_row(s, &c);
		judge_whole(s, &c, runs, s->whole_rank[l->look]);
		pdb_compare_release(&c);
		if (s->all_unchanged)
			return 1;
	}
	if (!s->row->metric)
		return 0;
	for (size_t v = 0; v < 3; v++)
		n[v] = bisect_row_logs(runs[v], s->row, &logs[v]);
	if (n[0] && n[0] == n[1] && n[1] == n[2])
		place_step(s, st, logs[0], logs[1], logs[2], n[0], s->looks.rank[l->look]);
	for (size_t v = 0; v < 3; v++)
		free(logs[v]);
	done = s->confirmed && st->side != PDB_BISECT_OPEN;
	if (done)
		fprintf(stderr, "perfdb: bisect: %zu/%zu %.12s: share %.2f: %s\n", st->index, s->rep.n,
			s->rep.commits[st->index].sha, st->share, pdb_bisect_side_name(st->side));
	return done;
}

/* Exact: measure good and bad once each and decide whether they differ.
 * An exit status, or -1 to bisect. */
static int confirm_exact(struct bisection *s)
{
	const char *good = s->rep.commits[0].sha, *bad = s->rep.commits[s->rep.n].sha;
	struct bisect_step *g = new_step(s, 0), *b;
	struct pdb_compare c;
	struct pdb_err err;
	int status;

	if ((status = bisect_measure_one(&s->env, "good", good, &g->m)) != 0)
		return status;
	b = new_step(s, s->rep.n);
	if ((status = bisect_measure_one(&s->env, "bad", bad, &b->m)) != 0)
		return status;
	if (pdb_compare_run_groups(s->env.store, &g->m.runs[0], 1, &b->m.runs[0], 1, &s->env.cmp, &c, &err) < 0) {
		pdb_compare_release(&c);
		return cmd_fail("bisect", &err);
	}
	choose_row(s, &c);
	pdb_compare_release(&c);
	g->side = PDB_BISECT_GOOD;
	b->side = PDB_BISECT_BAD;
	if (s->row->metric) {
		b->lo = s->row->lo;
		b->est = s->row->est;
		b->hi = s->row->hi;
		b->share = 1;
	}
	return -1;
}

/* Exact: the midpoint i measured once, placed by its count. An exit status. */
static int step_exact(struct bisection *s, struct bisect_step *st)
{
	struct pdb_compare c;
	struct pdb_err err;
	const struct pdb_compare_row *r;
	int status;

	if ((status = bisect_measure_one(&s->env, "mid", s->rep.commits[st->index].sha, &st->m)) != 0)
		return status;
	if (pdb_compare_run_groups(s->env.store, &s->steps[0].m.runs[0], 1, &st->m.runs[0], 1, &s->env.cmp, &c,
				   &err) < 0) {
		pdb_compare_release(&c);
		return cmd_fail("bisect", &err);
	}
	if ((r = bisect_find_row(&c, s->row))) {
		struct bisect_row at = *s->row;
		double g = 0, m, b = s->row->est;
		bisect_row_set(&at, r);
		m = at.est;
		place_step(s, st, &g, &m, &b, 1, 0);
	}
	pdb_compare_release(&c);
	return 0;
}

/* Bisect the commits between: an exit status. */
static int bisect_commits(struct bisection *s)
{
	size_t i;
	int status;

	if (s->rep.exact && (status = confirm_exact(s)) >= 0)
		return status;
	if (!s->rep.exact) {
		int max = s->env.spec->max_repeat ? s->env.spec->max_repeat : PDB_ADAPTIVE_MAX_REPEAT;
		if (pdb_bisect_looks(pdb_bisect_alpha(s->alpha, s->rep.n, 1), max, &s->looks) < 0) {
			fprintf(stderr, "perfdb: bisect: max_repeat %d: too few triples for the sign test to reach "
				"alpha %g\n", max, pdb_bisect_alpha(s->alpha, s->rep.n, 1));
			return PDB_EXIT_USAGE;
		}
		pdb_bisect_ranks(s->looks.at, s->looks.n, pdb_bisect_alpha(s->alpha, s->rep.n, 0), s->whole_rank);
	}
	pdb_bisect_init(&s->b, s->rep.n);
	while ((i = pdb_bisect_next(&s->b)) != 0 || !s->confirmed) {
		/* one commit after good (n 1): bad is the midpoint, to confirm */
		struct bisect_step *st;
		if (s->rep.exact && (s->all_unchanged || !s->confirmed))
			break;
		st = new_step(s, i ? i : s->rep.n);
		if (s->rep.exact) {
			if ((status = step_exact(s, st)) != 0)
				return status;
		} else {
			if ((status = bisect_measure_triples(&s->env, s->rep.commits[0].sha, s->rep.commits[st->index].sha,
							     s->rep.commits[s->rep.n].sha, &s->looks,
							     s->budget - s->spent, judge_triples, s, &st->m)) != 0)
				return status;
			s->spent += st->m.seconds;
		}
		if (s->all_unchanged) {
			s->rep.outcome = BISECT_NO_CHANGE;
			return PDB_EXIT_OK;
		}
		if (!s->confirmed) {
			char margin[32];
			pdb_pct_words(s->rep.margin_pct, NAN, 0, margin, sizeof margin);
			fprintf(stderr, "perfdb: bisect: good and bad were not told apart (by %s or more, or "
				"less) within the budget\n", margin);
			s->rep.outcome = BISECT_UNDECIDED;
			s->rep.first = 1;
			s->rep.last = s->rep.n;
			return PDB_EXIT_INPUT;
		}
		if (!i)
			break;
		if (st->side == PDB_BISECT_OPEN) {
			s->rep.outcome = BISECT_UNDECIDED;
			s->rep.first = s->b.start_lo + 1;
			s->rep.last = s->b.end_hi;
			fprintf(stderr, "perfdb: bisect: %.12s could not be placed within the budget\n",
				s->rep.commits[i].sha);
			return PDB_EXIT_INPUT;
		}
		pdb_bisect_record(&s->b, i, st->side);
	}
	if (s->all_unchanged) {
		s->rep.outcome = BISECT_NO_CHANGE;
		return PDB_EXIT_OK;
	}
	if (!s->confirmed) {
		fprintf(stderr, "perfdb: bisect: good and bad were not told apart\n");
		s->rep.outcome = BISECT_UNDECIDED;
		s->rep.first = 1;
		s->rep.last = s->rep.n;
		return PDB_EXIT_INPUT;
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
	struct bisect_trees trees = { 0 };
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
	s.margin_pct = NAN;
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
		case 't': s.margin_pct = cmd_arg.number; break;
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
	/* the placeholders as bisect runs them: its revisions replace the
	 * spec's variants, {dir} their worktrees */
	if (pdb_spec_load(argv[optind], &spec, &err) < 0 ||
	    (pdb_spec_set_revisions(&spec, &(const char *){ "good" }, (const char *const *)&good, 1),
	     pdb_placeholder_check(&spec, &err) < 0) ||
	    cmd_compare_config(config, &cfg, &s.env.cmp.config, &err) < 0 ||
	    pdb_git_commits_between(good, bad, &commits, &ncommits, &err) < 0) {
		status = cmd_fail("bisect", &err);
		goto out;
	}
	s.rep.exact = all_count_instructions(&spec, s.env.only) && (!metric || strcmp(metric, "instructions") == 0);
	s.env.cmp.metric_glob = metric ? metric : s.rep.exact ? "instructions" : NULL;
	s.metric_given = s.env.cmp.metric_glob != NULL;
	s.env.cmp.bench_glob = s.env.only;
	if (!s.rep.exact && isnan(s.margin_pct))
		s.margin_pct = BISECT_MARGIN_PCT;
	s.rep.margin_pct = s.margin_pct;
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
	s.env.trees = &trees;
	s.env.tty = isatty(2);
	if (!(s.env.store = cmd_open_store(ctx, &err))) {
		status = cmd_fail("bisect", &err);
		goto out;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	fprintf(stderr, "perfdb: bisect: %s: %zu commits after %s up to %s; following %s%s\n", id, s.rep.n, good,
		bad, s.metric_given ? s.env.cmp.metric_glob : "cpu_time or wall_time",
		s.rep.exact ? " (exact: one run of each revision)" : " (triples of good, a midpoint and bad)");
	status = bisect_commits(&s);
	if (s.rep.outcome >= 0) {
		s.rep.steps = s.steps;
		s.rep.nsteps = s.nsteps;
		bisect_print(&s.rep, format);
	}
out:
	bisect_trees_release(&trees);
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
