/* Unit tests: chart/multiples.c and chart/stage_color.c — every line in a
 * panel of at most a panel's lines, and one colour per stage across panels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "chart/kinds.h"

/* A stream run of rates x stages: per rate send_delay (no stage) and
 * delivery_delay per stage, as items. */
static size_t stream_items(struct pdb_run *run, size_t rates, const char *const *stages, size_t nstages,
			   struct pdb_chart_item *it)
{
	size_t n = 0;

	for (size_t r = 0; r < rates; r++) {
		char rate[16];
		snprintf(rate, sizeof rate, "%zu", 100 * (r + 1));
		struct pdb_attr send[] = { { "rate", rate } };
		pdb_run_result_with_dims(run, "pipe", send, 1, "send_delay", "s");
		n++;
		for (size_t s = 0; s < nstages; s++) {
			struct pdb_attr d[] = { { "rate", rate }, { "stage", (char *)stages[s] } };
			pdb_run_result_with_dims(run, "pipe", d, 2, "delivery_delay", "s");
			n++;
		}
	}
	/* the results move while they are added: point to them after */
	for (size_t i = 0; i < n; i++)
		it[i] = (struct pdb_chart_item){ run, &run->results[run->nresults - n + i], 0 };
	return n;
}

/* 3 rates x (send + 3 stages) = 12 lines: a panel per rate (rate gives 3
 * groups, stage 4); 12 rates: still a panel per rate; 3 x 12 stages: by
 * stage, the one without first... every item in exactly one group. */
static void test_groups(void **state)
{
	static const char *const stages[] = { "rsyslog", "jq", "sqlite" };
	struct pdb_run *run = pdb_run_new();
	struct pdb_chart_item it[64];
	struct pdb_chart_group *g;
	size_t n, ng, seen[64] = { 0 };
	(void)state;

	n = stream_items(run, 3, stages, 3, it);
	assert_int_equal(n, 12);
	ng = pdb_chart_groups(it, n, 8, &g);
	assert_int_equal(ng, 3);
	assert_string_equal(g[0].label, "rate=100");
	assert_string_equal(g[2].label, "rate=300");
	for (size_t k = 0; k < ng; k++) {
		assert_int_equal(g[k].n, 4);
		for (size_t i = 0; i < g[k].n; i++)
			seen[g[k].idx[i]]++;
	}
	for (size_t i = 0; i < n; i++)
		assert_int_equal(seen[i], 1);
	pdb_chart_groups_free(g, ng);
	/* few enough: one group, no label */
	ng = pdb_chart_groups(it, 4, 8, &g);
	assert_int_equal(ng, 1);
	assert_string_equal(g[0].label, "");
	pdb_chart_groups_free(g, ng);
	pdb_run_free(run);
	/* 12 steps of a capacity search: a panel per step */
	run = pdb_run_new();
	n = stream_items(run, 12, stages, 2, it);
	ng = pdb_chart_groups(it, n, 8, &g);
	assert_int_equal(ng, 12);
	assert_string_equal(g[11].label, "rate=1200");
	pdb_chart_groups_free(g, ng);
	/* no dim to split by: pages */
	ng = pdb_chart_groups(it, 1, 8, &g);
	assert_int_equal(ng, 1);
	pdb_chart_groups_free(g, ng);
	pdb_run_free(run);
}

/* A group larger than a panel even split by its best dim is cut into pages. */
static void test_pages(void **state)
{
	struct pdb_run *run = pdb_run_new();
	struct pdb_chart_item it[20];
	struct pdb_chart_group *g;
	size_t ng;
	(void)state;

	for (size_t i = 0; i < 20; i++) {
		char m[16];
		snprintf(m, sizeof m, "op%02zu", i);
		pdb_run_result_with_dims(run, "b", NULL, 0, m, "s");
	}
	for (size_t i = 0; i < 20; i++)
		it[i] = (struct pdb_chart_item){ run, &run->results[i], 0 };
	ng = pdb_chart_groups(it, 20, 8, &g);
	assert_int_equal(ng, 3);
	assert_string_equal(g[0].label, "1 of 3");
	assert_int_equal(g[0].n + g[1].n + g[2].n, 20);
	assert_int_equal(g[2].n, 4);
	pdb_chart_groups_free(g, ng);
	pdb_run_free(run);
}

/* A stage keeps its colour in every panel, and the process of that name
 * shares it; a panel whose lines would share a colour is coloured in order. */
static void test_stage_colors(void **state)
{
	static const char *const stages[] = { "rsyslog", "jq", "sqlite" };
	struct pdb_run *run = pdb_run_new();
	struct pdb_chart_item it[16], sub[3], proc;
	struct pdb_attr p[] = { { "process", "jq" }, { "rate", "100" } };
	int colors[16], one[3], pc;
	size_t n;
	(void)state;

	pdb_run_result_with_dims(run, "pipe", p, 2, "cpu", "%");
	n = stream_items(run, 2, stages, 3, it);
	proc = (struct pdb_chart_item){ run, &run->results[0], 0 };
	pdb_chart_stage_colors(&run, 1, it, 4, colors);
	assert_int_equal(colors[0], 0); /* send_delay: no stage */
	/* names sorted: jq, rsyslog, sqlite */
	assert_int_equal(colors[1], 2);
	assert_int_equal(colors[2], 1);
	assert_int_equal(colors[3], 3);
	/* the second rate's panel, listed in another order */
	sub[0] = it[7];
	sub[1] = it[5];
	sub[2] = it[6];
	pdb_chart_stage_colors(&run, 1, sub, 3, one);
	assert_int_equal(one[0], 3);
	assert_int_equal(one[1], 2);
	assert_int_equal(one[2], 1);
	pdb_chart_stage_colors(&run, 1, &proc, 1, &pc);
	assert_int_equal(pc, 1); /* process jq: the stage jq's colour */
	/* one stage at two rates in a panel: in order */
	sub[0] = it[2];
	sub[1] = it[6];
	pdb_chart_stage_colors(&run, 1, sub, 2, one);
	assert_int_equal(one[0], 0);
	assert_int_equal(one[1], 1);
	(void)n;
	pdb_run_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_stage_colors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
