/*
 * victims.h - victims and aggressors (GPCNeT's congestion impact): how
 * much the victims' latency inflates while the aggressors load the
 * switch, against the same victims alone. MPI-free.
 *
 * The plan (plan.h) sets the first `victims` pairs of the pairing apart.
 * Every repetition of a cell runs two rounds, each to one deadline: the
 * victims alone, then the level's aggressors (the cell's pattern and size)
 * with the victims beside them. With the CPU control (cpu_control: yes,
 * or auto when ranks share a kernel's cores, hostid.h) a third round
 * follows: each aggressor initiator streams messages of the cell's size
 * through a TCP connection to itself (loopback.h) at the rate it reached
 * in the loaded round, and the aggressors poll between as they do while
 * they send: the same kernel and user-space work on the shared cores,
 * and nothing crosses the switch. A victim slowed in that round was
 * slowed by CPUs, not by the switch. (Last, so that the
 * loaded round follows one idle round as without it: TCP's window after
 * idle.) A victim pair runs timed pingpong of
 * victim_size; its initiator puts every round trip / 2 into a histogram
 * (victims_hist) and keeps the sample's median and p99 (struct sw_victim).
 *
 * Statistics, per cell (victims_analyse): the unit is the repetition. Its
 * value is the median over the victim pairs of each pair's sample median
 * (for p50) or sample p99 (for p99), in the loaded round and in the alone
 * round; loaded against alone is the project's one change test
 * (change_test, latency inflation: Bonett-Price on the log medians of
 * the per-repetition values). So the p99 inflation compares the typical
 * repetition's p99, not one pooled p99: a pooled tail has no repetition
 * to replicate over.
 *
 * With the CPU control the median inflation splits in two, each within
 * the repetition (change_blocks_mean, the repetitions as blocks: the mean of
 * the per-repetition log ratios, Student t over the repetitions that have
 * both rounds): the CPU part (the control round against alone) and the
 * network part (loaded against the control round of the same
 * repetition). A slow spell of the machine that slows a repetition's
 * rounds alike cancels. Over repetitions with all three rounds, (1 + CPU
 * part) x (1 + network part) is the geometric mean of loaded / alone.
 */
#ifndef VICTIMS_H
#define VICTIMS_H

#include <stdbool.h>
#include <stdint.h>
#include "change.h"
#include "run.h"

/* Histogram of latencies on a log scale: bin i holds [lo r^i, lo r^(i+1))
 * with lo = VICTIMS_HIST_MIN and r = VICTIMS_HIST_RATIO (0.5% wide bins,
 * 10 ns to ~7 s; values outside fall in the end bins). A quantile is the
 * geometric middle of the bin of the nearest-rank order statistic, so it
 * is within 0.25% of that statistic inside the range. */
#define VICTIMS_HIST_MIN 1e-8
#define VICTIMS_HIST_RATIO 1.005
#define VICTIMS_HIST_BINS 4096

struct victims_hist {
	uint64_t total;
	uint32_t n[VICTIMS_HIST_BINS];
};

void victims_hist_clear(struct victims_hist *h);

/* Add one latency (s); not finite or not positive: ignored. */
void victims_hist_add(struct victims_hist *h, double s);

/* The q quantile (0 < q <= 1) of what was added: the order statistic of
 * rank ceil(q n) (at least 1); NaN when empty. */
double victims_hist_quantile(const struct victims_hist *h, double q);

/* Whether a victim sample counts for cell: pair and repetition in range,
 * time, p50 and p99 positive and finite, p50 <= p99. */
bool victims_sample_ok(const struct sw_run *r, int cell, const struct sw_victim *v);

/* The rounds of a repetition with victims. */
enum victims_round {
	VICTIMS_LOADED = 0,   /* beside the aggressors */
	VICTIMS_ALONE,        /* the victims alone */
	VICTIMS_CPU,          /* beside aggressors that send through their own loopback */
};

/* The round of a sample. */
int victims_round_of(const struct sw_victim *v);

/* One value per repetition of cell that has usable victim samples of the
 * round asked (enum victims_round), in repetition order: the median over
 * its victim pairs of p99 (tail) or p50. 0 (*out NULL when *n = 0) or -1
 * on ENOMEM. */
int victims_rep_values(const struct sw_run *r, int cell, int round, bool tail, double **out, size_t *n);

/* The victims of one cell: loaded (beside the aggressors) against alone;
 * with a CPU control (ncpu > 0: repetitions with a control and an alone
 * round), the median's CPU part (control vs alone) and network part
 * (loaded vs control), paired by repetition; not valid without one. */
struct sw_victim_stats {
	int cell;
	size_t nloaded, nalone, ncpu;    /* repetitions with values */
	struct sw_change p50, p99;       /* latency inflation, loaded vs alone */
	struct sw_change cpu, net;       /* of the median: CPU and network parts */
};

/* Fill *vs for cell with cfg's confidence, alpha and min_effect (fewer
 * than CHANGE_MIN_REPS repetitions a side: an estimate only, never
 * significant). 0, or -1 on ENOMEM. */
int victims_analyse(const struct sw_run *r, int cell, const struct sw_config *cfg, struct sw_victim_stats *vs);

#endif
