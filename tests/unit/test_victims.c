/* Victims and aggressors (victims.h): the latency histogram against exact
 * order statistics, the plan's victim pairs, and the inflation test on
 * simulated victims whose true inflation is known. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "victims.h"
#include "plan.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* xorshift64* and Box-Muller: a reproducible standard normal. */
static uint64_t rng = 88172645463325252ULL;

static double uniform(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return ((rng * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double normal(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2.0 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* Lognormal latencies (median 20 us, heavy right tail) and a few beyond
 * the range: every quantile within 0.25% of the exact nearest-rank order
 * statistic; out-of-range values in the end bins; NaN and <= 0 ignored. */
Test(victims, histogram_quantiles_match_order_statistics)
{
	enum { N = 20001 };
	static double x[N];
	static struct victims_hist h;
	const double q[] = { 0.01, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0 };

	victims_hist_clear(&h);
	cr_expect(isnan(victims_hist_quantile(&h, 0.5)), "empty: NaN");
	for (int i = 0; i < N; i++) {
		x[i] = 20e-6 * exp(0.5 * normal());
		victims_hist_add(&h, x[i]);
	}
	victims_hist_add(&h, NAN);
	victims_hist_add(&h, -1.0);
	victims_hist_add(&h, 0.0);
	cr_assert_eq(h.total, N);
	qsort(x, N, sizeof(x[0]), cmp_double);
	for (size_t k = 0; k < sizeof(q) / sizeof(q[0]); k++) {
		size_t rank = (size_t)ceil(q[k] * N);
		double exact = x[rank - 1], got = victims_hist_quantile(&h, q[k]);

		cr_expect(fabs(got / exact - 1) <= 0.0025 + 1e-12, "q %g: %g vs exact %g", q[k], got, exact);
	}
	cr_expect(isnan(victims_hist_quantile(&h, 0.0)));
	cr_expect(isnan(victims_hist_quantile(&h, 1.5)));
	victims_hist_clear(&h);
	victims_hist_add(&h, 1e-12);
	victims_hist_add(&h, 100.0);
	cr_expect_lt(victims_hist_quantile(&h, 0.5), VICTIMS_HIST_MIN * VICTIMS_HIST_RATIO);
	cr_expect_gt(victims_hist_quantile(&h, 1.0), 5.0);
}

static void set(struct sw_config *c, const char *const *kv)
{
	char err[512];

	config_defaults(c);
	for (int i = 0; kv[i]; i++)
		cr_assert_eq(config_set_arg(c, kv[i], err, sizeof(err)), 0, "%s: %s", kv[i], err);
}

/* The first pairs of the pairing are the victims, the levels count the
 * others; errors name the key. */
Test(victims, plan_sets_the_first_pairs_apart)
{
	struct sw_config c;
	char err[512];
	struct sw_plan *p;

	set(&c, (const char *const[]){ "pairs=1,3", "pairing=halves", "victims=1", "patterns=stream,pingpong", NULL });
	cr_assert_eq(config_validate(&c, err, sizeof(err)), 0, "%s", err);
	p = plan_create(&c, 8, err, sizeof(err));
	cr_assert_not_null(p, "%s", err);
	cr_expect_eq(p->nvictims, 1);
	cr_expect_eq(p->victim[0].a, 0);
	cr_expect_eq(p->victim[0].b, 4);
	cr_expect_eq(p->npairs, 3);
	cr_expect_eq(p->pair[0].a, 1);
	cr_expect_eq(p->pair[2].b, 7);
	cr_expect_eq(p->level_pairs[1], 3);
	for (int i = 0; i < p->ncells; i++)
		cr_expect(p->cell[i].timed, "every cell is timed with victims (pingpong too)");
	plan_free(p);

	/* 4 aggressor pairs and a victim pair need 10 ranks */
	set(&c, (const char *const[]){ "pairs=4", "victims=1", NULL });
	cr_expect_null(plan_create(&c, 8, err, sizeof(err)));
	cr_expect(strstr(err, "command line: level of 4 pairs needs 8 ranks but only 6 ranks besides the victims' pairs"),
		  "%s", err);
	set(&c, (const char *const[]){ "pairs=1", "victims=4", NULL });
	cr_expect_null(plan_create(&c, 8, err, sizeof(err)));
	cr_expect(strstr(err, "command line: victims = 4 leaves no aggressor pair: pairing makes 4 pairs of 8 ranks"),
		  "%s", err);
	set(&c, (const char *const[]){ "victims=1", "hops=100", NULL });
	cr_expect_eq(config_validate(&c, err, sizeof(err)), -1);
	cr_expect(strstr(err, "command line: victims = 1: needs time-bounded samples"), "%s", err);
	set(&c, (const char *const[]){ "victims=1", "timed=no", NULL });
	cr_expect_eq(config_validate(&c, err, sizeof(err)), -1);
	cr_expect_neq(config_set_arg(&c, "victim_size=0", err, sizeof(err)), 0);
	cr_expect_neq(config_set_arg(&c, "victims=-1", err, sizeof(err)), 0);
	cr_expect_eq(config_set_arg(&c, "victim_size=1KiB", err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(c.victim_size, 1024);
}

/* A run of one cell with nv victim pairs and reps repetitions whose
 * samples' p50 and p99 are lognormal (sd sigma of the logs) around
 * 10 us / 30 us alone, ratio times that beside the aggressors and, when
 * cpu > 0, cpu times that in a CPU control round; with spell > 0 every
 * round of a repetition is slowed alike by a factor lognormal with sd
 * spell of the logs (a slow spell of a loaded machine). */
static struct sw_run *sim_run_cpu(int nv, int reps, double ratio, double cpu, double sigma, double spell)
{
	struct sw_config c;
	char err[512], kv[2][32];

	snprintf(kv[0], sizeof(kv[0]), "victims=%d", nv);
	snprintf(kv[1], sizeof(kv[1]), "repetitions=%d", reps);
	set(&c, (const char *const[]){ "pairs=1", "patterns=stream", "sizes=64KiB", kv[0], kv[1], NULL });
	struct sw_plan *p = plan_create(&c, 2 * nv + 2, err, sizeof(err));
	cr_assert_not_null(p, "%s", err);
	struct sw_run *r = run_create(&c, p, 2 * nv + 2);
	cr_assert_not_null(r);
	for (int rep = 0; rep < reps; rep++) {
		double slow = exp(spell * normal());

		for (int round = 0; round < (cpu > 0 ? 3 : 2); round++)
			for (int j = 0; j < nv; j++) {
				double f = (round == VICTIMS_ALONE ? 1.0 : round == VICTIMS_CPU ? cpu : ratio) * slow *
					   exp(sigma * normal());
				struct sw_victim v = { 0, rep, j, round == VICTIMS_ALONE, rep, rep + 0.1, 0.1, 5000,
						       10e-6 * f, 30e-6 * f * exp(0.5 * sigma * fabs(normal())),
						       round == VICTIMS_CPU };

				cr_assert_eq(run_add_victim(r, &v), 0);
			}
	}
	r->cell[0].reps = reps;
	return r;
}

static struct sw_run *sim_run(int nv, int reps, double ratio, double sigma)
{
	return sim_run_cpu(nv, reps, ratio, 0, sigma, 0);
}

/* The geometric mean over repetitions of round x's value / round base's
 * (every repetition has both; from the samples, not victims.c). */
static double geo_ratio(const struct sw_run *r, int x, int base)
{
	double lx[64] = { 0 }, lb[64] = { 0 }, s = 0;
	int nx[64] = { 0 }, nb[64] = { 0 }, reps = r->cell[0].reps;

	cr_assert_leq(reps, 64);
	for (size_t i = 0; i < r->nvictims; i++) {
		const struct sw_victim *v = &r->victim[i];
		int round = v->alone ? VICTIMS_ALONE : v->cpu ? VICTIMS_CPU : VICTIMS_LOADED;

		cr_assert_eq(r->plan->nvictims, 1, "one victim pair: its p50 is the repetition's value");
		if (round == x)
			lx[v->rep] += log(v->p50), nx[v->rep]++;
		if (round == base)
			lb[v->rep] += log(v->p50), nb[v->rep]++;
	}
	for (int rep = 0; rep < reps; rep++) {
		cr_assert(nx[rep] == 1 && nb[rep] == 1);
		s += lx[rep] - lb[rep];
	}
	return exp(s / reps);
}

/* Issue #28, known truth: a victim slowed +60% by shared CPUs alone (the
 * control round as slow as the loaded one) has a significant inflation
 * whose network part is not significant and covers 0; a victim slowed
 * +60% by CPUs and 3x more by the network has a significant network part
 * near +200%; parts multiply to the whole, from the printed medians; no
 * control round: no parts. */
Test(victims, cpu_control_splits_inflation_into_cpu_and_network)
{
	struct sw_victim_stats vs;
	struct sw_run *r = sim_run_cpu(1, 10, 1.6, 1.6, 0.05, 0);

	cr_assert_eq(victims_analyse(r, 0, &r->cfg, &vs), 0);
	cr_expect_eq(vs.ncpu, 10);
	cr_expect(vs.p50.significant, "total %+.1f%%", vs.p50.pct);
	cr_expect(vs.cpu.valid && vs.cpu.significant && fabs(vs.cpu.pct - 60) < 8, "cpu %+.1f%%", vs.cpu.pct);
	cr_expect(vs.net.valid && !vs.net.significant && vs.net.lo < 0 && vs.net.hi > 0,
		  "network %+.1f%% [%g, %g]", vs.net.pct, vs.net.lo, vs.net.hi);
	cr_expect_float_eq(vs.net.base, vs.cpu.level, 1e-15, "one control median on both sides");
	cr_expect_float_eq((1 + vs.cpu.pct / 100) * (1 + vs.net.pct / 100), geo_ratio(r, VICTIMS_LOADED, VICTIMS_ALONE),
			   1e-9, "the parts multiply to the geometric mean of loaded / alone");
	cr_expect_float_eq(1 + vs.net.pct / 100, geo_ratio(r, VICTIMS_LOADED, VICTIMS_CPU), 1e-9,
			   "the network part: loaded / control within each repetition");
	run_free(r);

	r = sim_run_cpu(1, 10, 4.8, 1.6, 0.05, 0);
	cr_assert_eq(victims_analyse(r, 0, &r->cfg, &vs), 0);
	cr_expect(vs.net.significant && vs.net.lo < 200 && vs.net.hi > 200, "network %+.1f%% [%g, %g]", vs.net.pct,
		  vs.net.lo, vs.net.hi);
	run_free(r);

	r = sim_run(1, 10, 1.6, 0.05);
	cr_assert_eq(victims_analyse(r, 0, &r->cfg, &vs), 0);
	cr_expect_eq(vs.ncpu, 0);
	cr_expect(vs.p50.valid && !vs.cpu.valid && !vs.net.valid);
	run_free(r);
}

/* Issue #28, known truth: slow spells of the machine (every round of a
 * repetition 0.5 sd of the logs slower or faster, 10x the noise within
 * it) hide a true network part of +30% from an unpaired test but not from
 * the paired one; with no network part, the paired CI still covers 0.
 * 200 simulated runs of 9 repetitions. */
Test(victims, network_part_is_paired_within_repetitions)
{
	int found = 0, covered = 0, unpaired = 0;

	for (int i = 0; i < 200; i++) {
		struct sw_victim_stats vs;
		struct sw_run *r = sim_run_cpu(1, 9, 1.6 * 1.3, 1.6, 0.05, 0.5);
		double *x, *b;
		size_t nx, nb;
		struct sw_change ch;

		cr_assert_eq(victims_analyse(r, 0, &r->cfg, &vs), 0);
		found += vs.net.significant && vs.net.lo < 30 && vs.net.hi > 30;
		cr_assert_eq(victims_rep_values(r, 0, VICTIMS_LOADED, false, &x, &nx), 0);
		cr_assert_eq(victims_rep_values(r, 0, VICTIMS_CPU, false, &b, &nb), 0);
		change_test(x, nx, b, nb, SW_METRIC_LATENCY, &r->cfg, &ch);
		unpaired += ch.significant;
		free(x);
		free(b);
		run_free(r);
		r = sim_run_cpu(1, 9, 1.6, 1.6, 0.05, 0.5);
		cr_assert_eq(victims_analyse(r, 0, &r->cfg, &vs), 0);
		covered += vs.net.lo < 0 && vs.net.hi > 0;
		run_free(r);
	}
	cr_expect_geq(found, 180, "paired: +30%% found, CI covering it, in %d of 200", found);
	cr_expect_leq(unpaired, 100, "unpaired: +30%% found in %d of 200 (the spells hide it)", unpaired);
	cr_expect_geq(covered, 180, "no network part: the CI covers 0 in %d of 200 (95%%: ~190)", covered);
}

/* Known truth: the estimate lands near it, the CI covers it, and a
 * 50% inflation is significant; with none, it is not. */
Test(victims, inflation_of_simulated_victims_with_known_truth)
{
	struct sw_victim_stats vs;
	struct sw_run *r = sim_run(2, 20, 1.5, 0.05);
	double *x;
	size_t n;

	cr_assert_eq(victims_rep_values(r, 0, true, false, &x, &n), 0);
	cr_expect_eq(n, 20);
	free(x);
	cr_assert_eq(victims_analyse(r, 0, &r->cfg, &vs), 0);
	cr_expect_eq(vs.nloaded, 20);
	cr_expect_eq(vs.nalone, 20);
	cr_expect(vs.p50.valid && vs.p50.significant, "p50: %+.1f%% p %g", vs.p50.pct, vs.p50.p);
	cr_expect(vs.p50.lo < 50 && vs.p50.hi > 50, "p50 CI [%g, %g] covers +50%%", vs.p50.lo, vs.p50.hi);
	cr_expect(fabs(vs.p50.pct - 50) < 5, "p50 %+.1f%%", vs.p50.pct);
	cr_expect(vs.p99.valid && vs.p99.significant && vs.p99.lo < 50 && vs.p99.hi > 50,
		  "p99 %+.1f%% [%g, %g]", vs.p99.pct, vs.p99.lo, vs.p99.hi);
	/* printed numbers recompute the change */
	cr_expect_float_eq(vs.p50.pct, (vs.p50.level / vs.p50.base - 1) * 100, 1e-9);
	run_free(r);

	/* too few repetitions to test: an estimate, never significant */
	r = sim_run(1, 3, 3.0, 0.05);
	cr_assert_eq(victims_analyse(r, 0, &r->cfg, &vs), 0);
	cr_expect(vs.p50.valid && !vs.p50.significant && isnan(vs.p50.p), "short: %g", vs.p50.p);
	run_free(r);

	/* a run without victims has nothing to say */
	r = sim_run(1, 5, 1.0, 0.05);
	r->plan->nvictims = 0;
	cr_assert_eq(victims_analyse(r, 0, &r->cfg, &vs), 0);
	cr_expect(!vs.p50.valid && !vs.p99.valid);
	r->plan->nvictims = 1;
	run_free(r);
}

/* Calibration against simulations: 400 runs of 10 repetitions with no
 * inflation are called significant about alpha of the time or less (the
 * min_effect floor only lowers it), and 400 with a true +20% get a CI that
 * covers +20% about 95% of the time. */
Test(victims, inflation_test_keeps_its_error_rates_in_simulation)
{
	int fp = 0, cover = 0;

	for (int i = 0; i < 400; i++) {
		struct sw_victim_stats vs;
		struct sw_run *r = sim_run(1, 10, 1.0, 0.1);

		cr_assert_eq(victims_analyse(r, 0, &r->cfg, &vs), 0);
		fp += vs.p50.significant;
		run_free(r);
		r = sim_run(1, 10, 1.2, 0.1);
		cr_assert_eq(victims_analyse(r, 0, &r->cfg, &vs), 0);
		cover += vs.p50.lo <= 20 && vs.p50.hi >= 20;
		run_free(r);
	}
	cr_expect_leq(fp, 32, "no change: %d of 400 significant (alpha 5%%: ~20)", fp);
	cr_expect(cover >= 360 && cover <= 396, "coverage %d of 400 (95%%: ~380)", cover);
}
