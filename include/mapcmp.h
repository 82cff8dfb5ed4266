/*
 * mapcmp.h - two switches' fabric maps side by side (compare of map
 * runs): switch A's maps (na runs) against switch X's (nx runs), one
 * pattern and size, from each map's statistics (blame.h) and its
 * per-block values (blame_input). Pure and MPI-free.
 *
 * The fabric-wide value of a map: the median of its link medians. Which
 * switch is slower, by how much: X against A as compare's change
 * (change.h: pct > 0 is X worse), with the unit of replication as
 * compare has it:
 *  - 2 or more runs a side: the run, one value a run (its fabric-wide
 *    value), Welch's t on their logs (stats_runs_welch);
 *  - otherwise the block of each side's first run, its value the median
 *    over the links of that block (as compare's repetition: the median
 *    over the pairs), the change test (change_test), and a claim only
 *    when its whole CI lies beyond the run-to-run allowance.
 * The links are not the unit: they share hosts and blocks, so they are
 * not independent. The per-link paired ratio (X over A on each link
 * both first maps measured) is shown beside it, descriptive: its median
 * and quartiles.
 *
 * Links and hosts are matched by host name when every host of A's first
 * map is in X's first map (the same hosts cabled to another switch),
 * else by position (rank i with rank i: the same place in the rack).
 *
 * Hosts: each host's change beyond the fabric-wide shift, d_ij = the
 * log ratio (goodness, so lower = slower either metric) of its link to
 * partner j, X over A, less the median d over all matched links. One
 * run a side: a sign test over its partners on how many have d beyond
 * the threshold (the effect floor, and never inside the run-to-run
 * allowance) slower, and another faster; 2 or more runs a side: Welch's
 * t over runs on each run's host value (ln of its score over the map's
 * fabric-wide value), halved one-sided, with the effect beyond the
 * floor. Each claim one-sided, Holm over the hosts and both directions.
 *
 * Claims: each claim (blame.h) of X's first map that A's first map does
 * not make (same kind and name), and each of A's that X's does not.
 */
#ifndef MAPCMP_H
#define MAPCMP_H

#include <stdbool.h>
#include <stddef.h>
#include "blame.h"
#include "change.h"

/* The settings of the comparison (A's config). */
struct mapcmp_opts {
	double alpha, confidence;
	double min_effect;       /* percent, of the fabric-wide change */
	double floor;            /* of host claims: 0.10 */
	double allow;            /* run-to-run allowance, log scale */
};

/* One map: its input (the per-block values) and its statistics. */
struct mapcmp_map {
	const struct blame_input *in;
	const struct blame_result *res;
};

/* A host of A's first map and its match in X's. rel: the metric's ratio
 * X over A beyond the fabric shift (median over partners; over runs, of
 * the mean logs; bandwidth < 1 or latency > 1: slower on X). claim: -1
 * slower on X, +1 faster, 0. */
struct mapcmp_host {
	int a, x;                /* index in A's and X's first map */
	int n, slower, faster;   /* partners matched (over runs: the fewer runs a side with a
	                          * value); beyond the threshold (over runs: 0 or 1) */
	double rel, p_slow, p_fast;   /* p Holm-adjusted (NaN: not tested) */
	int claim;
};

/* A claim of one side's first map that the other side's does not make. */
struct mapcmp_claim {
	bool on_x;               /* X's claim (else A's) */
	const struct blame_claim *claim;
};

struct mapcmp {
	int metric;              /* enum blame_metric */
	int na, nx;
	bool runs_unit;          /* 2 or more runs a side */
	double fab_a, fab_x;     /* fabric-wide values: median over the side's runs */
	struct sw_change change; /* X against A: pct > 0 X slower */
	bool beyond;             /* one run a side: the CI beyond the allowance */
	bool by_name;            /* hosts matched by name (else by position) */
	size_t nlinks;           /* links both first maps measured */
	double link_ratio, link_q1, link_q3;   /* X over A per link */
	double *link_rel;        /* each link of A's first map: X's median over
	                          * A's (the metric's ratio), NaN unmatched */
	double thresh;           /* of the hosts' claims (log) */
	double confidence;       /* of the CIs */
	int nhost, nslower, nfaster;
	struct mapcmp_host *host;   /* nhost */
	int nclaim;
	struct mapcmp_claim *claim; /* nclaim, X's first */
};

/* Compare a[0..na) (switch A) with x[0..nx) (switch X), every map the
 * same metric and with as many hosts. 0, or -1 with err (no maps, hosts
 * or metric differ, ENOMEM). mapcmp_free releases *out. */
int mapcmp_run(const struct mapcmp_map *a, int na, const struct mapcmp_map *x, int nx, const struct mapcmp_opts *o,
	       struct mapcmp *out, char *err, size_t errlen);
void mapcmp_free(struct mapcmp *m);

/* Whether r makes a claim of c's kind and name. */
bool mapcmp_has_claim(const struct blame_result *r, const struct blame_claim *c);

/* Whether m names a winner: the fabric-wide change significant (and,
 * one run a side, beyond the allowance). */
bool mapcmp_significant(const struct mapcmp *m);

#endif
