/*
 * test_sw.c - the shared helpers of sw.c that keep input as data: number
 * parsing with range checks (no atoi, no wrap of "-1" through strtoull)
 * and the path form handed to gnuplot.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "sw.h"

Test(sw, parse_long_whole_and_in_range)
{
	long v = 7;

	cr_expect_eq(sw_parse_long("42", 0, 100, &v), 0);
	cr_expect_eq(v, 42);
	cr_expect_eq(sw_parse_long(" -3 ", -5, 5, &v), 0);
	cr_expect_eq(v, -3);
	v = 7;
	const char *bad[] = { "", " ", "abc", "12abc", "1.5", "0x10", "101", "-1", "99999999999999999999", NULL };
	for (int i = 0; bad[i]; i++) {
		cr_expect_eq(sw_parse_long(bad[i], 0, 100, &v), -1, "'%s' accepted", bad[i]);
		cr_expect_eq(v, 7, "'%s' changed the value", bad[i]);
	}
}

Test(sw, parse_u64_refuses_signs)
{
	uint64_t v = 7;

	cr_expect_eq(sw_parse_u64("18446744073709551615", 0, UINT64_MAX, &v), 0);
	cr_expect_eq(v, UINT64_MAX);
	const char *bad[] = { "-1", "+1", "18446744073709551616", "", "1e3", "4294967298x", NULL };
	for (int i = 0; bad[i]; i++)
		cr_expect_eq(sw_parse_u64(bad[i], 0, UINT64_MAX, &v), -1, "'%s' accepted", bad[i]);
	cr_expect_eq(sw_parse_u64("0", 1, 10, &v), -1);
}

Test(sw, parse_double_finite)
{
	double v = 7;

	cr_expect_eq(sw_parse_double("1.5e-6", 0, 1, &v), 0);
	cr_expect_float_eq(v, 1.5e-6, 1e-12);
	const char *bad[] = { "inf", "-inf", "nan", "1e308x", "1e999", "", "2", "-0.5", NULL };
	for (int i = 0; bad[i]; i++)
		cr_expect_eq(sw_parse_double(bad[i], 0, 1, &v), -1, "'%s' accepted", bad[i]);
	/* an underflow to a tiny value is still a number, the range decides */
	cr_expect_eq(sw_parse_double("1e-320", 1e-9, 1, &v), -1);
}

/* gnuplot runs '<cmd' and '|cmd' file names through the shell: no name
 * handed over may start with either. */
Test(sw, path_plain_never_starts_with_a_pipe)
{
	char buf[64], err[128];

	cr_expect_eq(sw_path_plain("<touch X;echo /summary.csv", buf, sizeof(buf), err, sizeof(err)), 0);
	cr_expect_str_eq(buf, "./<touch X;echo /summary.csv");
	cr_expect_eq(sw_path_plain("|cat > x", buf, sizeof(buf), err, sizeof(err)), 0);
	cr_expect_str_eq(buf, "./|cat > x");
	cr_expect_eq(sw_path_plain("/abs/out.png", buf, sizeof(buf), err, sizeof(err)), 0);
	cr_expect_str_eq(buf, "/abs/out.png");
	cr_expect_eq(sw_path_plain("-", buf, sizeof(buf), err, sizeof(err)), 0);
	cr_expect_str_eq(buf, "./-");
	cr_expect_eq(sw_path_plain("a\nb", buf, sizeof(buf), err, sizeof(err)), -1);
	cr_expect_str_eq(err, "a: path holds a control character");
	char longp[80];
	memset(longp, 'x', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = '\0';
	cr_expect_eq(sw_path_plain(longp, buf, sizeof(buf), err, sizeof(err)), -1);
	cr_expect(strstr(err, "path too long"));
}
