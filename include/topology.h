/*
 * topology.h - which switch each host hangs on, for the fabric map's
 * groups (blame.h): Slurm's topology.conf (SwitchName=S Nodes=LIST, and
 * SwitchName=S Switches=LIST for the switches above), the output of
 * `scontrol show topology` (the same keys, with Level= and LinkSpeed=
 * beside them), or the [topology] section of a config (one line per
 * group: NAME = HOSTLIST). Host lists are Slurm's: "node[01-04,07],gpu1".
 * A host's group is the lowest switch that lists it. MPI-free.
 */
#ifndef TOPOLOGY_H
#define TOPOLOGY_H

#include <stdio.h>
#include "sw.h"

#define TOPOLOGY_MAX_HOSTS 65536   /* hosts one host list may expand to */

struct topology_switch {
	char name[SW_HOST_MAX];
	int parent;                     /* index of the switch above, -1 */
	int nhost;                      /* hosts directly on it */
	char (*host)[SW_HOST_MAX];
};

struct topology {
	int nswitch;
	struct topology_switch *sw;
};

/* Expand one Slurm host list ("a[1-3,05],b") into a new array *out of n
 * names (free it). 0, or -1 with err naming the list (unbalanced
 * brackets, a bad range, more than TOPOLOGY_MAX_HOSTS names, ENOMEM). */
int topology_hostlist(const char *list, char (**out)[SW_HOST_MAX], int *n, char *err, size_t errlen);

/* Parse a topology.conf or `scontrol show topology` from f (name: for
 * errors, "topology.conf:12: ...") into *t (topology_free it). Comments
 * (#) and blank lines skipped. Unknown keys are errors, but Level,
 * LinkSpeed and Nodes/Switches of scontrol's output are known. A switch
 * named twice, a Switches= naming no switch, a cycle: errors. 0 or -1. */
int topology_parse(FILE *f, const char *name, struct topology *t, char *err, size_t errlen);

/* Add one [topology] line of a config: a group (switch) named name with
 * the hosts of list; where: "file:line" for errors. 0 or -1. */
int topology_add(struct topology *t, const char *name, const char *list, const char *where, char *err,
		 size_t errlen);

/* The groups of hosts host[0..nhost): group[i] = the index (in the
 * compacted list of switches that hold a host, names into *names, a new
 * array of *ngroup) of the lowest switch listing host i. 0, or -1 with
 * err naming the first host no switch lists (ENOMEM). */
int topology_groups(const struct topology *t, const char *const *host, int nhost, int *group,
		    char (**names)[SW_HOST_MAX], int *ngroup, char *err, size_t errlen);

void topology_free(struct topology *t);

#endif
