/*
 * fmt.h - numbers for people: every value that report, compare and judge
 * print as text goes through here. MPI-free; nothing here allocates.
 *
 * The rules: at most 4 significant digits, never e-notation (a number of
 * 5 or more integer digits is shown whole: 12346), trailing zeros of a
 * fraction dropped, -0 shown as 0, not-a-number as "n/a". A unit scales
 * up once a value reaches 1000 of it: times through us, ms and s (below
 * 1 us as a fraction of a us), bandwidth (MB/s = 10^6 bytes/s) through
 * MB/s, GB/s and TB/s, a message rate never (Mmsg/s); a CI is written in the unit of its median.
 */
#ifndef FMT_H
#define FMT_H

#include <stdbool.h>
#include <stddef.h>

/* The kinds of value that carry a unit. */
enum fmt_unit {
	FMT_PLAIN = 0,   /* a bare number */
	FMT_TIME,        /* seconds */
	FMT_BW,          /* bytes per second */
	FMT_RATE,        /* messages per second, always in Mmsg/s (10^6 messages/s) */
};

/* v with at most 4 significant digits, no exponent, into buf; returns buf. */
char *fmt_num(char *buf, size_t len, double v);

/* The scale of the unit for a value v of the kind: the factor that turns
 * v into the unit and the unit's name ("us", "GB/s"; "" for FMT_PLAIN). */
double fmt_scale(enum fmt_unit u, double v, const char **name);

/* v with its scaled unit: "1.528 us", "11.34 GB/s". */
char *fmt_val(char *buf, size_t len, enum fmt_unit u, double v);

/* A median and its CI in the median's unit: "11.34 GB/s [11.32, 11.37]",
 * followed by "~" when !ok (the CI needs more samples). */
char *fmt_ci(char *buf, size_t len, enum fmt_unit u, double med, double lo, double hi, bool ok);

/* A signed percentage with one decimal: "+4.2%", "-0.3%", "n/a". */
char *fmt_pct(char *buf, size_t len, double pct);

#endif
