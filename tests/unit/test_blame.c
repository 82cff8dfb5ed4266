/* The fabric map's blame (blame.h) on simulated maps with a known truth
 * (blame_sim.h): healthy maps flag nothing, a slow host is named alone,
 * a slow uplink with no host, an undeclared trunk's two groups are
 * inferred and its capacity measured; loaded against unloaded tells
 * congestion from a fault; bad input is refused. */
#include <criterion/criterion.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "blame_out.h"
#include "blame_sim.h"
#include "fixture.h"
#include "plot.h"

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
 * false flag. 1000 maps of 8 hosts as 2 leaves of 4 (given) and with no
 * topology, the same of 16 hosts as 4 leaves of 4, 100 of 48 hosts
 * inferred; at most 1% each. */
Test(blame, healthy_maps_flag_nothing)
{
	struct { int n, ng, maps; bool topo; } set[] = { { 8, 2, 1000, true }, { 8, 1, 1000, false },
							 { 16, 4, 1000, true }, { 16, 1, 1000, false },
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

/* 8 hosts, 3 blocks (configs/map.conf), one host's port at 0.25x or
 * 0.5x the others', on 2 leaves of 4 (given) or with no topology: the
 * host named, no other host and no link, in at least 95% of 200 maps at
 * 0.25x and 80% at 0.5x. A sign test over 7 partners could never reach
 * it (2/128 before Holm over 8 hosts): the effect's size must count. */
Test(blame, eight_hosts_slow_port)
{
	const double factor[] = { 0.25, 0.5 };
	const int need[] = { 95, 80 };

	for (int f = 0; f < 2; f++)
		for (int topo = 0; topo < 2; topo++) {
			int alone = 0, links = 0;

			for (int t = 0; t < 200; t++) {
				struct blame_result r;

				sim_init(&s, 8, topo ? 2 : 1, 3);
				s.slow_host = 5;
				s.slow_factor = factor[f];
				sim_draw(&s);
				run(&s, topo, &r);
				alone += r.nclaim == 1 && r.claim[0].kind == BLAME_HOST && r.claim[0].who == 5;
				links += count(&r, BLAME_LINK) > 0;
				blame_free(&r);
			}
			cr_log_info("8 hosts, one port at %gx (%s): named alone in %d of 200, a link claim in %d",
				    factor[f], topo ? "given" : "inferred", alone, links);
			cr_expect_geq(alone * 100, need[f] * 200, "%gx %s: named alone in %d of 200", factor[f],
				      topo ? "given" : "inferred", alone);
		}
}

/* The unloaded map of the fabric test: 16 hosts on 4 leaves, 2 blocks,
 * one port at 0.1x whose samples are coarse (a whole message of about 9
 * in a sample: 10% noise on its links): named alone in at least 95 of
 * 100 maps. A host's own 2 blocks give a t on 1 degree of freedom; the
 * variance pooled over the hosts is what gives it power. */
Test(blame, two_blocks_coarse_slow_port)
{
	int alone = 0;

	for (int t = 0; t < 100; t++) {
		struct blame_result r;

		sim_init(&s, 16, 4, 2);
		s.slow_host = 5;
		s.slow_factor = 0.1;
		s.slow_noise = 0.10;
		sim_draw(&s);
		run(&s, true, &r);
		alone += r.nclaim == 1 && r.claim[0].kind == BLAME_HOST && r.claim[0].who == 5;
		blame_free(&r);
	}
	cr_log_info("2 blocks, a coarse port at 0.1x: named alone in %d of 100", alone);
	cr_expect_geq(alone, 95, "%d of 100", alone);
}

/* A bad cable at 8 hosts (one link 50% slow, 4 blocks, 2 leaves of 4):
 * the link named and no host flagged in at least 95 of 100 maps; named
 * alone in at least 90. */
Test(blame, eight_hosts_bad_cable)
{
	int alone = 0, nohost = 0;

	for (int t = 0; t < 100; t++) {
		struct blame_result r;

		sim_init(&s, 8, 2, 4);
		s.slow_a = 1;
		s.slow_b = 6;
		s.link_factor = 0.5;
		sim_draw(&s);
		run(&s, true, &r);
		alone += r.nclaim == 1 && r.claim[0].kind == BLAME_LINK && r.link[r.claim[0].who].a == 1 &&
			 r.link[r.claim[0].who].b == 6;
		nohost += count(&r, BLAME_HOST) == 0;
		blame_free(&r);
	}
	cr_log_info("8 hosts, bad cable: named alone in %d of 100, no host in %d", alone, nohost);
	cr_expect_geq(alone, 90, "%d of 100", alone);
	cr_expect_geq(nohost, 95, "%d of 100", nohost);
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

/* The outputs of a map with a slow host on 4 leaves: links.csv has every
 * link once with its path and the host as the cause of its links;
 * hosts.csv flags it alone; the report names it and fits 80 columns. */
Test(blame, outputs_name_the_host)
{
	struct blame_result r;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f;
	int rows = 0, caused = 0, flagged = 0;

	sim_init(&s, 16, 4, 4);
	s.slow_host = 5;
	s.slow_factor = 0.7;
	sim_draw(&s);
	run(&s, true, &r);
	f = open_memstream(&buf, &len);
	cr_assert_eq(blame_write_links(f, &r), 0);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !strncmp(line, "host_a,", 7))
			continue;
		rows++;
		caused += strstr(line, ",host:node06") != NULL;
		if (!strncmp(line, "node01,node05,", 14))
			cr_expect(strstr(line, ",g1|g2,bandwidth_MBps,"), "path and metric: %s", line);
	}
	cr_expect_eq(rows, 120, "every link once: %d", rows);
	cr_expect_eq(caused, 15, "the slow host causes its 15 links: %d", caused);
	free(buf);
	f = open_memstream(&buf, &len);
	cr_assert_eq(blame_write_hosts(f, &r), 0);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (line[0] != '#' && strlen(line) > 2 && !strcmp(line + strlen(line) - 2, ",1")) {
			flagged++;
			cr_expect(!strncmp(line, "node06,g2,", 10), "the flagged host: %s", line);
		}
	cr_expect_eq(flagged, 1);
	free(buf);
	f = open_memstream(&buf, &len);
	blame_report(f, &r, 10);
	fclose(f);
	cr_expect(strstr(buf, "SLOW: host node06: 0.7"), "%s", buf);
	cr_expect(strstr(buf, "its group's typical host"), "%s", buf);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		cr_expect_leq(strlen(line), 80, "over 80 columns: %s", line);
	free(buf);
	blame_free(&r);
}

/* Write one of the map's files into dir through fn. */
static void write_file(const char *dir, const char *name, int (*fn)(FILE *, const struct blame_result *),
		       const struct blame_result *r)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert(f, "%s", path);
	cr_assert_eq(fn(f, r), 0);
	fclose(f);
}

/* gnuplot -e vars script, stderr into dir/err.txt: its exit status. */
static int gnuplot(const char *dir, const char *vars, const char *script)
{
	char err[512];
	int status;
	pid_t pid;

	snprintf(err, sizeof(err), "%s/err.txt", dir);
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		if (!freopen(err, "w", stderr))
			_exit(126);
		execlp("gnuplot", "gnuplot", "-e", vars, script, (char *)NULL);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* plot/fabric.gp and plot/fabric-hosts.gp over a 48-host map with a
 * slow host, a slow uplink and a congested spine: a PNG each, and not a
 * word from gnuplot. */
Test(blame, charts_draw_quietly)
{
	char dir[256], vars[1536], path[600];
	const char *script[] = { "plot/fabric.gp", "plot/fabric-hosts.gp" };
	const char *png[] = { "fabric.png", "fabric-hosts.png" };
	struct blame_result r;
	struct stat st;

	if (!plot_available())
		cr_skip_test("gnuplot not on PATH");
	fixture_mkdtemp(dir, sizeof(dir), "fabric");
	sim_init(&s, 48, 4, 4);
	s.slow_host = 5;
	s.slow_factor = 0.7;
	s.slow_uplink = 2;
	s.uplink_factor = 0.6;
	s.congest = 0.8;
	sim_draw(&s);
	run(&s, true, &r);
	write_file(dir, "fabric.csv", blame_write_matrix, &r);
	write_file(dir, "hosts.csv", blame_write_hosts, &r);
	write_file(dir, "groups.csv", blame_write_groups, &r);
	for (int k = 0; k < 2; k++) {
		char said[512] = "";
		FILE *f;

		snprintf(vars, sizeof(vars), "in='%s/fabric.csv'; hosts='%s/hosts.csv'; groups='%s/groups.csv'; out='%s/%s'",
			 dir, dir, dir, dir, png[k]);
		cr_expect_eq(gnuplot(dir, vars, script[k]), 0, "%s failed", script[k]);
		snprintf(path, sizeof(path), "%s/%s", dir, png[k]);
		cr_expect(stat(path, &st) == 0 && st.st_size > 10000, "%s: no chart", path);
		snprintf(path, sizeof(path), "%s/err.txt", dir);
		f = fopen(path, "r");
		cr_assert(f);
		cr_expect_eq(fread(said, 1, sizeof(said) - 1, f), 0, "%s said: %s", script[k], said);
		fclose(f);
	}
	fixture_rmtree(dir);
	blame_free(&r);
}
