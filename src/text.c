/* text.c - UTF-8 checks and visible escapes for text from data; see text.h. */
#include <stdarg.h>
#include <string.h>
#include "text.h"

/* The length of the UTF-8 sequence at s (its code point into *cp), or 0
 * when s does not start one (a stray continuation byte, an overlong form,
 * a surrogate, more than U+10FFFF, a sequence cut short). */
static size_t utf8_next(const unsigned char *s, unsigned *cp)
{
	static const unsigned min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n;
	unsigned c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

static bool is_bidi(unsigned c)
{
	return c == 0x61c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
	       (c >= 0x2066 && c <= 0x2069);
}

bool text_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned c;
	size_t n;

	for (; *p; p += n)
		if (!(n = utf8_next(p, &c)))
			return false;
	return true;
}

const char *text_check(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const char *why = NULL;
	unsigned c;
	size_t n;

	for (; *p; p += n) {
		if (!(n = utf8_next(p, &c)))
			return "not valid UTF-8";
		if (!why && (c < 0x20 || (c >= 0x7f && c <= 0x9f)))
			why = "holds a control character";
		else if (!why && is_bidi(c))
			why = "holds a bidi control character";
	}
	return why;
}

/* Where escaped text goes: a FILE, or a buffer that may fill up. */
struct sink {
	FILE *f;
	char *buf;
	size_t len, used;
	bool full;
};

static void emit(struct sink *k, const char *p, size_t n)
{
	if (k->f) {
		fwrite(p, 1, n, k->f);
		return;
	}
	if (k->full || k->used + n + 4 > k->len) {   /* room for "..." and the NUL */
		k->full = true;
		return;
	}
	memcpy(k->buf + k->used, p, n);
	k->used += n;
}

static void escape(struct sink *k, const char *s, bool html)
{
	const unsigned char *p = (const unsigned char *)s;
	char e[16];
	unsigned c;
	size_t n;

	for (; *p && !k->full; p += n) {
		n = utf8_next(p, &c);
		if (!n) {
			n = 1;
			snprintf(e, sizeof(e), "\\x%02X", p[0]);
			emit(k, e, strlen(e));
		} else if ((c < 0x20 && c != '\t') || c == 0x7f) {
			snprintf(e, sizeof(e), "\\x%02X", c);
			emit(k, e, strlen(e));
		} else if ((c >= 0x80 && c <= 0x9f) || is_bidi(c)) {
			snprintf(e, sizeof(e), "\\u{%04X}", c);
			emit(k, e, strlen(e));
		} else if (html && c == '&')
			emit(k, "&amp;", 5);
		else if (html && c == '<')
			emit(k, "&lt;", 4);
		else if (html && c == '>')
			emit(k, "&gt;", 4);
		else if (html && c == '"')
			emit(k, "&quot;", 6);
		else if (html && c == '\'')
			emit(k, "&#39;", 5);
		else
			emit(k, (const char *)p, n);
	}
}

char *text_term(char *buf, size_t len, const char *s)
{
	struct sink k = { .buf = buf, .len = len };

	if (!len)
		return buf;
	if (len < 4) {
		buf[0] = '\0';
		return buf;
	}
	escape(&k, s, false);
	if (k.full) {
		memcpy(buf + k.used, "...", 3);
		k.used += 3;
	}
	buf[k.used] = '\0';
	return buf;
}

void text_term_put(FILE *f, const char *s)
{
	struct sink k = { .f = f };

	escape(&k, s, false);
}

void text_html_put(FILE *f, const char *s)
{
	struct sink k = { .f = f };

	escape(&k, s, true);
}

/* One line of prose, broken at blanks into lines of TEXT_WIDTH columns
 * at most (a word longer than that stays whole), the lines after the
 * first indented by indent; newlines that begin it are printed as they
 * are. A tab is a blank that never breaks (printed
 * as a space); a mark ~ or * stays with the word before it; blanks
 * between words on one line are kept as they are (aligned columns). */
void text_wrapped(FILE *f, const char *indent, const char *fmt, ...)
{
	char text[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	text_wrapped_put(f, indent, text);
}

void text_wrapped_put(FILE *f, const char *indent, const char *text)
{
	const char *p = text;
	int col = 0, lead = (int)strlen(indent), gap = 0;

	while (*p == '\n')   /* blank lines before it */
		fputc(*p++, f);
	gap = (int)strspn(p, " ");   /* the text's own leading blanks stay */
	for (p += gap; *p; ) {
		int word = (int)strcspn(p, " ");

		while (p[word] == ' ' && (p[word + 1] == '~' || p[word + 1] == '*') && strchr(" ,", p[word + 2]))
			word += 2 + (p[word + 2] == ',');
		if (col > lead && col + 1 + word > TEXT_WIDTH) {
			fprintf(f, "\n%s", indent);
			col = lead;
		} else {
			fprintf(f, "%*s", gap, "");
			col += gap;
		}
		for (int i = 0; i < word; i++)
			fputc(p[i] == '\t' ? ' ' : p[i], f);
		col += word;
		p += word;
		gap = (int)strspn(p, " ");
		p += gap;
	}
	fputc('\n', f);
}
