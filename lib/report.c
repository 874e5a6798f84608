/* Report: a baseline and a candidate run as a page for release notes (Markdown, HTML, charts). */
#include "report_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "branches.h"
#include "gather/compare_gather.h"
#include "store/store_report.h"

void pdb_report_files_release(struct pdb_report_files *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->paths[i]);
	free(f->paths);
	for (size_t i = 0; i < f->nnotes; i++)
		free(f->notes[i]);
	free(f->notes);
	memset(f, 0, sizeof *f);
}

char *pdb_report_history_where(const struct pdb_run *cand, const char *where)
{
	const char *branch = pdb_run_get_attr(cand, "branch");

	if (where)
		return pdb_xstrdup(where);
	return branch ? pdb_xasprintf("branch=%s", branch) : NULL;
}

/* The history the baseline rule reads: every run, oldest first. */
struct baseline_ctx {
	struct pdb_store *store;
	const struct pdb_run_row *rows;  /* newest first */
	size_t nrows;
	int filtered;                    /* 0: every run is eligible, 1: those in ids */
	const int64_t *ids;              /* sorted */
	size_t nids;
	struct pdb_err *err;
};

static const struct pdb_run_row *baseline_row(void *ctx, size_t i)
{
	const struct baseline_ctx *b = ctx;

	return &b->rows[b->nrows - 1 - i];
}

static int baseline_eligible(void *ctx, size_t i)
{
	const struct baseline_ctx *b = ctx;

	return !b->filtered || (b->nids && bsearch(&baseline_row(ctx, i)->id, b->ids, b->nids,
						   sizeof *b->ids, pdb_cmp_int64));
}

static int baseline_shares(void *ctx, size_t a, size_t c)
{
	const struct baseline_ctx *b = ctx;

	return pdb_store_runs_share(b->store, baseline_row(ctx, a)->id, baseline_row(ctx, c)->id,
				    b->err);
}

int pdb_report_default_baseline(struct pdb_store *store, int64_t cand, const char *where,
				int64_t *base, struct pdb_err *err)
{
	struct pdb_run_filter all = { 0 };
	struct pdb_run *run = NULL;
	struct pdb_run_row *rows = NULL;
	int64_t *ids = NULL;
	size_t nrows = 0, nids = 0, at, found = 0;
	struct baseline_ctx ctx = { store, NULL, 0, where != NULL, NULL, 0, err };
	struct pdb_baseline_history h = { 0, baseline_row, baseline_eligible, baseline_shares, &ctx };
	int rc = -1;

	*base = 0;
	if (!(run = pdb_store_load_run(store, cand, err)) || /* a corrupt candidate says so first */
	    pdb_store_list_runs(store, &all, &rows, &nrows, err) < 0 ||
	    (where && pdb_store_run_ids(store, where, &ids, &nids, err) < 0))
		goto out;
	if (nids)
		qsort(ids, nids, sizeof *ids, pdb_cmp_int64);
	ctx.rows = rows;
	ctx.nrows = h.n = nrows;
	ctx.ids = ids;
	ctx.nids = nids;
	for (at = 0; at < nrows && baseline_row(&ctx, at)->id != cand; at++)
		;
	if (at < nrows) {
		int got = pdb_baseline_index(&h, at, &found);
		if (got < 0)
			goto out;
		if (got == 1)
			*base = baseline_row(&ctx, found)->id;
	}
	rc = 0;
out:
	pdb_run_free(run);
	free(ids);
	pdb_run_rows_free(rows, nrows);
	return rc;
}

/* The template text: DIR/NAME, or the built-in one. *source names it for
 * errors. Caller frees the text. */
static char *load_template(const char *dir, const char *name, char **source,
			   struct pdb_err *err)
{
	struct pdb_buf b;
	FILE *f;
	char chunk[8192];
	size_t n;

	if (!dir) {
		for (size_t i = 0; pdb_report_templates[i].name; i++)
			if (strcmp(pdb_report_templates[i].name, name) == 0) {
				*source = pdb_xasprintf("reports/%s", name);
				return pdb_xstrdup(pdb_report_templates[i].text);
			}
		pdb_err_set(err, PDB_EXIT_RUNTIME, "no built-in template %s", name);
		return NULL;
	}
	*source = pdb_xasprintf("%s/%s", dir, name);
	if (!(f = fopen(*source, "rb"))) {
		pdb_err_set(err, PDB_EXIT_INPUT, "%s: %s", *source, strerror(errno));
		return NULL;
	}
	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		pdb_buf_add(&b, chunk, n);
	if (ferror(f) || memchr(b.data, '\0', b.len)) {
		pdb_err_set(err, PDB_EXIT_INPUT, "%s: %s", *source,
			    ferror(f) ? "read error" : "not a text file");
		pdb_buf_release(&b);
	}
	fclose(f);
	return b.data;
}

/* path written by the rule of atomic_file.h: whole or not at all when a file. */
static int write_text(const char *path, const struct pdb_buf *text, struct pdb_err *err)
{
	struct pdb_atomic a;
	FILE *f;
	int ok;

	if (pdb_atomic_begin(path, PDB_OUT_OWN, &a, err) < 0)
		return -1;
	if (!(f = fopen(a.name, "wb"))) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", path, strerror(errno));
		return pdb_atomic_end(&a, 0, err);
	}
	ok = fwrite(text->data, 1, text->len, f) == text->len;
	ok = fclose(f) == 0 && ok;
	if (!ok)
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", path, strerror(errno ? errno : EIO));
	return pdb_atomic_end(&a, ok, err);
}

/* Fill the template of one format and write DIR/index.EXT. */
static int write_page(const struct report *r, const struct pdb_report_opts *opts, int html,
		      struct pdb_report_files *files, struct pdb_err *err)
{
	const char *name = html ? "report.html.tmpl" : "report.md.tmpl";
	char *source = NULL, *tmpl = load_template(opts->templates_dir, name, &source, err);
	char *path = pdb_xasprintf("%s/index.%s", opts->outdir, html ? "html" : "md");
	struct pdb_buf page;
	int rc = -1;

	pdb_buf_init(&page);
	if (!tmpl || pdb_report_fill(r, html, tmpl, source, &page, err) < 0 ||
	    write_text(path, &page, err) < 0)
		goto out;
	files->paths = pdb_xrealloc(files->paths, (files->n + 1) * sizeof *files->paths);
	files->paths[files->n++] = path;
	path = NULL;
	rc = 0;
out:
	pdb_buf_release(&page);
	free(source);
	free(tmpl);
	free(path);
	return rc;
}

/* "Performance report: cand-name (run43) against base (run42)", or of
 * cand alone. */
static char *default_title(const struct pdb_run *base, const struct pdb_run *cand)
{
	char *b = !base ? NULL : base->name ? pdb_xstrdup(base->name)
		: pdb_xasprintf("run%lld", (long long)base->id);
	char *c = cand->name ? pdb_xstrdup(cand->name) : pdb_xasprintf("run%lld", (long long)cand->id);
	char *t = b ? pdb_xasprintf("Performance report: %s against %s", c, b)
		    : pdb_xasprintf("Performance report: %s", c);

	free(b);
	free(c);
	return t;
}

int pdb_report_write(struct pdb_store *store, int64_t base, int64_t cand,
		     const struct pdb_report_opts *opts, struct pdb_report_files *files,
		     struct pdb_err *err)
{
	struct report r = { 0 };
	char *title = NULL;
	int rc = -1;

	memset(files, 0, sizeof *files);
	pdb_compare_opts_init(&r.opts);
	r.opts.config = opts->config;
	if ((base && !(r.base = pdb_store_load_run(store, base, err))) ||
	    !(r.cand = pdb_store_load_run(store, cand, err)) ||
	    (base && pdb_compare_run_groups(store, &base, 1, &cand, 1, &r.opts, &r.cmp, err) < 0) ||
	    pdb_make_dir(opts->outdir, PDB_OUT_GIVEN, NULL, err) < 0)
		goto out;
	r.where = pdb_report_history_where(r.cand, opts->where);
	title = opts->title ? pdb_xstrdup(opts->title) : default_title(r.base, r.cand);
	r.title = title;
	files->regression = pdb_compare_failed(&r.cmp, PDB_FAIL_ON_DEFAULT);
	if (pdb_report_charts(store, &r, opts->outdir, files, err) < 0 ||
	    ((opts->formats & PDB_REPORT_MARKDOWN) && write_page(&r, opts, 0, files, err) < 0) ||
	    ((opts->formats & PDB_REPORT_HTML) && write_page(&r, opts, 1, files, err) < 0))
		goto out;
	rc = 0;
out:
	for (size_t i = 0; i < r.nhist; i++)
		pdb_report_history_release(&r.hist[i]);
	free(r.hist);
	pdb_report_chart_release(&r.compare_chart);
	pdb_report_chart_release(&r.scaling_chart);
	for (size_t i = 0; i < r.nlatency; i++)
		pdb_report_chart_release(&r.latency[i]);
	free(r.latency);
	if (r.has_scaling)
		pdb_scaling_release(&r.scaling);
	pdb_compare_release(&r.cmp);
	pdb_run_free(r.base);
	pdb_run_free(r.cand);
	free(r.where);
	free(title);
	return rc;
}
