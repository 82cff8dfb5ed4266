/*
 * test_analysis.c - analysis_run on synthetic runs built here by hand, with
 * planted effects (a 30% bandwidth drop, a slow host, a known Hockney
 * curve, known overlaps). Every expectation comes from the plant, never
 * from the code's own output.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "pattern.h"
#include "plan.h"
#include "report.h"
#include "results.h"

/* Start time and duration of the sample of one pair in one repetition. */
typedef void (*timing_fn)(int level, int size_index, int pair, int rep,
			  double *start, double *seconds);

static struct sw_config test_cfg(void)
{
	struct sw_config c;

	memset(&c, 0, sizeof(c));
	c.confidence = 0.95;
	c.alpha = 0.05;
	c.min_effect = 2.0;
	c.suspect_min_effect = 10.0;
	c.ci_target = 0.02;
	c.bootstrap = 2000;
	c.seed = 1;
	c.rep_min = c.rep_max = 10;
	c.design = CFG_DESIGN_SEQUENTIAL;
	return c;
}

/* Deterministic noise in [-1, 1] for a sample (a hash, no state). */
static double noise(int level, int size_index, int pair, int rep)
{
	uint64_t h = (uint64_t)level * 1000003u + (uint64_t)size_index * 10007u +
		     (uint64_t)pair * 101u + (uint64_t)rep;

	h = (h + 0x9e3779b97f4a7c15ULL) * 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 32;
	return (double)(h % 20001) / 10000.0 - 1.0;
}

/* A run with adjacent pairs (0-1, 2-3, ...), hosts node00.., cells level
 * by level then size, reps repetitions of every pair of each level. */
static struct sw_run *synth(int nranks, int nlevels, const int *level_pairs,
			    int nsizes, const uint64_t *sizes, int pattern, long hops,
			    int reps, timing_fn timing)
{
	struct sw_run *r = calloc(1, sizeof(*r));
	struct sw_plan *p = calloc(1, sizeof(*p));
	size_t cap;

	cr_assert(r && p);
	r->cfg = test_cfg();
	r->cfg.rep_min = r->cfg.rep_max = reps;
	r->plan = p;
	r->nranks = nranks;
	r->host = calloc((size_t)nranks, sizeof(*r->host));
	for (int i = 0; i < nranks; i++)
		snprintf(r->host[i], SW_HOST_MAX, "node%02d", i);
	p->nranks = nranks;
	p->npairs = nranks / 2;
	p->pair = calloc((size_t)p->npairs, sizeof(*p->pair));
	for (int i = 0; i < p->npairs; i++) {
		p->pair[i].a = 2 * i;
		p->pair[i].b = 2 * i + 1;
	}
	p->nlevels = nlevels;
	p->level_pairs = calloc((size_t)nlevels, sizeof(int));
	memcpy(p->level_pairs, level_pairs, (size_t)nlevels * sizeof(int));
	p->ncells = nlevels * nsizes;
	p->cell = calloc((size_t)p->ncells, sizeof(*p->cell));
	r->cell = calloc((size_t)p->ncells, sizeof(*r->cell));
	cap = (size_t)p->ncells * (size_t)reps * (size_t)p->npairs;
	r->sample = calloc(cap, sizeof(*r->sample));
	r->cap_samples = cap;
	for (int l = 0; l < nlevels; l++) {
		for (int s = 0; s < nsizes; s++) {
			int c = l * nsizes + s;

			p->cell[c].level = l;
			p->cell[c].pattern = pattern;
			p->cell[c].size = sizes[s];
			p->cell[c].hops = hops;
			p->cell[c].size_index = s;
			r->cell[c].reps = reps;
			r->cell[c].stop = SW_STOP_FIXED;
			for (int rep = 0; rep < reps; rep++) {
				for (int q = 0; q < level_pairs[l]; q++) {
					struct sw_sample *x = &r->sample[r->nsamples++];
					double start, sec;

					timing(l, s, q, rep, &start, &sec);
					x->cell = c;
					x->rep = rep;
					x->pair = q;
					x->t_start = start;
					x->t_end = start + sec;
					x->seconds = sec;
					x->hops = hops;
				}
			}
		}
	}
	r->complete = true;
	return r;
}

static void synth_free(struct sw_run *r)
{
	free(r->plan->pair);
	free(r->plan->level_pairs);
	free(r->plan->cell);
	free(r->plan);
	free(r->host);
	free(r->cell);
	free(r->sample);
	free(r->again);
	free(r);
}

static bool near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

/* ---- degradation ---------------------------------------------------- */

#define SIZE_1M 1048576u
#define HOPS 100
#define T0 0.01   /* s per sample when unloaded */

/* Levels 0 and 1 alike; level 2 takes 1/0.7 as long: bandwidth -30%. */
static void timing_drop(int level, int si, int pair, int rep, double *start, double *sec)
{
	double t = level == 2 ? T0 / 0.7 : T0;

	*start = rep * 1.0 + 1e-5 * pair;
	*sec = t * (1.0 + 0.02 * noise(level, si, pair, rep));
}

/*
 * Correlated samples: every pair of one repetition shares that repetition's
 * offset (the switch at that moment), with only +-0.2% noise between pairs.
 * Baseline repetitions are offset by 0, 2, .., 10%, the loaded level's by
 * 3, 5, .., 13%: per repetition the two levels overlap (U = 26 of 36,
 * exact p = 222/924 = 0.24), but pooling 8 pairs x 6 repetitions as 48
 * independent samples per side makes the same shift look highly
 * significant. The median change (+2.9%) exceeds min_effect (2%), so only
 * the repetition as unit keeps it from being reported.
 */
static const double rep_offset[2][6] = { { 0, 2, 4, 6, 8, 10 }, { 3, 5, 7, 9, 11, 13 } };

static void timing_rep_shift(int level, int si, int pair, int rep, double *start, double *sec)
{
	*start = rep * 1.0 + 1e-5 * pair;
	*sec = T0 * (1.0 + rep_offset[level][rep] / 100.0) * (1.0 + 0.002 * noise(level, si, pair, rep));
}

Test(analysis, repetition_shift_is_not_significant)
{
	const int lp[2] = { 8, 8 };
	const uint64_t sz[1] = { SIZE_1M };
	struct sw_run *r = synth(16, 2, lp, 1, sz, PAT_STREAM, HOPS, 6, timing_rep_shift);
	char err[256] = "";
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));
	double pooled[2][48], *rv = NULL, ratio, lo, hi, p;
	size_t np[2] = { 0, 0 }, nrv;

	cr_assert_not_null(a, "%s", err);
	/* the premise: the pooled samples would call it significant */
	for (size_t i = 0; i < r->nsamples; i++)
		pooled[r->sample[i].cell][np[r->sample[i].cell]++] = run_sample_latency(r, &r->sample[i]);
	cr_assert(np[0] == 48 && np[1] == 48);
	cr_assert_eq(stats_median_ratio(pooled[1], 48, pooled[0], 48, 0.95, &ratio, &lo, &hi, &p), 0);
	cr_assert(p < 0.001, "pooled p %g", p);
	/* one value per repetition: the median over its 8 pairs */
	cr_assert_eq(analysis_rep_values(r, 1, SW_METRIC_LATENCY, &rv, &nrv), 0);
	cr_assert_eq(nrv, 6);
	for (int k = 0; k < 6; k++)
		cr_assert(near(rv[k], T0 / HOPS * (1.0 + rep_offset[1][k] / 100.0), 0.002), "rep %d: %g", k, rv[k]);
	free(rv);
	/* the change: medians 1.08 / 1.05 of T0, +2.86%, not significant */
	cr_assert(a->cell[1].inflation.valid);
	cr_assert(fabs(a->cell[1].inflation.pct - (1.08 / 1.05 - 1.0) * 100.0) < 0.3, "infl %g",
		  a->cell[1].inflation.pct);
	cr_assert(fabs(a->cell[1].inflation.pct) > r->cfg.min_effect);
	cr_assert(a->cell[1].inflation.p > 0.1, "p %g", a->cell[1].inflation.p);
	cr_assert(!a->cell[1].inflation.significant);
	cr_assert(!a->cell[1].drop.significant, "drop %g p %g", a->cell[1].drop.pct, a->cell[1].drop.p);
	cr_assert(a->cell[1].inflation.lo <= 0.0 && a->cell[1].inflation.hi >= 0.0,
		  "CI [%g, %g]", a->cell[1].inflation.lo, a->cell[1].inflation.hi);
	analysis_free(a);
	synth_free(r);
}

Test(analysis, planted_bandwidth_drop)
{
	const int lp[3] = { 1, 3, 4 };
	const uint64_t sz[1] = { SIZE_1M };
	struct sw_run *r = synth(8, 3, lp, 1, sz, PAT_STREAM, HOPS, 10, timing_drop);
	char err[256] = "";
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));
	const struct sw_cell_stats *c0, *c1, *c2;
	double bw0 = (double)SIZE_1M * HOPS / T0;   /* planted per-pair bandwidth */

	cr_assert_not_null(a, "%s", err);
	cr_assert_eq(a->ncells, 3);
	c0 = &a->cell[0];
	c1 = &a->cell[1];
	c2 = &a->cell[2];

	/* baselines and the baseline's own changes */
	cr_assert(c0->baseline == 0 && c1->baseline == 0 && c2->baseline == 0);
	cr_assert(!c0->drop.valid && !c0->inflation.valid && !c0->agg_drop.valid);
	cr_assert(c0->pairs == 1 && c0->nodes == 2 && c2->pairs == 4 && c2->nodes == 8);

	/* summaries: planted latency T0 / HOPS, bandwidth bw0, noise +-2% */
	cr_assert_eq(c0->lat.n, 10);
	cr_assert_eq(c2->lat.n, 10);   /* repetitions */
	cr_assert_eq(c2->lat_spread.n, 40);   /* samples */
	cr_assert(near(c0->lat.median, T0 / HOPS, 0.02), "lat %g", c0->lat.median);
	cr_assert(near(c0->bw.median, bw0, 0.02));
	cr_assert(c0->lat.med_ci_ok && c0->lat.med_lo <= c0->lat.median &&
		  c0->lat.median <= c0->lat.med_hi);
	/* aggregate: one value per repetition, the sum over the 4 pairs */
	cr_assert_eq(c2->agg.n, 10);
	cr_assert(near(c2->agg.median, 4 * 0.7 * bw0, 0.03), "agg %g", c2->agg.median);

	/* the identical level: no significant change */
	cr_assert(c1->drop.valid && c1->inflation.valid && c1->agg_drop.valid);
	cr_assert(fabs(c1->drop.pct) < 2.0, "drop %g", c1->drop.pct);
	cr_assert(!c1->drop.significant, "drop %g p %g", c1->drop.pct, c1->drop.p);
	cr_assert(!c1->inflation.significant);
	/* The aggregate is all bytes over the span from the first start to
	 * the last end, so with 3 pairs it is set by the slowest of three
	 * samples with +-2% noise: a drop of a few percent at most, never a
	 * gain beyond noise. */
	cr_assert(c1->agg_drop.pct > -1.0 && c1->agg_drop.pct < 4.0, "agg drop %g", c1->agg_drop.pct);
	cr_assert(c1->drop.lo <= 0.0 + 2.0 && c1->drop.hi >= 0.0 - 2.0);

	/* the planted drop: 30%, latency +42.9% (1/0.7 - 1) */
	cr_assert(c2->drop.valid && c2->drop.significant);
	cr_assert(fabs(c2->drop.pct - 30.0) < 2.0, "drop %g", c2->drop.pct);
	/* the unit is the repetition (median over its 4 pairs): complete
	 * separation of 10 vs 10 values, far beyond their spread */
	cr_assert(c2->drop.p < 1e-6, "p %g", c2->drop.p);
	cr_assert(c2->drop.lo < c2->drop.hi);
	cr_assert(c2->drop.lo > 27.0 && c2->drop.hi < 33.0, "CI [%g, %g]", c2->drop.lo, c2->drop.hi);
	cr_assert(c2->inflation.significant);
	cr_assert(fabs(c2->inflation.pct - (1.0 / 0.7 - 1.0) * 100.0) < 3.0, "infl %g",
		  c2->inflation.pct);
	cr_assert(c2->agg_drop.valid && c2->agg_drop.significant);
	cr_assert(fabs(c2->agg_drop.pct - 30.0) < 2.0, "agg drop %g", c2->agg_drop.pct);

	/* pairs started 10 us apart and ran ~10 ms: overlap near 1 */
	cr_assert(c0->overlap == 1.0);
	cr_assert(c2->overlap > 0.95 && c2->overlap <= 1.0, "overlap %g", c2->overlap);

	/* no host is slow: nobody is a suspect, no pair flagged */
	cr_assert_eq(a->nsuspects, 0);
	cr_assert_eq(a->npairstats, 1 + 3 + 4);
	for (size_t i = 0; i < a->npairstats; i++)
		cr_assert(!a->pair[i].flagged, "pair %d of cell %d", a->pair[i].pair, a->pair[i].cell);
	cr_assert(isnan(a->pair[0].z), "one pair: no z");

	cr_assert(strstr(a->method, "unit of replication: the repetition"), "%s", a->method);
	cr_assert(strstr(a->method, "fixed 10"), "%s", a->method);
	cr_assert(strstr(a->method, "95%"), "%s", a->method);
	analysis_free(a);
	synth_free(r);
}

Test(analysis, reproducible_and_reanalysable)
{
	const int lp[3] = { 1, 3, 4 };
	const uint64_t sz[1] = { SIZE_1M };
	struct sw_run *r = synth(8, 3, lp, 1, sz, PAT_STREAM, HOPS, 10, timing_drop);
	struct sw_config c99 = r->cfg;
	struct sw_analysis *a = analysis_run(r, &r->cfg, NULL, 0);
	struct sw_analysis *b = analysis_run(r, &r->cfg, NULL, 0);
	struct sw_analysis *w;

	cr_assert(a && b);
	cr_assert(a->cell[2].drop.lo == b->cell[2].drop.lo && a->cell[2].drop.hi == b->cell[2].drop.hi);
	/* a wider confidence gives a CI at least as wide */
	c99.confidence = 0.99;
	w = analysis_run(r, &c99, NULL, 0);
	cr_assert_not_null(w);
	cr_assert(w->cell[2].drop.lo <= a->cell[2].drop.lo && w->cell[2].drop.hi >= a->cell[2].drop.hi);
	cr_assert(strstr(w->method, "99%"), "%s", w->method);
	analysis_free(a);
	analysis_free(b);
	analysis_free(w);
	synth_free(r);
}

Test(analysis, refuses_bad_settings)
{
	const int lp[1] = { 1 };
	const uint64_t sz[1] = { SIZE_1M };
	struct sw_run *r = synth(2, 1, lp, 1, sz, PAT_STREAM, HOPS, 3, timing_drop);
	struct sw_config c = r->cfg;
	char err[256] = "";

	c.confidence = 1.5;
	cr_assert_null(analysis_run(r, &c, err, sizeof(err)));
	cr_assert(strlen(err) > 0);
	synth_free(r);
}

/* ---- outliers and suspects ------------------------------------------ */

/* Pair 2 (ranks 4 and 5, node04 and node05) is 50% slower everywhere. */
static void timing_slow_host(int level, int si, int pair, int rep, double *start, double *sec)
{
	*start = rep * 1.0;
	*sec = T0 * (pair == 2 ? 1.5 : 1.0) * (1.0 + 0.02 * noise(level, si, pair, rep));
}

Test(analysis, planted_slow_host_is_suspect)
{
	const int lp[2] = { 3, 4 };
	const uint64_t sz[2] = { 65536, SIZE_1M };
	struct sw_run *r = synth(8, 2, lp, 2, sz, PAT_PINGPONG, HOPS, 8, timing_slow_host);
	char err[256] = "";
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));
	bool seen4 = false, seen5 = false;

	cr_assert_not_null(a, "%s", err);
	/* 2 cells of 3 pairs + 2 cells of 4 pairs */
	cr_assert_eq(a->npairstats, 3 + 3 + 4 + 4);
	for (size_t i = 0; i < a->npairstats; i++) {
		const struct sw_pair_stats *q = &a->pair[i];

		cr_assert_eq(q->flagged, q->pair == 2, "cell %d pair %d z %g", q->cell, q->pair, q->z);
		if (q->pair == 2) {
			cr_assert(q->z > 3.5);
			cr_assert(near(q->lat_median, 1.5 * T0 / HOPS, 0.03));
		}
	}
	/* the slow pair's two hosts, flagged in all 4 cells; nobody else */
	cr_assert_eq(a->nsuspects, 2);
	for (int i = 0; i < a->nsuspects; i++) {
		seen4 |= strcmp(a->suspect[i].host, "node04") == 0;
		seen5 |= strcmp(a->suspect[i].host, "node05") == 0;
		cr_assert(a->suspect[i].flagged == 4 && a->suspect[i].cells == 4);
	}
	cr_assert(seen4 && seen5);
	analysis_free(a);
	synth_free(r);
}

/* Pair 0 (node00/01) slow in 1 of its 4 cells; pair 3 (node06/07, only
 * at level 1) slow in 1 of its 2 cells. */
static void timing_half(int level, int si, int pair, int rep, double *start, double *sec)
{
	bool slow = (pair == 0 && level == 0 && si == 0) || (pair == 3 && level == 1 && si == 0);

	*start = rep * 1.0;
	*sec = T0 * (slow ? 1.5 : 1.0) * (1.0 + 0.02 * noise(level, si, pair, rep));
}

Test(analysis, suspect_needs_half_of_its_cells)
{
	const int lp[2] = { 3, 4 };
	const uint64_t sz[2] = { 65536, SIZE_1M };
	struct sw_run *r = synth(8, 2, lp, 2, sz, PAT_PINGPONG, HOPS, 8, timing_half);
	struct sw_analysis *a = analysis_run(r, &r->cfg, NULL, 0);

	cr_assert_not_null(a);
	cr_assert_eq(a->nsuspects, 2);
	for (int i = 0; i < 2; i++) {
		cr_assert(strcmp(a->suspect[i].host, "node06") == 0 ||
			  strcmp(a->suspect[i].host, "node07") == 0, "%s", a->suspect[i].host);
		cr_assert(a->suspect[i].flagged == 1 && a->suspect[i].cells == 2);
	}
	analysis_free(a);
	synth_free(r);
}

/* Very steady pairs, pair 1 steadily 1% slower: a huge z, but a 1%
 * difference is below suspect_min_effect (10%) and not worth naming. */
static void timing_one_pct(int level, int si, int pair, int rep, double *start, double *sec)
{
	*start = rep * 1.0;
	*sec = T0 * (pair == 1 ? 1.01 : 1.0) * (1.0 + 1e-4 * noise(level, si, pair, rep));
}

Test(analysis, outlier_needs_min_effect)
{
	const int lp[1] = { 4 };
	const uint64_t sz[1] = { SIZE_1M };
	struct sw_run *r = synth(8, 1, lp, 1, sz, PAT_PINGPONG, HOPS, 8, timing_one_pct);
	struct sw_config c = r->cfg;
	struct sw_analysis *a, *b;

	c.suspect_min_effect = 10;
	a = analysis_run(r, &c, NULL, 0);
	cr_assert_not_null(a);
	cr_assert(a->pair[1].z > 10, "z %g", a->pair[1].z);
	cr_assert(fabs(a->pair[1].effect - 1.0) < 0.05, "effect %g", a->pair[1].effect);
	cr_assert(!a->pair[1].flagged);
	c.suspect_min_effect = 0.5;
	b = analysis_run(r, &c, NULL, 0);
	cr_assert_not_null(b);
	cr_assert(b->pair[1].flagged && !b->pair[0].flagged && !b->pair[2].flagged);
	analysis_free(a);
	analysis_free(b);
	synth_free(r);
}

/* A repetition with a pair missing gives no aggregate (it would read as a
 * drop), but its other samples still count. */
Test(analysis, aggregate_only_complete_repetitions)
{
	const int lp[3] = { 1, 3, 4 };
	const uint64_t sz[1] = { SIZE_1M };
	struct sw_run *r = synth(8, 3, lp, 1, sz, PAT_STREAM, HOPS, 10, timing_drop);
	struct sw_analysis *a;
	size_t last = r->nsamples - 1;

	/* the last sample is level 2, rep 9, pair 3: mark it failed */
	cr_assert(r->sample[last].cell == 2 && r->sample[last].rep == 9 && r->sample[last].pair == 3);
	r->sample[last].seconds = 0.0;
	a = analysis_run(r, &r->cfg, NULL, 0);
	cr_assert_not_null(a);
	cr_assert_eq(a->cell[2].lat_spread.n, 39);
	cr_assert_eq(a->cell[2].lat.n, 10);
	cr_assert_eq(a->cell[2].agg.n, 9);
	cr_assert(near(a->cell[2].agg.median, 4 * 0.7 * (double)SIZE_1M * HOPS / T0, 0.03));
	analysis_free(a);
	synth_free(r);
}

/* ---- overlap -------------------------------------------------------- */

/* Level 1, rep 0: pair 0 runs [0, 1], pair 1 [0.5, 1.5]: overlap
 * (1 - 0.5) / (1.5 - 0) = 1/3. Rep 1: both [10, 11]: overlap 1. */
static void timing_overlap(int level, int si, int pair, int rep, double *start, double *sec)
{
	(void)si;
	*sec = 1.0;
	*start = rep == 0 ? 0.5 * pair * level : 10.0;
}

Test(analysis, overlap_fraction)
{
	const int lp[2] = { 1, 2 };
	const uint64_t sz[1] = { 1024 };
	struct sw_run *r = synth(4, 2, lp, 1, sz, PAT_PINGPONG, 10, 2, timing_overlap);
	struct sw_analysis *a = analysis_run(r, &r->cfg, NULL, 0);

	cr_assert_not_null(a);
	cr_assert(a->cell[0].overlap == 1.0);
	cr_assert(near(a->cell[1].overlap, (1.0 / 3.0 + 1.0) / 2.0, 1e-12), "%g", a->cell[1].overlap);
	analysis_free(a);
	synth_free(r);
}

/* ---- Hockney fits ---------------------------------------------------- */

#define ALPHA 2e-6   /* s */
#define BETA 1e9     /* bytes/s */
#define FIT_HOPS 1000

static const uint64_t fit_sizes[7] = { 8, 64, 512, 4096, 32768, 262144, 1048576 };
static const uint64_t jump_sizes[8] = { 8, 32, 128, 512, 2048, 8192, 32768, 131072 };

/* Exactly T(m) = ALPHA + m / BETA per hop. */
static void timing_hockney(int level, int si, int pair, int rep, double *start, double *sec)
{
	(void)level;
	(void)pair;
	*start = rep * 10.0;
	*sec = FIT_HOPS * (ALPHA + (double)fit_sizes[si] / BETA);
}

/* Rendezvous from 8 KiB on: 10 us more per hop. */
static void timing_jump(int level, int si, int pair, int rep, double *start, double *sec)
{
	(void)level;
	(void)pair;
	*start = rep * 10.0;
	*sec = FIT_HOPS * (ALPHA + (jump_sizes[si] >= 8192 ? 10e-6 : 0.0) +
			   (double)jump_sizes[si] / BETA);
}

Test(analysis, hockney_fit)
{
	const int lp[1] = { 1 };
	struct sw_run *r = synth(2, 1, lp, 7, fit_sizes, PAT_PINGPONG, FIT_HOPS, 6, timing_hockney);
	struct sw_analysis *a = analysis_run(r, &r->cfg, NULL, 0);
	const struct sw_fit *f;

	cr_assert_not_null(a);
	cr_assert_eq(a->nfits, 1, "fits %d", a->nfits);
	f = &a->fit[0];
	cr_assert(f->level == 0 && f->pattern == PAT_PINGPONG && f->npoints == 7);
	cr_assert(f->size_lo == 8 && f->size_hi == 1048576);
	cr_assert(near(f->alpha, ALPHA, 1e-6), "alpha %g", f->alpha);
	cr_assert(near(f->beta, BETA, 1e-6), "beta %g", f->beta);
	cr_assert(near(f->n_half, ALPHA * BETA, 1e-5), "n_half %g", f->n_half);
	cr_assert(f->r2 > 0.999999);
	analysis_free(a);
	synth_free(r);
}

Test(analysis, hockney_split_at_jump)
{
	const int lp[1] = { 1 };
	struct sw_run *r = synth(2, 1, lp, 8, jump_sizes, PAT_PINGPONG, FIT_HOPS, 6, timing_jump);
	struct sw_analysis *a = analysis_run(r, &r->cfg, NULL, 0);

	cr_assert_not_null(a);
	cr_assert_eq(a->nfits, 2, "fits %d", a->nfits);
	cr_assert(a->fit[0].size_lo == 8 && a->fit[0].size_hi == 2048 && a->fit[0].npoints == 5);
	cr_assert(a->fit[1].size_lo == 8192 && a->fit[1].size_hi == 131072 && a->fit[1].npoints == 3);
	cr_assert(near(a->fit[0].alpha, ALPHA, 1e-6), "alpha %g", a->fit[0].alpha);
	cr_assert(near(a->fit[1].alpha, ALPHA + 10e-6, 1e-6), "alpha %g", a->fit[1].alpha);
	cr_assert(near(a->fit[0].beta, BETA, 1e-6) && near(a->fit[1].beta, BETA, 1e-6));
	analysis_free(a);
	synth_free(r);
}

/* ---- adaptive repetitions ------------------------------------------- */

Test(analysis, converged)
{
	double tight[50], wide[50];

	for (int i = 0; i < 50; i++) {
		tight[i] = 1000.0 + (i % 10) * 0.1;   /* spread 0.09% of the median */
		wide[i] = 1.0 + i;                    /* 1..50, median 25.5 */
	}
	cr_assert(analysis_converged(tight, 50, 0.95, 0.02));
	cr_assert(!analysis_converged(wide, 50, 0.95, 0.02));
	/* The rule's half-width, worked in Python (statistics.stdev): the SD
	 * of ln 1..50 is 0.8891592, of ln 1..49 0.8878019; with t(0.975, 49)
	 * = 2.009575 and t(0.975, 48) = 2.010635 (tables), sinh(t sqrt(pi/2)
	 * sd / sqrt(n)) = 0.322029 at n = 50 and 0.325072 at n = 49. Both
	 * must be within the target. */
	cr_assert(analysis_converged(wide, 50, 0.95, 0.3251));
	cr_assert(!analysis_converged(wide, 50, 0.95, 0.3240), "the previous repetition was wider");
	cr_assert(!analysis_converged(wide, 50, 0.95, 0.3219));
	cr_assert(!analysis_converged(tight, 1, 0.95, 0.5), "n = 1 has no median CI");
}

/* ---- aggregate bandwidth ---------------------------------------------- */

/* Level 1: pair 0 takes T0, pair 1 takes 2 T0, both starting together. */
static void timing_uneven(int level, int si, int pair, int rep, double *start, double *sec)
{
	(void)si;
	*start = rep * 1.0;
	*sec = (level == 1 && pair == 1) ? 2 * T0 : T0;
}

Test(analysis, aggregate_is_bytes_over_the_span)
{
	const int lp[2] = { 1, 2 };
	const uint64_t sz[1] = { SIZE_1M };
	struct sw_run *r = synth(4, 2, lp, 1, sz, PAT_STREAM, HOPS, 6, timing_uneven);
	char err[256] = "";
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));
	double bytes = (double)SIZE_1M * HOPS;

	cr_assert_not_null(a, "%s", err);
	/* Two pairs moved 2 x bytes in 2 T0: bytes / T0, not the sum of the
	 * pairs' own rates (1.5 bytes / T0). */
	cr_assert(near(a->cell[1].agg.median, bytes / T0, 1e-9), "agg %g", a->cell[1].agg.median);
	cr_assert(near(a->cell[0].agg.median, bytes / T0, 1e-9));
	analysis_free(a);
	synth_free(r);
}

/* All ranks on one machine: the slow pair is still flagged, but no host
 * can be blamed, since the one host is in every pair. */
Test(analysis, one_machine_names_no_suspect)
{
	const int lp[2] = { 3, 4 };
	const uint64_t sz[2] = { 65536, SIZE_1M };
	struct sw_run *r = synth(8, 2, lp, 2, sz, PAT_PINGPONG, HOPS, 8, timing_slow_host);
	char err[256] = "";

	for (int i = 0; i < r->nranks; i++)
		snprintf(r->host[i], SW_HOST_MAX, "vm");
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));
	int flagged = 0;

	cr_assert_not_null(a, "%s", err);
	for (size_t i = 0; i < a->npairstats; i++)
		flagged += a->pair[i].flagged;
	cr_assert_eq(flagged, 4, "the slow pair, in each of its 4 cells");
	cr_assert_eq(a->nsuspects, 0);
	analysis_free(a);
	synth_free(r);
}

/* Pair 2 is 30% faster, pair 1 50% slower; the other pairs are exactly
 * alike (a MAD of 0: before, the scale fell back and capped z so that a
 * pair 50% slower was never flagged). Slower only, and the slow one is. */
static void timing_fast_and_slow(int level, int si, int pair, int rep, double *start, double *sec)
{
	(void)level;
	(void)si;
	*start = rep * 1.0;
	*sec = T0 * (pair == 2 ? 0.7 : pair == 1 ? 1.5 : 1.0);
}

Test(analysis, slower_only_and_a_scale_that_cannot_collapse)
{
	const int lp[1] = { 4 };
	const uint64_t sz[1] = { SIZE_1M };
	struct sw_run *r = synth(8, 1, lp, 1, sz, PAT_PINGPONG, HOPS, 8, timing_fast_and_slow);
	struct sw_analysis *a = analysis_run(r, &r->cfg, NULL, 0);

	cr_assert_not_null(a);
	cr_assert(a->pair[1].flagged, "z %g effect %g", a->pair[1].z, a->pair[1].effect);
	cr_assert(!a->pair[2].flagged && a->pair[2].effect < -25, "effect %g", a->pair[2].effect);
	cr_assert(!a->pair[0].flagged && !a->pair[3].flagged);
	/* pair 1 is hosts node02 and node03: both named, nobody else */
	cr_assert_eq(a->nsuspects, 2);
	analysis_free(a);
	synth_free(r);
}

/* ---- incast ---------------------------------------------------------- */

/* Incast planted at the receiver's port: k senders share its rate C =
 * SIZE_1M * HOPS / T0, so each of HOPS messages takes k times as long (a
 * sender's rate C / k, the aggregate C). From level incast_fall_level
 * on, the aggregate falls to incast_fall of C (incast collapse). Sender 1
 * of a level gets a quarter of its share (TCP's unfair sharing). All
 * senders of a repetition start together (within 10 us). */
static double incast_fall = 1.0;
static int incast_fall_level = 99;
static bool incast_unfair;

static void timing_incast(int level, int si, int pair, int rep, double *start, double *sec)
{
	int k = level + 1;   /* levels 1, 2, 3, 4 senders */
	double share = level >= incast_fall_level ? incast_fall : 1.0;

	if (incast_unfair && k >= 3 && pair == 1)
		share /= 4.0;
	*start = rep * 1.0 + 1e-5 * pair;
	*sec = T0 * k / share * (1.0 + 0.01 * noise(level, si, pair, rep));
}

static struct sw_run *synth_incast(double fall, int fall_level, bool unfair)
{
	static const int lp[4] = { 1, 2, 3, 4 };
	static const uint64_t sz[1] = { SIZE_1M };

	incast_fall = fall;
	incast_fall_level = fall_level;
	incast_unfair = unfair;
	return synth(8, 4, lp, 1, sz, PAT_INCAST, HOPS, 10, timing_incast);
}

Test(analysis, incast_receiver_at_its_port_rate_has_no_drop)
{
	struct sw_run *r = synth_incast(1.0, 99, false);
	char err[256] = "";
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));
	double rate = (double)SIZE_1M * HOPS / T0;   /* the receiver's port */

	cr_assert_not_null(a, "%s", err);
	cr_assert(!a->cell[0].receiver_drop.valid, "the baseline has no change");
	for (int c = 0; c < 4; c++) {
		const struct sw_cell_stats *cs = &a->cell[c];
		int k = c + 1;

		cr_assert_eq(cs->pairs, k);
		cr_assert_eq(cs->nodes, k + 1, "k senders and one receiver: %d nodes", cs->nodes);
		cr_assert(near(cs->agg.median, rate, 0.02), "level %d: aggregate %g, port %g", k, cs->agg.median, rate);
		cr_assert(near(cs->bw.median, rate / k, 0.02), "level %d: per sender %g", k, cs->bw.median);
		if (c == 0)
			continue;
		/* the sender's share falls as 1/k: drop (1 - 1/k), significant */
		cr_assert(fabs(cs->drop.pct - (1.0 - 1.0 / k) * 100.0) < 2.0, "drop %g", cs->drop.pct);
		cr_assert(cs->drop.significant);
		/* the receiver's aggregate holds: no drop */
		cr_assert(cs->receiver_drop.valid);
		cr_assert(fabs(cs->receiver_drop.pct) < 2.0, "level %d: receiver drop %g", k, cs->receiver_drop.pct);
		cr_assert(!cs->receiver_drop.significant, "level %d: p %g", k, cs->receiver_drop.p);
		cr_assert(near(cs->receiver_drop.base, rate, 0.02) && near(cs->receiver_drop.level, rate, 0.02));
	}
	analysis_free(a);
	synth_free(r);
}

Test(analysis, incast_collapse_is_a_significant_receiver_drop)
{
	struct sw_run *r = synth_incast(0.6, 2, false);   /* 3 and 4 senders: 60% of the port */
	char err[256] = "";
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));

	cr_assert_not_null(a, "%s", err);
	cr_assert(!a->cell[1].receiver_drop.significant, "2 senders: %g", a->cell[1].receiver_drop.pct);
	for (int c = 2; c < 4; c++) {
		const struct sw_change *d = &a->cell[c].receiver_drop;

		cr_assert(d->valid && d->significant, "level %d: %g p %g", c + 1, d->pct, d->p);
		cr_assert(fabs(d->pct - 40.0) < 2.0, "level %d: receiver drop %g, planted 40", c + 1, d->pct);
		cr_assert(d->lo > 30.0 && d->hi < 50.0, "CI [%g, %g]", d->lo, d->hi);
	}
	analysis_free(a);
	synth_free(r);
}

Test(analysis, incast_unequal_senders_are_no_slow_pair)
{
	struct sw_run *r = synth_incast(1.0, 99, true);   /* sender 1 at a quarter of its share */
	char err[256] = "";
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));

	cr_assert_not_null(a, "%s", err);
	for (size_t i = 0; i < a->npairstats; i++)
		cr_assert(!a->pair[i].flagged && isnan(a->pair[i].z), "cell %d sender %d z %g", a->pair[i].cell,
			  a->pair[i].pair, a->pair[i].z);
	cr_assert_eq(a->nsuspects, 0);
	cr_assert_eq(a->nfits, 0, "no Hockney fit of a share of one port");
	analysis_free(a);
	synth_free(r);

	/* the same plant as a stream: pair 1 (ranks 2-3) is flagged, so the
	 * quiet above is the incast rule, not a weak plant */
	r = synth_incast(1.0, 99, true);
	for (int c = 0; c < r->plan->ncells; c++)
		r->plan->cell[c].pattern = PAT_STREAM;
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	bool flagged = false;
	for (size_t i = 0; i < a->npairstats; i++)
		flagged |= a->pair[i].flagged && a->pair[i].pair == 1;
	cr_assert(flagged, "stream: the quarter-rate pair is flagged");
	cr_assert(!a->cell[3].receiver_drop.valid, "a stream cell has no receiver drop");
	analysis_free(a);
	synth_free(r);
}

/* ---- the sample floor ----------------------------------------------- */

Test(analysis, floor_rules)
{
	/* a fixed-hop stream or bidir: 4 windows; timed or pingpong: 4 messages */
	cr_assert_eq(analysis_floor_hops(PAT_STREAM, false, 64), 256);
	cr_assert_eq(analysis_floor_hops(PAT_BIDIR, false, 8), 32);
	cr_assert_eq(analysis_floor_hops(PAT_STREAM, true, 64), 4);
	cr_assert_eq(analysis_floor_hops(PAT_PINGPONG, false, 64), 4);
	cr_assert_eq(analysis_floor_hops(PAT_STREAM, false, 1), 4);
	/* 100 ticks of 1 ns = 0.1 us, 5 round trips of 50 us = 250 us */
	cr_assert(near(analysis_floor_seconds(1e-9, 50e-6), 250e-6, 1e-12));
	cr_assert(near(analysis_floor_seconds(1e-6, 10e-9), 100e-6, 1e-12));
	/* a run from before the round trip was measured: the ticks alone */
	cr_assert(near(analysis_floor_seconds(1e-6, NAN), 100e-6, 1e-12));
	cr_assert_eq(analysis_floor_seconds(NAN, NAN), 0.0);
}

/*
 * The case: hops = auto with sample_time = 5 ms on a busy host
 * resolved stream 16 B to 2 hops (window 64); one round trip of 50 us is
 * the whole sample. The loaded level looks 9.06 times faster ("drop
 * -806%"), with 10 repetitions and 2% noise: without the floor that is
 * highly significant. Below the floor it is shown, marked, never
 * significant. The same bandwidths measured over 256 hops (4 windows,
 * ms-long samples) are significant: the floor, not the data, decides.
 */
#define FLOOR_RTT 50e-6

static void timing_fast_level(int level, int si, int pair, int rep, double *start, double *sec)
{
	(void)si;
	*start = rep * 1.0 + 1e-5 * pair;
	*sec = (level == 0 ? 60e-6 : 60e-6 / 9.06) * (1.0 + 0.02 * noise(level, si, pair, rep));
}

static void timing_fast_level_long(int level, int si, int pair, int rep, double *start, double *sec)
{
	timing_fast_level(level, si, pair, rep, start, sec);
	*sec *= 128.0;   /* 256 hops instead of 2, the same bandwidth */
}

static struct sw_analysis *floor_run(long hops, timing_fn timing, struct sw_run **rp)
{
	const int lp[2] = { 1, 2 };
	const uint64_t sz[1] = { 16 };
	struct sw_run *r = synth(4, 2, lp, 1, sz, PAT_STREAM, hops, 10, timing);
	char err[256] = "";
	struct sw_analysis *a;

	r->cfg.window = 64;
	r->wtick = 1e-9;
	r->round_trip = FLOOR_RTT;
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	*rp = r;
	return a;
}

Test(analysis, below_the_floor_is_never_significant)
{
	struct sw_run *r, *rl;
	struct sw_analysis *a = floor_run(2, timing_fast_level, &r);
	struct sw_analysis *al = floor_run(256, timing_fast_level_long, &rl);
	size_t nshort, n;

	/* 2 hops: every sample short, both cells below the floor */
	cr_assert(analysis_cell_below_floor(r, 0, &nshort, &n));
	cr_assert(nshort == 10 && n == 10, "%zu of %zu", nshort, n);
	cr_assert(a->cell[0].below_floor && a->cell[1].below_floor);
	cr_assert_eq(a->cell[1].nshort, 20);
	/* the change is still computed and shown: -806% */
	cr_assert(a->cell[1].drop.valid);
	cr_assert(fabs(a->cell[1].drop.pct - (1.0 - 9.06) * 100.0) < 30.0, "drop %g", a->cell[1].drop.pct);
	cr_assert(a->cell[1].drop.p < 1e-6, "p %g", a->cell[1].drop.p);
	cr_assert(!a->cell[1].drop.significant && !a->cell[1].inflation.significant &&
		  !a->cell[1].agg_drop.significant);
	cr_assert(strstr(a->method, "sample floor"), "%s", a->method);

	/* 256 hops, 7.7 and 0.85 ms samples: above the floor, significant */
	cr_assert(!al->cell[0].below_floor && !al->cell[1].below_floor);
	cr_assert_eq(al->cell[1].nshort, 0);
	cr_assert(fabs(al->cell[1].drop.pct - a->cell[1].drop.pct) < 1e-6);
	cr_assert(al->cell[1].drop.significant);

	/* the baseline alone below the floor is enough: 255 hops is under 4
	 * windows of 64 */
	for (size_t i = 0; i < rl->nsamples; i++)
		if (rl->sample[i].cell == 0)
			rl->sample[i].hops = 255;
	analysis_free(al);
	char err[256];
	al = analysis_run(rl, &rl->cfg, err, sizeof(err));
	cr_assert_not_null(al, "%s", err);
	cr_assert(al->cell[0].below_floor && !al->cell[1].below_floor);
	cr_assert(!al->cell[1].drop.significant);
	/* a minority of short samples leaves the median trusted: the cell is
	 * not below the floor, and its short samples are counted */
	for (size_t i = 0; i < rl->nsamples; i++)
		rl->sample[i].hops = rl->sample[i].cell == 0 && rl->sample[i].rep < 4 ? 255 : 256;
	analysis_free(al);
	al = analysis_run(rl, &rl->cfg, err, sizeof(err));
	cr_assert_not_null(al, "%s", err);
	cr_assert(!al->cell[0].below_floor && al->cell[0].nshort == 4, "%zu", al->cell[0].nshort);
	cr_assert(al->cell[1].drop.significant);
	analysis_free(a);
	analysis_free(al);
	synth_free(r);
	synth_free(rl);
}

/* ---- drift control ---------------------------------------------------- */

/* The baseline level of a synth run measured again: its samples
 * scaled by factor (1.10 = 10% longer: a 10% slower switch at the end),
 * with fresh noise of the same size. */
static void add_again(struct sw_run *r, double factor)
{
	size_t n = r->nsamples;

	r->again = calloc(n, sizeof(*r->again));
	r->cap_again = n;
	for (size_t i = 0; i < n; i++) {
		struct sw_sample s = r->sample[i];

		if (r->plan->cell[s.cell].level != 0)
			continue;
		s.seconds = T0 * factor * (1.0 + 0.02 * noise(7, s.cell, s.pair, s.rep));
		s.t_start += 100.0;
		s.t_end = s.t_start + s.seconds;
		r->again[r->nagain++] = s;
	}
}

/* The report's table rows and summary lines that carry the drift mark:
 * want table rows (every change against the baseline level of a drifted
 * sequential run), and a mark on each summary line's change. */
static void drift_marks_in_outputs(const struct sw_run *r, const struct sw_analysis *a, int want)
{
	struct sw_run rr = *r;
	char *text, *line, *save;
	int rows = 0, summary = 0, marked = 0;
	bool in_summary = false;

	rr.id = calloc((size_t)r->nranks, sizeof(*rr.id));   /* the report's caution reads the ranks' identity */
	cr_assert(rr.id);
	text = report_string(&rr, a, REPORT_TABLE);
	free(rr.id);
	cr_assert(text);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line), lead = strspn(line, " "), digits = strspn(line + lead, "0123456789");
		bool mark = n > 6 && !strcmp(line + n - 6, " drift");

		if (strstr(line, "(the highest load)")) {
			/* a summary line, wrapped: its sizes go on indented lines */
			summary++;
			in_summary = true;
			marked += strstr(line, " drift") != NULL;
		} else if (in_summary && lead >= 4) {
			marked += strstr(line, " drift") != NULL;
		} else {
			in_summary = false;
			if (digits && line[lead + digits] == ' ')
				rows += mark;   /* a table row: it starts with its nodes */
		}
	}
	cr_assert_eq(rows, want, "table rows marked: %d", rows);
	cr_assert(summary > 0 && marked == (want ? summary : 0), "summary lines %d, marked %d", summary, marked);
	free(text);
	/* summary.csv: the last column, drifted, is 1 in those rows */
	text = results_summary_text(r, a);
	cr_assert(text);
	rows = marked = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);

		if (line[0] == '#')
			continue;
		if (!rows++)
			cr_assert(n > 8 && !strcmp(line + n - 8, ",drifted"), "header %s", line);
		else if (!strcmp(line + n - 2, ",1"))
			marked++;
		else
			cr_assert(!strcmp(line + n - 2, ",0"), "row %s", line);
	}
	cr_assert_eq(rows, 7, "header and 6 cells: %d", rows);
	cr_assert_eq(marked, want, "summary.csv rows marked: %d", marked);
	free(text);
}

Test(analysis, planted_drift_marks_the_run)
{
	const int lp[3] = { 1, 3, 4 };
	const uint64_t sz[2] = { 8, SIZE_1M };
	char err[256] = "";

	for (int planted = 0; planted < 2; planted++) {
		struct sw_run *r = synth(8, 3, lp, 2, sz, PAT_STREAM, HOPS, 10, timing_drop);
		struct sw_analysis *a;

		add_again(r, planted ? 1.10 : 1.0);
		a = analysis_run(r, &r->cfg, err, sizeof(err));
		cr_assert_not_null(a, "%s", err);
		/* both baseline cells measured again, Bonferroni over the two */
		cr_assert_eq(a->ndrift, 2);
		cr_assert(near(a->drift_alpha, 0.025, 1e-12));
		for (int i = 0; i < 2; i++) {
			const struct sw_drift *d = &a->drift[i];

			cr_assert_eq(d->cell, i);
			cr_assert_eq(d->metric, SW_METRIC_BANDWIDTH);
			cr_assert(d->change.valid);
			if (planted) {
				/* 10% longer: a bandwidth drop of 1 - 1/1.1 = 9.1% */
				cr_assert(fabs(d->change.pct - 9.09) < 2.0, "drift %g", d->change.pct);
				cr_assert(d->change.significant, "p %g", d->change.p);
			} else {
				cr_assert(fabs(d->change.pct) < 2.0, "drift %g", d->change.pct);
				cr_assert(!d->change.significant, "p %g", d->change.p);
			}
		}
		cr_assert_eq(a->drifted, planted == 1);
		/* drift control does not touch the changes against the baseline */
		cr_assert(a->cell[4].drop.significant && fabs(a->cell[4].drop.pct - 30.0) < 2.0);
		/* but every one of them is marked, and no baseline cell */
		for (int c = 0; c < 6; c++)
			cr_assert_eq(a->cell[c].drifted, planted && c >= 2, "cell %d", c);
		drift_marks_in_outputs(r, a, planted ? 4 : 0);
		analysis_free(a);
		synth_free(r);
	}
}

Test(analysis, no_drift_control_without_the_rerun)
{
	const int lp[2] = { 1, 3 };
	const uint64_t sz[1] = { SIZE_1M };
	struct sw_run *r = synth(8, 2, lp, 1, sz, PAT_STREAM, HOPS, 10, timing_drop);
	char err[256] = "";
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));

	cr_assert_not_null(a, "%s", err);
	cr_assert_eq(a->ndrift, 0);
	cr_assert(!a->drifted);
	analysis_free(a);
	synth_free(r);
}

/* ---- the one cell-matching rule (health and compare) ---------------------- */

/* A run of one level (pairs pairs) whose cells are stream, size, with the
 * hop counts hops[0..n); auto: the config said hops = auto. */
static struct sw_run *shaped(bool hops_auto, int pairs, uint64_t size, const long *hops, int n)
{
	struct sw_config cfg = test_cfg();
	struct sw_plan *p = plan_alloc(2 * pairs, pairs, 1, n);
	struct sw_run *r;

	cr_assert(p);
	for (int i = 0; i < pairs; i++)
		p->pair[i] = (struct sw_pair){ 2 * i, 2 * i + 1 };
	p->level_pairs[0] = pairs;
	for (int c = 0; c < n; c++)
		p->cell[c] = (struct sw_cell){ .level = 0, .pattern = PAT_STREAM, .size = size, .hops = hops[c] };
	cfg.nhops = hops_auto ? 0 : 1;
	r = run_create(&cfg, p, 2 * pairs);
	cr_assert(r);
	return r;
}

Test(analysis, match_cell_rule)
{
	static const long two[2] = { 100, 1000 }, swapped[2] = { 1000, 100 }, h37[1] = { 37 }, h52[1] = { 52 };
	static const long h100[1] = { 100 };
	struct sw_run *a = shaped(false, 2, 1024, two, 2), *b = shaped(false, 2, 1024, swapped, 2);
	struct sw_run *x = shaped(true, 2, 1024, h37, 1), *y = shaped(true, 2, 1024, h52, 1);
	struct sw_run *f = shaped(false, 2, 1024, h100, 1), *g = shaped(true, 2, 1024, h100, 1);
	struct sw_run *other_size = shaped(true, 2, 2048, h52, 1), *other_level = shaped(true, 4, 1024, h52, 1);
	bool used[2] = { false, true };

	/* fixed hops: the same count */
	cr_expect_eq(analysis_match_cell(a, 0, b, NULL), 1);
	cr_expect_eq(analysis_match_cell(a, 1, b, NULL), 0);
	cr_expect_eq(analysis_match_cell(a, 0, b, used), -1, "a taken cell is skipped");
	cr_expect_eq(analysis_match_cell(f, 0, b, NULL), 1);
	/* hops = auto on both sides: whatever each engine chose */
	cr_expect_eq(analysis_match_cell(x, 0, y, NULL), 0);
	cr_expect_eq(analysis_match_cell(y, 0, x, NULL), 0);
	/* auto against fixed: only the same count */
	cr_expect_eq(analysis_match_cell(x, 0, f, NULL), -1);
	cr_expect_eq(analysis_match_cell(g, 0, f, NULL), 0);
	cr_expect_eq(analysis_match_cell(f, 0, g, NULL), 0);
	/* another size or load level never matches */
	cr_expect_eq(analysis_match_cell(x, 0, other_size, NULL), -1);
	cr_expect_eq(analysis_match_cell(x, 0, other_level, NULL), -1);
	run_free(a), run_free(b), run_free(x), run_free(y), run_free(f), run_free(g);
	run_free(other_size), run_free(other_level);
}

/* The difference of two changes in points (compare's "degrades less"): the
 * values of stats::median_ratio_diff_bonett_price mapped at the
 * reference's ratio 3/8, worked by hand: 100 * 0.375 * (e^d - 1). */
Test(analysis, change_diff_in_points)
{
	const double x[5] = { 4, 1, 5, 2, 3 }, y[7] = { 14, 2, 4, 6, 8, 10, 12 };
	const double w[8] = { 3, 9, 6, 12, 15, 7, 11, 5 };
	const double *set[4] = { y, x, w, y };
	size_t n[4] = { 7, 5, 8, 7 };
	struct sw_config cfg = test_cfg();
	struct sw_change d;

	cfg.confidence = 0.95;
	cfg.alpha = 0.05;
	cfg.min_effect = 2;
	/* latency: inflation -62.5% then 0%, 62.5 points more */
	change_diff(set, n, SW_METRIC_LATENCY, &cfg, &d);
	cr_assert(d.valid);
	cr_expect(near(d.pct, 62.5, 1e-9) && near(d.base, -62.5, 1e-9) && fabs(d.level) < 1e-9, "%g", d.pct);
	cr_expect(near(d.lo, -14.702656, 1e-5) && near(d.hi, 401.147594, 1e-6), "[%g, %g]", d.lo, d.hi);
	cr_expect(near(d.p, 0.1935300, 1e-5) && !d.significant, "p %g", d.p);
	/* bandwidth: the same values as drops, the mirror image */
	change_diff(set, n, SW_METRIC_BANDWIDTH, &cfg, &d);
	cr_expect(near(d.pct, -62.5, 1e-9) && near(d.lo, -401.147594, 1e-6) && near(d.hi, 14.702656, 1e-5),
		  "%g [%g, %g]", d.pct, d.lo, d.hi);
	/* a confidence below 1 - p: the CI excludes 0 and it is significant */
	cfg.confidence = 0.75;
	cfg.alpha = 0.25;
	change_diff(set, n, SW_METRIC_LATENCY, &cfg, &d);
	cr_expect(d.lo > 0 && d.significant, "[%g, %g] p %g", d.lo, d.hi, d.p);
	/* fewer than CHANGE_MIN_REPS values: the estimate only */
	n[1] = 4;
	change_diff(set, n, SW_METRIC_LATENCY, &cfg, &d);
	cr_expect(d.valid && isnan(d.lo) && isnan(d.p) && !d.significant);
}

/* ---- time: the block design (issue #26) ------------------------------ */

/*
 * A fabric whose speed wanders slowly with time (+-10%, a sine over the
 * sweep) and two levels that are truly equal. The time of a repetition
 * is its slot in the sweep: sequential runs level 0's 10 repetitions,
 * then level 1's; blocks runs repetition r of both levels as block r, in
 * plan_block_order's order. Known answer: no change. Sequential reads the
 * wander as load; blocks computes the change within blocks, where it
 * cancels, and its drift check (the baseline level's trend over the
 * blocks) sees the wander instead.
 */
static struct sw_config wander_cfg;
static struct sw_plan wander_plan = { .nlevels = 2 };

static void timing_wander(int level, int si, int pair, int rep, double *start, double *sec)
{
	int order[2], slot = level * 10 + rep;

	if (wander_cfg.design == CFG_DESIGN_BLOCKS) {
		plan_block_order(&wander_plan, &wander_cfg, rep, order);
		slot = rep * 2 + (order[0] == level ? 0 : 1);
	}
	*start = slot * 1.0 + 1e-5 * pair;
	*sec = T0 * (1.0 + 0.10 * sin(slot * 0.25)) * (1.0 + 0.003 * noise(level, si, pair, rep));
}

Test(analysis, wander_between_levels_cancels_within_blocks)
{
	const int lp[2] = { 4, 4 };
	const uint64_t sz[1] = { SIZE_1M };

	for (int design = 0; design < 2; design++) {
		struct sw_run *r;
		struct sw_analysis *a;
		char err[256] = "";

		wander_cfg = test_cfg();
		wander_cfg.design = design ? CFG_DESIGN_BLOCKS : CFG_DESIGN_SEQUENTIAL;
		r = synth(8, 2, lp, 1, sz, PAT_STREAM, HOPS, 10, timing_wander);
		r->cfg.design = wander_cfg.design;
		a = analysis_run(r, &r->cfg, err, sizeof(err));
		cr_assert_not_null(a, "%s", err);
		const struct sw_change *d = &a->cell[1].drop;

		const struct sw_change *g = &a->cell[1].agg_drop;

		cr_assert(d->valid && g->valid);
		if (design == 0) {
			/* the premise: sequential calls the wander a drop, per pair and aggregate */
			cr_assert(d->significant, "sequential drop %g [%g, %g] p %g", d->pct, d->lo, d->hi, d->p);
			cr_assert(g->significant, "sequential aggregate drop %g [%g, %g] p %g", g->pct, g->lo, g->hi,
				  g->p);
		} else {
			cr_assert(!d->significant && d->lo <= 0.0 && d->hi >= 0.0, "blocks drop %g [%g, %g] p %g",
				  d->pct, d->lo, d->hi, d->p);
			cr_assert(fabs(d->pct) < 2.0, "blocks drop %g", d->pct);
			/* the aggregate too is computed within blocks */
			cr_assert(!g->significant && g->lo <= 0.0 && g->hi >= 0.0,
				  "blocks aggregate drop %g [%g, %g] p %g", g->pct, g->lo, g->hi, g->p);
			cr_assert(fabs(g->pct) < 2.0, "blocks aggregate drop %g", g->pct);
			cr_assert(!a->cell[1].inflation.significant);
			/* the drift check: one trend per baseline cell, the wander seen */
			cr_assert_eq(a->ndrift, 1);
			cr_assert(a->drifted, "trend %g [%g, %g]", a->drift[0].change.pct, a->drift[0].change.lo,
				  a->drift[0].change.hi);
		}
		analysis_free(a);
		synth_free(r);
	}
}

/*
 * Aggregates within blocks, on the same wander: the aggregate of a stream
 * (4 pairs at both levels) and the receiver of an incast (1 sender at
 * level 0, 2 at level 1, each at 1/k of the receiver's port); level 1's
 * aggregate truly falls by wander_fall (0 or 5%). Across blocks the
 * wander (+-10%) would hide a 5% fall; within blocks it is found, and no
 * fall is claimed when there is none.
 */
static double wander_fall;
static bool wander_incast;

static void timing_wander_fall(int level, int si, int pair, int rep, double *start, double *sec)
{
	timing_wander(level, si, pair, rep, start, sec);
	*sec *= wander_incast ? level + 1 : 1;
	*sec /= level == 1 ? 1.0 - wander_fall : 1.0;
}

Test(analysis, aggregate_drops_within_blocks)
{
	const int lp1[2] = { 1, 2 }, lp4[2] = { 4, 4 };
	const uint64_t sz[1] = { SIZE_1M };

	wander_cfg = test_cfg();
	wander_cfg.design = CFG_DESIGN_BLOCKS;
	for (int incast = 0; incast < 2; incast++) {
		for (int fall = 0; fall < 2; fall++) {
			struct sw_run *r;
			struct sw_analysis *a;
			char err[256] = "";

			wander_fall = fall ? 0.05 : 0.0;
			wander_incast = incast;
			r = incast ? synth(8, 2, lp1, 1, sz, PAT_INCAST, HOPS, 10, timing_wander_fall)
				   : synth(8, 2, lp4, 1, sz, PAT_STREAM, HOPS, 10, timing_wander_fall);
			r->cfg.design = CFG_DESIGN_BLOCKS;
			a = analysis_run(r, &r->cfg, err, sizeof(err));
			cr_assert_not_null(a, "%s", err);
			const struct sw_change *d = incast ? &a->cell[1].receiver_drop : &a->cell[1].agg_drop;
			double truth = 100.0 * wander_fall;

			cr_assert(d->valid);
			cr_assert(d->lo <= truth && d->hi >= truth, "%s, truth %g: %g [%g, %g]",
				  incast ? "receiver" : "aggregate", truth, d->pct, d->lo, d->hi);
			if (!fall)
				cr_assert(!d->significant, "%s, no fall: %g [%g, %g]", incast ? "receiver" : "aggregate",
					  d->pct, d->lo, d->hi);
			else
				cr_assert(d->significant, "%s, truth %g: %g [%g, %g] p %g",
					  incast ? "receiver" : "aggregate", truth, d->pct, d->lo, d->hi, d->p);
			analysis_free(a);
			synth_free(r);
		}
	}
}

/*
 * A coarse timer: 20 ticks per sample. Level 1 truly takes up to half a
 * tick longer (+2.5%), but both levels read 20 ticks in every one of 12
 * blocks: the blocks agree exactly, so without the resolution the
 * interval of the change is the point 0, narrower than the timer can
 * resolve. With the tick known (run.json's wtick), each end moves away by
 * 1.96 times the resolution of one ratio (2.0%: a tick in 20 on each
 * side, sqrt 2 / (20 sqrt 12)): [-4.0, +4.1]%, which holds the hidden
 * +2.5%.
 */
#define TICK (T0 / 20.0)
static void timing_ticks(int level, int si, int pair, int rep, double *start, double *sec)
{
	(void)si;
	*start = rep * 2.0 + level + 1e-5 * pair;
	*sec = TICK * 20;
}

Test(analysis, block_change_includes_the_timer_resolution)
{
	const int lp[2] = { 4, 4 };
	const uint64_t sz[1] = { SIZE_1M };

	for (int known = 0; known < 2; known++) {
		struct sw_run *r = synth(8, 2, lp, 1, sz, PAT_PINGPONG, HOPS, 12, timing_ticks);
		struct sw_analysis *a;
		char err[256] = "";

		r->cfg.design = CFG_DESIGN_BLOCKS;
		r->wtick = known ? TICK : 0.0;
		a = analysis_run(r, &r->cfg, err, sizeof(err));
		cr_assert_not_null(a, "%s", err);
		const struct sw_change *c = &a->cell[1].inflation;

		cr_assert(c->valid && fabs(c->pct) < 1e-9, "inflation %g", c->pct);
		if (!known)
			cr_assert(c->hi - c->lo < 1e-9, "the premise: a point, %g [%g, %g]", c->pct, c->lo, c->hi);
		else
			cr_assert(!c->significant && c->lo < -3.9 && c->hi > 3.9 && c->hi > 2.5,
				  "tick known: %g [%g, %g] p %g", c->pct, c->lo, c->hi, c->p);
		analysis_free(a);
		synth_free(r);
	}
}

/* A real effect survives the block design: level 1 truly 5% slower, on
 * the same wander, is found within blocks at about +5% (latency). */
static void timing_wander_slow(int level, int si, int pair, int rep, double *start, double *sec)
{
	timing_wander(level, si, pair, rep, start, sec);
	*sec *= level == 1 ? 1.05 : 1.0;
}

Test(analysis, true_change_is_found_within_blocks)
{
	const int lp[2] = { 4, 4 };
	const uint64_t sz[1] = { SIZE_1M };
	struct sw_run *r;
	struct sw_analysis *a;
	char err[256] = "";

	wander_cfg = test_cfg();
	wander_cfg.design = CFG_DESIGN_BLOCKS;
	r = synth(8, 2, lp, 1, sz, PAT_PINGPONG, HOPS, 10, timing_wander_slow);
	r->cfg.design = CFG_DESIGN_BLOCKS;
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	const struct sw_change *c = &a->cell[1].inflation;

	cr_assert(c->significant && c->lo > 0.0, "inflation %g [%g, %g] p %g", c->pct, c->lo, c->hi, c->p);
	cr_assert(fabs(c->pct - 5.0) < 1.0, "inflation %g", c->pct);
	cr_assert(c->lo < 5.0 && c->hi > 5.0, "CI [%g, %g] misses the truth", c->lo, c->hi);
	analysis_free(a);
	synth_free(r);
}
