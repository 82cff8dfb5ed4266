/*
 * hostid.h - which ranks share a machine, whatever their host names say.
 * MPI-free: hostid_read fills in this process's identity; the engine
 * gathers every rank's (one all-gather at start-up) and the pure functions
 * below group them. run.json keeps every rank's identity (results.c).
 *
 * A kernel is named by its boot id (/proc/sys/kernel/random/boot_id: new
 * at every boot, the same in every namespace and container on it), or by
 * /etc/machine-id when there is no boot id. Ranks on one kernel share its
 * CPUs. A network stack is a network namespace of a kernel (the inode of
 * /proc/self/ns/net). Ranks on one kernel and one stack talk through the
 * kernel, never through the switch: like ranks that MPI puts on one node
 * (MPI_COMM_TYPE_SHARED) or that have one host name, they share a host.
 * Ranks on one kernel with their own stacks (namespaces, containers) do
 * send through the switch, but share CPUs: a busy CPU then looks like a
 * congested switch, which the tables say (hostid_caution).
 */
#ifndef HOSTID_H
#define HOSTID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sw.h"

#define HOSTID_ID_MAX 40     /* a boot id or machine id, with the NUL */
#define HOSTID_CPUS 1024     /* CPUs an affinity mask can name */

struct hostid {
	char boot_id[HOSTID_ID_MAX];     /* "" unknown */
	char machine_id[HOSTID_ID_MAX];  /* "" unknown */
	uint64_t netns;                  /* network namespace inode, 0 unknown */
	int cores;                       /* CPUs this rank may run on, 0 unknown */
	int mpi_node;                    /* the lowest rank MPI_COMM_TYPE_SHARED
	                                  * puts on this rank's node; -1 unknown */
	uint8_t cpu[HOSTID_CPUS / 8];    /* affinity: bit i set = CPU i allowed */
};

/* An identity with everything unknown. */
void hostid_unknown(struct hostid *h);

/* This process's identity (mpi_node left unknown: MPI's to say). What
 * cannot be read stays unknown; never fails. */
void hostid_read(struct hostid *h);

/* One kernel: equal boot ids, or with no boot id on either side equal
 * machine ids. Unknown identities are never the same kernel. */
bool hostid_same_kernel(const struct hostid *a, const struct hostid *b);

/* One kernel and one network stack (traffic between them stays inside). */
bool hostid_same_stack(const struct hostid *a, const struct hostid *b);

/* Cores of rank i's kernel that its ranks may use: the union of their
 * affinity masks, or the largest cores when no mask is known. */
int hostid_kernel_cores(const struct hostid *id, int n, int i);

/* How the n ranks share machines. host: their host names as MPI gives
 * them (may be NULL). */
struct hostid_share {
	int node_a, node_b;      /* the first two ranks on one host: one host
	                          * name, one MPI node, or one kernel and one
	                          * network stack; -1 when none */
	const char *node_why;    /* "host name", "MPI node", "network stack" */
	int kernel;              /* first rank of the kernel with the most ranks
	                          * per core among kernels shared by 2 or more
	                          * ranks in their own stacks; -1 when none */
	int kernel_ranks;        /* ranks on it */
	int kernel_cores;        /* its cores (hostid_kernel_cores) */
	int kernels;             /* kernels shared by 2 or more ranks */
};
void hostid_share(const struct hostid *id, const char (*host)[SW_HOST_MAX], int n, struct hostid_share *s);

/* The same with per ranks a node (config ranks_per_node): ranks
 * per m .. per m + per - 1 are node m, and two ranks share a host only
 * when they are of different nodes. */
void hostid_share_nodes(const struct hostid *id, const char (*host)[SW_HOST_MAX], int n, int per,
			struct hostid_share *s);

/* The first node of per ranks whose ranks are not on one host (host
 * name, MPI node or network stack), "ranks 2 and 3 are one node's 2
 * ranks, but on hosts 'a' and 'b'", into buf; "" when every node is. */
void hostid_node_split(const struct hostid *id, const char (*host)[SW_HOST_MAX], int n, int per, char *buf,
		       size_t len);

/* What s says, one phrase each without a newline: the shared host,
 * "ranks 0 and 1 share host 'a'" ("" when none), and the shared kernel,
 * "ranks 0-7 share one kernel and its 2 cores in their own network
 * stacks (namespaces or containers)" ("" when none). */
void hostid_node_phrase(const struct hostid_share *s, const char (*host)[SW_HOST_MAX], char *buf, size_t len);
void hostid_kernel_phrase(const struct hostid *id, int n, const struct hostid_share *s, char *buf, size_t len);

/* The ranks on rank i's kernel as ranges, "0-7" or "0,2,4-5", into buf. */
void hostid_kernel_ranks(const struct hostid *id, int n, int i, char *buf, size_t len);

/* Of the ranks marked busy[] (n ranks), those on the kernel with the most
 * busy ranks per core: *ranks of them on *cores cores. True when they
 * outnumber its cores (CPU-bound: a busy rank can wait for a CPU). 0 and
 * 0, false, when no two busy ranks share a kernel. */
bool hostid_busy(const struct hostid *id, int n, const bool *busy, int *ranks, int *cores);

/* The table caution for ranks that share a kernel, one line without a
 * newline: "caution: 8 ranks share 2 cores of one kernel; cells marked
 * cpu had more busy ranks than cores (up to 6 on 2): ..." with the
 * busiest cell of the table (ranks busy on cores, hostid_busy; ranks <=
 * cores: none beyond); "" when no kernel is shared. */
void hostid_caution(const struct hostid_share *s, int ranks, int cores, char *buf, size_t len);

/* An affinity mask as a CPU list ("0-3,8") and back (run.json "cpus").
 * hostid_parse_cpus: 0, or -1 on a malformed list or a CPU beyond
 * HOSTID_CPUS - 1; sets cpu[] and returns the count in *count. */
void hostid_format_cpus(const uint8_t *cpu, char *buf, size_t len);
int hostid_parse_cpus(const char *s, uint8_t *cpu, int *count);

#endif
