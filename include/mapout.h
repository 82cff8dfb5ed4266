/*
 * mapout.h - a map run's (schedule = map) statistics and files: the
 * blame of its first pattern and size (mapdata.h, blame.h), with the
 * groups of the config's [topology] section that the run keeps when it
 * has one (else inferred), and links.csv, hosts.csv, groups.csv and fabric.csv
 * (blame_out.h) written beside run.json. MPI-free.
 */
#ifndef MAPOUT_H
#define MAPOUT_H

#include <stddef.h>
#include "blame.h"
#include "run.h"

/* The groups of the [topology] section of r's config file (r->cfg.file)
 * into r->group, r->group_name and r->ngroup, so that run.json keeps
 * them and every later analysis of the run has the run's groups. No
 * file or no section: r unchanged (the groups are inferred). A section
 * that does not name every host of the run is an error naming it. 0, or
 * -1 with err. */
int mapout_keep_groups(struct sw_run *r, char *err, size_t errlen);

/* The map statistics of r into *b (blame_free it), with r's groups
 * (none: inferred). 0, or -1 with err (not a map, no block, ENOMEM). */
int mapout_analyse(const struct sw_run *r, struct blame_result *b, char *err, size_t errlen);

/* mapout_analyse, then the four files into dir, all or none changed
 * (temporary names first, as results_write). 0, or -1 with err. */
int mapout_write(const char *dir, const struct sw_run *r, char *err, size_t errlen);

#endif
