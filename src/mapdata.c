/*
 * mapdata.c - a map run's samples as blame's input; see mapdata.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mapdata.h"
#include "mapsched.h"
#include "pattern.h"
#include "plan.h"

void mapdata_free(struct mapdata *d)
{
	free(d->name);
	free(d->host);
	free(d->pair);
	free(d->v);
	free(d->gname);
	memset(d, 0, sizeof(*d));
}

void mapdata_host_name(const struct sw_run *r, int i, char name[SW_HOST_MAX + 8])
{
	char h[SW_HOST_MAX];
	bool shared = false;

	run_host_name(r, i, h);
	for (int j = 0; j < r->nranks && !shared; j++) {
		char o[SW_HOST_MAX];

		run_host_name(r, j, o);
		shared = j != i && strcmp(h, o) == 0;
	}
	snprintf(name, SW_HOST_MAX + 8, shared ? "%s:%d" : "%s", h, i);
}

static void name_hosts(const struct sw_run *r, struct mapdata *d)
{
	for (int i = 0; i < r->nranks; i++) {
		mapdata_host_name(r, i, d->name[i]);
		d->host[i] = d->name[i];
	}
}

int mapdata_fill(const struct sw_run *r, int pattern, uint64_t size, struct mapdata *d, char *err, size_t errlen)
{
	const struct sw_plan *p = r->plan;
	int nblock = 0;
	size_t npair = 0;
	bool lat = pattern_latency_metric(pattern);

	memset(d, 0, sizeof(*d));
	if (!p->map)
		return sw_fail(err, errlen, "run %s: not a map (schedule = map)", r->name);
	for (size_t i = 0; i < r->nsamples; i++) {
		const struct sw_sample *s = &r->sample[i];

		if (p->cell[s->cell].pattern == pattern && p->cell[s->cell].size == size && s->rep + 1 > nblock)
			nblock = s->rep + 1;
	}
	for (int ci = 0; ci < p->ncells; ci++)
		if (p->cell[ci].pattern == pattern && p->cell[ci].size == size)
			npair += (size_t)p->level_pairs[p->cell[ci].level];
	if (!npair || !nblock)
		return sw_fail(err, errlen, "run %s: no samples of %s at %llu bytes", r->name, pattern_name(pattern),
			       (unsigned long long)size);
	d->name = calloc((size_t)r->nranks, sizeof(*d->name));
	d->host = calloc((size_t)r->nranks, sizeof(*d->host));
	d->pair = calloc(npair, sizeof(*d->pair));
	d->v = malloc(npair * (size_t)nblock * sizeof(*d->v));
	if (!d->name || !d->host || !d->pair || !d->v) {
		mapdata_free(d);
		return sw_fail(err, errlen, "out of memory (the map's %zu pairs)", npair);
	}
	name_hosts(r, d);
	for (size_t i = 0; i < npair * (size_t)nblock; i++)
		d->v[i] = NAN;
	/* the pairs in cell order, each cell's level's pairs from its first
	 * index; a sample's row is its cell's first plus its pair */
	size_t *first = calloc((size_t)p->ncells, sizeof(*first)), k = 0;

	if (!first) {
		mapdata_free(d);
		return sw_fail(err, errlen, "out of memory (the map's cells)");
	}
	for (int ci = 0; ci < p->ncells; ci++) {
		if (p->cell[ci].pattern != pattern || p->cell[ci].size != size)
			continue;
		first[ci] = k;
		for (int i = 0; i < p->level_pairs[p->cell[ci].level]; i++, k++) {
			struct sw_pair q = plan_pair(p, ci, i);

			d->pair[k] = (struct blame_pair){ .a = q.a, .b = q.b, .v = d->v + k * (size_t)nblock,
							   .round = mapsched_step_round(p->map, p->cell[ci].level) };
		}
	}
	for (size_t i = 0; i < r->nsamples; i++) {
		const struct sw_sample *s = &r->sample[i];
		const struct sw_cell *c = &p->cell[s->cell];
		double x;

		if (c->pattern != pattern || c->size != size || s->pair >= p->level_pairs[c->level])
			continue;
		x = lat ? run_sample_latency(r, s) : run_sample_bandwidth(r, s);
		if (isfinite(x) && x > 0)
			d->v[(first[s->cell] + (size_t)s->pair) * (size_t)nblock + (size_t)s->rep] = x;
	}
	free(first);
	d->in = (struct blame_input){
		.nhost = r->nranks, .host = d->host, .pair = d->pair, .npair = npair, .nblock = nblock,
		.metric = lat ? BLAME_LATENCY : BLAME_BANDWIDTH, .floor = r->cfg.suspect_min_effect / 100.0,
		.alpha = r->cfg.alpha, .confidence = r->cfg.confidence,
	};
	if (r->ngroup) {
		d->gname = malloc((size_t)r->ngroup * sizeof(*d->gname));
		if (!d->gname) {
			mapdata_free(d);
			return sw_fail(err, errlen, "out of memory (the map's groups)");
		}
		for (int g = 0; g < r->ngroup; g++)
			d->gname[g] = r->group_name[g];
		d->in.group = r->group;
		d->in.ngroup = r->ngroup;
		d->in.group_name = d->gname;
	}
	return 0;
}
