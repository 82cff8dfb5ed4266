/*
 * pattern.h - what a pair does during one sample. MPI-free registry of names,
 * of what each pattern is (its capabilities), and the arithmetic that turns a
 * sample's time into latency and bandwidth; the MPI code of each pattern
 * lives in engine_pattern.c, in a table indexed by id.
 *
 * Ask the capability, never the name: report, compare, health, history,
 * site, plot and the gnuplot scripts ask what a pattern measures and how it
 * runs (struct sw_pattern_info), so a new pattern is its own rows.
 *
 * Adding a pattern (tests/unit/test_pattern.c adds one and runs report,
 * compare, health, history and site over it):
 *   1. include/pattern.h: its id in enum sw_pattern_id, before PAT_COUNT;
 *   2. src/pattern.c: its row in the table (name, help, what it is);
 *   3. src/engine_pattern.c: its row in pattern_ops (the untimed and the
 *      timed MPI loop; NULL untimed when it always runs to a deadline);
 *   4. src/config.c: the "patterns" option's help line, which --help, the
 *      man page and the completion print;
 *   5. README.md: its paragraph.
 * Nothing else names a pattern (before these capabilities: 16 name tests
 * in 8 C files and 6 gnuplot scripts). A pattern that needs a new capability adds
 * the field here and the question where the behaviour differs.
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

/* Room for the built-in patterns and the one a test adds (pattern_add). */
#define PAT_MAX (PAT_COUNT + 1)

/* The metric of a sample, and so which way is worse: per-hop latency (s;
 * worse = higher) or per-pair bandwidth (bytes/s; worse = lower). */
enum sw_metric { SW_METRIC_LATENCY = 0, SW_METRIC_BANDWIDTH = 1 };

/* Which charts draw a pattern (plot.c). */
enum sw_pattern_charts {
	PAT_CHARTS_PAIRS = 0,  /* map, falloff, size, drop, ports (and victims) */
	PAT_CHARTS_INCAST,     /* incast, the drop at the receiver, victims */
};

struct sw_pattern_info {
	const char *name;
	const char *help;
	const char *abbrev;       /* two letters in short labels (perfdata) */
	enum sw_metric metric;    /* what its cells are judged by, and changes of */
	int directions;           /* 1, or 2 for bidir: bytes moved = dirs*size*hops */
	bool even_hops;           /* hops must be even (round trips) */
	bool timed;               /* time-bounded samples by default */
	bool windowed;            /* sends in windows: the sample floor counts them */
	bool incast;              /* k senders to one receiver: always time-bounded, a
	                           * level's "pairs" are its senders (plan_pair) */
	enum sw_pattern_charts charts;
	int headline;             /* the site's index shows, per metric, the pattern
	                           * of the lowest rank present (1 first); 0 never */
};

/* Info for an id, or NULL if out of range. */
const struct sw_pattern_info *pattern_info(int id);

/* How many patterns there are: PAT_COUNT, one more after pattern_add. */
int pattern_count(void);

/* Tests only: add p after the built-in patterns (id PAT_COUNT), so a test
 * proves that everything but the places listed above asks the capability.
 * The strings are not copied. Its id, or -1 when one was added already. */
int pattern_add(const struct sw_pattern_info *p);

/* Id of a name, or -1. */
int pattern_find(const char *name);

/* Name of an id ("?" when out of range). */
const char *pattern_name(int id);

/* True when the pattern of id is judged by per-hop latency (false for a
 * bandwidth pattern and for an unknown id). */
bool pattern_latency_metric(int id);

/* Per-hop latency in seconds of a sample that took seconds for hops. */
double pattern_latency(int id, long hops, double seconds);

/* Bandwidth in bytes/s of one pair's sample: directions*size*hops/seconds. */
double pattern_bandwidth(int id, uint64_t size, long hops, double seconds);

/* The message rate (messages/s) that a bandwidth of bytes_per_s at size
 * bytes a message is: directions*hops/seconds of the same samples (both
 * ways for bidir), so a rate's CI and change are its bandwidth's. */
double pattern_msgrate(uint64_t size, double bytes_per_s);

#endif
