/* SVG inlined into HTML pages: ids made unique per chart, cairo's surfaces numbered per document. */
#include "svg_inline.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The number for cairo's surface number n in this document: surfaces count
 * from 1 in the order they appear (cairo numbers them across the process,
 * so a chart's would depend on what was drawn before it, in what thread). */
static unsigned long surface_number(unsigned long **seen, size_t *nseen, unsigned long n)
{
	for (size_t i = 0; i < *nseen; i++)
		if ((*seen)[i] == n)
			return i + 1;
	*seen = pdb_xrealloc(*seen, (*nseen + 1) * sizeof **seen);
	(*seen)[(*nseen)++] = n;
	return *nseen;
}

char *pdb_report_inline_svg(const char *svg, const char *prefix)
{
	static const char *const marks[] = { "id=\"", "href=\"#", "url(#" };
	const char *p = strstr(svg, "<svg");
	unsigned long *seen = NULL;
	size_t nseen = 0;
	struct pdb_buf b;

	pdb_buf_init(&b);
	p = p ? p : svg;
	while (*p) {
		size_t k = 3, skip = 0;
		if (*p == 'i' || *p == 'h' || *p == 'u')
			for (k = 0; k < 3; k++)
				if (strncmp(p, marks[k], strlen(marks[k])) == 0)
					break;
		if (k < 3) {
			skip = strlen(marks[k]);
			pdb_buf_add(&b, p, skip);
			pdb_buf_printf(&b, "%s-", prefix);
			p += skip;
			if (strncmp(p, "surface", 7) == 0 && p[7] >= '0' && p[7] <= '9') {
				char *end;
				unsigned long n = strtoul(p + 7, &end, 10);
				pdb_buf_printf(&b, "surface%lu", surface_number(&seen, &nseen, n));
				p = end;
			}
		} else {
			pdb_buf_add(&b, p++, 1);
		}
	}
	free(seen);
	return b.data;
}
