/*
 * stats.h - the numerical statistics, on GSL. Pure functions on arrays of
 * doubles; GSL's error handler is switched off and every status checked.
 * Nothing here knows about cells, pairs or MPI (see analysis.h for that).
 * Functions that need a sorted copy make their own; inputs are not changed.
 */
#ifndef STATS_H
#define STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Call once before using GSL (idempotent): gsl_set_error_handler_off(). */
void stats_init(void);

struct stats_summary {
	size_t n;
	double mean, sd;          /* sd: sample standard deviation (n - 1) */
	double median, min, max;
	double p1, p99;           /* quantiles, GSL's interpolation */
	double mean_lo, mean_hi;  /* Student t CI of the mean (NaN if n < 2) */
	double med_lo, med_hi;    /* order-statistics CI of the median */
	bool med_ci_ok;           /* false: n too small for the confidence level;
	                           * then med_lo = min, med_hi = max */
};

/* Summary of x[0..n-1] at the given confidence (0.95). Mean and sd by the
 * corrected two-pass algorithm. 0, or -1 if n == 0 or confidence is not in
 * (0, 1); then *s has n = 0 and NaN everywhere. */
int stats_summarize(const double *x, size_t n, double confidence, struct stats_summary *s);

/* A p-value as the tables print it: "< 0.001", "0.042", or "n/a" when p is
 * not finite. */
void stats_format_p(char *buf, size_t len, double p);

/* Ranks (1-based order statistics) j < k with sum_{i=j}^{k-1} C(n,i) 0.5^n
 * >= confidence, as symmetric and narrow as possible: k = n + 1 - j with
 * the largest such j. Returns 0, or -1 when no such pair exists for n (too
 * few samples: n < 6 at 0.95, n < 8 at 0.99). *coverage (may be NULL) gets
 * the exact coverage. */
int stats_median_ci_ranks(size_t n, double confidence, size_t *j, size_t *k, double *coverage);

/*
 * Bonett-Price standard error of the log of the sample median (Price and
 * Bonett 2001; Bonett and Price 2002): with c = round((n + 1) / 2 -
 * sqrt(n)) (at least 1) and z_c the normal quantile of the exact
 * coverage of the order statistics [x(c), x(n+1-c)],
 * se = (ln x(n+1-c) - ln x(c)) / (2 z_c). Every x must be positive.
 * *lm gets ln(median(x)). 0, or -1 (n < 2, a value not positive and
 * finite, ENOMEM).
 */
int stats_log_median_se(const double *x, size_t n, double *lm, double *se);

/* CI of the median of x at confidence: exp(ln median +- z se), se from
 * stats_log_median_se, z the normal quantile (as Bonett and Price 2002).
 * 0 or -1 (as stats_log_median_se). */
int stats_median_ci(const double *x, size_t n, double confidence, double *lo, double *hi);

/* For stopping rules: the relative half-width ((hi - lo) / 2 / median)
 * of exp(ln median +- t se), se from stats_log_median_se, t Student's
 * with n - 1 degrees of freedom: wider than stats_median_ci when n is
 * small, so that a rule stopping at the first narrow interval does not
 * stop on an se that is small by chance. 0 or -1. */
int stats_median_halfwidth(const double *x, size_t n, double confidence, double *h);

/*
 * The ratio of the medians of x and y (x over y), a CI of it and a
 * two-sided p-value, all from one statistic (Bonett and Price 2002): d =
 * ln median(x) - ln median(y) with se = sqrt(se_x^2 + se_y^2)
 * (stats_log_median_se of each sample: each keeps its own spread, so
 * unequal spreads do not change the size), against the normal
 * distribution. The CI excludes 1 exactly when p < 1 - confidence. When
 * both se are 0 (every value of each sample tied) p is 1 for equal
 * medians and 0 otherwise. 0 or -1 (as stats_log_median_se).
 */
int stats_median_ratio(const double *x, size_t nx, const double *y, size_t ny, double confidence,
		       double *ratio, double *lo, double *hi, double *p);

/*
 * The difference of two ratios of medians, ln(m3 / m2) - ln(m1 / m0) with
 * mi the median of set[i] (four independent samples: the reference's
 * baseline and level, then the other's), a CI of it and a two-sided
 * p-value, all from one statistic as stats_median_ratio: each log median
 * has its Bonett-Price se (stats_log_median_se), the difference has se
 * sqrt(se0^2 + se1^2 + se2^2 + se3^2), against the normal distribution.
 * *d, *lo and *hi are on the log scale; the CI excludes 0 exactly when
 * p < 1 - confidence. When every se is 0, p is 1 for d = 0 and 0
 * otherwise. 0 or -1 (as stats_log_median_se).
 */
int stats_median_ratio_diff(const double *const set[4], const size_t n[4], double confidence,
			    double *d, double *lo, double *hi, double *p);

/* Least squares y = c0 + c1 x (gsl_fit_linear), with R^2 = 1 - SSE/TSS
 * (1 when every y is equal). 0 or -1 (n < 2, every x equal, GSL failure). */
int stats_linear_fit(const double *x, const double *y, size_t n,
		     double *c0, double *c1, double *r2);

/* The standard normal quantile: x with P(Z <= x) = p. */
double stats_normal_quantile(double p);

/* Median of x (copies). NaN if n == 0. */
double stats_median(const double *x, size_t n);

/*
 * One night against k healthy nights (the baseline set), on the log scale
 * where a slowdown is a ratio. Inputs: the per-repetition values of each
 * baseline run y[j][0..ny[j]) and of tonight x[0..nx), all > 0.
 *   L_j = ln median(y_j), L0 = ln median(x)
 *   w_j, w0 = within-run variance of each L: stats_log_median_se
 *            squared (Bonett-Price)
 *   mu = mean L_j, typical = exp(mu), spread = SD of L_j (k - 1)
 *   night = max(spread, sqrt(mean w_j), floor_sd): the night-to-night SD,
 *           never below the baseline runs' own noise nor floor_sd
 *   sd = sqrt(night^2 (1 + 1/k) + max(0, w0 - mean w_j)): how far a
 *        healthy night falls from mu (prediction of a new night, plus
 *        tonight's noise beyond the baseline runs')
 *   d = L0 - mu; score = d / sd; p_up = P(T > score), T ~ t(k - 1)
 *   lo, hi = d -+ t_{(1+confidence)/2, k-1} sd
 * Needs k >= 2 and at least 2 values in every array. 0 or -1.
 */
struct stats_nightly {
	size_t k;
	double typical, spread, night, sd;
	double d, lo, hi, score, p_up;
};
int stats_nightly(const double *const *y, const size_t *ny, size_t k, const double *x, size_t nx,
		  double floor_sd, double confidence, struct stats_nightly *out);

/*
 * EWMA control chart (NIST/SEMATECH e-Handbook 6.3.2.4) of standardized
 * values z[0..n) (target 0, SD 1): e_t = lambda z_t + (1 - lambda) e_{t-1},
 * e_0 = 0, and its control limit L sqrt(lambda / (2 - lambda)
 * (1 - (1 - lambda)^(2t))) at each t into e[] and limit[]. Each z is
 * first clipped to [-clip, clip] (clip <= 0: not clipped) so that one
 * night's fault does not hold the chart up for weeks. 0 or -1 (bad lambda).
 */
int stats_ewma(const double *z, size_t n, double lambda, double L, double clip, double *e, double *limit);

#endif
