/* The fabric map's blame (blame.h) on simulated maps with a known truth
 * (blame_sim.h): healthy maps flag nothing, a slow host is named alone,
 * a slow uplink with no host, an undeclared trunk's two groups are
 * inferred and its capacity measured; loaded against unloaded tells
 * congestion from a fault; bad input is refused. */
#include <criterion/criterion.h>
#include "blame_sim.h"

static struct sim s;

/* How many claims of each kind r makes. */
static int count(const struct blame_result *r, int kind)
{
	int c = 0;

	for (int i = 0; i < r->nclaim; i++)
		c += r->claim[i].kind == kind;
	return c;
}

static void run(const struct sim *sm, bool topo, struct blame_result *r)
{
	struct blame_input in = sim_input(sm, topo);
	char err[256] = "";

	cr_assert_eq(blame_run(&in, r, err, sizeof(err)), 0, "blame_run: %s", err);
}

/* Healthy maps at realistic noise (host speeds 1%, block drift 5%, round
 * drift 2%, sample noise 3%, 1% hiccups): a map with any claim is a
 * false flag. 1000 maps of 16 hosts as 4 leaves of 4 (given), 1000
 * with no topology (inferred), 100 of 48 hosts inferred; at most 1% each. */
Test(blame, healthy_maps_flag_nothing)
{
	struct { int n, ng, maps; bool topo; } set[] = { { 16, 4, 1000, true }, { 16, 1, 1000, false },
							 { 48, 1, 100, false } };

	for (size_t k = 0; k < sizeof(set) / sizeof(set[0]); k++) {
		int flagged = 0, groups = 0;

		for (int t = 0; t < set[k].maps; t++) {
			struct blame_result r;

			sim_init(&s, set[k].n, set[k].ng, 4);
			sim_draw(&s);
			run(&s, set[k].topo, &r);
			flagged += r.nclaim > 0;
			groups += r.ngroup > set[k].ng;
			blame_free(&r);
		}
		cr_log_info("healthy %d hosts, %s: %d of %d maps flag something, %d infer groups", set[k].n,
			    set[k].topo ? "topology given" : "inferred", flagged, set[k].maps, groups);
		cr_expect_leq(flagged * 100, set[k].maps, "%d hosts %s: %d of %d healthy maps flag", set[k].n,
			      set[k].topo ? "given" : "inferred", flagged, set[k].maps);
		cr_expect_leq(groups * 100, set[k].maps, "%d hosts: %d of %d healthy maps infer groups", set[k].n,
			      groups, set[k].maps);
	}
}

/* Healthy maps at twice the noise (block drift 10%, round drift 5%,
 * sample noise 8%, 3% hiccups) and 3 blocks: still at most 1% flag. */
Test(blame, noisy_healthy_maps_flag_rarely)
{
	int flagged = 0;

	for (int t = 0; t < 500; t++) {
		struct blame_result r;

		sim_init(&s, 16, 4, 3);
		s.block_sd = 0.10;
		s.round_sd = 0.05;
		s.noise_sd = 0.08;
		s.hiccup = 0.03;
		sim_draw(&s);
		run(&s, t % 2, &r);
		flagged += r.nclaim > 0;
		blame_free(&r);
	}
	cr_log_info("noisy healthy 16 hosts: %d of 500 maps flag something", flagged);
	cr_expect_leq(flagged * 100, 500, "%d of 500 noisy healthy maps flag", flagged);
}

/* A spine that every crossing link finds 35% slower (4 leaves of 4,
 * oversubscribed under load): boundaries flagged, but no uplink (none is
 * slower than the others) and no host. */
Test(blame, congested_spine_blames_no_uplink)
{
	int right = 0;

	for (int t = 0; t < 100; t++) {
		struct blame_result r;

		sim_init(&s, 16, 4, 4);
		s.congest = 0.65;
		sim_draw(&s);
		run(&s, true, &r);
		right += count(&r, BLAME_BOUNDARY) == 6 && count(&r, BLAME_UPLINK) == 0 && count(&r, BLAME_HOST) == 0;
		blame_free(&r);
	}
	cr_log_info("congested spine: 6 boundaries, no uplink, no host in %d of 100 maps", right);
	cr_expect_geq(right, 95, "%d of 100", right);
}

/* One link 50% slower with 6 blocks, both hosts healthy otherwise: the
 * link named alone in at least 90 of 100 maps. */
Test(blame, slow_link_named_alone)
{
	int alone = 0;

	for (int t = 0; t < 100; t++) {
		struct blame_result r;

		sim_init(&s, 16, 1, 6);
		s.slow_a = 2;
		s.slow_b = 11;
		s.link_factor = 0.5;
		sim_draw(&s);
		run(&s, false, &r);
		alone += r.nclaim == 1 && r.claim[0].kind == BLAME_LINK &&
			 r.link[r.claim[0].who].a == 2 && r.link[r.claim[0].who].b == 11;
		blame_free(&r);
	}
	cr_log_info("slow link: named alone in %d of 100 maps", alone);
	cr_expect_geq(alone, 90, "%d of 100", alone);
}

/* One host 30% slower (bandwidth) or 40% slower (latency): named alone in
 * at least 95 of 100 maps, and its links' cause is that host. */
Test(blame, slow_host_named_alone)
{
	for (int metric = BLAME_BANDWIDTH; metric <= BLAME_LATENCY; metric++)
		for (int topo = 0; topo < 2; topo++) {
			int alone = 0;

			for (int t = 0; t < 100; t++) {
				struct blame_result r;
				const struct blame_link *l;

				sim_init(&s, 16, topo ? 4 : 1, 4);
				s.metric = metric;
				s.slow_host = 5;
				s.slow_factor = metric == BLAME_LATENCY ? 1 / 1.4 : 0.7;
				sim_draw(&s);
				run(&s, topo, &r);
				if (r.nclaim == 1 && r.claim[0].kind == BLAME_HOST && r.claim[0].who == 5)
					alone++;
				l = blame_link_of(&r, 5, 9);
				cr_assert(l);
				if (r.host[5].flagged)
					cr_expect(l->cause == BLAME_HOST && l->by == 5, "the link's cause is the host");
				cr_expect(!r.host[9].flagged, "a partner is cleared");
				blame_free(&r);
			}
			cr_log_info("slow host (%s, %s): named alone in %d of 100 maps",
				    metric == BLAME_LATENCY ? "latency" : "bandwidth", topo ? "given" : "inferred", alone);
			cr_expect_geq(alone, 95, "slow host named alone in %d of 100 maps", alone);
		}
}

/* The uplink of one leaf of 4 (4 hosts each) 40% slow: the uplink named,
 * no host, in at least 95 of 100 maps; the crossing links' cause is the
 * uplink. */
Test(blame, slow_uplink_named_no_host)
{
	int named = 0;

	for (int t = 0; t < 100; t++) {
		struct blame_result r;
		const struct blame_link *l;

		sim_init(&s, 16, 4, 4);
		s.slow_uplink = 2;
		s.uplink_factor = 0.6;
		sim_draw(&s);
		run(&s, true, &r);
		if (count(&r, BLAME_UPLINK) == 1 && r.group[2].flagged && count(&r, BLAME_HOST) == 0 &&
		    count(&r, BLAME_LINK) == 0)
			named++;
		l = blame_link_of(&r, 8, 0);   /* node09 on leaf 3, node01 on leaf 1 */
		if (r.group[2].flagged)
			cr_expect(l->cause == BLAME_UPLINK && l->by == 2);
		blame_free(&r);
	}
	cr_log_info("slow uplink: named with no host in %d of 100 maps", named);
	cr_expect_geq(named, 95, "slow uplink named alone in %d of 100 maps", named);
}

/* Two bridges of 8 hosts joined by a trunk of 200 MB/s that no topology
 * declares, the loaded map: the inferred groups are the two bridges in
 * at least 95 of 100 maps, the trunk is flagged, no host, and the
 * capacity is within 5% of 200 MB/s. */
Test(blame, undeclared_trunk_inferred)
{
	int right = 0, within = 0;

	for (int t = 0; t < 100; t++) {
		struct blame_result r;
		bool same = true;

		sim_init(&s, 16, 2, 4);
		s.trunk = 200e6;
		sim_draw(&s);
		run(&s, false, &r);
		for (int i = 0; i < s.n; i++)
			same = same && (r.host[i].group == r.host[0].group) == (s.group[i] == s.group[0]);
		if (r.ngroup == 2 && same && count(&r, BLAME_BOUNDARY) == 1 && count(&r, BLAME_HOST) == 0)
			right++;
		if (r.nbound == 1 && fabs(r.bound[0].capacity / 200e6 - 1) < 0.05)
			within++;
		blame_free(&r);
	}
	cr_log_info("undeclared trunk: groups right in %d of 100, capacity within 5%% in %d", right, within);
	cr_expect_geq(right, 95, "groups right and the trunk flagged in %d of 100 maps", right);
	cr_expect_geq(within, 95, "capacity within 5%% in %d of 100 maps", within);
}

/* Loaded and unloaded maps of the same trunk switch with a slow host:
 * the trunk is congestion (slow only loaded), the host a fault. */
Test(blame, loaded_against_unloaded)
{
	struct blame_result lr, ur;
	char err[256] = "";
	bool host_fault = false, trunk_congestion = false;

	sim_init(&s, 16, 2, 4);
	s.trunk = 200e6;
	s.slow_host = 3;
	s.slow_factor = 0.7;
	sim_draw(&s);
	run(&s, false, &lr);
	s.trunk = 0;
	sim_draw(&s);
	run(&s, false, &ur);
	cr_assert_eq(blame_contrast(&lr, &ur, err, sizeof(err)), 0, "%s", err);
	for (int i = 0; i < lr.nclaim; i++) {
		if (lr.claim[i].kind == BLAME_HOST && lr.claim[i].who == 3)
			host_fault = lr.claim[i].when == BLAME_FAULT;
		if (lr.claim[i].kind == BLAME_BOUNDARY)
			trunk_congestion = lr.claim[i].when == BLAME_CONGESTION;
	}
	cr_expect(host_fault, "the slow host is a fault");
	cr_expect(trunk_congestion, "the trunk is congestion");
	blame_free(&ur);
	blame_free(&lr);
}

/* A group of one host can not be told from its port: never named; a
 * link measured twice, a host out of range, a bad floor: refused. */
Test(blame, bad_input_refused)
{
	struct blame_result r;
	struct blame_input in;
	char err[256];

	sim_init(&s, 4, 1, 2);
	sim_draw(&s);
	in = sim_input(&s, false);
	s.pair[1].a = s.pair[0].a;
	s.pair[1].b = s.pair[0].b;
	cr_expect_eq(blame_run(&in, &r, err, sizeof(err)), -1);
	cr_expect(strstr(err, "measured twice"), "%s", err);
	s.pair[1].a = 7;
	cr_expect_eq(blame_run(&in, &r, err, sizeof(err)), -1);
	cr_expect(strstr(err, "not two of the 4 hosts"), "%s", err);
	sim_draw(&s);
	in.floor = 1.5;
	cr_expect_eq(blame_run(&in, &r, err, sizeof(err)), -1);
	cr_expect(strstr(err, "floor"), "%s", err);
	in.floor = 0.1;
	s.v[0][0] = -1;
	cr_expect_eq(blame_run(&in, &r, err, sizeof(err)), -1);
	cr_expect(strstr(err, "not positive"), "%s", err);
}
