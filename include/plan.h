/*
 * plan.h - what a sweep will do, derived from the config and the number of
 * ranks alone: the load levels, the rank pairs, and the cells. Pure, no MPI.
 *
 * Pairs: the pairing orders every disjoint pair it can make among the N
 * ranks; level k runs the first k of them. So pair i is the same two ranks
 * at every level, which lets the charts follow one pair (one cable, two
 * ports) across levels. Pair member a initiates and times the sample.
 *
 * Ranks per node (config ranks_per_node = K): ranks K n .. K n + K - 1
 * are node n, and the pairing pairs nodes: pair i names each node by its
 * first rank, and its K rank pairs (a + j, b + j) run side by side to one
 * deadline, their sample summed into the pair's (the engine). Levels
 * count node pairs, nodes and ports nodes.
 *
 * Victims (config victims = V): the first V pairs of the pairing are the
 * victims, kept apart in victim[]; pair[] holds the rest, the aggressors,
 * and the levels count aggressor pairs. Every round of a cell runs the
 * level's aggressors with the victims beside them (victims.h).
 *
 * Incast cells (pattern incast) use the same levels as numbers of
 * senders: level k sends from the initiators of the first k pairs to one
 * receiver, the partner of pair 0, at every level (plan_pair). So one
 * sender is pair 0 streaming alone, and a level of k senders loads k + 1
 * ports, k of them into the receiver's one egress port.
 *
 * The map (config schedule = map, mapsched.h): the levels are the steps
 * of the map's schedule, each a round of the circle method or a part of
 * one (map_concurrency), and level l's pairs are step l's; the cells,
 * blocks and timed samples are as in a sweep, so a block visits every
 * step once in a seeded order. The chosen rounds (map_rounds) are the
 * first of a seeded shuffle of the pass (config seed), in ascending order.
 *
 * Cells are ordered level by level, then pattern, size and hops as given
 * in the config. The order they run in is the design (config design):
 * sequential runs every repetition of a cell, then the next cell, level
 * by level (the folder is flushed after each level); blocks runs
 * repetition r of every cell as block r, visiting the levels in the order
 * plan_block_order gives (the folder is flushed after each block), so
 * that every level, the baseline level too, is measured in every block
 * and a change of level k is computed within blocks.
 */
#ifndef PLAN_H
#define PLAN_H

#include <stdint.h>
#include <stdio.h>
#include "config.h"

struct sw_pair {
	int a, b;
};

struct mapsched;

struct sw_cell {
	int level;         /* index into plan levels */
	int pattern;       /* pattern.h id */
	uint64_t size;     /* bytes */
	long hops;         /* 0: auto, resolved by the engine at the first level
	                    * (stays 0 when timed: each sample counts its own) */
	bool timed;        /* time-bounded samples (config_pattern_timed) */
	int size_index;    /* index into cfg sizes, for auto hops */
};

struct sw_plan {
	int nranks;
	int per_node;            /* ranks a node (config ranks_per_node): pair
	                          * a-b is the rank pairs a+j - b+j, j < per_node,
	                          * a and b a node's first rank */
	int npairs;              /* pairs the pairing made (less the victims):
	                          * the largest level */
	struct sw_pair *pair;
	int nvictims;            /* victim pairs, 0: none */
	struct sw_pair *victim;
	int nlevels;
	int *level_pairs;        /* pairs at each level, ascending */
	int ncells;
	struct sw_cell *cell;
	int cores;               /* cores all ranks share on one kernel, for
	                          * the estimate (plan_set_cores); 0: a core
	                          * each */
	struct mapsched *map;    /* schedule = map: level l is the schedule's
	                          * step l, its pairs mapsched_step_pair's
	                          * (pair[] holds step 0's); NULL for a sweep.
	                          * Owned. */
};

/* The most cells a map's plan may have (each is a struct sw_cell on every
 * rank and per-cell facts on rank 0). */
#define PLAN_MAX_CELLS (1 << 22)
/* The most victim samples a plan may ask (cells x repetitions x victim
 * pairs x 3 rounds: alone, loaded, CPU control). They are kept in
 * run.json at about 211 bytes each; 400 000 are about 85 MB, half of the
 * read-back cap RESULTS_MAX_JSON, so every run that is planned can be
 * read back. */
#define PLAN_MAX_VICTIM_SAMPLES 400000LL

/* Build the plan. Returns NULL with "WHERE: message" in err, WHERE naming
 * the key at fault (levels larger than the ranks, odd node counts, a shift
 * that leaves too few pairs, ...). */
struct sw_plan *plan_create(const struct sw_config *c, int nranks, char *err, size_t errlen);

/* An empty plan with room for the given counts (for results readers).
 * NULL if out of memory. */
struct sw_plan *plan_alloc(int nranks, int npairs, int nlevels, int ncells);

void plan_free(struct sw_plan *p);

/* Give p a copy of n victim pairs. 0, or -1 on ENOMEM. */
int plan_set_victims(struct sw_plan *p, const struct sw_pair *v, int n);

/* The levels block (from 0) visits, in order, into order[0..nlevels):
 * for design = blocks a seeded order (config seed) that changes from
 * block to block: a fresh shuffle for each cycle of nlevels blocks,
 * rotated by one place each block, so that within a cycle every level
 * takes every place once (a speed that drifts during a block falls on
 * every level alike); for sequential 0, 1, ... nlevels - 1. */
void plan_block_order(const struct sw_plan *p, const struct sw_config *c, int block, int *order);

/* Index of the first cell of a level, and how many cells a level has. */
int plan_level_first_cell(const struct sw_plan *p, int level);
int plan_cells_per_level(const struct sw_plan *p);

/* Pair i of a level: the plan's pair i, or in a map the step's pair i. */
struct sw_pair plan_level_pair(const struct sw_plan *p, int level, int i);

/* Pair i of cell's level: plan_level_pair, or for an incast cell sender
 * i (pair i's initiator) with the receiver (pair 0's partner) as b. */
struct sw_pair plan_pair(const struct sw_plan *p, int cell, int i);

/* Ports a cell's level loads: 2k for k pairs, k + 1 for k incast senders. */
int plan_nodes(const struct sw_plan *p, int cell);

/* Rough length of the sweep in seconds: a timed round takes sample_time
 * and the drain of the messages in flight at its deadline, at most
 * PLAN_DRAIN_SHARE of sample_time (the engine keeps no more in flight than
 * drain in that share at the rate seen so far; a flow that fills its link
 * takes it all: measured on the emulated fabric's 20 Mbit/s ports, 0.23 s
 * a round of 1-s samples, 0.14 s of 0.5-s), a hops=auto round sample_time at the baseline level's load; fixed hops
 * use a simple model (2 us + size / 1 GB/s per hop); two rounds a
 * repetition with victims (loaded and alone), one more for warm-up; each
 * round PLAN_ROUND_SECONDS more (its control messages and sample
 * gathering; measured: 4 ranks on 2 cores, quick.conf, 4.3 ms); the
 * baseline level's re-run of drift control included, and
 * PLAN_START_SECONDS of start-up, results and charts (measured: 4 ranks
 * on 2 cores, quick.conf: start-up 1.3 s, files and 10 charts 2.2 s).
 * With p->cores set, the untimed rounds of a level whose busy ranks (2
 * per pair, victims included) outnumber the cores take busy / cores times
 * as long (a rank waits for a CPU between its messages), relative to the
 * baseline level's load for hops = auto, whose calibration ran there. */
#define PLAN_START_SECONDS 4.0
#define PLAN_ROUND_SECONDS 0.005
#define PLAN_DRAIN_SHARE 0.25
double plan_estimate_seconds(const struct sw_plan *p, const struct sw_config *c);

/* The cores all ranks share (ranks on one kernel); 0 or cores at least
 * the ranks: no oversubscription in the estimate. */
void plan_set_cores(struct sw_plan *p, int cores);

/* Drift control: whether the sweep measures its baseline level again
 * after the last level (engine) and tests it against the first time
 * (analysis), in a sequential sweep; never for design = blocks, whose
 * drift check is the baseline level's trend over its blocks (analysis).
 * drift_check = yes: with 2 or more levels; no: never; auto:
 * for a long sweep, PLAN_LONG_LEVELS levels or more, or an estimated
 * PLAN_LONG_SECONDS or more (plan_estimate_seconds without the re-run),
 * where a slow drift has time to pass for load. */
#define PLAN_LONG_LEVELS 4
#define PLAN_LONG_SECONDS 600.0
bool plan_drift_check(const struct sw_plan *p, const struct sw_config *c);

/* The human-readable plan: levels, pairs of each level, cells, estimate. */
void plan_print(FILE *f, const struct sw_plan *p, const struct sw_config *c);

#endif
