/*
 * test_stats.c - stats.c against published values: NIST StRD certified
 * means, standard deviations and a linear fit (tests/data/nist/), exact
 * binomial ranks counted here with integers, and the Bonett-Price median
 * intervals worked by hand.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

#define NIST_DIR "tests/data/nist/"

static bool close_rel(double got, double want, double tol)
{
	return fabs(got - want) <= tol * fabs(want);
}

/*
 * A data file: "# comment" lines, "KEY VALUE" lines for certified values
 * and n, then one value (or "y x" pair) per line. Reads up to max rows of
 * ncol numbers into v (row-major). Returns the rows, or -1.
 */
struct nist {
	double cert[4];
	const char *keys[4];
	size_t n;
};

static long nist_read(const char *name, struct nist *meta, double *v, size_t max, int ncol)
{
	char path[256], line[256];
	FILE *f;
	size_t rows = 0;

	snprintf(path, sizeof(path), NIST_DIR "%s.dat", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char key[64];
		double val;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%63s %lf", key, &val) == 2 && key[0] >= 'a' && key[0] <= 'z') {
			if (strcmp(key, "n") == 0)
				meta->n = (size_t)val;
			for (int k = 0; k < 4; k++)
				if (meta->keys[k] && strcmp(key, meta->keys[k]) == 0)
					meta->cert[k] = val;
			continue;
		}
		if (rows >= max)
			break;
		if (ncol == 1 && sscanf(line, "%lf", &v[rows]) == 1)
			rows++;
		else if (ncol == 2 && sscanf(line, "%lf %lf", &v[2 * rows], &v[2 * rows + 1]) == 2)
			rows++;
	}
	fclose(f);
	return (long)rows;
}

/*
 * Tolerances: NIST certifies 15 significant digits (2e-15 allows for the
 * rounding of the certified value); a double reaches them where the data
 * are exact in binary. NumAcc3/4 (1e6 + 0.1, 1e7 + 0.1)
 * are not: rounding the data to doubles alone moves the true standard
 * deviation of the stored values by 3.5e-10 and 5.6e-9 relative (exact
 * rational arithmetic on the doubles), Mavro's by 7.6e-14 and Michelso's
 * by 1.4e-14, so those get the tolerance of their data, not of the code.
 */
static const struct {
	const char *name;
	double mean_tol, sd_tol;
} univ[] = {
	{ "PiDigits", 2e-15, 2e-15 },
	{ "Lottery", 2e-15, 2e-15 },
	{ "Lew", 2e-15, 2e-15 },
	{ "Mavro", 2e-15, 2e-13 },
	{ "Michelso", 2e-15, 5e-14 },
	{ "NumAcc1", 2e-15, 2e-15 },
	{ "NumAcc2", 2e-15, 2e-15 },
	{ "NumAcc3", 2e-15, 1e-9 },
	{ "NumAcc4", 2e-15, 1e-8 },
};

Test(stats, nist_univariate)
{
	static double v[6000];

	stats_init();
	for (size_t d = 0; d < sizeof(univ) / sizeof(univ[0]); d++) {
		struct nist m = { .keys = { "certified_mean", "certified_sd" } };
		struct stats_summary s;
		long n = nist_read(univ[d].name, &m, v, 6000, 1);

		cr_assert(n > 0, "%s: cannot read " NIST_DIR "%s.dat", univ[d].name, univ[d].name);
		cr_assert_eq((size_t)n, m.n, "%s: read %ld values, file says %zu", univ[d].name, n, m.n);
		cr_assert_eq(stats_summarize(v, (size_t)n, 0.95, &s), 0);
		cr_assert(close_rel(s.mean, m.cert[0], univ[d].mean_tol),
			  "%s mean %.17g certified %.17g", univ[d].name, s.mean, m.cert[0]);
		cr_assert(close_rel(s.sd, m.cert[1], univ[d].sd_tol),
			  "%s sd %.17g certified %.17g", univ[d].name, s.sd, m.cert[1]);
	}
}

Test(stats, nist_norris_linear_fit)
{
	struct nist m = { .keys = { "certified_intercept", "certified_slope", "certified_r2" } };
	double yx[2 * 40], x[40], y[40], c0, c1, r2;
	long n = nist_read("Norris", &m, yx, 40, 2);

	stats_init();
	cr_assert_eq(n, 36);
	for (long i = 0; i < n; i++) {
		y[i] = yx[2 * i];
		x[i] = yx[2 * i + 1];
	}
	cr_assert_eq(stats_linear_fit(x, y, (size_t)n, &c0, &c1, &r2), 0);
	/* NIST: "lower difficulty"; 12+ digits expected of a good code */
	cr_assert(close_rel(c0, m.cert[0], 1e-11), "intercept %.15g", c0);
	cr_assert(close_rel(c1, m.cert[1], 1e-13), "slope %.15g", c1);
	cr_assert(close_rel(r2, m.cert[2], 1e-14), "r2 %.15g", r2);
}

Test(stats, linear_fit_refuses_degenerate)
{
	double x[3] = { 2, 2, 2 }, y[3] = { 1, 2, 3 }, c0, c1, r2;

	stats_init();
	cr_assert_eq(stats_linear_fit(x, y, 1, &c0, &c1, &r2), -1);
	cr_assert_eq(stats_linear_fit(x, y, 3, &c0, &c1, &r2), -1);
}

/* C(n, i) exactly, n <= 100 in 128 bits via the multiplicative formula. */
static unsigned __int128 choose(unsigned n, unsigned i)
{
	unsigned __int128 c = 1;

	for (unsigned t = 1; t <= i; t++)
		c = c * (n - i + t) / t;   /* exact: c * (n-i+t) is C(n-i+t, t) * t */
	return c;
}

/*
 * The rank pair by the definition, in integers: the largest j with
 * sum_{i=j}^{n-j} C(n,i) >= conf * 2^n, conf = num/den.
 */
static unsigned ranks_by_definition(unsigned n, unsigned num, unsigned den)
{
	unsigned best = 0;

	for (unsigned j = 1; 2 * j <= n; j++) {
		unsigned __int128 s = 0;

		for (unsigned i = j; i <= n - j; i++)
			s += choose(n, i);
		if (s * den >= ((unsigned __int128)1 << n) * num)
			best = j;
	}
	return best;
}

Test(stats, median_ci_ranks_match_binomial)
{
	const unsigned ns[] = { 5, 6, 7, 8, 9, 10, 11, 15, 20, 25, 30, 41, 50, 64, 77, 100 };
	const struct { double conf; unsigned num, den; } lv[] = {
		{ 0.95, 95, 100 }, { 0.99, 99, 100 }, { 0.90, 90, 100 },
	};

	stats_init();
	for (size_t l = 0; l < 3; l++) {
		for (size_t t = 0; t < sizeof(ns) / sizeof(ns[0]); t++) {
			unsigned n = ns[t], want = ranks_by_definition(n, lv[l].num, lv[l].den);
			size_t j = 0, k = 0;
			double cov = 0;
			int rc = stats_median_ci_ranks(n, lv[l].conf, &j, &k, &cov);

			if (want == 0) {
				cr_assert_eq(rc, -1, "n=%u conf=%g should be too small", n, lv[l].conf);
				continue;
			}
			cr_assert_eq(rc, 0, "n=%u conf=%g", n, lv[l].conf);
			cr_assert_eq(j, want, "n=%u conf=%g: j=%zu, binomial says %u", n, lv[l].conf, j, want);
			cr_assert_eq(k, n + 1 - want, "n=%u: k=%zu", n, k);
			{
				unsigned __int128 s = 0;

				for (unsigned i = want; i <= n - want; i++)
					s += choose(n, i);
				cr_assert(close_rel(cov, (double)s / ldexp(1.0, (int)n), 1e-12),
					  "n=%u coverage %.15g", n, cov);
			}
		}
	}
}

/* Worked by hand: n = 5 cannot reach 95% (extremes cover 1 - 2/32 =
 * 0.9375); n = 6 uses the extremes, coverage 1 - 2/64; n = 10 uses ranks
 * 2 and 9, coverage 1 - 2 (1 + 10) / 1024 = 0.978515625. */
Test(stats, median_ci_known_cases)
{
	size_t j, k;
	double cov;

	stats_init();
	cr_assert_eq(stats_median_ci_ranks(5, 0.95, &j, &k, &cov), -1);
	cr_assert_eq(stats_median_ci_ranks(6, 0.95, &j, &k, &cov), 0);
	cr_assert(j == 1 && k == 6 && close_rel(cov, 0.96875, 1e-15));
	cr_assert_eq(stats_median_ci_ranks(10, 0.95, &j, &k, &cov), 0);
	cr_assert(j == 2 && k == 9 && close_rel(cov, 0.978515625, 1e-15));
}

Test(stats, summarize_basic)
{
	/* 1..10 shuffled: mean 5.5, sd sqrt(55/6), median 5.5, median CI
	 * ranks 2 and 9 (values 2 and 9); t(0.975, 9) = 2.262157 (tables) */
	double x[10] = { 7, 3, 10, 1, 9, 2, 8, 5, 4, 6 }, y[101];
	double x5[5] = { 4, 1, 5, 2, 3 };
	struct stats_summary s;
	double half = 2.262157 * sqrt(55.0 / 6.0) / sqrt(10.0);

	stats_init();
	cr_assert_eq(stats_summarize(x, 10, 0.95, &s), 0);
	cr_assert_eq(s.n, 10);
	cr_assert(close_rel(s.mean, 5.5, 1e-15));
	cr_assert(close_rel(s.sd, sqrt(55.0 / 6.0), 1e-15));
	cr_assert(s.median == 5.5 && s.min == 1 && s.max == 10);
	cr_assert(s.med_ci_ok && s.med_lo == 2 && s.med_hi == 9);
	cr_assert(close_rel(s.mean_hi - s.mean, half, 1e-6), "t half width %.10g", s.mean_hi - s.mean);
	cr_assert(close_rel(s.mean - s.mean_lo, half, 1e-6));
	cr_assert_eq(x[0], 7);   /* input untouched */

	for (int i = 0; i < 101; i++)
		y[i] = 101 - i;   /* 1..101: p1 = 2, p99 = 100 exactly */
	cr_assert_eq(stats_summarize(y, 101, 0.95, &s), 0);
	cr_assert(close_rel(s.p1, 2.0, 1e-15) && close_rel(s.p99, 100.0, 1e-15),
		  "p1 %g p99 %g", s.p1, s.p99);

	cr_assert_eq(stats_summarize(x5, 5, 0.95, &s), 0);
	cr_assert(!s.med_ci_ok && s.med_lo == 1 && s.med_hi == 5);
	cr_assert_eq(stats_summarize(x5, 1, 0.95, &s), 0);
	cr_assert(isnan(s.sd) && isnan(s.mean_lo) && s.median == 4);
	cr_assert_eq(stats_summarize(x5, 0, 0.95, &s), -1);
	cr_assert(s.n == 0 && isnan(s.median));
}

Test(stats, median)
{
	double a[4] = { 4, 1, 3, 2 }, b[3] = { 9, -1, 5 };

	cr_assert(stats_median(a, 4) == 2.5);
	cr_assert(stats_median(b, 3) == 5);
	cr_assert(isnan(stats_median(a, 0)));
}

/* The difference of two ratios of medians (compare's "degrades less"),
 * Bonett-Price on each of four samples, values worked by hand in Python
 * (the se formula of median_ratio_bonett_price below, the normal
 * distribution of its statistics module): ln(8/8) - ln(3/8). */
Test(stats, median_ratio_diff_bonett_price)
{
	const double x[5] = { 4, 1, 5, 2, 3 }, y[7] = { 14, 2, 4, 6, 8, 10, 12 };
	const double w[8] = { 3, 9, 6, 12, 15, 7, 11, 5 };
	const double *set[4] = { y, x, w, y };
	size_t n[4] = { 7, 5, 8, 7 };
	double d, lo, hi, p, d2, lo2, hi2, p2;

	cr_assert_eq(stats_median_ratio_diff(set, n, 0.95, &d, &lo, &hi, &p), 0);
	cr_assert(close_rel(d, 0.9808293, 1e-6), "d %g", d);
	cr_assert(close_rel(lo, -0.4976969, 1e-5) && close_rel(hi, 2.4593554, 1e-6), "[%g, %g]", lo, hi);
	cr_assert(close_rel(p, 0.1935300, 1e-5), "p %g", p);
	/* the CI and the test agree: at confidence 1 - p the CI ends at 0 */
	cr_assert_eq(stats_median_ratio_diff(set, n, 1.0 - p, &d, &lo, &hi, &p2), 0);
	cr_assert(fabs(lo) < 1e-9, "lo %g", lo);
	/* the two runs swapped: the opposite difference, the same p */
	const double *swapped[4] = { w, y, y, x };
	size_t ns[4] = { 8, 7, 7, 5 };
	cr_assert_eq(stats_median_ratio_diff(swapped, ns, 0.95, &d2, &lo2, &hi2, &p2), 0);
	cr_assert(close_rel(d2, -0.9808293, 1e-6) && close_rel(p2, p, 1e-9) && close_rel(lo2, -2.4593554, 1e-6));
	/* all tied: no spread; p 1 for no difference */
	const double t[3] = { 2, 2, 2 };
	const double *tied[4] = { t, t, t, t };
	size_t nt[4] = { 3, 3, 3, 3 };
	cr_assert_eq(stats_median_ratio_diff(tied, nt, 0.95, &d, &lo, &hi, &p), 0);
	cr_assert(d == 0.0 && p == 1.0 && lo == 0.0 && hi == 0.0);
	n[0] = 1;
	cr_assert_eq(stats_median_ratio_diff(set, n, 0.95, &d, &lo, &hi, &p), -1);
}

/*
 * Bonett-Price (Price and Bonett 2001, Bonett and Price 2002) worked by
 * hand in Python (math.comb, statistics.NormalDist): x = 1..5: c =
 * round(3 - sqrt 5) = 1, tail 1/32, z = 1.862732, se = ln 5 / (2 z) =
 * 0.4320101; y = 2, 4, .., 14: c = 1, tail 1/128, se = 0.4024535.
 * ln(3/8) = -0.980829, se of the difference 0.5904249, |d| / se =
 * 1.661226, p = 0.0966680, CI of the ratio exp(d +- 1.959964 se) =
 * [0.1178856, 1.192894].
 */
Test(stats, median_ratio_bonett_price)
{
	const double x[5] = { 4, 1, 5, 2, 3 }, y[7] = { 14, 2, 4, 6, 8, 10, 12 };
	double lm, se, ratio, lo, hi, p;

	cr_assert_eq(stats_log_median_se(x, 5, &lm, &se), 0);
	cr_assert(close_rel(lm, log(3.0), 1e-12) && close_rel(se, 0.4320101, 1e-6), "%g %g", lm, se);
	cr_assert_eq(stats_median_ratio(x, 5, y, 7, 0.95, &ratio, &lo, &hi, &p), 0);
	cr_assert(close_rel(ratio, 0.375, 1e-12), "%g", ratio);
	cr_assert(close_rel(p, 0.0966680, 1e-5), "p %g", p);
	cr_assert(close_rel(lo, 0.1178856, 1e-6) && close_rel(hi, 1.192894, 1e-6), "[%g, %g]", lo, hi);
	/* the CI and the test agree: at confidence 1 - p the CI ends at 1 */
	cr_assert_eq(stats_median_ratio(x, 5, y, 7, 1.0 - p, &ratio, &lo, &hi, &p), 0);
	cr_assert(fabs(hi - 1.0) < 1e-9, "hi %g", hi);
	/* not positive, too few */
	const double z[2] = { 1, 0 };
	cr_assert_eq(stats_log_median_se(z, 2, &lm, &se), -1);
	cr_assert_eq(stats_log_median_se(x, 1, &lm, &se), -1);
	/* all tied on both sides: no spread; p 1 when equal */
	const double t1[3] = { 2, 2, 2 };
	cr_assert_eq(stats_median_ratio(t1, 3, t1, 3, 0.95, &ratio, &lo, &hi, &p), 0);
	cr_assert(ratio == 1.0 && p == 1.0);
}

/* NIST/SEMATECH e-Handbook of Statistical Methods, 6.3.2.4 "EWMA Control
 * Charts": target 50, s = 2.0539, lambda = 0.3, k = 3; the EWMA values
 * as the handbook's table rounds them (2 decimals), and its limits
 * 47.4115, 52.5884. */
Test(stats, ewma_nist_handbook_example)
{
	static const double x[20] = { 52.0, 47.0, 53.0, 49.3, 50.1, 47.0, 51.0, 50.1, 51.2, 50.5,
				      49.6, 47.6, 49.9, 51.3, 47.8, 51.2, 52.6, 52.4, 53.6, 52.1 };
	static const double want[20] = { 50.60, 49.52, 50.56, 50.18, 50.16, 49.21, 49.75, 49.85, 50.26, 50.33,
					 50.11, 49.36, 49.52, 50.05, 49.38, 49.92, 50.73, 51.23, 51.94, 51.99 };
	double z[20], e[20], lim[20];

	for (int i = 0; i < 20; i++)
		z[i] = (x[i] - 50.0) / 2.0539;
	cr_assert_eq(stats_ewma(z, 20, 0.3, 3.0, 0.0, e, lim), 0);
	for (int i = 0; i < 20; i++)
		cr_assert(fabs(50.0 + 2.0539 * e[i] - want[i]) < 0.006, "EWMA %d: %.4f, handbook %.2f", i + 1,
			  50.0 + 2.0539 * e[i], want[i]);
	/* after 20 points the limit is the handbook's asymptotic one */
	cr_assert(fabs(50.0 + 2.0539 * lim[19] - 52.5884) < 0.0005, "UCL %.4f", 50.0 + 2.0539 * lim[19]);
	cr_assert(fabs(50.0 - 2.0539 * lim[19] - 47.4115) < 0.0005);
	/* the first limits are narrower: 3 sqrt(0.3/1.7 (1 - 0.7^2)) */
	cr_assert(fabs(lim[0] - 3.0 * sqrt(0.3 / 1.7 * (1 - 0.49))) < 1e-12);
	/* clipping: one huge night counts as clip */
	z[0] = 100.0;
	cr_assert_eq(stats_ewma(z, 1, 0.3, 3.0, 6.0, e, lim), 0);
	cr_assert(fabs(e[0] - 1.8) < 1e-12);
	cr_assert_eq(stats_ewma(z, 1, 0.0, 3.0, 0.0, e, lim), -1);
}

/* A deterministic normal generator for simulations with a known truth
 * (xorshift64*, Box-Muller). */
static uint64_t sim_state = 88172645463325252ULL;
static double sim_uniform(void)
{
	sim_state ^= sim_state >> 12;
	sim_state ^= sim_state << 25;
	sim_state ^= sim_state >> 27;
	return ((double)((sim_state * 2685821657736338717ULL) >> 11) + 0.5) / 9007199254740992.0;
}
static double sim_normal(void)
{
	return sqrt(-2.0 * log(sim_uniform())) * cos(2.0 * M_PI * sim_uniform());
}

/* One simulated night: 10 repetition values exp(mu + night + noise). */
static void sim_night(double *v, double mu, double tau, double sw)
{
	double night = tau * sim_normal();

	for (int i = 0; i < 10; i++)
		v[i] = exp(mu + night + sw * sim_normal());
}

/*
 * Known truth: healthy nights vary by tau = 10% between nights and 3%
 * inside a night. Tonight from the same fabric must fall inside the 95%
 * interval about 95% of the time (the interval is a t prediction interval,
 * slightly wider when the runs' own noise is the larger term), and a
 * change of 6 night-to-night SDs must score >= 3 in most fabrics
 * (noncentral t, df 4).
 */
Test(stats, nightly_prediction_covers_healthy_nights)
{
	double y[5][10], x[10];
	const double *yp[5] = { y[0], y[1], y[2], y[3], y[4] };
	size_t ny[5] = { 10, 10, 10, 10, 10 };
	int covered = 0, detected = 0, false_alarms = 0, sims = 2000;
	double spread_sum = 0.0;

	stats_init();
	for (int s = 0; s < sims; s++) {
		struct stats_nightly r;
		double tot = sqrt(0.1 * 0.1 + 0.03 * 0.03 * 1.57 / 10);   /* sd of a night's ln median */

		for (int j = 0; j < 5; j++)
			sim_night(y[j], 2.0, 0.1, 0.03);
		sim_night(x, 2.0, 0.1, 0.03);
		cr_assert_eq(stats_nightly(yp, ny, 5, x, 10, 0.0, 0.95, &r), 0);
		covered += r.lo <= 0.0 && r.hi >= 0.0;   /* the true change is 0 */
		false_alarms += r.score >= 3.0;
		spread_sum += r.spread;
		for (int i = 0; i < 10; i++)   /* the same night, 6 SDs slower */
			x[i] *= exp(6.0 * tot);
		cr_assert_eq(stats_nightly(yp, ny, 5, x, 10, 0.0, 0.95, &r), 0);
		detected += r.score >= 3.0;
		cr_assert(fabs(log(r.typical) - 2.0) < 0.5);
	}
	cr_assert(covered >= 0.93 * sims && covered <= 0.985 * sims, "coverage %d of %d", covered, sims);
	/* P(t_4 >= 3 sqrt(1 + 1/5)... ) is about 1.5%: a healthy night rarely scores 3 */
	cr_assert(false_alarms <= 0.04 * sims, "healthy nights scoring >= 3: %d of %d", false_alarms, sims);
	cr_assert(detected >= 0.75 * sims, "6-SD changes scoring >= 3: %d of %d", detected, sims);
	/* E[S] for df 4 is 0.94 sigma: the mean spread is near the truth */
	cr_assert(fabs(spread_sum / sims / 0.1 - 0.94) < 0.06, "mean spread %.4f", spread_sum / sims);
}

Test(stats, nightly_floor_and_refusals)
{
	double y[3][4] = { { 10, 10, 10, 10 }, { 10, 10, 10, 10 }, { 10, 10, 10, 10 } }, x[4] = { 11, 11, 11, 11 };
	const double *yp[3] = { y[0], y[1], y[2] };
	size_t ny[3] = { 4, 4, 4 };
	struct stats_nightly r;

	/* identical baseline runs: the spread is 0, the floor (2%) takes over */
	cr_assert_eq(stats_nightly(yp, ny, 3, x, 4, log(1.02), 0.95, &r), 0);
	cr_assert(fabs(r.spread) < 1e-12);
	cr_assert(fabs(r.night - log(1.02)) < 1e-12);
	cr_assert(fabs(r.d - log(1.1)) < 1e-12);
	cr_assert(fabs(r.score - log(1.1) / (log(1.02) * sqrt(4.0 / 3.0))) < 1e-9, "score %g", r.score);
	cr_assert(fabs(r.typical - 10.0) < 1e-9);
	cr_assert_eq(stats_nightly(yp, ny, 1, x, 4, 0.0, 0.95, &r), -1, "one baseline run has no spread");
	y[1][2] = -1.0;
	cr_assert_eq(stats_nightly(yp, ny, 3, x, 4, 0.0, 0.95, &r), -1, "non-positive values");
}
