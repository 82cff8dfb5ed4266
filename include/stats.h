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
	double w_base, w_now;           /* mean w_j, and w0 */
};
int stats_nightly(const double *const *y, const size_t *ny, size_t k, const double *x, size_t nx,
		  double floor_sd, double confidence, struct stats_nightly *out);

/*
 * Few runs, many cells: the moderated variance of Smyth (2004, "Linear
 * models and empirical Bayes methods for assessing differential
 * expression in microarray experiments", Stat. Appl. Genet. Mol. Biol.
 * 3(1) art. 3; limma's squeezeVar). Each of n cells has a sample variance
 * s2[i] on df[i] degrees of freedom; the cells' true variances are taken
 * as draws from a scaled inverse chi-square prior s0^2 d0 / chi2(d0),
 * whose s0^2 and d0 are fitted by the method of moments on ln s2[i]
 * (digamma and trigamma; d0 infinite when the cells vary no more than
 * their df explain, then every cell takes the pool). The moderated
 * variance of cell i is (d0 s0^2 + df[i] s2[i]) / (d0 + df[i]), a t on
 * d0 + df[i] degrees of freedom (capped, as limma does, at the sum of
 * df[], the pool's). Cells with s2 not positive and finite, or df < 1,
 * are left out of the fit. With fewer than 2 cells in the fit: d0 = 0
 * (no moderation). Writes *s0sq and *d0 (INFINITY possible). 0 or -1.
 */
int stats_moderate_var(const double *s2, const double *df, size_t n, double *s0sq, double *d0);

/* The moderated variance of one cell from stats_moderate_var's prior,
 * and its degrees of freedom into *df_mod (at most df_pool). */
double stats_moderated(double s2, double df, double s0sq, double d0, double df_pool, double *df_mod);

/*
 * EWMA control chart (NIST/SEMATECH e-Handbook 6.3.2.4) of standardized
 * values z[0..n) (target 0, SD 1): e_t = lambda z_t + (1 - lambda) e_{t-1},
 * e_0 = 0, and its control limit L sqrt(lambda / (2 - lambda)
 * (1 - (1 - lambda)^(2t))) at each t into e[] and limit[]. Each z is
 * first clipped to [-clip, clip] (clip <= 0: not clipped) so that one
 * night's fault does not hold the chart up for weeks. 0 or -1 (bad lambda).
 */
int stats_ewma(const double *z, size_t n, double lambda, double L, double clip, double *e, double *limit);

/*
 * Time is a source of variance: the intervals below are about changes
 * that time can move (a level against the baseline level, one switch's
 * runs against another's), on the log scale where a slowdown is a ratio.
 *
 * struct stats_interval: an estimate d with its standard error se, the
 * degrees of freedom df of its Student t reference (INFINITY: the
 * normal), the CI [lo, hi] at the confidence asked for and the two-sided
 * p of d = 0, all from the one statistic d / se, so the CI excludes 0
 * exactly when p < 1 - confidence. n counts the units (blocks, or runs
 * on both sides).
 */
struct stats_interval {
	size_t n;
	double d, se, df;
	double lo, hi, p;
};

/*
 * Fill iv from d with a statistical standard error se_stat on df degrees
 * of freedom and a resolution res (stats_quantum_se, on the same log
 * scale; 0: none), which does not shrink with more units: se =
 * sqrt(se_stat^2 + res^2), and the effective degrees of freedom by
 * Welch-Satterthwaite with res a term of infinite df (GUM G.4): df se^4 /
 * se_stat^4 (INFINITY when se_stat is 0). When se is 0, lo = hi = d and p
 * is 1 for d = 0, else 0. 0, or -1 (confidence not in (0, 1), df < 1
 * with se_stat > 0, a value negative or not finite).
 */
int stats_interval_set(struct stats_interval *iv, double d, double se_stat, double df, double res,
		       double confidence);

/* One-sided p of "the true d is at most c" against iv's estimate:
 * P(T > (d - c) / se), T ~ t(df) (for a threshold c: a page needs it
 * small). se 0: 0 when d > c, else 1. */
double stats_interval_p_above(const struct stats_interval *iv, double c);

/*
 * The standard uncertainty of a reading in whole steps, relative (so on
 * the log scale): quantum / (amount sqrt 12), a uniform error over one
 * step (GUM 4.3.7). amount is what was read (messages a timed sample
 * counted, seconds the timer read), quantum one step of it (one message,
 * plus what the start may add unseen, such as a token bucket's burst in
 * messages; one timer tick). A 95% interval with this se alone is 1.13
 * steps wide: never narrower than the reading can resolve. 0 when quantum
 * <= 0; INFINITY when amount <= 0.
 */
double stats_quantum_se(double amount, double quantum);

/*
 * The block design's change: block b visited the level (x[b]) and the
 * baseline level (base[b]) under the same conditions, so the change is
 * computed within blocks: the per-block log ratios l_b = ln(x[b] /
 * base[b]), d = their mean, se_stat = SD(l) / sqrt(n) on n - 1 degrees of
 * freedom (Student's paired t on the logs), res the resolution of one
 * ratio (sqrt(res_x^2 + res_base^2): blocks that count the same whole
 * messages share it, so it does not average out). A speed shift shared by
 * the levels of a block cancels; one that is not widens SD(l). exp(d) is
 * the ratio level / baseline. 0, or -1 (n < 2, a value not positive or not
 * finite, as stats_interval_set).
 */
int stats_block_ratio(const double *x, const double *base, size_t n, double res, double confidence,
		      struct stats_interval *iv);

/*
 * A trend over time: the least-squares line of ln y[i] on t[i] (i < n; y
 * > 0, t not all equal), its slope times the span max t - min t as d (the
 * log ratio of the line's end to its start: exp(d) - 1 is the change over
 * the span), se_stat from the residuals on n - 2 degrees of freedom, res
 * as stats_interval_set. For the block design's drift check: t the block,
 * y the baseline level's value in it. 0, or -1 (n < 3, t all equal, a
 * value not positive or not finite).
 */
int stats_trend(const double *t, const double *y, size_t n, double res, double confidence,
		struct stats_interval *iv);

/*
 * The drift trend resistant to one outlying block, by rank methods
 * (Hollander and Wolfe, Nonparametric Statistical Methods, 2nd ed. 1999,
 * 9.2-9.4), on the log scale, filling struct stats_interval with df
 * INFINITY and se (hi - lo) / (2 z) for information only: the trend of
 * ln y[i] over t[i] by Theil and Sen, d the median of the pairwise slopes
 * (ln y_j - ln y_i) / (t_j - t_i) (t_i != t_j) times the span max t - min
 * t; the CI the ordered slopes [S(k), S(M + 1 - k)], k the largest with
 * P(D <= k - 1) <= (1 - confidence) / 2, D Kendall's discordant pairs
 * (exact when the times are distinct and n <= 50; normal with Kendall's
 * tie correction otherwise); p its test of no trend (slopes at 0 counted
 * against), so the CI excludes 0 exactly when p <= 1 - confidence. res
 * (the resolution on the log scale) moves each end away from d in
 * quadrature (res z, z the normal quantile) and p is then the smallest 1
 * - c whose widened interval excludes 0. Too few points for the
 * confidence (under 5 at 95%): lo, hi, se NaN, d and p given. 0, or -1
 * (n < 3 or above 3000, t all equal, a value not positive or not
 * finite, ENOMEM).
 */
int stats_trend_sen(const double *t, const double *y, size_t n, double res, double confidence,
		    struct stats_interval *iv);

/*
 * The block design's change as the median of the per-block log ratios
 * l_b = ln(x[b] / base[b]), with the sign test's distribution-free
 * interval: the order statistics [l(k), l(n + 1 - k)], k the largest with
 * coverage 1 - 2 P(B <= k - 1) >= confidence (B ~ Bin(n, 1/2)),
 * interpolated towards [l(k + 1), l(n - k)] to the confidence asked
 * (Hettmansperger and Sheather 1986: lambda = (n - k) I / (k + (n - 2k)
 * I), I = (g_k - c) / (g_k - g_{k+1})). It needs no symmetry, and from 9
 * blocks at 95% (k >= 2) neither the estimate nor either end can be
 * moved past its neighbour by one block, however far off. res widens
 * each end in quadrature (res z); p is the smallest 1 - c whose interval
 * excludes 0, so the interval excludes 0 exactly when p <= 1 -
 * confidence. Too few blocks (2 / 2^n > 1 - confidence: under 6 at 95%):
 * lo, hi and se NaN, p 1 - confidence or more. df INFINITY, se (hi - lo)
 * / (2 z) for information. 0, or -1 (n < 2, a value not positive or not
 * finite).
 */
int stats_block_median(const double *x, const double *base, size_t n, double res, double confidence,
		       struct stats_interval *iv);

/* The fewest units whose rank interval exists at confidence: kind 0 the
 * sign or signed-rank test (2 / 2^n <= 1 - confidence: the blocks of
 * stats_block_median), 1 Kendall (points of stats_trend_sen). 0 when more
 * than 50 would be needed. */
size_t stats_rank_min_units(int kind, double confidence);

/* Exact null distributions, for tests and tables: P(T+ <= k) of
 * Wilcoxon's signed-rank statistic for n, and P(D <= k) of the number of
 * discordant pairs among n (Kendall's tau). NaN on ENOMEM (n <= 50). */
double stats_signrank_cdf(size_t n, size_t k);
double stats_kendall_cdf(size_t n, size_t k);

/*
 * Runs as the unit: one value per run of switch A (a[0..na)) and of
 * switch B (b[0..nb)), > 0 (a run's median, or its change as a ratio).
 * Welch's t on the logs: d = mean ln b - mean ln a, se_stat^2 = s_a^2 / na
 * + s_b^2 / nb, degrees of freedom by Welch-Satterthwaite (se_stat^4 /
 * sum (s_i^2 / n_i)^2 / (n_i - 1)); res as stats_interval_set. The spread
 * between runs of one switch is in s_a and s_b, so a run-level shift of
 * speed widens the interval instead of becoming a difference. Needs na,
 * nb >= 2. 0 or -1.
 */
int stats_runs_welch(const double *a, size_t na, const double *b, size_t nb, double res, double confidence,
		     struct stats_interval *iv);

/*
 * One run a side: the between-run spread is unknown. If a run's value
 * varies between runs of one switch with SD run_sd (log scale), the
 * difference of two single runs varies with SD sqrt(2) run_sd, and the
 * allowance is z sqrt(2) run_sd, z the normal quantile (1 + confidence) /
 * 2: a difference is claimed only when its whole interval lies beyond it
 * (stats_beyond). NaN when run_sd < 0 or confidence is not in (0, 1).
 */
double stats_run_allowance(double run_sd, double confidence);

/* Where [lo, hi] lies against the band [-allow, allow]: +1 wholly above
 * allow, -1 wholly below -allow, 0 when it touches or covers the band or
 * is not finite. */
int stats_beyond(double lo, double hi, double allow);

/*
 * Holm's step-down adjustment over the m p-values of one family (Holm
 * 1979; R's p.adjust(p, "holm")): with p sorted ascending, adj_(i) = max
 * over j <= i of min(1, (m - j + 1) p_(j)), written in the input order.
 * Rejecting the hypotheses with adj < alpha keeps the chance of any false
 * rejection in the family at most alpha, whatever the dependence between
 * the tests. A p that is not finite is no hypothesis: it is left out of m
 * and its adj is NaN. 0 or -1 on ENOMEM.
 */
int stats_holm(const double *p, size_t m, double *adj);

/* The one-sided sign test: P(B >= k), B ~ Bin(n, 1/2) (1 when k is 0,
 * 0 when k > n): k of n signs the same way by chance. */
double stats_sign_p(size_t k, size_t n);

/* The one-sided upper confidence bound of a standard deviation s
 * estimated on df degrees of freedom: s sqrt(df / chi2_{1 - confidence}
 * (df)) (a night-to-night SD from 3 baseline runs, 2 df, may be 4.4
 * times what it reads at 95%). NaN when df < 1 or s < 0. */
double stats_sd_upper(double s, double df, double confidence);

#endif
