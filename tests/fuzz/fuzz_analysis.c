/* Fuzz target: analysis past the parsers. The input is runs (fuzz_runs.h:
 * names, dims, metrics, units, values such as NaN, inf, 0, -0, 1e308, and
 * a history of a branch), stored in a fresh SQLite file; then compare and
 * every renderer of it in lib/, detect (the last run appended to a cached
 * split must give what a full split gives), the tables of each run, the
 * history, latency, scaling and compare charts drawn to SVG in memory, and
 * the site. The input's first byte past the run count picks compare's
 * options (bits 3-7). Last, one run of the history gets the input's bytes
 * as its stored run values (a blob of schema 10, after its format byte) and
 * the last two runs are compared again: read or refused, never a crash. */
#include <ftw.h>
#include <unistd.h>

#include "chart/kinds.h"
#include "chart/layout.h"
#include "chart/render.h"
#include "compare.h"
#include "compare_render.h"
#include "compare_text.h"
#include "detect.h"
#include "gather/detect_gather.h"
#include "fuzz_common.h"
#include "fuzz_runs.h"
#include "gather/chart_gather.h"
#include "gather/compare_gather.h"
#include "json_out.h"
#include "site/site.h"
#include "store/store.h"
#include "store/store_internal.h"
#include "table.h"

static char db_path[4096], site_dir[4096];
static char *template_db; /* a fresh store's bytes: copied, not migrated, per input */
static size_t template_len;

static void remove_db(void)
{
	char path[4200];

	unlink(db_path);
	snprintf(path, sizeof path, "%s-wal", db_path);
	unlink(path);
	snprintf(path, sizeof path, "%s-shm", db_path);
	unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct pdb_store *store;
	struct pdb_err err;
	FILE *f;

	(void)argc;
	(void)argv;
	fuzz_tmpfile(db_path, ".db");
	remove_db();
	if (!(store = pdb_store_open(db_path, &err)))
		abort();
	pdb_store_close(store);
	if (!(f = fopen(db_path, "rb")) || fseek(f, 0, SEEK_END) != 0)
		abort();
	template_len = (size_t)ftell(f);
	template_db = pdb_xmalloc(template_len);
	rewind(f);
	if (fread(template_db, 1, template_len, f) != template_len)
		abort();
	fclose(f);
	fuzz_tmpfile(site_dir, "");
	unlink(site_dir);
	return 0;
}

static void draw(struct pdb_chart *c)
{
	struct pdb_chart_layout *layout;
	struct pdb_buf b;
	struct pdb_err err;

	if (!c)
		return;
	layout = pdb_chart_layout(c);
	pdb_buf_init(&b);
	pdb_chart_layout_text(c, layout, &b);
	pdb_chart_render_svg(c, layout, &b, &err);
	pdb_buf_release(&b);
	pdb_chart_layout_free(layout);
	pdb_chart_free(c);
}

/* Every renderer of a comparison in lib/, in every format, and its chart. */
static void render_compare(const struct pdb_compare *c, const struct pdb_compare_opts *opts,
			   int all)
{
	static const int fmts[] = { PDB_RENDER_TEXT, PDB_RENDER_MARKDOWN, PDB_RENDER_HTML,
				    PDB_RENDER_PLAIN };
	struct pdb_plot_opts plot = { .width = 640, .height = 360 };
	struct pdb_compare_table t;
	struct pdb_buf b;
	char text[256];

	pdb_buf_init(&b);
	for (size_t f = 0; f < sizeof fmts / sizeof *fmts; f++) {
		pdb_compare_headline(c, PDB_FAIL_ON_DEFAULT, opts, fmts[f], &b);
		pdb_compare_runs_label(c->base, c->nbase, fmts[f], &b);
		pdb_compare_runs_label(c->cand, c->ncand, fmts[f], &b);
		pdb_compare_table_all(c, fmts[f], all, &b);
	}
	pdb_compare_table_begin(&t, PDB_RENDER_TEXT, 1, &b);
	for (size_t i = 0; i < c->nrows; i++) {
		struct pdb_compare_cells cells;
		pdb_compare_table_row(&t, &c->rows[i]);
		pdb_compare_row_cells(&c->rows[i], &cells);
	}
	pdb_compare_table_end(&t);
	pdb_compare_counts_text(c, &b);
	pdb_compare_tests_note(c, &b);
	pdb_compare_fail_on_text(PDB_FAIL_ON_DEFAULT, text, sizeof text);
	pdb_compare_outcome_status(pdb_compare_outcome(c, PDB_FAIL_ON_DEFAULT));
	pdb_buf_release(&b);
	draw(pdb_compare_chart(c, 30, &plot));
}

static void compare(struct pdb_store *store, const int64_t *base, size_t nbase,
		    const int64_t *cand, size_t ncand, uint8_t how)
{
	struct pdb_compare_config cfg;
	struct pdb_compare_opts opts;
	struct pdb_compare c;
	struct pdb_err err;

	pdb_compare_config_init(&cfg);
	pdb_compare_opts_init(&opts);
	opts.holm = how & 8;
	if (how & 16)
		opts.alpha = 0.2;
	if (how & 32)
		opts.threshold_pct = 0.5;
	if (how & 64) {
		cfg.run_noise_pct = 0;
		opts.config = &cfg;
	}
	if (pdb_compare_run_groups(store, base, nbase, cand, ncand, &opts, &c, &err) == 0)
		render_compare(&c, &opts, how & 128);
	pdb_compare_release(&c);
}

/* detect of every series as `perfdb detect` does it (the cache read and
 * saved); with keep, the change points of each (for check). */
static void detect(struct pdb_store *store, int use_cache, struct pdb_detect_result *keep,
		   size_t *nkeep)
{
	struct pdb_series *series = NULL;
	struct pdb_detect_opts o;
	struct pdb_err err;
	size_t n = 0;
	char *params, *selection;

	pdb_detect_opts_init(&o);
	params = pdb_detect_params(&o, 0, NULL);
	selection = pdb_store_detect_selection(0, NULL);
	if (pdb_store_begin_read(store, &err) == 0 &&
	    pdb_store_list_series(store, NULL, NULL, &series, &n, &err) == 0) {
		struct pdb_detect_values *v = pdb_xcalloc(n + 1, sizeof *v);
		struct pdb_detect_state *st = pdb_xcalloc(n + 1, sizeof *st);
		struct pdb_detect_cache_entry *e = pdb_xcalloc(n + 1, sizeof *e);
		const char *note;
		size_t done = 0;
		for (; done < n; done++) {
			struct pdb_detect_result res = { 0 };
			o.direction = series[done].direction;
			if (pdb_store_detect_values(store, series[done].id, NULL, 0, selection,
						    use_cache, &v[done], &err) < 0 ||
			    pdb_detect_resumed(store, series[done].id, params, use_cache,
					       v[done].v.values, v[done].v.n, &o, &st[done], &res,
					       &err) < 0)
				break;
			e[done] = (struct pdb_detect_cache_entry){ series[done].id, &st[done], &v[done] };
			if (keep)
				keep[done] = res;
			else
				pdb_detect_result_release(&res);
		}
		if (keep)
			*nkeep = done;
		if (done == n)
			pdb_detect_cache_save(store, params, selection, e, n, &note, &err);
		else
			pdb_store_rollback(store);
		for (size_t i = 0; i < n; i++) {
			pdb_series_values_release(&v[i].v);
			pdb_detect_state_release(&st[i]);
		}
		free(v);
		free(st);
		free(e);
	}
	pdb_series_free(series, n);
	free(params);
	free(selection);
}

/* A split resumed from the cache gives what a full one gives (detect.h). */
static void check_detect(struct pdb_store *store)
{
	struct pdb_detect_result cached[FUZZ_RUNS_MAX * FUZZ_RESULTS_MAX + 1] = { 0 };
	struct pdb_detect_result full[FUZZ_RUNS_MAX * FUZZ_RESULTS_MAX + 1] = { 0 };
	size_t ncached = 0, nfull = 0;

	detect(store, 1, cached, &ncached);
	detect(store, 0, full, &nfull);
	if (ncached != nfull)
		abort();
	for (size_t i = 0; i < nfull; i++) {
		if (cached[i].ncps != full[i].ncps || cached[i].noutliers != full[i].noutliers)
			abort();
		for (size_t k = 0; k < full[i].ncps; k++)
			if (cached[i].cps[k].index != full[i].cps[k].index)
				abort();
		pdb_detect_result_release(&cached[i]);
		pdb_detect_result_release(&full[i]);
	}
}

static void render_table(struct pdb_table *t)
{
	static const int fmts[] = { PDB_TABLE_TEXT, PDB_TABLE_MARKDOWN, PDB_TABLE_CSV,
				    PDB_TABLE_HTML };
	struct pdb_buf b;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	json_t *j;

	pdb_buf_init(&b);
	for (size_t i = 0; i < sizeof fmts / sizeof *fmts; i++)
		pdb_table_render(t, fmts[i], &b);
	pdb_buf_release(&b);
	j = pdb_table_json(t);
	if ((f = open_memstream(&text, &len))) {
		pdb_json_write(f, j, 2);
		fclose(f);
	}
	free(text);
	json_decref(j);
}

/* The tables of each benchmark of run: by matrix point, and as `perfdb
 * table` builds them with percentiles, means and a speed-up of its metric. */
static void tables(const struct pdb_run *run)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		struct pdb_table t = { 0 }, *points = NULL;
		struct pdb_err err;
		size_t npoints = 0;
		char *cols;
		struct pdb_table_spec spec = { .benchmark = r->benchmark,
					       .rows = r->ndims ? r->dims[0].key : "x" };

		for (int cells = PDB_CELLS_VALUE; cells <= PDB_CELLS_MEAN; cells++) {
			if (pdb_table_by_point(run, r->benchmark, cells, 1, &points, &npoints, &err) == 0)
				for (size_t k = 0; k < npoints; k++)
					render_table(&points[k]); /* as the site and the report draw it */
			pdb_tables_release(points, npoints);
		}
		cols = pdb_xasprintf("%s,%s:p99,%s:mean,%s:stddev,%s:count,speedup", r->metric,
				     r->metric, r->metric, r->metric, r->metric);
		spec.cols = cols;
		if (pdb_table_build(run, &spec, &t, &err) == 0)
			render_table(&t);
		pdb_table_release(&t);
		free(cols);
	}
}

static void charts(struct pdb_store *store, const int64_t *ids, size_t n)
{
	struct pdb_plot_opts plot = { .width = 640, .height = 360 };
	char *sel[FUZZ_RUNS_MAX];
	struct pdb_scaling s = { 0 };
	struct pdb_history_model m;
	struct pdb_run **runs;
	struct pdb_err err;

	for (size_t k = 0; k < n; k++)
		sel[k] = pdb_xasprintf("%lld", (long long)ids[k]);
	if (pdb_gather_history(store, NULL, 0, &plot, &m, &err) == 0)
		draw(pdb_history_chart(&m, &plot, &err));
	pdb_gather_history_release(&m);
	if (pdb_gather_runs(store, (const char *const *)sel, n, &runs, &err) == 0) {
		draw(pdb_latency_chart(runs + n - 1, 1, &plot, &err));
		draw(pdb_latency_chart(runs, n, &plot, &err));
		if (pdb_scaling_of(runs, n, &plot, &s, &err) == 0)
			draw(pdb_scaling_chart(&s, NULL, &plot));
		pdb_scaling_release(&s);
		pdb_gather_runs_free(runs, n);
	}
	for (size_t k = 0; k < n; k++)
		free(sel[k]);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void site(struct pdb_store *store)
{
	struct pdb_site_opts opts = { .outdir = site_dir, .jobs = 1 };
	struct pdb_site_stats st;
	struct pdb_err err;

	pdb_site_write(store, &opts, &st, &err);
	pdb_site_stats_release(&st);
	nftw(site_dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* Run run_id's stored values become the format byte and data. */
static void hostile_run_values(struct pdb_store *store, int64_t run_id, const uint8_t *data,
			       size_t size)
{
	struct pdb_err err;
	sqlite3_stmt *st = pdb_store_prepare(store,
		"UPDATE run_values SET vals = ?2 WHERE run_id = ?1", &err);
	unsigned char *blob = pdb_xmalloc(size + 1);

	if (!st)
		abort();
	blob[0] = 1;
	memcpy(blob + 1, data, size);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_blob64(st, 2, blob, size + 1, free);
	if (sqlite3_step(st) != SQLITE_DONE)
		abort();
	sqlite3_finalize(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pdb_run *runs[FUZZ_RUNS_MAX];
	int64_t ids[FUZZ_RUNS_MAX];
	struct pdb_store *store;
	struct pdb_err err;
	size_t n = fuzz_runs_decode(data, size, runs), half = n / 2;
	uint8_t how = size ? data[0] : 0;

	remove_db();
	fuzz_write(db_path, (const uint8_t *)template_db, template_len);
	if (!(store = pdb_store_open(db_path, &err)))
		abort();
	/* the history first, its split cached; then the last run */
	if (pdb_store_insert_runs(store, runs, n - 1, 1, NULL, &err) < 0)
		goto out;
	detect(store, 1, NULL, NULL);
	if (pdb_store_insert_run(store, runs[n - 1], 1, &err) < 0)
		goto out;
	for (size_t k = 0; k < n; k++)
		ids[k] = runs[k]->id;
	check_detect(store);
	compare(store, &ids[0], 1, &ids[n - 1], 1, how);
	if (n >= 2)
		compare(store, &ids[n - 2], 1, &ids[n - 1], 1, how);
	if (half >= 2)
		compare(store, ids, half, ids + half, n - half, how);
	for (size_t k = 0; k < n; k++) {
		struct pdb_run *run = pdb_store_load_run(store, ids[k], &err);
		if (run)
			tables(run);
		pdb_run_free(run);
	}
	charts(store, ids, n);
	site(store);
	if (n >= 3) {
		hostile_run_values(store, ids[n - 3], data, size);
		compare(store, &ids[n - 2], 1, &ids[n - 1], 1, how);
	}
out:
	pdb_store_close(store);
	for (size_t k = 0; k < n; k++)
		pdb_run_free(runs[k]);
	return 0;
}
