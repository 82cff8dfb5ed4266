/*
 * mapdata.h - a map run's samples (schedule = map) as the input of the
 * map's statistics (blame.h): for one pattern and size, every measured
 * pair of ranks with its round and its value in each block (the
 * pattern's metric: bandwidth in bytes/s for stream and bidir, per-hop
 * latency in s for pingpong; NaN in a block that did not measure it). One
 * rank per host: host i of the input is rank i, named by its host name
 * (with ":rank" added when ranks share a name). MPI-free.
 */
#ifndef MAPDATA_H
#define MAPDATA_H

#include <stddef.h>
#include <stdint.h>
#include "blame.h"
#include "run.h"

struct mapdata {
	struct blame_input in;          /* points into the arrays below */
	char (*name)[SW_HOST_MAX + 8];  /* nhost */
	const char **host;              /* nhost, into name */
	struct blame_pair *pair;        /* npair */
	double *v;                      /* npair * nblock */
	const char **gname;             /* the run's group names, into r */
};

/* Fill d from run r for cells of pattern (pattern.h id) and size, with
 * the run's floor (suspect_min_effect), alpha and confidence, and the
 * run's groups (r->group, its [topology]; none: inferred; in.group
 * points into r). 0, or -1 with err: r
 * is not a map, no cell has that pattern and size, no block recorded, or
 * ENOMEM. mapdata_free releases what it holds (d zeroed). */
int mapdata_fill(const struct sw_run *r, int pattern, uint64_t size, struct mapdata *d, char *err, size_t errlen);
void mapdata_free(struct mapdata *d);

/* Rank i's name in the map: its host, with ":i" when ranks share it. */
void mapdata_host_name(const struct sw_run *r, int i, char name[SW_HOST_MAX + 8]);

#endif
