/*
 * health_out.h - the outputs of a health verdict (health.h): the Nagios
 * plugin text with its performance data, one JSON object, the Prometheus
 * textfile. They only read the verdict. MPI-free.
 *
 * Nagios output (stdout): the status line
 *   SWSTRESS CRITICAL - 16 nodes 64KiB stream: bandwidth drop +31.2% [+28.1,+34.0] vs baseline; suspect port node07 | PERFDATA
 * then detail lines (worst cells first, suspect ports, cells not compared,
 * notes). Performance data, one item per compared cell and metric:
 *   'pct_st_64KiB_n16'=31.2%;~:10;~:25;;    degradation, warn/crit ranges
 *   'us_pp_8B_n16'=3.21us;;;0;              per-hop latency median now
 *   'MBps_st_64KiB_n16'=812.3;;;0;          per-pair bandwidth median now
 *   'cells_critical'=1;;;0;12  'cells_warning'=0;;;0;12  'suspects'=1;;;0;
 * Labels are unique in their first 19 characters (a label that would not
 * be falls back to pct_cellN). A hop count joins the label (_h1000) when
 * the run has several. Perfdata beyond about 3,000 characters moves to a
 * second "| ..." line after the details, as the plugin format allows.
 *
 * Prometheus textfile (--prom FILE, node_exporter textfile collector; no
 * timestamps; written to a temporary name in the same folder, renamed):
 *   swstress_check_status                       0 OK .. 3 UNKNOWN
 *   swstress_last_run_timestamp_seconds         start of the judged run
 *   swstress_latency_seconds{pattern,size_bytes,nodes[,hops],stat}
 *   swstress_bandwidth_bytes_per_second{pattern,size_bytes,nodes[,hops],stat}
 *        stat = median, ci_lo, ci_hi (median CI), baseline_median
 *   swstress_change_percent{pattern,size_bytes,nodes[,hops],metric,stat}
 *        metric = latency_inflation|bandwidth_drop (> 0 worse), stat = estimate, ci_lo, ci_hi
 *   swstress_change_p_value{pattern,size_bytes,nodes[,hops],metric}
 *   swstress_cell_status{pattern,size_bytes,nodes[,hops]}
 *   swstress_suspect_port{host}                 1 suspect, 0 not (every host)
 *   swstress_cells{state}                       compared, not_compared,
 *                                               warning, critical
 * The hops label is present only when the run lists several hop counts.
 * A map's verdict (mapjudge.h): each element's families carry
 * element="fabric|host|uplink" and host="..." or group="..." instead of
 * nodes; hosts and uplinks, ratios, are in
 *   swstress_map_ratio{pattern,size_bytes,element,host|group,stat}
 *        stat = median, baseline_median (1 = as its reference)
 * instead of latency/bandwidth, and the map's claims replace the suspect
 * ports:
 *   swstress_map_claim{claim}                   1 claimed, 2 new since
 *                                               the baseline
 * The Nagios details list "map claim ..." lines for them.
 */
#ifndef HEALTH_OUT_H
#define HEALTH_OUT_H

#include <stddef.h>
#include <stdio.h>
#include "health.h"

/* The performance data of v on one line (no leading '|'); 0, or -1 when
 * buf was too small (then it holds whole items only). */
int health_perfdata(const struct health_verdict *v, char *buf, size_t len);

/* The plugin output: status line with perfdata, detail lines. */
void health_print_nagios(FILE *f, const struct health_verdict *v);

/* The verdict as one JSON object on one line. 0 or -1 (ENOMEM, I/O). */
int health_print_json(FILE *f, const struct health_verdict *v);

/* Write the Prometheus textfile (see above) for verdict v; r (may be
 * NULL) gives the host list for swstress_suspect_port. 0 or -1 with
 * "PATH: reason" in err. */
int health_write_prom(const char *path, const struct sw_run *r, const struct health_verdict *v,
		      char *err, size_t errlen);

#endif
