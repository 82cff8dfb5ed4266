/* The health verdict of a fabric map against baseline maps (mapjudge.h)
 * on simulated maps with a known truth (blame_sim.h: 16 hosts in 4
 * groups given by the topology, 6 blocks), each map with a run-level
 * speed of its own (2% sd, the run-to-run spread) on top of the sim's
 * noise. Healthy pairs page in at most 1%; a slowed host is named alone
 * (its partners and the uplinks not); a slowed uplink is named with no
 * host. The defaults of the config: warn 10%, crit 25% drop, alpha 0.05,
 * run_to_run 5%. Measured: 0 of 1000 healthy pairs paged with 1
 * baseline map, 0 of 1000 with 3; the slowed host and uplink named in
 * 100 of 100 each, alone. With 3 baseline maps the night-to-night spread
 * pooled over the 21 elements (health_grade) names a 40% slower host in
 * 100 of 100 (before the pooling, on 2 df under Holm, it stayed OK). */
#include <criterion/criterion.h>
#include "blame_sim.h"
#include "config.h"
#include "mapjudge.h"
#include "pattern.h"
#include "stats.h"

#define MAXB 4   /* baseline maps */

static struct sim sb[MAXB], sr;
static struct blame_input ib[MAXB], ir;
static struct blame_result rb[MAXB], rr;
static double run_speed = 1;   /* of the judged map: 0.6 = every link 40% slower */

/* Draw one map of s with a run-level speed (sd run_sd), and its
 * statistics. */
static void draw(struct sim *s, struct blame_input *in, struct blame_result *r, double run_sd, double speed)
{
	char err[256] = "";

	cr_assert_eq(sim_run_map(s, in, r, run_sd, speed, true, err, sizeof(err)), 0, "blame_run: %s", err);
}

static void init(int nb)
{
	for (int j = 0; j < MAXB; j++)
		sim_init(&sb[j], 16, 4, nb);
	sim_init(&sr, 16, 4, nb);
}

/* k healthy baseline maps and the judged map (sr as set up), judged:
 * the verdict (caller frees). */
static struct health_verdict *judge(int k)
{
	struct mapjudge_map base[MAXB], run;
	struct sw_config cfg;
	struct health_verdict *v;
	char err[256] = "";

	config_defaults(&cfg);
	for (int j = 0; j < k; j++) {
		draw(&sb[j], &ib[j], &rb[j], 0.02, 1);
		base[j] = (struct mapjudge_map){ &ib[j], &rb[j] };
	}
	draw(&sr, &ir, &rr, 0.02, run_speed);
	run = (struct mapjudge_map){ &ir, &rr };
	v = health_verdict_new(NULL, (size_t)mapjudge_elements(&rb[0]));
	cr_assert_not_null(v);
	v->warn_drop = cfg.warn_drop;
	v->crit_drop = cfg.crit_drop;
	v->warn_inflation = cfg.warn_inflation;
	v->crit_inflation = cfg.crit_inflation;
	v->alpha = cfg.alpha;
	v->confidence = cfg.confidence;
	v->base_runs = k;
	snprintf(v->baseline, sizeof(v->baseline), "sim");
	cr_assert_eq(mapjudge_add(v, &cfg, pattern_find(sr.metric == BLAME_LATENCY ? "pingpong" : "stream"), 65536, &run,
				  base, k, err, sizeof(err)), 0, "mapjudge_add: %s", err);
	cr_assert_eq(mapjudge_finish(v), 0);
	for (int j = 0; j < k; j++)
		blame_free(&rb[j]);
	blame_free(&rr);
	return v;
}

static bool pages(const struct health_cell *hc)
{
	return hc->status == SW_NAGIOS_WARNING || hc->status == SW_NAGIOS_CRITICAL;
}

/* Healthy: 1000 pairs of maps with 1 baseline map, 1000 with 4 (the
 * night-to-night rule): a page in at most 1% of each. */
Test(mapjudge, healthy_maps_page_rarely)
{
	int ks[2] = { 1, 3 };

	for (int t = 0; t < 2; t++) {
		int paged = 0, compared = 0;

		for (int s = 0; s < 1000; s++) {
			struct health_verdict *v;

			init(6);
			v = judge(ks[t]);
			cr_assert_eq(v->ncells, 1 + 16 + 4);
			compared += v->ncompared == v->ncells;
			paged += v->status == SW_NAGIOS_WARNING || v->status == SW_NAGIOS_CRITICAL;
			health_verdict_free(v);
		}
		fprintf(stderr, "mapjudge healthy, %d baseline map%s: %d of 1000 paged\n", ks[t], ks[t] == 1 ? "" : "s",
			paged);
		cr_assert_eq(compared, 1000, "every element compared");
		cr_assert_leq(paged, 10, "%d of 1000 healthy pairs paged (%d baseline maps)", paged, ks[t]);
	}
}

/* One host's port 50% slower (1 baseline map; 40% with 3): that host
 * pages, no other host and no uplink does, in at least 95 of 100. */
Test(mapjudge, slow_host_named_alone)
{
	int ks[2] = { 1, 3 };
	double f[2] = { 0.5, 0.6 };

	for (int t = 0; t < 2; t++) {
		int named = 0, alone = 0;

		for (int s = 0; s < 100; s++) {
			struct health_verdict *v;
			int other = 0;

			init(6);
			sr.slow_host = 6;
			sr.slow_factor = f[t];
			v = judge(ks[t]);
			for (int i = 0; i < v->ncells; i++) {
				const struct health_cell *hc = &v->cell[i];

				if (hc->elem == HEALTH_HOST && !strcmp(hc->elem_name, "node07"))
					named += pages(hc);
				else if (hc->elem != HEALTH_FABRIC)
					other += pages(hc);
			}
			alone += other == 0;
			if (s == 0)
				cr_assert(strstr(v->summary, "host node07 (stream 64KiB): bandwidth drop") != NULL, "%s",
					  v->summary);
			health_verdict_free(v);
		}
		fprintf(stderr, "mapjudge slow host (%.0f%% slower, %d baseline maps): named in %d of 100, alone in %d\n",
			(1 - f[t]) * 100, ks[t], named, alone);
		cr_assert_geq(named, 95, "slow host named in %d of 100", named);
		cr_assert_geq(alone, 95, "another host or uplink named in %d of 100", 100 - alone);
	}
}

/* One group's uplink 50% slower (1 baseline map; 40% with 4): that
 * uplink pages and no host does, in at least 95 of 100. */
Test(mapjudge, slow_uplink_named_no_host)
{
	int ks[2] = { 1, 4 };
	double f[2] = { 0.5, 0.6 };

	for (int t = 0; t < 2; t++) {
		int named = 0, nohost = 0;

		for (int s = 0; s < 100; s++) {
			struct health_verdict *v;
			int hosts = 0;

			init(6);
			sr.slow_uplink = 2;
			sr.uplink_factor = f[t];
			v = judge(ks[t]);
			for (int i = 0; i < v->ncells; i++) {
				const struct health_cell *hc = &v->cell[i];

				if (hc->elem == HEALTH_UPLINK && !strcmp(hc->elem_name, "g3"))
					named += pages(hc);
				else if (hc->elem == HEALTH_HOST)
					hosts += pages(hc);
			}
			nohost += hosts == 0;
			if (s == 0)
				cr_assert(strstr(v->summary, "uplink of g3 (stream 64KiB)") != NULL, "%s", v->summary);
			health_verdict_free(v);
		}
		fprintf(stderr, "mapjudge slow uplink (%.0f%% slower, %d baseline maps): named in %d of 100, no host in %d\n",
			(1 - f[t]) * 100, ks[t], named, nohost);
		cr_assert_geq(named, 95, "slow uplink named in %d of 100", named);
		cr_assert_geq(nohost, 95, "a host named in %d of 100", 100 - nohost);
	}
}

/* Latency (pingpong): one host's port twice as slow (its links' latency
 * x2), 1 baseline map: named alone, CRITICAL (inflation beyond 50% plus
 * the allowance), in at least 95 of 100 (measured: 100). */
Test(mapjudge, slow_host_latency)
{
	int named = 0, alone = 0;

	for (int s = 0; s < 100; s++) {
		struct health_verdict *v;
		int other = 0;

		init(6);
		for (int j = 0; j < MAXB; j++)
			sb[j].metric = BLAME_LATENCY;
		sr.metric = BLAME_LATENCY;
		sr.slow_host = 3;
		sr.slow_factor = 0.5;
		v = judge(1);
		for (int i = 0; i < v->ncells; i++) {
			const struct health_cell *hc = &v->cell[i];

			if (hc->elem == HEALTH_HOST && !strcmp(hc->elem_name, "node04"))
				named += hc->status == SW_NAGIOS_CRITICAL && hc->change > 50;
			else if (hc->elem != HEALTH_FABRIC)
				other += pages(hc);
		}
		alone += other == 0;
		if (s == 0)
			cr_assert(strstr(v->summary, "host node04 (pingpong 64KiB): latency inflation") != NULL, "%s",
				  v->summary);
		health_verdict_free(v);
	}
	fprintf(stderr, "mapjudge slow host, latency x2, 1 baseline map: CRITICAL in %d of 100, alone in %d\n", named,
		alone);
	cr_assert_geq(named, 95, "slow host CRITICAL in %d of 100", named);
	cr_assert_geq(alone, 95, "another host or uplink named in %d of 100", 100 - alone);
}

/* 4 blocks (as tests/data/maps/slowhost-*): no element can page (5
 * blocks a side for a CI), but the map's own claims new since the
 * baseline do. Healthy: at most 1% of 1000 pages (measured: 0); a host
 * 50% slower: CRITICAL with that host the only claim, an uplink 50%
 * slower: with that uplink the only claim, in at least 95 of 100 each
 * (measured: 100, 100). */
Test(mapjudge, few_blocks_claims_page)
{
	int paged = 0, host = 0, uplink = 0;

	for (int s = 0; s < 1000; s++) {
		struct health_verdict *v;

		init(4);
		v = judge(1);
		cr_assert_eq(v->ncritical + v->nwarning, 0, "no element pages without a CI");
		paged += v->status == SW_NAGIOS_CRITICAL || v->status == SW_NAGIOS_WARNING;
		health_verdict_free(v);
	}
	for (int s = 0; s < 200; s++) {
		struct health_verdict *v;

		init(4);
		if (s < 100) {
			sr.slow_host = 6;
			sr.slow_factor = 0.5;
		} else {
			sr.slow_uplink = 2;
			sr.uplink_factor = 0.5;
		}
		v = judge(1);
		if (v->status == SW_NAGIOS_CRITICAL && v->nsuspects == 1 && !v->suspect[0].in_baseline) {
			host += s < 100 && !strcmp(v->suspect[0].host, "host node07");
			uplink += s >= 100 && !strcmp(v->suspect[0].host, "uplink of g3");
		}
		if (s == 0)
			cr_assert(strstr(v->summary, "host node07 (stream 64KiB): bandwidth drop") &&
				  strstr(v->summary, "map claim host node07, new since the baseline"), "%s", v->summary);
		health_verdict_free(v);
	}
	fprintf(stderr, "mapjudge 4 blocks: %d of 1000 healthy paged; slow host the one claim in %d of 100, slow uplink "
		"in %d of 100\n", paged, host, uplink);
	cr_assert_leq(paged, 10, "%d of 1000 healthy pairs paged", paged);
	cr_assert_geq(host, 95, "slow host the one claim in %d of 100", host);
	cr_assert_geq(uplink, 95, "slow uplink the one claim in %d of 100", uplink);
}

/* The whole fabric 40% slower (every link), 1 baseline map: the fabric
 * pages, no host and no uplink does, no claim, in at least 95 of 100
 * (measured: 100). */
Test(mapjudge, slow_fabric_no_host)
{
	int named = 0, alone = 0;

	for (int s = 0; s < 100; s++) {
		struct health_verdict *v;
		int other = 0;

		init(6);
		run_speed = 0.6;
		v = judge(1);
		run_speed = 1;
		for (int i = 0; i < v->ncells; i++) {
			const struct health_cell *hc = &v->cell[i];

			if (hc->elem == HEALTH_FABRIC)
				named += pages(hc);
			else
				other += pages(hc);
		}
		alone += other == 0 && v->nsuspects == 0;
		health_verdict_free(v);
	}
	fprintf(stderr, "mapjudge fabric 40%% slower, 1 baseline map: fabric paged in %d of 100, alone in %d\n", named,
		alone);
	cr_assert_geq(named, 95, "fabric paged in %d of 100", named);
	cr_assert_geq(alone, 95, "a host, uplink or claim named in %d of 100", 100 - alone);
}

/* A map of other hosts is no baseline: an error, nothing added. */
Test(mapjudge, other_hosts_refused)
{
	struct mapjudge_map base, run;
	struct sw_config cfg;
	struct health_verdict *v;
	char err[256] = "";

	config_defaults(&cfg);
	init(6);
	draw(&sb[0], &ib[0], &rb[0], 0.02, 1);
	sim_init(&sr, 14, 2, 6);
	draw(&sr, &ir, &rr, 0.02, 1);
	base = (struct mapjudge_map){ &ib[0], &rb[0] };
	run = (struct mapjudge_map){ &ir, &rr };
	v = health_verdict_new(NULL, (size_t)mapjudge_elements(&rb[0]));
	cr_assert_eq(mapjudge_add(v, &cfg, pattern_find("stream"), 65536, &run, &base, 1, err, sizeof(err)), -1);
	cr_assert(strstr(err, "other hosts") != NULL, "%s", err);
	health_verdict_free(v);
	blame_free(&rb[0]);
	blame_free(&rr);
}
