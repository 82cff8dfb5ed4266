/*
 * test_stats_time.c - the statistics of changes that time can move
 * (stats.h: stats_interval_set, stats_block_ratio, stats_runs_welch, the
 * run-to-run allowance, Holm, the resolution of a count, the upper bound
 * of an SD) against values worked by hand: Student t quantiles from the
 * printed tables (t_0.975 = 4.302653 at 2 df, 2.776445 at 4 df, z =
 * 1.959964), p-values from the closed forms of the t distribution at 2 df
 * (F(t) = 1/2 + t / (2 sqrt(2 + t^2))) and 4 df (F(t) = 1/2 + 3/8 u (1 -
 * u^2 / 12) with u = t / sqrt(1 + t^2 / 4), checked against a numerical
 * integral of the density), chi-square quantiles at
 * 0.05 (-2 ln 0.95 = 0.1025866 at 2 df, the table's 0.7107230 at 4 df),
 * and Holm's adjustment done by hand as R's p.adjust does it.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include "stats.h"

static bool near(double got, double want, double tol)
{
	return fabs(got - want) <= tol;
}

/* Per-block log ratios 0.05, 0.07, 0.09: d 0.07, se 0.02 / sqrt 3 =
 * 0.011547005 on 2 df, CI 0.07 -+ 4.302653 se = [0.0203172, 0.1196828],
 * t 6.0621778, p = 1 - t / sqrt(2 + t^2) = 0.0261483. */
Test(stats_time, block_ratio_paired_t)
{
	const double l[3] = { 0.05, 0.07, 0.09 }, base[3] = { 10.0, 12.0, 9.0 };
	double x[3], shifted_x[3], shifted_b[3];
	struct stats_interval iv, sh;

	stats_init();
	for (int b = 0; b < 3; b++)
		x[b] = base[b] * exp(l[b]);
	cr_assert_eq(stats_block_ratio(x, base, 3, 0.0, 0.95, &iv), 0);
	cr_assert_eq(iv.n, 3);
	cr_assert(near(iv.d, 0.07, 1e-12), "d %g", iv.d);
	cr_assert(near(iv.se, 0.011547005, 1e-9), "se %g", iv.se);
	cr_assert(near(iv.df, 2.0, 1e-12));
	cr_assert(near(iv.lo, 0.0203172, 2e-7) && near(iv.hi, 0.1196828, 2e-7), "[%g, %g]", iv.lo, iv.hi);
	cr_assert(near(iv.p, 0.0261483, 2e-7), "p %g", iv.p);
	/* a shift of speed shared by both levels of a block cancels: blocks
	 * 2 and 3 run 30% slower and 20% faster, the same interval */
	const double f[3] = { 1.0, 1.3, 0.8 };
	for (int b = 0; b < 3; b++) {
		shifted_x[b] = x[b] * f[b];
		shifted_b[b] = base[b] * f[b];
	}
	cr_assert_eq(stats_block_ratio(shifted_x, shifted_b, 3, 0.0, 0.95, &sh), 0);
	cr_assert(near(sh.d, iv.d, 1e-12) && near(sh.lo, iv.lo, 1e-12) && near(sh.p, iv.p, 1e-12));
	/* the CI and the test agree: at confidence 1 - p the CI ends at 0 */
	cr_assert_eq(stats_block_ratio(x, base, 3, 0.0, 1.0 - iv.p, &sh), 0);
	cr_assert(near(sh.lo, 0.0, 1e-9), "lo %g", sh.lo);
	/* refusals */
	cr_assert_eq(stats_block_ratio(x, base, 1, 0.0, 0.95, &sh), -1);
	x[1] = 0.0;
	cr_assert_eq(stats_block_ratio(x, base, 3, 0.0, 0.95, &sh), -1);
}

/* The resolution: ratios that are all 1.05 (every block counted the same
 * whole messages) have no spread; with res 0.01 the interval is the
 * normal one, ln 1.05 -+ 1.959964 x 0.01, never of width 0. With a
 * spread, se = sqrt(se_stat^2 + res^2) and df = 2 (se / se_stat)^4. */
Test(stats_time, resolution_enters_the_se)
{
	const double x[3] = { 10.5, 21.0, 31.5 }, base[3] = { 10.0, 20.0, 30.0 };
	const double l[3] = { 0.05, 0.07, 0.09 }, b1[3] = { 1, 1, 1 };
	double x2[3];
	struct stats_interval iv;

	cr_assert_eq(stats_block_ratio(x, base, 3, 0.0, 0.95, &iv), 0);
	cr_assert(iv.hi - iv.lo < 1e-12, "no spread, no resolution: a point");
	cr_assert_eq(stats_block_ratio(x, base, 3, 0.01, 0.95, &iv), 0);
	cr_assert(iv.df > 1e9, "df %g: the normal", iv.df);
	cr_assert(near(iv.lo, log(1.05) - 0.01959964, 1e-8) && near(iv.hi, log(1.05) + 0.01959964, 1e-8),
		  "[%g, %g]", iv.lo, iv.hi);
	for (int b = 0; b < 3; b++)
		x2[b] = exp(l[b]);
	cr_assert_eq(stats_block_ratio(x2, b1, 3, 0.01, 0.95, &iv), 0);
	double se = sqrt(0.02 * 0.02 / 3 + 0.0001);
	cr_assert(near(iv.se, se, 1e-12), "se %g", iv.se);
	cr_assert(near(iv.df, 2.0 * pow(se / (0.02 / sqrt(3.0)), 4.0), 1e-9), "df %g", iv.df);
	/* one message in 1000 counted: 1 / (1000 sqrt 12) */
	cr_assert(near(stats_quantum_se(1000.0, 1.0), 2.886751e-4, 1e-10));
	cr_assert(stats_quantum_se(1000.0, 0.0) == 0.0 && isinf(stats_quantum_se(0.0, 1.0)));
	/* a 95% interval from the count alone is 1.13 steps wide: never
	 * narrower than the one step the count can resolve */
	cr_assert_eq(stats_interval_set(&iv, 0.0, 0.0, 1.0, stats_quantum_se(200.0, 1.5), 0.95), 0);
	cr_assert(iv.hi - iv.lo >= 1.5 / 200.0, "width %g", iv.hi - iv.lo);
	cr_assert_eq(stats_interval_set(&iv, 0.0, 0.1, 0.5, 0.0, 0.95), -1, "df below 1");
	cr_assert_eq(stats_interval_set(&iv, 0.0, 0.1, 2.0, 0.0, 1.0), -1, "confidence 1");
}

/* Welch on the logs: a = 0, 0.02, 0.04, b = 0.10, 0.12, 0.14: d 0.1, se
 * sqrt(2 x 0.0004 / 3) = 0.0163299, df 4 (equal spreads and sizes), CI
 * 0.1 -+ 2.776445 se = [0.0546608, 0.1453392], p 0.0036022. Unequal: b
 * = 0.10 .. 0.14 in steps of 0.01 (var 0.00025, 5 runs): df =
 * (0.0004/3 + 0.00025/5)^2 / ((0.0004/3)^2 / 2 + (0.00005)^2 / 4) =
 * 3.5328467. */
Test(stats_time, runs_welch)
{
	const double la[3] = { 0.0, 0.02, 0.04 }, lb[3] = { 0.10, 0.12, 0.14 };
	const double lc[5] = { 0.10, 0.11, 0.12, 0.13, 0.14 };
	double a[3], b[3], c[5];
	struct stats_interval iv;

	for (int i = 0; i < 3; i++) {
		a[i] = 2.0 * exp(la[i]);
		b[i] = 2.0 * exp(lb[i]);
	}
	for (int i = 0; i < 5; i++)
		c[i] = 2.0 * exp(lc[i]);
	cr_assert_eq(stats_runs_welch(a, 3, b, 3, 0.0, 0.95, &iv), 0);
	cr_assert_eq(iv.n, 6);
	cr_assert(near(iv.d, 0.1, 1e-12) && near(iv.se, 0.0163299, 1e-7) && near(iv.df, 4.0, 1e-9),
		  "d %g se %g df %g", iv.d, iv.se, iv.df);
	cr_assert(near(iv.lo, 0.0546608, 2e-7) && near(iv.hi, 0.1453392, 2e-7), "[%g, %g]", iv.lo, iv.hi);
	cr_assert(near(iv.p, 0.0036022, 2e-7), "p %g", iv.p);
	/* swapped: the opposite difference, the same p */
	struct stats_interval sw;
	cr_assert_eq(stats_runs_welch(b, 3, a, 3, 0.0, 0.95, &sw), 0);
	cr_assert(near(sw.d, -0.1, 1e-12) && near(sw.p, iv.p, 1e-12) && near(sw.hi, -iv.lo, 1e-12));
	cr_assert_eq(stats_runs_welch(a, 3, c, 5, 0.0, 0.95, &iv), 0);
	cr_assert(near(iv.df, 3.5328467, 1e-6), "df %g", iv.df);
	cr_assert_eq(stats_runs_welch(a, 1, b, 3, 0.0, 0.95, &iv), -1, "one run a side has no spread");
}

/* One run a side: run_sd 5% gives z sqrt 2 0.05 = 0.1385904; a claim
 * needs the whole interval beyond it. */
Test(stats_time, run_to_run_allowance)
{
	double allow = stats_run_allowance(0.05, 0.95);

	cr_assert(near(allow, 0.1385904, 1e-7), "allowance %g", allow);
	cr_assert(isnan(stats_run_allowance(-1.0, 0.95)));
	cr_assert_eq(stats_beyond(0.15, 0.30, allow), 1);
	cr_assert_eq(stats_beyond(-0.30, -0.14, allow), -1);
	cr_assert_eq(stats_beyond(0.10, 0.30, allow), 0, "the interval reaches into the allowance");
	cr_assert_eq(stats_beyond(-0.30, 0.30, 0.0), 0, "covers 0");
	cr_assert_eq(stats_beyond(0.01, 0.02, 0.0), 1);
	cr_assert_eq(stats_beyond(NAN, 0.30, 0.0), 0);
}

/* The one-sided p of "d at most c": d 0.07, se 0.011547 on 2 df, c 0.02:
 * t = 4.330127, P(T > t) = (1 - t / sqrt(2 + t^2)) / 2 = 0.0247068. */
Test(stats_time, p_above_a_threshold)
{
	const double x[3] = { exp(0.05), exp(0.07), exp(0.09) }, b[3] = { 1, 1, 1 };
	struct stats_interval iv;

	cr_assert_eq(stats_block_ratio(x, b, 3, 0.0, 0.95, &iv), 0);
	cr_assert(near(stats_interval_p_above(&iv, 0.02), 0.0247068, 2e-7));
	cr_assert(near(stats_interval_p_above(&iv, 0.07), 0.5, 1e-12));
	cr_assert(stats_interval_p_above(&iv, 0.2) > 0.99);
}

/* p = 0.01, 0.04, 0.03, 0.005 (and one untested cell): sorted 0.005,
 * 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04, running
 * maximum 0.02, 0.03, 0.06, 0.06 (R: p.adjust(c(.01,.04,.03,.005),
 * "holm") = 0.03 0.06 0.06 0.02). */
Test(stats_time, holm)
{
	const double p[5] = { 0.01, 0.04, NAN, 0.03, 0.005 };
	const double want[5] = { 0.03, 0.06, NAN, 0.06, 0.02 };
	const double big[2] = { 0.6, 0.7 };
	double adj[5];

	cr_assert_eq(stats_holm(p, 5, adj), 0);
	for (int i = 0; i < 5; i++)
		cr_assert(isnan(want[i]) ? isnan(adj[i]) : near(adj[i], want[i], 1e-12), "adj[%d] %g", i, adj[i]);
	cr_assert_eq(stats_holm(big, 2, adj), 0);
	cr_assert(adj[0] == 1.0 && adj[1] == 1.0, "capped at 1");
	cr_assert_eq(stats_holm(p, 0, adj), 0);
}

/* s sqrt(df / chi2_0.05(df)): 4.4153962 s at 2 df, 2.3723557 s at 4. */
Test(stats_time, sd_upper_bound)
{
	cr_assert(near(stats_sd_upper(1.0, 2.0, 0.95), 4.4153962, 1e-6));
	cr_assert(near(stats_sd_upper(0.1, 4.0, 0.95), 0.23723557, 1e-7));
	cr_assert(isnan(stats_sd_upper(1.0, 0.0, 0.95)));
}

/* ln y = 0.1 + 0.02 t + e, e = .01, -.01, 0, -.01, .01 (orthogonal to 1
 * and t): slope 0.02 exactly, d = 0.02 x span 4 = 0.08; SSE 4e-4 on 3
 * df, se(slope) = sqrt(4e-4 / 3 / 10), se = 4 sqrt(1.3333e-5) =
 * 0.0146059; t(0.975, 3) = 3.1824463: CI 0.08 +- 0.0464827. */
Test(stats_time, trend_over_blocks)
{
	const double t[5] = { 0, 1, 2, 3, 4 }, e[5] = { 0.01, -0.01, 0, -0.01, 0.01 };
	const double flat[3] = { 1, 1, 1 };
	double y[5];
	struct stats_interval iv;

	for (int i = 0; i < 5; i++)
		y[i] = exp(0.1 + 0.02 * t[i] + e[i]);
	cr_assert_eq(stats_trend(t, y, 5, 0.0, 0.95, &iv), 0);
	cr_assert(near(iv.d, 0.08, 1e-9), "d %g", iv.d);
	cr_assert(near(iv.se, 0.0146059, 1e-5), "se %g", iv.se);
	cr_assert(near(iv.df, 3.0, 1e-12));
	cr_assert(near(iv.hi - iv.d, 0.0464827, 1e-5), "half-width %g", iv.hi - iv.d);
	cr_assert(iv.p < 0.05 && iv.lo > 0.0);
	cr_assert_eq(stats_trend(t, y, 2, 0.0, 0.95, &iv), -1, "needs 3 points");
	cr_assert_eq(stats_trend(flat, y, 3, 0.0, 0.95, &iv), -1, "t all equal");
	y[1] = -1.0;
	cr_assert_eq(stats_trend(t, y, 5, 0.0, 0.95, &iv), -1, "a value not positive");
}

/*
 * The block change (median, sign-test interval) on a published data set:
 * Hollander and Wolfe, Nonparametric Statistical Methods, 2nd ed. (Wiley
 * 1999), Example 3.1 (Table 3.1, the Hamilton depression scale factor IV
 * of 9 patients before, x, and after a tranquilizer, y). The differences
 * y - x sorted: -1.022, -0.952, -0.620, -0.590, -0.490, -0.430, -0.010,
 * 0.080, 0.147; median -0.490. The sign test's order-statistic interval
 * [X(2), X(8)] = [-0.952, 0.080] has coverage 1 - 2 P(B <= 1) = 1 - 2 x
 * 10/512 = 0.9609 (B ~ Bin(9, 1/2): Conover, Practical Nonparametric
 * Statistics, 3rd ed. 1999, 3.2 and Table A3), [X(3), X(7)] 1 - 2 x
 * 46/512 = 0.8203. At 95%, Hettmansperger and Sheather (1986): I =
 * (0.9609 - 0.95) / (0.9609 - 0.8203) = 0.07778, lambda = 7 I / (2 + 5 I)
 * = 0.22791, so [-0.87633, 0.05949] (worked by hand). p: the upper end
 * reaches 0 at lambda = 0.08 / 0.09 = 0.88889 between X(8) and X(7), I =
 * 2 lambda / (7 - 5 lambda) = 0.69565, coverage 0.9609 - I (0.9609 -
 * 0.8203) = 0.86311: p = 0.13689 (the exact sign test, 2 positives of 9:
 * 2 x 46/512 = 0.180). On the log scale: x and base as
 * exp(y) and exp(x).
 */
Test(stats_time, block_median_hollander_wolfe_3_1)
{
	const double bx[9] = { 1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30 };
	const double by[9] = { 0.878, 0.647, 0.598, 2.050, 1.060, 1.290, 1.060, 3.140, 1.290 };
	double x[9], base[9], shifted[9];
	struct stats_interval iv, sh;

	stats_init();
	for (int i = 0; i < 9; i++) {
		x[i] = exp(by[i]);
		base[i] = exp(bx[i]);
	}
	cr_assert_eq(stats_block_median(x, base, 9, 0.0, 0.95, &iv), 0);
	cr_assert_eq(iv.n, 9);
	cr_assert(near(iv.d, -0.490, 1e-9), "median %g", iv.d);
	cr_assert(near(iv.lo, -0.87633, 2e-5) && near(iv.hi, 0.05949, 2e-5), "[%g, %g]", iv.lo, iv.hi);
	cr_assert(near(iv.p, 0.13689, 2e-5), "p %g", iv.p);
	cr_assert_eq(stats_block_median(x, base, 9, 0.0, 1.0 - 2 * 10.0 / 512.0, &sh), 0);
	cr_assert(near(sh.lo, -0.952, 1e-9) && near(sh.hi, 0.080, 1e-9), "at 96.09%%: [%g, %g]", sh.lo, sh.hi);
	/* the test and the interval agree: at confidence 1 - p the interval
	 * ends at 0 */
	cr_assert_eq(stats_block_median(x, base, 9, 0.0, 1.0 - iv.p, &sh), 0);
	cr_assert(near(sh.hi, 0.0, 1e-9), "hi %g", sh.hi);
	/* one patient 1000x off (ln 1000 added to the largest difference)
	 * moves neither the median nor the interval; added to the smallest,
	 * the median moves to the next difference up and the ends stay
	 * within the others (the mean would move by 0.77) */
	for (int i = 0; i < 9; i++)
		shifted[i] = x[i] * (i == 1 ? 1000.0 : 1.0);   /* 0.147 is patient 2 */
	cr_assert_eq(stats_block_median(shifted, base, 9, 0.0, 0.95, &sh), 0);
	cr_assert(sh.d == iv.d && sh.lo == iv.lo && sh.hi == iv.hi, "%g [%g, %g]", sh.d, sh.lo, sh.hi);
	for (int i = 0; i < 9; i++)
		shifted[i] = x[i] / (i == 2 ? 1000.0 : 1.0);   /* -1.022 is patient 3 */
	cr_assert_eq(stats_block_median(shifted, base, 9, 0.0, 0.95, &sh), 0);
	cr_assert(near(sh.d, -0.490, 1e-9) && sh.lo >= -1.022 && sh.hi <= 0.147, "%g [%g, %g]", sh.d, sh.lo,
		  sh.hi);
	/* a resolution widens each end in quadrature, and p follows it */
	cr_assert_eq(stats_block_median(x, base, 9, 0.05, 0.95, &sh), 0);
	cr_assert(near(sh.lo, -0.49 - hypot(0.38633, 0.05 * 1.959964), 2e-5) &&
		  near(sh.hi, -0.49 + hypot(0.54949, 0.05 * 1.959964), 2e-5), "[%g, %g]", sh.lo, sh.hi);
	cr_assert(sh.p > iv.p, "p %g", sh.p);
	cr_assert_eq(stats_block_median(x, base, 9, 0.05, 1.0 - sh.p, &sh), 0);
	cr_assert(near(sh.hi, 0.0, 1e-9), "at 1 - p the widened interval ends at 0: hi %g", sh.hi);
	/* refusals */
	cr_assert_eq(stats_block_median(x, base, 1, 0.0, 0.95, &sh), -1);
	base[2] = -1.0;
	cr_assert_eq(stats_block_median(x, base, 9, 0.0, 0.95, &sh), -1);
}

/*
 * Too few blocks: with n blocks the smallest two-sided p of the sign
 * test (and of the signed-rank test) is 2 / 2^n, so 5 blocks cannot reach 95% (1/16) and 6 can (1/32); at 99%
 * 8 (1/128). The critical values of the tables (Hollander and Wolfe
 * Table A.4): n = 10, P(T+ <= 8) = 25/1024 = 0.0244. Kendall's
 * discordant pairs: n = 5, the Mahonian row 1 4 9 15 20 22 ... of 120
 * (P(D <= 1) = 5/120), so 5 points reach 95% and 4 (P(D <= 0) = 1/24 >
 * 0.025) do not; n = 10, P(S >= 23) = 0.0233 (Kendall's table, S = 45 -
 * 2 D).
 */
Test(stats_time, rank_tables_and_too_few_blocks)
{
	const double x[5] = { 1.10, 1.12, 1.08, 1.11, 1.09 }, b[5] = { 1, 1, 1, 1, 1 };
	struct stats_interval iv;

	cr_assert_eq(stats_rank_min_units(0, 0.95), 6);
	cr_assert_eq(stats_rank_min_units(0, 0.99), 8);
	cr_assert_eq(stats_rank_min_units(1, 0.95), 5);
	cr_assert(near(stats_signrank_cdf(10, 8), 25.0 / 1024.0, 1e-15));
	cr_assert(near(stats_kendall_cdf(5, 1), 5.0 / 120.0, 1e-15));
	cr_assert(near(stats_kendall_cdf(4, 0), 1.0 / 24.0, 1e-15));
	cr_assert(near(stats_kendall_cdf(10, 11), 0.0233113, 1e-7));
	/* 5 blocks all +8..12%: an estimate, no interval, p at least 1/16 */
	cr_assert_eq(stats_block_median(x, b, 5, 0.0, 0.95, &iv), 0);
	cr_assert(near(iv.d, log(1.10), 1e-12) && isnan(iv.lo) && isnan(iv.hi), "%g [%g, %g]", iv.d, iv.lo, iv.hi);
	cr_assert(iv.p >= 0.0625 - 1e-9, "p %g", iv.p);
}

/* Theil-Sen, worked by hand: ln y = 0.09, 0.13, 0.13, 0.17, 0.17 at t =
 * 0..4; the 10 pairwise slopes sorted: 0, 0, 0.0133, 0.02 (four
 * times), 0.0267, 0.04, 0.04: median 0.02, d = 0.02 x span 4 = 0.08.
 * With 5 points only k = 1 reaches 95% (P(D <= 0) = 1/120, P(D <= 1) =
 * 5/120): the interval is the extreme slopes, [0, 0.16]. p: no slope
 * below 0, 2 at 0, m = 2, p = 2 P(D <= 2) = 2 x 14/120. The last block
 * 1000x slower: the four slopes to it leave for the top, the median is
 * then 0.04 and d 0.16 (least squares: d 5.61). */
Test(stats_time, theil_sen_by_hand)
{
	const double t[5] = { 0, 1, 2, 3, 4 }, l[5] = { 0.09, 0.13, 0.13, 0.17, 0.17 }, flat[3] = { 2, 2, 2 };
	double y[5];
	struct stats_interval iv;

	for (int i = 0; i < 5; i++)
		y[i] = exp(l[i]);
	cr_assert_eq(stats_trend_sen(t, y, 5, 0.0, 0.95, &iv), 0);
	cr_assert(near(iv.d, 0.08, 1e-12), "d %g", iv.d);
	cr_assert(near(iv.lo, 0.0, 1e-12) && near(iv.hi, 0.16, 1e-12), "[%g, %g]", iv.lo, iv.hi);
	cr_assert(near(iv.p, 2 * 14.0 / 120.0, 1e-12), "p %g", iv.p);
	y[4] *= 1000.0;
	cr_assert_eq(stats_trend_sen(t, y, 5, 0.0, 0.95, &iv), 0);
	cr_assert(near(iv.d, 0.16, 1e-12), "with one block 1000x: d %g", iv.d);
	cr_assert_eq(stats_trend_sen(t, y, 2, 0.0, 0.95, &iv), -1, "needs 3 points");
	cr_assert_eq(stats_trend_sen(flat, y, 3, 0.0, 0.95, &iv), -1, "t all equal");
}

/* A small normal generator of the tests' own (xorshift64, Box-Muller),
 * seeded: the moderated variance against a simulated truth. */
static uint64_t mv_state = 0x853c49e6748fea9bULL;

static double mv_normal(void)
{
	double u, v;

	mv_state ^= mv_state << 13;
	mv_state ^= mv_state >> 7;
	mv_state ^= mv_state << 17;
	u = ((double)(mv_state >> 11) + 0.5) / 9007199254740992.0;
	mv_state ^= mv_state << 13;
	mv_state ^= mv_state >> 7;
	mv_state ^= mv_state << 17;
	v = ((double)(mv_state >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* A chi-square draw on an integer df: the sum of df squared normals. */
static double mv_chi2(int df)
{
	double s = 0.0;

	for (int i = 0; i < df; i++) {
		double z = mv_normal();

		s += z * z;
	}
	return s;
}

/*
 * Smyth (2004)'s prior, fitted by stats_moderate_var, against the truth it
 * was drawn from: 4000 cells, each true variance s0^2 d0 / chi2(d0) with
 * d0 = 8 and s0^2 = 0.0025 (a 5% SD), each observed on 2 df (3 runs):
 * d0 read within 5..13, s0^2 within 10%. Cells that share one variance
 * (0.0004): d0 infinite or large, s0^2 within 10%, and a cell's
 * moderated variance on at most the pool's df. A single cell: no
 * moderation (d0 = 0), its own variance.
 */
Test(stats_time, moderated_variance_recovers_its_prior)
{
	enum { N = 4000 };
	static double s2[N], df[N];
	double s0sq, d0, v, dfm;

	for (int i = 0; i < N; i++) {
		double sigma2 = 0.0025 * 8.0 / mv_chi2(8);

		s2[i] = sigma2 * mv_chi2(2) / 2.0;
		df[i] = 2.0;
	}
	cr_assert_eq(stats_moderate_var(s2, df, N, &s0sq, &d0), 0);
	cr_assert(d0 > 5 && d0 < 13, "d0 %g", d0);
	cr_assert(fabs(s0sq / 0.0025 - 1) < 0.1, "s0^2 %g", s0sq);
	for (int i = 0; i < N; i++)
		s2[i] = 0.0004 * mv_chi2(2) / 2.0;
	cr_assert_eq(stats_moderate_var(s2, df, N, &s0sq, &d0), 0);
	cr_assert(d0 > 200, "d0 %g", d0);
	cr_assert(fabs(s0sq / 0.0004 - 1) < 0.1, "s0^2 %g", s0sq);
	v = stats_moderated(s2[0], 2.0, s0sq, d0, 2.0 * N, &dfm);
	cr_assert(dfm <= 2.0 * N && dfm > 200, "df %g", dfm);
	cr_assert(fabs(v / s0sq - 1) < 0.05, "a cell takes the pool: %g vs %g", v, s0sq);
	cr_assert_eq(stats_moderate_var(s2, df, 1, &s0sq, &d0), 0);
	cr_assert_eq(d0, 0.0);
	cr_assert_eq(stats_moderated(s2[0], 2.0, s0sq, d0, 2.0, &dfm), s2[0]);
	cr_assert_eq(dfm, 2.0);
}
