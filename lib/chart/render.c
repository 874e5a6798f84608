/* Chart rendering: the file written whole or not at all, the drawing done
 * by cairo_render.c. */
#include "chart/render.h"

#include <string.h>
#include <strings.h>

#include "atomic_file.h"
#include "chart/cairo_render.h"

int pdb_chart_format_of(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return -1;
	if (strcasecmp(dot, ".png") == 0)
		return PDB_CHART_PNG;
	if (strcasecmp(dot, ".svg") == 0)
		return PDB_CHART_SVG;
	if (strcasecmp(dot, ".pdf") == 0)
		return PDB_CHART_PDF;
	return -1;
}

int pdb_chart_render(const struct pdb_chart *c, const struct pdb_chart_layout *L,
		     const char *path, enum pdb_out_kind kind, int format, struct pdb_err *err)
{
	struct pdb_atomic a;
	int ok;

	if (pdb_chart_layout_check(L, err) < 0 || pdb_atomic_begin(path, kind, &a, err) < 0)
		return -1;
	ok = pdb_cairo_draw(c, L, a.name, NULL, format, err) == 0;
	return pdb_atomic_end(&a, ok, err);
}

int pdb_chart_render_svg(const struct pdb_chart *c, const struct pdb_chart_layout *L,
			 struct pdb_buf *out, struct pdb_err *err)
{
	if (pdb_chart_layout_check(L, err) < 0)
		return -1;
	return pdb_cairo_draw(c, L, "(SVG in memory)", out, PDB_CHART_SVG, err);
}
