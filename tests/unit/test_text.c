/*
 * test_text.c - text from data at the door (UTF-8, control and bidi
 * characters) and on its way out (escaped for terminals, status lines and
 * HTML), against byte sequences written out by hand.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text.h"

Test(text, utf8_valid_and_not)
{
	const char *good[] = { "", "plain", "Gr\xc3\xbc\xc3\x9f" "e", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
			       "\xf4\x8f\xbf\xbf", NULL };
	const char *bad[] = {
		"mod\xe8le",           /* Latin-1 e-grave */
		"\x80",                /* a stray continuation byte */
		"\xc0\xaf",            /* an overlong '/' */
		"\xe0\x80\xaf",        /* an overlong '/' in three bytes */
		"\xed\xa0\x80",        /* a surrogate */
		"\xf4\x90\x80\x80",    /* above U+10FFFF */
		"\xe2\x82",            /* cut short */
		"\xff", NULL,
	};

	for (int i = 0; good[i]; i++)
		cr_expect(text_utf8_valid(good[i]), "good[%d] refused", i);
	for (int i = 0; bad[i]; i++) {
		cr_expect_not(text_utf8_valid(bad[i]), "bad[%d] accepted", i);
		cr_expect_str_eq(text_check(bad[i]), "not valid UTF-8");
	}
}

Test(text, check_names_what_is_wrong)
{
	cr_expect_null(text_check("Acme X-3 \xe2\x82\xac"));
	cr_expect_str_eq(text_check("node1\nSWSTRESS OK - forged"), "holds a control character");
	cr_expect_str_eq(text_check("\x1b]0;title\x07"), "holds a control character");
	cr_expect_str_eq(text_check("a\xc2\x85" "b"), "holds a control character");  /* U+0085 NEL */
	cr_expect_str_eq(text_check("Acme \xe2\x80\xae" "X"), "holds a bidi control character");
	cr_expect_str_eq(text_check("\xe2\x81\xa6"), "holds a bidi control character");   /* U+2066 */
	/* invalid UTF-8 is named first, wherever it is */
	cr_expect_str_eq(text_check("\n\xff"), "not valid UTF-8");
}

Test(text, term_escapes_what_a_terminal_acts_on)
{
	char buf[128];

	cr_expect_str_eq(text_term(buf, sizeof(buf), "node1\nSWSTRESS OK - forged"),
			 "node1\\x0ASWSTRESS OK - forged");
	cr_expect_str_eq(text_term(buf, sizeof(buf), "\x1b[2J\x1b]0;pwn\x07"), "\\x1B[2J\\x1B]0;pwn\\x07");
	cr_expect_str_eq(text_term(buf, sizeof(buf), "Acme \xe2\x80\xae" "X"), "Acme \\u{202E}X");
	cr_expect_str_eq(text_term(buf, sizeof(buf), "a\xc2\x9b" "b"), "a\\u{009B}b");
	cr_expect_str_eq(text_term(buf, sizeof(buf), "mod\xe8le\x7f"), "mod\\xE8le\\x7F");
	cr_expect_str_eq(text_term(buf, sizeof(buf), "Version:\t4.0.2"), "Version:\t4.0.2");
	cr_expect_str_eq(text_term(buf, sizeof(buf), "Gr\xc3\xbc\xc3\x9f" "e a\\b <x>"), "Gr\xc3\xbc\xc3\x9f" "e a\\b <x>");
}

Test(text, term_cuts_at_a_whole_escape)
{
	char buf[12];

	/* "ab" + "\x0A" + "cd" = 8, "..." 3 and the NUL: 12 */
	cr_expect_str_eq(text_term(buf, sizeof(buf), "ab\ncdefgh"), "ab\\x0Acd...");
	cr_expect_str_eq(text_term(buf, sizeof(buf), "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"),
			 "\xe2\x82\xac\xe2\x82\xac...");
	cr_expect_str_eq(text_term(buf, sizeof(buf), "0123456"), "0123456");
	cr_expect_str_eq(text_term(buf, 3, "abc"), "");
}

static char *html(const char *s)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);

	cr_assert(f);
	text_html_put(f, s);
	fclose(f);
	return out;
}

Test(text, html_escapes_markup_and_bidi)
{
	char *a = html("<script>alert('x')</script>&\"");
	char *b = html("Acme \xe2\x80\xae" "X-3\n");

	cr_expect_str_eq(a, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;");
	cr_expect_str_eq(b, "Acme \\u{202E}X-3\\x0A");
	free(a);
	free(b);
}

Test(text, term_put_writes_the_same_as_term)
{
	char *out = NULL, buf[64];
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);

	cr_assert(f);
	text_term_put(f, "x\r\ny\xe2\x80\x8f");
	fclose(f);
	cr_expect_str_eq(out, text_term(buf, sizeof(buf), "x\r\ny\xe2\x80\x8f"));
	cr_expect_str_eq(out, "x\\x0D\\x0Ay\\u{200F}");
	free(out);
}
