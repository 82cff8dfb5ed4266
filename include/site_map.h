/*
 * site_map.h - the catalog site's page of one map run (schedule = map),
 * from the store's map tables (store.h, schema 6): maps/NAME.html with,
 * for each pattern and size of the run (a section each, in the run's
 * order, when it has more than one), the blame claims and their
 * evidence, the heat map of every link as
 * inline SVG (hosts in group order, the viridis scale with its legend in
 * the map's unit; at more than SITE_MAP_CELLS hosts, blocks of
 * neighbouring hosts, each the mean of its links), the slowest hosts,
 * the groups' uplinks and boundaries and the slowest links, each with
 * its CI. Every text from the store is HTML-escaped. MPI-free.
 */
#ifndef SITE_MAP_H
#define SITE_MAP_H

#include <stddef.h>
#include <stdio.h>
#include "store.h"

/* The most rows and columns the heat map draws one host each. */
#define SITE_MAP_CELLS 64

struct site_map;

/* site.c's page frame and numbers, lent to the map page (so that this
 * module does not link back to site.c): the head of a page titled title
 * with links relative to root, its tail with the site's time of writing
 * (0 or -1), and "x [lo, hi]" into buf. */
struct site_frame {
	void (*head)(FILE *f, const char *title, const char *root);
	int (*tail)(FILE *f, const char *generated);
	void (*fmt_ci)(char *buf, size_t len, double x, double lo, double hi);
};

/* Map run run's tables from s into *out (site_map_free it), with the
 * page's links back: the switch's title and its page (href from maps/),
 * the site's time of writing and its page frame (kept: it must outlive
 * *out). 0, or -1 with err (a store error, a row out of range, ENOMEM). */
int site_map_load(struct store *s, const char *run, const char *switch_title, const char *switch_href,
		  const char *generated, const struct site_frame *frame, struct site_map **out, char *err,
		  size_t errlen);

/* The page of a loaded map (arg: const struct site_map *) on f, as
 * sfile_write_under's writer. 0 or -1 (write error). */
int site_map_write(FILE *f, const void *arg);

void site_map_free(struct site_map *m);

#endif
