/* perfdb run --repeat auto: the looks between pairs, said on stderr. */
#include "run_adaptive.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gather/compare_gather.h"
#include "util.h"

#define LOOK_ROWS_MAX 6 /* series a look line names; more would not fit a line */

/* Whether the gated rows are all of one benchmark at one point: then a
 * look names their metrics alone. */
static int one_series_set(const struct pdb_compare *c)
{
	const struct pdb_compare_row *first = NULL;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		if (!pdb_adaptive_row_gated(r))
			continue;
		if (!first)
			first = r;
		else if (strcmp(r->benchmark, first->benchmark) || strcmp(r->dims, first->dims))
			return 0;
	}
	return 1;
}

/* "wall_time +9.8 % [+6.1, +13.7] regression" (with "bench[dims] " before
 * it when the look covers several). */
static void row_text(const struct pdb_compare_row *r, int named, struct pdb_buf *b)
{
	if (named)
		pdb_buf_printf(b, "%s%s%s%s ", r->benchmark, *r->dims ? "[" : "", r->dims,
			       *r->dims ? "]" : "");
	pdb_buf_printf(b, "%s ", r->metric);
	if (!isnan(r->change_pct) && !isnan(r->ci_low_pct)) {
		char t[128];
		pdb_pct_interval(r->change_pct, r->ci_low_pct, r->ci_high_pct, t, sizeof t);
		pdb_buf_printf(b, "%s ", t);
	} else if (!isnan(r->change_abs) && !isnan(r->ci_low_abs))
		pdb_buf_printf(b, "%+.3g [%+.3g, %+.3g] %s ", r->change_abs, r->ci_low_abs,
			       r->ci_high_abs, r->unit);
	pdb_buf_puts(b, pdb_verdict_name(r->verdict));
}

/* The look's line: its pairs and time, every gated series' interval. */
static void say_look(const struct adaptive *a, const struct pdb_look *l, const struct pdb_compare *c,
		     size_t gated)
{
	struct pdb_buf b;
	int named = !one_series_set(c);
	size_t shown = 0;

	pdb_buf_init(&b);
	pdb_buf_printf(&b, "look %zu/%zu: %d pairs, %.0f s: ", l->look + 1, l->nlooks, l->pairs,
		       l->elapsed);
	/* the open rows first: they are what the next look is for */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < c->nrows; i++) {
			const struct pdb_compare_row *r = &c->rows[i];
			if (!pdb_adaptive_row_gated(r) || pdb_adaptive_row_open(r) != !pass)
				continue;
			if (shown++ < LOOK_ROWS_MAX) {
				row_text(r, named, &b);
				pdb_buf_puts(&b, "; ");
			}
		}
	if (shown > LOOK_ROWS_MAX)
		pdb_buf_printf(&b, "%zu more; ", shown - LOOK_ROWS_MAX);
	pdb_buf_printf(&b, "%zu of %zu conclusive", gated - a->open, gated);
	fprintf(stderr, "%sperfdb: run: %s\n", a->tty ? "\r\033[K" : "", b.data);
	pdb_buf_release(&b);
}

int adaptive_next_fits(const struct adaptive *a, const struct pdb_look *l)
{
	int more = a->sched.looks[l->look + 1] - l->pairs;
	double per_pair = l->pairs > 0 ? l->elapsed / l->pairs : 0, need = per_pair * more;

	if (l->elapsed + need <= a->budget)
		return 1;
	fprintf(stderr, "%sperfdb: %s: adaptive: the next look's %d pairs would take about %.0f s, "
		"past the budget (%.3g s used of %g s): stopping at %d pairs\n", a->tty ? "\r\033[K" : "",
		a->who ? a->who : "run", more, need, l->elapsed, a->budget, l->pairs);
	return 0;
}

int adaptive_look(struct adaptive *a, const struct pdb_look *l)
{
	struct pdb_compare c;
	struct pdb_err err;
	size_t gated = 0;
	int failed;

	a->look = l->look;
	a->pairs = l->pairs;
	a->elapsed = l->elapsed;
	a->open = 0;
	if (pdb_compare_runs(a->store, &a->runs[0], 1, &a->runs[1], 1, a->cmp, &c, &err) < 0) {
		char msg[1200];
		pdb_err_format(&err, msg, sizeof msg);
		fprintf(stderr, "perfdb: run: look %zu: %s\n", l->look + 1, msg);
		pdb_compare_release(&c);
		a->end = ADAPTIVE_ERROR;
		return 1;
	}
	for (size_t i = 0; i < c.nrows; i++) {
		gated += pdb_adaptive_row_gated(&c.rows[i]);
		a->open += pdb_adaptive_row_open(&c.rows[i]);
	}
	say_look(a, l, &c, gated);
	failed = pdb_compare_failed(&c, a->fail_on);
	pdb_compare_release(&c);
	if (a->open == 0)
		a->end = ADAPTIVE_CONCLUSIVE;
	else if (failed)
		a->end = ADAPTIVE_FAILED;
	else if (l->look + 1 >= l->nlooks)
		a->end = ADAPTIVE_MAX_REPEAT;
	else if (!adaptive_next_fits(a, l))
		a->end = ADAPTIVE_BUDGET;
	return a->end != ADAPTIVE_RUNNING;
}

void adaptive_schedule_text(const struct adaptive *a, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "%zu look%s at ", a->sched.nlooks,
				    a->sched.nlooks > 1 ? "s" : "");
	for (size_t i = 0; i < a->sched.nlooks && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%d", i ? ", " : "", a->sched.looks[i]);
	if (n < size)
		snprintf(buf + n, size - n, " pairs, alpha %g/%zu each", a->sched.alpha, a->sched.nlooks);
}

void adaptive_end_text(const struct adaptive *a, char *buf, size_t size)
{
	static const char *const why[] = {
		"", "every gated series conclusive", "the pairs ran out (max_repeat)",
		"the budget ended", "a look could not compare",
		"the gate failed already (a regression at this look's alpha)",
	};

	if (a->end == ADAPTIVE_RUNNING) {
		*buf = '\0';
		return;
	}
	snprintf(buf, size, "ended at look %zu/%zu (%d pairs, %.0f s): %s", a->look + 1,
		 a->sched.nlooks, a->pairs, a->elapsed, why[a->end]);
	if (a->end == ADAPTIVE_MAX_REPEAT || a->end == ADAPTIVE_BUDGET || a->end == ADAPTIVE_FAILED) {
		size_t n = strlen(buf);
		snprintf(buf + n, size - n, ", %zu series inconclusive", a->open);
	}
}

const char *adaptive_open_note(const struct adaptive *a, char *buf, size_t size)
{
	if (a->end == ADAPTIVE_BUDGET)
		snprintf(buf, size, "the budget (%g s) ended at %d pairs", a->budget, a->pairs);
	else if (a->end == ADAPTIVE_MAX_REPEAT)
		snprintf(buf, size, "max_repeat (%d pairs) ended", a->pairs);
	else if (a->end == ADAPTIVE_FAILED)
		snprintf(buf, size, "the run stopped at %d pairs, the gate failed already", a->pairs);
	else
		return NULL;
	return buf;
}
