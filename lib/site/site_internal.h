/* Site internals shared by the lib/site files: what was gathered from the store. */
#ifndef PDB_SITE_INTERNAL_H
#define PDB_SITE_INTERNAL_H

#include <stdint.h>

#include "branches.h"
#include "detect.h"
#include "site/site.h"
#include "util.h"

/* Bump when the pages change, so that a rerun rewrites them all. */
#define SITE_FORMAT 2
/* The file in the output folder that says what each page was built from. */
#define SITE_MANIFEST "perfdb-site.manifest"
/* A change point this many runs from the end of its series is recent. */
#define SITE_RECENT 20

/* What needs attention, in sort order: failing now (in the newest run of
 * its branch that ran it), a recent regression, another recent change
 * point, nothing. */
enum site_attention { ATT_FAILED, ATT_REGRESSION, ATT_CHANGE, ATT_NONE };

struct site_bench;

/* A benchmark (with dims) that failed in a selected run. */
struct site_failure {
	const struct pdb_failure_row *row;
	char *dims;                       /* "k=v,k=v", "" when none */
	const struct site_bench *bench;   /* its page, or NULL */
	int64_t since;                    /* when it fails now (no later run of its branch ran
					   * the benchmark): the first run of its failures on the
					   * branch since it last had a value; else 0 */
	int since_open;                   /* that run is the site's first (--since): it may
					   * have failed before */
};

struct site_series {
	const struct pdb_series *s;
	char *dims;                       /* "k=v,k=v", "" when none */
	struct pdb_history_point *pts;    /* the points with a value, in run order */
	size_t n;
	struct pdb_detect_result res;
	size_t bench;                     /* its benchmark (site->benches) */
	int attention;                    /* enum site_attention */
	int changed;                      /* what its change points alone call for:
					   * ATT_REGRESSION, ATT_CHANGE or ATT_NONE */
	const struct site_failure *failing; /* what fails now of its benchmark and dims, or NULL */
	uint64_t key;                     /* hash of its values, runs and change points */
};

struct site_bench {
	char *name, *group;               /* group: the prefix before the first '/', "" when none */
	char *file;                       /* "b/NAME.html" */
	size_t *series;                   /* indices into site->series, in sort order */
	size_t n;
	int attention;                    /* the most urgent of its series */
	int group_attention;              /* the most urgent of its group */
	size_t nfailed;                   /* failures of it in the selected runs */
	uint64_t failed_key;              /* hash of them */
};

/* A value of a run: the k-th point of a series. */
struct site_value {
	size_t series, k;
};

struct site_run {
	const struct pdb_run_row *row;
	int64_t prev;                     /* the run it is compared with (newest before it with a
					   * series in common: on its branch, else on any); 0: none */
	int newest;                       /* the newest run of its branch (of those without one) */
	struct site_value *values;        /* in series order */
	size_t nvalues;
	size_t fail, nfail;               /* its failures: site->failures[fail, fail + nfail) */
	uint64_t key;                     /* hash of the run's values and what it compares with */
	uint64_t shown;                   /* hash of what other pages show of it (name, attributes) */
	char *file;                       /* "r/run42.html" */
};

/* A branch of the runs, for the site that shows one of several. */
struct site {
	struct pdb_store *store;
	const struct pdb_site_opts *opts;
	char *where;                      /* the runs shown: opts->where, else branch=NAME when
					   * the runs have several branches, else NULL */
	struct pdb_branch *branches;     /* when where names the branch chosen: every branch,
					   * the one shown first */
	size_t nbranches;
	const char *title;
	int64_t since_id;
	int64_t since_seq;                /* its place in the order of runs (0: none) */
	struct pdb_run_row *rows;         /* every run, newest first */
	size_t nrows;
	struct site_run *runs;            /* the selected runs, in the order of runs (store.h) */
	size_t nruns;
	size_t *by_id;                    /* runs[by_id[0..nruns)]: ascending id */
	int branches_mixed;               /* the selected runs are of several branches */
	struct pdb_failure_row *frows;    /* the failures of runs from since_id on */
	size_t nfrows;
	struct site_failure *failures;    /* those of the selected runs, by run */
	size_t nfailures;
	const struct site_failure **failing; /* of them, those that fail now, by run */
	size_t nfailing;
	struct pdb_series *all;           /* every series */
	size_t nall;
	struct site_series *series;       /* those with values in the selected runs, sorted */
	size_t nseries;
	int bounds;                       /* 1: some results have the tool's bounds */
	char *params;                     /* the detect cache's key */
	struct pdb_detect_state *states;  /* its new states, saved once everything is read */
	struct pdb_detect_cache_entry *entries;
	size_t nentries;
	struct site_bench *benches;       /* by their group's attention, group, attention, name */
	size_t nbenches;
	struct pdb_site_stats *stats;
};

/* gather.c: read the runs and series, detect change points, sort. */
int site_gather(struct site *s, struct pdb_err *err);
void site_release(struct site *s);

/* lookup.c: what the pages ask of what was read, and the pages' hashes. */
/* The run of id, or NULL. */
const struct site_run *site_find_run(const struct site *s, int64_t id);
/* The point of series ss in run (its points are in the order of runs), or NULL. */
const struct pdb_history_point *site_point_at(const struct site_series *ss,
					      const struct site_run *run);
/* The failure of benchmark (with dims as series.dims) in run, or NULL. */
const struct site_failure *site_failure_in(const struct site *s, const struct site_run *run,
					   const char *benchmark, const char *dims);
/* Whether series ss has a value from a run written by tool (pdb_same_tool). */
int site_series_of_tool(const struct site *s, const struct site_series *ss, const char *tool);
/* The failure of ss's benchmark and dims in run when ss has values of
 * run's tool (a failure speaks for its own tool's values only), or NULL. */
const struct site_failure *site_series_failed_in(const struct site *s, const struct site_series *ss,
						 const struct site_run *run);

/* FNV-1a 64 of n bytes, continuing from h (start from SITE_HASH_START). */
#define SITE_HASH_START 14695981039346656037ULL
uint64_t site_hash(uint64_t h, const void *p, size_t n);
uint64_t site_hash_str(uint64_t h, const char *s);

/* manifest.c: what each page was built from. */
struct site_manifest {
	char **paths;
	uint64_t *keys;
	size_t n;
};
/* Read DIR/perfdb-site.manifest; a missing file is an empty manifest. */
int site_manifest_read(const char *dir, struct site_manifest *m, struct pdb_err *err);
/* Write m (sorted) as DIR/perfdb-site.manifest. */
int site_manifest_write(const char *dir, const struct site_manifest *m, struct pdb_err *err);
void site_manifest_add(struct site_manifest *m, const char *path, uint64_t key);
/* In path order, as site_manifest_key needs and the file has. */
void site_manifest_sort(struct site_manifest *m);
/* The key recorded for path, 0 (and *found 0) when none. */
uint64_t site_manifest_key(const struct site_manifest *m, const char *path, int *found);
void site_manifest_release(struct site_manifest *m);

/* page.c: the frame every page shares. depth: directories below the site's root. */
void site_page_begin(struct pdb_buf *b, const struct site *s, const char *path,
		     const char *title, int depth);
void site_page_end(struct pdb_buf *b);
void site_text(struct pdb_buf *b, const char *text);   /* escaped */
/* "run42 (name)" as a link to its page from depth. */
void site_run_link(struct pdb_buf *b, const struct site *s, int64_t id, int depth);
/* A value in its unit, "-" for NaN. */
void site_value(struct pdb_buf *b, double v, const char *unit);
void site_note(struct site *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Write DIR/path whole (its directory made, never a symlink followed). */
int site_write_page(const struct site *s, const char *path, const struct pdb_buf *b,
		    struct pdb_err *err);

/* rows.c: the table of series the index and benchmark pages share. */
void site_series_table(struct pdb_buf *b, const struct site *s, const size_t *series,
		       size_t n, int depth, int with_bench);

/* "failed in runN, since runM" of a failure that fails now. */
void site_failed_since(struct pdb_buf *b, const struct site *s, const struct site_failure *f,
		       int depth);
/* The failures of the given list as a table (benchmark, dims, reason; with_run: the run,
 * and, for those that fail now, since when). */
void site_failure_table(struct pdb_buf *b, const struct site *s,
			const struct site_failure *const *failures, size_t n, int depth,
			int with_bench, int with_run);
/* The change from before to after as a cell: "+2.1% worse" ("-" when there is none). */
void site_change_cell(struct pdb_buf *b, double before, double after, int direction);

/* points.c: the table by matrix point of the benchmark's series in run_id
 * (its newest), when they have two points or more; 1 when it wrote one. */
int site_bench_points(struct pdb_buf *b, const struct site *s, const struct site_bench *bench,
		      int64_t run_id, int depth);
/* The run page's tables by matrix point: those of each of its benchmarks
 * with two points or more, the benchmarks in the order of run->values
 * taken through order (indices into run->values). */
void site_run_points(struct pdb_buf *b, const struct site *s, const struct site_run *run,
		     const size_t *order);

/* sparkline.c: the recent history of a series as a small inline SVG. */
void site_sparkline(struct pdb_buf *b, const struct site_series *ss);

/* The pages. */
int site_index_page(struct site *s, struct pdb_buf *b, struct pdb_err *err);
int site_bench_page(struct site *s, const struct site_bench *bench, struct pdb_buf *b,
		    struct pdb_err *err);
int site_run_page(struct site *s, const struct site_run *run, struct pdb_buf *b,
		  struct pdb_err *err);

#endif
