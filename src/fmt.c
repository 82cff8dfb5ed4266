/* fmt.c - numbers for people; see fmt.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fmt.h"

/* Drop the trailing zeros of a fraction, and its point when nothing is
 * left after it. */
static void trim(char *s)
{
	char *e;

	if (!strchr(s, '.'))
		return;
	e = s + strlen(s) - 1;
	while (*e == '0')
		*e-- = '\0';
	if (*e == '.')
		*e = '\0';
}

char *fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);
	int dec;

	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	if (a == 0.0) {
		snprintf(buf, len, "0");
		return buf;
	}
	/* the decimals that leave 4 significant digits after rounding */
	dec = 3 - (int)floor(log10(a));
	if (dec > 0 && a * pow(10, dec) >= 9999.5)
		dec--;
	if (dec < 0)
		dec = 0;
	snprintf(buf, len, "%.*f", dec, v);
	trim(buf);
	if (!strcmp(buf, "-0"))
		snprintf(buf, len, "0");
	return buf;
}

double fmt_scale(enum fmt_unit u, double v, const char **name)
{
	static const char *tn[] = { "us", "ms", "s" }, *bn[] = { "MB/s", "GB/s", "TB/s" };
	static const double tk[] = { 1e6, 1e3, 1 }, bk[] = { 1e-6, 1e-9, 1e-12 };
	const double *k = u == FMT_TIME ? tk : bk;
	double a = isfinite(v) ? fabs(v) : 0.0;
	int i = 0;

	if (u == FMT_PLAIN) {
		*name = "";
		return 1.0;
	}
	if (u == FMT_RATE) {   /* one unit: rates of one switch compare at a glance */
		*name = "Mmsg/s";
		return 1e-6;
	}
	/* the next unit once 4 digits round to 1000 of this one */
	while (i < 2 && a * k[i] >= 999.95)
		i++;
	*name = u == FMT_TIME ? tn[i] : bn[i];
	return k[i];
}

char *fmt_val(char *buf, size_t len, enum fmt_unit u, double v)
{
	const char *name;
	double k = fmt_scale(u, v, &name);

	fmt_num(buf, len, v * k);
	if (*name && isfinite(v)) {
		size_t n = strlen(buf);

		snprintf(buf + n, len > n ? len - n : 0, " %s", name);
	}
	return buf;
}

char *fmt_ci(char *buf, size_t len, enum fmt_unit u, double med, double lo, double hi, bool ok)
{
	const char *name;
	double k = fmt_scale(u, med, &name);
	char m[32], l[32], h[32];

	fmt_num(m, sizeof(m), med * k);
	fmt_num(l, sizeof(l), lo * k);
	fmt_num(h, sizeof(h), hi * k);
	snprintf(buf, len, "%s%s%s [%s, %s]%s", m, *name ? " " : "", name, l, h, ok ? "" : "~");
	return buf;
}

char *fmt_pct(char *buf, size_t len, double pct)
{
	if (!isfinite(pct))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.1f%%", fabs(pct) < 0.05 ? 0.0 : pct);
	return buf;
}
