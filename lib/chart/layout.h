/* Chart layout: ranges, ticks, labels, legend and pixel positions, as pure computation. */
#ifndef PDB_CHART_LAYOUT_H
#define PDB_CHART_LAYOUT_H

#include <stddef.h>

#include "chart/chart.h"
#include "err.h"
#include "util.h"

/* Font sizes (pixels) the layout reserves room for and render draws with. */
#define PDB_FONT_TITLE 17.0
#define PDB_FONT_SUBTITLE 12.0
#define PDB_FONT_PANEL 13.0
#define PDB_FONT_AXIS 12.0
#define PDB_FONT_TICK 11.0
#define PDB_FONT_LEGEND 11.5
#define PDB_FONT_VALUE 10.0
/* The height a stacked panel needs (its title, tick labels, axis title and a
 * plot worth reading), and how many a chart of height holds (at least 1). */
#define PDB_PANEL_ROOM 140
size_t pdb_chart_panels_room(int height);
/* The height that holds n panels: the inverse of pdb_chart_panels_room. */
int pdb_chart_panels_height(size_t n);
/* Width of text in DejaVu Sans (Bold), UTF-8 aware, in pixels. */
double pdb_chart_text_width(const char *s, double font_size);
double pdb_chart_text_width_bold(const char *s, double font_size);

struct pdb_tick {
	double value;      /* in data units (percent for NINES, index for CATEGORY) */
	double px;         /* pixel position along the axis */
	char label[64];
};

struct pdb_axis_layout {
	int kind;          /* enum pdb_axis_kind */
	int present;       /* 0: no such axis (y2 of most panels) */
	double lo, hi;     /* the range, in axis space (log10, nines transform) */
	double px_lo, px_hi; /* pixel positions of lo and hi */
	double scale;      /* y2 only: shown value = y * scale */
	double max_at;     /* NINES: the position of 100 (max) in axis space */
	struct pdb_tick *ticks;
	size_t nticks;
	char title[256];   /* with the unit when the tick labels do not carry it */
};

/* A text placed on the canvas: its box in pixels (x, y top-left). */
struct pdb_text_box {
	double x, y, w, h;
	char text[64];
};

/* A series placed on the panel, reduced to what the pixels can show. */
struct pdb_series_layout {
	size_t n_in;       /* points in the data */
	size_t n;          /* points kept */
	int reduced;       /* px, py are per-column extremes (pdb_chart_reduce), not the line */
	size_t n_undrawn;  /* points with no place: NaN, infinite, not > 0 on a log axis */
	double *px, *py;   /* pixel coordinates */
	double *plo, *phi; /* band / interval in pixels (NULL when none) */
	size_t nband;      /* band points (may differ from n when reduced) */
	double *bx;        /* band x pixels */
	unsigned char *cut; /* PDB_MARK_CUT: per interval, 1 its low end cut, 2 its high end */
	struct pdb_text_box *values; /* PDB_MARK_VALUES: the labels that fit */
	size_t nvalues;
};

struct pdb_legend_layout {
	size_t n;          /* entries (series with a label) */
	size_t *series;    /* their series indices */
	char **labels;     /* their labels, cut with an ellipsis to the box */
	double x, y, w, h; /* box in pixels */
	const char *where; /* "top-right", "top-left", "bottom-right", "bottom-left", "outside" */
	size_t more;       /* labelled series past the room of an outside legend: its last
			    * row says "and N more" (they are drawn, not named) */
};

struct pdb_panel_layout {
	char title[512];   /* the panel's title cut to the canvas, "" when none */
	double left, top, right, bottom; /* the plot area in pixels */
	struct pdb_axis_layout x, y, y2;
	struct pdb_series_layout *series;
	size_t nseries;
	double *vmark_px, *hmark_px;
	struct pdb_text_box *vmark_labels; /* per vmark: its label's box, text "" when it has
					    * none (or no room: beside its line, at the top) */
	size_t nvmark_labels;      /* of them: the panel's vertical lines */
	struct pdb_legend_layout legend;
};

struct pdb_chart_layout {
	int width, height;
	char title[512], subtitle[512]; /* cut with an ellipsis to the canvas */
	struct pdb_panel_layout *panels;
	size_t npanels;
};

/* Lay out chart. Caller frees with pdb_chart_layout_free (NULL-safe). */
struct pdb_chart_layout *pdb_chart_layout(const struct pdb_chart *chart);
void pdb_chart_layout_free(struct pdb_chart_layout *layout);
/* The layout as text, one line per element (what `plot --layout` prints). */
void pdb_chart_layout_text(const struct pdb_chart *chart,
			   const struct pdb_chart_layout *layout, struct pdb_buf *out);

/* The pixel position of v (data units) on a placed axis; NaN when v has
 * none (0 on a log axis). Finite for finite v, even on -DBL_MAX..DBL_MAX. */
double pdb_chart_axis_px(const struct pdb_axis_layout *a, double v);
/* A nice step (1, 2 or 5 x 10^k) near span / target; finite and > 0 for
 * any span (inf and denormal spans included). */
double pdb_chart_nice_step(double span, int target);
/* Round [*lo, *hi] out to multiples of a nice step for about target ticks;
 * returns the step. A zero span is widened first. */
double pdb_chart_nice_range(double *lo, double *hi, int target);
/* The tick values of a linear axis lo..hi: the multiples of *step in it,
 * at most max (the step is widened by a whole factor when more would fit),
 * into out; returns how many. None when lo, hi or the step is not finite. */
#define PDB_MAX_TICKS 64
size_t pdb_chart_tick_values(double lo, double hi, double *step, double *out, size_t max);
/* The binary scale (1, 1024, 1024², ...) that bytes up to amax are labelled in. */
double pdb_chart_bytes_scale(double amax);
/* Tick labels for values on an axis of unit: a common SI prefix for linear
 * axes ("5k", "250 µs", "12.5%"), each value its own for log axes. */
void pdb_chart_tick_labels(struct pdb_tick *ticks, size_t n, const char *unit,
			   int per_tick, double step);
/* The nines transform: -log10(1 - p/100) (50 -> 0.301, 99 -> 2). */
double pdb_chart_nines(double percent);

/* The labels of the panel's vertical lines (chart/values.c): at the plot's
 * top beside their line, right else left, a row lower where one would
 * cover another or the legend. */
void pdb_chart_place_vmark_labels(const struct pdb_chart_panel *p, struct pdb_panel_layout *pl);
/* Value labels of the panel's PDB_MARK_VALUES series (chart/values.c):
 * above each point (beside each bar's end, zero the pixel of x = 0), in
 * the axis unit, left out where one would leave the plot or cover another. */
void pdb_chart_place_values(const struct pdb_chart_panel *p, struct pdb_panel_layout *pl,
			    double zero);
/* s cut to width pixels at font size (bold or not), ending in an ellipsis
 * when cut (textbox.c); out may be s. */
void pdb_chart_fit(char *out, size_t size, const char *s, double font, int bold, double width);
/* The box of every text the chart draws (titles, tick labels, axis titles,
 * legends as a whole, values), as render places them. *out malloc'ed. */
size_t pdb_chart_text_boxes(const struct pdb_chart_layout *layout, struct pdb_text_box **out);
/* Whether two boxes overlap (textbox.c). */
int pdb_chart_boxes_overlap(const struct pdb_text_box *a, const struct pdb_text_box *b);
/* The layout check, one rule: text i of the n boxes b of L is at fault when
 * it leaves the canvas (*off set) or overlaps another; returns the index of
 * the first it overlaps, or n. */
size_t pdb_chart_text_clash(const struct pdb_chart_layout *L, const struct pdb_text_box *b, size_t n,
			    size_t i, int *off);
/* 0 when no text of L is at fault, else -1 with err (PDB_EXIT_RUNTIME)
 * naming the first: a chart is drawn only when its texts read. */
int pdb_chart_layout_check(const struct pdb_chart_layout *L, struct pdb_err *err);

/* Reduce a line of n points sorted by px to at most four per pixel column
 * (first, min, max, last, in their order). Writes to ox, oy (room for n);
 * returns the count kept. Columns are floor(px). */
size_t pdb_chart_reduce(const double *px, const double *py, size_t n,
			double *ox, double *oy);

#endif
