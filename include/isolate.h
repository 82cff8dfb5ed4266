/*
 * isolate.h - the bad port, alone. A flagged pair names two hosts, the slow
 * one and its fixed partner. After the sweep (isolate = yes, or auto for
 * check), each host of a flagged pair is re-paired with hosts in no flagged
 * pair, one probe pair at a time on an otherwise idle switch, beside one
 * control pair of two such healthy hosts; the host that is slow with every
 * partner is named, the one healthy with every other is cleared. Planning
 * the probes and judging them are pure; the engine runs them (each probe
 * pair ISOLATE_REPS samples of the flagged cell's pattern and size).
 * MPI-free.
 */
#ifndef ISOLATE_H
#define ISOLATE_H

#include <stdbool.h>
#include <stddef.h>
#include "run.h"

#define ISOLATE_PARTNERS 3   /* healthy partners per host under test */
#define ISOLATE_REPS 3       /* samples per probe pair */

enum sw_isolate_verdict {
	ISOLATE_SLOW = 0,    /* slow with every partner (2 at least) */
	ISOLATE_CLEARED,     /* healthy with every partner */
	ISOLATE_UNCLEAR,     /* slow with some, healthy with others */
};

/* One host under test and what its probes showed. value[i]: median of its
 * samples with partner[i] (bandwidth bytes/s for bandwidth patterns, else
 * per-hop latency s); control: the control pair's median. A probe is slow
 * when worse than the control by more than threshold %: half of how much
 * worse than the control its flagged pair was in the sweep (flagged_pct),
 * and at least warn_drop (bandwidth) or warn_inflation (latency). So a
 * partner that is merely noisy is not slow, and a port as slow as the
 * flag said is. */
struct sw_isolated {
	char host[SW_HOST_MAX];
	int rank, pattern;
	uint64_t size;
	int tested, slow;
	char partner[ISOLATE_PARTNERS][SW_HOST_MAX];
	double value[ISOLATE_PARTNERS];
	double control;
	double flagged_pct, threshold;
	int verdict;               /* enum sw_isolate_verdict */
};

/* One pair in one cell against the other pairs of that cell: the
 * slow-pair test of analysis_run (analysis.h says how effect, z and
 * flagged are computed). */
struct sw_pair_stats {
	int cell, pair;
	double lat_median;     /* s, of the pair's samples */
	double bw_median;      /* bytes/s, of the pair's samples */
	double effect;         /* %, slower than the typical pair (> 0 slower) */
	double z;              /* the effect in standard errors */
	bool flagged;
};

/* The probe pairs for run r, its slow-pair test pair[0..npair) (the
 * sweep's analysis, analysis.h; NULL when none): for every flagged pair (once,
 * in the cell where its |z| is largest), each of its two hosts with up to
 * ISOLATE_PARTNERS ranks in no flagged pair (a probe's host is its rank
 * under test, the partner initiates), then one control pair of two such
 * ranks (host -1). At most cap entries into out (.rep, times and hops
 * unset); returns how many, 0 when nothing is flagged or fewer than 2
 * healthy ranks remain. */
int isolate_plan(const struct sw_run *r, const struct sw_pair_stats *pair, size_t npair,
		 struct sw_probe *out, int cap);

/* Judge r's probes with cfg's thresholds and the sweep's pair medians
 * pair[0..npair): one entry per host under test, into a new array *out
 * (NULL when none). 0, or -1 on ENOMEM. */
int isolate_judge(const struct sw_run *r, const struct sw_config *cfg, const struct sw_pair_stats *pair,
		  size_t npair, struct sw_isolated **out, int *n);

/* "slow", "cleared", "unclear". */
const char *isolate_verdict_name(int verdict);

/* The evidence as one line: "host swsN05: slow with 3 different partners
 * (2.98, 2.99, 2.98 MB/s; healthy pair 11.9 MB/s; slow = a drop by more
 * than 38%)". */
void isolate_evidence(const struct sw_isolated *x, char *buf, size_t len);

#endif
