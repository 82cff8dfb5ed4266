/*
 * test_fmt.c - the number formatter against strings worked out by hand:
 * 4 significant digits, no exponent, scaled units, a CI in its median's
 * unit.
 */
#include <criterion/criterion.h>
#include <math.h>
#include "fmt.h"

static void num_is(double v, const char *want)
{
	char b[64];

	cr_expect_str_eq(fmt_num(b, sizeof(b), v), want, "fmt_num(%.17g)", v);
}

Test(fmt, num_four_digits_no_exponent)
{
	num_is(0, "0");
	num_is(1.528, "1.528");
	num_is(1.5284, "1.528");
	num_is(9.4016, "9.402");
	num_is(38.73, "38.73");
	num_is(492.2, "492.2");
	num_is(8056.4, "8056");
	num_is(14190, "14190");     /* was 1.419e+04 */
	num_is(123456.7, "123457");
	num_is(0.4879, "0.4879");
	num_is(0.00012346, "0.0001235");
	num_is(9.99951, "10");      /* 4 digits round up to a 5th */
	num_is(99.996, "100");
	num_is(2.5, "2.5");
	num_is(14, "14");
	num_is(-23.25, "-23.25");
	num_is(-0.00001, "-0.00001");
	num_is(NAN, "n/a");
	num_is(INFINITY, "n/a");
}

static void val_is(enum fmt_unit u, double v, const char *want)
{
	char b[64];

	cr_expect_str_eq(fmt_val(b, sizeof(b), u, v), want, "fmt_val(%d, %.17g)", u, v);
}

Test(fmt, units_scale)
{
	val_is(FMT_TIME, 1.528e-6, "1.528 us");
	val_is(FMT_TIME, 0.4879e-6, "0.4879 us");
	val_is(FMT_TIME, 999.9e-6, "999.9 us");
	val_is(FMT_TIME, 999.96e-6, "1 ms");
	val_is(FMT_TIME, 11.06e-3, "11.06 ms");
	val_is(FMT_TIME, 189.0, "189 s");
	val_is(FMT_TIME, 4000.0, "4000 s");
	val_is(FMT_BW, 5.235e6, "5.235 MB/s");
	val_is(FMT_BW, 0.8538e6, "0.8538 MB/s");
	val_is(FMT_BW, 8056e6, "8.056 GB/s");
	val_is(FMT_BW, 11.34e9, "11.34 GB/s");
	val_is(FMT_RATE, 4.374e6, "4.374 Mmsg/s");    /* one unit, never scaled */
	val_is(FMT_RATE, 2500e6, "2500 Mmsg/s");
	val_is(FMT_RATE, 87420, "0.08742 Mmsg/s");
	val_is(FMT_BW, 2.5e12, "2.5 TB/s");
	val_is(FMT_PLAIN, 3.0, "3");
	val_is(FMT_TIME, NAN, "n/a");
}

Test(fmt, ci_in_the_median_unit)
{
	char b[96];

	cr_expect_str_eq(fmt_ci(b, sizeof(b), FMT_BW, 1.134e10, 1.132e10, 1.137e10, false),
			 "11.34 GB/s [11.32, 11.37]~");
	cr_expect_str_eq(fmt_ci(b, sizeof(b), FMT_TIME, 9.401e-6, 6.569e-6, 11.09e-6, true),
			 "9.401 us [6.569, 11.09]");
	/* the interval stays in the median's unit even past 1000 of it */
	cr_expect_str_eq(fmt_ci(b, sizeof(b), FMT_TIME, 93.17e-6, 30.05e-6, 1303.5e-6, true),
			 "93.17 us [30.05, 1304]");
	cr_expect_str_eq(fmt_ci(b, sizeof(b), FMT_PLAIN, 5.0, NAN, NAN, true), "5 [n/a, n/a]");
}

Test(fmt, pct_one_decimal)
{
	char b[32];

	cr_expect_str_eq(fmt_pct(b, sizeof(b), 515.24), "+515.2%");
	cr_expect_str_eq(fmt_pct(b, sizeof(b), -6.66), "-6.7%");
	cr_expect_str_eq(fmt_pct(b, sizeof(b), -0.01), "+0.0%");
	cr_expect_str_eq(fmt_pct(b, sizeof(b), NAN), "n/a");
}
