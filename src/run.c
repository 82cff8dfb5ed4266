/*
 * run.c - the in-memory run; see run.h. The run owns its plan, hosts,
 * per-cell facts, samples and CPU records; run_free releases them all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"
#include "pattern.h"

static const char *const stop_names[SW_STOP_COUNT] = {
	[SW_STOP_FIXED] = "fixed",
	[SW_STOP_CONVERGED] = "converged",
	[SW_STOP_MAX_REPS] = "max-reps",
	[SW_STOP_BUDGET] = "budget",
	[SW_STOP_FAILED] = "failed",
	[SW_STOP_NOT_RUN] = "not-run",
};

struct sw_run *run_create(const struct sw_config *c, struct sw_plan *plan, int nranks)
{
	struct sw_run *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->cfg = *c;
	r->plan = plan;
	r->nranks = nranks;
	r->host = calloc((size_t)(nranks > 0 ? nranks : 1), sizeof(*r->host));
	r->id = malloc((size_t)(nranks > 0 ? nranks : 1) * sizeof(*r->id));
	r->cell = calloc((size_t)(plan->ncells > 0 ? plan->ncells : 1), sizeof(*r->cell));
	if (!r->host || !r->id || !r->cell)
		goto out_free;
	for (int i = 0; i < nranks; i++)
		hostid_unknown(&r->id[i]);
	for (int i = 0; i < plan->ncells; i++)
		r->cell[i].stop = SW_STOP_NOT_RUN;
	snprintf(r->tool_version, sizeof(r->tool_version), "%s", SW_VERSION);
	r->round_trip = NAN;
	return r;

out_free:
	free(r->host);
	free(r->id);
	free(r->group_name);
	free(r->group);
	free(r->cell);
	free(r);
	return NULL;
}

void run_free(struct sw_run *r)
{
	if (!r)
		return;
	plan_free(r->plan);
	free(r->host);
	free(r->id);
	free(r->cell);
	free(r->sample);
	free(r->cpu);
	free(r->probe);
	free(r->again);
	free(r->victim);
	free(r->group_name);
	free(r->group);
	free(r);
}

/* Grow *arr (elements of size elem) so that it holds at least need. */
static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 256;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * elem);
	if (!p)
		return -1;
	*arr = p;
	*cap = n;
	return 0;
}

/* The smallest window a sample may have, and the fastest hop: below them
 * the count is the timer's or the clock's, not the switch's. */
#define RUN_MIN_SECONDS 1e-9
#define RUN_MIN_HOP 1e-9

static const char *const missing_names[SW_MISSING_COUNT] = {
	[SW_MISSING_NONE] = "",
	[SW_MISSING_LATE] = "late",
	[SW_MISSING_SHORT] = "short",
	[SW_MISSING_FAST] = "fast",
};

static const char *const missing_whys[SW_MISSING_COUNT] = {
	[SW_MISSING_NONE] = "",
	[SW_MISSING_LATE] = "no time window: the pair began at or after the deadline",
	[SW_MISSING_SHORT] = "a window of one timer tick or less",
	[SW_MISSING_FAST] = "more messages than one a nanosecond in its window",
};

int run_sample_check(const struct sw_sample *s, double wtick)
{
	double tick = isfinite(wtick) && wtick > RUN_MIN_SECONDS ? wtick : RUN_MIN_SECONDS;

	if (!isfinite(s->seconds) || s->seconds <= 0.0 || (isfinite(s->t_start) && isfinite(s->t_end) && !(s->t_end > s->t_start)))
		return SW_MISSING_LATE;
	if (s->seconds <= tick)   /* one tick or less: the count is the timer's */
		return SW_MISSING_SHORT;
	if ((double)s->hops * RUN_MIN_HOP > s->seconds * (1 + 1e-9))
		return SW_MISSING_FAST;
	return SW_MISSING_NONE;
}

const char *run_missing_name(int missing)
{
	return missing >= 0 && missing < SW_MISSING_COUNT ? missing_names[missing] : "?";
}

const char *run_missing_why(int missing)
{
	return missing >= 0 && missing < SW_MISSING_COUNT ? missing_whys[missing] : "?";
}

int run_missing_parse(const char *word)
{
	for (int m = 0; m < SW_MISSING_COUNT; m++)
		if (!strcmp(word, missing_names[m]))
			return m;
	return -1;
}

/* s as the run keeps it: the cell's hops when 0, a missing reason by
 * run_sample_check unless it has one, and then no seconds. */
static struct sw_sample kept_sample(const struct sw_run *r, const struct sw_sample *s)
{
	struct sw_sample k = *s;

	if (k.hops == 0)
		k.hops = r->plan->cell[k.cell].hops;
	if (!k.missing)
		k.missing = run_sample_check(&k, r->wtick);
	if (k.missing)
		k.seconds = NAN;
	return k;
}

int run_add_sample(struct sw_run *r, const struct sw_sample *s)
{
	if (grow((void **)&r->sample, &r->cap_samples, r->nsamples + 1, sizeof(*s)))
		return -1;
	r->sample[r->nsamples++] = kept_sample(r, s);
	return 0;
}

int run_add_cpu(struct sw_run *r, const struct sw_cpu *c)
{
	for (size_t i = 0; i < r->ncpu; i++)
		if (r->cpu[i].level == c->level && r->cpu[i].rank == c->rank) {
			r->cpu[i].user += c->user;   /* a block design visits a level again */
			r->cpu[i].sys += c->sys;
			return 0;
		}
	if (grow((void **)&r->cpu, &r->cap_cpu, r->ncpu + 1, sizeof(*c)))
		return -1;
	r->cpu[r->ncpu++] = *c;
	return 0;
}

double run_memory_bytes(const struct sw_plan *p, const struct sw_config *c)
{
	double samples = 0, blocks = c->rep_max;
	/* CPU records: every level and rank; a map's under each block's last step */
	double cpu_levels = p->map ? fmin(blocks, p->nlevels) : p->nlevels;

	for (int ci = 0; ci < p->ncells; ci++)
		samples += p->level_pairs[p->cell[ci].level];
	return samples * blocks * sizeof(struct sw_sample) +
	       (double)p->ncells * (sizeof(struct sw_cell_run) + sizeof(struct sw_cell)) +
	       cpu_levels * p->nranks * sizeof(struct sw_cpu) +
	       (double)p->nranks * (SW_HOST_MAX + sizeof(struct hostid));
}

int run_add_probe(struct sw_run *r, const struct sw_probe *p)
{
	if (grow((void **)&r->probe, &r->cap_probes, r->nprobes + 1, sizeof(*p)))
		return -1;
	r->probe[r->nprobes++] = *p;
	return 0;
}

int run_add_again(struct sw_run *r, const struct sw_sample *s)
{
	if (grow((void **)&r->again, &r->cap_again, r->nagain + 1, sizeof(*s)))
		return -1;
	r->again[r->nagain++] = kept_sample(r, s);
	return 0;
}

int run_add_victim(struct sw_run *r, const struct sw_victim *v)
{
	if (grow((void **)&r->victim, &r->cap_victims, r->nvictims + 1, sizeof(*v)))
		return -1;
	r->victim[r->nvictims++] = *v;
	return 0;
}

double run_probe_latency(const struct sw_run *r, const struct sw_probe *p)
{
	return pattern_latency(r->plan->cell[p->cell].pattern, p->hops, p->seconds);
}

double run_probe_bandwidth(const struct sw_run *r, const struct sw_probe *p)
{
	const struct sw_cell *c = &r->plan->cell[p->cell];

	return pattern_bandwidth(c->pattern, c->size, p->hops, p->seconds);
}

double run_sample_latency(const struct sw_run *r, const struct sw_sample *s)
{
	const struct sw_cell *c = &r->plan->cell[s->cell];

	return pattern_latency(c->pattern, s->hops, s->seconds);
}

double run_sample_bandwidth(const struct sw_run *r, const struct sw_sample *s)
{
	const struct sw_cell *c = &r->plan->cell[s->cell];

	return pattern_bandwidth(c->pattern, c->size, s->hops, s->seconds);
}

int run_sample_block(const struct sw_run *r, const struct sw_sample *s)
{
	return r->cfg.design == CFG_DESIGN_BLOCKS ? s->rep : -1;
}

static int cmp_sample(const void *pa, const void *pb)
{
	const struct sw_sample *a = pa, *b = pb;

	if (a->cell != b->cell)
		return a->cell < b->cell ? -1 : 1;
	if (a->rep != b->rep)
		return a->rep < b->rep ? -1 : 1;
	return (a->pair > b->pair) - (a->pair < b->pair);
}

void run_sort_samples(struct sw_run *r)
{
	if (r->nsamples > 1)
		qsort(r->sample, r->nsamples, sizeof(*r->sample), cmp_sample);
}

size_t run_cell_samples(const struct sw_run *r, int cell, size_t *first)
{
	size_t lo = 0, hi = r->nsamples, start;

	/* Samples are in cell order: binary search the first of the cell. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->sample[mid].cell < cell)
			lo = mid + 1;
		else
			hi = mid;
	}
	start = lo;
	while (lo < r->nsamples && r->sample[lo].cell == cell)
		lo++;
	if (first)
		*first = start;
	return lo - start;
}

void run_host_name(const struct sw_run *r, int rank, char buf[SW_HOST_MAX])
{
	if (r && r->host && rank >= 0 && rank < r->nranks && r->host[rank][0])
		snprintf(buf, SW_HOST_MAX, "%s", r->host[rank]);
	else
		snprintf(buf, SW_HOST_MAX, "rank %d", rank);
}

bool run_cell_cpu_bound(const struct sw_run *r, int cell, int *ranks, int *cores)
{
	const struct sw_plan *p = r->plan;
	bool *busy = calloc((size_t)(r->nranks > 0 ? r->nranks : 1), sizeof(*busy)), bound;

	*ranks = *cores = 0;
	if (!busy)
		return false;
	for (int i = 0; i < run_cell_pairs(r, cell); i++) {
		struct sw_pair q = plan_pair(p, cell, i);

		busy[q.a] = busy[q.b] = true;
	}
	for (int i = 0; i < p->nvictims; i++)
		busy[p->victim[i].a] = busy[p->victim[i].b] = true;
	bound = hostid_busy(r->id, r->nranks, busy, ranks, cores);
	free(busy);
	return bound;
}

int run_cell_pairs(const struct sw_run *r, int cell)
{
	return r->plan->level_pairs[r->plan->cell[cell].level];
}

const char *run_stop_name(int stop)
{
	if (stop < 0 || stop >= SW_STOP_COUNT)
		return "?";
	return stop_names[stop];
}

int run_stop_find(const char *name)
{
	for (int i = 0; i < SW_STOP_COUNT; i++)
		if (strcmp(stop_names[i], name) == 0)
			return i;
	return -1;
}
