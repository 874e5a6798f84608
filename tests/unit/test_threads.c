/* Unit tests: what the site's page threads run, on several threads at once
 * (also built under ThreadSanitizer: make check-build-tsan). */
#include <ftw.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "chart/kinds.h"
#include "chart/layout.h"
#include "chart/render.h"
#include "compare.h"
#include "detect.h"
#include "gather/chart_gather.h"
#include "gather/compare_gather.h"
#include "model.h"
#include "site/site.h"
#include "store/store.h"
#include "svg_inline.h"
#include "util.h"

#if defined(__SANITIZE_THREAD__)
/* cairo is not built with ThreadSanitizer: its glyph and path caches,
 * guarded by its own locks and atomics, read as races between the copies
 * it makes (seen once in a clean-clone make check, inside libcairo's
 * memcpy and memcmp). perfdb's own code stays watched. */
const char *__tsan_default_suppressions(void);
const char *__tsan_default_suppressions(void)
{
	return "called_from_lib:libcairo.so.2\n";
}
#endif

#define THREADS 4
#define RUNS 12
#define BENCHES 4
#define SAMPLES 9

static char db_path[64];
static int64_t run_ids[RUNS];

/* splitmix64: the same numbers on every machine. */
static double uniform(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

/* RUNS runs of branch main, BENCHES benchmarks of SAMPLES times each,
 * rounded so that the rank tests meet ties; b0 and b1 20 % slower from
 * run 8 on, so that detect finds change points and compare regressions. */
static int setup(void **state)
{
	struct pdb_store *store;
	struct pdb_err err;
	uint64_t rng = 42;
	int fd;

	(void)state;
	snprintf(db_path, sizeof db_path, "/tmp/perfdb-threads-XXXXXX");
	if ((fd = mkstemp(db_path)) < 0)
		return -1;
	close(fd);
	unlink(db_path);
	if (!(store = pdb_store_open(db_path, &err)))
		return -1;
	for (int k = 0; k < RUNS; k++) {
		struct pdb_run *run = pdb_run_new();
		pdb_set_str(&run->tool, "test");
		pdb_set_str(&run->format, "test");
		pdb_run_set_attr(run, "branch", "main");
		for (int b = 0; b < BENCHES; b++) {
			char name[16];
			struct pdb_result *r;
			snprintf(name, sizeof name, "b%d", b);
			r = pdb_run_add_result(run, name, "time", "ms");
			for (int i = 0; i < SAMPLES; i++) {
				double v = (10 + b) * (1 + 0.05 * uniform(&rng)) *
					   (b < 2 && k >= 8 ? 1.2 : 1);
				pdb_result_add_raw(r, round(v * 10) / 10);
			}
		}
		if (pdb_store_insert_run(store, run, 1, &err) < 0)
			return -1;
		run_ids[k] = run->id;
		pdb_run_free(run);
	}
	pdb_store_close(store);
	return 0;
}

static int teardown(void **state)
{
	char path[80];

	(void)state;
	unlink(db_path);
	snprintf(path, sizeof path, "%s-wal", db_path);
	unlink(path);
	snprintf(path, sizeof path, "%s-shm", db_path);
	unlink(path);
	return 0;
}

/* FNV-1a of n bytes, from h. */
static uint64_t hash(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * UINT64_C(1099511628211);
	return h;
}

/* A chart as the site inlines it, hashed into h. */
static uint64_t hash_chart(uint64_t h, const struct pdb_chart *c)
{
	struct pdb_chart_layout *layout = pdb_chart_layout(c);
	struct pdb_buf svg;
	struct pdb_err err;
	char *inl;

	pdb_buf_init(&svg);
	assert_int_equal(pdb_chart_render_svg(c, layout, &svg, &err), 0);
	inl = pdb_report_inline_svg(svg.data, "c0");
	h = hash(h, inl, strlen(inl));
	free(inl);
	pdb_buf_release(&svg);
	pdb_chart_layout_free(layout);
	return h;
}

/* What a page thread could run: comparisons (one run a side, and groups of
 * four), their charts, the history chart (detect run inside) and detect of
 * a long series; every verdict, p, interval and drawn byte hashed. */
static uint64_t work(void)
{
	struct pdb_store *store;
	struct pdb_plot_opts plot = { .width = 640, .height = 360, .theme = PDB_THEME_LIGHT };
	struct pdb_compare_opts opts;
	struct pdb_detect_opts dopts;
	struct pdb_detect_result res;
	struct pdb_chart *c;
	struct pdb_history_model model;
	struct pdb_err err;
	uint64_t h = UINT64_C(14695981039346656037), rng = 7;
	double x[600];

	assert_non_null(store = pdb_store_open_existing(db_path, &err));
	pdb_compare_opts_init(&opts);
	for (int k = 0; k < RUNS - 1; k += 2) {
		const int64_t *base = &run_ids[k], *cand = &run_ids[RUNS - 1];
		size_t nbase = 1, ncand = 1;
		struct pdb_compare cmp;
		if (k >= RUNS - 4) { /* the groups: four runs before the step, four after */
			base = &run_ids[2];
			cand = &run_ids[8];
			nbase = ncand = 4;
		}
		assert_int_equal(pdb_compare_run_groups(store, base, nbase, cand, ncand, &opts,
							&cmp, &err), 0);
		assert_int_equal(cmp.nrows, BENCHES);
		if (k >= 8)
			assert_int_equal(cmp.counts[PDB_VERDICT_REGRESSION], 2);
		for (size_t i = 0; i < cmp.nrows; i++) {
			const struct pdb_compare_row *r = &cmp.rows[i];
			h = hash(h, &r->verdict, sizeof r->verdict);
			h = hash(h, &r->p_value, sizeof r->p_value);
			h = hash(h, &r->ci_low_pct, sizeof r->ci_low_pct);
			h = hash(h, &r->ci_high_pct, sizeof r->ci_high_pct);
		}
		assert_non_null(c = pdb_compare_chart(&cmp, 20, &plot));
		h = hash_chart(h, c);
		pdb_chart_free(c);
		pdb_compare_release(&cmp);
	}
	assert_int_equal(pdb_gather_history(store, NULL, 0, &plot, &model, &err), 0);
	assert_non_null(c = pdb_history_chart(&model, &plot, &err));
	pdb_gather_history_release(&model);
	h = hash_chart(h, c);
	pdb_chart_free(c);
	for (size_t i = 0; i < sizeof x / sizeof *x; i++)
		x[i] = (i < 300 ? 1 : 1.1) + 0.05 * uniform(&rng);
	pdb_detect_opts_init(&dopts);
	assert_int_equal(pdb_detect(x, sizeof x / sizeof *x, &dopts, NULL, NULL, &res, &err), 0);
	assert_int_equal(res.ncps, 1);
	for (size_t i = 0; i < res.ncps; i++) {
		h = hash(h, &res.cps[i].index, sizeof res.cps[i].index);
		h = hash(h, &res.cps[i].p_value, sizeof res.cps[i].p_value);
	}
	pdb_detect_result_release(&res);
	pdb_store_close(store);
	return h;
}

static void *worker(void *arg)
{
	*(uint64_t *)arg = work();
	return NULL;
}

/* The same answers on THREADS threads at once as on one. */
static void test_compare_detect_charts(void **state)
{
	pthread_t t[THREADS];
	uint64_t got[THREADS], want;

	(void)state;
	want = work();
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, worker, &got[i]), 0);
	for (int i = 0; i < THREADS; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_true(got[i] == want);
	}
}

/* Hash the file at path into h. */
static uint64_t hash_file(uint64_t h, const char *path)
{
	FILE *f = fopen(path, "rb");
	char buf[4096];
	size_t n;

	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		h = hash(h, buf, n);
	fclose(f);
	return h;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The site's own page threads: its pages are the same bytes with THREADS
 * threads as with one. */
static void test_site_pages(void **state)
{
	char dir[2][64];
	uint64_t h[2] = { 0, 0 };

	(void)state;
	for (int j = 0; j < 2; j++) {
		struct pdb_store *store;
		struct pdb_site_opts opts = { .jobs = j ? THREADS : 1 };
		struct pdb_site_stats st;
		struct pdb_err err;

		snprintf(dir[j], sizeof dir[j], "/tmp/perfdb-threads-site-XXXXXX");
		assert_non_null(mkdtemp(dir[j]));
		opts.outdir = dir[j];
		assert_non_null(store = pdb_store_open_existing(db_path, &err));
		assert_int_equal(pdb_site_write(store, &opts, &st, &err), 0);
		assert_int_equal(st.benchmarks, BENCHES);
		for (int b = 0; b < BENCHES; b++) {
			char *path = pdb_xasprintf("%s/b/b%d.html", dir[j], b);
			h[j] = hash_file(h[j], path);
			free(path);
		}
		pdb_site_stats_release(&st);
		pdb_store_close(store);
		nftw(dir[j], remove_one, 8, FTW_DEPTH | FTW_PHYS);
	}
	assert_true(h[0] == h[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_detect_charts),
		cmocka_unit_test(test_site_pages),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
