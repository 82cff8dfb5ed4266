/*
 * health_fixture.h - synthetic results folders for the health and history
 * tests (and the shell tests' driver): a real config (config_set), a real
 * plan (plan_create), samples from a timing model with deterministic
 * noise and planted effects, written with results_write. Every effect is
 * planted here, so tests check the judge against the plant, not against
 * the judge's own output. Static functions: include from one .c only.
 */
#ifndef HEALTH_FIXTURE_H
#define HEALTH_FIXTURE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "analysis.h"
#include "config.h"
#include "pattern.h"
#include "plan.h"
#include "results.h"
#include "run.h"

/* What to plant. Factors multiply the sample time (2.0 = twice as slow). */
struct fx_spec {
	const char *name;        /* folder and run name */
	const char *label;       /* label (default "health") */
	const char *pairs;       /* config "pairs" (default "1, 4") */
	const char *sizes;       /* default "8, 64KiB" */
	const char *patterns;    /* default "pingpong, stream" */
	const char *reps;        /* default "10" */
	int nranks;              /* default 8 */
	const char *host_prefix; /* hosts PREFIX01.. (default "node") */
	double noise;            /* relative noise amplitude (default 0.02) */
	uint64_t noise_seed;     /* differs between "identical" runs */
	/* a slowdown of the cells of one pattern at the highest level */
	int slow_pattern;        /* pattern id, or -1 */
	uint64_t slow_size;      /* 0: every size */
	double slow_factor;      /* e.g. 1 / 0.7 for a 30% bandwidth drop */
	bool slow_all_levels;    /* every level, not just the highest */
	int slow_pair;           /* a slow pair at every level (-1 none) */
	double slow_pair_factor;
	bool fail_last;          /* the last cell failed (watchdog) */
	const char *model;       /* [switch] model (default: none) */
	const char *window;      /* default "25": 100 hops are 4 windows,
	                          * above the sample floor */
	int shared_cores;        /* > 0: every rank in its own network
	                          * namespace of one kernel with this many
	                          * cores (hostid.h); 0: identities unknown */
	const char *run_to_run;  /* config run_to_run (default: the default) */
	bool one_host;           /* every rank on host PREFIX01 (shared) */
};

static inline double fx_noise(uint64_t seed, int cell, int pair, int rep)
{
	uint64_t h = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)cell * 1000003u + (uint64_t)pair * 10007u +
		     (uint64_t)rep * 101u + 7;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 32;
	return (double)(h % 20001) / 10000.0 - 1.0;
}

/* Seconds of one sample: 5 us per hop plus size at 1 GB/s, per pattern. */
static inline double fx_seconds(const struct fx_spec *s, const struct sw_run *r, int c, int pair, int rep)
{
	const struct sw_cell *cell = &r->plan->cell[c];
	double per_hop = 5e-6 + (double)cell->size / 1e9;
	double t = per_hop * (double)cell->hops;
	bool top = cell->level == r->plan->nlevels - 1;

	if (cell->pattern == PAT_BIDIR)
		t *= 1.6;
	if (s->slow_pattern == cell->pattern && (s->slow_all_levels || top) &&
	    (s->slow_size == 0 || s->slow_size == cell->size))
		t *= s->slow_factor;
	if (s->slow_pair >= 0 && pair == s->slow_pair)
		t *= s->slow_pair_factor;
	return t * (1.0 + s->noise * fx_noise(s->noise_seed, c, pair, rep));
}

static inline void fx_defaults(struct fx_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->slow_pattern = -1;
	s->slow_pair = -1;
	s->slow_factor = s->slow_pair_factor = 1.0;
	s->noise = 0.02;
}

/* Build and write PARENT/NAME; returns 0 or -1 with a message in err. */
static inline int fx_make(const char *parent, const struct fx_spec *s, char *path, size_t pathlen,
			  char *err, size_t errlen)
{
	struct sw_config cfg;
	struct sw_plan *plan;
	struct sw_run *r;
	struct sw_analysis *a;
	int nranks = s->nranks ? s->nranks : 8, rc = -1;

	config_defaults(&cfg);
	if (config_set(&cfg, "pairs", s->pairs ? s->pairs : "1, 4", "test", err, errlen) ||
	    config_set(&cfg, "sizes", s->sizes ? s->sizes : "8, 64KiB", "test", err, errlen) ||
	    config_set(&cfg, "patterns", s->patterns ? s->patterns : "pingpong, stream", "test", err, errlen) ||
	    config_set(&cfg, "hops", "100", "test", err, errlen) ||
	    config_set(&cfg, "window", s->window ? s->window : "25", "test", err, errlen) ||
	    config_set(&cfg, "repetitions", s->reps ? s->reps : "10", "test", err, errlen) ||
	    config_set(&cfg, "label", s->label ? s->label : "health", "test", err, errlen) ||
	    config_set(&cfg, "bootstrap", "500", "test", err, errlen) ||
	    config_set(&cfg, "allow_shared_node", "yes", "test", err, errlen) ||
	    (s->model && config_set(&cfg, "model", s->model, "test", err, errlen)) ||
	    (s->run_to_run && config_set(&cfg, "run_to_run", s->run_to_run, "test", err, errlen)))
		return -1;
	plan = plan_create(&cfg, nranks, err, errlen);
	if (!plan)
		return -1;
	r = run_create(&cfg, plan, nranks);
	if (!r) {
		plan_free(plan);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(r->name, sizeof(r->name), "%s", s->name);
	snprintf(r->started, sizeof(r->started), "2026-03-%02dT02:00:00Z", 1 + (int)(s->noise_seed % 28));
	snprintf(r->mpi_version, sizeof(r->mpi_version), "synthetic");
	snprintf(r->command_line, sizeof(r->command_line), "health_fixture %s", s->name);
	r->wtick = 1e-9;
	for (int i = 0; i < nranks; i++) {
		snprintf(r->host[i], SW_HOST_MAX, "%s%02d", s->host_prefix ? s->host_prefix : "node",
			 s->one_host ? 1 : i + 1);
		if (s->shared_cores > 0) {
			struct hostid *h = &r->id[i];
			char cpus[24];
			int n;

			snprintf(h->boot_id, HOSTID_ID_MAX, "6b1f3a0e-0c1d-4a52-9d0b-6a7c1e2f3a4b");
			snprintf(h->machine_id, HOSTID_ID_MAX, "0123456789abcdef0123456789abcdef");
			h->netns = 4026532000u + (uint64_t)i;
			h->mpi_node = i;
			snprintf(cpus, sizeof(cpus), s->shared_cores > 1 ? "0-%d" : "0", s->shared_cores - 1);
			hostid_parse_cpus(cpus, h->cpu, &n);
			h->cores = n;
		}
	}
	for (int c = 0; c < plan->ncells; c++) {
		int pairs = run_cell_pairs(r, c);
		bool fail = s->fail_last && c == plan->ncells - 1;

		r->cell[c].reps = cfg.rep_max;
		r->cell[c].stop = fail ? SW_STOP_FAILED : SW_STOP_FIXED;
		for (int rep = 0; rep < cfg.rep_max; rep++)
			for (int q = 0; q < pairs; q++) {
				struct sw_sample x = { .cell = c, .rep = rep, .pair = q };

				if (fail && rep >= 2)
					break;
				x.seconds = fx_seconds(s, r, c, q, rep);
				x.t_start = c * 10.0 + rep * 0.1;
				x.t_end = x.t_start + x.seconds;
				run_add_sample(r, &x);
			}
	}
	r->complete = !s->fail_last;
	if (s->fail_last)
		snprintf(r->failure, sizeof(r->failure), "watchdog: rank 7 did not answer within 60 s");
	r->duration = 10;
	snprintf(path, pathlen, "%s/%s", parent, s->name);
	mkdir(parent, 0755);
	if (mkdir(path, 0755)) {
		snprintf(err, errlen, "%s: cannot create", path);
		goto out;
	}
	a = analysis_run(r, &r->cfg, err, errlen);
	if (!a)
		goto out;
	rc = results_write(path, r, a, "", err, errlen);
	analysis_free(a);
out:
	run_free(r);
	return rc;
}

#endif
