/*
 * compare.h - switches side by side: the same config run through switch A,
 * then B (and C...), matched cell by cell, with the difference in percent,
 * its CI and p-value on per-repetition values, and a verdict per pattern
 * at the highest common load. Reads saved runs; MPI-free.
 *
 * Matching: the one rule of analysis_match_cell (judge uses it too): the
 * same pattern, size, nodes and hops; with hops = auto in both runs the
 * resolved hop counts may differ (each run times its own), so "auto"
 * matches "auto". Each cell is matched once. A cell without samples
 * counts as absent. Cells present in only some runs are listed as
 * unmatched.
 *
 * Metric of a pattern: per-hop latency for pingpong, per-pair bandwidth for
 * stream and bidir. "%worse" of run X against run A (index 0), the column
 * of the old OSU comparison tables: latency (X - A) / A * 100, bandwidth
 * (A - X) / A * 100; positive means X is worse. Unit of replication: the
 * repetition (analysis_rep_values: the median over the pairs of one
 * repetition), since the samples of one repetition share the switch at
 * one moment; %worse is of the medians of those values, with CI and p of
 * the one change test (change_test, Bonett-Price). Significant: p <
 * alpha, the CI excludes 0 and |%worse| > min_effect, alpha and
 * min_effect from A's config, and, since one run a side cannot see the
 * spread between runs of one switch, the whole CI (log scale) lies
 * beyond the run-to-run allowance z sqrt 2 run_to_run (A's config;
 * stats_run_allowance, stats_beyond).
 *
 * Switches: runs with the same [switch] model (without a model, the same
 * label) are runs of one switch, its replicates. A switch with 2 or more
 * runs against A's switch with 2 or more: in every matched cell the unit
 * is the run, one value a run (its cell median), Welch's t on their logs
 * (stats_runs_welch), significant when its p, Holm-adjusted over the
 * matched cells (one family a pair of switches), is < alpha, the CI
 * excludes 0 and |%worse| > min_effect; the verdict says it per size.
 *
 * Summary (per pattern and size, at the largest node count every run
 * measured): each run's per-hop latency, aggregate bandwidth and
 * degradation from its own baseline level with CI (analysis_run with the
 * run's own config), and the difference in degradation against A in
 * percentage points with CI and p from one statistic
 * (change_diff: the difference of the two log ratios, se
 * sqrt(se_A^2 + se_X^2)). "Degrades less" is significant when p < alpha,
 * that CI excludes 0 and the difference exceeds min_effect points; never
 * with a cell below the sample floor.
 *
 * Output folder: compare.md, compare.json, and when gnuplot is present
 * the charts compare-falloff-PATTERN.png and compare-drop-PATTERN.png,
 * drawn by plot/compare.gp from every run's summary.csv; for maps, one
 * difference heat map per map comparison, compare-fabric-PATTERN-SIZE-X.png
 * (its grid in the .csv beside it), drawn by plot/compare-fabric.gp. Every
 * file is written to a temporary name and renamed into place.
 */
#ifndef COMPARE_H
#define COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "analysis.h"
#include "mapcmp.h"
#include "mapdata.h"
#include "run.h"

#define COMPARE_MAX_RUNS 26   /* A..Z */
#define COMPARE_MAX_NOTES (4 * COMPARE_MAX_RUNS)   /* at most 4 a run */

/* One run's estimate in one matched cell (metric units: s or bytes/s). */
struct compare_value {
	size_t n;
	double median, lo, hi;   /* median and its CI */
	bool ci_ok;              /* false: too few samples for the CI */
};

/* Run X against run A in one matched cell. valid is false for A itself
 * or when a median is missing or zero, or either run has fewer than 2
 * repetitions. */

struct compare_cell {
	int pattern;             /* pattern.h id */
	uint64_t size;           /* bytes */
	int nodes;
	long hops;               /* 0 = auto */
	bool latency;            /* metric: per-hop latency (else per-pair bandwidth) */
	int cell[COMPARE_MAX_RUNS];              /* cell index in each run */
	struct compare_value v[COMPARE_MAX_RUNS];
	struct sw_change d[COMPARE_MAX_RUNS];    /* X against A, per-repetition values
	                                          * (change_test): pct > 0 is X
	                                          * worse; d[0] invalid */
	struct stats_interval between[COMPARE_MAX_RUNS];  /* the switch whose first
	                                          * run is X against A's switch, runs
	                                          * as the unit, log scale, > 0 X
	                                          * worse; n = 0 when not computed */
	double between_p[COMPARE_MAX_RUNS];     /* between's p, Holm-adjusted over
	                                          * the matched cells */
	bool between_significant[COMPARE_MAX_RUNS];
};

/* A (pattern, size, nodes, hops) that some runs lack. */
struct compare_unmatched {
	int pattern;
	uint64_t size;
	int nodes;
	long hops;
	bool present[COMPARE_MAX_RUNS];
};

/* Degradation from a run's own baseline level, and against A's. */
struct compare_level {
	bool valid;              /* the run has this cell with samples */
	int cell;
	double lat, lat_lo, lat_hi;      /* per-hop latency median [CI], s */
	double agg, agg_lo, agg_hi;      /* aggregate bandwidth median [CI], bytes/s */
	struct sw_change change;         /* latency inflation (pingpong) or
	                                  * per-pair bandwidth drop, from analysis */
	bool diff_valid;                 /* run X (not A) against A: */
	double diff, diff_lo, diff_hi;   /* change(X) - change(A), percentage
	                                  * points, with CI (change_diff);
	                                  * negative: X degrades less */
	double diff_p;                   /* its two-sided p-value */
	bool diff_significant;
};

/* The summary of one pattern and size at the highest common load. */
struct compare_summary_row {
	int pattern;
	uint64_t size;
	long hops;
	int nodes;               /* highest node count matched in every run */
	int cmp;                 /* index into cells of that matched cell */
	struct compare_level run[COMPARE_MAX_RUNS];
};

struct compare_verdict {
	int pattern;
	char headline[768];      /* one line: who degrades less at the highest
	                          * common load, by how many points [CI],
	                          * significant or not, runs a side */
	char text[2048];         /* one paragraph a buyer can quote */
};

/* Maps (every run a map, schedule = map): switch X, its first run x,
 * against A's switch in one pattern and size (mapcmp.h), the maps'
 * statistics in the compare's blame[ps * nruns + run]. */
struct compare_map {
	int pattern;             /* pattern.h id */
	uint64_t size;
	int ps, x;
	struct mapcmp m;
};

struct compare {
	int nruns;
	struct sw_run *run[COMPARE_MAX_RUNS];          /* owned */
	struct sw_analysis *an[COMPARE_MAX_RUNS];      /* owned */
	char path[COMPARE_MAX_RUNS][SW_PATH_MAX];      /* results folder ("" unknown) */
	char label[COMPARE_MAX_RUNS][128];             /* unique display names */
	char hosts[COMPARE_MAX_RUNS][4096];            /* sorted unique hosts, ", " */
	char mpi[COMPARE_MAX_RUNS][256];               /* first line of the MPI version */
	double alpha, min_effect, confidence;          /* from run A */
	double allow;                                  /* run-to-run allowance, log
	                                                * scale, from A's run_to_run */
	int sw[COMPARE_MAX_RUNS];                      /* each run's switch: the index
	                                                * of that switch's first run */
	int sw_runs[COMPARE_MAX_RUNS];                 /* runs of run i's switch */
	int ncells;
	struct compare_cell *cells;
	int nunmatched;
	struct compare_unmatched *unmatched;
	int nsummary;
	struct compare_summary_row *summary;
	int nverdicts;
	struct compare_verdict *verdict;
	bool maps;                                     /* every run a map: no cells,
	                                                * the map comparisons */
	int nps;                                       /* patterns x sizes of the maps */
	struct mapdata *mapd;                          /* nps * nruns */
	struct blame_result *blame;                    /* nps * nruns */
	int nmaps;
	struct compare_map *map;
	int nnotes;
	char notes[COMPARE_MAX_NOTES][512];   /* host set, MPI, config and
	                                       * completeness differences */
	char method[2048];
};

/* Compare runs[0..n-1] (n >= 2, at most COMPARE_MAX_RUNS); runs[0] is A.
 * dirs[i] is the results folder of run i (for the charts) or NULL. On
 * success the compare owns the runs; on failure (NULL, message in err) the
 * runs stay the caller's. */
struct compare *compare_create(struct sw_run **runs, const char *const *dirs, int n,
			       char *err, size_t errlen);
void compare_free(struct compare *c);

/* Load each path with results_load and compare. NULL with "PATH: what is
 * wrong" in err. */
struct compare *compare_load(const char *const *paths, int n, char *err, size_t errlen);

/* The display strings of run i in summary row r: the one formatting of
 * a summary row, for the text, the Markdown, the JSON ("text") and the
 * site (numbers through fmt.h: scaled units, no e-notation). */
struct compare_row_text {
	char run[160];           /* "B swA2" */
	char lat[64];            /* "7.216 us [6.894, 8.189]", "-" */
	char agg[64];            /* "2.181 MB/s [1.946, 2.303]", "-" */
	char rate[64];           /* the aggregate's messages: "0.2726 Mmsg/s [0.2433,
	                          * 0.2879]"; "-" for a latency pattern */
	char change[64];         /* "+30.2% [+29.2, +31.1] *", "+371.3% ~", "baseline" */
	char p[16];              /* of the change: "0.012", "< 0.001", "n/a" */
	char diff[64];           /* against A: "-143.9", "+41.1 [+30.2, +52] *"; "" for A */
};
void compare_row(const struct compare *c, const struct compare_summary_row *r, int i, struct compare_row_text *t);

/* The text tables (stdout of the command): the headlines first, within
 * 80 columns (a row per run); verbose: every CI, the message rates and
 * the method in full (wide). */
void compare_print(FILE *f, const struct compare *c, bool verbose);

/* The Markdown report; charts[0..ncharts-1] are file names in the same
 * folder to embed (may be 0). */
void compare_markdown(FILE *f, const struct compare *c, const char *const *charts, int ncharts);

/* The JSON document (new reference, NULL on ENOMEM). */
json_t *compare_json(const struct compare *c);

/* Write compare.md, compare.json and the charts into dir (created if
 * missing). Charts are drawn with script_dir/compare.gp (NULL:
 * plot_script_dir) from each run's summary.csv when charts is true; when
 * gnuplot, the script or a summary.csv is missing, a note goes to stderr
 * and the report says there are no charts. *ncharts (may be NULL) gets the
 * number of charts. 0, or -1 with "PATH: what is wrong" in err. */
int compare_write(const struct compare *c, const char *dir, const char *script_dir, bool charts,
		  int *ncharts, char *err, size_t errlen);

/* The command "swstress compare A B [C ...] [--output DIR]" is
 * compare_command (commands.h): exit status 0, 1 (a result cannot be
 * read, or writing failed), 2 (usage). */

#endif
