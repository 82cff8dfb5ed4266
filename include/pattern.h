/*
 * pattern.h - what a pair does during one sample. MPI-free registry of names
 * and the arithmetic that turns a sample's time into latency and bandwidth;
 * the MPI code of each pattern lives in engine.c, in a table indexed by id.
 */
#ifndef PATTERN_H
#define PATTERN_H

#include <stdbool.h>
#include <stdint.h>

enum sw_pattern_id {
	PAT_PINGPONG = 0,  /* H hops = H/2 round trips; latency = round trip/2 */
	PAT_STREAM,        /* H messages one way in windows, ack per window    */
	PAT_BIDIR,         /* H messages each way at once, windowed            */
	PAT_INCAST,        /* the level's k senders stream to one receiver     */
	PAT_COUNT
};

struct sw_pattern_info {
	const char *name;
	const char *help;
	int directions;     /* 1, or 2 for bidir: bytes moved = dirs*size*hops */
	bool even_hops;     /* hops must be even (pingpong) */
	bool bandwidth;     /* measures bandwidth: time-bounded samples by default */
	bool incast;        /* k senders to one receiver: always time-bounded, a
	                     * level's "pairs" are its senders (plan_pair) */
};

/* Info for an id, or NULL if out of range. */
const struct sw_pattern_info *pattern_info(int id);

/* Id of a name, or -1. */
int pattern_find(const char *name);

/* Name of an id ("?" when out of range). */
const char *pattern_name(int id);

/* Per-hop latency in seconds of a sample that took seconds for hops. */
double pattern_latency(int id, long hops, double seconds);

/* Bandwidth in bytes/s of one pair's sample: directions*size*hops/seconds. */
double pattern_bandwidth(int id, uint64_t size, long hops, double seconds);

#endif
