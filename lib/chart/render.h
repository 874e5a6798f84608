/* Chart rendering: a laid-out chart to a PNG, SVG or PDF file (cairo). */
#ifndef PDB_CHART_RENDER_H
#define PDB_CHART_RENDER_H

#include "atomic_file.h"
#include "chart/chart.h"
#include "chart/layout.h"
#include "err.h"

enum pdb_chart_format { PDB_CHART_PNG, PDB_CHART_SVG, PDB_CHART_PDF };

/* The format named by path's extension (.png, .svg, .pdf, any case), or -1. */
int pdb_chart_format_of(const char *path);
/* Draw chart as laid out in layout to path, written by the rule of
 * atomic_file.h for kind. 0, or -1 with err. */
int pdb_chart_render(const struct pdb_chart *chart, const struct pdb_chart_layout *layout,
		     const char *path, enum pdb_out_kind kind, int format, struct pdb_err *err);
/* Draw chart as an SVG document appended to out (for pages that inline it). */
int pdb_chart_render_svg(const struct pdb_chart *chart, const struct pdb_chart_layout *layout,
			 struct pdb_buf *out, struct pdb_err *err);

#endif
