/* Host identity (hostid.h): which ranks share a kernel, a network stack
 * or an MPI node, and how many cores, on made-up ranks whose answer is
 * known; the CPU list format; this machine's own identity. */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>
#include "hostid.h"

#define BOOT_A "6b1f3a0e-0c1d-4a52-9d0b-6a7c1e2f3a4b"
#define BOOT_B "0d9c8b7a-6f5e-4d3c-2b1a-0f9e8d7c6b5a"

/* n ranks on boot id boot, network namespaces netns0, netns0 + 1, ...
 * (step 0: all in one), allowed CPUs 0..cores-1. */
static void ranks(struct hostid *id, int first, int n, const char *boot, uint64_t netns0, int step, int cores)
{
	for (int i = first; i < first + n; i++) {
		hostid_unknown(&id[i]);
		snprintf(id[i].boot_id, sizeof(id[i].boot_id), "%s", boot);
		id[i].netns = netns0 + (uint64_t)(step * (i - first));
		id[i].cores = cores;
		for (int c = 0; c < cores; c++)
			id[i].cpu[c / 8] |= (uint8_t)(1u << (c % 8));
	}
}

/* The emulated fabric: 8 namespaces on one 2-core kernel. */
Test(hostid, namespaces_on_one_kernel_share_its_cores_but_no_host)
{
	struct hostid id[8];
	struct hostid_share s;
	char buf[512];

	ranks(id, 0, 8, BOOT_A, 4026532000u, 1, 2);
	hostid_share(id, NULL, 8, &s);
	cr_expect_eq(s.node_a, -1, "separate stacks are not one host");
	cr_expect_eq(s.kernel, 0);
	cr_expect_eq(s.kernel_ranks, 8);
	cr_expect_eq(s.kernel_cores, 2);
	cr_expect_eq(s.kernels, 1);
	hostid_kernel_ranks(id, 8, 3, buf, sizeof(buf));
	cr_expect_str_eq(buf, "0-7");
	hostid_caution(&s, 6, 2, buf, sizeof(buf));
	cr_expect_str_eq(buf, "caution: 8 ranks share 2 cores of one kernel; cells marked cpu had more busy ranks "
			      "than cores (up to 6 on 2): their latency includes waiting for a CPU, not only the switch");
	hostid_caution(&s, 2, 2, buf, sizeof(buf));
	cr_expect_str_eq(buf, "caution: 8 ranks share 2 cores of one kernel; no cell here had more busy ranks than "
			      "cores");
	hostid_kernel_phrase(id, 8, &s, buf, sizeof(buf));
	cr_expect_str_eq(buf, "ranks 0-7 share one kernel and its 2 cores in their own network stacks (namespaces "
			      "or containers)");
	hostid_node_phrase(&s, NULL, buf, sizeof(buf));
	cr_expect_str_eq(buf, "");
}

Test(hostid, separate_machines_share_nothing)
{
	struct hostid id[2];
	struct hostid_share s;
	char buf[256];

	ranks(id, 0, 1, BOOT_A, 4026532000u, 0, 4);
	ranks(id, 1, 1, BOOT_B, 4026532000u, 0, 4);   /* same inode number, another kernel */
	hostid_share(id, NULL, 2, &s);
	cr_expect_eq(s.node_a, -1);
	cr_expect_eq(s.kernel, -1);
	cr_expect_eq(s.kernels, 0);
	hostid_caution(&s, 0, 0, buf, sizeof(buf));
	cr_expect_str_eq(buf, "");
}

/* One stack on one kernel, one host name, or one MPI node: a shared host,
 * whichever says so first for the first pair of ranks. */
Test(hostid, one_host_by_stack_name_or_mpi)
{
	struct hostid id[4];
	struct hostid_share s;
	char host[4][SW_HOST_MAX] = { "a", "b", "c", "d" }, buf[256];

	ranks(id, 0, 4, BOOT_A, 100, 1, 8);
	id[3].netns = id[1].netns;
	hostid_share(id, host, 4, &s);
	cr_expect_eq(s.node_a, 1);
	cr_expect_eq(s.node_b, 3);
	cr_expect_str_eq(s.node_why, "network stack");
	cr_expect_eq(s.kernel_ranks, 4);
	hostid_node_phrase(&s, host, buf, sizeof(buf));
	cr_expect(strncmp(buf, "ranks 1 and 3 share one kernel and one network stack", 52) == 0, "%s", buf);

	ranks(id, 0, 4, BOOT_A, 100, 1, 8);
	snprintf(host[2], SW_HOST_MAX, "a");
	hostid_share(id, host, 4, &s);
	cr_expect_eq(s.node_a, 0);
	cr_expect_eq(s.node_b, 2);
	cr_expect_str_eq(s.node_why, "host name");
	hostid_node_phrase(&s, host, buf, sizeof(buf));
	cr_expect_str_eq(buf, "ranks 0 and 2 share host 'a'");

	ranks(id, 0, 2, BOOT_A, 100, 1, 8);
	ranks(id, 2, 2, BOOT_B, 100, 1, 8);
	id[2].mpi_node = id[3].mpi_node = 2;
	hostid_share(id, NULL, 4, &s);
	cr_expect_eq(s.node_a, 2);
	cr_expect_eq(s.node_b, 3);
	cr_expect_str_eq(s.node_why, "MPI node");
	cr_expect_eq(s.kernels, 2);
}

/* Without a boot id the machine id names the kernel; without either,
 * ranks are never taken for one kernel. */
Test(hostid, machine_id_when_no_boot_id_unknown_never_equal)
{
	struct hostid a, b;

	hostid_unknown(&a);
	hostid_unknown(&b);
	cr_expect_not(hostid_same_kernel(&a, &b));
	cr_expect_not(hostid_same_stack(&a, &b));
	snprintf(a.machine_id, sizeof(a.machine_id), "0123456789abcdef0123456789abcdef");
	b = a;
	cr_expect(hostid_same_kernel(&a, &b));
	cr_expect_not(hostid_same_stack(&a, &b), "unknown namespaces are not one stack");
	snprintf(a.boot_id, sizeof(a.boot_id), BOOT_A);
	cr_expect_not(hostid_same_kernel(&a, &b), "a boot id on one side only: not the same kernel");
}

/* Cores of a kernel: the union of its ranks' masks (ranks pinned to CPU 0
 * and CPU 1 share 2 cores, not 1); without masks, the largest count. */
Test(hostid, kernel_cores_are_the_union_of_masks)
{
	struct hostid id[3];

	ranks(id, 0, 3, BOOT_A, 100, 1, 0);
	id[0].cpu[0] = 0x1;
	id[1].cpu[0] = 0x2;
	id[2].cpu[0] = 0x2;
	id[0].cores = id[1].cores = id[2].cores = 1;
	cr_expect_eq(hostid_kernel_cores(id, 3, 2), 2);
	memset(id[0].cpu, 0, sizeof(id[0].cpu));
	memset(id[1].cpu, 0, sizeof(id[1].cpu));
	memset(id[2].cpu, 0, sizeof(id[2].cpu));
	id[1].cores = 6;
	cr_expect_eq(hostid_kernel_cores(id, 3, 0), 6);
}

Test(hostid, kernel_ranks_as_ranges)
{
	struct hostid id[8];
	char buf[64];

	ranks(id, 0, 8, BOOT_B, 100, 1, 2);
	for (int i = 0; i < 8; i++)
		if (i == 0 || i == 2 || i == 3 || i == 4 || i == 6)
			snprintf(id[i].boot_id, sizeof(id[i].boot_id), BOOT_A);
	hostid_kernel_ranks(id, 8, 3, buf, sizeof(buf));
	cr_expect_str_eq(buf, "0,2-4,6");
	hostid_kernel_ranks(id, 8, 7, buf, sizeof(buf));
	cr_expect_str_eq(buf, "1,5,7");
}

/* Busy ranks against cores: 2 of 8 ranks busy on 2 cores fit; 4 do not;
 * with two kernels the one with more busy ranks per core is named. */
Test(hostid, busy_ranks_beyond_cores_are_cpu_bound)
{
	struct hostid id[8];
	bool busy[8] = { false };
	int k, c;

	ranks(id, 0, 8, BOOT_A, 100, 1, 2);
	busy[0] = busy[4] = true;
	cr_expect_not(hostid_busy(id, 8, busy, &k, &c));
	cr_expect_eq(k, 2);
	cr_expect_eq(c, 2);
	busy[1] = busy[5] = true;
	cr_expect(hostid_busy(id, 8, busy, &k, &c));
	cr_expect_eq(k, 4);
	cr_expect_eq(c, 2);

	ranks(id, 0, 4, BOOT_A, 100, 1, 4);
	ranks(id, 4, 4, BOOT_B, 200, 1, 2);
	for (int i = 0; i < 8; i++)
		busy[i] = true;
	cr_expect(hostid_busy(id, 8, busy, &k, &c));
	cr_expect_eq(k, 4);
	cr_expect_eq(c, 2, "kernel B (4 ranks on 2 cores) is the crowded one");
	busy[4] = busy[5] = false;
	cr_expect_not(hostid_busy(id, 8, busy, &k, &c), "4 ranks on 4 cores, 2 on 2");

	for (int i = 0; i < 8; i++)
		ranks(id, i, 1, i % 2 ? BOOT_A : BOOT_B, 100, 0, 2);
	memset(busy, 0, sizeof(busy));
	busy[0] = busy[1] = true;
	cr_expect_not(hostid_busy(id, 8, busy, &k, &c), "two busy ranks on two kernels share nothing");
	cr_expect_eq(k, 0);
}

Test(hostid, cpu_lists_round_trip_and_bad_ones_fail)
{
	uint8_t cpu[HOSTID_CPUS / 8];
	char buf[128];
	int n;

	cr_assert_eq(hostid_parse_cpus("0-3,8,10-11", cpu, &n), 0);
	cr_expect_eq(n, 7);
	cr_expect_eq(cpu[0], 0x0f);
	cr_expect_eq(cpu[1], 0x0d);
	hostid_format_cpus(cpu, buf, sizeof(buf));
	cr_expect_str_eq(buf, "0-3,8,10-11");
	cr_assert_eq(hostid_parse_cpus("1023", cpu, &n), 0);
	cr_expect_eq(n, 1);
	hostid_format_cpus(cpu, buf, sizeof(buf));
	cr_expect_str_eq(buf, "1023");
	cr_expect_eq(hostid_parse_cpus("", cpu, &n), 0);
	cr_expect_eq(n, 0);
	const char *bad[] = { "3-1", "a", "1,", "1024", "0-", "-1", "1 2", "1,,2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(hostid_parse_cpus(bad[i], cpu, &n), -1, "'%s'", bad[i]);
}

/* This machine: a boot id of 36 characters (Linux), a network namespace,
 * at least one core and no more than the machine has online. */
Test(hostid, this_machine)
{
	struct hostid h;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	hostid_read(&h);
	if (access("/proc/sys/kernel/random/boot_id", R_OK) == 0)
		cr_expect_eq(strlen(h.boot_id), 36, "'%s'", h.boot_id);
	if (access("/proc/self/ns/net", F_OK) == 0)
		cr_expect_neq(h.netns, 0);
	cr_expect(h.cores >= 1 && h.cores <= online, "cores %d, online %ld", h.cores, online);
	cr_expect_eq(hostid_kernel_cores(&h, 1, 0), h.cores);
	cr_expect_eq(h.mpi_node, -1);
}

/* ranks_per_node = 2: ranks 0-1 and 2-3 are two nodes. Two ranks of one
 * node share its host; of two nodes, they must not; a node split over two
 * hosts is named with them. */
Test(hostid, ranks_per_node_share_their_node_only)
{
	struct hostid id[4];
	struct hostid_share s;
	char host[4][SW_HOST_MAX] = { "a", "a", "b", "b" }, buf[256];

	ranks(id, 0, 2, BOOT_A, 100, 0, 8);   /* one stack each machine */
	ranks(id, 2, 2, BOOT_B, 100, 0, 8);
	hostid_share_nodes(id, host, 4, 2, &s);
	cr_expect_eq(s.node_a, -1, "ranks %d and %d", s.node_a, s.node_b);
	hostid_node_split(id, host, 4, 2, buf, sizeof(buf));
	cr_expect_str_eq(buf, "");
	hostid_share(id, host, 4, &s);   /* one rank a node: 0 and 1 share host a */
	cr_expect_eq(s.node_a, 0);
	cr_expect_eq(s.node_b, 1);

	/* ranks 1 and 2 swapped: node 0 is on a and b, and so is node 1 */
	ranks(id, 0, 1, BOOT_A, 100, 0, 8);
	ranks(id, 1, 2, BOOT_B, 100, 0, 8);
	ranks(id, 3, 1, BOOT_A, 100, 0, 8);
	snprintf(host[1], SW_HOST_MAX, "b");
	snprintf(host[3], SW_HOST_MAX, "a");
	hostid_node_split(id, host, 4, 2, buf, sizeof(buf));
	cr_expect_str_eq(buf, "ranks 0 and 1 are one node's 2 ranks, but on hosts 'a' and 'b'");
	hostid_share_nodes(id, host, 4, 2, &s);
	cr_expect_eq(s.node_a, 0);
	cr_expect_eq(s.node_b, 3);
	cr_expect_str_eq(s.node_why, "host name");
}
