/*
 * blame_out.h - the fabric map's outputs from a blame_result (blame.h):
 * links.csv and hosts.csv beside run.json, the report's map tables (80
 * columns), and the data file of the heat-map chart (plot/map.gp).
 * MPI-free; prints only on the FILE it is given.
 */
#ifndef BLAME_OUT_H
#define BLAME_OUT_H

#include <stdio.h>
#include "blame.h"

/* links.csv: host_a,host_b,path,metric,median,lo,hi,n,flagged,cause;
 * path "G" within group G, "G|H" across; flagged 0/1 (the link alone);
 * cause the element that explains a slow link ("host:NAME",
 * "uplink:G", "boundary:G|H", "link", "-"). 0 or -1 (write error). */
int blame_write_links(FILE *f, const struct blame_result *r);

/* hosts.csv: host,group,score,lo,hi,n,rel,slower,p,flagged. 0 or -1. */
int blame_write_hosts(FILE *f, const struct blame_result *r);

/* The map's tables for the report: the claims with their evidence, the
 * slowest hosts, the slowest links and the group boundaries, each with
 * its CI, at most top rows each, fitting 80 columns. */
void blame_report(FILE *f, const struct blame_result *r, int top);

/* The heat map's matrix as gnuplot reads it (plot/map.gp): hosts ordered
 * by group, one line per cell "x y value flag" with a blank line between
 * rows, value NaN where not measured, flag 1 on a flagged or blamed link.
 * 0 or -1. */
int blame_write_matrix(FILE *f, const struct blame_result *r);

#endif
