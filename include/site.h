/*
 * site.h - the catalog web site: static HTML pages written from a store
 * (store.h), readable offline from the files alone. MPI-free.
 *
 * OUTDIR/
 *   index.html                  one line per switch (vendor and model): ports
 *                               tested, bandwidth drop and latency inflation
 *                               at full load with CI, date of the latest run;
 *                               and the list of comparisons
 *   style.css                   the one style sheet (no other assets)
 *   switch/SLUG.html            a page per switch: every run, newest first,
 *                               with its provenance, downloads, fall-off
 *                               charts (inline SVG, with a text alternative)
 *                               and the table of every cell (median [CI],
 *                               change against the baseline level [CI], p)
 *   runs/NAME/FILE              the run's files as published (run.json,
 *                               samples.csv, summary.csv, ...)
 *   maps/NAME.html              a map run's page (site_map.h): its claims,
 *                               heat map and slowest hosts, groups and links
 *   compare/A--B-nN.html        every sweep of two switches at the same
 *                               largest node count N (at most 13 a side,
 *                               newest first), compared with the compare
 *                               module's statistics, each run given its
 *                               site switch as its model: runs of one
 *                               switch are replicates
 *   compare/A--B-nN-map.html    the same for their fabric maps of N hosts
 *                               (compare takes one kind a side); one that
 *                               compare refuses is named on the index,
 *                               and the site is made without it
 *
 * The numbers of the switch pages and the index are the store's cells
 * table; comparisons load each run back from its published files
 * (results_load) and run compare_create. Every run's summary.csv and
 * fits.csv are checked first (results_verify_folder). Every text from the
 * store is HTML-escaped. The site is written into a new folder made
 * exclusively beside OUTDIR and renamed into place at the end (swapped
 * with the previous site), so a failure leaves the previous site whole;
 * an OUTDIR that holds anything but a site is refused, never replaced.
 */
#ifndef SITE_H
#define SITE_H

#include <stddef.h>
#include "store.h"

/* Write the site of store s into outdir (made, or replaced whole). *npages
 * (may be NULL) gets the number of HTML pages. 0, or -1 with the message
 * in err. */
int site_write(struct store *s, const char *outdir, int *npages, char *err, size_t errlen);

#endif
