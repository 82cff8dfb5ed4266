/*
 * text.h - text from data (run.json, CSV files, stores, configs, command
 * lines) on its way to a terminal, a status line or a web page. MPI-free;
 * nothing here allocates.
 *
 * The rule: text is valid UTF-8 at the door (text_check names what is
 * wrong), and when it is printed, what a terminal, a monitoring system or
 * a browser would act on is shown as visible escapes instead:
 *
 *   - control characters (C0 but the tab, DEL) and bytes that are not
 *     UTF-8: \xHH
 *   - C1 controls (U+0080..U+009F) and the bidi controls that reorder
 *     what follows them (U+061C, U+200E, U+200F, U+202A..U+202E,
 *     U+2066..U+2069): \u{HHHH}
 *
 * so a newline cannot start a second status line, an escape sequence
 * cannot clear a screen and U+202E cannot reverse a switch's name.
 * Everything else (any other UTF-8 text, tabs, backslashes) passes
 * unchanged. text_check refuses the tab too: no one-line field holds one.
 */
#ifndef TEXT_H
#define TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Why s cannot be taken as one line of text: "not valid UTF-8",
 * "holds a control character" or "holds a bidi control character";
 * NULL when it can. */
const char *text_check(const char *s);

/* True when s is valid UTF-8 (no overlong forms, no surrogates, nothing
 * above U+10FFFF). */
bool text_utf8_valid(const char *s);

/* s with the escapes above into buf (len bytes with the NUL); returns
 * buf. What does not fit is cut at a whole escape or character and
 * ends in "..." (these are for display: never use them as paths). */
char *text_term(char *buf, size_t len, const char *s);

/* s with the escapes above, written to f (terminals, status lines). */
void text_term_put(FILE *f, const char *s);

/* s for HTML element content and quoted attribute values, written to f:
 * & < > " ' as character references, and the escapes above. */
void text_html_put(FILE *f, const char *s);

/* The width of swstress's text for people (reports, verdict details,
 * comparisons): a terminal of 80 columns. */
#define TEXT_WIDTH 80

/* One line of prose, printf-formatted, written to f broken at blanks into
 * lines of TEXT_WIDTH columns at most (a longer word stays whole), the
 * lines after the first indented by indent. Leading newlines are printed
 * as they are, a tab is a blank that never breaks, a mark ~ or * stays
 * with its word, and the blanks between words are kept (aligned columns).
 * At most 2047 bytes of text. */
void text_wrapped(FILE *f, const char *indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* text_wrapped of text as it is, of any length (no printf formatting). */
void text_wrapped_put(FILE *f, const char *indent, const char *text);

#endif
