/* Escaping: text from the data made safe for HTML and for Markdown tables. */
#include "escape.h"

#include <string.h>

void pdb_escape_html(struct pdb_buf *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': pdb_buf_puts(b, "&amp;"); break;
		case '<': pdb_buf_puts(b, "&lt;"); break;
		case '>': pdb_buf_puts(b, "&gt;"); break;
		case '"': pdb_buf_puts(b, "&quot;"); break;
		case '\'': pdb_buf_puts(b, "&#39;"); break;
		default: pdb_buf_add(b, s, 1);
		}
	}
}

void pdb_escape_md(struct pdb_buf *b, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			pdb_buf_puts(b, "&lt;");
		else if (*s == '>')
			pdb_buf_puts(b, "&gt;");
		else if (*s == '&')
			pdb_buf_puts(b, "&amp;");
		else if (*s == '\n' || *s == '\r' || *s == '\t')
			pdb_buf_puts(b, " ");
		else if (strchr("\\`*_[]|#!~", *s)) {
			pdb_buf_puts(b, "\\");
			pdb_buf_add(b, s, 1);
		} else
			pdb_buf_add(b, s, 1);
	}
}
