/* Chart drawing with cairo: the only file that includes cairo.h. */
#include "chart/cairo_render.h"

#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/png_write.h"
#include "util.h"

#define FONT "DejaVu Sans"
#define FONT_DIR "/usr/share/fonts/truetype/dejavu/"

/* fontconfig, which cairo loads to find the font, keeps patterns until it
 * is finalised. perfdb does not link it itself: a weak reference finds it
 * when cairo brought it in. */
extern void FcFini(void) __attribute__((weak));

/* DejaVu Sans read straight from its files: for PNG this spares
 * fontconfig's start-up (about 8 ms, a fifth of a plot's CPU time). With
 * the hinting Debian's fontconfig asks for, the pixels are the same. */
struct faces {
	FT_Library ft;
	cairo_font_face_t *regular, *bold;
};

static const cairo_user_data_key_t faces_key, ft_face_key;

struct rgb {
	double r, g, b;
};

struct theme {
	struct rgb bg, fg, muted, grid, axis;
};

static const struct theme themes[] = {
	[PDB_THEME_LIGHT] = { { 1, 1, 1 }, { 0.13, 0.13, 0.13 }, { 0.35, 0.35, 0.35 },
			      { 0.90, 0.90, 0.90 }, { 0.55, 0.55, 0.55 } },
	[PDB_THEME_DARK] = { { 0.11, 0.12, 0.14 }, { 0.90, 0.90, 0.90 }, { 0.70, 0.70, 0.70 },
			     { 0.22, 0.23, 0.26 }, { 0.50, 0.50, 0.50 } },
};

/* Okabe–Ito, colour-blind safe; then grey. */
static const struct rgb palette[] = {
	{ 0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0 }, /* blue */
	{ 0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0 }, /* vermillion */
	{ 0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0 }, /* bluish green */
	{ 0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0 }, /* orange */
	{ 0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0 }, /* sky blue */
	{ 0xCC / 255.0, 0x79 / 255.0, 0xA7 / 255.0 }, /* reddish purple */
	{ 0xF0 / 255.0, 0xE4 / 255.0, 0x42 / 255.0 }, /* yellow */
	{ 0x99 / 255.0, 0x99 / 255.0, 0x99 / 255.0 }, /* grey */
};

static void set_rgb(cairo_t *cr, struct rgb c, double alpha)
{
	cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

static struct rgb color_of(const struct theme *t, int color)
{
	/* on the dark background blue and sky blue trade places: contrast */
	if (t == &themes[PDB_THEME_DARK] && (color == PDB_COLOR_BLUE || color == PDB_COLOR_SKY))
		color = color == PDB_COLOR_BLUE ? PDB_COLOR_SKY : PDB_COLOR_BLUE;
	if (color >= 0 && color < (int)(sizeof palette / sizeof palette[0]))
		return palette[color];
	return t->fg;
}

/* Text anchored at (x, y): ax 0 left, 0.5 centre, 1 right; y is the middle
 * of the text when mid, else its baseline. */
static void text(cairo_t *cr, const char *s, double size, int bold, double x, double y,
		 double ax, int mid)
{
	const struct faces *f = cairo_get_user_data(cr, &faces_key);
	cairo_text_extents_t e;

	if (f)
		cairo_set_font_face(cr, bold ? f->bold : f->regular);
	else
		cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
				       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - ax * e.x_advance, mid ? y + size * 0.36 : y);
	cairo_show_text(cr, s);
}

static void vertical_text(cairo_t *cr, const char *s, double size, double x, double y, double angle)
{
	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, angle);
	text(cr, s, size, 0, 0, 0, 0.5, 0);
	cairo_restore(cr);
}

static void axes(cairo_t *cr, const struct theme *t, const struct pdb_panel_layout *pl)
{
	cairo_set_line_width(cr, 1);
	set_rgb(cr, t->grid, 1);
	for (size_t i = 0; i < pl->y.nticks; i++) {
		double y = round(pl->y.ticks[i].px) + 0.5;
		cairo_move_to(cr, pl->left, y);
		cairo_line_to(cr, pl->right, y);
	}
	if (pl->x.kind != PDB_AXIS_CATEGORY)
		for (size_t i = 0; i < pl->x.nticks; i++) {
			double x = round(pl->x.ticks[i].px) + 0.5;
			cairo_move_to(cr, x, pl->top);
			cairo_line_to(cr, x, pl->bottom);
		}
	cairo_stroke(cr);
	set_rgb(cr, t->axis, 1);
	cairo_move_to(cr, round(pl->left) + 0.5, pl->top);
	cairo_line_to(cr, round(pl->left) + 0.5, round(pl->bottom) + 0.5);
	cairo_line_to(cr, pl->right, round(pl->bottom) + 0.5);
	if (pl->y2.present) {
		cairo_move_to(cr, round(pl->right) + 0.5, pl->top);
		cairo_line_to(cr, round(pl->right) + 0.5, round(pl->bottom) + 0.5);
	}
	for (size_t i = 0; i < pl->x.nticks; i++) {
		double x = round(pl->x.ticks[i].px) + 0.5;
		cairo_move_to(cr, x, round(pl->bottom) + 0.5);
		cairo_line_to(cr, x, round(pl->bottom) + 4.5);
	}
	cairo_stroke(cr);
	set_rgb(cr, t->muted, 1);
	for (size_t i = 0; i < pl->y.nticks; i++)
		text(cr, pl->y.ticks[i].label, PDB_FONT_TICK, 0, pl->left - 7, pl->y.ticks[i].px, 1, 1);
	for (size_t i = 0; i < pl->y2.nticks; i++)
		text(cr, pl->y2.ticks[i].label, PDB_FONT_TICK, 0, pl->right + 7, pl->y2.ticks[i].px, 0, 1);
	for (size_t i = 0; i < pl->x.nticks; i++)
		text(cr, pl->x.ticks[i].label, PDB_FONT_TICK, 0, pl->x.ticks[i].px,
		     pl->bottom + 8 + PDB_FONT_TICK, 0.5, 0);
	set_rgb(cr, t->fg, 1);
	text(cr, pl->x.title, PDB_FONT_AXIS, 0, (pl->left + pl->right) / 2,
	     pl->bottom + 8 + PDB_FONT_TICK + 8 + PDB_FONT_AXIS, 0.5, 0);
	vertical_text(cr, pl->y.title, PDB_FONT_AXIS, 12 + PDB_FONT_AXIS * 0.8,
		      (pl->top + pl->bottom) / 2, -M_PI / 2);
	if (pl->y2.present) {
		double w = 0;
		for (size_t i = 0; i < pl->y2.nticks; i++) {
			double tw = pdb_chart_text_width(pl->y2.ticks[i].label, PDB_FONT_TICK);
			w = tw > w ? tw : w;
		}
		vertical_text(cr, pl->y2.title, PDB_FONT_AXIS, pl->right + 8 + w + 8 + PDB_FONT_AXIS * 0.2,
			      (pl->top + pl->bottom) / 2, M_PI / 2);
	}
}

static void line_style(cairo_t *cr, int marks)
{
	static const double dash[] = { 7, 4 };

	cairo_set_line_width(cr, 2);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	cairo_set_dash(cr, dash, marks & PDB_MARK_DASHED ? 2 : 0, 0);
}

static void ring(cairo_t *cr, struct rgb c, double x, double y)
{
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, 7, 0, 2 * M_PI);
	set_rgb(cr, c, 1);
	cairo_set_line_width(cr, 2);
	cairo_stroke(cr);
}

static void cross(cairo_t *cr, struct rgb c, double x, double y)
{
	cairo_move_to(cr, x - 5, y - 5);
	cairo_line_to(cr, x + 5, y + 5);
	cairo_move_to(cr, x - 5, y + 5);
	cairo_line_to(cr, x + 5, y - 5);
	set_rgb(cr, c, 1);
	cairo_set_line_width(cr, 2.5);
	cairo_stroke(cr);
}

static void marker(cairo_t *cr, const struct theme *t, struct rgb c, double x, double y)
{
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, 3.4, 0, 2 * M_PI);
	set_rgb(cr, c, 1);
	cairo_fill_preserve(cr);
	set_rgb(cr, t->bg, 1);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
}

/* A line reduced per pixel column is dense: every column is covered from
 * its lowest to its highest point, including the step from the column
 * before. Fill that outline (one polygon) instead of stroking thousands
 * of tiny segments; the pixels are the same as a 1.5 px line's. Only for
 * a reduced line (l->reduced), which keeps at least one point. */
static void envelope(cairo_t *cr, const struct pdb_series_layout *l)
{
	size_t ncols = 0, i = 0;
	double *cx, *top, *bot, prev;

	if (l->n == 0)
		return;
	cx = pdb_xmalloc(l->n * sizeof *cx);
	top = pdb_xmalloc(l->n * sizeof *top);
	bot = pdb_xmalloc(l->n * sizeof *bot);
	prev = l->py[0];

	while (i < l->n) {
		double col = floor(l->px[i]), lo = prev, hi = prev;
		for (; i < l->n && floor(l->px[i]) == col; i++) {
			lo = l->py[i] < lo ? l->py[i] : lo;
			hi = l->py[i] > hi ? l->py[i] : hi;
			prev = l->py[i];
		}
		cx[ncols] = col;
		top[ncols] = lo - 0.75;
		bot[ncols] = hi + 0.75;
		ncols++;
	}
	cairo_move_to(cr, cx[0], top[0]);
	for (size_t k = 0; k < ncols; k++) {
		cairo_line_to(cr, cx[k], top[k]);
		cairo_line_to(cr, cx[k] + 1, top[k]);
	}
	for (size_t k = ncols; k-- > 0;) {
		cairo_line_to(cr, cx[k] + 1, bot[k]);
		cairo_line_to(cr, cx[k], bot[k]);
	}
	cairo_close_path(cr);
	free(cx);
	free(top);
	free(bot);
}

static void series(cairo_t *cr, const struct theme *t, const struct pdb_panel_layout *pl,
		   const struct pdb_chart_series *se, const struct pdb_series_layout *l)
{
	struct rgb c = color_of(t, se->color);

	if ((se->marks & PDB_MARK_BAND) && l->nband > 0) {
		cairo_move_to(cr, l->bx[0], l->phi[0]);
		for (size_t i = 1; i < l->nband; i++)
			cairo_line_to(cr, l->bx[i], l->phi[i]);
		for (size_t i = l->nband; i-- > 0;)
			cairo_line_to(cr, l->bx[i], l->plo[i]);
		cairo_close_path(cr);
		set_rgb(cr, c, se->marks & PDB_MARK_LIGHT ? 0.11 : 0.22);
		cairo_fill(cr);
	}
	if (se->marks & PDB_MARK_HBAR) {
		double zero = pdb_chart_axis_px(&pl->x, 0);
		double row = fabs(pl->y.px_hi - pl->y.px_lo) / (pl->y.hi - pl->y.lo);
		double h = row * 0.62 < 26 ? row * 0.62 : 26;
		for (size_t i = 0; i < l->n; i++) {
			cairo_rectangle(cr, l->px[i] < zero ? l->px[i] : zero, l->py[i] - h / 2,
					fabs(l->px[i] - zero), h);
			set_rgb(cr, c, 0.85);
			cairo_fill(cr);
		}
		cairo_set_line_width(cr, 1.5);
		set_rgb(cr, t->fg, 0.85);
		for (size_t i = 0; i < l->nband; i++) {
			cairo_move_to(cr, l->plo[i], l->bx[i]);
			cairo_line_to(cr, l->phi[i], l->bx[i]);
			for (int end = 0; end < 2; end++) { /* a cap, or an arrow where it was cut */
				double e = end ? l->phi[i] : l->plo[i], dir = end ? 1 : -1;
				if (l->cut && (l->cut[i] & (1 << end))) {
					cairo_move_to(cr, e - dir * h / 3, l->bx[i] - h / 4);
					cairo_line_to(cr, e, l->bx[i]);
					cairo_line_to(cr, e - dir * h / 3, l->bx[i] + h / 4);
				} else {
					cairo_move_to(cr, e, l->bx[i] - h / 4);
					cairo_line_to(cr, e, l->bx[i] + h / 4);
				}
			}
		}
		cairo_stroke(cr);
		return;
	}
	/* n_in > n alone is no sign of reduction: points that cannot be
	 * drawn (NaN, infinite) are left out too, maybe all of them */
	if ((se->marks & PDB_MARK_LINE) && l->reduced && l->n > 0) {
		envelope(cr, l);
		set_rgb(cr, c, 1);
		cairo_fill(cr);
	} else if ((se->marks & PDB_MARK_LINE) && l->n > 1) {
		line_style(cr, se->marks);
		set_rgb(cr, c, 1);
		cairo_move_to(cr, l->px[0], l->py[0]);
		for (size_t i = 1; i < l->n; i++)
			cairo_line_to(cr, l->px[i], l->py[i]);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
	}
	if (se->marks & PDB_MARK_POINTS)
		for (size_t i = 0; i < l->n; i++)
			marker(cr, t, c, l->px[i], l->py[i]);
	if (se->marks & PDB_MARK_RING)
		for (size_t i = 0; i < l->n; i++)
			ring(cr, c, l->px[i], l->py[i]);
	if (se->marks & PDB_MARK_CROSS)
		for (size_t i = 0; i < l->n; i++)
			cross(cr, c, l->px[i], l->py[i]);
}

static void values(cairo_t *cr, const struct theme *t, const struct pdb_series_layout *l)
{
	set_rgb(cr, t->muted, 1);
	for (size_t i = 0; i < l->nvalues; i++)
		text(cr, l->values[i].text, PDB_FONT_VALUE, 0, l->values[i].x,
		     l->values[i].y + l->values[i].h / 2, 0, 1);
}

static void marks(cairo_t *cr, const struct theme *t, const struct pdb_chart_panel *p,
		  const struct pdb_panel_layout *pl)
{
	static const double dash[] = { 5, 4 };

	cairo_set_line_width(cr, 1.2);
	set_rgb(cr, t->fg, 0.55);
	cairo_set_dash(cr, dash, 2, 0);
	for (size_t i = 0; i < p->nhmarks; i++) {
		cairo_move_to(cr, pl->left, pl->hmark_px[i]);
		cairo_line_to(cr, pl->right, pl->hmark_px[i]);
	}
	cairo_stroke(cr);
	for (size_t i = 0; i < p->nvmarks; i++) {
		const struct pdb_chart_vmark *m = &p->vmarks[i];
		set_rgb(cr, color_of(t, m->color), m->color == PDB_COLOR_FOREGROUND ? 0.55 : 0.9);
		cairo_set_dash(cr, dash, m->dashed ? 2 : 0, 0);
		cairo_move_to(cr, pl->vmark_px[i], pl->top);
		cairo_line_to(cr, pl->vmark_px[i], pl->bottom);
		cairo_stroke(cr);
		if (*pl->vmark_labels[i].text) {
			cairo_set_dash(cr, NULL, 0, 0);
			text(cr, pl->vmark_labels[i].text, PDB_FONT_VALUE, 0, pl->vmark_labels[i].x,
			     pl->vmark_labels[i].y + pl->vmark_labels[i].h / 2, 0, 1);
		}
	}
	cairo_set_dash(cr, NULL, 0, 0);
}

static void legend(cairo_t *cr, const struct theme *t, const struct pdb_chart_panel *p,
		   const struct pdb_legend_layout *lg)
{
	if (lg->n == 0)
		return;
	cairo_rectangle(cr, round(lg->x) + 0.5, round(lg->y) + 0.5, round(lg->w), round(lg->h));
	set_rgb(cr, t->bg, 0.92);
	cairo_fill_preserve(cr);
	set_rgb(cr, t->grid, 1);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
	for (size_t k = 0; k < lg->n; k++) {
		const struct pdb_chart_series *se = &p->series[lg->series[k]];
		struct rgb c = color_of(t, se->color);
		double y = lg->y + 4 + 17.0 * (double)k + 8.5, x = lg->x + 8;
		if (se->marks & (PDB_MARK_HBAR | PDB_MARK_BAND) && !(se->marks & PDB_MARK_LINE)) {
			cairo_rectangle(cr, x, y - 5, 24, 10);
			set_rgb(cr, c, se->marks & PDB_MARK_HBAR ? 0.85 : se->marks & PDB_MARK_LIGHT ? 0.15 : 0.3);
			cairo_fill(cr);
		}
		if (se->marks & PDB_MARK_LINE) {
			if (se->marks & PDB_MARK_BAND) {
				cairo_rectangle(cr, x, y - 5, 24, 10);
				set_rgb(cr, c, 0.22);
				cairo_fill(cr);
			}
			line_style(cr, se->marks);
			set_rgb(cr, c, 1);
			cairo_move_to(cr, x, y);
			cairo_line_to(cr, x + 24, y);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
		}
		if (se->marks & PDB_MARK_POINTS)
			marker(cr, t, c, x + 12, y);
		if (se->marks & PDB_MARK_RING)
			ring(cr, c, x + 12, y);
		if (se->marks & PDB_MARK_CROSS)
			cross(cr, c, x + 12, y);
		set_rgb(cr, t->fg, 1);
		text(cr, lg->labels[k], PDB_FONT_LEGEND, 0, x + 32, y, 0, 1);
	}
	if (lg->more) {
		char more[64];
		snprintf(more, sizeof more, "and %zu more", lg->more);
		set_rgb(cr, t->muted, 1);
		text(cr, more, PDB_FONT_LEGEND, 0, lg->x + 40, lg->y + 4 + 17.0 * (double)lg->n + 8.5, 0, 1);
	}
}

static void draw(cairo_t *cr, const struct pdb_chart *c, const struct pdb_chart_layout *L)
{
	const struct theme *t = &themes[c->theme == PDB_THEME_DARK];

	set_rgb(cr, t->bg, 1);
	cairo_paint(cr);
	set_rgb(cr, t->fg, 1);
	if (*L->title)
		text(cr, L->title, PDB_FONT_TITLE, 1, L->width / 2.0, 10 + PDB_FONT_TITLE, 0.5, 0);
	if (*L->subtitle) {
		set_rgb(cr, t->muted, 1);
		text(cr, L->subtitle, PDB_FONT_SUBTITLE, 0, L->width / 2.0,
		     10 + PDB_FONT_TITLE + 6 + PDB_FONT_SUBTITLE, 0.5, 0);
	}
	for (size_t i = 0; i < L->npanels; i++) {
		const struct pdb_chart_panel *p = &c->panels[i];
		const struct pdb_panel_layout *pl = &L->panels[i];
		if (*pl->title) {
			set_rgb(cr, t->fg, 1);
			text(cr, pl->title, PDB_FONT_PANEL, 1, pl->left, pl->top - 8, 0, 0);
		}
		axes(cr, t, pl);
		cairo_save(cr);
		cairo_rectangle(cr, pl->left - 5, pl->top - 5, pl->right - pl->left + 10,
				pl->bottom - pl->top + 10);
		cairo_clip(cr);
		marks(cr, t, p, pl);
		for (size_t s = 0; s < pl->nseries; s++) {
			int clip = p->series[s].marks & PDB_MARK_CLIP;
			if (clip) { /* a reference line ends at the plot's edges */
				cairo_save(cr);
				cairo_rectangle(cr, pl->left, pl->top, pl->right - pl->left,
						pl->bottom - pl->top);
				cairo_clip(cr);
			}
			series(cr, t, pl, &p->series[s], &pl->series[s]);
			if (clip)
				cairo_restore(cr);
		}
		cairo_restore(cr);
		for (size_t s = 0; s < pl->nseries; s++)
			values(cr, t, &pl->series[s]);
		legend(cr, t, p, &pl->legend);
	}
}

static void done_face(void *face)
{
	FT_Done_Face(face);
}

/* A cairo face for the font file at path that owns its FreeType face; NULL
 * when the file cannot be read. */
static cairo_font_face_t *face_of_file(FT_Library ft, const char *path)
{
	cairo_font_face_t *face;
	FT_Face ftf;

	if (FT_New_Face(ft, path, 0, &ftf) != 0)
		return NULL;
	face = cairo_ft_font_face_create_for_ft_face(ftf, 0);
	if (cairo_font_face_set_user_data(face, &ft_face_key, ftf, done_face) != CAIRO_STATUS_SUCCESS) {
		cairo_font_face_destroy(face);
		FT_Done_Face(ftf);
		return NULL;
	}
	return face;
}

/* Both faces, or 0 when either file is missing (text then goes through
 * cairo's toy API and fontconfig). */
static int faces_open(struct faces *f)
{
	if (FT_Init_FreeType(&f->ft) != 0)
		return 0;
	f->regular = face_of_file(f->ft, FONT_DIR "DejaVuSans.ttf");
	f->bold = face_of_file(f->ft, FONT_DIR "DejaVuSans-Bold.ttf");
	if (f->regular && f->bold)
		return 1;
	cairo_font_face_destroy(f->regular);
	cairo_font_face_destroy(f->bold);
	FT_Done_FreeType(f->ft);
	return 0;
}

/* Draw with the faces: grey antialiasing and slight hinting, as fontconfig
 * sets them for the toy API. */
static void faces_use(cairo_t *cr, struct faces *f)
{
	cairo_font_options_t *o = cairo_font_options_create();

	cairo_font_options_set_antialias(o, CAIRO_ANTIALIAS_GRAY);
	cairo_font_options_set_hint_style(o, CAIRO_HINT_STYLE_SLIGHT);
	cairo_set_font_options(cr, o);
	cairo_font_options_destroy(o);
	cairo_set_user_data(cr, &faces_key, f, NULL);
}

static void release_fonts(void)
{
	cairo_debug_reset_static_data();
	if (FcFini)
		FcFini();
}

/* Text through fontconfig (SVG, PDF): its start-up costs about 8 ms, so
 * its state and cairo's font caches are kept from one chart to the next
 * (a site draws hundreds) and dropped at exit, where leak checkers look. */
static void register_release(void)
{
	atexit(release_fonts);
}

static void keep_fonts_until_exit(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT; /* charts may be drawn in threads */

	pthread_once(&once, register_release);
}

static cairo_status_t append_to_buf(void *closure, const unsigned char *data, unsigned int n)
{
	pdb_buf_add(closure, (const char *)data, n);
	return CAIRO_STATUS_SUCCESS;
}

int pdb_cairo_draw(const struct pdb_chart *c, const struct pdb_chart_layout *L,
		   const char *path, struct pdb_buf *mem, int format, struct pdb_err *err)
{
	cairo_surface_t *surface;
	struct faces faces = { 0 };
	cairo_status_t status;
	cairo_t *cr;
	int ret = 0, direct = format == PDB_CHART_PNG && faces_open(&faces);

	if (format == PDB_CHART_SVG) {
		surface = mem ? cairo_svg_surface_create_for_stream(append_to_buf, mem, L->width,
								    L->height)
			      : cairo_svg_surface_create(path, L->width, L->height);
		cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX);
	} else if (format == PDB_CHART_PDF) {
		surface = cairo_pdf_surface_create(path, L->width, L->height);
	} else {
		surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, L->width, L->height);
	}
	cr = cairo_create(surface);
	if (direct)
		faces_use(cr, &faces);
	draw(cr, c, L);
	status = cairo_status(cr);
	cairo_destroy(cr);
	if (status == CAIRO_STATUS_SUCCESS && format == PDB_CHART_PNG) {
		cairo_surface_flush(surface);
		ret = pdb_png_write(path, cairo_image_surface_get_data(surface), L->width, L->height,
				    cairo_image_surface_get_stride(surface), err);
	}
	cairo_surface_finish(surface);
	if (status == CAIRO_STATUS_SUCCESS)
		status = cairo_surface_status(surface);
	cairo_surface_destroy(surface);
	if (direct) {
		cairo_font_face_destroy(faces.regular);
		cairo_font_face_destroy(faces.bold);
	}
	if (direct) {
		/* drop cairo's font caches, which release the FreeType faces */
		cairo_debug_reset_static_data();
		FT_Done_FreeType(faces.ft);
	} else {
		keep_fonts_until_exit();
	}
	if (status != CAIRO_STATUS_SUCCESS)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: cannot write the chart: %s", path,
				   cairo_status_to_string(status));
	return ret;
}
