/* Charts: what a chart shows (panels, axes, series), built by the chart kinds. */
#ifndef PDB_CHART_H
#define PDB_CHART_H

#include <stddef.h>

enum pdb_axis_kind {
	PDB_AXIS_LINEAR,
	PDB_AXIS_LOG,      /* base 10 */
	PDB_AXIS_NINES,    /* percentiles: 50, 90, 99, 99.9 ... and 100 = max */
	PDB_AXIS_CATEGORY, /* integer positions 0..n-1 named by categories */
	PDB_AXIS_LOG2,     /* base 2, ticks at powers of two (vCPU counts) */
};

/* Marks of a series; combine with |. */
enum pdb_mark {
	PDB_MARK_LINE = 1,
	PDB_MARK_POINTS = 2,
	PDB_MARK_BAND = 4,     /* filled area between lo and hi along x */
	PDB_MARK_HBAR = 8,     /* horizontal bar from 0 to x at row y, interval lo..hi */
	PDB_MARK_DASHED = 16,  /* the line is dashed */
	PDB_MARK_CLIP = 32,    /* a reference line: does not widen the axes, clipped at the plot's edges */
	PDB_MARK_VALUES = 64,  /* each point (bar) carries its value, where it fits */
	PDB_MARK_LIGHT = 128,  /* the band is lighter (an outer band behind an inner one) */
	PDB_MARK_RING = 256,   /* each point circled (outliers) */
	PDB_MARK_CROSS = 512,  /* each point a cross (a run where the benchmark failed) */
	PDB_MARK_CUT = 1024,   /* HBAR: an interval end at -cut or +cut was cut there,
				* past the axis: drawn as an arrow */
};

/* Colours: palette indices 0..7 (Okabe–Ito), or these theme colours. */
enum pdb_chart_color {
	PDB_COLOR_BLUE = 0, PDB_COLOR_VERMILLION, PDB_COLOR_GREEN, PDB_COLOR_ORANGE,
	PDB_COLOR_SKY, PDB_COLOR_PURPLE, PDB_COLOR_YELLOW, PDB_COLOR_GREY,
	PDB_COLOR_FOREGROUND, /* the theme's text colour */
	PDB_NCOLORS,
};

struct pdb_chart_series {
	char *label;      /* legend text; NULL: not in the legend */
	int marks;        /* enum pdb_mark */
	int color;        /* enum pdb_chart_color */
	double *x, *y;    /* n points; lines are drawn in the given order */
	double *lo, *hi;  /* band (y) or interval (x for HBAR), or NULL */
	size_t n;
	double cut;       /* PDB_MARK_CUT: where the intervals were cut (> 0) */
	char *source;     /* the selected data series this draws, or NULL for a
			   * reference line (ideal, fit); several may share one;
			   * each bar of an HBAR series draws one of its own */
};

struct pdb_chart_axis {
	int kind;           /* enum pdb_axis_kind */
	char *title;        /* "throughput", "vCPUs" */
	char *unit;         /* canonical unit for tick labels ("s", "ops/s", "%", "") */
	double min, max;    /* forced range, or NAN for automatic */
	double reach_lo, reach_hi; /* the automatic range covers these too, or NAN */
	int include_zero;   /* the automatic range reaches 0 */
	int integer;        /* ticks at whole numbers only (counts such as vCPUs) */
	char **categories;  /* CATEGORY axes: the names of 0..ncategories-1 */
	size_t ncategories;
	double scale2;      /* > 0: a right-hand axis showing y * scale2 (unit2) */
	char *title2, *unit2;
};

struct pdb_chart_vmark {
	double x;
	int color;          /* enum pdb_chart_color */
	int dashed;
	char label[64];     /* written at its top in its colour (a change point's
			     * series), "" for none */
};

struct pdb_chart_panel {
	char *title;        /* a heading above the panel, or NULL */
	double weight;      /* share of the height (default 1) */
	struct pdb_chart_axis x, y;
	struct pdb_chart_series *series;
	size_t nseries;
	struct pdb_chart_vmark *vmarks; /* vertical lines (change points, zero, thresholds) */
	size_t nvmarks;
	double *hmarks;     /* horizontal reference lines at these y values */
	size_t nhmarks;
};

enum pdb_chart_theme { PDB_THEME_LIGHT, PDB_THEME_DARK };

struct pdb_chart {
	char *kind;         /* "scaling", "latency", "history", "compare" */
	char *title;
	char *subtitle;     /* a smaller line below the title, or NULL */
	int width, height;  /* pixels (points for PDF) */
	int theme;
	struct pdb_chart_panel *panels; /* stacked top to bottom */
	size_t npanels;
	size_t nselected;   /* data series the selection named */
	char **skipped;     /* "what: why" of each selected series not drawn */
	size_t nskipped;
};

/* A new chart with no panels. Free with pdb_chart_free (NULL-safe). */
struct pdb_chart *pdb_chart_new(const char *kind, const char *title, int width,
				int height, int theme);
void pdb_chart_free(struct pdb_chart *chart);
/* Add a panel (axes linear, automatic); the pointer stays valid until the
 * next pdb_chart_add_panel. Strings are copied. */
struct pdb_chart_panel *pdb_chart_add_panel(struct pdb_chart *chart, const char *title,
					    const char *xtitle, const char *xunit,
					    const char *ytitle, const char *yunit);
/* Remove the last panel. */
void pdb_chart_pop_panel(struct pdb_chart *chart);
/* Add a series of n points (x, y copied; lo, hi copied when not NULL). */
struct pdb_chart_series *pdb_chart_add_series(struct pdb_chart_panel *panel,
					      const char *label, int marks, int color,
					      const double *x, const double *y,
					      const double *lo, const double *hi, size_t n);
/* Name the selected data series that s draws (copied). */
void pdb_chart_series_source(struct pdb_chart_series *s, const char *source);
/* Count a selected series, drawn or not. */
void pdb_chart_select(struct pdb_chart *chart);
/* Record a selected series left out of the chart: "what: why", printf-like. */
void pdb_chart_skip(struct pdb_chart *chart, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* How many distinct selected series the panels draw. */
size_t pdb_chart_drawn(const struct pdb_chart *chart);
void pdb_chart_add_vmark(struct pdb_chart_panel *panel, double x, int color, int dashed);
/* The label of the panel's last vertical line (cut to 63 bytes, whole characters). */
void pdb_chart_vmark_label(struct pdb_chart_panel *panel, const char *label);
void pdb_chart_add_hmark(struct pdb_chart_panel *panel, double y);
/* The panels from..to-1 (small multiples of one kind) share one y range:
 * each one's automatic range covers the data of them all. */
void pdb_chart_share_y(struct pdb_chart *chart, size_t from, size_t to);
/* Name the categories of a CATEGORY axis (copied). */
void pdb_chart_axis_categories(struct pdb_chart_axis *axis, const char *const *names,
			       size_t n);
/* A right-hand axis showing y * scale (copied strings). */
void pdb_chart_axis_second(struct pdb_chart_axis *axis, double scale, const char *title,
			   const char *unit);

#endif
