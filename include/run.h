/*
 * run.h - one measured run in memory: its metadata, plan, raw samples and
 * per-cell facts. Rank 0 fills it during a sweep; results.c writes it to a
 * folder and reads it back, so report, judge and compare work on the same
 * struct with no MPI. MPI-free.
 */
#ifndef RUN_H
#define RUN_H

#include <stdbool.h>
#include <stddef.h>
#include "config.h"
#include "hostid.h"
#include "plan.h"

/* One timed run of H hops by one pair. Times are seconds on the common
 * clock (rank 0's, or MPI's global clock); seconds is t_end - t_start as
 * measured on the initiating rank. hops: the cell's fixed count, or what a
 * time-bounded sample completed (bidir: the mean of its two directions);
 * 0 given to run_add_sample means the cell's count. */
struct sw_sample {
	int cell;
	int rep;       /* repetition, from 0 */
	int pair;      /* index into plan pairs */
	double t_start, t_end;
	double seconds;
	long hops;
	int missing;   /* SW_MISSING_*: no usable time window (run_sample_check) */
};

/* Why a sample has no usable time window: a missing sample, kept with its
 * reason (samples.csv's missing column), counted in its cell and left out
 * of every statistic. */
enum sw_missing {
	SW_MISSING_NONE = 0,
	SW_MISSING_LATE,    /* "late": an empty window (the pair began at or after the deadline) */
	SW_MISSING_SHORT,   /* "short": a window of one timer tick or less */
	SW_MISSING_FAST,    /* "fast": more messages than one a nanosecond in its window */
	SW_MISSING_COUNT
};

/* The one rule for a sample's time window, for the writer (rank 0, as it
 * records a sample) and the reader (as it loads one): SW_MISSING_NONE, or
 * why the sample has no usable window, given the timer's resolution wtick
 * (s; 0 or NaN when unknown: 1 ns). */
int run_sample_check(const struct sw_sample *s, double wtick);

/* A reason's word in samples.csv ("late", "short", "fast"; "" for none),
 * its meaning in a sentence, and the reason of a word (-1: not one). */
const char *run_missing_name(int missing);
const char *run_missing_why(int missing);
int run_missing_parse(const char *word);

/* One sample of the isolation stage (isolate.h): ranks a (initiator) and
 * b alone on the switch, running the pattern and size of cell; host is
 * the rank under test, -1 for the control pair. Times as in sw_sample. */
struct sw_probe {
	int a, b, host;
	int cell;
	int rep;
	double t_start, t_end;
	double seconds;
	long hops;
};

/* One sample of a victim pair (plan victim[pair]): timed pingpong of
 * cfg.victim_size in a round of cell, beside the level's aggressors
 * (alone false) or with the victims alone (alone true). Times as in
 * sw_sample; hops = 2 x round trips; p50 and p99 are the median and 99th
 * percentile of the sample's own one-way latencies (round trip / 2, s),
 * from the engine's histogram (victims.h). */
struct sw_victim {
	int cell, rep, pair;
	bool alone;
	double t_start, t_end;
	double seconds;
	long hops;
	double p50, p99;
	bool cpu;      /* the CPU control round (victims.h): the aggressors
	                * sent through their own loopback; alone false */
};

/* Why a cell stopped repeating. */
enum sw_stop {
	SW_STOP_FIXED = 0,    /* repetitions = N, all done       */
	SW_STOP_CONVERGED,    /* median CI narrower than ci_target */
	SW_STOP_MAX_REPS,     /* adaptive, hit MAX                */
	SW_STOP_BUDGET,       /* adaptive, cell_budget ran out    */
	SW_STOP_FAILED,       /* watchdog or error: incomplete    */
	SW_STOP_NOT_RUN,      /* the sweep ended before this cell */
	SW_STOP_COUNT
};

struct sw_cell_run {
	int reps;          /* recorded repetitions */
	int stop;          /* enum sw_stop */
	double wall;       /* s, wall time of the cell including warm-up */
	double timed;      /* s, sum over rounds of the longest sample */
};

/* CPU time of one rank over one level (getrusage deltas). */
struct sw_cpu {
	int level, rank;
	double user, sys;
};

struct sw_run {
	struct sw_config cfg;
	struct sw_plan *plan;          /* owned */

	char tool_version[32];
	char mpi_version[256];
	char started[32];              /* ISO 8601 UTC, "2026-11-30T13:01:59Z" */
	char command_line[1024];
	char name[128];                /* folder name, LABEL-YYYYmmdd-HHMMSS */
	double wtick;                  /* MPI_Wtick */
	double round_trip;             /* s, median one-byte round trip of ranks
	                                * 0 and 1 at start-up (the round overhead
	                                * of the sample floor); NaN unknown */
	bool wtime_global;             /* MPI_WTIME_IS_GLOBAL */
	bool yield;                    /* ranks yielded the CPU while waiting */
	int nranks;
	char (*host)[SW_HOST_MAX];     /* per rank, owned */
	struct hostid *id;             /* per rank, owned: kernel, network stack
	                                * and cores (hostid.h); all unknown in
	                                * runs that did not record them */
	int ngroup;                    /* schedule = map: the groups of the
	                                * config's [topology] as the run found
	                                * them (mapout_keep_groups; run.json
	                                * map.groups); 0: the map's groups are
	                                * inferred (and in older map runs) */
	char (*group_name)[SW_HOST_MAX]; /* ngroup, owned */
	int *group;                    /* per rank, owned: its group; NULL when
	                                * ngroup = 0 */

	struct sw_cell_run *cell;      /* plan->ncells, owned */
	size_t nsamples, cap_samples;
	struct sw_sample *sample;      /* owned, in cell order */
	size_t ncpu, cap_cpu;
	struct sw_cpu *cpu;            /* owned */
	size_t nprobes, cap_probes;
	struct sw_probe *probe;        /* owned, isolation stage */
	size_t nagain, cap_again;
	struct sw_sample *again;       /* owned: the baseline level measured
	                                * again after the last level (drift
	                                * control, plan_drift_check), cells of
	                                * level 0 in cell order */
	size_t nvictims, cap_victims;
	struct sw_victim *victim;      /* owned, victims' samples */

	bool complete;                 /* every cell ran */
	char failure[512];             /* why it stopped early, "" if complete */
	double duration;               /* s, wall time of the sweep */
};

/* A run over plan (taken over) with nranks hosts unset. NULL on ENOMEM. */
struct sw_run *run_create(const struct sw_config *c, struct sw_plan *plan, int nranks);
void run_free(struct sw_run *r);

/* Append a sample, its missing reason set by run_sample_check (with the
 * run's wtick) unless it came with one; 0 or -1 on ENOMEM. run_add_cpu adds into the
 * record of the same level and rank when there is one (a block design
 * visits every level once a block). */
int run_add_sample(struct sw_run *r, const struct sw_sample *s);
int run_add_cpu(struct sw_run *r, const struct sw_cpu *c);
int run_add_probe(struct sw_run *r, const struct sw_probe *p);
int run_add_again(struct sw_run *r, const struct sw_sample *s);
int run_add_victim(struct sw_run *r, const struct sw_victim *v);

/* Per-hop latency (s) and per-pair bandwidth (bytes/s) of a sample. */
double run_sample_latency(const struct sw_run *r, const struct sw_sample *s);
double run_sample_bandwidth(const struct sw_run *r, const struct sw_sample *s);

/* The same for a probe (its cell's pattern and size). */
double run_probe_latency(const struct sw_run *r, const struct sw_probe *p);
double run_probe_bandwidth(const struct sw_run *r, const struct sw_probe *p);

/* The block a sample ran in: its repetition when the run's design is
 * blocks (repetition r of every cell is block r, plan.h), -1 when
 * sequential (no blocks). */
int run_sample_block(const struct sw_run *r, const struct sw_sample *s);

/* Put the samples back into cell order (cell, repetition, pair): a block
 * design adds them block by block, and the readers below want them so. */
void run_sort_samples(struct sw_run *r);

/* Samples of one cell are contiguous: first index and count (0 if none). */
size_t run_cell_samples(const struct sw_run *r, int cell, size_t *first);

/* The host of a rank into buf, or "rank N" when the run does not know it
 * (so that unknown hosts stay distinct). */
void run_host_name(const struct sw_run *r, int rank, char buf[SW_HOST_MAX]);

/* Whether the ranks busy in cell (its level's pairs or senders and the
 * receiver, and the victims) outnumber the cores of a kernel they share
 * (hostid_busy): then *ranks of them share *cores cores. false with 0
 * and 0 when no two of them share a kernel, or the run does not know. */
bool run_cell_cpu_bound(const struct sw_run *r, int cell, int *ranks, int *cores);

/* Pairs (k) and nodes (2k) of a cell's level. */
int run_cell_pairs(const struct sw_run *r, int cell);

/* Bytes rank 0 holds for a run of plan p under c at its most (rep_max
 * repetitions): the samples, the per-cell facts and CPU records, the
 * hosts and the plan's cells. The statistics and the files written at
 * each flush take about as much again while they run. */
double run_memory_bytes(const struct sw_plan *p, const struct sw_config *c);

/* "converged", "max-reps", ... and back (-1 if unknown). */
const char *run_stop_name(int stop);
int run_stop_find(const char *name);

#endif
