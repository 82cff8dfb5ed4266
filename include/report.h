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

/* Map r (loaded) against map u of the same hosts run one pair at a time:
 * for each pattern and size of r that u has too, r's claims and u's, each
 * told a fault (slow on u too) or congestion (slow only on r). 0, or -1
 * with err (not two maps, other hosts, nothing in common). With f NULL
 * only the checks that need no statistics (two maps, a pattern and size
 * in common), printing nothing. */
int report_map_contrast(FILE *f, const struct sw_run *r, const struct sw_run *u, char *err, size_t errlen);

/* The same into a new malloc'd string (NULL on ENOMEM). */
char *report_string(const struct sw_run *r, const struct sw_analysis *a, int format);

/* "table" / "classic" to the enum, -1 if neither. */
int report_format_find(const char *name);

#endif
