/*
 * change.h - the one change test of swstress: a set of per-repetition
 * values (now, a loaded level, the other switch) against a reference set,
 * as a degradation in percent with its CI and p, and the difference of
 * two such changes. analysis (a level against the baseline level),
 * victims (loaded against alone), health (tonight against the baseline
 * set) and compare (switch against switch) all call it. Pure and MPI-free;
 * the numerics are stats_median_ratio and stats_median_ratio_diff.
 */
#ifndef CHANGE_H
#define CHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include "config.h"
#include "stats.h"   /* struct stats_interval */

#include "pattern.h"   /* enum sw_metric: per-hop latency (s) or per-pair bandwidth (bytes/s) */

/*
 * A change, in percent, as a degradation: positive is worse, for every
 * metric and in every output. Bandwidth: the drop (1 - level / base) *
 * 100; latency: the inflation (level / base - 1) * 100, level and base
 * being the medians of the per-repetition values (analysis_rep_values,
 * victims_rep_values), which are kept here so that every printed change
 * can be recomputed from the two numbers printed beside it (a block
 * design's change, change_blocks, is computed within blocks instead and
 * lies inside the interval of those two medians' ratio: calibrated in
 * tests/calibration, "change inside the medians' CI"). Estimate, CI
 * and p come from one statistic on those values (stats_median_ratio:
 * Bonett-Price standard errors of the log medians, each side its own), so
 * the CI excludes 0 exactly when p < 1 - confidence. valid is false when
 * it cannot be computed (fewer than 2 repetitions on either side, a value
 * not positive), and then every number is NaN; with fewer than
 * CHANGE_MIN_REPS only lo, hi and p are NaN.
 */
struct sw_change {
	bool valid;
	double level, base;   /* medians of the per-repetition values */
	double pct, lo, hi;   /* degradation %, its CI */
	double p;             /* two-sided p-value of "no change" */
	bool significant;     /* p < alpha, the CI excludes 0, |pct| >
	                       * min_effect, and neither side is marked short */
};

/* Fewer repetitions than this on either side: a level's median CI is
 * marked as needing more (min..max shown), a change gets its estimate but
 * no CI, no p and is never significant. Below 5 values the Bonett-Price
 * interval is too unsteady to keep its size (tests/calibration). */
#define CHANGE_MIN_REPS 5

/* The one name of the change of metric in every output: "latency
 * inflation" / "bandwidth drop" as text, "latency_inflation" /
 * "bandwidth_drop" as a key (CSV, JSON, Prometheus labels). */
const char *change_name(int metric, bool key);

/* A change of metric in percent (positive: worse) on the log scale of
 * the metric's ratio, where allowances and thresholds are compared:
 * log(1 + pct/100) for latency, -log(1 - pct/100) for bandwidth. */
double change_log(int metric, double pct);

/* *ch as not computed: valid and significant false, every number NaN. */
void change_invalid(struct sw_change *ch);

/* The one change test of analysis, victims, health and compare: x (now,
 * this level, the other switch) against base, per-repetition values of
 * metric (SW_METRIC_LATENCY: worse = higher; SW_METRIC_BANDWIDTH: worse =
 * lower), at cfg's confidence, alpha and min_effect. Fills *ch (see
 * struct sw_change); significant is not set for short samples (the caller
 * clears it). */
void change_test(const double *x, size_t nx, const double *base, size_t nb, int metric,
		 const struct sw_config *cfg, struct sw_change *ch);

/*
 * A change from a log-ratio interval (struct stats_interval: d = ln of
 * level / base): pct, lo and hi mapped as change_test maps its ratio, p
 * and significant by the same rule (p < alpha, the CI excludes 0, |pct| >
 * min_effect); level and base are the caller's to fill. Fewer than
 * CHANGE_MIN_REPS units, or no interval (lo, hi NaN: too few units for
 * the confidence): the estimate only. */
void change_from_interval(const struct stats_interval *iv, int metric, const struct sw_config *cfg,
			  struct sw_change *ch);

/*
 * The block design's change (plan.h): x[b] and base[b] are block b's
 * values of the level and of the baseline level (n blocks that have
 * both), so the change is computed within blocks, and no single block
 * can own it: stats_block_median, the median of the per-block log
 * ratios with the sign test's interpolated order-statistic CI and its p
 * (a speed shift shared by the levels of a block cancels; from 9 blocks
 * at 95% one block 1000x off moves neither the estimate nor an end of
 * the CI past a neighbouring block's ratio). res is the
 * resolution of one ratio on the log scale (0: none). level and base are
 * the medians of each side; the rest as change_from_interval. Fewer
 * blocks than change_min_blocks: the estimate only. Invalid with fewer
 * than 2 blocks or a value not positive.
 */
void change_blocks(const double *x, const double *base, size_t n, double res, int metric,
		   const struct sw_config *cfg, struct sw_change *ch);

/* The block design's change as the mean of the per-block log ratios
 * (stats_block_ratio: Student's paired t on the logs; the rest as
 * change_blocks). Not resistant to one outlying block; kept for the
 * victims' CPU and network parts, whose product must be the whole
 * (geometric means multiply, medians do not). */
void change_blocks_mean(const double *x, const double *base, size_t n, double res, int metric,
			const struct sw_config *cfg, struct sw_change *ch);

/* The fewest blocks whose change gets a CI and a p at cfg's confidence:
 * the sign test interval's minimum (6 at 95%, 8 at 99%), never below
 * CHANGE_MIN_REPS. */
size_t change_min_blocks(const struct sw_config *cfg);

/* The difference of two changes of metric, in percentage points, with
 * the change test's method: change(x1 against b1) - change(x0 against b0)
 * of four independent sets of per-repetition values (set = { b0, x0, b1,
 * x1 }: the reference's baseline and level, the other's). The statistic
 * is the difference of the two log ratios of medians
 * (stats_median_ratio_diff, Bonett-Price: se sqrt of the sum of the four
 * squared se); its CI and p come from it, mapped into points at the
 * reference's own ratio r0 (latency: 100 r0 (e^d - 1); bandwidth: its
 * negative), so the CI excludes 0 exactly when p < 1 - confidence. d->pct
 * is change1.pct - change0.pct, d->level and d->base the two changes.
 * Fewer than CHANGE_MIN_REPS values in a set: the estimate only, never
 * significant; significant as change_test (p < alpha, CI excludes 0,
 * |points| > min_effect). */
void change_diff(const double *const set[4], const size_t n[4], int metric,
		 const struct sw_config *cfg, struct sw_change *d);

#endif
