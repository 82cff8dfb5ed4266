/*
 * plot.h - the charts of a results folder, drawn by the gnuplot scripts in
 * plot/ (map.gp, falloff.gp, size.gp, drop.gp, ports.gp, victims.gp, incast.gp;
 * common.gp
 * is shared).
 * MPI-free.
 *
 * The C code never writes gnuplot commands: it checks the CSV files the
 * scripts read (a missing file or column is one clear error naming it, not
 * a page of gnuplot warnings), then runs each script once per chart as
 *
 *     gnuplot -e "in='DIR/summary.csv'; out='DIR/falloff-stream.png'; ..." plot/falloff.gp
 *
 * with fork/exec (posix_spawn), stdin from /dev/null and stdout and stderr
 * appended to DIR/plot.log, which also records every command line, so a
 * chart can be redrawn by hand.
 *
 * Charts written into the results folder (PNG, or SVG when asked):
 *   map-PATTERN       degradation map: sizes x load levels, the change (%)
 *                     against the baseline level printed in each cell
 *   falloff-PATTERN   latency and bandwidth against loaded ports (one panel
 *                     per size when there are more than 4 sizes)
 *   size-PATTERN      latency and bandwidth against message size, Hockney fits
 *   drop-PATTERN      degradation (%) with CI against loaded ports (one
 *                     panel per size when there are more than 4 sizes)
 *   ports-PATTERN     per-pair heat map: every size at the highest level
 *   ports-PATTERN-SIZE  per-pair heat map of one size over the levels, only
 *                     with PLOT_PORTS_PER_SIZE
 *   victims-PATTERN   runs with victims (victims.h): the victims' latency
 *                     inflation (median and p99, with CIs) against the
 *                     loaded aggressor ports
 * An incast pattern gets instead:
 *   incast-incast     the aggregate at the receiver and each sender's
 *                     bandwidth against the senders, with the ceiling (one
 *                     sender alone) and the fair share
 *   drop-incast       the receiver drop (%) with CI against the baseline
 */
#ifndef PLOT_H
#define PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sw.h"

/* One chart written. */
struct plot_chart {
	char path[SW_PATH_MAX];  /* RESULT_DIR/falloff-stream.png */
	char kind[16];           /* "map", "falloff", "size", "drop", "ports", "victims", "incast" */
	char pattern[32];
	uint64_t size;           /* message size in bytes (per-size ports), else 0 */
	int width, height;       /* pixels */
};

/* The charts of one plot_render call; chart is owned (plot_charts_free). */
struct plot_charts {
	size_t n;
	struct plot_chart *chart;
};

/* True when a "gnuplot" executable is on PATH. */
bool plot_available(void);

/* Find the folder of the gnuplot scripts, the first that holds falloff.gp
 * of: $SWSTRESS_PLOT_DIR (an error if set but wrong), ../plot and
 * ../share/swstress/plot beside the running binary (build/swstress,
 * $PREFIX/bin/swstress), /usr/local/share/swstress/plot,
 * /usr/share/swstress/plot. 0, or -1 with a message in err. */
int plot_script_dir(char *buf, size_t len, char *err, size_t errlen);

/* Check that the CSV file at path has a header line (after the '#'
 * comment lines) holding every name in columns (NULL-terminated), and that
 * every data row has as many fields as the header. The number of data rows
 * goes to *rows if rows is not NULL. 0, or -1 with e.g.
 * "results/x/summary.csv: missing column 'lat_lo_us'". */
int plot_check_csv(const char *path, const char *const *columns, size_t *rows,
		   char *err, size_t errlen);

/* plot_render flags. */
#define PLOT_SVG            1u   /* SVG instead of PNG (pngcairo) */
#define PLOT_PORTS_PER_SIZE 2u   /* also one ports chart per pattern and size */

/* Read and check every file the charts of result_dir draw from (run.json,
 * summary.csv, pairs.csv, fits.csv), as plot_render does before drawing,
 * without gnuplot. 0, or -1 with "PATH:LINE: what is wrong". */
int plot_check_results(const char *result_dir, char *err, size_t errlen);

/* Draw every chart of the results folder result_dir (run.json,
 * summary.csv, pairs.csv, and fits.csv when present) with the scripts in
 * script_dir (NULL: plot_script_dir). flags: PLOT_SVG, PLOT_PORTS_PER_SIZE.
 * The charts written go to *out (may be NULL; free with plot_charts_free).
 * Returns the number of charts, or -1 with "PATH: what is wrong" in err
 * (charts written before the failure stay in *out). */
int plot_render(const char *result_dir, const char *script_dir, unsigned flags,
		struct plot_charts *out, char *err, size_t errlen);

void plot_charts_free(struct plot_charts *c);

/* The one way every chart is drawn (plot_render here, compare's charts in
 * compare.c). First the -e assignments of a chart, grown as needed: when
 * memory runs out, oom is set and later additions are ignored (plot_draw
 * then fails). Free s when done. */
struct plot_vars {
	char *s;
	size_t len, cap;
	bool oom;
};

void plot_vars_add(struct plot_vars *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* name='value'; with gnuplot's quote escape ('' for '). */
void plot_vars_str(struct plot_vars *v, const char *name, const char *value);

/* Draw the chart at out with "gnuplot -e VARS -e out='TMP' SCRIPT": vars
 * name out by its final name (so the command line appended to log, which
 * leaves the second -e out, redraws the chart by hand), and gnuplot writes
 * a temporary file beside out (sw_temp_create) that is renamed into place
 * when gnuplot succeeds and wrote something. stdin is /dev/null, stdout
 * and stderr are appended to log. script and every path in vars must have
 * passed sw_path_plain. 0, or -1 with "SCRIPT: gnuplot failed (exit status
 * N) drawing OUT; see LOG: LAST LOG LINE" in err; no temporary file is
 * left behind. */
int plot_draw(const char *script, const struct plot_vars *vars, const char *log, const char *out,
	      char *err, size_t errlen);

#endif
