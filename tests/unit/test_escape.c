/* Unit tests: every escaping target of lib/escape.c on hostile text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "escape.h"

typedef void (*escape_fn)(struct pdb_buf *, const char *);

static void expect(escape_fn f, const char *in, const char *want)
{
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "");
	f(&b, in);
	if (strcmp(b.data, want) != 0)
		fail_msg("escape of \"%s\": got \"%s\", want \"%s\"", in, b.data, want);
	pdb_buf_release(&b);
}

static void test_markdown(void **state)
{
	(void)state;
	/* CommonMark's backslash escapes: no tag, no reference, and read as
	 * text in the file itself ("lost 2 \\> 0", not "lost 2 &gt; 0") */
	expect(pdb_escape_md, "<img src=x onerror=alert(1)>", "\\<img src=x onerror=alert(1)\\>");
	expect(pdb_escape_md, "lost 2 > 0 & &amp;", "lost 2 \\> 0 \\& \\&amp;");
	expect(pdb_escape_md, "a|b", "a\\|b");
	expect(pdb_escape_md, "new\nline", "new line");
	expect(pdb_escape_md, "`code` *b* _i_ [l]", "\\`code\\` \\*b\\* \\_i\\_ \\[l\\]");
	expect(pdb_escape_md, "\x1b[31m", "\xef\xbf\xbd\\[31m");
	expect(pdb_escape_md, "\xc2\x85x", "\xef\xbf\xbdx");
	/* GitHub links these by itself: the escape keeps them text */
	expect(pdb_escape_md, "http://x www.y", "http\\://x www\\.y");
	expect(pdb_escape_md, "a: b, 1.5", "a: b, 1.5");
}

static void test_xml(void **state)
{
	(void)state;
	expect(pdb_escape_xml, "<a b=\"c\" d='e'>&", "&lt;a b=&quot;c&quot; d=&apos;e&apos;&gt;&amp;");
	expect(pdb_escape_xml, "\x1b[31m\x01\x7f", "\xef\xbf\xbd[31m\xef\xbf\xbd\xef\xbf\xbd");
	expect(pdb_escape_xml, "a\tb\nc\rd", "a&#9;b&#10;c&#13;d");
	expect(pdb_escape_xml, "\xc2\x9bx \xc3\xa9", "\xef\xbf\xbdx \xc3\xa9"); /* C1 out, é kept */
}

static void test_html(void **state)
{
	(void)state;
	expect(pdb_escape_html, "<script>'&\"", "&lt;script&gt;&#39;&amp;&quot;");
	expect(pdb_escape_html, "a\x1b" "b\nc", "a\xef\xbf\xbd" "b\nc");
}

static void test_terminal(void **state)
{
	(void)state;
	expect(pdb_escape_term, "\x1b]0;t\x07", "\\x1b]0;t\\x07");
	expect(pdb_escape_term, "a\nb\tc\r", "a\\nb\\tc\\r");
	expect(pdb_escape_term, "\xc2\x9b" "31m \xc3\xa9", "\\u009b31m \xc3\xa9");
	expect(pdb_escape_term, "\x7f", "\\x7f");
	/* bidi overrides and isolates, line and paragraph separators; their
	 * neighbours (U+2027, U+202F, U+2065, U+206A) and a cut one kept */
	expect(pdb_escape_term, "a\xe2\x80\xae" "b\xe2\x81\xa6" "c\xe2\x81\xa9",
	       "a\\u202eb\\u2066c\\u2069");
	expect(pdb_escape_term, "\xe2\x80\xaa\xe2\x80\xa8\xe2\x80\xa9", "\\u202a\\u2028\\u2029");
	expect(pdb_escape_term, "\xe2\x80\xa7\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xe2\x80",
	       "\xe2\x80\xa7\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xe2\x80");
}

static void test_csv(void **state)
{
	(void)state;
	expect(pdb_escape_csv, "=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"");
	expect(pdb_escape_csv, "+x", "'+x");
	expect(pdb_escape_csv, "-cmd", "'-cmd");
	expect(pdb_escape_csv, "@SUM(A1)", "'@SUM(A1)");
	expect(pdb_escape_csv, "\tx", "'\tx");
	expect(pdb_escape_csv, "\rx", "\"'\rx\"");
	/* numbers stay numbers */
	expect(pdb_escape_csv, "-3.2", "-3.2");
	expect(pdb_escape_csv, "+1e5", "+1e5");
	expect(pdb_escape_csv, "-inf", "-inf");
	expect(pdb_escape_csv, "-", "'-");
	expect(pdb_escape_csv, "-2+3", "'-2+3");
	expect(pdb_escape_csv, "a,b", "\"a,b\"");
	expect(pdb_escape_csv, "plain", "plain");
	expect(pdb_escape_csv, "", "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_xml),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_terminal),
		cmocka_unit_test(test_csv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
