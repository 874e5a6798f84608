/* Escaping: text from the data made safe for each place it is written to. */
#include "escape.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/* The length of a C1 control character at s (U+0080..U+009F, C2 80..C2 9F
 * in UTF-8), or 0. */
static size_t c1_len(const unsigned char *s)
{
	return s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f ? 2 : 0;
}

/* The code point of a character at s (UTF-8, 3 bytes) a terminal would
 * reorder or break a line at: the bidirectional embeddings and overrides
 * U+202A..U+202E, the isolates U+2066..U+2069, the line and paragraph
 * separators U+2028, U+2029; else 0. */
static unsigned format_char(const unsigned char *s)
{
	unsigned cp;

	if (s[0] != 0xe2 || (s[1] != 0x80 && s[1] != 0x81) || (s[2] & 0xc0) != 0x80)
		return 0;
	cp = 0x2000u | (unsigned)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
	return (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ? cp : 0;
}

static int c0(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

void pdb_escape_html(struct pdb_buf *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': pdb_buf_puts(b, "&amp;"); break;
		case '<': pdb_buf_puts(b, "&lt;"); break;
		case '>': pdb_buf_puts(b, "&gt;"); break;
		case '"': pdb_buf_puts(b, "&quot;"); break;
		case '\'': pdb_buf_puts(b, "&#39;"); break;
		default:
			/* control characters are parse errors in HTML and reach a
			 * terminal from a saved page's text */
			if (c0((unsigned char)*s) && *s != '\t' && *s != '\n' && *s != '\r')
				pdb_buf_puts(b, REPLACEMENT);
			else
				pdb_buf_add(b, s, 1);
		}
	}
}

/* Whether s (in text that starts at start) begins what GitHub's Markdown
 * links by itself: "://" of a URL, the "." of "www.". */
static int autolink_at(const char *start, const char *s)
{
	return (s[0] == ':' && s[1] == '/' && s[2] == '/') ||
	       (s[0] == '.' && s - start >= 3 && strncasecmp(s - 3, "www", 3) == 0);
}

void pdb_escape_md(struct pdb_buf *b, const char *s)
{
	const char *start = s;

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (autolink_at(start, s)) {
			pdb_buf_puts(b, "\\");
			pdb_buf_add(b, s, 1);
		} else if (c == '\n' || c == '\r' || c == '\t')
			pdb_buf_puts(b, " ");
		else if (c0(c))
			pdb_buf_puts(b, REPLACEMENT);
		else if (c1_len((const unsigned char *)s)) {
			pdb_buf_puts(b, REPLACEMENT);
			s++;
		} else if (strchr("\\`*_[]|#!~<>&", c)) {
			pdb_buf_puts(b, "\\");
			pdb_buf_add(b, s, 1);
		} else
			pdb_buf_add(b, s, 1);
	}
}

void pdb_escape_xml(struct pdb_buf *b, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&': pdb_buf_puts(b, "&amp;"); break;
		case '<': pdb_buf_puts(b, "&lt;"); break;
		case '>': pdb_buf_puts(b, "&gt;"); break;
		case '"': pdb_buf_puts(b, "&quot;"); break;
		case '\'': pdb_buf_puts(b, "&apos;"); break;
		case '\t': pdb_buf_puts(b, "&#9;"); break;
		case '\n': pdb_buf_puts(b, "&#10;"); break;
		case '\r': pdb_buf_puts(b, "&#13;"); break;
		default:
			if (c0(c))
				pdb_buf_puts(b, REPLACEMENT);
			else if (c1_len((const unsigned char *)s)) {
				pdb_buf_puts(b, REPLACEMENT);
				s++;
			} else
				pdb_buf_add(b, s, 1);
		}
	}
}

void pdb_escape_term_n(struct pdb_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	for (; p < end; p++) {
		if (*p == '\n')
			pdb_buf_puts(b, "\\n");
		else if (*p == '\r')
			pdb_buf_puts(b, "\\r");
		else if (*p == '\t')
			pdb_buf_puts(b, "\\t");
		else if (c0(*p))
			pdb_buf_printf(b, "\\x%02x", *p);
		else if (p + 1 < end && c1_len(p)) {
			pdb_buf_printf(b, "\\u%04x", p[1]);
			p++;
		} else if (p + 2 < end && format_char(p)) {
			pdb_buf_printf(b, "\\u%04x", format_char(p));
			p += 2;
		} else
			pdb_buf_add(b, (const char *)p, 1);
	}
}

void pdb_escape_term(struct pdb_buf *b, const char *s)
{
	if (s)
		pdb_escape_term_n(b, s, strlen(s));
}

char *pdb_term_text(const char *s)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	pdb_escape_term(&b, s);
	return b.data;
}

/* Whether the n bytes at s, starting with + or -, are a number as strtod
 * reads one ("-3.2", "+1e5", "-inf" from a REAL column): a spreadsheet takes
 * it for a value, or at worst an error, never a formula that runs. */
static int csv_number(const char *s, size_t n)
{
	char text[64], *end;

	if (n < 2 || n >= sizeof text || (s[0] != '-' && s[0] != '+') ||
	    memchr(s, ' ', n) || memchr(s, '\t', n) || s[1] == '-' || s[1] == '+')
		return 0;
	memcpy(text, s, n);
	text[n] = '\0';
	strtod(text, &end);
	return *end == '\0';
}

void pdb_escape_csv_n(struct pdb_buf *b, const char *s, size_t n)
{
	int formula = n > 0 && strchr("=+-@\t\r", s[0]) && !csv_number(s, n);
	int quote = memchr(s, ',', n) || memchr(s, '"', n) || memchr(s, '\n', n) ||
		    memchr(s, '\r', n);

	if (quote)
		pdb_buf_puts(b, "\"");
	if (formula)
		pdb_buf_puts(b, "'");
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			pdb_buf_puts(b, "\"");
		pdb_buf_add(b, s + i, 1);
	}
	if (quote)
		pdb_buf_puts(b, "\"");
}

void pdb_escape_csv(struct pdb_buf *b, const char *s)
{
	if (s)
		pdb_escape_csv_n(b, s, strlen(s));
}
