/*
 * blame_out.h - the fabric map's outputs from a blame_result (blame.h):
 * links.csv, hosts.csv and groups.csv beside run.json, the report's map
 * tables (80 columns), and the heat map's matrix (plot/fabric.gp).
 * MPI-free; prints only on the FILE it is given.
 */
#ifndef BLAME_OUT_H
#define BLAME_OUT_H

#include <stdio.h>
#include "blame.h"

/* The order of the map's tables, worst first: of relative values x and
 * y of metric (BLAME_BANDWIDTH: the slowest first; BLAME_LATENCY: the
 * longest first), < 0, 0 or > 0 as for qsort; NaNs last. */
int blame_cmp_worse(double x, double y, int metric);

/* links.csv: host_a,host_b,path,metric,median,lo,hi,n,flagged,cause;
 * path "G" within group G, "G|H" across; flagged 0/1 (the link alone);
 * cause the element that explains a slow link ("host:NAME",
 * "uplink:G", "boundary:G|H", "link", "-"). 0 or -1 (write error). */
int blame_write_links(FILE *f, const struct blame_result *r);

/* hosts.csv:
 * host,group,order,group_start,metric,score,lo,hi,n,rel,slower,p,flagged
 * (order: the host's place on the heat map's axes, hosts sorted by
 * group, group_start 1 on the first host of its group; score: the median over partners with its CI; rel: against its
 * group's typical host, the model's host effect; slower: partners below
 * the model's fit by more than the floor). 0 or -1. */
int blame_write_hosts(FILE *f, const struct blame_result *r);

/* groups.csv: one row per tested uplink ("uplink", its group, "-") and
 * per boundary ("boundary", g, h):
 * kind,group_a,group_b,n,median,lo,hi,rel,rel_lo,rel_hi,p,flagged,
 * capacity,cap_lo,cap_hi,cap_pairs. 0 or -1. */
int blame_write_groups(FILE *f, const struct blame_result *r);

/* The map's tables for the report: the claims with their evidence, the
 * slowest hosts, the slowest links and the group boundaries, each with
 * its CI, at most top rows each, fitting 80 columns. */
void blame_report(FILE *f, const struct blame_result *r, int top);

/* The claims alone, each led by SLOW, or by fault / congestion once
 * blame_contrast has told them (a claim of the unloaded map alone says
 * so), with its evidence; or the line that there are none. */
void blame_report_claims(FILE *f, const struct blame_result *r);

/* fabric.csv, the heat map's matrix (plot/fabric.gp):
 * x,y,host_x,host_y,value,mark, every cell of the n x n grid, y then x
 * (as gnuplot's image reads it), x and y hosts.csv's order, value NaN
 * where no link was measured; mark 1 on a link a claim explains, 2 on a
 * link flagged alone. 0 or -1. */
int blame_write_matrix(FILE *f, const struct blame_result *r);

/* The element that explains link l, as links.csv's cause column. */
void blame_link_cause(const struct blame_result *r, const struct blame_link *l, char *buf, size_t len);

/* order[i] (nhost of them): host i's place when the hosts are sorted by
 * group, then by index: the heat map's axis. */
void blame_host_order(const struct blame_result *r, int *order);

#endif
