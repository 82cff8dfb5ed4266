/*
 * report.h - the terminal report of a run: one table per pattern and size
 * (rows are load levels), or the classic one-line-per-cell format, then
 * outliers, warnings and the method. Reads plain structs, prints text;
 * MPI-free.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>
#include "analysis.h"
#include "run.h"

enum report_format { REPORT_TABLE = 0, REPORT_CLASSIC };

/* Or'ed into a format: the method in full (else one line). */
#define REPORT_VERBOSE 0x100

/* Print the whole report of r (a may be NULL: raw medians only): the
 * run, the hosts and the MPI library, a summary that leads with the
 * answer (the change at the highest load per pattern, the knee, the
 * slow ports), one table per pattern and size, the notes, the method. */
void report_print(FILE *f, const struct sw_run *r, const struct sw_analysis *a, int format);

/* The map statistics (mapout_analyse) of every pattern and size of map
 * run r, made once for its tables (report_print_maps) and the contrast
 * (report_map_contrast). report_maps_analyse: NULL on ENOMEM (a pattern
 * and size with no statistics is kept with its reason). */
struct report_maps;
struct report_maps *report_maps_analyse(const struct sw_run *r);
void report_maps_free(struct report_maps *m);

/* report_print, with m (report_maps_analyse of r, or NULL: each pattern
 * and size analysed in turn) for a map run's tables. */
void report_print_maps(FILE *f, const struct sw_run *r, const struct sw_analysis *a, int format,
		       const struct report_maps *m);

/* Whether map u can stand beside map r (loaded) in report_map_contrast:
 * two maps, of the same hosts, a pattern and size in common. 0, or -1
 * with err. Needs no statistics and prints nothing. */
int report_map_check(const struct sw_run *r, const struct sw_run *u, char *err, size_t errlen);

/* Map r (loaded, its statistics m) against map u of the same hosts run
 * one pair at a time, r and u past report_map_check: for each pattern and
 * size of r that u has too, r's claims and u's, each told a fault (slow
 * on u too) or congestion (slow only on r); m's results take the claims
 * of u (blame_contrast). 0, or -1 with err (no statistics of r or u). */
int report_map_contrast(FILE *f, const struct sw_run *r, struct report_maps *m, const struct sw_run *u, char *err,
			size_t errlen);

/* The same into a new malloc'd string (NULL on ENOMEM). */
char *report_string(const struct sw_run *r, const struct sw_analysis *a, int format);

/* "table" / "classic" to the enum, -1 if neither. */
int report_format_find(const char *name);

#endif
