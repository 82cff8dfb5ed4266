/*
 * health.h - the nightly fabric health check: a verdict for a saved run
 * against a baseline run taken earlier on a healthy fabric, as a Nagios
 * plugin would judge it. Pure: it prints nothing and reads no database
 * (its outputs: health_out.h; its history rows: history.h).
 * Used by `swstress judge RESULT --baseline PATH` (no MPI) and by
 * `swstress check` (run, then judge the fresh folder on rank 0).
 * MPI-free.
 *
 * What is compared. A cell of the judged run is compared with the cell of
 * the baseline that has the same pattern, message size and load level
 * (pairs), and the same hop count; when both runs chose their hops
 * automatically (hops = auto) the hop count may differ, since per-hop
 * latency and bandwidth do not depend on it. One metric per pattern:
 * per-hop latency for pingpong, per-pair bandwidth for stream, bidir and
 * any other pattern. Both come from the same sample time (bandwidth =
 * bytes / time), so judging both would count one slowdown twice.
 *
 * For each compared cell the unit of replication is the repetition: each
 * repetition is reduced to one value, the median over its pairs
 * (analysis_rep_values), since the samples of one repetition ran at the
 * same moment through the same switch and are not independent. The change
 * is the one change test (change_test) on those values: latency
 * inflation or bandwidth drop in percent (positive = worse), its CI and
 * p from one statistic; fewer than 2 repetitions on either side: not
 * compared. Paging (health_grade) is one rule, and it agrees with the
 * interval, the p and the words printed beside each cell:
 *   - how much a healthy night moves: against a baseline set of at least
 *     HEALTH_MIN_NIGHTS runs, measured ("Night to night" below); against
 *     fewer, the run_to_run SD assumed, counted twice (tonight and the
 *     baseline) in the cell's standard error;
 *   - the family: the verdict's pageable cells, m of them; each cell's p
 *     is its one-sided p of "no worse than a healthy night" times m
 *     (Bonferroni), and its interval is printed at the level where each
 *     bound holds at 1 - alpha / m, so the interval excludes 0 exactly
 *     when p < alpha;
 *   - a cell is CRITICAL when p < alpha and its estimate is beyond
 *     crit_inflation / crit_drop, WARNING the same with warn_inflation /
 *     warn_drop, OK otherwise. An interval that lies beyond a threshold
 *     always pages; one that includes 0 never does; a healthy night pages
 *     anywhere in the check with at most alpha chance.
 *
 * Night to night: each set cell's spread is the SD of its baseline runs'
 * ln medians (k - 1 degrees of freedom), moderated towards the pool of
 * every set cell of the verdict (stats_moderate_var: Smyth 2004's
 * empirical Bayes), so that 3 runs carry the degrees of freedom of many
 * cells; the night SD never below the runs' own noise nor min_effect;
 * tonight's distance from the runs' mean counts a new night's SD (1 +
 * 1/k) and tonight's noise beyond the runs' (stats_nightly's figures).
 *
 * The
 * interval counts the resolution of the cell's samples (one timer tick,
 * one whole message of a timed count: stats_quantum_se). The medians shown for each cell (lat, bw) are the medians of
 * the per-repetition values the change is computed from, with their CIs:
 * analysis_run's cell summaries (lat, bw) of the judged run and of the
 * baseline run, as stored; against several baseline runs that have the
 * cell, the same summary of their values pooled. Thresholds and alpha
 * come from the judged run's config.
 *
 * The verdict is the worst of, in the order OK < UNKNOWN < WARNING <
 * CRITICAL (real evidence of a fault outranks "could not tell"):
 *   - each compared cell's status;
 *   - CRITICAL when a cell of the judged run failed (watchdog: a port
 *     stopped answering);
 *   - CRITICAL for a suspect port (analysis_run's outlier hosts) that the
 *     baseline did not have; a suspect the baseline had too is listed but
 *     does not raise the status;
 *   - a judged run whose drift control found the baseline level changed
 *     during the run (analysis drifted) keeps its status, and the status
 *     line says "run drifted" with the largest drift, so a page never
 *     blames the fabric for what may be drift;
 *   - a compared cell below the sample floor (analysis.h) in this run or
 *     the baseline is shown but stays OK, and a note says how many;
 *   - UNKNOWN for a cell of either run that has no partner in the other
 *     (other sizes, patterns, levels, hop counts; too few samples) and for
 *     a baseline taken on other hosts or with the hosts in another order
 *     (then the pairs ran over other cables): the line says which, the
 *     cells that can be compared are still judged;
 *   - like with like (health_config_check): UNKNOWN alone, naming the
 *     keys, when the baseline was measured another way ("baseline
 *     differs: window 64 vs 16"); a key people change on purpose
 *     (sample_time, hops, ...) that differs is said in the status line
 *     ("caution: baseline differs in sample_time 20ms vs 10ms");
 *   - UNKNOWN alone, with one line, when nothing can be judged: bad
 *     arguments, a judged run or baseline that is missing, unreadable or
 *     corrupt, no cell in common.
 */
#ifndef HEALTH_H
#define HEALTH_H

#include <stdbool.h>
#include <stdint.h>
#include "analysis.h"
#include "run.h"
#include "sw.h"

/* Baseline runs a cell needs before its night-to-night spread counts. */
#define HEALTH_MIN_NIGHTS 3

/* What a verdict's cell stands for: a sweep's cell, or an element of a
 * fabric map (mapjudge.h): the whole fabric, a host's port, a group's
 * uplink (with 2 groups the trunk between them). */
enum health_elem {
	HEALTH_CELL = 0,
	HEALTH_FABRIC,
	HEALTH_HOST,
	HEALTH_UPLINK,
};

enum health_metric {
	HEALTH_LATENCY = 0,     /* per-hop latency, s; worse = higher  */
	HEALTH_BANDWIDTH = 1,   /* per-pair bandwidth, B/s; worse = lower */
};

/* The median of per-repetition values with its CI (NaN when absent). */
struct health_est {
	size_t n;
	double median, lo, hi;
};

/* One cell of the judged run, or a baseline cell the judged run lacks
 * (then cell = -1). */
struct health_cell {
	int cell, base_cell;            /* indices, -1 when absent */
	int pattern, pairs, nodes;
	uint64_t size;
	long hops;
	int metric;                     /* enum health_metric */
	bool compared;
	struct health_est lat, bw;      /* judged run */
	struct health_est base_lat, base_bw;
	double change, lo, hi;          /* %, latency inflation or bandwidth
	                                 * drop, > 0 is worse, and its CI
	                                 * (change_test, per-repetition values) */
	double p;                       /* of "no change", the same statistic */
	int cpu_ranks, cpu_cores;       /* latency cells: busy ranks beyond the
	                                 * cores of a kernel they share (run.h's
	                                 * run_cell_cpu_bound), 0 when not: the
	                                 * latency includes waiting for a CPU */
	struct stats_interval iv;       /* the degradation on the log scale
	                                 * (> 0 worse), whose CI is lo, hi */
	double allow;                   /* what a healthy night may reach on
	                                 * that scale (0) */
	double run_sd;                  /* the run-to-run SD assumed (log
	                                 * scale, run_to_run) when the night-
	                                 * to-night spread is unknown, in iv's
	                                 * se twice; NaN against a set */
	bool pageable;                  /* compared, above the sample floor */
	double p_crit, p_warn;          /* both the printed p (health_grade:
	                                 * Bonferroni over the family) */
	int status;                     /* enum sw_nagios (OK when not compared) */
	char why[96];                   /* not compared: the reason */
	/* Against a baseline set (see "Night to night" above). */
	int base_runs;                  /* baseline runs that have this cell */
	bool nightly;                   /* judged on night-to-night spread */
	/* A map's element (enum health_elem; HEALTH_CELL for a sweep): its
	 * host or group name; a host's or an uplink's values (lat or bw,
	 * and the baseline's) are ratios to its reference, not s or B/s. */
	int elem;
	char elem_name[SW_HOST_MAX + 16];
	double typical;                 /* typical median of the metric across
	                                 * them (geometric mean), s or B/s */
	double spread_pct;              /* their night-to-night SD, % (NaN:
	                                 * fewer than HEALTH_MIN_NIGHTS runs) */
	double sd_pct;                  /* the SD sigma is counted in, % */
	double sigma;                   /* tonight's degradation in night-to-
	                                 * night SDs, > 0 worse; NaN unknown */
	double p_night;                 /* one-sided t p of sigma */
	double night_sd;                /* SD of ln(median) of a healthy night */
	double night_df;                /* degrees of freedom of the night-to-
	                                 * night SD after pooling (health_grade) */
	/* The raw night-to-night figures health_grade pools across cells:
	 * the SD of the baseline runs' ln medians squared on nights_k - 1 df,
	 * their mean and tonight's within-run variance, the floor of the
	 * night SD (min_effect), the log degradation, the resolution. */
	double night_s2, w_base, w_now, night_floor, log_d, res;
	int nights_k;
	int family;                     /* cells in the paging family (the
	                                 * pageable ones), 0 before grading */
	/* The drift control chart over the nights judged against the set. */
	int chart_nights;               /* nights on the chart, tonight included */
	double ewma, ewma_limit;        /* tonight's EWMA and limit (SDs) */
	bool drift;                     /* the chart raised WARNING */
};

struct health_suspect {
	char host[SW_HOST_MAX];
	int flagged, cells;
	bool in_baseline;               /* the baseline flagged it too */
};

struct health_verdict {
	int status;                     /* enum sw_nagios */
	char summary[1024];             /* status line text after "SWSTRESS X - " */
	char run[128], baseline[128];   /* run name; baseline run or set name */
	bool baseline_set;              /* baseline is a named set */
	int base_runs;                  /* runs in the baseline (set members read) */
	double nightly_sigma;           /* unused by the rule (config key kept) */
	char run_path[SW_PATH_MAX], baseline_path[SW_PATH_MAX];
	char started[32];               /* judged run start, "" if unknown */
	double warn_drop, crit_drop, warn_inflation, crit_inflation;
	double alpha, confidence;
	int nhops;                      /* hop counts of the judged run's config */
	int ncells;
	struct health_cell *cell;       /* judged cells in run order, then
	                                 * baseline-only cells */
	int ncompared, nmissing, nwarning, ncritical, nfailed;
	int nspread_unknown;            /* compared cells without the nightly spread */
	int nmostly_missing;            /* cells with more missing samples (run.h) than usable */
	int nsuspects;
	struct health_suspect *suspect;
	char notes[8][256];             /* hosts mismatch, incomplete run, ... */
	char caution[200];              /* "" or the config keys that differ
	                                 * from the baseline's on purpose
	                                 * (health_config_check): said in the
	                                 * status line, whatever the status */
	char drift[160];                /* "" or the judged run's drift (drift
	                                 * control, struct sw_drift): said in
	                                 * the status line, whatever the status */
	int nnotes;
	bool map;                       /* the cells are a map's elements */
	bool graded;                    /* health_grade ran (its note added) */
};

/* Like with like: the config keys of r that differ from a baseline run's
 * (base[0..k)), as "window 64 vs 16" (the baseline's value first), into
 * must (keys that change what a cell measures: window, distinct_buffers,
 * timed, blocking_waits, pairing, ranks_per_node, victims, victim_size,
 * schedule, and seed under a random pairing; health_judge_set is then
 * UNKNOWN naming them) and caution (keys people change on purpose:
 * sample_time, hops, warmup, design, yield, cpu_control; said in the
 * status line). "" when none. */
void health_config_check(const struct sw_run *r, const struct sw_run *const *base, int k, char *must,
			 size_t mlen, char *caution, size_t clen);

/* "OK", "WARNING", "CRITICAL", "UNKNOWN" ("UNKNOWN" when out of range). */
const char *health_status_name(int status);

/* The verdict of run r (analysis a) against baseline base (analysis ba);
 * none may be NULL, and both analyses are analysis_run's at r's
 * confidence (r->cfg.confidence), since their cell medians and CIs are
 * shown as they are. Pure: prints nothing. NULL on ENOMEM. */
struct health_verdict *health_judge(const struct sw_run *r, const struct sw_analysis *a,
				    const struct sw_run *base, const struct sw_analysis *ba);

/* The same against the k runs of a baseline set base[0..k) (oldest
 * first; analyses ba[0..k), as above) called set (NULL: name it after
 * the newest run). */
struct health_verdict *health_judge_set(const struct sw_run *r, const struct sw_analysis *a,
					const struct sw_run *const *base, const struct sw_analysis *const *ba,
					int k, const char *set);

/* The interval of hc (metric set, compared so far false) from tonight's
 * per-repetition values x and the baseline's y (one run, or runs pooled:
 * the night-to-night spread unknown, so hc->run_sd is cfg->run_to_run and
 * the interval counts it twice), res the resolution of their ratio (log
 * scale, stats_quantum_se; 0 none): the change as change_test gives it,
 * its interval widened by the run-to-run SD and res. Fewer than CHANGE_MIN_REPS a side: the
 * estimate only, never pageable. Status is left to health_grade. */
void health_cell_single(struct health_cell *hc, const struct sw_config *cfg, const double *x, size_t nx,
			const double *y, size_t ny, double res);

/* hc (metric set, compared so far false) against k >= 2 baseline runs'
 * per-repetition values y[j][0..ny[j]): the night-to-night figures (see
 * "Night to night" above: stats_nightly), on the cell's own k - 1 df
 * until health_grade pools the spread over the verdict's cells; res as
 * health_cell_single. */
void health_cell_nightly(struct health_cell *hc, const struct sw_config *cfg, const double *x, size_t nx,
			 double *const *y, const size_t *ny, int k, double res);

/* An empty verdict of r (NULL: no run) with room for ncells cells and
 * r's thresholds, status OK. NULL on ENOMEM. */
struct health_verdict *health_verdict_new(const struct sw_run *r, size_t ncells);

/* The median of per-repetition values x[0..n) with its CI, as
 * analysis_run computes a cell's (analysis_rep_ci). */
void health_est_of(const double *x, size_t n, double confidence, struct health_est *e);

/* hc as a cell not yet filled: no indexes, every number NaN, OK. */
void health_cell_blank(struct health_cell *hc);

/* "cell", "fabric", "host", "uplink" (enum health_elem). */
const char *health_elem_name(int elem);

/* Whether hc's values are ratios to a reference (a map's host or
 * uplink), not s or B/s. */
bool health_cell_ratio(const struct health_cell *hc);

/* The status line of a graded verdict (health_grade), from its worst
 * cell. 0, or -1 on ENOMEM. */
int health_summarize(struct health_verdict *v);

/* Grade v's compared cells as the rule above says: the night-to-night
 * spread of its set cells pooled (stats_moderate_var), then Bonferroni
 * over the cells with pageable set, at v->alpha; each cell's printed
 * interval and p set, counted into v's ncompared, nwarning and
 * ncritical, and a note stating the family once. 0, or -1 on ENOMEM. */
int health_grade(struct health_verdict *v);

/* The past nights of cell hc for the drift chart, oldest first, tonight
 * left out: each night's median of hc's metric (s for latency, B/s for
 * bandwidth) into *values (malloc'ed, caller frees). 0 or -1 with err. */
typedef int (*health_nights_fn)(const struct health_cell *hc, void *ctx, double **values, size_t *n,
				char *err, size_t errlen);

/* Add the drift control chart to v: for every compared cell, the nights
 * that nights(hc, ctx, ...) gives (judged against baseline v->baseline)
 * and tonight last. Needs the night-to-night spread (v's cells nightly).
 * A chart that raises its limit makes the cell (and v) at least WARNING
 * and rewrites the summary. 0, or -1 with err (then v is unchanged). */
int health_add_chart(struct health_verdict *v, const struct sw_run *r, health_nights_fn nights, void *ctx,
		     char *err, size_t errlen);

/* Add a note line to v (at most as many as v->notes holds). */
void health_add_note(struct health_verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A verdict of UNKNOWN that says why, with the judged run's cells (not
 * compared) and suspects when r (and a) are not NULL. NULL on ENOMEM. */
struct health_verdict *health_verdict_unknown(const struct sw_run *r, const struct sw_analysis *a,
					      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void health_verdict_free(struct health_verdict *v);

/* The words of the summary line that the outputs (health_out.h) use too:
 * "16 nodes 64KiB stream" (+ " 1000 hops" when the run has several). */
void health_cell_name(const struct health_verdict *v, const struct health_cell *hc, char *buf, size_t len);
/* "bandwidth drop" or "latency inflation" (> 0 is worse), or as a key. */
const char *health_change_name(const struct health_cell *hc, bool key);
/* "bandwidth drop +31.2% [+28.1,+34.0]" with the night-to-night and drift
 * figures when there are some, and for an estimate over a limit of v
 * that did not page, why: ", over the 25% limit, but within a healthy
 * night's spread", or ", ... but within the run-to-run spread assumed
 * (run_to_run 5%, 1 baseline run)", or that the cell cannot page. */
void health_change_text(const struct health_verdict *v, const struct health_cell *hc, char *buf, size_t len);
/* Indices of v's cells, worst first: failed cells, then by status
 * severity, then by how far beyond the critical threshold. malloc'ed,
 * NULL on ENOMEM. */
int *health_worst_first(const struct health_verdict *v);

#endif
