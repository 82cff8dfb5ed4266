/*
 * mapjudge.h - the health verdict of a fabric map (schedule = map)
 * against baseline maps, as judge and check give it: a struct
 * health_verdict (health.h) whose cells are the map's elements, so that
 * its grading, status line, JSON and Prometheus outputs are the sweep's.
 * Pure and MPI-free.
 *
 * The elements of each pattern and size: the fabric, each host's port,
 * each group's uplink (with 2 groups one element, the trunk between
 * them). Groups: the baseline's first map's (the config's [topology], or
 * inferred from that healthy map), applied to every map judged. Each
 * element has one value a block, so that blocks are the unit as the
 * repetitions of a sweep are:
 *   fabric   F_b, the median over the block's links;
 *   host i   the median over its partners j of v_ij / R(g_i, g_j), R the
 *            block's median over the links between those two groups (the
 *            group pair's typical link): a slow uplink slows R as much
 *            as the link, so it is not put on the hosts behind it;
 *   uplink g the median over the links with one end in g of v / W, W the
 *            block's median over the links within groups (no uplink).
 * Hosts and uplinks are ratios (1 = as their reference); the fabric is
 * in the metric's unit (s per hop, bytes/s).
 *
 * Each element is one cell of the verdict: with fewer than
 * HEALTH_MIN_NIGHTS baseline runs, tonight's blocks against the baseline
 * runs' blocks pooled (health_cell_single: the change test, and the
 * run-to-run allowance on top of the thresholds); with more, the
 * night-to-night rule (health_cell_nightly) on each run's blocks. Then
 * health_grade: one-sided beyond warn/crit_drop (bandwidth) or
 * warn/crit_inflation (latency) plus the allowance, Holm over every
 * element of every map tested. Hosts are matched by name.
 */
#ifndef MAPJUDGE_H
#define MAPJUDGE_H

#include <stddef.h>
#include <stdint.h>
#include "blame.h"
#include "health.h"
#include "run.h"

/* One map: its per-block values and its statistics (groups, names). */
struct mapjudge_map {
	const struct blame_input *in;
	const struct blame_result *res;
};

/* Add the elements of one pattern (pattern.h id) and size to v: the map
 * run against base[0..k) (oldest first), thresholds and rules from cfg.
 * 0, or -1 with err (a host of run not in a baseline map, the metrics
 * differ, ENOMEM); v's cells must have room for mapjudge_elements(). */
int mapjudge_add(struct health_verdict *v, const struct sw_config *cfg, int pattern, uint64_t size,
		 const struct mapjudge_map *run, const struct mapjudge_map *base, int k, char *err, size_t errlen);

/* The elements mapjudge_add adds for baseline map b: 1 + hosts + uplinks. */
int mapjudge_elements(const struct blame_result *b);

/* Grade v (health_grade), its notes and its status line, once every map
 * is added. 0, or -1 on ENOMEM. */
int mapjudge_finish(struct health_verdict *v);

/* The verdict of map run r against the k baseline map runs base[0..k)
 * (oldest first), named set (NULL: after the newest run): every pattern
 * and size of r's config. NULL with err (a baseline that is no map, a
 * pattern or size it lacks, other hosts, ENOMEM). */
struct health_verdict *mapjudge_verdict(const struct sw_run *r, const struct sw_run *const *base, int k,
					const char *set, char *err, size_t errlen);

#endif
