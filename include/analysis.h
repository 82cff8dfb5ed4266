/*
 * analysis.h - the statistics of a run: per cell summaries with confidence
 * intervals, degradation against the baseline level with significance,
 * outlier pairs and suspect ports, sample overlap, Hockney fits. Computed
 * from the raw samples of a struct sw_run alone, so a saved run can be
 * analysed again with other settings (report confidence=0.99). MPI-free.
 */
#ifndef ANALYSIS_H
#define ANALYSIS_H

#include <stdbool.h>
#include "run.h"
#include "stats.h"

/* The metric of a sample: per-hop latency (s) or per-pair bandwidth
 * (bytes/s). */
enum sw_metric { SW_METRIC_LATENCY = 0, SW_METRIC_BANDWIDTH = 1 };

/* The one sample filter of analysis, health and compare: a sample of cell
 * counts when its time is positive and finite, its repetition >= 0 and its
 * pair in range for the cell's level and the plan. */
bool analysis_sample_ok(const struct sw_run *r, int cell, const struct sw_sample *s);

/* The metric of every usable sample of cell (analysis_sample_ok, finite
 * value) into a new array: the samples themselves, for describing a cell
 * (medians and their CIs). 0 (*out NULL when *n = 0) or -1 on ENOMEM. */
int analysis_cell_values(const struct sw_run *r, int cell, int metric, double **out, size_t *n);

/* One value per repetition of cell, in repetition order: the median over
 * the pairs of that repetition of the metric of its usable samples
 * (repetitions without any are left out). The samples of one repetition
 * ran at the same moment through the same switch and are correlated, so
 * the repetition is the unit of replication of every test of a change
 * (against the baseline level, a baseline run, another switch): these
 * values, not the pooled samples, go to Mann-Whitney and the bootstrap.
 * 0 (*out NULL when *n = 0) or -1 on ENOMEM. */
int analysis_rep_values(const struct sw_run *r, int cell, int metric, double **out, size_t *n);

/* A change against the baseline level, in percent; valid is false when it
 * cannot be computed (no baseline cell, fewer than 2 repetitions on either
 * side, the cell is the baseline), and then every number is NaN. Unit of
 * replication: the repetition (analysis_rep_values: the median over the
 * pairs of one repetition); estimate, CI and p all come from those values.
 * For bandwidth, pct is the drop (1 - level/base) * 100; for latency the
 * inflation (level/base - 1) * 100, level and base being the medians of
 * the per-repetition values. lo/hi: percentile bootstrap CI at the
 * configured confidence, resampling repetitions (NaN if it failed). The
 * bootstrap RNG of cell c is seeded from the config seed, c and the metric,
 * so a run analysed twice gives the same numbers. */
struct sw_change {
	bool valid;
	double pct, lo, hi;   /* estimate and bootstrap CI */
	double p;             /* Mann-Whitney p-value, per-repetition values */
	bool significant;     /* p < alpha, the CI excludes 0 and
	                       * |pct| > min_effect */
};

struct sw_cell_stats {
	int cell;
	int baseline;                  /* cell index at the baseline level, -1 */
	int pairs, nodes;
	struct stats_summary lat;      /* per-hop latency, s */
	struct stats_summary bw;       /* per-pair bandwidth, bytes/s */
	struct stats_summary agg;      /* aggregate bandwidth per repetition, bytes/s:
	                                * the sum over the pairs of one repetition,
	                                * over the repetitions where every pair of
	                                * the level has a sample */
	struct sw_change inflation;    /* latency (per-repetition medians) */
	struct sw_change drop;         /* per-pair bandwidth (per-repetition medians) */
	struct sw_change agg_drop;     /* aggregate bandwidth / pairs, vs baseline
	                                * (one value per complete repetition) */
	double overlap;                /* mean over repetitions of (min end - max
	                                * start) / (max end - min start), each
	                                * clamped to [0, 1]; 1 for one pair; NaN
	                                * with no samples */
	bool converged;                /* per-hop latency median CI half-width
	                                * within ci_target (analysis_converged) */
};

/* One pair in one cell against the other pairs of that cell. There is one
 * entry for every pair of every cell, in cell order then pair order; a pair
 * without samples has NaN medians. z is NaN in cells with fewer than 3
 * pairs with samples (no comparison possible). */
struct sw_pair_stats {
	int cell, pair;
	double lat_median;     /* s */
	double bw_median;      /* bytes/s */
	double z;              /* robust z of the pair's latency median (stats_robust_z) */
	bool flagged;          /* |z| > 3.5 and the pair's median differs from
	                        * the median of the cell's pair medians by more
	                        * than min_effect %: a consistent but tiny
	                        * difference is not worth naming */
};

/* A host flagged in at least half of the cells it took part in. Only cells
 * where flagging was possible (>= 3 pairs with samples) count; a host takes
 * part through any rank of a pair with samples, and is flagged in a cell
 * when one of its pairs is (so both hosts of a slow pair are named). A
 * rank without a recorded host is named "rank N". */
struct sw_suspect {
	char host[SW_HOST_MAX];
	int flagged, cells;
};

/* Hockney fit T(m) = alpha + m / beta of per-hop latency over sizes, for one
 * level and pattern, over a size range (split at an eager/rendezvous jump).
 *
 * Points: one per size, the per-hop latency median of the cell (the median
 * of the cells' medians when several hop counts were run). Jump rule: the
 * step between neighbouring sizes m_i < m_i+1 is a jump when latency rises
 * by at least 25% (t_i+1 >= 1.25 t_i) and the step's slope (t_i+1 - t_i) /
 * (m_i+1 - m_i) is more than 1.5 times the steeper neighbouring step (a
 * Hockney curve has one slope, 1/beta, on every step; a protocol switch
 * adds a constant at one step). At most one split, at the qualifying step
 * with the largest latency ratio; each side is fitted when it has >= 2
 * points (fewer: that side gets no fit). beta and n_half are NaN when the
 * slope is not positive. */
struct sw_fit {
	int level, pattern;
	uint64_t size_lo, size_hi;
	int npoints;
	double alpha;          /* s */
	double beta;           /* bytes/s */
	double n_half;         /* bytes, alpha * beta */
	double r2;
};

struct sw_analysis {
	int ncells;
	struct sw_cell_stats *cell;
	size_t npairstats;
	struct sw_pair_stats *pair;
	int nsuspects;
	struct sw_suspect *suspect;
	int nfits;
	struct sw_fit *fit;
	char method[512];      /* one line: confidence, tests, stopping rule */
};

/* Analyse run r with the statistics settings of cfg (confidence, alpha,
 * min_effect, bootstrap, seed, ci_target): usually &r->cfg, or a copy with
 * report's overrides. The baseline of a cell is the cell of plan level 0
 * with the same pattern, size and hops (a level-0 cell is its own
 * baseline: its changes are invalid). Samples failing analysis_sample_ok
 * are skipped. Cell summaries (lat, bw) and outlier pairs describe the
 * samples; changes are tested on per-repetition values.
 * NULL with a message in err on failure (bad confidence or alpha, ENOMEM). */
struct sw_analysis *analysis_run(const struct sw_run *r, const struct sw_config *cfg,
				 char *err, size_t errlen);
void analysis_free(struct sw_analysis *a);

/* Adaptive repetitions: true when the median CI of x (at confidence) has a
 * relative half-width ((hi - lo) / 2 / median) of at most target. */
bool analysis_converged(const double *x, size_t n, double confidence, double target);

#endif
