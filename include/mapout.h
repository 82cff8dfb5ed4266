/*
 * mapout.h - a map run's (schedule = map) statistics and files: the
 * blame of each of its patterns and sizes (mapdata.h, blame.h), with the
 * groups of the config's [topology] section when it has one (else
 * inferred), and for each a set of links.csv, hosts.csv, groups.csv and
 * fabric.csv (blame_out.h) written beside run.json: the first pattern's
 * first size under those names, every other as links-PATTERN-SIZE.csv
 * (size in bytes) and so on. MPI-free.
 */
#ifndef MAPOUT_H
#define MAPOUT_H

#include <stddef.h>
#include <stdint.h>
#include "blame.h"
#include "run.h"

/* The map statistics of r's cells of pattern (pattern.h id) and size
 * into *b (blame_free it). A [topology] section
 * that does not name every host of the run is an error. 0, or -1 with
 * err (not a map, no block, a bad topology, ENOMEM). */
int mapout_analyse(const struct sw_run *r, int pattern, uint64_t size, struct blame_result *b, char *err,
		   size_t errlen);

/* mapout_analyse of every pattern and size, then their sets of files into
 * dir, all or none changed (temporary names first, as results_write). 0,
 * or -1 with err. */
int mapout_write(const char *dir, const struct sw_run *r, char *err, size_t errlen);

#endif
