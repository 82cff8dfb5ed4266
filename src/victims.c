/*
 * victims.c - the victims' latency histogram and their inflation under
 * the aggressors; see victims.h. Pure.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "victims.h"
#include "change.h"
#include "stats.h"

void victims_hist_clear(struct victims_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void victims_hist_add(struct victims_hist *h, double s)
{
	double b;
	int i;

	if (!(s > 0.0) || !isfinite(s))
		return;
	b = floor(log(s / VICTIMS_HIST_MIN) / log(VICTIMS_HIST_RATIO));
	i = b < 0 ? 0 : b >= VICTIMS_HIST_BINS ? VICTIMS_HIST_BINS - 1 : (int)b;
	h->n[i]++;
	h->total++;
}

double victims_hist_quantile(const struct victims_hist *h, double q)
{
	uint64_t rank, seen = 0;

	if (!h->total || !(q > 0.0 && q <= 1.0))
		return NAN;
	rank = (uint64_t)ceil(q * (double)h->total);
	if (rank < 1)
		rank = 1;
	for (int i = 0; i < VICTIMS_HIST_BINS; i++) {
		seen += h->n[i];
		if (seen >= rank)
			return VICTIMS_HIST_MIN * pow(VICTIMS_HIST_RATIO, i + 0.5);
	}
	return NAN;
}

bool victims_sample_ok(const struct sw_run *r, int cell, const struct sw_victim *v)
{
	return v->cell == cell && v->pair >= 0 && v->pair < r->plan->nvictims && v->rep >= 0 &&
	       v->rep < r->cell[cell].reps && isfinite(v->seconds) && v->seconds > 0.0 &&
	       isfinite(v->p50) && v->p50 > 0.0 && isfinite(v->p99) && v->p99 >= v->p50;
}

int victims_round_of(const struct sw_victim *v)
{
	return v->alone ? VICTIMS_ALONE : v->cpu ? VICTIMS_CPU : VICTIMS_LOADED;
}

/* Each repetition's value of round into by_rep[rep] (reps values): the
 * median over its victim pairs of p99 (tail) or p50, NaN where it has
 * none. 0 or -1 on ENOMEM. */
static int values_by_rep(const struct sw_run *r, int cell, int round, bool tail, double *by_rep)
{
	int reps = r->cell[cell].reps, nv = r->plan->nvictims;
	double *row = malloc((size_t)reps * (size_t)nv * sizeof(*row));
	int *cnt = calloc((size_t)reps, sizeof(*cnt));

	if (!row || !cnt) {
		free(row);
		free(cnt);
		return -1;
	}
	for (size_t i = 0; i < r->nvictims; i++) {
		const struct sw_victim *v = &r->victim[i];

		if (victims_round_of(v) == round && victims_sample_ok(r, cell, v) && cnt[v->rep] < nv)
			row[(size_t)v->rep * (size_t)nv + (size_t)cnt[v->rep]++] = tail ? v->p99 : v->p50;
	}
	for (int rep = 0; rep < reps; rep++)
		by_rep[rep] = cnt[rep] ? stats_median(row + (size_t)rep * (size_t)nv, (size_t)cnt[rep]) : NAN;
	free(row);
	free(cnt);
	return 0;
}

int victims_rep_values(const struct sw_run *r, int cell, int round, bool tail, double **out, size_t *n)
{
	int reps = r->cell[cell].reps;
	double *vals;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	if (reps < 1 || r->plan->nvictims < 1)
		return 0;
	vals = malloc((size_t)reps * sizeof(*vals));
	if (!vals || values_by_rep(r, cell, round, tail, vals)) {
		free(vals);
		return -1;
	}
	for (int rep = 0; rep < reps; rep++)
		if (!isnan(vals[rep]))
			vals[k++] = vals[rep];
	if (k) {
		*out = vals;
		*n = k;
	} else {
		free(vals);
	}
	return 0;
}

/* The change of the per-repetition values of round x against round base
 * (p99 when tail) into *ch; *nx and *nb get their counts. 0 or -1. */
static int change(const struct sw_run *r, int cell, int x_round, int base_round, bool tail,
		  const struct sw_config *cfg, struct sw_change *ch, size_t *nx, size_t *nb)
{
	double *x = NULL, *base = NULL;

	if (victims_rep_values(r, cell, x_round, tail, &x, nx) ||
	    victims_rep_values(r, cell, base_round, tail, &base, nb)) {
		free(x);
		return -1;
	}
	/* too few repetitions: p is NaN, so never significant */
	change_test(x, *nx, base, *nb, SW_METRIC_LATENCY, cfg, ch);
	free(x);
	free(base);
	return 0;
}

/* The change of round x against round base within each repetition (the
 * median p50s; change_blocks_mean: the repetitions are the blocks) into *ch;
 * *n gets the repetitions that have both. 0 or -1. */
static int paired_change(const struct sw_run *r, int cell, int x_round, int base_round,
			 const struct sw_config *cfg, struct sw_change *ch, size_t *n)
{
	int reps = r->cell[cell].reps;
	double *x, *base;

	*n = 0;
	change_invalid(ch);
	if (reps < 1 || r->plan->nvictims < 1)
		return 0;
	x = malloc(2 * (size_t)reps * sizeof(*x));
	if (!x)
		return -1;
	base = x + reps;
	if (values_by_rep(r, cell, x_round, false, x) || values_by_rep(r, cell, base_round, false, base)) {
		free(x);
		return -1;
	}
	for (int rep = 0; rep < reps; rep++)
		if (!isnan(x[rep]) && !isnan(base[rep])) {
			x[*n] = x[rep];
			base[(*n)++] = base[rep];
		}
	change_blocks_mean(x, base, *n, 0.0, SW_METRIC_LATENCY, cfg, ch);
	free(x);
	return 0;
}

int victims_analyse(const struct sw_run *r, int cell, const struct sw_config *cfg, struct sw_victim_stats *vs)
{
	size_t n;

	memset(vs, 0, sizeof(*vs));
	vs->cell = cell;
	if (change(r, cell, VICTIMS_LOADED, VICTIMS_ALONE, false, cfg, &vs->p50, &vs->nloaded, &vs->nalone) ||
	    change(r, cell, VICTIMS_LOADED, VICTIMS_ALONE, true, cfg, &vs->p99, &vs->nloaded, &vs->nalone) ||
	    paired_change(r, cell, VICTIMS_CPU, VICTIMS_ALONE, cfg, &vs->cpu, &vs->ncpu) ||
	    paired_change(r, cell, VICTIMS_LOADED, VICTIMS_CPU, cfg, &vs->net, &n))
		return -1;
	return 0;
}
