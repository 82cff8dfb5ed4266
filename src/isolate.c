/* isolate.c - probes that name the one slow host of a flagged pair; see
 * isolate.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "isolate.h"
#include "pattern.h"
#include "stats.h"
#include "sw.h"

/* Ranks in a flagged pair of pair[0..npair) get 1 in bad[] (size
 * nranks); into best[p] the cell where plan pair p has its largest |z|
 * among flagged cells (-1: not flagged). */
static void flagged_pairs(const struct sw_run *r, const struct sw_pair_stats *pair, size_t npair, char *bad,
			  int *best)
{
	double *bz = calloc((size_t)r->plan->npairs, sizeof(*bz));

	for (int p = 0; p < r->plan->npairs; p++)
		best[p] = -1;
	for (size_t i = 0; bz && i < npair; i++) {
		const struct sw_pair_stats *q = &pair[i];

		if (!q->flagged || q->pair < 0 || q->pair >= r->plan->npairs)
			continue;
		bad[r->plan->pair[q->pair].a] = bad[r->plan->pair[q->pair].b] = 1;
		if (best[q->pair] < 0 || fabs(q->z) > bz[q->pair]) {
			best[q->pair] = q->cell;
			bz[q->pair] = fabs(q->z);
		}
	}
	free(bz);
}

int isolate_plan(const struct sw_run *r, const struct sw_pair_stats *pair, size_t npair,
		 struct sw_probe *out, int cap)
{
	char *bad = calloc((size_t)r->nranks, 1);
	int *best = calloc((size_t)(r->plan->npairs > 0 ? r->plan->npairs : 1), sizeof(int));
	int *ok = calloc((size_t)r->nranks, sizeof(int));
	int nok = 0, n = 0;

	if (!bad || !best || !ok || !pair)
		goto out;
	flagged_pairs(r, pair, npair, bad, best);
	for (int i = 0; i < r->nranks; i++)
		if (!bad[i])
			ok[nok++] = i;
	if (nok < 2)
		goto out;
	for (int p = 0; p < r->plan->npairs; p++) {
		int tested[2] = { r->plan->pair[p].a, r->plan->pair[p].b }, c = best[p];
		bool have_control = false;

		if (c < 0)
			continue;
		for (int t = 0; t < 2; t++)
			for (int k = 0; k < ISOLATE_PARTNERS && k < nok && n < cap; k++)
				out[n++] = (struct sw_probe){ .a = ok[k], .b = tested[t], .host = tested[t], .cell = c };
		for (int i = 0; i < n; i++)
			have_control |= out[i].host < 0 && out[i].cell == c;
		if (!have_control && n < cap)
			out[n++] = (struct sw_probe){ .a = ok[0], .b = ok[1], .host = -1, .cell = c };
	}
out:
	free(bad);
	free(best);
	free(ok);
	return n;
}

/* Median of the metric over r's probes matching (host, cell, partner a;
 * a < 0: any); NaN when none. */
static double probe_median(const struct sw_run *r, int host, int cell, int a, bool bw)
{
	double v[64];
	size_t n = 0;

	for (size_t i = 0; i < r->nprobes && n < 64; i++) {
		const struct sw_probe *p = &r->probe[i];

		if (p->host != host || p->cell != cell || (a >= 0 && p->a != a) || !(p->seconds > 0))
			continue;
		v[n++] = bw ? run_probe_bandwidth(r, p) : run_probe_latency(r, p);
	}
	return n ? stats_median(v, n) : NAN;
}

/* The median of the pair of rank host in cell (bandwidth bytes/s or
 * latency s, from the sweep's pair[0..npair)); NaN when there is none. */
static double pair_value(const struct sw_run *r, const struct sw_pair_stats *pair, size_t npair, int cell,
			 int host, bool bw)
{
	for (size_t i = 0; pair && i < npair; i++) {
		const struct sw_pair_stats *q = &pair[i];

		if (q->cell == cell && (r->plan->pair[q->pair].a == host || r->plan->pair[q->pair].b == host))
			return bw ? q->bw_median : q->lat_median;
	}
	return NAN;
}

/* How much worse v is than ref, in %: a drop for bandwidth, an inflation
 * for latency. */
static double worse_pct(double v, double ref, bool bw)
{
	return bw ? (1.0 - v / ref) * 100.0 : (v / ref - 1.0) * 100.0;
}

int isolate_judge(const struct sw_run *r, const struct sw_config *cfg, const struct sw_pair_stats *pair,
		  size_t npair, struct sw_isolated **out, int *n)
{
	struct sw_isolated *x = NULL;
	int nx = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < r->nprobes; i++) {
		const struct sw_probe *p = &r->probe[i];
		struct sw_isolated *e = NULL;

		if (p->host < 0 || p->cell < 0 || p->cell >= r->plan->ncells)
			continue;
		for (int j = 0; j < nx && !e; j++)
			if (x[j].rank == p->host && x[j].pattern == r->plan->cell[p->cell].pattern &&
			    x[j].size == r->plan->cell[p->cell].size)
				e = &x[j];
		if (!e) {
			struct sw_isolated *g = realloc(x, (size_t)(nx + 1) * sizeof(*x));

			if (!g) {
				free(x);
				return -1;
			}
			x = g;
			e = &x[nx++];
			memset(e, 0, sizeof(*e));
			e->rank = p->host;
			e->pattern = r->plan->cell[p->cell].pattern;
			e->size = r->plan->cell[p->cell].size;
			run_host_name(r, p->host, e->host);
			bool bw = !pattern_latency_metric(e->pattern);
			e->control = probe_median(r, -1, p->cell, -1, bw);
			e->flagged_pct = worse_pct(pair_value(r, pair, npair, p->cell, p->host, bw), e->control, bw);
			e->threshold = bw ? cfg->warn_drop : cfg->warn_inflation;
			if (isfinite(e->flagged_pct) && e->flagged_pct / 2 > e->threshold)
				e->threshold = e->flagged_pct / 2;
		}
		char name[SW_HOST_MAX];
		bool seen = false;

		run_host_name(r, p->a, name);
		for (int k = 0; k < e->tested; k++)
			seen |= strcmp(e->partner[k], name) == 0;
		if (seen || e->tested == ISOLATE_PARTNERS)
			continue;
		bool bw = !pattern_latency_metric(e->pattern);
		double v = probe_median(r, p->host, p->cell, p->a, bw);
		double worse = worse_pct(v, e->control, bw);

		memcpy(e->partner[e->tested], name, SW_HOST_MAX);
		e->value[e->tested++] = v;
		e->slow += isfinite(worse) && worse > e->threshold;
	}
	for (int j = 0; j < nx; j++)
		x[j].verdict = x[j].tested >= 2 && x[j].slow == x[j].tested ? ISOLATE_SLOW
			     : x[j].slow == 0 && x[j].tested >= 1 && isfinite(x[j].control) ? ISOLATE_CLEARED
			     : ISOLATE_UNCLEAR;
	*out = x;
	*n = nx;
	return 0;
}

const char *isolate_verdict_name(int verdict)
{
	return verdict == ISOLATE_SLOW ? "slow" : verdict == ISOLATE_CLEARED ? "cleared" : "unclear";
}

void isolate_evidence(const struct sw_isolated *x, char *buf, size_t len)
{
	bool bw = !pattern_latency_metric(x->pattern);
	double k = bw ? 1e-6 : 1e6;
	const char *unit = bw ? "MB/s" : "us/hop";

	buf[0] = '\0';
	if (x->verdict == ISOLATE_SLOW)
		sw_appendf(buf, len, "host %s: slow with %d different partners (", x->host, x->tested);
	else if (x->verdict == ISOLATE_CLEARED)
		sw_appendf(buf, len, "host %s: healthy with %d others (", x->host, x->tested);
	else
		sw_appendf(buf, len, "host %s: slow with %d of %d partners (", x->host, x->slow, x->tested);
	for (int i = 0; i < x->tested; i++)
		sw_appendf(buf, len, "%s%.4g", i ? ", " : "", x->value[i] * k);
	sw_appendf(buf, len, " %s; healthy pair %.4g %s; slow = %s by more than %.0f%%)", unit, x->control * k,
		   unit, bw ? "a drop" : "an inflation", x->threshold);
}
