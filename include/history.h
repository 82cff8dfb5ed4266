/*
 * history.h - the history database of runs and checks (SQLite), and the
 * `swstress history` command that lists it. MPI-free.
 *
 * Every run (history_record_run) and every check or judge
 * (history_record_check) appends to one database, by default
 * OUTPUT/history.sqlite (results/history.sqlite). Recording the same run
 * again (check = run, then judge) replaces its cells and keeps its
 * checks. WAL mode, a 5 s busy timeout, prepared statements only: host
 * names, labels and command lines are bound as data, never pasted into
 * SQL. The schema is versioned with PRAGMA user_version
 * (HISTORY_SCHEMA_VERSION); an older database is upgraded on open, a
 * newer one refused.
 *
 * Schema 1 (units SI: seconds, bytes per second; times ISO 8601 UTC):
 *   runs(id, name UNIQUE, label, started, recorded, tool_version,
 *        mpi_version, command_line, nranks, hosts (JSON array), complete,
 *        failure, duration_s, config (JSON))
 *   cells(run_id, cell, level, nodes, pairs, pattern, size_bytes, hops, n,
 *        stop, lat_median_s, lat_lo_s, lat_hi_s, lat_p99_s, bw_median_Bps,
 *        bw_lo_Bps, bw_hi_Bps, lat_infl_pct, bw_drop_pct)
 *        (the changes against the run's own least-loaded level)
 *   suspects(run_id, host, flagged, cells)
 *   checks(id, run_id, checked, baseline, status, verdict, summary)
 *        (status 0..3 as Nagios, verdict its name)
 *   check_cells(check_id, cell, pattern, size_bytes, nodes, hops, metric,
 *        compared, change_pct, lo, hi, p, status, base_lat_median_s,
 *        base_lat_lo_s, base_lat_hi_s, base_bw_median_Bps, base_bw_lo_Bps,
 *        base_bw_hi_Bps, reason, base_runs, typical, spread_pct, sigma,
 *        ewma, ewma_limit, drift)
 *        (schema 2: baseline runs behind the cell, their typical value of
 *        the metric in SI units, the night-to-night spread in %, tonight's
 *        change in night-to-night standard deviations, the control chart's
 *        EWMA and limit in the same unit, drift 1 when it raised WARNING)
 *   baseline_runs(baseline, run, folder, started, added, rolling)
 *        (schema 2: the runs of each named baseline set, with the folders
 *        they are read from; rolling 1 = added by check as an OK night)
 *   (schema 3: check_cells.change_pct, lo and hi are degradations, > 0
 *        worse, for every metric: bandwidth rows of checks made before
 *        the sign was unified, 2026-12-01T17:31:53Z, are turned once)
 *
 * `swstress history --format csv` prints one row per run and cell, oldest
 * first, for plot/trend.gp (columns documented in history_write_csv).
 */
#ifndef HISTORY_H
#define HISTORY_H

#include <stdbool.h>
#include <time.h>
#include <stdio.h>
#include "analysis.h"
#include "run.h"

#define HISTORY_SCHEMA_VERSION 3

struct health_verdict;

/* OUTPUT/history.sqlite into buf. */
void history_default_path(const char *output, char *buf, size_t len);

/* The history database judge uses for result_dir: history when not NULL,
 * else history.sqlite in the folder that holds result_dir (a results
 * folder or its run.json). */
void history_result_path(const char *history, const char *result_dir, char *db, size_t len);

/* A check whose results could not be read (v: its UNKNOWN verdict, the
 * reason in its summary) recorded in db against run name (the folder's
 * name), so that no night is missing from the history. 0 or -1 with err. */
int history_record_unreadable(const char *db, const char *name, const struct health_verdict *v, char *err,
			      size_t errlen);

/* Reserve r's name in db (creating it) before the run measures: a row
 * of the run, complete 0 and failure 'running', that history_record_run
 * completes. 0 when reserved, 1 when another run has the name (pick
 * another: two runs never share one row), -1 with "DB: reason" in err. */
int history_reserve(const char *db, const struct sw_run *r, char *err, size_t errlen);

/* Record run r (analysis a, may be NULL: no cell summaries then) in db,
 * creating db if needed. verdict is NULL for a plain run; otherwise a
 * check row is added with it as summary and its status read from it:
 * "OK", "WARNING", "CRITICAL" or "UNKNOWN", alone or after "SWSTRESS "
 * (anything else: UNKNOWN). 0 or -1 with "DB: reason" in err. */
int history_record_run(const char *db, const struct sw_run *r, const struct sw_analysis *a,
		       const char *verdict, char *err, size_t errlen);

/* Record run r and the full verdict v of a check (per-cell changes, the
 * baseline's CIs). 0 or -1 with "DB: reason" in err. */
int history_record_check(const char *db, const struct sw_run *r, const struct sw_analysis *a,
			 const struct health_verdict *v, char *err, size_t errlen);

/* One run of a named baseline set. */
struct history_member {
	char set[64];
	char run[128];
	char folder[SW_PATH_MAX];       /* absolute path of the results folder */
	char started[32], added[32];    /* ISO 8601 UTC */
	bool rolling;                   /* added by check (baseline_window) */
};

/* Put members m[0..n) into baseline set `set` in one transaction, creating
 * db if needed: with replace, the set holds exactly these afterwards
 * (`baseline set`); without, they join it (a run already in it is
 * updated). 0 or -1 with "DB: reason" in err. */
int history_baseline_put(const char *db, const char *set, const struct history_member *m, size_t n,
			 bool replace, char *err, size_t errlen);

/* Remove run `run` (NULL: every run) from set; how many went into
 * *removed. 0 or -1 with err. */
int history_baseline_remove(const char *db, const char *set, const char *run, int *removed,
			    char *err, size_t errlen);

/* Keep only the `keep` newest rolling members of set (runs marked by hand
 * stay). 0 or -1 with err. */
int history_baseline_trim(const char *db, const char *set, int keep, char *err, size_t errlen);

/* The members of set (NULL: of every set, by set name), oldest run first,
 * into *out (malloc'ed, caller frees). A missing database is an error. 0
 * or -1 with err. */
int history_baseline_members(const char *db, const char *set, struct history_member **out, size_t *n,
			     char *err, size_t errlen);

/* One night of a cell for the control chart: the judged run's median of
 * the metric (s for latency, B/s for bandwidth). */
struct history_point {
	char run[128], started[32];
	double value;
};

/* The cell (pattern, size, nodes, hops; hops < 0: any) of every run that a
 * check judged against baseline `baseline`, started after `after` and not
 * after run r (the night being judged, itself left out), oldest first:
 * per-hop latency median when latency, else per-pair bandwidth median. A
 * missing database gives none. 0 or -1 with err. */
int history_cell_series(const char *db, const char *baseline, const char *after, const struct sw_run *r,
			const char *pattern, unsigned long long size, int nodes, long hops, bool latency,
			struct history_point **out, size_t *n, char *err, size_t errlen);

/* One run as listed, with the latest check of it. */
struct history_run {
	long long id;
	char name[128], label[64], started[32];
	int nranks, ncells;
	bool complete;
	int status;            /* latest check's Nagios status, -1 if none */
	char verdict[16];      /* its name, "-" if none */
	char summary[1024];    /* its summary, "" if none */
};

/* Which runs history reads; NULL fields (or a NULL filter) take all. */
struct history_filter {
	const char *since;     /* started at or after: "YYYY-MM-DDTHH:MM:SSZ" */
	const char *label;     /* the run's label */
	const char *sw;        /* the switch: its [switch] model, or "VENDOR MODEL" */
};

/* The runs of filter f (NULL: all), oldest first, into
 * *out (malloc'ed, caller frees). 0 or -1 with "DB: reason" in err (a
 * missing database is an error: this never creates one). */
int history_list(const char *db, const struct history_filter *f, struct history_run **out, size_t *n,
		 char *err, size_t errlen);

/* The schema version of db (PRAGMA user_version). -1 with err. */
int history_schema_version(const char *db, char *err, size_t errlen);

/* A --since value as a time: YYYY-MM-DD, optionally followed by
 * [T| ]HH:MM[:SS[.frac]] and a zone (Z, +HH, +HHMM, +HH:MM; none = UTC),
 * which covers date -I, -Is, -Ins, --rfc-3339; or as date -u (and date in
 * UTC) and date -R print it. 0, or -1 when s is none of these. */
int history_parse_time(const char *s, time_t *t);

/* Retention (the keep_days key): remove the results folders in output
 * whose names end in -YYYYmmdd-HHMMSS (UTC) of a time before cutoff and
 * that hold a run.json (complete runs; .partial folders and anything else
 * stay), and the runs of db (with their cells, suspects and checks) that
 * started before cutoff; the runs of every baseline set in db, and their
 * folders, stay. A missing db prunes folders only. Counts into *nfolders
 * and *nruns. 0, or -1 with "PATH: reason" in err (what was removed until
 * then stays removed). */
int history_prune(const char *db, const char *output, time_t cutoff, int *nfolders, int *nruns,
		  char *err, size_t errlen);

/* The CSV for plot/trend.gp, one row per run and cell, oldest run first:
 *   started,epoch_s,run,label,pattern,size_bytes,nodes,pairs,hops,n,
 *   lat_median_us,lat_lo_us,lat_hi_us,bw_median_MBps,bw_lo_MBps,bw_hi_MBps,
 *   base_lat_median_us,base_lat_lo_us,base_lat_hi_us,
 *   base_bw_median_MBps,base_bw_lo_MBps,base_bw_hi_MBps,
 *   change_pct,cell_status,status,verdict,sigma,ewma,ewma_limit,drift
 * base_* and change_pct come from the run's latest check (NaN without
 * one), cell_status and status are Nagios codes (-1 without a check);
 * sigma, ewma, ewma_limit (night-to-night SDs) and drift (1: the drift
 * chart raised WARNING, 0 not, -1 no check) when it was against a
 * baseline set (NaN otherwise). A
 * first "# swstress history ..." comment line. 0 or -1 with err. */
int history_write_csv(FILE *f, const char *db, const struct history_filter *flt, char *err, size_t errlen);

/* The table: runs with their verdicts, then the trend of each cell (pattern,
 * size, nodes): runs, first and last median, change (positive = worse:
 * latency up, bandwidth down), min and max, of the per-hop latency for
 * pingpong and per-pair bandwidth otherwise. */
int history_write_table(FILE *f, const char *db, const struct history_filter *flt, char *err, size_t errlen);

#endif
