/*
 * map_fixture.h - a synthetic map run with a known truth, for the unit
 * tests of the map's files (test_mapout.c) and its publishing
 * (test_catalog.c): N hosts node0..node15, stream at the sizes of a
 * config list, 4 blocks, every link 100 MB/s with +-2% noise per block;
 * the links of host SLOW at the largest size, SLOW + 1 at every other,
 * at half that. Criterion asserts on failure.
 */
#ifndef MAP_FIXTURE_H
#define MAP_FIXTURE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include "config.h"
#include "plan.h"
#include "run.h"

enum { N = 16, BLOCKS = 4, SLOW = 5 };

/* A complete map run of N hosts node0..node15, stream at sizes (a config
 * list): every link 100 MB/s with +-2% noise per block, the links of
 * host SLOW at the largest size, SLOW + 1 at the other, at half that. */
static struct sw_run *__attribute__((unused)) slow_host_run_at(const char *sizes)
{
	char size_kv[64];
	const char *kv[] = { "schedule=map", "patterns=stream", size_kv, "repetitions=4", "label=map", NULL };
	struct sw_config c;
	struct sw_plan *p;
	struct sw_run *r;
	char err[512];
	unsigned long long seed = 12345;

	snprintf(size_kv, sizeof(size_kv), "sizes=%s", sizes);
	config_defaults(&c);
	for (const char *const *k = kv; *k; k++)
		cr_assert_eq(config_set_arg(&c, *k, err, sizeof(err)), 0, "%s: %s", *k, err);
	p = plan_create(&c, N, err, sizeof(err));
	cr_assert_not_null(p, "%s", err);
	r = run_create(&c, p, N);
	cr_assert_not_null(r);
	for (int i = 0; i < N; i++)
		snprintf(r->host[i], SW_HOST_MAX, "node%d", i);
	snprintf(r->name, sizeof(r->name), "map-test");
	for (int ci = 0; ci < p->ncells; ci++) {
		for (int b = 0; b < BLOCKS; b++)
			for (int i = 0; i < p->level_pairs[p->cell[ci].level]; i++) {
				struct sw_pair q = plan_pair(p, ci, i);
				int slow = SLOW + (p->cell[ci].size != c.sizes[c.nsizes - 1]);
				double bw = 100e6 * (q.a == slow || q.b == slow ? 0.5 : 1), t;

				seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
				bw *= 0.98 + 0.04 * (double)(seed >> 11) / 9007199254740992.0;
				t = (double)p->cell[ci].size / bw;
				struct sw_sample s = { .cell = ci, .rep = b, .pair = i, .t_start = b, .t_end = b + t,
						       .seconds = t, .hops = 1 };
				cr_assert_eq(run_add_sample(r, &s), 0);
			}
		r->cell[ci].reps = BLOCKS;
		r->cell[ci].stop = SW_STOP_FIXED;
	}
	r->complete = true;
	return r;
}

#endif
