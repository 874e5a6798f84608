/* Report internals shared by lib/report*.c: what was gathered for the page. */
#ifndef PDB_REPORT_INTERNAL_H
#define PDB_REPORT_INTERNAL_H

#include "chart/kinds.h"
#include "compare.h"
#include "detect.h"
#include "report.h"
#include "util.h"

/* A chart written as NAME.png and NAME.svg. */
struct report_chart {
	char *name;   /* file stem, "compare", "history-1" */
	char *alt;    /* what it shows, plain text */
	char *svg;    /* the SVG for inlining: no XML prolog, ids made unique */
	char *note;   /* what the page shows in place of the chart, or of part of it, and why; or NULL */
};

/* The history of a series that changed, with its change points. */
struct report_history {
	const struct pdb_compare_row *row;
	struct pdb_history_point *pts;   /* points with a value, in run order */
	size_t n;
	struct pdb_detect_result res;
	struct report_chart chart;       /* name NULL: no chart */
};

struct report {
	const char *title;
	struct pdb_run *base, *cand;        /* base NULL: the run's own report */
	char *where;                        /* the history's runs ("k=v,k=v"), or NULL: all */
	struct pdb_compare cmp;
	struct pdb_compare_opts opts;       /* what cmp was compared with */
	struct report_chart compare_chart;  /* name NULL: nothing to draw */
	struct pdb_scaling scaling;
	int has_scaling;
	struct report_chart scaling_chart;
	struct report_chart *latency;       /* the latency and resource figures */
	size_t nlatency;
	struct report_history *hist;
	size_t nhist;
};

/* Gather and render the charts of r into dir, adding the files written.
 * What the runs lack (no vcpus, no latency) is left out, not an error. */
int pdb_report_charts(struct pdb_store *store, struct report *r, const char *dir,
		      struct pdb_report_files *files, struct pdb_err *err);
void pdb_report_chart_release(struct report_chart *c);
void pdb_report_history_release(struct report_history *h);

/* The "By matrix point" section of run (lib/report_points.c): a heading
 * and a table (lib/table_points.c) for each set of dims of each benchmark,
 * as HTML when html, else Markdown; a table that cannot be made is said in
 * its place. own (a run's own report): every table, cells the means of the
 * samples and a histogram's percentiles; else those of two points or more,
 * cells the values compare takes (nothing for a run without dims). */
void pdb_report_by_point(const struct pdb_run *run, int html, int own, struct pdb_buf *b);

/* Fill tmpl (named source for errors) with the sections of r, as HTML when
 * html, else Markdown. */
int pdb_report_fill(const struct report *r, int html, const char *tmpl, const char *source,
		    struct pdb_buf *out, struct pdb_err *err);

#endif
