/* Charts drawn with cairo (cairo_render.c), for chart/render.c, which
 * writes the file whole or not at all. */
#ifndef PDB_CHART_CAIRO_RENDER_H
#define PDB_CHART_CAIRO_RENDER_H

#include "chart/render.h"

/* Draw chart as laid out to path (a PNG, SVG or PDF file, written in
 * place), or with mem (SVG only) append the document to mem. 0, or -1
 * with err. */
int pdb_cairo_draw(const struct pdb_chart *chart, const struct pdb_chart_layout *layout,
		   const char *path, struct pdb_buf *mem, int format, struct pdb_err *err);

#endif
