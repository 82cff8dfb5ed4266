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
 * stream and bidir. Unit of replication inside a run: the repetition
 * (analysis_rep_values: the median over the pairs of one repetition).
 *
 * Switches, not runs, are compared. Runs with the same [switch] model
 * are runs of one switch, its replicates; a run without a model joins
 * the runs with its label (with or without a model); a run whose samples
 * are identical to an earlier run's is a copy, counted once (a note says
 * so). Each switch other than A's (the switch of run A) is compared with
 * A's, pooled over its runs; never a run against another run.
 *
 * Statements (struct compare_stmt), for a switch X against A's switch:
 * - a matched cell: X's value against A's, "%worse" (latency (X - A) / A,
 *   bandwidth (A - X) / A; > 0: X worse);
 * - a summary row (pattern and size at the highest load every run
 *   reached): the difference of the degradations from each run's own
 *   baseline level, in percentage points (> 0: X degrades more).
 * The unit: when a side has 2 or more runs, the run: one value a run
 * (the log of its cell median, or its degradation's log ratio, where
 * the run-to-run spread shared by a run's cells cancels), Welch's t
 * with 2 or more runs a side (stats_runs_welch), Student's t with the
 * variance of the other side when one side has one run. With one run a
 * side, the repetitions (change_test, change_diff) and, since the spread
 * between runs is then unknown, the whole CI (log scale) beyond the
 * run-to-run allowance z sqrt 2 run_to_run (stats_run_allowance).
 * Significant: Holm-adjusted p < alpha, the CI excludes 0, |pct| >
 * min_effect, no cell below the sample floor.
 *
 * Error rate, one comparison: for each pair of switches a gate. First
 * family: the summary rows, each with its degradation difference and
 * the level difference of its cell (the answer's statements), Holm over
 * them. Second family, tested only when a statement of the first is
 * significant: the other matched cells, Holm over them. When the
 * switches are alike the chance of any significant statement about the
 * pair is at most alpha.
 *
 * The answer: one verdict per pattern per pair of switches, its headline
 * one sentence naming the switches by model, first in every output.
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

/* One statement of switch X against A's switch (see the top). */
struct compare_stmt {
	bool valid;
	bool runs;               /* runs as the unit; false: one run a side */
	int na, nx;              /* runs counted on A's side and X's (copies once) */
	double d, lo, hi;        /* log scale, > 0 X worse: the ratio of the values,
	                          * or the difference of the degradations' log ratios */
	double pct, pct_lo, pct_hi;   /* %worse (cell) or points (degradation), > 0 X worse */
	double p;                /* two-sided */
	double p_adj;            /* Holm-adjusted in its family; NaN: not tested
	                          * (the gate was closed) */
	bool tested;             /* in a family (first, or the open second) */
	bool short_cell;         /* a cell below the sample floor: never significant */
	bool significant;
};

struct compare_cell {
	int pattern;             /* pattern.h id */
	uint64_t size;           /* bytes */
	int nodes;
	long hops;               /* 0 = auto */
	bool latency;            /* metric: per-hop latency (else per-pair bandwidth) */
	bool top;                /* the cell of a summary row (first family) */
	int cell[COMPARE_MAX_RUNS];              /* cell index in each run */
	struct compare_value v[COMPARE_MAX_RUNS];   /* each run's */
	struct compare_value sv[COMPARE_MAX_RUNS];  /* each switch's (index: its
	                                          * first run): one run's value, or
	                                          * the geometric mean of its runs'
	                                          * medians (lo, hi: their range) */
	struct compare_stmt s[COMPARE_MAX_RUNS];    /* switch X (its first run)
	                                          * against A's; s[0] invalid */
};

/* A (pattern, size, nodes, hops) that some runs lack. */
struct compare_unmatched {
	int pattern;
	uint64_t size;
	int nodes;
	long hops;
	bool present[COMPARE_MAX_RUNS];
};

/* Degradation from a run's (or a switch's) own baseline level. */
struct compare_level {
	bool valid;              /* the run has this cell with samples */
	int cell;
	int runs;                /* runs pooled (a switch's row), 1 for a run */
	double lat, lat_lo, lat_hi;      /* per-hop latency median [CI], s */
	double agg, agg_lo, agg_hi;      /* aggregate bandwidth median [CI], bytes/s */
	struct sw_change change;         /* latency inflation (pingpong) or
	                                  * per-pair bandwidth drop; a switch of
	                                  * 2 or more runs: the mean of its runs'
	                                  * log ratios, t CI over the runs */
};

/* The summary of one pattern and size at the highest common load. */
struct compare_summary_row {
	int pattern;
	uint64_t size;
	long hops;
	int nodes;               /* highest node count matched in every run */
	int cmp;                 /* index into cells of that matched cell */
	struct compare_level run[COMPARE_MAX_RUNS];   /* each run's */
	struct compare_level sw[COMPARE_MAX_RUNS];    /* each switch's (its first run) */
	struct compare_stmt s[COMPARE_MAX_RUNS];      /* degradation of switch X
	                                               * against A's, points */
};

struct compare_verdict {
	int pattern;
	int x;                   /* the switch against A's (its first run); 0:
	                          * every run is of A's switch */
	char headline[2048];     /* one sentence: who degrades more at the highest
	                          * common load, by how many points [CI], the
	                          * level there, significant or not, runs a side */
	char text[2048];         /* a short paragraph: every size, the gate */
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
	int sw_runs[COMPARE_MAX_RUNS];                 /* runs of run i's switch,
	                                                * copies counted once */
	int copy_of[COMPARE_MAX_RUNS];                 /* -1, or the earlier run whose
	                                                * samples run i repeats */
	int nswitches;                                 /* distinct switches */
	char caution[512];                             /* keys that change what is
	                                                * measured and differ
	                                                * ("window (A 64, C 16)"), "" */
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

/* The display strings of switch i (the index of its first run) in
 * summary row r: the one formatting of a summary row, for the text, the
 * Markdown, the JSON ("text") and the site (numbers through fmt.h: scaled
 * units, no e-notation). */
struct compare_row_text {
	char run[160];           /* "SwB (3 runs)", "A swA" (one run) */
	char lat[64];            /* "7.216 us [6.894, 8.189]", "-" */
	char agg[64];            /* "2.181 MB/s [1.946, 2.303]", "-" */
	char rate[64];           /* the aggregate's messages: "0.2726 Mmsg/s [0.2433,
	                          * 0.2879]"; "-" for a latency pattern */
	char change[64];         /* "+30.2% [+29.2, +31.1] *", "+371.3% ~", "baseline" */
	char p[16];              /* of the change: "0.012", "< 0.001", "n/a" */
	char diff[64];           /* against A's switch, points: "-143.9",
	                          * "+41.1 [+30.2, +52.0] *"; "" for A's */
};
void compare_row(const struct compare *c, const struct compare_summary_row *r, int i, struct compare_row_text *t);

/* A cell's statement as a buyer reads it: worse as "+12.3% worse", better
 * as the ratio of the values, "2.00x bw" (bandwidth) or "0.51x lat"; with
 * ci its CI the same way; " *" when significant; "-" when not valid. */
void compare_worse_text(const struct compare_stmt *s, bool latency, bool ci, char *buf, size_t len);

/* " [lo, hi]" of a CI in percent or points, signed, one decimal; a bound
 * beyond +-999.9 (a bandwidth's CI on few runs can reach -10^6 %) as
 * "<-999" or ">+999", so a row keeps its width. */
char *compare_ci(char *buf, size_t len, double lo, double hi);

/* The name of run i's switch: its model, else its label. */
const char *compare_switch_name(const struct compare *c, int i);

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
