/*
 * victims.c - the victims' latency histogram and their inflation under
 * the aggressors; see victims.h. Pure.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "victims.h"
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

int victims_rep_values(const struct sw_run *r, int cell, bool alone, bool tail, double **out, size_t *n)
{
	int reps = r->cell[cell].reps, nv = r->plan->nvictims;
	double *vals, *row;
	int *cnt;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	if (reps < 1 || nv < 1)
		return 0;
	vals = malloc((size_t)reps * sizeof(*vals));
	row = malloc((size_t)reps * (size_t)nv * sizeof(*row));
	cnt = calloc((size_t)reps, sizeof(*cnt));
	if (!vals || !row || !cnt)
		goto out_free;
	for (size_t i = 0; i < r->nvictims; i++) {
		const struct sw_victim *v = &r->victim[i];

		if (v->alone == alone && victims_sample_ok(r, cell, v) && cnt[v->rep] < nv)
			row[(size_t)v->rep * (size_t)nv + (size_t)cnt[v->rep]++] = tail ? v->p99 : v->p50;
	}
	for (int rep = 0; rep < reps; rep++)
		if (cnt[rep])
			vals[k++] = stats_median(row + (size_t)rep * (size_t)nv, (size_t)cnt[rep]);
	free(row);
	free(cnt);
	if (k) {
		*out = vals;
		*n = k;
	} else {
		free(vals);
	}
	return 0;

out_free:
	free(vals);
	free(row);
	free(cnt);
	return -1;
}

int victims_analyse(const struct sw_run *r, int cell, const struct sw_config *cfg, struct sw_victim_stats *vs)
{
	struct sw_change *ch[2] = { &vs->p50, &vs->p99 };

	memset(vs, 0, sizeof(*vs));
	vs->cell = cell;
	for (int tail = 0; tail < 2; tail++) {
		double *x = NULL, *base = NULL;
		size_t nx = 0, nb = 0;

		if (victims_rep_values(r, cell, false, tail, &x, &nx) ||
		    victims_rep_values(r, cell, true, tail, &base, &nb)) {
			free(x);
			return -1;
		}
		/* too few repetitions: p is NaN, so never significant */
		change_test(x, nx, base, nb, SW_METRIC_LATENCY, cfg, ch[tail]);
		vs->nloaded = nx;
		vs->nalone = nb;
		free(x);
		free(base);
	}
	return 0;
}
