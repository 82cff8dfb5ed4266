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
 *  - the model: the links' goodness (block medians) as an additive model
 *    g_ij = mu[G(i), G(j)] + h_i + h_j + e_ij, a term per group pair
 *    and one per host, fitted by median polish, host terms centred on
 *    their median within each group (a group of one host has no effect
 *    of its own; in a group of two each carries half the difference).
 *  - a slow host port: host i's effect h_i, estimated in each block
 *    (the median over its partners j of its link less the fit without
 *    h_i) with the blocks as replicates: a one-sided Student t of "no
 *    slower than the floor", so the evidence grows with the size of the
 *    effect and not only with the number of partners; the host's
 *    block-to-block variance moderated by the one pooled over the hosts
 *    (a moderated t: few blocks give a host few degrees of freedom); over all partners
 *    or over those in its own group (the smaller p, twice; a trunk that
 *    holds every crossing link down hides a slow port there). One block:
 *    the partners are the replicates. Named alone: the links of a slow
 *    host are caused by it, and its partners are cleared.
 *  - a slow uplink (3 groups or more), hosts as the unit: each host of
 *    G gives the median of its crossing links, each other host the median
 *    of its crossing links that do not touch G (goodness less both hosts'
 *    effects; flagged hosts and their links left out); Welch's t between
 *    the two sets. Flags with no host named.
 *  - a group bottleneck (each boundary g|h; with 2 groups it is named
 *    the trunk), hosts as the unit: each host of g and h gives the median
 *    of its crossing links less that of its links within (its own effect
 *    cancels); a one-sided t over the hosts. Under load this is the
 *    switch's inner structure (congestion); with the unloaded map beside
 *    it, blame_contrast tells a fault from congestion. A boundary that a
 *    slow uplink explains is no claim of its own.
 *  - a link alone: its per-block goodness less the model's fit (its
 *    group pair's term and both hosts' effects), Student t on the blocks;
 *    a flagged host's links are not tested (they are the host's).
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
 * resid, res_lo, res_hi: the link against the model's fit (its group
 * pair and both hosts' effects), the mean over blocks with its CI, as
 * a ratio (NaN: a flagged host's link, not tested). cause: the claim
 * that explains it (enum blame_kind; by the host or group index, or
 * -1), BLAME_LINK when it is flagged alone. */
struct blame_link {
	int a, b, n;
	int ga, gb;                 /* the groups of a and b */
	double median, lo, hi;
	double rel, p;              /* p: Holm-adjusted, NaN: not tested */
	double resid, res_lo, res_hi;
	bool flagged;               /* slow alone */
	int cause, by;
};

/* One host. score: the median over its n partners of its link medians
 * (unit), CI over partners. rel [rel_lo, rel_hi]: its effect as a ratio
 * against its group's typical host (1 = typical), the mean over the
 * blocks of its per-block effect, with its CI (by_own: from its
 * partners in its own group, which gave the smaller p); slower of
 * tested partners (own_slower of the own in its group) where its link
 * was below the model's fit without its effect by more than the floor
 * (described, not tested); blocks: the replicates of its test (1: the
 * partners were); p: the t test (the smaller of all partners and own
 * group, times 2), Holm-adjusted over the hosts. */
struct blame_host {
	char name[SW_HOST_MAX];
	int group, n, tested, slower, own, own_slower, blocks;
	double score, lo, hi;
	double rel, rel_lo, rel_hi, p;
	bool by_own;
	bool flagged;
};

/* One group: its uplink's test (rel, CI and p of its hosts' crossing
 * links against the other hosts' crossing links; NaN when not
 * testable); n its crossing links, units its hosts in the test. */
struct blame_group {
	char name[SW_HOST_MAX];
	int nhost, n, units;
	double rel, lo, hi, p;
	bool flagged;
};

/* The boundary between groups g < h: n links crossing it; median, CI in
 * the unit over its hosts (each host's median crossing link); rel, CI,
 * Holm p: the crossing links against those within g and h with units
 * hosts as the unit. The
 * capacity (unit, NaN when not estimable): what the crossing pairs
 * carried in one direction in the rounds with the most of them (cap_pairs;
 * cap_round the first such round): the median over those rounds and
 * blocks, with its CI. */
struct blame_boundary {
	int g, h, n, units;
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
