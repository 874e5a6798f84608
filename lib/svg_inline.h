/* SVG inlined into HTML pages: ids made unique per chart, cairo's surfaces numbered per document. */
#ifndef PDB_SVG_INLINE_H
#define PDB_SVG_INLINE_H

/* The SVG for inlining in HTML: without the XML prolog, and with every id
 * (and reference to one) prefixed by prefix, so that the glyphs of several
 * charts on one page do not collide, and cairo's surface numbers counted from
 * 1 in each document (they count across the process). Caller frees. */
char *pdb_report_inline_svg(const char *svg, const char *prefix);

#endif
