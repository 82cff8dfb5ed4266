/* The fabric map's topology (topology.h): Slurm host lists, topology.conf,
 * `scontrol show topology`, the config's [topology] section, and the
 * errors of bad input with file:line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "topology.h"

static int parse(const char *text, struct topology *t, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	cr_assert(f);
	ret = topology_parse(f, "topology.conf", t, err, errlen);
	fclose(f);
	return ret;
}

Test(topology, hostlists_expand_as_slurm)
{
	char(*h)[SW_HOST_MAX];
	int n;
	char err[256];

	cr_assert_eq(topology_hostlist("node[01-03,07],gpu1,r[1-2]n[8-9]", &h, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 9);
	cr_expect_str_eq(h[0], "node01");
	cr_expect_str_eq(h[2], "node03");
	cr_expect_str_eq(h[3], "node07");
	cr_expect_str_eq(h[4], "gpu1");
	cr_expect_str_eq(h[5], "r1n8");
	cr_expect_str_eq(h[8], "r2n9");
	free(h);
	cr_assert_eq(topology_hostlist("n[8-11]", &h, &n, err, sizeof(err)), 0);
	cr_expect_eq(n, 4);
	cr_expect_str_eq(h[3], "n11", "no padding when the first bound has one digit");
	free(h);
	const char *bad[] = { "node[1-3", "node1-3]", "node[3-1]", "node[a-b]", "node[1-]", "a,,b", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		cr_expect_eq(topology_hostlist(bad[i], &h, &n, err, sizeof(err)), -1, "'%s' refused", bad[i]);
		cr_expect(err[0], "'%s': an error", bad[i]);
	}
}

/* topology.conf as Slurm documents it (leaves with Nodes=, a spine with
 * Switches=), and scontrol's output (Level, LinkSpeed, and the spine
 * listing every node as well): each host's group is its leaf. */
Test(topology, slurm_topology_gives_the_leaves)
{
	const char *conf = "# a tree\n"
			   "SwitchName=s0 Nodes=node[01-04]\n"
			   "SwitchName=s1 Nodes=node[05-08]  # second leaf\n"
			   "\n"
			   "SwitchName=spine Switches=s[0-1]\n";
	const char *scontrol = "SwitchName=s0 Level=0 LinkSpeed=1 Nodes=node[01-04]\n"
			       "SwitchName=s1 Level=0 LinkSpeed=1 Nodes=node[05-08]\n"
			       "SwitchName=spine Level=1 LinkSpeed=1 Nodes=node[01-08] Switches=s[0-1]\n";
	const char *host[] = { "node05", "node01", "node08", "node02" };
	const char *texts[] = { conf, scontrol };

	for (int k = 0; k < 2; k++) {
		struct topology t;
		char(*names)[SW_HOST_MAX];
		int group[4], ng;
		char err[256];

		cr_assert_eq(parse(texts[k], &t, err, sizeof(err)), 0, "%s", err);
		cr_expect_eq(t.nswitch, 3);
		cr_expect_eq(t.sw[0].parent, 2, "s0 under the spine");
		cr_expect_eq(t.sw[2].parent, -1);
		cr_assert_eq(topology_groups(&t, host, 4, group, &names, &ng, err, sizeof(err)), 0, "%s", err);
		cr_expect_eq(ng, 2);
		cr_expect_str_eq(names[group[0]], "s1");
		cr_expect_str_eq(names[group[1]], "s0");
		cr_expect_eq(group[2], group[0]);
		cr_expect_eq(group[3], group[1]);
		free(names);
		host[3] = "node99";
		cr_expect_eq(topology_groups(&t, host, 4, group, &names, &ng, err, sizeof(err)), -1);
		cr_expect(strstr(err, "no switch lists host 'node99'"), "%s", err);
		host[3] = "node02";
		topology_free(&t);
	}
}

Test(topology, bad_slurm_lines_name_the_line)
{
	struct {
		const char *text, *want;
	} bad[] = {
		{ "SwitchName=s0 Nodes=n[1-2]\nSwitchName=s0 Nodes=n3\n", "topology.conf:2: switch 's0' named twice" },
		{ "SwitchName=s0 Nodes=n1 Speed=1\n", "topology.conf:1: unknown key 'Speed'" },
		{ "Nodes=n1\n", "topology.conf:1: no SwitchName=" },
		{ "SwitchName=s0\n", "topology.conf:1: switch 's0' has neither" },
		{ "SwitchName=s0 Nodes=n1\nSwitchName=t Switches=s[0-1]\n", "topology.conf:2: Switches= names 's1', which no line" },
		{ "SwitchName=s0 Nodes=n[1-\n", "topology.conf:1: host list 'n[1-'" },
		{ "SwitchName=a Switches=b\nSwitchName=b Switches=a\n", "form a cycle" },
		{ "# nothing\n", "topology.conf: no switch" },
		{ "SwitchName=s0 Nodes\n", "topology.conf:1: expected Key=Value" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct topology t;
		char err[256] = "";

		cr_expect_eq(parse(bad[i].text, &t, err, sizeof(err)), -1, "refused: %s", bad[i].text);
		cr_expect(strstr(err, bad[i].want), "'%s' says '%s'", err, bad[i].want);
	}
}

/* The config's [topology] section: groups by name, the rest of the file
 * left to config.c; a bad line is refused with the file and line. */
Test(topology, config_section)
{
	char path[] = "/tmp/swstress-topo-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	struct topology t;
	char err[256];
	const char *cfg = "[sweep]\nsizes = 8\n\n[topology]\nleaf1 = node[01-02]   # first\nleaf2 = node[03-04]\n"
			  "[output]\nlabel = x\n";

	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	fputs(cfg, f);
	fclose(f);
	cr_assert_eq(topology_read_config(path, &t, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(t.nswitch, 2);
	cr_expect_str_eq(t.sw[1].name, "leaf2");
	cr_expect_eq(t.sw[1].nhost, 2);
	cr_expect_str_eq(t.sw[1].host[1], "node04");
	topology_free(&t);
	f = fopen(path, "w");
	fputs("[topology]\nleaf1 = node[01-02]\nleaf2 node03\n", f);
	fclose(f);
	cr_expect_eq(topology_read_config(path, &t, err, sizeof(err)), -1);
	cr_expect(strstr(err, ":3: expected 'group = host list'"), "%s", err);
	f = fopen(path, "w");
	fputs("[topology]\nleaf1 = node[01-02]\nleaf1 = node03\n", f);
	fclose(f);
	cr_expect_eq(topology_read_config(path, &t, err, sizeof(err)), -1);
	cr_expect(strstr(err, ":3: switch 'leaf1' named twice"), "%s", err);
	unlink(path);
}
