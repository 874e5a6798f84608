/* Charts: series over time (chart/timeline.c), drawn by the kinds latency
 * and resources. */
#ifndef PDB_CHART_TIMELINE_H
#define PDB_CHART_TIMELINE_H

#include "chart/kinds.h"

/* The most lines of a panel over time: more go to pages of it. */
#define PDB_CHART_PANEL_LINES 8

/* A series over time. Its timed samples in stored order, split into
 * repetitions where an offset is not past its repetition's first (each
 * repetition's seconds start again at 0), each in time order. One
 * repetition is its own points; several are, at every offset any of them
 * has, the median of the repetitions running then, lo and hi their lowest
 * and highest, never one line through all of them. A sample stands for the
 * period from its offset on, so the last value is held for one more
 * (mean) period and the line reaches the end of the run. */
struct pdb_timeline {
	double *x, *y, *lo, *hi; /* lo, hi: NULL for one repetition */
	size_t n;                /* 0 when fewer than 2 points */
	size_t reps;
};

/* The fewest and most repetitions of a panel's lines. */
struct pdb_reps_seen {
	size_t lo, hi;
};

/* r's timed samples as a line over time (tl->n 0: fewer than 2 points). */
void pdb_timeline_of(const struct pdb_result *r, struct pdb_timeline *tl);
void pdb_timeline_free(struct pdb_timeline *tl);
/* Add tl to p as a line, with its band across repetitions when it has one. */
void pdb_chart_add_timeline(struct pdb_chart_panel *p, const char *label, const char *source,
			    int color, const struct pdb_timeline *tl);
void pdb_reps_add(struct pdb_reps_seen *r, const struct pdb_timeline *tl);
/* What a panel's title says of lines drawn across repetitions: "" for one. */
char *pdb_reps_note(const struct pdb_reps_seen *r);
/* p's title: title, with the notes that are not "" in parentheses. */
void pdb_chart_panel_title(struct pdb_chart_panel *p, const char *title, const char *a,
			   const char *b);

#endif
