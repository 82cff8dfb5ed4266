/*
 * change.c - the one change test; see change.h. Pure: the numerics are in
 * stats.c.
 */
#include <math.h>
#include "change.h"
#include "stats.h"

double change_log(int metric, double pct)
{
	return metric == SW_METRIC_LATENCY ? log1p(pct / 100.0) : -log1p(-pct / 100.0);
}

const char *change_name(int metric, bool key)
{
	if (metric == SW_METRIC_LATENCY)
		return key ? "latency_inflation" : "latency inflation";
	return key ? "bandwidth_drop" : "bandwidth drop";
}

void change_invalid(struct sw_change *ch)
{
	*ch = (struct sw_change){ .valid = false, .level = NAN, .base = NAN, .pct = NAN,
				  .lo = NAN, .hi = NAN, .p = NAN, .significant = false };
}

void change_test(const double *x, size_t nx, const double *base, size_t nb, int metric,
		 const struct sw_config *cfg, struct sw_change *ch)
{
	double ratio, lo, hi, p;

	change_invalid(ch);
	if (nx < 2 || nb < 2 ||
	    stats_median_ratio(x, nx, base, nb, cfg->confidence, &ratio, &lo, &hi, &p))
		return;
	ch->valid = true;
	ch->level = stats_median(x, nx);
	ch->base = stats_median(base, nb);
	if (nx < CHANGE_MIN_REPS || nb < CHANGE_MIN_REPS)
		lo = hi = p = NAN;   /* an estimate, but too few repetitions to test it */
	if (metric == SW_METRIC_LATENCY) {
		ch->pct = (ratio - 1.0) * 100.0;
		ch->lo = (lo - 1.0) * 100.0;
		ch->hi = (hi - 1.0) * 100.0;
	} else {
		ch->pct = (1.0 - ratio) * 100.0;
		ch->lo = (1.0 - hi) * 100.0;
		ch->hi = (1.0 - lo) * 100.0;
	}
	ch->p = p;
	/* estimate, CI and p agree by construction; both are required so
	 * that a confidence other than 1 - alpha stays coherent */
	ch->significant = p < cfg->alpha && (ch->lo > 0.0 || ch->hi < 0.0) &&
			  fabs(ch->pct) > cfg->min_effect;
}

void change_from_interval(const struct stats_interval *iv, int metric, const struct sw_config *cfg,
			  struct sw_change *ch)
{
	double sign = metric == SW_METRIC_LATENCY ? 1.0 : -1.0, lo = iv->lo, hi = iv->hi;

	ch->valid = true;
	ch->pct = sign * (exp(iv->d) - 1.0) * 100.0;
	bool few = iv->n < CHANGE_MIN_REPS || !isfinite(iv->lo) || !isfinite(iv->hi);

	ch->p = few ? NAN : iv->p;
	if (few)
		lo = hi = NAN;   /* an estimate, but too few units to test it */
	ch->lo = sign * (exp(sign > 0 ? lo : hi) - 1.0) * 100.0;
	ch->hi = sign * (exp(sign > 0 ? hi : lo) - 1.0) * 100.0;
	ch->significant = ch->p < cfg->alpha && (ch->lo > 0.0 || ch->hi < 0.0) && fabs(ch->pct) > cfg->min_effect;
}

/* The block design's change on stats_interval (ri: the rank interval of
 * stats_block_median, else the paired t of stats_block_ratio). */
static void blocks_with(bool ri, const double *x, const double *base, size_t n, double res, int metric,
			const struct sw_config *cfg, struct sw_change *ch)
{
	struct stats_interval iv;

	change_invalid(ch);
	if (ri ? stats_block_median(x, base, n, res, cfg->confidence, &iv)
	       : stats_block_ratio(x, base, n, res, cfg->confidence, &iv))
		return;
	change_from_interval(&iv, metric, cfg, ch);
	ch->level = stats_median(x, n);
	ch->base = stats_median(base, n);
}

void change_blocks(const double *x, const double *base, size_t n, double res, int metric,
		   const struct sw_config *cfg, struct sw_change *ch)
{
	blocks_with(true, x, base, n, res, metric, cfg, ch);
}

void change_blocks_mean(const double *x, const double *base, size_t n, double res, int metric,
			const struct sw_config *cfg, struct sw_change *ch)
{
	blocks_with(false, x, base, n, res, metric, cfg, ch);
}

size_t change_min_blocks(const struct sw_config *cfg)
{
	size_t k = stats_rank_min_units(0, cfg->confidence);

	return k > CHANGE_MIN_REPS ? k : CHANGE_MIN_REPS;
}

void change_diff(const double *const set[4], const size_t n[4], int metric,
		 const struct sw_config *cfg, struct sw_change *d)
{
	struct sw_change c0, c1;
	double ld, lo, hi, p, sign = metric == SW_METRIC_LATENCY ? 1.0 : -1.0, r0;
	bool few = false;

	change_invalid(d);
	change_test(set[1], n[1], set[0], n[0], metric, cfg, &c0);
	change_test(set[3], n[3], set[2], n[2], metric, cfg, &c1);
	if (!c0.valid || !c1.valid || stats_median_ratio_diff(set, n, cfg->confidence, &ld, &lo, &hi, &p))
		return;
	for (int i = 0; i < 4; i++)
		few |= n[i] < CHANGE_MIN_REPS;
	d->valid = true;
	d->level = c1.pct;
	d->base = c0.pct;
	d->pct = c1.pct - c0.pct;
	if (few)
		return;   /* lo, hi, p stay NaN: an estimate, too few repetitions to test */
	r0 = 1.0 + sign * c0.pct / 100.0;   /* the reference's ratio, as change_test took it */
	d->lo = 100.0 * r0 * (exp(sign > 0 ? lo : hi) - 1.0) * sign;
	d->hi = 100.0 * r0 * (exp(sign > 0 ? hi : lo) - 1.0) * sign;
	d->p = p;
	d->significant = p < cfg->alpha && (d->lo > 0.0 || d->hi < 0.0) && fabs(d->pct) > cfg->min_effect;
}
