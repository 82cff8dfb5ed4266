/*
 * results.h - a run's folder on disk, results/LABEL-YYYYmmdd-HHMMSS/, and
 * reading it back. MPI-free.
 *
 * Every file is written to a temporary name in the same folder, flushed and
 * renamed, so a reader never sees half a file. The sweep writes the folder
 * while it runs (after every level) under "NAME.partial" and renames it to
 * NAME when the run ends, complete or not (run.json says which).
 *
 * Files and columns (CSV: one "# swstress VERSION, run NAME, started TIME,
 * MB/s = 10^6 bytes/s" comment line, then a header line; missing numbers
 * are written NaN, which gnuplot skips):
 *
 * samples.csv  one row per raw sample (hops: the sample's own count, which
 *   for a timed cell is what it completed in its window; block: the block
 *   it ran in, run_sample_block, -1 in a sequential run; absent before
 *   schema 3)
 *   cell,level,nodes,pairs,pattern,size_bytes,hops,rep,block,pair,rank_a,rank_b,
 *   host_a,host_b,t_start_s,t_end_s,seconds,latency_us,bandwidth_MBps
 *
 * Incast cells (pattern incast, plan.h): pairs counts the level's senders
 * and nodes is senders + 1; a sample, a pairs.csv row, is one sender
 * (rank_a) with the receiver (rank_b, the same at every level), its
 * bandwidth that sender's bytes by the deadline over its window; agg_* is
 * the aggregate at the receiver (all senders' bytes over the repetition's
 * span).
 *
 * In summary.csv, pairs.csv and run.json a cell's hops is 0 when it is timed
 * (time-bounded samples: run.json cells say "timed": true).
 *
 * summary.csv  one row per cell (lat_* per-hop latency, bw_* per-pair
 *   bandwidth, agg_* aggregate bandwidth of a repetition, ideal_agg = the
 *   baseline level's per-pair median times the pairs, for incast the
 *   baseline level's aggregate: what one receiver port can take; _lo and
 *   _hi columns the CI).
 *   Unit: the repetition. median, lo, hi, mean, mean_lo, mean_hi and sd
 *   are over the per-repetition values (the median over the pairs of a
 *   repetition): lat_infl_pct = (lat_median / baseline lat_median - 1) *
 *   100 and bw_drop_pct = (1 - bw_median / baseline bw_median) * 100, both
 *   positive = worse; min, max, p1 and p99 describe single samples; n
 *   counts samples, reps repetitions.
 *   cell,level,nodes,pairs,pattern,size_bytes,hops,reps,n,stop,overlap,
 *   lat_median_us,lat_lo_us,lat_hi_us,lat_mean_us,lat_mean_lo_us,
 *   lat_mean_hi_us,lat_sd_us,lat_min_us,lat_max_us,lat_p1_us,lat_p99_us,
 *   bw_median_MBps,bw_lo_MBps,bw_hi_MBps,bw_mean_MBps,bw_min_MBps,bw_max_MBps,
 *   agg_median_MBps,agg_lo_MBps,agg_hi_MBps,ideal_agg_MBps,
 *   lat_infl_pct,lat_infl_lo,lat_infl_hi,lat_infl_p,lat_infl_sig,
 *   bw_drop_pct,bw_drop_lo,bw_drop_hi,bw_drop_p,bw_drop_sig,n_short,below_floor,
 *   victim_p50_us,victim_alone_p50_us,victim_infl_pct,victim_infl_lo,
 *   victim_infl_hi,victim_infl_p,victim_infl_sig,victim_p99_us,
 *   victim_alone_p99_us,victim_p99_infl_pct,victim_p99_infl_lo,
 *   victim_p99_infl_hi,victim_p99_infl_p,victim_p99_infl_sig,
 *   receiver_drop_pct,receiver_drop_lo,receiver_drop_hi,receiver_drop_p,
 *   receiver_drop_sig,rate_median_Mmsgps,rate_lo_Mmsgps,rate_hi_Mmsgps,
 *   agg_rate_median_Mmsgps,agg_rate_lo_Mmsgps,agg_rate_hi_Mmsgps
 *   (n_short: samples below the sample floor, analysis.h; below_floor 1:
 *   more than half are, the cell is not trusted and no change of it or
 *   against it is significant: its _sig columns are 0)
 *   The victim_ columns (victims.h; NaN and 0 in a run without victims):
 *   victim_p50_us / victim_alone_p50_us are the medians over the
 *   repetitions of the victims' one-way latency median beside the
 *   aggressors / alone, victim_infl_pct = (victim_p50_us /
 *   victim_alone_p50_us - 1) * 100 with its CI, p and significance; the
 *   p99 columns the same for the victims' per-sample 99th percentile. With
 *   victims, nodes and pairs count the aggressors. The receiver_drop_
 *   columns (incast only, else NaN and 0): the aggregate at the receiver
 *   against the baseline level's, (1 - agg / baseline agg) * 100 on the
 *   per-repetition aggregates, the same change test as bw_drop; with levels
 *   from 1, the drop against one sender: incast collapse when positive and
 *   significant. The rate_ columns (bandwidth patterns, else NaN; added
 *   last, so that readers by position keep theirs): bw and agg as message
 *   rates, 10^6 messages/s = MBps / size_bytes (both ways for bidir);
 *   run.json: "message_rate_per_s" and "aggregate_message_rate_per_s" of
 *   a cell's summary, in messages/s.
 *
 * pairs.csv  one row per pair per cell (lat_rel/bw_rel: the pair's median
 *   over the cell's median; z: the slow-pair test's z, positive = slower,
 *   see struct sw_pair_stats; flagged: 0/1)
 *   cell,level,nodes,pairs,pattern,size_bytes,hops,pair,rank_a,rank_b,
 *   host_a,host_b,lat_median_us,bw_median_MBps,lat_rel,bw_rel,z,flagged
 *
 * fits.csv  one row per Hockney fit
 *   level,nodes,pairs,pattern,size_lo,size_hi,npoints,alpha_us,beta_MBps,n_half_bytes,r2
 *
 * run.json  schema_version, tool_version, name, started, command_line,
 *   mpi_version, wtick, round_trip_s (the round overhead: median one-byte
 *   round trip of ranks 0 and 1 at start-up; null before it was measured),
 *   sample_floor {messages, windows, ticks, round_trips, seconds} (the
 *   floor's rules, analysis.h), wtime_global, yield, duration_s, complete, failure,
 *   config {key: value}, design (blocks or sequential, as config design;
 *   runs before schema 3 load as sequential), block_order [[levels]...]
 *   (the levels of each block in the order they ran, plan_block_order; []
 *   when sequential), ranks [{rank, host}], pairs [[a, b]...],
 *   levels [{pairs, nodes, round (schedule = map: the step's round of the
 *   pass, mapsched.h)}], map (schedule = map only: {method "circle", pass,
 *   per_round, rounds [the rounds run], concurrency, steps_per_round,
 *   cover, groups ("inferred", or the config's [topology] groups as the
 *   run found them: [{name, ranks [...]}], every rank in one; absent in
 *   older runs: inferred)}; a map's plan is rebuilt from the config when it is loaded and
 *   checked against levels and cells), cells [{cell, level, nodes, pairs, pattern,
 *   size_bytes, hops, hops_auto, timed, receiver (incast cells: the
 *   receiver's rank, checked against the plan), reps, stop, wall_s, timed_s, summary
 *   {latency_s, bandwidth_Bps, aggregate_Bps (per-repetition values),
 *   latency_samples_s, bandwidth_samples_Bps (single samples),
 *   latency_inflation, bandwidth_drop, aggregate_drop, receiver_drop (null
 *   but for incast) {pct, lo, hi, level_median, baseline_median, p,
 *   significant}, short_samples, below_floor (the sample floor,
 *   analysis.h), ...}}],
 *   cpu [{level, rank, user_s, sys_s}], suspects [{host, flagged, cells}],
 *   probes [{rank_a, rank_b, host_rank, cell, rep, t_start_s, t_end_s,
 *   seconds, hops}] (the isolation stage; host_rank -1: the control pair),
 *   victim_pairs [[a, b]...] (config victims of them, plan.h),
 *   victim_samples [{cell, rep, pair (index into victim_pairs), alone,
 *   t_start_s, t_end_s, seconds, hops, p50_s, p99_s}] (struct sw_victim;
 *   loaded back, every field range-checked), and in each cell's summary
 *   victims {loaded_reps, alone_reps, latency_inflation, p99_inflation
 *   (changes as above, level = beside the aggressors, baseline = alone)},
 *   isolation [{host, verdict (slow, cleared, unclear), pattern, size_bytes,
 *   bandwidth, slow, tested, partners [{host, value}], control, evidence}]
 *   (value and control: bytes/s when bandwidth, else s per hop),
 *   baseline_again [{cell, rep, pair, t_start_s, t_end_s, seconds, hops}]
 *   (drift control: samples of the baseline level measured again after
 *   the last level; empty when it did not run, plan_drift_check),
 *   drift {drifted, alpha (per cell, Bonferroni), cells [{cell, metric
 *   (latency_inflation, bandwidth_drop), pct, lo, hi, level_median (the
 *   second time), baseline_median (the first), p, significant}]},
 *   outliers [{cell, pair, host_a, host_b, slower_pct, z}], fits [...], method
 *
 * report.txt  the terminal report
 */
#ifndef RESULTS_H
#define RESULTS_H

#include <stdio.h>
#include <time.h>
#include <jansson.h>
#include "run.h"
#include "analysis.h"

/* The most bytes of a run.json that results_load reads; a bigger one is
 * refused unread. The biggest honest run.json, configs/procurement.conf's
 * sweep on 64 nodes with every pattern, 100 repetitions a cell, 2 victim
 * pairs and the CPU control, is 39 MB (the victims' samples are 95% of it;
 * tests/unit/test_results.c makes it): this holds it 4 times over. */
#define RESULTS_MAX_JSON (160LL << 20)

/* A JSON number, or null when x is not finite (JSON has no NaN). */
json_t *results_json_number(double x);

/* A change as run.json writes it: {pct, lo, hi, level_median,
 * baseline_median, p, significant}, or null when not valid (new
 * reference; compare.json's degradations use it too). */
json_t *results_json_change(const struct sw_change *c);

/* Folder name LABEL-YYYYmmdd-HHMMSS for a start time (UTC). */
void results_folder_name(const char *label, time_t t, char *buf, size_t len);

/* Create the folder OUTPUT/NAME.partial (exclusively); refuse early
 * (before any measurement) when OUTPUT is not writable. 0, 1 when
 * another run has the name in OUTPUT (NAME or NAME.partial is there:
 * pick another name), or -1 with a message. */
int results_begin(const struct sw_run *r, char *path, size_t pathlen,
		  char *err, size_t errlen);

/* Write every file of r (and a, which may be NULL) into dir atomically. */
int results_write(const char *dir, const struct sw_run *r, const struct sw_analysis *a,
		  const char *report_text, char *err, size_t errlen);

/* Rename NAME.partial to NAME; final path into out. 0 or -1. */
int results_finish(const char *partial, char *out, size_t outlen, char *err, size_t errlen);

/* Load a run from a results folder or its run.json (samples from
 * samples.csv beside it). NULL with "PATH: what is wrong" in err. */
/* The summary.csv that results_write writes for r and a, as text
 * (malloc'd); NULL on ENOMEM. A stored summary.csv is checked against it. */
char *results_summary_text(const struct sw_run *r, const struct sw_analysis *a);

/* 0 when text, a folder's summary.csv (shown: its path), is what
 * results_summary_text gives; else -1 with "SHOWN:LINE: ..." in err naming
 * the first line that differs (a file that ends there was cut). A
 * summary.csv of an older swstress, every row without the columns added
 * since at its end, is the run's too. */
int results_summary_check(const struct sw_run *r, const struct sw_analysis *a, const char *text, const char *shown,
			  char *err, size_t errlen);

/* The one verifier of a folder's derived files, which plot, compare,
 * publish and site all call: name ("summary.csv" or "fits.csv"), its
 * text (shown: its path), is what results_write writes for r and a; else
 * -1 with "SHOWN:LINE: ..." naming the first line that differs.
 * results_summary_check is this for summary.csv. */
int results_derived_check(const struct sw_run *r, const struct sw_analysis *a, const char *name, const char *text,
			  const char *shown, char *err, size_t errlen);

/* results_derived_check on each derived file folder dir holds (a missing
 * one is not checked). 0 or -1 with err. */
int results_verify(const char *dir, const struct sw_run *r, const struct sw_analysis *a, char *err, size_t errlen);

/* The run of folder dir loaded (results_load), analysed (analysis_run)
 * and its derived files checked (results_verify). 0 or -1 with err. */
int results_verify_folder(const char *dir, char *err, size_t errlen);

struct sw_run *results_load(const char *path, char *err, size_t errlen);

#endif
