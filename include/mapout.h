/*
 * mapout.h - a map run's (schedule = map) statistics and files: the
 * blame of each of its patterns and sizes (mapdata.h, blame.h), with the
 * groups of the config's [topology] section that the run keeps when it
 * has one (else inferred), and for each a set of links.csv, hosts.csv,
 * groups.csv and fabric.csv (blame_out.h) written beside run.json: the
 * first pattern's first size under those names, every other as
 * links-PATTERN-SIZE.csv (size in bytes) and so on. MPI-free.
 */
#ifndef MAPOUT_H
#define MAPOUT_H

#include <stddef.h>
#include <stdint.h>
#include "blame.h"
#include "mapdata.h"
#include "run.h"

/* The groups of the [topology] section of r's config file (r->cfg.file)
 * into r->group, r->group_name and r->ngroup, so that run.json keeps
 * them and every later analysis of the run has the run's groups. No
 * file or no section: r unchanged (the groups are inferred). A section
 * that does not name every host of the run is an error naming it. 0, or
 * -1 with err. */
int mapout_keep_groups(struct sw_run *r, char *err, size_t errlen);

/* The map statistics of r's cells of pattern (pattern.h id) and size
 * into *b (blame_free it), with r's groups (none: inferred). 0, or -1
 * with err (not a map, no block, ENOMEM). */
int mapout_analyse(const struct sw_run *r, int pattern, uint64_t size, struct blame_result *b, char *err,
		   size_t errlen);

/* The same, keeping the map's data in *d (mapdata_free it: the per-block
 * values that b was computed from). On failure d and b hold nothing. */
int mapout_analyse_keep(const struct sw_run *r, int pattern, uint64_t size, struct mapdata *d,
			struct blame_result *b, char *err, size_t errlen);
/* The files a map run's analysis is checked against: the first
 * pattern's first size's links.csv, hosts.csv and groups.csv
 * (fabric.csv, the heat map's grid, follows from links.csv). */
#define MAPOUT_NFILES 3
extern const char *const mapout_files[MAPOUT_NFILES];

/* The map statistics of r's first pattern and size into *b (blame_free
 * it), with r's groups, or for a run whose run.json does not keep them
 * (older runs) the groups hosts.csv gives when it says they were given,
 * else inferred; and text[] (the content of mapout_files in dir, as read)
 * must have the data lines that b gives, comments aside: a cut, changed
 * or missing file is refused with DIR/FILE:LINE. 0, or -1 with err (b
 * then freed). */
int mapout_check(const struct sw_run *r, const char *const text[MAPOUT_NFILES], const char *dir,
		 struct blame_result *b, char *err, size_t errlen);

/* mapout_analyse of every pattern and size, then their sets of files into
 * dir, all or none changed (temporary names first, as results_write). 0,
 * or -1 with err. */
int mapout_write(const char *dir, const struct sw_run *r, char *err, size_t errlen);

#endif
