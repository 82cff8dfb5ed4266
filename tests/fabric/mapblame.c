/*
 * mapblame.c - the fabric map's statistics of a results folder, one fact
 * a line, for the known answers of run_tests.sh (independent of the
 * report's layout):
 *
 *   mapblame RUN [PATTERN SIZE_BYTES]     (default: stream, the first size)
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

int main(int argc, char **argv)
{
	char err[1024];
	struct sw_run *r;
	struct mapdata d;
	struct blame_result b;
	int pattern;
	uint64_t size;

	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: mapblame RUN [PATTERN SIZE_BYTES]\n");
		return 2;
	}
	if (!(r = results_load(argv[1], err, sizeof(err)))) {
		fprintf(stderr, "mapblame: %s\n", err);
		return 1;
	}
	pattern = pattern_find(argc == 4 ? argv[2] : "stream");
	size = argc == 4 ? strtoull(argv[3], NULL, 10) : r->cfg.sizes[0];
	if (pattern < 0 || mapdata_fill(r, pattern, size, &d, err, sizeof(err)) ||
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
