/* The map's schedule: the circle method's rounds (every pair of ranks once
 * a pass, each round a matching), steps, the seeded subset, the plan. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include "config.h"
#include "fixture.h"
#include "mapdata.h"
#include "mapsched.h"
#include "pattern.h"
#include "plan.h"
#include "results.h"

static struct sw_config map_cfg(const char *const *kv)
{
	struct sw_config c;
	char err[512];

	config_defaults(&c);
	cr_assert_eq(config_set_arg(&c, "schedule=map", err, sizeof(err)), 0, "%s", err);
	for (; kv && *kv; kv++)
		cr_assert_eq(config_set_arg(&c, *kv, err, sizeof(err)), 0, "%s: %s", *kv, err);
	return c;
}

/* For n ranks: n(n-1)/2 pairs in all, each unordered pair in exactly one
 * round; every round floor(n/2) disjoint pairs (all ranks when n is even,
 * all but one when odd); partner and round_of agree with the pairs. */
static void check_pass(int n)
{
	int pass = mapsched_pass(n), per = mapsched_round_size(n);
	unsigned char *met = calloc((size_t)n * (size_t)n, 1);
	int *in = malloc((size_t)n * sizeof(*in));
	long total = 0;

	cr_assert_eq(pass, n % 2 ? n : n - 1, "n %d", n);
	cr_assert_eq(per, n / 2);
	for (int r = 0; r < pass; r++) {
		memset(in, 0, (size_t)n * sizeof(*in));
		for (int i = 0; i < per; i++) {
			struct sw_pair q = mapsched_pair(n, r, i);

			cr_assert(q.a >= 0 && q.a < q.b && q.b < n, "n %d round %d pair %d: %d-%d", n, r, i, q.a, q.b);
			cr_assert_eq(in[q.a]++ + in[q.b]++, 0, "n %d round %d: rank in two pairs", n, r);
			cr_assert_eq(met[q.a * n + q.b]++, 0, "n %d: pair %d-%d twice", n, q.a, q.b);
			cr_assert_eq(mapsched_partner(n, r, q.a), q.b);
			cr_assert_eq(mapsched_partner(n, r, q.b), q.a);
			cr_assert_eq(mapsched_round_of(n, q.a, q.b), r);
			cr_assert_eq(mapsched_round_of(n, q.b, q.a), r);
			total++;
		}
		int idle = 0;
		for (int x = 0; x < n; x++)
			if (!in[x]) {
				idle++;
				cr_assert_eq(mapsched_partner(n, r, x), -1, "n %d round %d: rank %d idle", n, r, x);
			}
		cr_assert_eq(idle, n % 2, "n %d round %d: %d ranks idle", n, r, idle);
	}
	cr_assert_eq(total, (long)n * (n - 1) / 2, "n %d: %ld pairs", n, total);
	free(met);
	free(in);
}

Test(mapsched, every_pair_once_and_every_round_a_matching)
{
	for (int n = 2; n <= 130; n++)
		check_pass(n);
	check_pass(511);
	check_pass(512);
	check_pass(1000);
}

/* Steps of K pairs: a round's steps hold its pairs, each once, none
 * larger than K, ceil((n/2) / K) of them, their sizes within one. */
Test(mapsched, steps_cut_rounds_into_concurrency)
{
	const int n = 22, rounds[] = { 3, 0, 17 }, ks[] = { 1, 3, 4, 11, 0, 50 };
	char err[256];

	for (size_t t = 0; t < sizeof(ks) / sizeof(ks[0]); t++) {
		struct mapsched *m = mapsched_create(n, rounds, 3, ks[t], err, sizeof(err));
		int k = ks[t] == 0 || ks[t] > 11 ? 11 : ks[t];

		cr_assert_not_null(m, "%s", err);
		cr_assert_eq(m->conc, k);
		cr_assert_eq(m->steps_per_round, (11 + k - 1) / k);
		cr_assert_eq(m->nsteps, 3 * m->steps_per_round);
		cr_assert_eq(m->round[0], 0);
		cr_assert_eq(m->round[2], 17);
		for (int r = 0; r < 3; r++) {
			int seen = 0, lo = 11, hi = 0;

			for (int s = r * m->steps_per_round; s < (r + 1) * m->steps_per_round; s++) {
				cr_assert_eq(mapsched_step_round(m, s), m->round[r]);
				cr_assert(mapsched_step_size(m, s) >= 1 && mapsched_step_size(m, s) <= k);
				lo = mapsched_step_size(m, s) < lo ? mapsched_step_size(m, s) : lo;
				hi = mapsched_step_size(m, s) > hi ? mapsched_step_size(m, s) : hi;
				for (int i = 0; i < mapsched_step_size(m, s); i++) {
					struct sw_pair q = mapsched_step_pair(m, s, i), w = mapsched_pair(n, m->round[r], seen++);

					cr_assert(q.a == w.a && q.b == w.b);
				}
			}
			cr_assert_eq(seen, 11, "K %d round %d: %d pairs in its steps", k, r, seen);
			cr_assert_leq(hi - lo, 1, "K %d: steps of %d to %d pairs", k, lo, hi);
		}
		mapsched_free(m);
	}
}

Test(mapsched, bad_rounds_refused)
{
	const int twice[] = { 1, 1 }, out[] = { 9 };
	char err[256];

	cr_assert_null(mapsched_create(8, twice, 2, 0, err, sizeof(err)));
	cr_assert_null(mapsched_create(8, out, 1, 0, err, sizeof(err)));   /* 8 ranks: rounds 0..6 */
	cr_assert(strstr(err, "round 9"), "%s", err);
	cr_assert_null(mapsched_create(1, out, 1, 0, err, sizeof(err)));
}

/* map_rounds = R: R distinct rounds of the pass, the same for one seed,
 * another set for another seed; the cover is R / pass. */
Test(mapsched, seeded_subset_of_rounds)
{
	const char *kv7[] = { "map_rounds=10", "seed=7", NULL }, *kv8[] = { "map_rounds=10", "seed=8", NULL };
	struct sw_config c7 = map_cfg(kv7), c8 = map_cfg(kv8);
	char err[512];
	struct sw_plan *a = plan_create(&c7, 64, err, sizeof(err)), *b = plan_create(&c7, 64, err, sizeof(err));
	struct sw_plan *d = plan_create(&c8, 64, err, sizeof(err));

	cr_assert(a && b && d, "%s", err);
	cr_assert_eq(a->map->nrounds, 10);
	cr_assert_float_eq(mapsched_cover(a->map), 10.0 / 63, 1e-12);
	cr_assert_eq(memcmp(a->map->round, b->map->round, 10 * sizeof(int)), 0);
	cr_assert_neq(memcmp(a->map->round, d->map->round, 10 * sizeof(int)), 0);
	for (int i = 1; i < 10; i++)
		cr_assert_lt(a->map->round[i - 1], a->map->round[i]);
	plan_free(a);
	plan_free(b);
	plan_free(d);
}

/* A map's plan: a level per step, the step's pairs through plan_pair,
 * cells patterns x sizes at each; the full pass covers every pair. */
Test(mapsched, plan_levels_are_steps)
{
	const char *kv[] = { "patterns=stream,pingpong", "sizes=8,64KiB", "map_concurrency=3", NULL };
	struct sw_config c = map_cfg(kv);
	char err[512];
	struct sw_plan *p = plan_create(&c, 10, err, sizeof(err));
	unsigned char met[100] = { 0 };

	cr_assert_not_null(p, "%s", err);
	cr_assert_eq(p->nlevels, 9 * 2);        /* 9 rounds of 5 pairs, steps of 3 + 2 */
	cr_assert_eq(p->ncells, 18 * 4);
	cr_assert_eq(p->npairs, 3);
	for (int ci = 0; ci < p->ncells; ci++) {
		int l = p->cell[ci].level;

		cr_assert_eq(p->level_pairs[l], l % 2 ? 2 : 3);
		for (int i = 0; i < p->level_pairs[l]; i++) {
			struct sw_pair q = plan_pair(p, ci, i);

			if (ci % 4 == 0)
				met[q.a * 10 + q.b]++;
		}
	}
	for (int x = 0; x < 10; x++)
		for (int y = x + 1; y < 10; y++)
			cr_assert_eq(met[x * 10 + y], 1, "pair %d-%d met %d times", x, y, met[x * 10 + y]);
	plan_free(p);
}

Test(mapsched, map_config_errors_name_the_key)
{
	const char *rounds[] = { "map_rounds=8", NULL }, *vic[] = { "victims=1", NULL };
	const char *inc[] = { "patterns=incast", NULL };
	struct sw_config c = map_cfg(rounds);
	char err[512];

	cr_assert_null(plan_create(&c, 8, err, sizeof(err)));
	cr_assert(strstr(err, "command line: map_rounds = 8") && strstr(err, "7 rounds"), "%s", err);
	c = map_cfg(vic);
	cr_assert_neq(config_validate(&c, err, sizeof(err)), 0);
	cr_assert(strstr(err, "victims"), "%s", err);
	c = map_cfg(inc);
	cr_assert_neq(config_validate(&c, err, sizeof(err)), 0);
	cr_assert(strstr(err, "incast"), "%s", err);
	config_defaults(&c);
	cr_assert_neq(config_set_arg(&c, "schedule=mesh", err, sizeof(err)), 0);
	cr_assert_neq(config_set_arg(&c, "map_concurrency=0", err, sizeof(err)), 0);
	cr_assert_eq(config_set_arg(&c, "map_concurrency=all", err, sizeof(err)), 0, "%s", err);
}

/* plan -n 4096: the full pass (4095 rounds of 2048 pairs) is planned and
 * printed in well under a second: nothing is stored per pair. */
Test(mapsched, plan_of_4096_is_fast)
{
	const char *kv[] = { "patterns=stream,pingpong", "sizes=64KiB", NULL };
	struct sw_config c = map_cfg(kv);
	char err[512];
	clock_t t0 = clock();
	struct sw_plan *p = plan_create(&c, 4096, err, sizeof(err));
	FILE *null = fopen("/dev/null", "w");

	cr_assert_not_null(p, "%s", err);
	cr_assert_not_null(null);
	cr_assert_eq(p->nlevels, 4095);
	cr_assert_eq(p->level_pairs[4094], 2048);
	plan_print(null, p, &c);
	fclose(null);
	plan_free(p);
	cr_assert_lt((double)(clock() - t0) / CLOCKS_PER_SEC, 1.0);
}

/* A map run's samples as blame's input: every pair of the pass once, its
 * round the one the circle method gives, its value per block the sample's
 * bandwidth (bytes / seconds); written and loaded back through the
 * results folder first. */
Test(mapsched, run_samples_as_blame_input)
{
	const char *kv[] = { "patterns=stream", "sizes=1MiB", "repetitions=2", "label=map", NULL };
	struct sw_config c = map_cfg(kv);
	char err[512], dir[FIXTURE_DIR_MAX + 32], path[FIXTURE_DIR_MAX + 64];
	struct sw_plan *p = plan_create(&c, 6, err, sizeof(err));
	struct sw_run *r, *back;
	struct mapdata d;

	cr_assert_not_null(p, "%s", err);
	r = run_create(&c, p, 6);
	cr_assert_not_null(r);
	for (int i = 0; i < 6; i++)
		snprintf(r->host[i], SW_HOST_MAX, "node%d", i);
	snprintf(r->name, sizeof(r->name), "map-test");
	for (int ci = 0; ci < p->ncells; ci++) {
		for (int b = 0; b < 2; b++)
			for (int i = 0; i < p->level_pairs[p->cell[ci].level]; i++) {
				struct sw_pair q = plan_pair(p, ci, i);
				/* 1 MiB in (a + b + 1) ms */
				double t = (q.a + q.b + 1) * 1e-3;
				struct sw_sample s = { .cell = ci, .rep = b, .pair = i, .t_start = b, .t_end = b + t,
						       .seconds = t, .hops = 1 };

				s.seconds *= b ? 2 : 1;   /* block 1 at half the speed */
				s.t_end = s.t_start + s.seconds;
				cr_assert_eq(run_add_sample(r, &s), 0);
			}
		r->cell[ci].reps = 2;
		r->cell[ci].stop = SW_STOP_FIXED;
	}
	r->complete = true;
	fixture_mkdtemp(dir, sizeof(dir), "map");
	snprintf(path, sizeof(path), "%s/run", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	cr_assert_eq(results_write(path, r, NULL, "", err, sizeof(err)), 0, "%s", err);
	back = results_load(path, err, sizeof(err));
	cr_assert_not_null(back, "%s", err);
	cr_assert_not_null(back->plan->map);
	cr_assert_eq(mapdata_fill(back, pattern_find("stream"), 1 << 20, &d, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(d.in.nhost, 6);
	cr_assert_str_eq(d.in.host[3], "node3");
	cr_assert_eq(d.in.npair, 15);
	cr_assert_eq(d.in.nblock, 2);
	cr_assert_eq(d.in.metric, BLAME_BANDWIDTH);
	for (size_t k = 0; k < d.in.npair; k++) {
		const struct blame_pair *q = &d.in.pair[k];
		double want = (double)(1 << 20) / ((q->a + q->b + 1) * 1e-3);

		cr_assert_eq(q->round, mapsched_round_of(6, q->a, q->b));
		cr_assert_float_eq(q->v[0], want, want * 1e-9);
		cr_assert_float_eq(q->v[1], want / 2, want * 1e-9);
	}
	mapdata_free(&d);
	cr_assert_neq(mapdata_fill(back, pattern_find("pingpong"), 1 << 20, &d, err, sizeof(err)), 0);
	run_free(back);
	run_free(r);
	cr_assert_eq(fixture_rmtree(dir), 0);
}
