/*
 * config.h - the sweep configuration: INI file plus command-line key=value.
 *
 * One option table (in config.c) serves the file, the command line, --help,
 * the key list of configs/README.md and run.json. The struct holds no pointers, so the
 * engine can broadcast it as bytes and run.json can hold it whole.
 *
 * File format: INI as parsed by libinih. Sections ([sweep], [stats],
 * [health], ...) only group keys for the reader: a key means the same in
 * any section. Comments start with '#' or ';' (at the start of a line, or
 * after a blank). Keys are case-insensitive and '-' reads as '_'. Leading
 * blanks are ignored (a value never continues on the next line); a line
 * holds at most 198 characters. A key given twice: the later one wins (as
 * in fio); "nodes" and "pairs" set the same levels, so the later of them
 * wins too. Lists are comma-separated; sizes, hops, nodes and pairs take
 * geometric ranges "START..END xF" (F >= 2, default 2: START, START*F, ...
 * up to END, and END itself).
 */
#ifndef CONFIG_H
#define CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include "sw.h"

/* How the "levels" list was given. */
enum cfg_level_unit {
	CFG_LEVEL_PAIRS = 0,  /* pairs = 1,2,4       */
	CFG_LEVEL_NODES = 1,  /* nodes = 8,16,24     */
};

/* A level entry equal to CFG_LEVEL_MAX means "all ranks" (N/2 pairs or N
 * nodes), written "max" in the file. levels_all means every pair count
 * from 1 to N/2 ("nodes = all" or "pairs = all"). */
#define CFG_LEVEL_MAX (-1)

enum cfg_pairing {
	CFG_PAIRING_ADJACENT = 0,  /* 0-1, 2-3, ...                       */
	CFG_PAIRING_HALVES,        /* i with i + N/2                      */
	CFG_PAIRING_RANDOM,        /* seeded shuffle, then adjacent       */
	CFG_PAIRING_SHIFT,         /* i with (i + shift) mod N, greedily  */
};

/* The order of a sweep (plan.h): blocks through the levels, or each
 * level's repetitions one after another. */
enum cfg_design {
	CFG_DESIGN_BLOCKS = 0,
	CFG_DESIGN_SEQUENTIAL,
};

/* What the run measures: the sweep's load levels, or the fabric map's
 * rounds (mapsched.h: every pair of ranks once a pass). */
enum cfg_schedule {
	CFG_SCHEDULE_SWEEP = 0,
	CFG_SCHEDULE_MAP,
};

/* Keys that take auto, yes or no (yield, timed). */
enum cfg_auto {
	CFG_AUTO = 0,
	CFG_YES,
	CFG_NO,
};

enum cfg_yield {
	CFG_YIELD_AUTO = CFG_AUTO,  /* yield when a host runs more ranks than cores */
	CFG_YIELD_YES = CFG_YES,
	CFG_YIELD_NO = CFG_NO,
};

/* Where each key got its value, for error messages after parsing:
 * "configs/quick.conf:12", "command line", "run.json" or "default". */
#define CFG_WHERE_MAX 300
#define CFG_MAX_OPTIONS 64  /* rows of where[]: at least the option count */

struct sw_config {
	/* [sweep] */
	int level_unit;                  /* enum cfg_level_unit */
	bool levels_all;
	int nlevels;
	int levels[SW_MAX_LIST];         /* ascending, or CFG_LEVEL_MAX */
	int nsizes;
	uint64_t sizes[SW_MAX_LIST];     /* bytes, ascending, no duplicates */
	int nhops;                       /* 0: hops = auto */
	long hops[SW_MAX_LIST];
	double sample_time;              /* s, hops = auto: a timed sample's window,
	                                  * else what the hop count aims at */
	int timed;                       /* enum cfg_auto: time-bounded samples,
	                                  * only with hops = auto (auto: the
	                                  * patterns pattern.h marks timed, all
	                                  * with victims; incast always:
	                                  * config_pattern_timed) */
	int npatterns;
	int patterns[SW_MAX_PATTERNS];   /* ids from pattern.h */
	int window;                      /* messages in flight, stream/bidir */
	bool distinct_buffers;           /* a receive buffer per window slot */
	bool blocking_waits;             /* untimed samples block in MPI (engine_pattern.c) */
	int pairing;                     /* enum cfg_pairing */
	int shift;                       /* D of shift:D */
	uint64_t seed;
	int rep_min, rep_max;            /* repetitions = N or MIN..MAX */
	int design;                      /* enum cfg_design */
	int schedule;                    /* enum cfg_schedule */
	int map_rounds;                  /* rounds of the map's pass, 0: all */
	int map_concurrency;             /* pairs of a map round at once, 0: all */
	int warmup;                      /* untimed rounds before each cell */
	double timeout;                  /* s, per cell watchdog */
	bool allow_shared_node;
	bool allow_shared_kernel;        /* ranks on one kernel in their own
	                                  * network stacks (hostid.h) */
	int yield;                       /* enum cfg_yield */
	int ranks_per_node;              /* K ranks drive each node's port (plan.h) */
	int victims;                     /* victim pairs (plan.h), 0: none */
	uint64_t victim_size;            /* bytes, the victims' pingpong */
	int cpu_control;                 /* enum cfg_auto: the victims' CPU
	                                  * control round (victims.h; auto:
	                                  * when ranks share a kernel) */
	int isolate;                     /* enum cfg_auto: re-pair the hosts of
	                                  * flagged pairs (auto: for check) */
	int drift_check;                 /* enum cfg_auto: the baseline level
	                                  * again after the last level (auto:
	                                  * long sweeps, plan_drift_check) */
	char label[64];
	char output[SW_PATH_MAX];        /* parent folder of result folders */
	int keep_days;                   /* retention, days; 0: keep all */

	/* [stats] */
	double confidence;               /* 0.95 */
	double alpha;                    /* 0.05 */
	double min_effect;               /* %, 2 */
	double run_to_run;               /* %, the assumed SD of a run's value
	                                  * between runs of one switch, for a
	                                  * comparison with one run a side */
	double suspect_min_effect;       /* %, effect floor of a slow pair */
	double ci_target;                /* relative half-width, 0.02 */
	double cell_budget;              /* s, adaptive repetitions per cell */
	int bootstrap;                   /* resamples, >= 2000 */

	/* [health] */
	double warn_drop, crit_drop;            /* % bandwidth drop */
	double warn_inflation, crit_inflation;  /* % latency inflation */
	double deadline;                        /* s, whole check */
	double nightly_sigma;                   /* night-to-night SDs a change must exceed */
	int baseline_window;                    /* OK nights a named baseline keeps, 0: none */
	double ewma_lambda, ewma_limit;         /* control chart weight and limit (L) */

	/* [switch] and [host]: what was measured, for the catalog (free text,
	 * "" when not given; recorded in run.json, shown by report) */
	char vendor[64];
	char model[64];
	char firmware[64];
	char port_speed[32];             /* "100GbE" */
	int ports_used;                  /* 0: not given */
	char topology[64];               /* "single", "leaf-spine", ... */
	char oversubscription[32];       /* "3:1" */
	char cabling[128];
	char notes[256];
	char nic[128];
	char transport[64];              /* MPI transport, "ucx/tcp", "ofi/verbs" */

	/* Provenance of every key, indexed like the option table. */
	char where[CFG_MAX_OPTIONS][CFG_WHERE_MAX];
	char file[SW_PATH_MAX];          /* config file, "" if none */
};

/* Fill c with every default. */
void config_defaults(struct sw_config *c);

/* Read an INI file into c (on top of what is there). Returns 0, or -1 with
 * "FILE:LINE: message" in err (or "FILE: message" when it cannot be read);
 * on error c may hold the keys before the bad line. */
int config_load_file(struct sw_config *c, const char *path, char *err, size_t errlen);

/* Set one key. where names the place for messages ("FILE:LINE",
 * "command line"). Returns 0 or -1 with "WHERE: message" in err, e.g.
 * "command line: unknown key 'msgsz' (did you mean 'sizes'?)". */
int config_set(struct sw_config *c, const char *key, const char *value,
	       const char *where, char *err, size_t errlen);

/* Apply "key=value" (one command-line word). Returns 0 or -1 with
 * "command line: ..." in err. */
int config_set_arg(struct sw_config *c, const char *arg, char *err, size_t errlen);

/* Apply n command-line words in order; nodes= and pairs= both (or one of
 * them twice) among them is an error naming the two words. */
int config_set_args(struct sw_config *c, const char *const *args, int n, char *err, size_t errlen);

/* Checks across keys that do not depend on the number of ranks (rep_min <=
 * rep_max, hops even for pingpong, ...). 0 or -1 with "WHERE: message". */
int config_validate(const struct sw_config *c, char *err, size_t errlen);

/* "configs/quick.conf:7" or "command line" or "default" for a key. */
const char *config_where(const struct sw_config *c, const char *key);

/* Whether cells of a pattern run time-bounded samples under c: every pair
 * of a level sends until one common deadline and counts its hops (timed =
 * yes, or auto for a bandwidth pattern with hops = auto; every pattern
 * when there are victims or schedule = map; incast always, config_validate refusing it with
 * a hop list or timed = no). */
bool config_pattern_timed(const struct sw_config *c, int pattern);

/* Print the key table (name, default, meaning) for --help and the README. */
void config_print_keys(FILE *f);

/* Key i of the table (0, 1, ...): its name, and its default as file text
 * (NULL: none) and help in *def and *help when they are not NULL; NULL
 * past the last key. For the man page and shell completion. */
const char *config_key(int i, const char **def, const char **help);

/* One key's value as a file would hold it ("8, 1KiB, 64KiB", "20ms");
 * "" for the levels key not in use. 0, or -1 for an unknown key. */
int config_format_value(const struct sw_config *c, const char *key, char *buf, size_t len);

/* True when key (as typed: case and '-' for '_' do not matter) names an
 * option. */
bool config_has_key(const char *key);

/* The effective config as a config file, each line ending with a comment
 * that says where the value came from ("# configs/quick.conf:7"). */
void config_print(FILE *f, const struct sw_config *c);

/* The effective config as a JSON object {key: value-as-written-in-a-file}
 * (new reference, NULL if out of memory), and back: config_from_json
 * applies every key of obj on top of c (start from config_defaults), so
 * that config_from_json(config_to_json(c)) reproduces c's values. Keys set
 * from JSON report "run.json" as their place. */
json_t *config_to_json(const struct sw_config *c);
int config_from_json(struct sw_config *c, const json_t *obj, char *err, size_t errlen);

/* Parse a byte size with units: "8", "1KiB", "64k", "4MiB", "1M", "2GiB",
 * "1KB" (=1000). Binary: K, KiB, M, MiB, G, GiB; decimal: KB, MB, GB.
 * Case-insensitive, optional spaces before the unit, "B" allowed. 0 or -1. */
int config_parse_size(const char *s, uint64_t *out);

/* Format bytes the short way: 8 -> "8B", 65536 -> "64KiB", 1000 -> "1000B"
 * (labels, file names, tables of report and judge); spaced, for prose and
 * compare's tables: "8 B", "64 KiB", "1000 B". */
void config_format_size(uint64_t bytes, char *buf, size_t len);
void config_format_size_spaced(uint64_t bytes, char *buf, size_t len);

#endif
