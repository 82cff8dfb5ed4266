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
/* A map run's sets: one per pattern and size, set k being pattern
 * k / nsizes and size k % nsizes of the config (set 0 the first
 * pattern's first size). */
int mapout_nsets(const struct sw_run *r);
int mapout_set_pattern(const struct sw_run *r, int k);
uint64_t mapout_set_size(const struct sw_run *r, int k);

/* The name of set k's file base ("links", "hosts", "groups", "fabric")
 * into buf: BASE.csv for set 0, BASE-PATTERN-SIZE.csv (size in bytes)
 * for every other. */
void mapout_set_file(const struct sw_run *r, int k, const char *base, char *buf, size_t len);

/* The files a map run's analysis is checked against, of each set: its
 * links, hosts and groups (fabric.csv, the heat map's grid, follows from
 * links.csv). */
#define MAPOUT_NFILES 3
extern const char *const mapout_files[MAPOUT_NFILES];   /* the bases */

/* The map statistics of r's set k into *b (blame_free it), with r's
 * groups, or for a run whose run.json does not keep them (older runs)
 * the groups the set's hosts.csv gives when it says they were given,
 * else inferred; and text[] (the content of the set's mapout_files in
 * dir, as read: mapout_set_file) must have the data lines that b gives,
 * comments aside: a cut, changed or missing file is refused with
 * DIR/FILE:LINE. 0, or -1 with err (b then freed). */
int mapout_check(const struct sw_run *r, int k, const char *const text[MAPOUT_NFILES], const char *dir,
		 struct blame_result *b, char *err, size_t errlen);

/* mapout_analyse of every pattern and size, then their sets of files into
 * dir, all or none changed (temporary names first, as results_write). 0,
 * or -1 with err. */
int mapout_write(const char *dir, const struct sw_run *r, char *err, size_t errlen);

#endif
