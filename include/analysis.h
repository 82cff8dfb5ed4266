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
#include "change.h"
#include "isolate.h"
#include "pattern.h"   /* enum sw_metric */
#include "run.h"
#include "stats.h"

/* The one sample filter of analysis, health and compare: a sample of cell
 * counts when its time is positive and finite, its repetition >= 0 and its
 * pair in range for the cell's level and the plan. */
bool analysis_sample_ok(const struct sw_run *r, int cell, const struct sw_sample *s);

/*
 * The floor under samples. A sample is too short to trust (short) when
 *   - it moved fewer than ANALYSIS_FLOOR_MSGS messages (hops), or, for a
 *     windowed pattern (stream, bidir) with a fixed hop count, fewer than
 *     ANALYSIS_FLOOR_WINDOWS windows (window x 4 messages: every window
 *     ends with an ack, and the first and last window are the pipeline
 *     filling and draining); a timed sample keeps at most a quarter of
 *     its time in flight, so it spans 4 windows by construction;
 *   - or it took less than analysis_floor_seconds: ANALYSIS_FLOOR_TICKS
 *     ticks of the timer (MPI_Wtick, run.json wtick: the resolution is at
 *     most 1% of the sample) and ANALYSIS_FLOOR_TRIPS round overheads
 *     (run.json round_trip_s: the median one-byte round trip between ranks
 *     0 and 1 at start-up, what the start and end of a sample cost: the
 *     first message's way, the last ack, the timer reads; NaN in runs
 *     recorded before it was measured, then only the ticks count).
 * A cell is below the floor when more than half of its samples are short
 * (its median sample is). A change whose cell or baseline cell is below
 * the floor is computed and shown, marked, and never significant; hops =
 * auto never resolves below the floor (the engine's calibration).
 */
#define ANALYSIS_FLOOR_MSGS 4
#define ANALYSIS_FLOOR_WINDOWS 4
#define ANALYSIS_FLOOR_TICKS 100
#define ANALYSIS_FLOOR_TRIPS 5

/* The slow-pair test (struct sw_pair_stats) needs this many pairs with
 * samples in a cell: with fewer, the level's median is the pair itself
 * or the mean of two, and no pair can stand out from it. */
#define ANALYSIS_SLOW_PAIR_MIN 3

/* The fewest hops a sample of pattern may have (window: the config's). */
long analysis_floor_hops(int pattern, bool timed, int window);

/* The shortest time a sample may take, s: the larger of
 * ANALYSIS_FLOOR_TICKS x wtick and ANALYSIS_FLOOR_TRIPS x round_trip
 * (a term that is not finite is left out). */
double analysis_floor_seconds(double wtick, double round_trip);

/* Usable samples of cell (analysis_sample_ok) below the floor; their
 * number into *short_n and of all usable samples into *n. True when the
 * cell is below the floor: short and missing samples (run.h) are more
 * than half of all (2 x (short + missing) > n + missing). */
bool analysis_cell_below_floor(const struct sw_run *r, int cell, size_t *short_n, size_t *n);

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

/* The block design (plan.h: repetition r of every cell ran in block r):
 * analysis_rep_values with each value's block into a new array *block
 * (ascending; blocks without a usable sample left out). 0 or -1. */
int analysis_block_values(const struct sw_run *r, int cell, int metric, double **out, int **block, size_t *n);

/* The per-block values of cell and of cell base in the blocks that have
 * both, in block order, into new arrays *x and *b (n of each): the pairs
 * the block design's change takes (change_blocks). 0 or -1 (ENOMEM). */
int analysis_block_pairs(const struct sw_run *r, int cell, int base, int metric, double **x, double **b,
			 size_t *n);

/* The resolution of one repetition value of cell c on the log scale into
 * *res: a timer tick over the median sample's time and, for a timed
 * pattern, one message of its median count (stats_quantum_se); 0 when the
 * run does not know its tick. A change's interval takes the resolution of
 * both its cells (hypot). 0 or -1 (ENOMEM). */
int analysis_cell_resolution(const struct sw_run *r, int c, double *res);

/* The one cell-matching rule of health (a run against its baseline) and
 * compare (switches side by side): the cell of b that matches cell c of
 * r, or -1. A match has the same pattern, message size and load level
 * (pairs) and the same hop count; when both runs chose their hop counts
 * themselves (hops = auto: one cell per pattern, size and level) the
 * counts may differ, since per-hop latency and bandwidth do not depend on
 * them. Cells marked in used[] (NULL: none) are skipped. Whether a cell
 * has samples is the caller's business. */
int analysis_match_cell(const struct sw_run *r, int c, const struct sw_run *b, const bool *used);

struct sw_cell_stats {
	int cell;
	int baseline;                  /* cell index at the baseline level, -1 */
	int pairs, nodes;              /* incast: senders, senders + 1 */
	/* The level's typical pair, one value per repetition (the median over
	 * the pairs of that repetition, analysis_rep_values): n = repetitions,
	 * median, mean and their CIs are over repetitions, the unit of
	 * replication. The median CI is stats_median_ci (Bonett-Price). */
	struct stats_summary lat;      /* per-hop latency, s */
	struct stats_summary bw;       /* per-pair bandwidth, bytes/s */
	struct stats_summary agg;      /* aggregate bandwidth per repetition, bytes/s:
	                                * the sum over the pairs of one repetition,
	                                * over the repetitions where every pair of
	                                * the level has a sample */
	/* Every sample of the cell (pairs x repetitions): their spread (min,
	 * max, p1, p99, sd), labelled as such; not for intervals. */
	struct stats_summary lat_spread, bw_spread;
	struct sw_change inflation;    /* latency (per-repetition medians) */
	struct sw_change drop;         /* per-pair bandwidth (per-repetition medians) */
	struct sw_change agg_drop;     /* aggregate bandwidth / pairs, vs baseline
	                                * (one value per complete repetition) */
	struct sw_change receiver_drop;   /* incast: the aggregate at the receiver
	                                * vs the baseline level's (one sender when
	                                * levels start at 1), one value per complete
	                                * repetition; invalid for other patterns */
	double overlap;                /* mean over repetitions of (min end - max
	                                * start) / (max end - min start), each
	                                * clamped to [0, 1]; 1 for one pair; NaN
	                                * with no samples */
	size_t nshort;                 /* samples below the floor (see above) */
	size_t nmissing;               /* missing samples (run.h), by reason: */
	size_t missing[SW_MISSING_COUNT];
	bool below_floor;              /* more than half short or missing: the changes of
	                                * this cell and of the cells it is the
	                                * baseline of are never significant */
	bool converged;                /* per-hop latency median CI half-width
	                                * within ci_target (analysis_converged on
	                                * the per-repetition values) */
	bool drifted;                  /* design sequential, the run drifted
	                                * (struct sw_analysis): this cell's changes
	                                * against the baseline level may be drift,
	                                * not load; never at the baseline level nor
	                                * in a block design */
};

/*
 * The pairs of struct sw_analysis (struct sw_pair_stats, isolate.h: the
 * isolation starts from them): one entry for every pair of every cell, in
 * cell order then pair order; a pair without samples has NaN medians.
 *
 * The slow-pair test (cells with >= 3 pairs with samples, not incast: its
 * senders share one receiving port unequally by design; else effect and z
 * are NaN): each sample's log per-hop latency less the median of its
 * repetition (so the switch's shared state cancels; bandwidth is the
 * inverse of the same time, so latency serves every pattern). A pair's
 * effect is the median of its values (a slowness: positive = slower than
 * the level's typical pair); sigma is the robust spread of the values
 * around their pair's effect (1.4826 MAD, never below 1.2533 times the
 * mean absolute deviation nor 0.1% or the timer's resolution over the
 * median sample time, so it cannot collapse to 0); z = effect / (1.2533
 * sigma / sqrt(repetitions)). Flagged: one-sided (slower only), z above
 * the normal quantile 1 - 0.01 / pairs (Bonferroni over the pairs of the
 * cell) and the effect above suspect_min_effect %. Designed false-alarm
 * rate: at most 1% of cells flag a pair by noise, before
 * the effect floor and the consistency rule of struct sw_suspect, which
 * make it far smaller (tests/calibration: nightly no-change runs).
 */
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

/*
 * Drift control (plan_drift_check): the baseline level measured again
 * after the last level (the run's again samples). For every cell of the
 * baseline level measured again, the one change test (change_test)
 * of its per-repetition values the second time against the first, in
 * the cell's metric (latency for pingpong, else bandwidth: one slowdown
 * counted once), at alpha / cells (Bonferroni over the cells measured
 * again: a run without drift is marked at most alpha of the time) with
 * the matching confidence 1 - alpha / cells and min_effect. The run
 * drifted when any of them is significant: then its changes against the
 * baseline level may be drift, not load (tests/calibration measures the
 * false-mark rate and the power).
 */
struct sw_drift {
	int cell;                      /* the baseline-level cell */
	int metric;                    /* SW_METRIC_LATENCY or _BANDWIDTH */
	struct sw_change change;       /* again against first: > 0 worse at the end */
};

struct sw_victim_stats;

struct sw_analysis {
	int ncells;
	struct sw_cell_stats *cell;
	size_t npairstats;
	struct sw_pair_stats *pair;
	int nsuspects;
	struct sw_suspect *suspect;
	int nfits;
	struct sw_fit *fit;
	int nisolated;
	struct sw_isolated *isolated;  /* isolate_judge of the run's probes;
	                                * a cleared host is no suspect */
	int ndrift;
	struct sw_drift *drift;        /* drift control, one per cell measured again */
	double drift_alpha;            /* alpha / ndrift */
	bool drifted;                  /* a drift is significant: mark the run */
	struct sw_victim_stats *victim;  /* victims.h, one per cell when the
	                                  * run has victims, else NULL */
	char method[1536];     /* one line: unit, confidence, tests, stopping rule */
	double suspect_alpha, suspect_min_effect;   /* of the slow-pair test */
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

/* Adaptive repetitions: true when the relative half-width of the median
 * CI of the per-repetition values x, as estimated by
 * stats_median_halfwidth (Student t, the SD of the logs), is at most
 * target both with all n values and without the last one. The engine
 * passes one value per repetition (the median over its pairs), as
 * analysis does. The estimate is steadier than the interval's own order
 * statistics, so the rule does not stop on a lucky narrow interval and
 * the reported CI keeps its coverage (tests/calibration). */
bool analysis_converged(const double *x, size_t n, double confidence, double target);

/* Median CI of per-repetition values x into s->med_lo/med_hi
 * (stats_median_ci; med_ci_ok false and min..max when it cannot be
 * computed). For summaries whose unit is the repetition. */
void analysis_rep_ci(const double *x, size_t n, double confidence, struct stats_summary *s);

#endif
