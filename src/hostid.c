/*
 * hostid.c - which ranks share a machine; see hostid.h. Reads /proc and
 * /etc for this process; the rest is pure.
 */
#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "hostid.h"

/* The first line of path, blanks trimmed, into buf ("" when unreadable). */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	n = strcspn(buf, " \t\r\n");
	buf[n] = '\0';
}

void hostid_unknown(struct hostid *h)
{
	memset(h, 0, sizeof(*h));
	h->mpi_node = -1;
}

void hostid_read(struct hostid *h)
{
	struct stat st;
	cpu_set_t set;

	hostid_unknown(h);
	read_line("/proc/sys/kernel/random/boot_id", h->boot_id, sizeof(h->boot_id));
	read_line("/etc/machine-id", h->machine_id, sizeof(h->machine_id));
	if (stat("/proc/self/ns/net", &st) == 0)
		h->netns = (uint64_t)st.st_ino;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		for (int i = 0; i < HOSTID_CPUS && i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &set))
				h->cpu[i / 8] |= (uint8_t)(1u << (i % 8));
		h->cores = CPU_COUNT(&set);
	} else {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		h->cores = n > 0 ? (int)n : 0;
	}
}

bool hostid_same_kernel(const struct hostid *a, const struct hostid *b)
{
	if (a->boot_id[0] || b->boot_id[0])
		return strcmp(a->boot_id, b->boot_id) == 0;
	return a->machine_id[0] && strcmp(a->machine_id, b->machine_id) == 0;
}

bool hostid_same_stack(const struct hostid *a, const struct hostid *b)
{
	return hostid_same_kernel(a, b) && a->netns && a->netns == b->netns;
}

static int popcount8(uint8_t x)
{
	int n = 0;

	for (; x; x &= (uint8_t)(x - 1))
		n++;
	return n;
}

int hostid_kernel_cores(const struct hostid *id, int n, int i)
{
	uint8_t all[HOSTID_CPUS / 8] = { 0 };
	int cores = 0, most = 0;

	for (int j = 0; j < n; j++) {
		if (j != i && !hostid_same_kernel(&id[i], &id[j]))
			continue;
		for (size_t b = 0; b < sizeof(all); b++)
			all[b] |= id[j].cpu[b];
		if (id[j].cores > most)
			most = id[j].cores;
	}
	for (size_t b = 0; b < sizeof(all); b++)
		cores += popcount8(all[b]);
	return cores ? cores : most;
}

/* Ranks (marked in busy, or all when busy is NULL) on rank i's kernel. */
static int on_kernel(const struct hostid *id, int n, int i, const bool *busy)
{
	int k = 0;

	for (int j = 0; j < n; j++)
		k += (!busy || busy[j]) && (j == i || hostid_same_kernel(&id[i], &id[j]));
	return k;
}

/* Whether rank i is the first of its kernel (among busy ones, or all). */
static bool first_on_kernel(const struct hostid *id, int i, const bool *busy)
{
	for (int j = 0; j < i; j++)
		if ((!busy || busy[j]) && hostid_same_kernel(&id[i], &id[j]))
			return false;
	return true;
}

/* The kernel with the most ranks (busy ones, or all) per core among
 * kernels that 2 or more of them share: its first rank or -1. */
static int most_crowded(const struct hostid *id, int n, const bool *busy, int *ranks, int *cores, int *kernels)
{
	int best = -1;

	*ranks = *cores = 0;
	if (kernels)
		*kernels = 0;
	for (int i = 0; i < n; i++) {
		int k, c;

		if ((busy && !busy[i]) || !first_on_kernel(id, i, busy) || (k = on_kernel(id, n, i, busy)) < 2)
			continue;
		if (kernels)
			(*kernels)++;
		c = hostid_kernel_cores(id, n, i);
		/* k / c > ranks / cores (unknown cores count as 1) */
		if (best < 0 || (long)k * (*cores ? *cores : 1) > (long)*ranks * (c ? c : 1)) {
			best = i;
			*ranks = k;
			*cores = c;
		}
	}
	return best;
}

/* What ranks i and j share that makes them one node: "host name", "MPI
 * node", "network stack", or NULL. */
static const char *same_node(const struct hostid *id, const char (*host)[SW_HOST_MAX], int i, int j)
{
	if (host && strcmp(host[i], host[j]) == 0)
		return "host name";
	if (id[i].mpi_node >= 0 && id[i].mpi_node == id[j].mpi_node)
		return "MPI node";
	if (hostid_same_stack(&id[i], &id[j]))
		return "network stack";
	return NULL;
}

void hostid_share_nodes(const struct hostid *id, const char (*host)[SW_HOST_MAX], int n, int per,
			struct hostid_share *s)
{
	memset(s, 0, sizeof(*s));
	s->node_a = s->node_b = -1;
	s->node_why = "";
	for (int i = 0; i < n && s->node_a < 0; i++)
		for (int j = i + 1; j < n && s->node_a < 0; j++) {
			const char *why = i / per == j / per ? NULL : same_node(id, host, i, j);

			if (!why)
				continue;
			s->node_why = why;
			s->node_a = i;
			s->node_b = j;
		}
	s->kernel = most_crowded(id, n, NULL, &s->kernel_ranks, &s->kernel_cores, &s->kernels);
}

void hostid_share(const struct hostid *id, const char (*host)[SW_HOST_MAX], int n, struct hostid_share *s)
{
	hostid_share_nodes(id, host, n, 1, s);
}

void hostid_node_split(const struct hostid *id, const char (*host)[SW_HOST_MAX], int n, int per, char *buf,
		       size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < n && !buf[0]; i++)
		if (i % per && !same_node(id, host, i - i % per, i))
			snprintf(buf, len, "ranks %d and %d are one node's %d ranks, but on hosts '%s' and '%s'",
				 i - i % per, i, per, host[i - i % per], host[i]);
}

void hostid_kernel_ranks(const struct hostid *id, int n, int i, char *buf, size_t len)
{
	int start = -1, last = -2;

	buf[0] = '\0';
	for (int j = 0; j <= n; j++) {
		bool in = j < n && (j == i || hostid_same_kernel(&id[i], &id[j]));

		if (in && j == last + 1) {
			last = j;
			continue;
		}
		if (start >= 0) {
			sw_appendf(buf, len, "%s%d", buf[0] ? "," : "", start);
			if (last > start)
				sw_appendf(buf, len, "-%d", last);
		}
		start = in ? j : -1;
		last = in ? j : -2;
	}
}

void hostid_node_phrase(const struct hostid_share *s, const char (*host)[SW_HOST_MAX], char *buf, size_t len)
{
	buf[0] = '\0';
	if (s->node_a < 0)
		return;
	if (strcmp(s->node_why, "host name") == 0)
		snprintf(buf, len, "ranks %d and %d share host '%s'", s->node_a, s->node_b, host[s->node_a]);
	else if (strcmp(s->node_why, "MPI node") == 0)
		snprintf(buf, len, "ranks %d and %d share a node (MPI_COMM_TYPE_SHARED)", s->node_a, s->node_b);
	else
		snprintf(buf, len, "ranks %d and %d share one kernel and one network stack (their traffic never "
			 "leaves the machine)", s->node_a, s->node_b);
}

void hostid_kernel_phrase(const struct hostid *id, int n, const struct hostid_share *s, char *buf, size_t len)
{
	char ranks[256];

	buf[0] = '\0';
	if (s->kernel < 0)
		return;
	hostid_kernel_ranks(id, n, s->kernel, ranks, sizeof(ranks));
	snprintf(buf, len, "ranks %s share one kernel and its %d cores in their own network stacks (namespaces "
		 "or containers)%s", ranks, s->kernel_cores, s->kernels > 1 ? ", and other kernels are shared too" : "");
}

bool hostid_busy(const struct hostid *id, int n, const bool *busy, int *ranks, int *cores)
{
	if (most_crowded(id, n, busy, ranks, cores, NULL) < 0)
		return false;
	return *ranks > *cores;
}

void hostid_caution(const struct hostid_share *s, int ranks, int cores, char *buf, size_t len)
{
	buf[0] = '\0';
	if (s->kernel < 0)
		return;
	snprintf(buf, len, "caution: %d ranks share %d cores of one kernel%s", s->kernel_ranks, s->kernel_cores,
		 s->kernels > 1 ? " (the most crowded of the shared kernels)" : "");
	if (ranks > cores)
		sw_appendf(buf, len, "; cells marked cpu had more busy ranks than cores (up to %d on %d): their "
			   "latency includes waiting for a CPU, not only the switch", ranks, cores);
	else
		sw_appendf(buf, len, "; no cell here had more busy ranks than cores");
}

void hostid_format_cpus(const uint8_t *cpu, char *buf, size_t len)
{
	int start = -1;

	buf[0] = '\0';
	for (int i = 0; i <= HOSTID_CPUS; i++) {
		bool on = i < HOSTID_CPUS && (cpu[i / 8] >> (i % 8) & 1);

		if (on && start < 0)
			start = i;
		else if (!on && start >= 0) {
			sw_appendf(buf, len, "%s%d", buf[0] ? "," : "", start);
			if (i - 1 > start)
				sw_appendf(buf, len, "-%d", i - 1);
			start = -1;
		}
	}
}

/* A CPU number at *s (digits only), advancing *s; -1 when none or too big. */
static int cpu_number(const char **s)
{
	long v = 0;

	if (!isdigit((unsigned char)**s))
		return -1;
	while (isdigit((unsigned char)**s)) {
		v = v * 10 + (**s - '0');
		if (v >= HOSTID_CPUS)
			return -1;
		(*s)++;
	}
	return (int)v;
}

int hostid_parse_cpus(const char *s, uint8_t *cpu, int *count)
{
	memset(cpu, 0, HOSTID_CPUS / 8);
	*count = 0;
	while (*s) {
		int a = cpu_number(&s), b = a;

		if (a < 0)
			return -1;
		if (*s == '-') {
			s++;
			if ((b = cpu_number(&s)) < a)
				return -1;
		}
		for (int i = a; i <= b; i++) {
			*count += !(cpu[i / 8] >> (i % 8) & 1);
			cpu[i / 8] |= (uint8_t)(1u << (i % 8));
		}
		if (*s == ',' && s[1])
			s++;
		else if (*s)
			return -1;
	}
	return 0;
}
