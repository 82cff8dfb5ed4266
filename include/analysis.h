/*
 * analysis.h - the statistics of a run: per cell summaries with confidence
 * intervals, degradation against the baseline level with significance,
 * outlier pairs and suspect ports, sample overlap, Hockney fits. Computed
 * from the raw samples of a struct sw_run alone, so a saved run can be
 * analysed again with other settings (report confidence=0.99). MPI-free.
 */
#ifndef ANALYSIS_H
#define ANALYSIS_H

#include <stdbool.h>
#include "run.h"
#include "stats.h"

/* A change against the baseline level, in percent; valid is false when it
 * cannot be computed (no baseline cell, too few samples, the cell is the
 * baseline). For bandwidth, pct is the drop (1 - level/base) * 100; for
 * latency the inflation (level/base - 1) * 100. */
struct sw_change {
	bool valid;
	double pct, lo, hi;   /* estimate and bootstrap CI */
	double p;             /* Mann-Whitney p-value */
	bool significant;     /* p < alpha and |pct| > min_effect */
};

struct sw_cell_stats {
	int cell;
	int baseline;                  /* cell index at the baseline level, -1 */
	int pairs, nodes;
	struct stats_summary lat;      /* per-hop latency, s */
	struct stats_summary bw;       /* per-pair bandwidth, bytes/s */
	struct stats_summary agg;      /* aggregate bandwidth per repetition, bytes/s */
	struct sw_change inflation;    /* latency */
	struct sw_change drop;         /* per-pair bandwidth */
	struct sw_change agg_drop;     /* aggregate bandwidth / pairs, vs baseline */
	double overlap;                /* mean over repetitions of (min end - max
	                                * start) / (max end - min start); 1 for one pair */
	bool converged;                /* median CI half-width within ci_target */
};

/* One pair in one cell against the other pairs of that cell. */
struct sw_pair_stats {
	int cell, pair;
	double lat_median;     /* s */
	double bw_median;      /* bytes/s */
	double z;              /* robust z of the pair's latency median */
	bool flagged;          /* |z| > 3.5 */
};

/* A host flagged in at least half of the cells it took part in. */
struct sw_suspect {
	char host[SW_HOST_MAX];
	int flagged, cells;
};

/* Hockney fit T(m) = alpha + m / beta of per-hop latency over sizes, for one
 * level and pattern, over a size range (split at an eager/rendezvous jump). */
struct sw_fit {
	int level, pattern;
	uint64_t size_lo, size_hi;
	int npoints;
	double alpha;          /* s */
	double beta;           /* bytes/s */
	double n_half;         /* bytes, alpha * beta */
	double r2;
};

struct sw_analysis {
	int ncells;
	struct sw_cell_stats *cell;
	size_t npairstats;
	struct sw_pair_stats *pair;
	int nsuspects;
	struct sw_suspect *suspect;
	int nfits;
	struct sw_fit *fit;
	char method[512];      /* one line: confidence, tests, stopping rule */
};

/* Analyse run r with the statistics settings of cfg (confidence, alpha,
 * min_effect, bootstrap, seed, ci_target): usually &r->cfg, or a copy with
 * report's overrides. NULL with a message in err on failure. */
struct sw_analysis *analysis_run(const struct sw_run *r, const struct sw_config *cfg,
				 char *err, size_t errlen);
void analysis_free(struct sw_analysis *a);

/* Adaptive repetitions: true when the median CI of x (at confidence) has a
 * relative half-width ((hi - lo) / 2 / median) of at most target. */
bool analysis_converged(const double *x, size_t n, double confidence, double target);

#endif
