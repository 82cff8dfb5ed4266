/*
 * mapblame.c - the fabric map's statistics of a results folder, one fact
 * a line, for the known answers of run_tests.sh (independent of the
 * report's layout):
 *
 *   mapblame RUN [PATTERN SIZE_BYTES] [GROUPS]
 *
 * (default: stream, the run's first size; the groups inferred). GROUPS: a
 * file of lines "NAME HOST HOST ...", every host of the run in one (the
 * topology, as the known answers give it).
 *
 *   claim KIND NAME rel=R p=P            one per claim (blame.h)
 *   group NAME HOST,HOST,...             the groups, given or inferred
 *   boundary G|H rel=R p=P flagged=0|1 capacity_MBps=C lo=L hi=H pairs=K
 *   host NAME group=G rel=R p=P flagged=0|1
 *   links N inferred=0|1
 *
 * Exit 0, 1 when the folder cannot be read or is not a map, 2 on usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "results.h"
#include "mapdata.h"
#include "pattern.h"

enum { MAX_HOSTS = 256, MAX_GROUPS = 64 };

/* GROUPS into d's input: every host of d named once. 0 or -1. */
static int read_groups(const char *path, struct mapdata *d, int *group, char (*gname)[SW_HOST_MAX],
		       const char **gnames, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int ng = 0;

	if (!f || d->in.nhost > MAX_HOSTS)
		return sw_fail(err, errlen, "%s: cannot read, or more than %d hosts", path, MAX_HOSTS);
	for (int i = 0; i < d->in.nhost; i++)
		group[i] = -1;
	while (fgets(line, sizeof(line), f) && ng < MAX_GROUPS) {
		char *save = NULL, *tok = strtok_r(line, " \t\n", &save);

		if (!tok)
			continue;
		snprintf(gname[ng], SW_HOST_MAX, "%s", tok);
		gnames[ng] = gname[ng];
		while ((tok = strtok_r(NULL, " \t\n", &save)))
			for (int i = 0; i < d->in.nhost; i++)
				if (strcmp(d->in.host[i], tok) == 0)
					group[i] = ng;
		ng++;
	}
	fclose(f);
	for (int i = 0; i < d->in.nhost; i++)
		if (group[i] < 0)
			return sw_fail(err, errlen, "%s: host %s in no group", path, d->in.host[i]);
	d->in.group = group;
	d->in.ngroup = ng;
	d->in.group_name = gnames;
	return 0;
}

int main(int argc, char **argv)
{
	char err[1024];
	struct sw_run *r;
	struct mapdata d;
	struct blame_result b;
	int pattern, group[MAX_HOSTS];
	uint64_t size;
	char gname[MAX_GROUPS][SW_HOST_MAX];
	const char *gnames[MAX_GROUPS];

	if (argc < 2 || argc == 3 || argc > 5) {
		fprintf(stderr, "usage: mapblame RUN [PATTERN SIZE_BYTES] [GROUPS]\n");
		return 2;
	}
	if (!(r = results_load(argv[1], err, sizeof(err)))) {
		fprintf(stderr, "mapblame: %s\n", err);
		return 1;
	}
	pattern = pattern_find(argc >= 4 ? argv[2] : "stream");
	size = argc >= 4 ? strtoull(argv[3], NULL, 10) : r->cfg.sizes[0];
	if (pattern < 0 || mapdata_fill(r, pattern, size, &d, err, sizeof(err)) ||
	    (argc == 5 && read_groups(argv[4], &d, group, gname, gnames, err, sizeof(err))) ||
	    blame_run(&d.in, &b, err, sizeof(err))) {
		fprintf(stderr, "mapblame: %s\n", pattern < 0 ? "unknown pattern" : err);
		return 1;
	}
	for (int i = 0; i < b.nclaim; i++) {
		char name[256];

		blame_claim_name(&b, &b.claim[i], name, sizeof(name));
		printf("claim %s %s rel=%g p=%g | %s\n", blame_kind_name(b.claim[i].kind), name, b.claim[i].rel,
		       b.claim[i].p, b.claim[i].evidence);
	}
	for (int g = 0; g < b.ngroup; g++) {
		printf("group %s ", b.group[g].name);
		for (int i = 0, n = 0; i < b.nhost; i++)
			if (b.host[i].group == g)
				printf("%s%s", n++ ? "," : "", b.host[i].name);
		putchar('\n');
	}
	for (size_t i = 0; i < b.nbound; i++) {
		const struct blame_boundary *q = &b.bound[i];

		printf("boundary %s|%s rel=%g p=%g flagged=%d capacity_MBps=%g lo=%g hi=%g pairs=%d\n",
		       b.group[q->g].name, b.group[q->h].name, q->rel, q->p, q->flagged, q->capacity / 1e6,
		       q->cap_lo / 1e6, q->cap_hi / 1e6, q->cap_pairs);
	}
	for (int i = 0; i < b.nhost; i++)
		printf("host %s group=%d rel=%g p=%g flagged=%d\n", b.host[i].name, b.host[i].group, b.host[i].rel,
		       b.host[i].p, b.host[i].flagged);
	printf("links %zu inferred=%d\n", b.nlink, b.inferred);
	blame_free(&b);
	mapdata_free(&d);
	run_free(r);
	return 0;
}
