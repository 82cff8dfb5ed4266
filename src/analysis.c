/*
 * analysis.c - the statistics of a run; see analysis.h.
 *
 * Pure: reads a struct sw_run and a config, returns a struct sw_analysis
 * that the caller owns (analysis_free). The numerics are in stats.c; this
 * file only groups samples into cells, pairs, repetitions and hosts.
 *
 * A sample counts when its time is positive and finite and its pair and
 * repetition are in range; others (a failed cell's leftovers) are skipped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "config.h"
#include "isolate.h"
#include "pattern.h"
#include "victims.h"

/* Slow pairs: MAD and mean absolute deviation scaled to estimate a
 * normal sigma; the standard error of a median of n is MEDIAN_SE sigma /
 * sqrt(n); SIGMA_FLOOR keeps the scale of a cell whose samples are all
 * equal above 0 (0.1%, in logs). */
#define MAD_SCALE 1.482602
#define MEANAD_SCALE 1.253314
#define MEDIAN_SE 1.253314
#define SIGMA_FLOOR 1e-3
/* The designed false-alarm rate of the slow-pair test: at most 1% of
 * cells flag a pair by noise (Bonferroni over its pairs), before the
 * effect floor and the consistency rule of suspects. */
#define SUSPECT_ALPHA 0.01
/* Hockney split: a step between neighbouring sizes is an eager/rendezvous
 * jump when latency rises by at least JUMP_RATIO and the step's slope
 * (s per byte) exceeds JUMP_SLOPE times the steeper of its neighbours. */
#define JUMP_RATIO 1.25
#define JUMP_SLOPE 1.5

/* Valid values of one cell, kept until the baselines are compared. */
struct cell_data {
	double *lat, *bw;   /* per sample, n */
	size_t n;
	double *aggpp;      /* aggregate bandwidth / pairs, per complete rep */
	double *agg;        /* aggregate bandwidth, per complete rep */
	int *aggrep;        /* the rep (block) of each */
	size_t nagg;
	double *rlat, *rbw; /* per repetition: median over its pairs */
	size_t nrlat, nrbw;
};

bool analysis_sample_ok(const struct sw_run *r, int cell, const struct sw_sample *s)
{
	int pairs = run_cell_pairs(r, cell);

	return !s->missing && isfinite(s->seconds) && s->seconds > 0.0 && s->rep >= 0 &&
	       s->pair >= 0 && s->pair < pairs && s->pair < r->plan->npairs;
}

long analysis_floor_hops(int pattern, bool timed, int window)
{
	long h = ANALYSIS_FLOOR_MSGS;
	const struct sw_pattern_info *pi = pattern_info(pattern);

	if (!timed && pi && pi->windowed && (long)ANALYSIS_FLOOR_WINDOWS * window > h)
		h = (long)ANALYSIS_FLOOR_WINDOWS * window;
	return h;
}

double analysis_floor_seconds(double wtick, double round_trip)
{
	double s = 0.0;

	if (isfinite(wtick) && wtick > 0.0)
		s = ANALYSIS_FLOOR_TICKS * wtick;
	if (isfinite(round_trip) && round_trip > 0.0)
		s = fmax(s, ANALYSIS_FLOOR_TRIPS * round_trip);
	return s;
}

bool analysis_cell_below_floor(const struct sw_run *r, int cell, size_t *short_n, size_t *n)
{
	const struct sw_cell *c = &r->plan->cell[cell];
	size_t first, cnt = run_cell_samples(r, cell, &first);
	long hops = analysis_floor_hops(c->pattern, c->timed, r->cfg.window);
	double secs = analysis_floor_seconds(r->wtick, r->round_trip);

	size_t missing = 0;

	*short_n = *n = 0;
	for (size_t i = first; i < first + cnt; i++) {
		const struct sw_sample *s = &r->sample[i];

		missing += s->missing != 0;
		if (!analysis_sample_ok(r, cell, s))
			continue;
		(*n)++;
		*short_n += s->hops < hops || s->seconds < secs;
	}
	return 2 * (*short_n + missing) > *n + missing;
}

/* The missing samples of cell, by reason, into cs. */
static void count_missing(const struct sw_run *r, int cell, struct sw_cell_stats *cs)
{
	size_t first, cnt = run_cell_samples(r, cell, &first);

	for (size_t i = first; i < first + cnt; i++)
		if (r->sample[i].missing > 0 && r->sample[i].missing < SW_MISSING_COUNT) {
			cs->missing[r->sample[i].missing]++;
			cs->nmissing++;
		}
}

static double sample_value(const struct sw_run *r, const struct sw_sample *s, int metric)
{
	return metric == SW_METRIC_LATENCY ? run_sample_latency(r, s) : run_sample_bandwidth(r, s);
}

struct rep_value {
	int rep;
	double v;
};

static int cmp_rep_value(const void *a, const void *b)
{
	const struct rep_value *x = a, *y = b;

	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	return (x->v > y->v) - (x->v < y->v);
}

/* The valid, finite values of cell's samples among sample[0..cnt) with
 * their repetitions, into a new array (*rv, *k; NULL and 0 when none).
 * 0 or -1 (ENOMEM). */
static int collect_values(const struct sw_run *r, int cell, const struct sw_sample *sample, size_t cnt,
			  int metric, struct rep_value **rv, size_t *k)
{
	*rv = NULL;
	*k = 0;
	if (cnt == 0)
		return 0;
	*rv = malloc(cnt * sizeof(**rv));
	if (!*rv)
		return -1;
	for (size_t i = 0; i < cnt; i++) {
		const struct sw_sample *s = &sample[i];
		double v;

		if (s->cell != cell || !analysis_sample_ok(r, cell, s))
			continue;
		v = sample_value(r, s, metric);
		if (isfinite(v))
			(*rv)[(*k)++] = (struct rep_value){ s->rep, v };
	}
	return 0;
}

int analysis_cell_values(const struct sw_run *r, int cell, int metric, double **out, size_t *n)
{
	struct rep_value *rv;
	size_t first, cnt = run_cell_samples(r, cell, &first), k;
	double *x;

	*out = NULL;
	*n = 0;
	if (collect_values(r, cell, r->sample + first, cnt, metric, &rv, &k))
		return -1;
	if (k == 0) {
		free(rv);
		return 0;
	}
	x = malloc(k * sizeof(*x));
	if (!x) {
		free(rv);
		return -1;
	}
	for (size_t i = 0; i < k; i++)
		x[i] = rv[i].v;
	free(rv);
	*out = x;
	*n = k;
	return 0;
}

/* analysis_rep_values over the samples sample[0..cnt) of cell; with reps
 * (may be NULL) also each value's repetition into a new array. */
static int rep_values_of(const struct sw_run *r, int cell, const struct sw_sample *sample, size_t cnt,
			 int metric, double **out, int **reps, size_t *n)
{
	struct rep_value *rv;
	size_t k, m = 0;
	double *x;
	int *rp = NULL;

	*out = NULL;
	if (reps)
		*reps = NULL;
	*n = 0;
	if (collect_values(r, cell, sample, cnt, metric, &rv, &k))
		return -1;
	if (k == 0) {
		free(rv);
		return 0;
	}
	qsort(rv, k, sizeof(*rv), cmp_rep_value);
	x = malloc(k * sizeof(*x));
	if (reps)
		rp = malloc(k * sizeof(*rp));
	if (!x || (reps && !rp)) {
		free(x);
		free(rv);
		return -1;
	}
	for (size_t i = 0, j; i < k; i = j) {
		for (j = i + 1; j < k && rv[j].rep == rv[i].rep; j++)
			;
		/* sorted within the repetition: the median directly */
		if (rp)
			rp[m] = rv[i].rep;
		x[m++] = (j - i) % 2 ? rv[i + (j - i) / 2].v
				     : (rv[i + (j - i) / 2 - 1].v + rv[i + (j - i) / 2].v) / 2.0;
	}
	free(rv);
	*out = x;
	if (reps)
		*reps = rp;
	*n = m;
	return 0;
}

static int rep_values(const struct sw_run *r, int cell, const struct sw_sample *sample, size_t cnt,
		      int metric, double **out, size_t *n)
{
	return rep_values_of(r, cell, sample, cnt, metric, out, NULL, n);
}

int analysis_rep_values(const struct sw_run *r, int cell, int metric, double **out, size_t *n)
{
	size_t first, cnt = run_cell_samples(r, cell, &first);

	return rep_values(r, cell, r->sample + first, cnt, metric, out, n);
}

int analysis_block_values(const struct sw_run *r, int cell, int metric, double **out, int **block, size_t *n)
{
	size_t first, cnt = run_cell_samples(r, cell, &first);

	return rep_values_of(r, cell, r->sample + first, cnt, metric, out, block, n);
}

/* The values vx[0..nx) of blocks bx and vb[0..nb) of blocks bb (both
 * ascending) in the blocks that have both, into new arrays *x and *b (*n
 * of each). 0 or -1 (ENOMEM). */
static int merge_blocks(const double *vx, const int *bx, size_t nx, const double *vb, const int *bb, size_t nb,
			double **x, double **b, size_t *n)
{
	size_t m = 0;

	*n = 0;
	*x = malloc((nx ? nx : 1) * sizeof(**x));
	*b = malloc((nx ? nx : 1) * sizeof(**b));
	if (!*x || !*b) {
		free(*x);
		free(*b);
		*x = *b = NULL;
		return -1;
	}
	for (size_t i = 0, j = 0; i < nx && j < nb;) {
		if (bx[i] < bb[j]) {
			i++;
		} else if (bx[i] > bb[j]) {
			j++;
		} else {
			(*x)[m] = vx[i++];
			(*b)[m++] = vb[j++];
		}
	}
	*n = m;
	return 0;
}

int analysis_block_pairs(const struct sw_run *r, int cell, int base, int metric, double **x, double **b,
			 size_t *n)
{
	double *vx = NULL, *vb = NULL;
	int *bx = NULL, *bb = NULL, rc = -1;
	size_t nx, nb;

	*x = *b = NULL;
	*n = 0;
	if (analysis_block_values(r, cell, metric, &vx, &bx, &nx) ||
	    analysis_block_values(r, base, metric, &vb, &bb, &nb))
		goto out;
	rc = merge_blocks(vx, bx, nx, vb, bb, nb, x, b, n);
out:
	free(vx);
	free(vb);
	free(bx);
	free(bb);
	return rc;
}

int analysis_cell_resolution(const struct sw_run *r, int c, double *res)
{
	size_t first = 0, n = run_cell_samples(r, c, &first);
	double *t, tick = 0.0, msg = 0.0;

	*res = 0.0;
	if (!n)
		return 0;
	if (!(t = malloc(2 * n * sizeof(double))))
		return -1;
	for (size_t i = 0; i < n; i++) {
		t[i] = r->sample[first + i].seconds;
		t[n + i] = (double)r->sample[first + i].hops;
	}
	if (isfinite(r->wtick) && r->wtick > 0)
		tick = stats_quantum_se(stats_median(t, n), r->wtick);
	if (config_pattern_timed(&r->cfg, r->plan->cell[c].pattern))
		msg = stats_quantum_se(stats_median(t + n, n), 1.0);
	*res = isfinite(tick) && isfinite(msg) ? hypot(tick, msg) : 0.0;
	free(t);
	return 0;
}

static bool same_shape(const struct sw_run *r, int c, const struct sw_run *b, int bc)
{
	const struct sw_cell *x = &r->plan->cell[c], *y = &b->plan->cell[bc];

	return x->pattern == y->pattern && x->size == y->size && run_cell_pairs(r, c) == run_cell_pairs(b, bc);
}

int analysis_match_cell(const struct sw_run *r, int c, const struct sw_run *b, const bool *used)
{
	int cand = -1, ncand = 0, nself = 0;

	for (int bc = 0; bc < b->plan->ncells; bc++) {
		if ((used && used[bc]) || !same_shape(r, c, b, bc))
			continue;
		if (b->plan->cell[bc].hops == r->plan->cell[c].hops)
			return bc;
		cand = bc;
		ncand++;
	}
	/* hops = auto on both sides: the hop count is each engine's choice */
	if (r->cfg.nhops != 0 || b->cfg.nhops != 0 || ncand != 1)
		return -1;
	for (int o = 0; o < r->plan->ncells; o++)
		nself += same_shape(r, o, r, c);
	return nself == 1 ? cand : -1;
}

void analysis_rep_ci(const double *x, size_t n, double confidence, struct stats_summary *s)
{
	s->med_ci_ok = n >= CHANGE_MIN_REPS && stats_median_ci(x, n, confidence, &s->med_lo, &s->med_hi) == 0;
	if (!s->med_ci_ok) {
		s->med_lo = s->min;
		s->med_hi = s->max;
	}
}

/* Summary of per-repetition values with the repetition-unit median CI. */
static int rep_summary(const double *x, size_t n, double confidence, struct stats_summary *s)
{
	if (stats_summarize(x, n, confidence, s))
		return n ? -1 : 0;
	analysis_rep_ci(x, n, confidence, s);
	return 0;
}

/* Values, aggregates, summaries and overlap of cell c. -1 on ENOMEM. */
static int cell_compute(const struct sw_run *r, const struct sw_config *cfg, int c,
			struct cell_data *d, struct sw_cell_stats *cs)
{
	size_t first, cnt = run_cell_samples(r, c, &first);
	int pairs = run_cell_pairs(r, c), nreps = 0;
	struct rep { double sum, min_start, max_start, min_end, max_end; int count; } *rep = NULL;
	double ov_sum = 0.0;
	int ov_n = 0, ret = -1;
	size_t nok;

	cs->cell = c;
	cs->baseline = -1;
	cs->pairs = pairs;
	cs->nodes = plan_nodes(r->plan, c);
	d->lat = malloc((cnt ? cnt : 1) * sizeof(double));
	d->bw = malloc((cnt ? cnt : 1) * sizeof(double));
	if (!d->lat || !d->bw)
		return -1;
	for (size_t i = first; i < first + cnt; i++) {
		const struct sw_sample *s = &r->sample[i];

		if (!analysis_sample_ok(r, c, s))
			continue;
		d->lat[d->n] = run_sample_latency(r, s);
		d->bw[d->n] = run_sample_bandwidth(r, s);
		d->n++;
		if (s->rep + 1 > nreps)
			nreps = s->rep + 1;
	}
	rep = calloc((size_t)(nreps ? nreps : 1), sizeof(*rep));
	d->agg = malloc((size_t)(nreps ? nreps : 1) * sizeof(double));
	d->aggpp = malloc((size_t)(nreps ? nreps : 1) * sizeof(double));
	d->aggrep = malloc((size_t)(nreps ? nreps : 1) * sizeof(int));
	if (!rep || !d->agg || !d->aggpp || !d->aggrep)
		goto out_free;
	for (size_t i = first; i < first + cnt; i++) {
		const struct sw_sample *s = &r->sample[i];
		struct rep *q;

		if (!analysis_sample_ok(r, c, s))
			continue;
		q = &rep[s->rep];
		if (q->count == 0) {
			q->min_start = q->max_start = s->t_start;
			q->min_end = q->max_end = s->t_end;
		}
		q->min_start = fmin(q->min_start, s->t_start);
		q->max_start = fmax(q->max_start, s->t_start);
		q->min_end = fmin(q->min_end, s->t_end);
		q->max_end = fmax(q->max_end, s->t_end);
		q->sum += run_sample_bandwidth(r, s) * s->seconds;   /* bytes */
		q->count++;
	}
	for (int i = 0; i < nreps; i++) {
		struct rep *q = &rep[i];
		double span = q->max_end - q->min_start, ov;

		if (q->count == 0)
			continue;
		/* Aggregate = all bytes of the repetition over its span, from the
		 * first start to the last end on the common clock: summing each
		 * pair's own rate would overstate it whenever pairs finish at
		 * different times. Only complete repetitions count. */
		if (q->count == pairs && span > 0.0) {
			d->agg[d->nagg] = q->sum / span;
			d->aggpp[d->nagg] = q->sum / span / pairs;
			d->aggrep[d->nagg++] = i;
		}
		if (q->count == 1 || !(span > 0.0))
			ov = 1.0;
		else
			ov = fmin(1.0, fmax(0.0, (q->min_end - q->max_start) / span));
		ov_sum += ov;
		ov_n++;
	}
	cs->overlap = ov_n ? ov_sum / ov_n : NAN;
	if (analysis_rep_values(r, c, SW_METRIC_LATENCY, &d->rlat, &d->nrlat) ||
	    analysis_rep_values(r, c, SW_METRIC_BANDWIDTH, &d->rbw, &d->nrbw))
		goto out_free;
	if ((stats_summarize(d->lat, d->n, cfg->confidence, &cs->lat_spread) && d->n) ||
	    (stats_summarize(d->bw, d->n, cfg->confidence, &cs->bw_spread) && d->n) ||
	    rep_summary(d->rlat, d->nrlat, cfg->confidence, &cs->lat) ||
	    rep_summary(d->rbw, d->nrbw, cfg->confidence, &cs->bw) ||
	    rep_summary(d->agg, d->nagg, cfg->confidence, &cs->agg))
		goto out_free;
	cs->converged = analysis_converged(d->rlat, d->nrlat, cfg->confidence, cfg->ci_target);
	cs->below_floor = analysis_cell_below_floor(r, c, &cs->nshort, &nok);
	count_missing(r, c, cs);
	change_invalid(&cs->inflation);
	change_invalid(&cs->drop);
	change_invalid(&cs->agg_drop);
	change_invalid(&cs->receiver_drop);
	ret = 0;
out_free:
	free(rep);
	return ret;
}

/* The cell at plan level 0 with c's pattern, size and hops, or -1. */
static int find_baseline(const struct sw_plan *p, int c)
{
	const struct sw_cell *x = &p->cell[c];

	if (x->level == 0)
		return c;
	for (int b = 0; b < p->ncells; b++) {
		const struct sw_cell *y = &p->cell[b];

		if (y->level == 0 && y->pattern == x->pattern && y->size == x->size &&
		    y->hops == x->hops)
			return b;
	}
	return -1;
}

/* One usable sample for the slow-pair test: its repetition, pair and log
 * per-hop latency (later: less the log median of its repetition). */
struct rpv {
	int rep, pair;
	double v;
};

static int cmp_rpv(const void *a, const void *b)
{
	const struct rpv *x = a, *y = b;

	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	return (x->v > y->v) - (x->v < y->v);
}

/*
 * The slow-pair test of one cell (see struct sw_pair_stats): x[0..n) are
 * its samples' log latencies; eff (log slowness) and z get per pair
 * (NaN without values). Sorted by repetition, each value becomes its distance from the
 * median of its repetition (repetitions with fewer than
 * ANALYSIS_SLOW_PAIR_MIN pairs are left out): the shared state of the switch
 * cancels. -1 on ENOMEM.
 */
static int slow_pair_test(struct rpv *x, size_t n, int pairs, double sigma_floor,
			  double *eff, double *z)
{
	double *d = malloc((n ? n : 1) * sizeof(*d)), *res = malloc((n ? n : 1) * sizeof(*res));
	int *np = calloc((size_t)pairs, sizeof(*np));
	size_t m = 0, nres = 0;
	double sigma, mad, meanad = 0.0;
	int ret = -1;

	if (!d || !res || !np)
		goto out_free;
	qsort(x, n, sizeof(*x), cmp_rpv);
	for (size_t i = 0, j; i < n; i = j) {
		double med;

		for (j = i + 1; j < n && x[j].rep == x[i].rep; j++)
			;
		if (j - i < ANALYSIS_SLOW_PAIR_MIN)
			continue;
		med = (j - i) % 2 ? x[i + (j - i) / 2].v : (x[i + (j - i) / 2 - 1].v + x[i + (j - i) / 2].v) / 2;
		for (size_t t = i; t < j; t++)
			x[m++] = (struct rpv){ x[t].rep, x[t].pair, x[t].v - med };
	}
	for (int p = 0; p < pairs; p++) {
		size_t k = 0;

		for (size_t t = 0; t < m; t++)
			if (x[t].pair == p)
				d[k++] = x[t].v;
		eff[p] = stats_median(d, k);
		np[p] = (int)k;
		for (size_t t = 0; t < k; t++)
			res[nres++] = d[t] - eff[p];
	}
	/* the spread of one sample around its pair's level: robust (MAD),
	 * never below the mean absolute deviation's estimate (half the
	 * residuals may be 0 when repetitions have 2 or 3 pairs) nor the
	 * floor (the timer's resolution) */
	for (size_t t = 0; t < nres; t++) {
		meanad += fabs(res[t]);
		d[t] = fabs(res[t]);
	}
	mad = nres ? stats_median(d, nres) : NAN;
	sigma = nres ? fmax(fmax(MAD_SCALE * mad, MEANAD_SCALE * meanad / (double)nres), sigma_floor)
		     : NAN;
	for (int p = 0; p < pairs; p++)
		z[p] = np[p] ? eff[p] / (MEDIAN_SE * sigma / sqrt((double)np[p])) : NAN;
	ret = 0;
out_free:
	free(d);
	free(res);
	free(np);
	return ret;
}

/*
 * Per pair of cell c: median latency and bandwidth of its samples, and the
 * slow-pair test when at least ANALYSIS_SLOW_PAIR_MIN pairs have samples.
 * Appends run_cell_pairs(c) entries to a->pair. -1 on ENOMEM.
 */
static int pairs_compute(const struct sw_run *r, const struct sw_config *cfg, int c,
			 struct sw_analysis *a, int *nvalid)
{
	size_t first, cnt = run_cell_samples(r, c, &first), nx = 0;
	int pairs = run_cell_pairs(r, c), nv = 0;
	double *lat = malloc((cnt ? cnt : 1) * sizeof(double));
	double *bw = malloc((cnt ? cnt : 1) * sizeof(double));
	double *eff = malloc((size_t)(pairs > 0 ? pairs : 1) * sizeof(double));
	double *z = malloc((size_t)(pairs > 0 ? pairs : 1) * sizeof(double));
	struct rpv *x = malloc((cnt ? cnt : 1) * sizeof(*x));
	struct sw_pair_stats *ps = &a->pair[a->npairstats];
	double secs = NAN;
	int ret = -1;

	if (!lat || !bw || !eff || !z || !x)
		goto out_free;
	for (int p = 0; p < pairs; p++) {
		size_t n = 0;

		for (size_t i = first; i < first + cnt; i++) {
			const struct sw_sample *s = &r->sample[i];

			if (s->pair != p || !analysis_sample_ok(r, c, s))
				continue;
			lat[n] = run_sample_latency(r, s);
			bw[n] = run_sample_bandwidth(r, s);
			if (lat[n] > 0.0 && isfinite(lat[n]))
				x[nx++] = (struct rpv){ s->rep, p, log(lat[n]) };
			n++;
		}
		ps[p] = (struct sw_pair_stats){ .cell = c, .pair = p, .lat_median = stats_median(lat, n),
						.bw_median = stats_median(bw, n), .effect = NAN, .z = NAN,
						.flagged = false };
		nv += n > 0;
	}
	if (pattern_info(r->plan->cell[c].pattern)->incast)
		nv = 0;   /* no slow-pair test: see struct sw_pair_stats */
	if (nv >= ANALYSIS_SLOW_PAIR_MIN) {
		/* one-sided: slower only; multiplicity: Bonferroni over the pairs */
		double zcrit = stats_normal_quantile(1.0 - SUSPECT_ALPHA / nv);
		double floor = log1p(cfg->suspect_min_effect / 100.0);
		size_t n = 0;

		for (size_t i = first; i < first + cnt; i++)
			if (analysis_sample_ok(r, c, &r->sample[i]))
				lat[n++] = r->sample[i].seconds;
		secs = stats_median(lat, n);

		if (slow_pair_test(x, nx, pairs, fmax(SIGMA_FLOOR, r->wtick / secs), eff, z))
			goto out_free;
		for (int p = 0; p < pairs; p++) {
			if (isnan(ps[p].lat_median))
				continue;
			ps[p].effect = expm1(eff[p]) * 100.0;
			ps[p].z = z[p];
			ps[p].flagged = z[p] > zcrit && eff[p] > floor;
		}
	}
	a->npairstats += (size_t)pairs;
	*nvalid = nv;
	ret = 0;
out_free:
	free(lat);
	free(bw);
	free(eff);
	free(z);
	free(x);
	return ret;
}

/* Host name of a rank: its recorded host, or "rank N" when unknown. */
/*
 * Suspects: a host is in a cell when one of the cell's pairs with samples
 * has a rank on it, and flagged in that cell when one of those pairs is
 * flagged. Only cells where flagging was possible (>= 3 pairs) count.
 */
static int suspects_compute(const struct sw_run *r, struct sw_analysis *a, const int *nvalid)
{
	int nh = 0, ret = -1;
	char (*name)[SW_HOST_MAX] = calloc((size_t)(r->nranks > 0 ? r->nranks : 1), SW_HOST_MAX);
	int *host = malloc((size_t)(r->nranks > 0 ? r->nranks : 1) * sizeof(int));
	int *cells = calloc((size_t)(r->nranks > 0 ? r->nranks : 1), sizeof(int));
	int *flagged = calloc((size_t)(r->nranks > 0 ? r->nranks : 1), sizeof(int));
	signed char *in = malloc((size_t)(r->nranks > 0 ? r->nranks : 1));
	int *npin = malloc((size_t)(r->nranks > 0 ? r->nranks : 1) * sizeof(int));
	size_t ps = 0;

	if (!name || !host || !cells || !flagged || !in || !npin)
		goto out_free;
	for (int rank = 0; rank < r->nranks; rank++) {
		char buf[SW_HOST_MAX];
		int h;

		run_host_name(r, rank, buf);
		for (h = 0; h < nh && strcmp(name[h], buf); h++)
			;
		if (h == nh)
			memcpy(name[nh++], buf, SW_HOST_MAX);
		host[rank] = h;
	}
	for (int c = 0; c < a->ncells; c++) {
		int pairs = a->cell[c].pairs;

		if (nvalid[c] >= ANALYSIS_SLOW_PAIR_MIN) {
			int nv = 0;

			memset(in, 0, (size_t)nh);   /* 0 out, 1 in, 2 flagged */
			memset(npin, 0, (size_t)nh * sizeof(int));
			for (int p = 0; p < pairs; p++) {
				const struct sw_pair_stats *q = &a->pair[ps + (size_t)p];
				struct sw_pair pr;
				int ranks[2];

				if (isnan(q->lat_median) || p >= r->plan->npairs)
					continue;
				pr = plan_level_pair(r->plan, r->plan->cell[c].level, p);
				ranks[0] = pr.a;
				ranks[1] = pr.b;
				nv++;
				for (int e = 0; e < 2; e++) {
					int h;

					if (ranks[e] < 0 || ranks[e] >= r->nranks)
						continue;
					h = host[ranks[e]];
					if (e == 0 || h != host[ranks[0]])
						npin[h]++;
					if (in[h] < (q->flagged ? 2 : 1))
						in[h] = q->flagged ? 2 : 1;
				}
			}
			/* A host in every pair of the cell (all ranks on one
			 * machine) cannot be told apart by comparing pairs. */
			for (int h = 0; h < nh; h++)
				if (npin[h] == nv)
					in[h] = 0;
			for (int h = 0; h < nh; h++) {
				cells[h] += in[h] > 0;
				flagged[h] += in[h] == 2;
			}
		}
		ps += (size_t)pairs;
	}
	a->suspect = calloc((size_t)(nh ? nh : 1), sizeof(*a->suspect));
	if (!a->suspect)
		goto out_free;
	for (int h = 0; h < nh; h++) {
		if (cells[h] == 0 || flagged[h] == 0 || 2 * flagged[h] < cells[h])
			continue;
		memcpy(a->suspect[a->nsuspects].host, name[h], SW_HOST_MAX);
		a->suspect[a->nsuspects].flagged = flagged[h];
		a->suspect[a->nsuspects].cells = cells[h];
		a->nsuspects++;
	}
	ret = 0;
out_free:
	free(npin);
	free(name);
	free(host);
	free(cells);
	free(flagged);
	free(in);
	return ret;
}

struct point {
	uint64_t size;
	double t;
};

static int cmp_point(const void *a, const void *b)
{
	uint64_t x = ((const struct point *)a)->size, y = ((const struct point *)b)->size;

	return (x > y) - (x < y);
}

/* Fit T(m) = alpha + m / beta over pt[lo..hi) into a new a->fit entry. */
static void fit_segment(struct sw_analysis *a, int level, int pattern,
			const struct point *pt, int lo, int hi)
{
	double x[SW_MAX_LIST], y[SW_MAX_LIST], c0, c1, r2;
	struct sw_fit *f;
	int n = hi - lo;

	if (n < 2)
		return;
	for (int i = 0; i < n; i++) {
		x[i] = (double)pt[lo + i].size;
		y[i] = pt[lo + i].t;
	}
	if (stats_linear_fit(x, y, (size_t)n, &c0, &c1, &r2))
		return;
	f = &a->fit[a->nfits++];
	f->level = level;
	f->pattern = pattern;
	f->size_lo = pt[lo].size;
	f->size_hi = pt[hi - 1].size;
	f->npoints = n;
	f->alpha = c0;
	f->beta = c1 > 0.0 ? 1.0 / c1 : NAN;
	f->n_half = c1 > 0.0 ? c0 / c1 : NAN;
	f->r2 = r2;
}

/* The step i -> i+1 with the largest latency ratio that passes the jump
 * rule (see analysis.h), or -1. */
static int find_jump(const struct point *pt, int n)
{
	int best = -1;
	double best_ratio = 0.0;

	for (int i = 0; i + 1 < n; i++) {
		double ratio = pt[i + 1].t / pt[i].t;
		double g = (pt[i + 1].t - pt[i].t) / (double)(pt[i + 1].size - pt[i].size);
		double gn = -INFINITY;

		if (i > 0)
			gn = fmax(gn, (pt[i].t - pt[i - 1].t) / (double)(pt[i].size - pt[i - 1].size));
		if (i + 2 < n)
			gn = fmax(gn, (pt[i + 2].t - pt[i + 1].t) /
				      (double)(pt[i + 2].size - pt[i + 1].size));
		if (gn == -INFINITY)
			continue;   /* two points: nothing to compare with */
		if (ratio >= JUMP_RATIO && g > JUMP_SLOPE * fmax(gn, 0.0) && ratio > best_ratio) {
			best = i;
			best_ratio = ratio;
		}
	}
	return best;
}

/* Hockney fits per level and pattern over the sizes. -1 on ENOMEM. */
static int fits_compute(const struct sw_run *r, struct sw_analysis *a)
{
	const struct sw_plan *p = r->plan;
	double *tv = malloc((size_t)(p->ncells > 0 ? p->ncells : 1) * sizeof(double));
	int maxfits = 2 * p->nlevels * pattern_count();

	a->fit = calloc((size_t)(maxfits > 0 ? maxfits : 1), sizeof(*a->fit));
	if (!tv || !a->fit) {
		free(tv);
		return -1;
	}
	for (int lv = 0; lv < p->nlevels; lv++) {
		for (int pat = 0; pat < pattern_count(); pat++) {
			struct point pt[SW_MAX_LIST];
			int n = 0, jump;

			if (pattern_info(pat)->incast)
				continue;   /* per-sender time is a share of one port, not a hop */

			/* one point per size: the median of its cells' medians
			 * (several cells when several hop counts were given) */
			for (int c = 0; c < p->ncells; c++) {
				const struct sw_cell *x = &p->cell[c];
				int m = 0, i;

				if (x->level != lv || x->pattern != pat ||
				    !(a->cell[c].lat.median > 0.0))
					continue;
				for (i = 0; i < n && pt[i].size != x->size; i++)
					;
				if (i < n || n == SW_MAX_LIST)
					continue;   /* this size is done */
				for (int d = c; d < p->ncells; d++) {
					const struct sw_cell *y = &p->cell[d];

					if (y->level == lv && y->pattern == pat && y->size == x->size &&
					    a->cell[d].lat.median > 0.0)
						tv[m++] = a->cell[d].lat.median;
				}
				pt[n].size = x->size;
				pt[n].t = stats_median(tv, (size_t)m);
				n++;
			}
			if (n < 2)
				continue;
			qsort(pt, (size_t)n, sizeof(pt[0]), cmp_point);
			jump = find_jump(pt, n);
			if (jump < 0) {
				fit_segment(a, lv, pat, pt, 0, n);
			} else {
				fit_segment(a, lv, pat, pt, 0, jump + 1);
				fit_segment(a, lv, pat, pt, jump + 1, n);
			}
		}
	}
	free(tv);
	return 0;
}

static void method_line(const struct sw_config *cfg, bool victims, char *buf, size_t len)
{
	char reps[192];
	int n;

	if (cfg->rep_min == cfg->rep_max)
		snprintf(reps, sizeof(reps), "fixed %d", cfg->rep_min);
	else
		snprintf(reps, sizeof(reps),
			 "adaptive %d..%d until the latency CI half-width (t, from the SD of the log "
			 "per-repetition values, now and one repetition earlier) is within %g%%, cell budget %g s",
			 cfg->rep_min, cfg->rep_max, cfg->ci_target * 100.0, cfg->cell_budget);
	n = snprintf(buf, len,
		 "unit of replication: the repetition (its value: the median over the level's pairs); "
		 "level and aggregate: median of the per-repetition values, %g%% CI from its Bonett-Price "
		 "standard error; changes vs baseline level: %s; significant when p < alpha %g, the CI "
		 "excludes 0, |change| > min effect %g%% and neither cell is below the sample floor (%d messages, "
		 "%d windows when windowed, %d timer ticks, %d round trips); p1/p99/sd describe single samples; "
		 "slow pairs: one-sided, > %g%% slower than the repetition's median pair and z beyond "
		 "the Bonferroni limit for 1%% per cell; repetitions: %s",
		 cfg->confidence * 100.0,
		 cfg->design == CFG_DESIGN_BLOCKS
			 ? "within blocks (design blocks: repetition r of every level is block r), the median of the "
			   "per-block log ratios level / baseline, CI and p from the sign test's order statistics over the "
			   "blocks, interpolated (Hettmansperger-Sheather; none with fewer than 6 blocks at 95%), widened by "
			   "both cells' timer and message-count resolution (latency, bandwidth per pair, aggregate, "
			   "receiver); drift: the Theil-Sen trend of the baseline level over the blocks, Kendall's CI"
			 : "ratio of the per-repetition medians, CI and p from one normal statistic on their logs "
			   "(Bonett-Price)",
		 cfg->alpha, cfg->min_effect, ANALYSIS_FLOOR_MSGS, ANALYSIS_FLOOR_WINDOWS,
		 ANALYSIS_FLOOR_TICKS, ANALYSIS_FLOOR_TRIPS, cfg->suspect_min_effect, reps);
	if (victims && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n,
			 "; victims: each sample's median and p99 of its round trips / 2 (0.5%% histogram "
			 "bins), per repetition the median over the victim pairs, beside the aggressors "
			 "against alone in the same repetition, the same ratio test on the per-repetition "
			 "medians and on the per-repetition p99s");
}

/* The block design's change of cell c against its baseline cell b:
 * within blocks (change_blocks), with both cells' resolution. -1 on
 * ENOMEM. */
static int block_change(const struct sw_run *r, int c, int b, int metric, const struct sw_config *cfg,
			struct sw_change *ch)
{
	double *x, *y, rc, rb;
	size_t n;

	if (analysis_cell_resolution(r, c, &rc) || analysis_cell_resolution(r, b, &rb) ||
	    analysis_block_pairs(r, c, b, metric, &x, &y, &n))
		return -1;
	change_blocks(x, y, n, hypot(rc, rb), metric, cfg, ch);
	free(x);
	free(y);
	return 0;
}

/* The block design's change of an aggregate (vx of cell data dx against
 * vb of the baseline's db, per complete repetition): within blocks, as
 * block_change. -1 on ENOMEM. */
static int block_agg_change(const struct sw_run *r, int c, int b, const struct cell_data *dx, const double *vx,
			    const struct cell_data *db, const double *vb, const struct sw_config *cfg,
			    struct sw_change *ch)
{
	double *x, *y, rc, rb;
	size_t n;

	if (analysis_cell_resolution(r, c, &rc) || analysis_cell_resolution(r, b, &rb) ||
	    merge_blocks(vx, dx->aggrep, dx->nagg, vb, db->aggrep, db->nagg, &x, &y, &n))
		return -1;
	change_blocks(x, y, n, hypot(rc, rb), SW_METRIC_BANDWIDTH, cfg, ch);
	free(x);
	free(y);
	return 0;
}

/* The block design's drift check of baseline cell c: the trend of its
 * per-block values over the blocks (stats_trend_sen: Theil-Sen, so one
 * outlying block cannot make or hide a drift), as the change from the
 * line's start to its end (level and base: the line's two ends). */
static int drift_trend(const struct sw_run *r, int c, const struct sw_config *dc, struct sw_drift *d, bool *ok)
{
	struct stats_interval iv;
	double *x, *t;
	int *blk;
	size_t n;

	*ok = false;
	if (analysis_block_values(r, c, d->metric, &x, &blk, &n))
		return -1;
	t = malloc((n ? n : 1) * sizeof(*t));
	if (!t) {
		free(x);
		free(blk);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		t[i] = blk[i];
	if (stats_trend_sen(t, x, n, 0.0, dc->confidence, &iv) == 0) {
		double mid = stats_median(x, n);

		change_from_interval(&iv, d->metric, dc, &d->change);
		d->change.base = mid / exp(iv.d / 2);
		d->change.level = mid * exp(iv.d / 2);
		*ok = true;
	}
	free(x);
	free(blk);
	free(t);
	return 0;
}

/* Drift control (see struct sw_drift): every baseline-level cell with
 * samples measured again, or for a block design every baseline-level
 * cell's trend over its blocks. -1 on ENOMEM. */
static int drift_compute(const struct sw_run *r, const struct sw_config *cfg, struct sw_analysis *a)
{
	struct sw_config dc = *cfg;
	bool blocks = r->cfg.design == CFG_DESIGN_BLOCKS;
	int m = 0;

	for (int c = 0; c < r->plan->ncells && r->plan->cell[c].level == 0; c++) {
		bool again = blocks && r->plan->nlevels > 1;

		for (size_t i = 0; i < r->nagain && !again; i++)
			again = r->again[i].cell == c;
		m += again;
	}
	if (m == 0)
		return 0;
	a->drift = calloc((size_t)m, sizeof(*a->drift));
	if (!a->drift)
		return -1;
	a->drift_alpha = dc.alpha = cfg->alpha / m;
	dc.confidence = 1.0 - dc.alpha;
	for (int c = 0; c < r->plan->ncells && r->plan->cell[c].level == 0; c++) {
		struct sw_drift *d = &a->drift[a->ndrift];
		double *x = NULL, *y = NULL;
		size_t nx, ny;

		d->cell = c;
		d->metric = pattern_info(r->plan->cell[c].pattern)->metric;
		if (blocks) {
			bool ok;

			if (drift_trend(r, c, &dc, d, &ok))
				return -1;
			a->drifted |= ok && d->change.significant;
			a->ndrift += ok;
			continue;
		}
		if (rep_values(r, c, r->again, r->nagain, d->metric, &x, &nx) ||
		    analysis_rep_values(r, c, d->metric, &y, &ny)) {
			free(x);
			return -1;
		}
		if (nx) {
			change_test(x, nx, y, ny, d->metric, &dc, &d->change);
			a->drifted |= d->change.significant;
			a->ndrift++;
		}
		free(x);
		free(y);
	}
	return 0;
}

/* The isolation stage's verdicts; a host cleared there (healthy with
 * every healthy partner) and never found slow is dropped from the
 * suspects. -1 on ENOMEM. */
static int isolation_apply(const struct sw_run *r, const struct sw_config *cfg, struct sw_analysis *a)
{
	int k = 0;

	if (isolate_judge(r, cfg, a->pair, a->npairstats, &a->isolated, &a->nisolated))
		return -1;
	for (int i = 0; i < a->nsuspects; i++) {
		bool cleared = false, slow = false;

		for (int j = 0; j < a->nisolated; j++)
			if (!strcmp(a->isolated[j].host, a->suspect[i].host)) {
				cleared |= a->isolated[j].verdict == ISOLATE_CLEARED;
				slow |= a->isolated[j].verdict != ISOLATE_CLEARED;
			}
		if (!cleared || slow)
			a->suspect[k++] = a->suspect[i];
	}
	a->nsuspects = k;
	return 0;
}

struct sw_analysis *analysis_run(const struct sw_run *r, const struct sw_config *cfg,
				 char *err, size_t errlen)
{
	struct sw_analysis *a = NULL;
	struct cell_data *d = NULL;
	const struct sw_plan *p;
	int *nvalid = NULL, ncells;
	size_t maxpairs = 0;

	if (!r || !r->plan || !cfg) {
		sw_fail(err, errlen, "analysis: no run to analyse");
		return NULL;
	}
	if (!(cfg->confidence > 0.0 && cfg->confidence < 1.0) ||
	    !(cfg->alpha > 0.0 && cfg->alpha < 1.0)) {
		sw_fail(err, errlen, "analysis: confidence and alpha must be between 0 and 1");
		return NULL;
	}
	stats_init();
	p = r->plan;
	ncells = p->ncells;
	a = calloc(1, sizeof(*a));
	if (!a)
		goto out_nomem;
	a->ncells = ncells;
	a->cell = calloc((size_t)(ncells > 0 ? ncells : 1), sizeof(*a->cell));
	d = calloc((size_t)(ncells > 0 ? ncells : 1), sizeof(*d));
	nvalid = calloc((size_t)(ncells > 0 ? ncells : 1), sizeof(*nvalid));
	if (!a->cell || !d || !nvalid)
		goto out_nomem;
	for (int c = 0; c < ncells; c++) {
		if (cell_compute(r, cfg, c, &d[c], &a->cell[c]))
			goto out_nomem;
		maxpairs += (size_t)run_cell_pairs(r, c);
	}
	for (int c = 0; c < ncells; c++) {
		struct sw_cell_stats *cs = &a->cell[c];
		int b = find_baseline(p, c);

		cs->baseline = b;
		if (b < 0 || b == c)
			continue;
		if (r->cfg.design == CFG_DESIGN_BLOCKS) {
			if (block_change(r, c, b, SW_METRIC_LATENCY, cfg, &cs->inflation) ||
			    block_change(r, c, b, SW_METRIC_BANDWIDTH, cfg, &cs->drop) ||
			    block_agg_change(r, c, b, &d[c], d[c].aggpp, &d[b], d[b].aggpp, cfg, &cs->agg_drop) ||
			    (pattern_info(p->cell[c].pattern)->incast &&
			     block_agg_change(r, c, b, &d[c], d[c].agg, &d[b], d[b].agg, cfg, &cs->receiver_drop)))
				goto out_nomem;
		} else {
			change_test(d[c].rlat, d[c].nrlat, d[b].rlat, d[b].nrlat, SW_METRIC_LATENCY, cfg,
					&cs->inflation);
			change_test(d[c].rbw, d[c].nrbw, d[b].rbw, d[b].nrbw, SW_METRIC_BANDWIDTH, cfg,
					&cs->drop);
			change_test(d[c].aggpp, d[c].nagg, d[b].aggpp, d[b].nagg, SW_METRIC_BANDWIDTH, cfg,
					&cs->agg_drop);
			if (pattern_info(p->cell[c].pattern)->incast)
				change_test(d[c].agg, d[c].nagg, d[b].agg, d[b].nagg, SW_METRIC_BANDWIDTH, cfg,
						&cs->receiver_drop);
		}
		if (cs->below_floor || a->cell[b].below_floor)
			cs->inflation.significant = cs->drop.significant = cs->agg_drop.significant =
				cs->receiver_drop.significant = false;
	}
	a->pair = calloc(maxpairs ? maxpairs : 1, sizeof(*a->pair));
	if (!a->pair)
		goto out_nomem;
	for (int c = 0; c < ncells; c++)
		if (pairs_compute(r, cfg, c, a, &nvalid[c]))
			goto out_nomem;
	if (suspects_compute(r, a, nvalid) || fits_compute(r, a) || isolation_apply(r, cfg, a) ||
	    drift_compute(r, cfg, a))
		goto out_nomem;
	for (int c = 0; c < ncells; c++)
		a->cell[c].drifted = a->drifted && r->cfg.design != CFG_DESIGN_BLOCKS && a->cell[c].baseline >= 0 &&
				     a->cell[c].baseline != c;
	if (p->nvictims) {
		a->victim = calloc((size_t)(ncells > 0 ? ncells : 1), sizeof(*a->victim));
		if (!a->victim)
			goto out_nomem;
		for (int c = 0; c < ncells; c++)
			if (victims_analyse(r, c, cfg, &a->victim[c]))
				goto out_nomem;
	}
	method_line(cfg, p->nvictims > 0, a->method, sizeof(a->method));
	a->suspect_alpha = SUSPECT_ALPHA;
	a->suspect_min_effect = cfg->suspect_min_effect;
	goto out_free;

out_nomem:
	sw_fail(err, errlen, "analysis: out of memory");
	analysis_free(a);
	a = NULL;
out_free:
	for (int c = 0; d && c < ncells; c++) {
		free(d[c].lat);
		free(d[c].bw);
		free(d[c].agg);
		free(d[c].aggpp);
		free(d[c].aggrep);
		free(d[c].rlat);
		free(d[c].rbw);
	}
	free(d);
	free(nvalid);
	return a;
}

void analysis_free(struct sw_analysis *a)
{
	if (!a)
		return;
	free(a->cell);
	free(a->pair);
	free(a->suspect);
	free(a->fit);
	free(a->isolated);
	free(a->drift);
	free(a->victim);
	free(a);
}

bool analysis_converged(const double *x, size_t n, double confidence, double target)
{
	double h1, h2;

	/* narrow enough now and one repetition ago: one lucky repetition
	 * does not end the cell */
	return n >= 3 && stats_median_halfwidth(x, n, confidence, &h1) == 0 &&
	       stats_median_halfwidth(x, n - 1, confidence, &h2) == 0 && h1 <= target && h2 <= target;
}
