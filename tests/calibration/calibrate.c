/*
 * calibrate.c - the statistics of swstress against simulations with a
 * known truth, pushed through the library's real analysis (analysis_run,
 * analysis_converged, health_judge): no formula of the library is repeated
 * here, only the planted truth.
 *
 * A synthetic sample of pair p in repetition r of a level takes
 *     seconds = hops * t0 * f * exp(R[r] + P[p] + S[p] + E)
 * with R ~ N(0, rep_sd) shared by every pair of the repetition (the
 * switch's state at that moment), E ~ N(0, sample_sd) of each sample, P ~
 * N(0, pair_sd) a persistent difference of each pair (its cables, the same
 * every night), S a planted slow or fast port, f the planted load effect.
 * All noise is symmetric in logs, so the true median per-hop latency is
 * t0 f and the true bandwidth size / (t0 f).
 *
 * Measured (each over many seeded datasets; GSL's MT19937, seed 12):
 *   coverage   of every 95% CI of a level (latency, bandwidth, aggregate)
 *              and of a change (inflation, drop, aggregate drop) at 1, 4,
 *              16, 48 pairs, and of the latency CI where the adaptive rule
 *              stopped (16 pairs, 4% repetition noise);
 *   blocks     the block design's change (median, sign-test CI)
 *              under lognormal and Lomax sample noise at 4 and 16
 *              pairs: coverage, agreement with the printed medians, and
 *              one sample 1000x slower in one block (moves, drift);
 *   size       how often "significant" is claimed with no change, 1 pair
 *              against 16 (unequal spreads), 5, 10 and 20 repetitions;
 *   power      how often a 10% bandwidth drop is significant;
 *   nightly    runs shaped like configs/health.conf (8-24 pairs, 2-5% noise,
 *              1% persistent pair differences) judged against the night
 *              before: CRITICAL without any change, any suspect named;
 *   ports      a port 20% slow is named; a pair 20% fast never is;
 *   drift      drift control: the baseline level simulated again after the
 *              last level (fresh noise), without drift (the run is marked
 *              drifted at most alpha of the time) and with a 5% or 10%
 *              slowdown planted in the re-run (marked).
 * Prints one table; exits 1 when a figure misses its target (each target
 * allows the simulation's own error: 2.5 binomial standard errors).
 *
 *   calibrate [N]    N datasets per figure (default 400; make bench: 2000)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "analysis.h"
#include "compare.h"
#include "config.h"
#include "health.h"
#include "pattern.h"
#include "plan.h"
#include "run.h"
#include "stats.h"

#define T0 1e-5          /* s per hop */
#define HOPS 1000
#define SIZE 8192

static gsl_rng *rng;
static int failures;

struct model {
	int nlevels, level_pairs[2];
	int npatterns, patterns[2];
	int nsizes;
	int reps;
	double rep_sd, sample_sd, pair_sd;
	double f[2];                 /* load effect per level */
	double slow[64];             /* S[p]: log factor of pair p */
	const double *pair_fx;       /* P[p], NULL for none */
	int tail;                    /* sample noise: 0 lognormal (sample_sd in logs),
	                              * 1 Lomax: a factor 1 + sample_sd (P - 1), P
	                              * Pareto of shape 2 (slower only, infinite
	                              * variance) */
	bool again;                  /* drift control: level 0 simulated again */
	double drift;                /* its planted slowdown factor (1: none) */
};

static struct sw_config calib_cfg(int reps)
{
	struct sw_config c;

	config_defaults(&c);
	c.confidence = 0.95;
	c.alpha = 0.05;
	c.rep_min = c.rep_max = reps;
	return c;
}

/* One sample's noise on the log scale (model.tail). */
static double sample_noise(const struct model *m)
{
	if (m->tail == 1)
		return log1p(m->sample_sd * (gsl_ran_pareto(rng, 2.0, 1.0) - 1.0));
	return gsl_ran_gaussian(rng, m->sample_sd);
}

/* A run of model m: adjacent pairs (hosts h00 h01 | h02 h03 | ...), cells
 * level by level, then pattern, then size. */
static struct sw_run *simulate(const struct model *m, const struct sw_config *cfg)
{
	int maxk = m->level_pairs[m->nlevels - 1], per = m->npatterns * m->nsizes;
	struct sw_plan *p = plan_alloc(2 * maxk, maxk, m->nlevels, m->nlevels * per);
	struct sw_run *r;
	int c = 0;

	if (!p)
		abort();
	for (int i = 0; i < maxk; i++)
		p->pair[i] = (struct sw_pair){ 2 * i, 2 * i + 1 };
	for (int l = 0; l < m->nlevels; l++)
		p->level_pairs[l] = m->level_pairs[l];
	for (int l = 0; l < m->nlevels; l++)
		for (int pt = 0; pt < m->npatterns; pt++)
			for (int s = 0; s < m->nsizes; s++)
				p->cell[c++] = (struct sw_cell){ .level = l, .pattern = m->patterns[pt],
								 .size = (uint64_t)SIZE << (4 * s), .hops = HOPS,
								 .size_index = s };
	r = run_create(cfg, p, 2 * maxk);
	if (!r)
		abort();
	for (int i = 0; i < 2 * maxk; i++)
		snprintf(r->host[i], SW_HOST_MAX, "h%02d", i);
	r->complete = true;
	r->wtick = 1e-9;
	for (c = 0; c < p->ncells; c++) {
		int l = p->cell[c].level, k = p->level_pairs[l];

		for (int rep = 0; rep < m->reps; rep++) {
			double R = gsl_ran_gaussian(rng, m->rep_sd);

			for (int i = 0; i < k; i++) {
				double sec = HOPS * T0 * (double)(1 << (2 * p->cell[c].size_index)) * m->f[l] *
					     exp(R + (m->pair_fx ? m->pair_fx[i] : 0.0) + m->slow[i] +
						 sample_noise(m));
				struct sw_sample s = { .cell = c, .rep = rep, .pair = i, .t_start = rep,
						       .t_end = rep + sec, .seconds = sec, .hops = HOPS };

				if (run_add_sample(r, &s))
					abort();
			}
		}
		r->cell[c].reps = m->reps;
		r->cell[c].stop = SW_STOP_FIXED;
	}
	for (c = 0; m->again && c < p->ncells && p->cell[c].level == 0; c++)
		for (int rep = 0; rep < m->reps; rep++) {
			double R = gsl_ran_gaussian(rng, m->rep_sd);

			for (int i = 0; i < p->level_pairs[0]; i++) {
				double sec = HOPS * T0 * (double)(1 << (2 * p->cell[c].size_index)) * m->drift *
					     exp(R + m->slow[i] + gsl_ran_gaussian(rng, m->sample_sd));
				struct sw_sample s = { .cell = c, .rep = rep, .pair = i, .t_start = 1000 + rep,
						       .t_end = 1000 + rep + sec, .seconds = sec, .hops = HOPS };

				if (run_add_again(r, &s))
					abort();
			}
		}
	return r;
}

static bool covers(double lo, double hi, double truth)
{
	return isfinite(lo) && isfinite(hi) && lo <= truth && truth <= hi;
}

/* Print one figure and check it against [lo, hi] widened by 2.5 binomial
 * standard errors of n trials. */
static void figure(const char *what, int hits, int n, double lo, double hi)
{
	double rate = (double)hits / n, se = sqrt(fmax(rate * (1 - rate), 0.25 / n) / n);
	bool ok = rate >= lo - 2.5 * se && rate <= hi + 2.5 * se;

	printf("%-64s %6.1f%%  target %5.1f..%5.1f%%  %s\n", what, 100 * rate, 100 * lo, 100 * hi,
	       ok ? "ok" : "MISSED");
	failures += !ok;
}

/* The true median of the aggregate bandwidth per pair of a repetition of
 * k pairs, relative to size / t0 (by simulation: agg / k = size / (t0 f)
 * * exp(-(R + max E)) with every pair starting together). */
static double agg_truth(int k, double rep_sd, double sample_sd)
{
	enum { M = 200001 };
	double *x = malloc(M * sizeof(*x)), med;

	for (int i = 0; i < M; i++) {
		double mx = -INFINITY;

		for (int p = 0; p < k; p++)
			mx = fmax(mx, gsl_ran_gaussian(rng, sample_sd));
		x[i] = gsl_ran_gaussian(rng, rep_sd) + mx;
	}
	med = stats_median(x, M);
	free(x);
	return exp(-med);
}

static void coverage(int n)
{
	static const int ks[4] = { 1, 4, 16, 48 };

	for (int ki = 0; ki < 4; ki++) {
		int k = ks[ki], hit[6] = { 0 };
		struct model m = { .nlevels = 2, .level_pairs = { 1, k }, .npatterns = 1,
				   .patterns = { PAT_STREAM }, .nsizes = 1, .reps = 10, .rep_sd = 0.02,
				   .sample_sd = 0.02, .f = { 1.0, 1.10 } };
		struct sw_config cfg = calib_cfg(m.reps);
		double a1 = agg_truth(1, m.rep_sd, m.sample_sd), ak = agg_truth(k, m.rep_sd, m.sample_sd);
		double bw = SIZE / (T0 * 1.10);
		char what[96];

		for (int d = 0; d < n; d++) {
			struct sw_run *r = simulate(&m, &cfg);
			struct sw_analysis *a = analysis_run(r, &cfg, NULL, 0);
			const struct sw_cell_stats *cs = &a->cell[1];

			hit[0] += covers(cs->lat.med_lo, cs->lat.med_hi, T0 * 1.10);
			hit[1] += covers(cs->bw.med_lo, cs->bw.med_hi, bw);
			hit[2] += covers(cs->agg.med_lo, cs->agg.med_hi, k * bw * ak);
			hit[3] += covers(cs->inflation.lo, cs->inflation.hi, 10.0);
			hit[4] += covers(cs->drop.lo, cs->drop.hi, (1 - 1 / 1.10) * 100);
			hit[5] += covers(cs->agg_drop.lo, cs->agg_drop.hi, (1 - ak / a1 / 1.10) * 100);
			analysis_free(a);
			run_free(r);
		}
		static const char *const names[6] = { "latency", "bandwidth", "aggregate", "inflation",
						      "drop", "aggregate drop" };
		for (int i = 0; i < 6; i++) {
			snprintf(what, sizeof(what), "coverage, %2d pairs, 10 reps, 2%%+2%% noise: %s CI", k, names[i]);
			figure(what, hit[i], n, 0.93, 0.975);
		}
	}
}

/* Adaptive repetitions, 16 pairs, 4% repetition noise: reps 5..100 until
 * the latency CI is within 2%, the engine's rule (analysis_converged on
 * analysis_rep_values of the repetitions so far). */
static void adaptive(int n)
{
	struct model m = { .nlevels = 1, .level_pairs = { 16 }, .npatterns = 1, .patterns = { PAT_PINGPONG },
			   .nsizes = 1, .reps = 100, .rep_sd = 0.04, .sample_sd = 0.02, .f = { 1.0 } };
	struct sw_config cfg = calib_cfg(100);
	int hit = 0;
	double reps = 0;

	cfg.rep_min = 5;
	cfg.ci_target = 0.02;
	for (int d = 0; d < n; d++) {
		struct sw_run *r = simulate(&m, &cfg);
		double *x;
		size_t nx, stop = 100;
		struct sw_analysis *a;

		if (analysis_rep_values(r, 0, SW_METRIC_LATENCY, &x, &nx))
			abort();
		for (size_t j = 5; j <= nx; j++)
			if (analysis_converged(x, j, cfg.confidence, cfg.ci_target)) {
				stop = j;
				break;
			}
		free(x);
		r->nsamples = stop * 16;   /* the repetitions the engine ran */
		r->cell[0].reps = (int)stop;
		a = analysis_run(r, &cfg, NULL, 0);
		hit += covers(a->cell[0].lat.med_lo, a->cell[0].lat.med_hi, T0);
		reps += (double)stop;
		analysis_free(a);
		run_free(r);
	}
	printf("adaptive: stopped after %.1f repetitions on average\n", reps / n);
	figure("coverage, adaptive 5..100 reps to 2%, 16 pairs, 4% rep noise", hit, n, 0.93, 0.975);
}

/* How many of n datasets of m call the drop at level 1 significant. */
static int significant_drops(const struct model *m, const struct sw_config *cfg, int n)
{
	int sig = 0;

	for (int d = 0; d < n; d++) {
		struct sw_run *r = simulate(m, cfg);
		struct sw_analysis *a = analysis_run(r, cfg, NULL, 0);

		sig += a->cell[1].drop.significant;
		analysis_free(a);
		run_free(r);
	}
	return sig;
}

static void size_and_power(int n)
{
	static const int rs[3] = { 5, 10, 20 };
	char what[96];

	for (int ri = 0; ri < 3; ri++) {
		struct model m = { .nlevels = 2, .level_pairs = { 1, 16 }, .npatterns = 1,
				   .patterns = { PAT_STREAM }, .nsizes = 1, .reps = rs[ri], .rep_sd = 0.02,
				   .sample_sd = 0.03, .f = { 1.0, 1.0 } };
		struct sw_config cfg = calib_cfg(m.reps);

		cfg.min_effect = 0;   /* the test alone */
		snprintf(what, sizeof(what), "false significant, no change, 1 vs 16 pairs, %2d reps (alpha 5%%)", rs[ri]);
		figure(what, significant_drops(&m, &cfg, n), n, 0.0, 0.05);
	}
	struct model m = { .nlevels = 2, .level_pairs = { 1, 4 }, .npatterns = 1, .patterns = { PAT_STREAM },
			   .nsizes = 1, .reps = 10, .rep_sd = 0.02, .sample_sd = 0.02, .f = { 1.0, 1.0 / 0.9 } };
	struct sw_config cfg = calib_cfg(m.reps);

	figure("power, 10% bandwidth drop, 1 vs 4 pairs, 10 reps, 2%+2% noise", significant_drops(&m, &cfg, n),
	       n, 0.8, 1.0);
}

/* Drift control: how often n runs of m (the baseline level simulated
 * again, m.drift planted) are marked drifted. */
static int drifted_runs(const struct model *m, const struct sw_config *cfg, int n)
{
	int marked = 0;

	for (int d = 0; d < n; d++) {
		struct sw_run *r = simulate(m, cfg);
		struct sw_analysis *a = analysis_run(r, cfg, NULL, 0);

		if (!a)
			abort();
		marked += a->drifted;
		analysis_free(a);
		run_free(r);
	}
	return marked;
}

/* Runs shaped like a sweep's baseline level (1 pair, pingpong and stream,
 * 1 or 3 sizes, 10 repetitions, 2% + 2% noise, levels 1 and 4 pairs). */
static void drift(int n)
{
	static const struct { int nsizes; double drift, min_effect, lo, hi; const char *what; } f[] = {
		{ 1, 1.00, 0, 0.0, 0.05, "drift control, no drift, 2 cells, min_effect 0: marked (alpha 5%)" },
		{ 3, 1.00, 0, 0.0, 0.05, "drift control, no drift, 6 cells, min_effect 0: marked (alpha 5%)" },
		{ 3, 1.00, 2, 0.0, 0.05, "drift control, no drift, 6 cells, min_effect 2%: marked" },
		{ 3, 1.05, 2, 0.8, 1.0, "drift control, 5% slower at the end, 6 cells: marked" },
		{ 3, 1.10, 2, 0.99, 1.0, "drift control, 10% slower at the end, 6 cells: marked" },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		struct model m = { .nlevels = 2, .level_pairs = { 1, 4 }, .npatterns = 2,
				   .patterns = { PAT_PINGPONG, PAT_STREAM }, .nsizes = f[i].nsizes, .reps = 10,
				   .rep_sd = 0.02, .sample_sd = 0.02, .f = { 1.0, 1.0 }, .again = true,
				   .drift = f[i].drift };
		struct sw_config cfg = calib_cfg(m.reps);

		cfg.min_effect = f[i].min_effect;
		cfg.design = CFG_DESIGN_SEQUENTIAL;   /* the re-run is sequential's drift control */
		figure(f[i].what, drifted_runs(&m, &cfg, n), n, f[i].lo, f[i].hi);
	}
}

/* Plant one sample 1000x slower in run r: cell 0 (the baseline level),
 * block 3, pair 0. */
static void spike(struct sw_run *r)
{
	for (size_t i = 0; i < r->nsamples; i++) {
		struct sw_sample *sm = &r->sample[i];

		if (sm->cell == 0 && sm->rep == 3 && sm->pair == 0) {
			sm->seconds *= 1000.0;
			sm->t_end = sm->t_start + sm->seconds;
		}
	}
}

/*
 * The block design's change, resistant to one outlying block (stats_block_median
 * through analysis_run), 10 blocks, block speed N(0, 2%) shared by a
 * block's levels, level 1 truly 10% slower (inflation +10%, drops 9.09%),
 * the change's three rows (inflation, drop, aggregate drop):
 *   coverage  both levels k pairs (4, 16), sample noise lognormal (25% in
 *             logs) or Lomax (shape 2, scale 5%): with equal pair counts
 *             the level's per-block values are the baseline's times 1.10
 *             in law, whatever the noise's shape: 93-97.5%;
 *   spike     one sample of the baseline level (block 3, pair 0) 1000x
 *             slower, the same run otherwise: with the noise (2%
 *             a sample, a 1-pair baseline against 4 or 16 pairs) no
 *             change moves by more than 3 points; with the heavy tails
 *             above (CIs some 30 points wide) the estimate with the spike
 *             stays inside the interval printed without it; the drift
 *             check (Theil-Sen) marks the run at most alpha. The largest
 *             moves are printed;
 *   agree     the printed change is a value the two printed medians
 *             allow: inside the 95% CI of the ratio of the medians of the
 *             per-repetition values (stats_median_ratio, design
 *             sequential's test), at least 93%.
 */
static void robust(int n)
{
	static const char *const tails[3] = { "2%", "lognormal", "Lomax" };
	static const char *const names[3] = { "inflation", "drop", "aggregate drop" };
	static const int ks[2] = { 4, 16 };

	for (int ti = 0; ti < 3; ti++)
		for (int ki = 0; ki < 2; ki++) {
			int k = ks[ki], hit[3] = { 0 }, kept = 0, drifted = 0, agree = 0, gained = 0, lost = 0;
			struct model m = { .nlevels = 2, .level_pairs = { ti ? k : 1, k }, .npatterns = 1,
					   .patterns = { PAT_STREAM }, .nsizes = 1, .reps = 10, .rep_sd = 0.02,
					   .sample_sd = ti == 0 ? 0.02 : ti == 1 ? 0.25 : 0.05, .tail = ti == 2,
					   .f = { 1.0, 1.10 } };
			struct sw_config cfg = calib_cfg(m.reps);
			double drop = (1 - 1 / 1.10) * 100, worst = 0, rel = 0;
			char what[96];

			for (int d = 0; d < n; d++) {
				struct sw_run *r = simulate(&m, &cfg);
				struct sw_analysis *a = analysis_run(r, &cfg, NULL, 0), *b;
				const struct sw_cell_stats *cs = &a->cell[1];
				double *x, *y, ratio, lo, hi, p;
				size_t nx, ny;
				bool ok = true;

				hit[0] += covers(cs->inflation.lo, cs->inflation.hi, 10.0);
				hit[1] += covers(cs->drop.lo, cs->drop.hi, drop);
				hit[2] += covers(cs->agg_drop.lo, cs->agg_drop.hi, drop);
				if (analysis_rep_values(r, 1, SW_METRIC_LATENCY, &x, &nx) ||
				    analysis_rep_values(r, 0, SW_METRIC_LATENCY, &y, &ny) ||
				    stats_median_ratio(x, nx, y, ny, cfg.confidence, &ratio, &lo, &hi, &p))
					abort();
				agree += covers(lo, hi, 1 + cs->inflation.pct / 100);
				free(x);
				free(y);
				spike(r);
				b = analysis_run(r, &cfg, NULL, 0);
				const struct sw_change *c0[3] = { &cs->inflation, &cs->drop, &cs->agg_drop };
				const struct sw_change *c1[3] = { &b->cell[1].inflation, &b->cell[1].drop,
								  &b->cell[1].agg_drop };

				for (int j = 0; j < 3; j++) {
					double mv = fabs(c1[j]->pct - c0[j]->pct);

					worst = fmax(worst, mv);
					rel = fmax(rel, mv / ((c0[j]->hi - c0[j]->lo) / 2));
					ok &= ti ? covers(c0[j]->lo, c0[j]->hi, c1[j]->pct) : mv <= 3.0;
					gained += c1[j]->significant && !c0[j]->significant;
					lost += !c1[j]->significant && c0[j]->significant;
				}
				kept += ok;
				drifted += b->drifted;
				analysis_free(a);
				analysis_free(b);
				run_free(r);
			}
			if (ti) {
				for (int i = 0; i < 3; i++) {
					snprintf(what, sizeof(what), "blocks, %s noise, %2d pairs: %s CI coverage", tails[ti],
						 k, names[i]);
					figure(what, hit[i], n, 0.93, 0.975);
				}
				snprintf(what, sizeof(what), "blocks, %s, %2d pairs: change inside the medians' CI",
					 tails[ti], k);
				figure(what, agree, n, 0.93, 1.0);
			}
			printf("blocks, %s noise, 1 or %d pairs, one sample 1000x: largest move %.2f points, %.2f of the "
			       "CI's half-width; stars gained %d, lost %d of %d\n", tails[ti], k, worst, rel, gained, lost,
			       3 * n);
			snprintf(what, sizeof(what), "blocks, %s, %2d pairs, one sample 1000x: %s", tails[ti], k,
				 ti ? "inside the CI" : "moved <= 3 pts");
			figure(what, kept, n, 1.0, 1.0);
			snprintf(what, sizeof(what), "blocks, %s, %2d pairs, one sample 1000x: drift marked", tails[ti], k);
			figure(what, drifted, n, 0.0, 0.05);
		}
}

/*
 * compare's "degrades less" (change_diff through compare_create):
 * two runs of 1 and 4 pairs, 10 repetitions; A loses bandwidth by load f =
 * 1.10, X by fx, and X's repetitions are noisier (rep_sd, unequal spreads).
 * Truth in points: drop(X) - drop(A) = 100 (1/1.10 - 1/fx). Counts how
 * often the CI covers it and how often the difference is significant.
 */
static void degrades_less(int n, double fx, double rep_sd, int *covered, int *significant)
{
	struct model ma = { .nlevels = 2, .level_pairs = { 1, 4 }, .npatterns = 1, .patterns = { PAT_STREAM },
			    .nsizes = 1, .reps = 10, .rep_sd = 0.02, .sample_sd = 0.02, .f = { 1.0, 1.10 } };
	struct model mx = ma;
	struct sw_config cfg = calib_cfg(ma.reps);
	double truth = 100.0 * (1.0 / 1.10 - 1.0 / fx);
	char err[256];

	mx.f[1] = fx;
	mx.rep_sd = rep_sd;
	cfg.min_effect = 0;   /* the test alone */
	*covered = *significant = 0;
	for (int d = 0; d < n; d++) {
		struct sw_run *runs[2] = { simulate(&ma, &cfg), simulate(&mx, &cfg) };

		/* two switches, one run each */
		snprintf(runs[0]->cfg.model, sizeof(runs[0]->cfg.model), "SwA");
		snprintf(runs[1]->cfg.model, sizeof(runs[1]->cfg.model), "SwX");
		struct compare *c = compare_create(runs, NULL, 2, err, sizeof(err));

		if (!c || c->nsummary != 1 || !c->summary[0].s[1].valid) {
			fprintf(stderr, "calibrate: compare: %s\n", c ? "not one summary row of X against A" : err);
			abort();
		}
		/* the degradation statement of X against A (points, > 0: X worse);
		 * with one run a side significant only beyond the run-to-run
		 * allowance, so the CI is the repetitions' and the star the rule's */
		const struct compare_stmt *st = &c->summary[0].s[1];

		*covered += covers(st->pct_lo, st->pct_hi, truth);
		*significant += st->significant;
		compare_free(c);
	}
}

static void compare_figures(int n)
{
	int cov, sig;

	degrades_less(n, 1.10, 0.04, &cov, &sig);
	figure("compare, degradation difference CI coverage, no difference", cov, n, 0.93, 0.975);
	figure("compare, degrades less significant with no difference (alpha 5%)", sig, n, 0.0, 0.05);
	degrades_less(n, 1.25, 0.04, &cov, &sig);
	figure("compare, degradation difference CI coverage, X 11 points worse", cov, n, 0.93, 0.975);
	/* one run a side: a difference counts only beyond the run-to-run
	 * allowance (+-13.9% at run_to_run = 5): 11 points cannot, 41 can */
	figure("compare, 1 run a side: X's 11 points more drop, within the allowance", sig, n, 0.0, 0.05);
	degrades_less(n, 2.0, 0.04, &cov, &sig);
	figure("compare, 1 run a side, power: X's 41 points more drop significant", sig, n, 0.8, 1.0);
}

static bool named(const struct sw_analysis *a, int pair)
{
	char h[2][16];

	snprintf(h[0], sizeof(h[0]), "h%02d", 2 * pair);
	snprintf(h[1], sizeof(h[1]), "h%02d", 2 * pair + 1);
	for (int i = 0; i < a->nsuspects; i++)
		if (!strcmp(a->suspect[i].host, h[0]) || !strcmp(a->suspect[i].host, h[1]))
			return true;
	return false;
}

/*
 * Nightly checks shaped like configs/health.conf: levels 1 and k pairs (k
 * cycling 8, 16, 24), pingpong and stream at 3 sizes, 10 repetitions,
 * repetition and sample noise each between 2% and 5%, 1% persistent pair
 * differences shared by both nights. slow: the log factor of pair 3
 * tonight (0: no change).
 */
static void nightly(int n, double slow, int *critical, int *suspect, int *slow_named)
{
	static const int ks[3] = { 8, 16, 24 };
	double pfx[24];

	*critical = *suspect = *slow_named = 0;
	for (int d = 0; d < n; d++) {
		struct model m = { .nlevels = 2, .level_pairs = { 1, ks[d % 3] }, .npatterns = 2,
				   .patterns = { PAT_PINGPONG, PAT_STREAM }, .nsizes = 3, .reps = 10,
				   .rep_sd = gsl_ran_flat(rng, 0.02, 0.05),
				   .sample_sd = gsl_ran_flat(rng, 0.02, 0.05), .f = { 1.0, 1.0 }, .pair_fx = pfx };
		struct sw_config cfg;
		struct sw_run *b, *r;
		struct sw_analysis *ba, *a;
		struct health_verdict *v;

		config_defaults(&cfg);
		cfg.rep_min = cfg.rep_max = m.reps;
		for (int i = 0; i < 24; i++)
			pfx[i] = gsl_ran_gaussian(rng, 0.01);
		b = simulate(&m, &cfg);
		m.slow[3] = slow;
		r = simulate(&m, &cfg);
		ba = analysis_run(b, &cfg, NULL, 0);
		a = analysis_run(r, &cfg, NULL, 0);
		if (!a || !ba || !(v = health_judge(r, a, b, ba)))
			abort();
		*critical += v->status == SW_NAGIOS_CRITICAL;
		*suspect += a->nsuspects > 0 && !(slow != 0.0 && named(a, 3) && a->nsuspects <= 2);
		*slow_named += named(a, 3);
		health_verdict_free(v);
		analysis_free(a);
		analysis_free(ba);
		run_free(r);
		run_free(b);
	}
}

/*
 * Time in the statistics (stats.h's intervals for changes that time can
 * move), on values shaped like a sweep's per-repetition medians:
 *   levels   blocks of 10, each block's speed shifted by N(0, 5%) for
 *            every level alike, each visit of a level shifted again by
 *            N(0, shift) (the speed wandering from one level to the
 *            next), 2% noise, no load effect: the block change
 *            (stats_block_median) significant at most 5%;
 *   runs     12 cells a switch, a run's speed N(0, sd) shared by its
 *            cells, 1% within: A/A with 3 runs a switch (stats_runs_welch)
 *            cells significant and comparisons naming a winner (any cell
 *            after Holm) at most 5%; with 1 run a switch the whole
 *            within-run interval must clear the run_to_run allowance
 *            (config default 5%); power: B's change under load 10% worse,
 *            3 runs a switch, found at least 80%;
 *   nights   12 cells against 3 or 5 healthy baseline runs, nights
 *            shifted N(0, 2..5%) by cell, judged by the library's rule
 *            (health_cell_nightly, health_grade: the spread pooled over
 *            the cells, Bonferroni over them): CRITICAL at most 1%,
 *            WARNING or CRITICAL at most 5%.
 */
static void time_figures(int n)
{
	static const double sds[2] = { 0.02, 0.05 };
	struct sw_config cfg;
	char what[96];

	config_defaults(&cfg);
	for (int si = 0; si < 2; si++) {
		int sig = 0;

		for (int d = 0; d < n; d++) {
			double x[10], b[10];
			struct stats_interval iv;

			for (int k = 0; k < 10; k++) {
				double B = gsl_ran_gaussian(rng, 0.05);

				b[k] = exp(B + gsl_ran_gaussian(rng, sds[si]) + gsl_ran_gaussian(rng, 0.02));
				x[k] = exp(B + gsl_ran_gaussian(rng, sds[si]) + gsl_ran_gaussian(rng, 0.02));
			}
			if (stats_block_median(x, b, 10, 0.0, cfg.confidence, &iv))
				abort();
			sig += iv.p < cfg.alpha;
		}
		snprintf(what, sizeof(what), "blocks, no load effect, %.0f%% level-to-level shifts: significant",
			 100 * sds[si]);
		figure(what, sig, n, 0.0, 0.05);
	}
	for (int si = 0; si < 2; si++) {
		int cells = 0, winner = 0, cells1 = 0, winner1 = 0, power = 0;
		double allow = stats_run_allowance(log1p(cfg.run_to_run / 100.0), cfg.confidence);

		for (int d = 0; d < n; d++) {
			double a[12][3], bb[12][3], p[12], adj[12], ra[3], rb[3], ca[3], cb[3];
			bool any1 = false;
			struct stats_interval iv;

			for (int j = 0; j < 3; j++) {
				ra[j] = gsl_ran_gaussian(rng, sds[si]);
				rb[j] = gsl_ran_gaussian(rng, sds[si]);
				/* the change under load of each run: the run's speed cancels
				 * within blocks, 1.5% within-run error, B 10% worse */
				ca[j] = exp(log(1.2) + gsl_ran_gaussian(rng, 0.015));
				cb[j] = exp(log(1.2 * 1.1) + gsl_ran_gaussian(rng, 0.015));
			}
			for (int c = 0; c < 12; c++) {
				for (int j = 0; j < 3; j++) {
					a[c][j] = exp(ra[j] + gsl_ran_gaussian(rng, 0.01));
					bb[c][j] = exp(rb[j] + gsl_ran_gaussian(rng, 0.01));
				}
				if (stats_runs_welch(a[c], 3, bb[c], 3, 0.0, cfg.confidence, &iv))
					abort();
				p[c] = iv.p;
				cells += iv.p < cfg.alpha;
				/* one run a side: the first runs, within-run se 1% a side */
				if (stats_interval_set(&iv, log(bb[c][0] / a[c][0]), 0.01 * sqrt(2.0), INFINITY, 0.0,
						       cfg.confidence))
					abort();
				cells1 += stats_beyond(iv.lo, iv.hi, allow) != 0;
				any1 |= stats_beyond(iv.lo, iv.hi, allow) != 0;
			}
			if (stats_holm(p, 12, adj))
				abort();
			for (int c = 0; c < 12; c++)
				if (adj[c] < cfg.alpha) {
					winner++;
					break;
				}
			winner1 += any1;
			if (stats_runs_welch(ca, 3, cb, 3, 0.0, cfg.confidence, &iv))
				abort();
			power += iv.p < cfg.alpha && iv.d > 0;
		}
		snprintf(what, sizeof(what), "A/A, 3 runs a switch, run-to-run %.0f%%: cells significant", 100 * sds[si]);
		figure(what, cells, 12 * n, 0.0, 0.05);
		snprintf(what, sizeof(what), "A/A, 3 runs a switch, run-to-run %.0f%%: a winner named", 100 * sds[si]);
		figure(what, winner, n, 0.0, 0.05);
		snprintf(what, sizeof(what), "A/A, 1 run a switch, run-to-run %.0f%%: cells claimed", 100 * sds[si]);
		figure(what, cells1, 12 * n, 0.0, 0.05);
		snprintf(what, sizeof(what), "A/A, 1 run a switch, run-to-run %.0f%%: a winner named", 100 * sds[si]);
		figure(what, winner1, n, 0.0, 0.05);
		snprintf(what, sizeof(what), "power, 10%% worse under load, 3 runs a switch (run-to-run %.0f%%)",
			 100 * sds[si]);
		figure(what, power, n, 0.8, 1.0);
	}
	for (int ki = 0; ki < 2; ki++) {
		int k = ki ? 5 : 3, critical = 0, paged = 0;

		for (int d = 0; d < n; d++) {
			double night_sd = gsl_ran_flat(rng, 0.02, 0.05), y[5][10], x[10];
			double *yp[5] = { y[0], y[1], y[2], y[3], y[4] };
			size_t ny[5] = { 10, 10, 10, 10, 10 };
			struct health_verdict *v = health_verdict_new(NULL, 12);

			if (!v)
				abort();
			v->warn_drop = cfg.warn_drop;
			v->crit_drop = cfg.crit_drop;
			v->warn_inflation = cfg.warn_inflation;
			v->crit_inflation = cfg.crit_inflation;
			v->alpha = cfg.alpha;
			v->confidence = cfg.confidence;
			for (int c = 0; c < 12; c++) {
				struct health_cell *hc = &v->cell[v->ncells++];

				health_cell_blank(hc);
				hc->metric = c % 2 ? HEALTH_BANDWIDTH : HEALTH_LATENCY;
				for (int j = 0; j <= k; j++) {
					double *val = j < k ? y[j] : x, N = gsl_ran_gaussian(rng, night_sd);

					for (int i = 0; i < 10; i++)
						val[i] = exp(N + gsl_ran_gaussian(rng, 0.03));
				}
				health_cell_nightly(hc, &cfg, x, 10, yp, ny, k, 0.0);
			}
			if (health_grade(v))
				abort();
			critical += v->status == SW_NAGIOS_CRITICAL;
			paged += v->status == SW_NAGIOS_CRITICAL || v->status == SW_NAGIOS_WARNING;
			health_verdict_free(v);
		}
		snprintf(what, sizeof(what), "nights, %d baseline runs, 2-5%% night shifts, 12 cells: CRITICAL", k);
		figure(what, critical, n, 0.0, 0.01);
		snprintf(what, sizeof(what), "nights, %d baseline runs, 2-5%% night shifts, 12 cells: paged", k);
		figure(what, paged, n, 0.0, 0.05);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 400, crit, sus, hit;

	if (n < 20) {
		fprintf(stderr, "calibrate: N must be at least 20\n");
		return 2;
	}
	stats_init();
	gsl_rng_env_setup();
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 12);
	printf("swstress statistics calibration, %d datasets per figure (seed 12)\n", n);
	coverage(n);
	robust(n);
	adaptive(n);
	size_and_power(n);
	drift(n);
	compare_figures(n);
	nightly(n, 0.0, &crit, &sus, &hit);
	figure("nightly, no change (health.conf shape): CRITICAL", crit, n, 0.0, 0.005);
	figure("nightly, no change: any suspect port named", sus, n, 0.0, 0.005);
	nightly(n, log(1.25), &crit, &sus, &hit);
	figure("nightly, one port 20% slow (x1.25 time): named", hit, n, 0.99, 1.0);
	figure("nightly, one port 20% slow: another host named too", sus, n, 0.0, 0.005);
	nightly(n, log(0.8), &crit, &sus, &hit);
	figure("nightly, one pair 20% fast: named", hit, n, 0.0, 0.0);
	time_figures(n);
	gsl_rng_free(rng);
	printf("calibration: %s\n", failures ? "targets MISSED" : "every target met");
	return failures ? 1 : 0;
}
