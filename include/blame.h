/*
 * blame.h - the fabric map's statistics: every link (pair of ports) with
 * its median and CI from the blocks, and the blame on the element that
 * explains the slow links: a host port, a group's uplink (or the trunk
 * between two groups), or a link alone. Groups come from the topology
 * (topology.h) or, when none is given, are inferred from the map itself
 * ("ports that behave as one group", never stated as fact). Pure and
 * MPI-free; the numbers stand on stats.h.
 *
 * Input: per-block values of one metric for each measured pair. Work is
 * on the log scale, oriented so that lower = slower for either direction
 * of the metric, and each block is first divided by its own median over
 * all links (a speed shift of the whole fabric in one block cancels:
 * time in the statistics). Every claim is one-sided (slower only), needs
 * the effect beyond the floor (at least floor slower: bandwidth below
 * (1 - floor) times its reference, latency above (1 + floor) times), and
 * is corrected over its family (hosts, groups, boundaries, links) by
 * Holm at alpha. The tests:
 *
 *  - a slow host port: host i against its group mates with the same
 *    partner: for each partner j, d_ij = ln v_ij - median over the mates
 *    k of i (same group, k != i, j) of ln v_kj. A sign test on how many
 *    partners have d_ij beyond the floor (the host is slower with almost
 *    every partner; one slow partner or a slow uplink moves the mates as
 *    much as the host, so it clears them); or the same over the partners
 *    in its own group alone (see struct blame_host). Named alone: the
 *    links of a slow host are caused by it, and its partners are cleared.
 *  - a slow uplink (3 groups or more): the links with one end in group
 *    G against the crossing links that do not touch G (Bonett-Price
 *    ratio of medians, stats_log_median_se), slow hosts' links left out.
 *    Flags with no host named.
 *  - a group bottleneck (each boundary g|h; with 2 groups it is named
 *    the trunk): the links crossing it against the links within g and h,
 *    as above. Under load this is the switch's inner structure
 *    (congestion); with the unloaded map beside it, blame_contrast tells
 *    a fault from congestion. A boundary that a slow uplink explains is
 *    no claim of its own.
 *  - a link alone: its per-block values against its group pair's typical
 *    link (Student t on the block log ratios), slow hosts' links left
 *    out; a link that a host, uplink or boundary claim explains is no
 *    claim of its own.
 *
 * Inferred groups: average-linkage clustering of the hosts on how alike
 * their links to everyone else are (mean |g_ik - g_jk|), joining two
 * clusters only while their links between are no slower than the floor
 * below their own within; hosts slower with everyone (slow ports, not
 * groups) join the group they are fastest with; then every boundary is
 * tested as above and groups with no flagged boundary between them are
 * merged. The capacity of a boundary (bandwidth only, rounds known): the
 * most its crossing pairs carried in one round in one direction (sum of
 * their per-block values; median over blocks with its CI).
 */
#ifndef BLAME_H
#define BLAME_H

#include <stdbool.h>
#include <stddef.h>
#include "sw.h"

#define BLAME_EVIDENCE 320   /* bytes of one claim's evidence line */

/* The metric of a map, its unit and which way is better. */
enum blame_metric {
	BLAME_BANDWIDTH = 0,   /* bytes/s (CSV: MB/s); higher is better */
	BLAME_LATENCY,         /* s (CSV: us); lower is better */
};

/* One measured pair: v[0..nblock) its value in each block (the
 * metric's unit, > 0; NaN = not measured in that block). a initiates (the sender of a
 * stream); round: the round it ran in (-1: unknown; the capacity needs
 * it). Each unordered pair at most once. */
struct blame_pair {
	int a, b;
	int round;
	const double *v;
};

struct blame_input {
	int nhost;
	const char *const *host;        /* nhost names */
	const int *group;               /* nhost group indexes in [0, ngroup),
	                                 * or NULL: infer the groups */
	int ngroup;                     /* with group */
	const char *const *group_name;  /* ngroup names, or NULL: "g1", ... */
	const struct blame_pair *pair;
	size_t npair;
	int nblock;
	int metric;                     /* enum blame_metric */
	double floor;                   /* 0.10: claims need >= 10% slower */
	double alpha;                   /* 0.05: family-wise, per family */
	double confidence;              /* of the printed CIs: 0.95 */
};

/* What a claim names. */
enum blame_kind {
	BLAME_NONE = 0,
	BLAME_HOST,       /* a host port */
	BLAME_UPLINK,     /* a group's uplink (or the trunk of 2 groups) */
	BLAME_BOUNDARY,   /* slower crossing one boundary than within */
	BLAME_LINK,       /* a link alone */
};

/* When the claim holds (blame_contrast). */
enum blame_when {
	BLAME_MAP = 0,      /* one map only: not told */
	BLAME_FAULT,        /* slow on the unloaded map too */
	BLAME_CONGESTION,   /* slow only on the loaded map */
};

/* One link, a < b. median, lo, hi in the input's unit (CI at confidence
 * over its blocks; lo = hi = median when n < 2). rel: its median over
 * its reference (the typical link of its group pair, 1 = typical).
 * cause: the claim that explains it (enum blame_kind; by the host or
 * group index, or -1), BLAME_LINK when it is flagged alone. */
struct blame_link {
	int a, b, n;
	int ga, gb;                 /* the groups of a and b */
	double median, lo, hi;
	double rel, p;              /* p: Holm-adjusted, NaN: not tested */
	bool flagged;               /* slow alone */
	int cause, by;
};

/* One host. score: the median over its n partners of its link medians
 * (unit), CI over partners. rel: the median over partners of its link
 * against its mates' links with the same partner (1 = as its mates);
 * slower of tested partners (own_slower of the own in its group) where
 * it was slower than that by more than the floor; p: the sign test over
 * all tested partners or over those in its group (the smaller p, times
 * 2; the group's alone find a slow port behind a trunk that holds every
 * crossing link down), Holm-adjusted over the hosts. */
struct blame_host {
	char name[SW_HOST_MAX];
	int group, n, tested, slower, own, own_slower;
	double score, lo, hi;
	double rel, p;
	bool flagged;
};

/* One group: its uplink's test (rel, CI and p of its crossing links
 * against the reference links; NaN when not testable). */
struct blame_group {
	char name[SW_HOST_MAX];
	int nhost, n;
	double rel, lo, hi, p;
	bool flagged;
};

/* The boundary between groups g < h: the links crossing it (median, CI
 * in the unit, n) against those within g and h (rel, CI, Holm p). The
 * capacity (unit, NaN when not estimable): what the crossing pairs
 * carried in one direction in the rounds with the most of them (cap_pairs;
 * cap_round the first such round): the median over those rounds and
 * blocks, with its CI. */
struct blame_boundary {
	int g, h, n;
	double median, lo, hi;
	double rel, rel_lo, rel_hi, p;
	bool flagged;
	double capacity, cap_lo, cap_hi;
	int cap_pairs, cap_round;
};

/* A claim with its element's name (blame_claim_name) and its evidence
 * (one line, printable). who: host or group index (a boundary's g, with
 * h in with; a link's index in link[]), in the map that made the claim:
 * unloaded is true for a claim blame_contrast took from the unloaded
 * map, whose indexes they are. rel, lo, hi: the metric's ratio against
 * the reference (lo, hi NaN when the test has no CI). */
struct blame_claim {
	int kind, when;
	int who, with;
	bool unloaded;
	double rel, lo, hi, p;
	char name[2 * SW_HOST_MAX + 16];
	char evidence[BLAME_EVIDENCE];
};

struct blame_result {
	int nhost, ngroup;
	bool inferred;                  /* groups inferred from the map */
	int metric;
	double floor, alpha, confidence;
	struct blame_host *host;        /* nhost */
	struct blame_group *group;      /* ngroup */
	struct blame_link *link;        /* nlink, a < b, sorted by (a, b) */
	size_t nlink;
	struct blame_boundary *bound;   /* nbound, by (g, h) */
	size_t nbound;
	struct blame_claim *claim;      /* nclaim, hosts, uplinks,
	                                 * boundaries, links */
	int nclaim;
};

/* Run the map's statistics on in into *out (blame_free it). 0, or -1
 * with err (bad input: a host index out of range, a pair twice, no
 * blocks, floor not in [0, 1), alpha or confidence not in (0, 1);
 * ENOMEM). */
int blame_run(const struct blame_input *in, struct blame_result *out, char *err, size_t errlen);

/* Loaded against unloaded, the same hosts (by name): each claim of
 * loaded gets when = BLAME_FAULT when unloaded makes the same claim
 * (same kind and name), else BLAME_CONGESTION; claims of unloaded alone
 * are appended to loaded's list as BLAME_FAULT (unloaded set). 0, or -1 with err
 * (different hosts, ENOMEM). */
int blame_contrast(struct blame_result *loaded, const struct blame_result *unloaded, char *err,
		   size_t errlen);

/* The link of hosts a and b (either order) in r, or NULL. */
const struct blame_link *blame_link_of(const struct blame_result *r, int a, int b);

/* The claim's element as text: "host node03", "uplink of leaf2",
 * "trunk leaf1|leaf2", "boundary g1|g2", "link node01-node05". */
void blame_claim_name(const struct blame_result *r, const struct blame_claim *c, char *buf, size_t len);

/* "host", "uplink", "boundary", "link", "-"; "fault", "congestion", "". */
const char *blame_kind_name(int kind);
const char *blame_when_name(int when);

void blame_free(struct blame_result *r);

#endif
