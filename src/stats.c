/*
 * stats.c - the numerical statistics on GSL; see stats.h.
 *
 * The only file that includes GSL headers. GSL's default error handler
 * aborts the process, so stats_init() switches it off and every GSL call
 * that returns a status is checked; functions that return a value are
 * checked for NaN/Inf where it matters. Every function copies its input
 * before sorting; callers' arrays are never changed. Allocation failures
 * return -1 (or NaN for stats_median).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sf_psi.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include "stats.h"

/* Scale of the mean absolute deviation that makes it estimate sigma for
 * normal data (sqrt(pi/2)), used when the MAD is 0. */
#define MEANAD_SCALE 1.253314

void stats_init(void)
{
	gsl_set_error_handler_off();
}

/* Sorted copy of x, or NULL on ENOMEM. n must be > 0. */
static double *sorted_copy(const double *x, size_t n)
{
	double *c = malloc(n * sizeof(*c));

	if (!c)
		return NULL;
	memcpy(c, x, n * sizeof(*c));
	gsl_sort(c, 1, n);
	return c;
}

double stats_median(const double *x, size_t n)
{
	double *c, m;

	if (n == 0)
		return NAN;
	c = sorted_copy(x, n);
	if (!c)
		return NAN;
	m = gsl_stats_median_from_sorted_data(c, 1, n);
	free(c);
	return m;
}

/*
 * Mean and sample standard deviation by the corrected two-pass algorithm
 * (Chan, Golub and LeVeque 1983): the mean by compensated (Neumaier)
 * summation, then the sum of squared deviations minus the square of the
 * summed deviations over n, which removes the error of the computed mean.
 * This keeps NIST's NumAcc4 (1e7 + 0.1 steps) at the representation limit
 * of its data.
 */
static void mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	long double s = 0.0L, comp = 0.0L, m, ss = 0.0L, sd1 = 0.0L;

	for (size_t i = 0; i < n; i++) {
		long double t = s + x[i];

		if (fabsl(s) >= fabsl((long double)x[i]))
			comp += (s - t) + x[i];
		else
			comp += ((long double)x[i] - t) + s;
		s = t;
	}
	m = (s + comp) / (long double)n;
	*mean = (double)m;
	if (n < 2) {
		*sd = NAN;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		long double d = (long double)x[i] - m;

		ss += d * d;
		sd1 += d;
	}
	ss -= sd1 * sd1 / (long double)n;
	if (ss < 0.0L)
		ss = 0.0L;
	*sd = (double)sqrtl(ss / (long double)(n - 1));
}

int stats_median_ci_ranks(size_t n, double confidence, size_t *j, size_t *k, double *coverage)
{
	double tail = 0.0, best_cov;
	size_t best;

	if (n == 0 || !(confidence > 0.0 && confidence < 1.0))
		return -1;
	/*
	 * Symmetric ranks j and k = n + 1 - j cover the median with
	 * probability P(j <= B <= n - j) = 1 - 2 P(B <= j - 1), B ~ Bin(n, 1/2).
	 * Take the largest j (the narrowest symmetric interval) that still
	 * reaches the confidence; tail accumulates P(B <= j - 1).
	 */
	best = 0;
	best_cov = 0.0;
	for (size_t jj = 1; 2 * jj <= n; jj++) {
		double cov;

		tail += gsl_ran_binomial_pdf((unsigned int)(jj - 1), 0.5, (unsigned int)n);
		cov = 1.0 - 2.0 * tail;
		if (cov < confidence)
			break;
		best = jj;
		best_cov = cov;
	}
	if (best == 0)
		return -1;
	*j = best;
	*k = n + 1 - best;
	if (coverage)
		*coverage = best_cov;
	return 0;
}

int stats_summarize(const double *x, size_t n, double confidence, struct stats_summary *s)
{
	double *c;
	size_t j, k;

	memset(s, 0, sizeof(*s));
	s->mean = s->sd = s->median = s->min = s->max = NAN;
	s->p1 = s->p99 = s->mean_lo = s->mean_hi = s->med_lo = s->med_hi = NAN;
	if (n == 0 || !(confidence > 0.0 && confidence < 1.0))
		return -1;
	c = sorted_copy(x, n);
	if (!c)
		return -1;
	s->n = n;
	mean_sd(c, n, &s->mean, &s->sd);
	s->median = gsl_stats_median_from_sorted_data(c, 1, n);
	s->min = c[0];
	s->max = c[n - 1];
	s->p1 = gsl_stats_quantile_from_sorted_data(c, 1, n, 0.01);
	s->p99 = gsl_stats_quantile_from_sorted_data(c, 1, n, 0.99);
	if (n >= 2) {
		double t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - confidence) / 2.0, (double)(n - 1));
		double half = t * s->sd / sqrt((double)n);

		if (isfinite(half)) {
			s->mean_lo = s->mean - half;
			s->mean_hi = s->mean + half;
		}
	}
	if (stats_median_ci_ranks(n, confidence, &j, &k, NULL) == 0) {
		s->med_ci_ok = true;
		s->med_lo = c[j - 1];
		s->med_hi = c[k - 1];
	} else {
		s->med_ci_ok = false;
		s->med_lo = s->min;
		s->med_hi = s->max;
	}
	free(c);
	return 0;
}

int stats_linear_fit(const double *x, const double *y, size_t n,
		     double *c0, double *c1, double *r2)
{
	double cov00, cov01, cov11, sse, tss;

	if (n < 2)
		return -1;
	if (gsl_stats_variance(x, 1, n) == 0.0)
		return -1;   /* every x equal: no slope */
	if (gsl_fit_linear(x, 1, y, 1, n, c0, c1, &cov00, &cov01, &cov11, &sse) != GSL_SUCCESS)
		return -1;
	if (!isfinite(*c0) || !isfinite(*c1))
		return -1;
	tss = gsl_stats_tss(y, 1, n);
	*r2 = tss > 0.0 ? 1.0 - sse / tss : 1.0;
	return 0;
}

/* ln median of x and the variance of that log (see stats_nightly): the
 * square of stats_log_median_se. */
static int log_median_var(const double *x, size_t n, double *lm, double *w)
{
	double se;

	if (stats_log_median_se(x, n, lm, &se))
		return -1;
	*w = se * se;
	return 0;
}

int stats_nightly(const double *const *y, const size_t *ny, size_t k, const double *x, size_t nx,
		  double floor_sd, double confidence, struct stats_nightly *out)
{
	double *L, sumw = 0.0, wbar, w0, l0, mu, spread, night, t;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (k < 2 || !(confidence > 0.0 && confidence < 1.0) || !(L = malloc(k * sizeof(*L))))
		return -1;
	for (size_t j = 0; j < k; j++) {
		double w;

		if (log_median_var(y[j], ny[j], &L[j], &w))
			goto out;
		sumw += w;
	}
	if (log_median_var(x, nx, &l0, &w0))
		goto out;
	mean_sd(L, k, &mu, &spread);
	wbar = sumw / (double)k;
	night = fmax(fmax(spread, sqrt(wbar)), floor_sd);
	out->k = k;
	out->w_base = wbar;
	out->w_now = w0;
	out->typical = exp(mu);
	out->spread = spread;
	out->night = night;
	out->sd = sqrt(night * night * (1.0 + 1.0 / (double)k) + fmax(0.0, w0 - wbar));
	out->d = l0 - mu;
	t = gsl_cdf_tdist_Pinv(0.5 + confidence / 2.0, (double)(k - 1));
	out->lo = out->d - t * out->sd;
	out->hi = out->d + t * out->sd;
	out->score = out->d / out->sd;
	out->p_up = gsl_cdf_tdist_Q(out->score, (double)(k - 1));
	rc = isfinite(out->sd) && out->sd > 0.0 && isfinite(t) ? 0 : -1;
out:
	free(L);
	return rc;
}

/* x with trigamma(x) = y, y > 0: Newton's iteration of Smyth (2004),
 * limma's trigammaInverse. */
static double trigamma_inverse(double y)
{
	double x;

	if (y > 1e7)
		return 1.0 / sqrt(y);
	if (y < 1e-6)
		return 1.0 / y;
	x = 0.5 + 1.0 / y;
	for (int i = 0; i < 50; i++) {
		double tri = gsl_sf_psi_1(x), dif = tri * (1.0 - tri / y) / gsl_sf_psi_n(2, x);

		x += dif;
		if (-dif / x < 1e-8)
			break;
	}
	return x;
}

int stats_moderate_var(const double *s2, const double *df, size_t n, double *s0sq, double *d0)
{
	double *e = malloc((n ? n : 1) * sizeof(double)), emean = 0.0, evar = 0.0, tri = 0.0, mean = 0.0;
	size_t m = 0;

	*s0sq = NAN;
	*d0 = 0.0;
	if (!e)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!(s2[i] > 0.0) || !isfinite(s2[i]) || !(df[i] >= 1.0))
			continue;
		e[m] = log(s2[i]) - gsl_sf_psi(df[i] / 2.0) + log(df[i] / 2.0);
		emean += e[m];
		tri += gsl_sf_psi_1(df[i] / 2.0);
		mean += s2[i];
		m++;
	}
	if (m < 2) {
		free(e);
		return 0;
	}
	emean /= (double)m;
	tri /= (double)m;
	for (size_t i = 0; i < m; i++)
		evar += (e[i] - emean) * (e[i] - emean);
	evar = evar / (double)(m - 1) - tri;
	free(e);
	if (evar > 0.0) {
		*d0 = 2.0 * trigamma_inverse(evar);
		*s0sq = exp(emean + gsl_sf_psi(*d0 / 2.0) - log(*d0 / 2.0));
	} else {
		*d0 = INFINITY;   /* no more spread than the df explain: the pool */
		*s0sq = mean / (double)m;
	}
	return isfinite(*s0sq) ? 0 : -1;
}

double stats_moderated(double s2, double df, double s0sq, double d0, double df_pool, double *df_mod)
{
	double v;

	if (!(d0 > 0.0) || !isfinite(s0sq)) {
		*df_mod = df;
		return s2;
	}
	if (!isfinite(d0) || !isfinite(s2))
		v = s0sq;
	else
		v = (d0 * s0sq + df * s2) / (d0 + df);
	*df_mod = fmin(d0 + df, fmax(df_pool, df));
	return v;
}

int stats_ewma(const double *z, size_t n, double lambda, double L, double clip, double *e, double *limit)
{
	double prev = 0.0, decay = 1.0;

	if (!(lambda > 0.0 && lambda <= 1.0))
		return -1;
	for (size_t t = 0; t < n; t++) {
		double zt = z[t];

		if (clip > 0.0)
			zt = fmax(-clip, fmin(clip, zt));
		prev = lambda * zt + (1.0 - lambda) * prev;
		decay *= (1.0 - lambda) * (1.0 - lambda);
		e[t] = prev;
		limit[t] = L * sqrt(lambda / (2.0 - lambda) * (1.0 - decay));
	}
	return 0;
}

int stats_log_median_se(const double *x, size_t n, double *lm, double *se)
{
	double *c, tail, z;
	long cc;

	if (n < 2)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0.0) || !isfinite(x[i]))
			return -1;
	c = sorted_copy(x, n);
	if (!c)
		return -1;
	cc = lround(((double)n + 1.0) / 2.0 - sqrt((double)n));
	if (cc < 1)
		cc = 1;
	/* P(B <= c - 1), B ~ Bin(n, 1/2): the tail outside [x(c), x(n+1-c)] */
	tail = gsl_cdf_binomial_P((unsigned int)(cc - 1), 0.5, (unsigned int)n);
	z = gsl_cdf_ugaussian_Qinv(tail);
	*lm = log(gsl_stats_median_from_sorted_data(c, 1, n));
	*se = (log(c[n - (size_t)cc]) - log(c[cc - 1])) / (2.0 * z);
	free(c);
	return isfinite(*se) && isfinite(*lm) ? 0 : -1;
}

int stats_median_ci(const double *x, size_t n, double confidence, double *lo, double *hi)
{
	double lm, se, z = gsl_cdf_ugaussian_Pinv(1.0 - (1.0 - confidence) / 2.0);

	if (stats_log_median_se(x, n, &lm, &se))
		return -1;
	*lo = exp(lm - z * se);
	*hi = exp(lm + z * se);
	return 0;
}

int stats_median_ratio(const double *x, size_t nx, const double *y, size_t ny, double confidence,
		       double *ratio, double *lo, double *hi, double *p)
{
	double lx, sx, ly, sy, d, se, z = gsl_cdf_ugaussian_Pinv(1.0 - (1.0 - confidence) / 2.0);

	if (stats_log_median_se(x, nx, &lx, &sx) || stats_log_median_se(y, ny, &ly, &sy))
		return -1;
	d = lx - ly;
	*ratio = exp(d);
	se = sqrt(sx * sx + sy * sy);
	if (!(se > 0.0)) {
		*lo = *hi = *ratio;
		*p = d == 0.0 ? 1.0 : 0.0;
		return 0;
	}
	*lo = exp(d - z * se);
	*hi = exp(d + z * se);
	*p = 2.0 * gsl_cdf_ugaussian_Q(fabs(d) / se);
	return 0;
}

int stats_median_ratio_diff(const double *const set[4], const size_t n[4], double confidence,
			    double *d, double *lo, double *hi, double *p)
{
	double lm[4], se[4], z = gsl_cdf_ugaussian_Pinv(1.0 - (1.0 - confidence) / 2.0), s;

	for (int i = 0; i < 4; i++)
		if (stats_log_median_se(set[i], n[i], &lm[i], &se[i]))
			return -1;
	*d = (lm[3] - lm[2]) - (lm[1] - lm[0]);
	s = sqrt(se[0] * se[0] + se[1] * se[1] + se[2] * se[2] + se[3] * se[3]);
	if (!(s > 0.0)) {
		*lo = *hi = *d;
		*p = *d == 0.0 ? 1.0 : 0.0;
		return 0;
	}
	*lo = *d - z * s;
	*hi = *d + z * s;
	*p = 2.0 * gsl_cdf_ugaussian_Q(fabs(*d) / s);
	return 0;
}

void stats_format_p(char *buf, size_t len, double p)
{
	if (!isfinite(p))
		snprintf(buf, len, "n/a");
	else if (p < 0.001)
		snprintf(buf, len, "< 0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

int stats_median_halfwidth(const double *x, size_t n, double confidence, double *h)
{
	double *l, mean, sd;

	if (n < 2 || !(l = malloc(n * sizeof(*l))))
		return -1;
	for (size_t i = 0; i < n; i++)
		l[i] = x[i] > 0.0 ? log(x[i]) : NAN;
	mean_sd(l, n, &mean, &sd);
	free(l);
	/* sqrt(pi / 2) sd / sqrt(n): the standard error of a normal median */
	*h = sinh(gsl_cdf_tdist_Pinv(1.0 - (1.0 - confidence) / 2.0, (double)(n - 1)) *
		  MEANAD_SCALE * sd / sqrt((double)n));
	return isfinite(*h) ? 0 : -1;
}

double stats_normal_quantile(double p)
{
	return gsl_cdf_ugaussian_Pinv(p);
}

/* The two-sided quantile (1 + confidence) / 2 and the upper tail of t(df),
 * the normal when df is infinite. */
static double t_quantile(double confidence, double df)
{
	double q = 0.5 + confidence / 2.0;

	return isfinite(df) ? gsl_cdf_tdist_Pinv(q, df) : gsl_cdf_ugaussian_Pinv(q);
}

static double t_upper(double t, double df)
{
	return isfinite(df) ? gsl_cdf_tdist_Q(t, df) : gsl_cdf_ugaussian_Q(t);
}

int stats_interval_set(struct stats_interval *iv, double d, double se_stat, double df, double res,
		       double confidence)
{
	double se, t;

	iv->d = d;
	iv->se = iv->df = iv->lo = iv->hi = iv->p = NAN;
	if (!(confidence > 0.0 && confidence < 1.0) || !isfinite(d) || !(se_stat >= 0.0) || !(res >= 0.0) ||
	    !isfinite(se_stat) || !isfinite(res) || (se_stat > 0.0 && !(df >= 1.0)))
		return -1;
	se = sqrt(se_stat * se_stat + res * res);
	iv->se = se;
	iv->df = se_stat > 0.0 ? df * pow(se / se_stat, 4.0) : INFINITY;
	if (!(se > 0.0)) {
		iv->lo = iv->hi = d;
		iv->p = d == 0.0 ? 1.0 : 0.0;
		return 0;
	}
	t = t_quantile(confidence, iv->df);
	iv->lo = d - t * se;
	iv->hi = d + t * se;
	iv->p = 2.0 * t_upper(fabs(d) / se, iv->df);
	return isfinite(t) ? 0 : -1;
}

double stats_interval_p_above(const struct stats_interval *iv, double c)
{
	if (!(iv->se > 0.0))
		return iv->d > c ? 0.0 : 1.0;
	return t_upper((iv->d - c) / iv->se, iv->df);
}

double stats_quantum_se(double amount, double quantum)
{
	if (!(quantum > 0.0))
		return 0.0;
	if (!(amount > 0.0))
		return INFINITY;
	return quantum / (amount * sqrt(12.0));
}

/* ln of every x[i] into l (x > 0 and finite), else -1. */
static int logs_of(const double *x, size_t n, double *l)
{
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0.0) || !isfinite(x[i]))
			return -1;
		l[i] = log(x[i]);
	}
	return 0;
}

int stats_block_ratio(const double *x, const double *base, size_t n, double res, double confidence,
		      struct stats_interval *iv)
{
	double *l, *lb, mean, sd;
	int rc = -1;

	memset(iv, 0, sizeof(*iv));
	if (n < 2)
		return -1;
	l = malloc(n * sizeof(*l));
	lb = malloc(n * sizeof(*lb));
	if (!l || !lb || logs_of(x, n, l) || logs_of(base, n, lb))
		goto out;
	for (size_t b = 0; b < n; b++)
		l[b] -= lb[b];
	mean_sd(l, n, &mean, &sd);
	iv->n = n;
	rc = stats_interval_set(iv, mean, sd / sqrt((double)n), (double)(n - 1), res, confidence);
out:
	free(l);
	free(lb);
	return rc;
}

int stats_trend(const double *t, const double *y, size_t n, double res, double confidence,
		struct stats_interval *iv)
{
	double *l, c0, c1, cov00, cov01, cov11, sse, lo, hi;
	int rc = -1;

	memset(iv, 0, sizeof(*iv));
	if (n < 3)
		return -1;
	l = malloc(n * sizeof(*l));
	if (!l || logs_of(y, n, l))
		goto out;
	lo = hi = t[0];
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(t[i]))
			goto out;
		lo = fmin(lo, t[i]);
		hi = fmax(hi, t[i]);
	}
	if (hi == lo || gsl_fit_linear(t, 1, l, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sse) != GSL_SUCCESS ||
	    !isfinite(c1) || !isfinite(cov11))
		goto out;
	iv->n = n;
	rc = stats_interval_set(iv, c1 * (hi - lo), sqrt(cov11) * (hi - lo), (double)(n - 2), res, confidence);
out:
	free(l);
	return rc;
}

int stats_runs_welch(const double *a, size_t na, const double *b, size_t nb, double res, double confidence,
		     struct stats_interval *iv)
{
	double *la, *lb, ma, sa, mb, sb, va, vb, se2, df;
	int rc = -1;

	memset(iv, 0, sizeof(*iv));
	if (na < 2 || nb < 2)
		return -1;
	la = malloc(na * sizeof(*la));
	lb = malloc(nb * sizeof(*lb));
	if (!la || !lb || logs_of(a, na, la) || logs_of(b, nb, lb))
		goto out;
	mean_sd(la, na, &ma, &sa);
	mean_sd(lb, nb, &mb, &sb);
	va = sa * sa / (double)na;
	vb = sb * sb / (double)nb;
	se2 = va + vb;
	df = se2 > 0.0 ? se2 * se2 / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1)) : INFINITY;
	iv->n = na + nb;
	rc = stats_interval_set(iv, mb - ma, sqrt(se2), df, res, confidence);
out:
	free(la);
	free(lb);
	return rc;
}

double stats_run_allowance(double run_sd, double confidence)
{
	if (!(run_sd >= 0.0) || !(confidence > 0.0 && confidence < 1.0))
		return NAN;
	return gsl_cdf_ugaussian_Pinv(0.5 + confidence / 2.0) * sqrt(2.0) * run_sd;
}

int stats_beyond(double lo, double hi, double allow)
{
	if (!isfinite(lo) || !isfinite(hi) || !isfinite(allow))
		return 0;
	if (lo > allow)
		return 1;
	if (hi < -allow)
		return -1;
	return 0;
}

struct holm_item {
	double p;
	size_t i;
};

static int holm_cmp(const void *a, const void *b)
{
	double x = ((const struct holm_item *)a)->p, y = ((const struct holm_item *)b)->p;

	return (x > y) - (x < y);
}

int stats_holm(const double *p, size_t m, double *adj)
{
	struct holm_item *it = malloc((m ? m : 1) * sizeof(*it));
	size_t k = 0;
	double run = 0.0;

	if (!it)
		return -1;
	for (size_t i = 0; i < m; i++) {
		adj[i] = NAN;
		if (isfinite(p[i]))
			it[k++] = (struct holm_item){ p[i], i };
	}
	/* tied p get the same adjusted value whatever their order */
	qsort(it, k, sizeof(*it), holm_cmp);
	for (size_t i = 0; i < k; i++) {
		run = fmax(run, fmin(1.0, (double)(k - i) * it[i].p));
		adj[it[i].i] = run;
	}
	free(it);
	return 0;
}

double stats_sign_p(size_t k, size_t n)
{
	if (k == 0)
		return 1.0;
	if (k > n)
		return 0.0;
	return gsl_cdf_binomial_Q((unsigned int)(k - 1), 0.5, (unsigned int)n);
}

double stats_sd_upper(double s, double df, double confidence)
{
	double q;

	if (!(df >= 1.0) || !(s >= 0.0) || !(confidence > 0.0 && confidence < 1.0))
		return NAN;
	q = gsl_cdf_chisq_Pinv(1.0 - confidence, df);
	return q > 0.0 ? s * sqrt(df / q) : NAN;
}

/*
 * Rank intervals (Hodges-Lehmann and Theil-Sen). Both rest on M
 * "elementary estimates" E (Walsh averages; pairwise slopes) and a count
 * C(theta) = #{E < theta} whose distribution at the true theta is known
 * and free of the data's distribution: Wilcoxon's signed-rank statistic
 * (symmetric noise) or the number of discordant pairs of Kendall's tau
 * (exchangeable noise). The interval at confidence c is [E(k), E(M+1-k)]
 * with k the largest k >= 1 such that P(C <= k - 1) <= (1 - c) / 2
 * (Hollander and Wolfe 1999, sections 3.3 and 9.4), exact up to
 * RANK_EXACT_MAX units and from the normal approximation (with the
 * continuity correction) beyond.
 */
#define RANK_EXACT_MAX 50
#define RANK_MAX_UNITS 3000   /* beyond: M would pass 4.5 million estimates */

enum rank_kind { RANK_SIGNED, RANK_KENDALL };

struct rank_null {
	size_t M;        /* the number of elementary estimates */
	double *cdf;     /* exact P(C <= k), k = 0..M; NULL: the normal */
	double var;      /* Var C, for the normal */
};

/* The null distribution of C for n units (Kendall: n values at distinct
 * times; ties of time reduce var as Kendall's tie correction). Exact:
 * signed rank by the recursion over the ranks 1..n (each in or out with
 * probability 1/2), discordant pairs by the Mahonian recursion (the
 * inversions of a random permutation). 0 or -1 on ENOMEM. */
static int rank_null_init(struct rank_null *z, enum rank_kind kind, size_t n, size_t M, double tie_var)
{
	double *p;

	z->M = M;
	z->cdf = NULL;
	if (kind == RANK_SIGNED)
		z->var = (double)n * (n + 1) * (2.0 * n + 1) / 24.0;
	else
		z->var = ((double)n * (n - 1) * (2.0 * n + 5) - tie_var) / 72.0;
	if (n > RANK_EXACT_MAX || (kind == RANK_KENDALL && M != n * (n - 1) / 2))
		return 0;
	p = calloc(M + 1, sizeof(*p));
	if (!p)
		return -1;
	p[0] = 1.0;
	if (kind == RANK_SIGNED) {
		size_t top = 0;

		for (size_t r = 1; r <= n; r++) {
			top += r;
			for (size_t s = top + 1; s-- > 0;)
				p[s] = (p[s] + (s >= r ? p[s - r] : 0.0)) / 2.0;
		}
	} else {
		double *q = calloc(M + 1, sizeof(*q));
		size_t top = 0;

		if (!q) {
			free(p);
			return -1;
		}
		for (size_t m = 2; m <= n; m++) {   /* m values: inversions 0..top + m - 1 */
			double run = 0.0;

			top += m - 1;
			for (size_t s = 0; s <= top; s++) {
				run += p[s];
				if (s >= m)
					run -= p[s - m];
				q[s] = run / (double)m;
			}
			memcpy(p, q, (top + 1) * sizeof(*p));
		}
		free(q);
	}
	for (size_t s = 1; s <= M; s++)
		p[s] += p[s - 1];
	z->cdf = p;
	return 0;
}

/* P(C <= k). */
static double rank_cdf(const struct rank_null *z, double k)
{
	if (k < 0)
		return 0.0;
	if (k >= (double)z->M)
		return 1.0;
	if (z->cdf)
		return fmin(1.0, z->cdf[(size_t)k]);
	return z->var > 0 ? gsl_cdf_ugaussian_P((k + 0.5 - z->M / 2.0) / sqrt(z->var)) : 1.0;
}

/* The largest k >= 1 with P(C <= k - 1) <= (1 - c) / 2; 0: none (too
 * few units for confidence c). */
static size_t rank_k(const struct rank_null *z, double c)
{
	double a2 = (1.0 - c) / 2.0;
	size_t lo = 0, hi = z->M ? (z->M + 1) / 2 - 1 : 0;   /* k - 1 at most (M - 1) / 2 */

	if (rank_cdf(z, 0) > a2)
		return 0;
	if (rank_cdf(z, (double)hi) <= a2)
		return hi + 1;
	while (lo + 1 < hi) {   /* P(C <= lo) <= a2 < P(C <= hi) */
		size_t mid = lo + (hi - lo) / 2;

		if (rank_cdf(z, (double)mid) <= a2)
			lo = mid;
		else
			hi = mid;
	}
	return lo + 1;
}

/* The interval at confidence c over the sorted estimates e[0..M), each
 * end moved away from d by the resolution in quadrature (res z, z the
 * normal quantile of (1 + c) / 2). false when too few units. */
static bool rank_interval(const double *e, const struct rank_null *z, double d, double res, double c,
			  double *lo, double *hi)
{
	size_t k = rank_k(z, c);
	double zr = res > 0 ? res * gsl_cdf_ugaussian_Pinv((1.0 + c) / 2.0) : 0.0;

	if (k == 0)
		return false;
	*lo = d - hypot(d - e[k - 1], zr);
	*hi = d + hypot(e[z->M - k] - d, zr);
	return true;
}

/*
 * Fill iv from the sorted estimates e[0..M): d their median, the interval
 * at confidence, p the two-sided p of theta = 0 from the count: with a, b
 * and z0 the estimates below, above and at 0, m = min(a, b) + z0, p =
 * min(1, 2 P(C <= m)), so that the interval excludes 0 exactly when p <=
 * 1 - confidence. With a resolution, p is the smallest 1 - c whose widened
 * interval excludes 0 (bisection). Too few units: lo, hi NaN, p as above.
 */
static void rank_fill(struct stats_interval *iv, const double *e, const struct rank_null *z, size_t n,
		      double res, double confidence)
{
	size_t M = z->M, a = 0, b = 0, z0;
	double lo, hi;

	iv->n = n;
	iv->d = M % 2 ? e[M / 2] : (e[M / 2 - 1] + e[M / 2]) / 2.0;
	iv->df = INFINITY;
	for (size_t i = 0; i < M; i++) {
		a += e[i] < 0;
		b += e[i] > 0;
	}
	z0 = M - a - b;
	iv->p = fmin(1.0, 2.0 * rank_cdf(z, (double)((a < b ? a : b) + z0)));
	if (res > 0) {
		double pl = 0.0, ph = 1.0;

		if (!rank_interval(e, z, iv->d, res, 1e-9, &lo, &hi) || (lo <= 0 && hi >= 0)) {
			iv->p = 1.0;
		} else {
			for (int i = 0; i < 60; i++) {   /* excluded at 1 - ph, not at 1 - pl */
				double mid = (pl + ph) / 2.0;

				if (rank_interval(e, z, iv->d, res, 1.0 - mid, &lo, &hi) && (lo > 0 || hi < 0))
					ph = mid;
				else
					pl = mid;
			}
			iv->p = ph;
		}
	}
	if (rank_interval(e, z, iv->d, res, confidence, &lo, &hi)) {
		iv->lo = lo;
		iv->hi = hi;
		iv->se = (hi - lo) / (2.0 * gsl_cdf_ugaussian_Pinv((1.0 + confidence) / 2.0));
	} else {
		iv->lo = iv->hi = iv->se = NAN;
	}
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

size_t stats_rank_min_units(int kind, double confidence)
{
	for (size_t n = 2; n <= RANK_EXACT_MAX; n++) {
		struct rank_null z;
		size_t M = kind ? n * (n - 1) / 2 : n * (n + 1) / 2, k;

		if (rank_null_init(&z, kind ? RANK_KENDALL : RANK_SIGNED, n, M, 0.0))
			return 0;
		k = rank_k(&z, confidence);
		free(z.cdf);
		if (k)
			return n;
	}
	return 0;
}

double stats_signrank_cdf(size_t n, size_t k)
{
	struct rank_null z;
	double p;

	if (rank_null_init(&z, RANK_SIGNED, n, n * (n + 1) / 2, 0.0))
		return NAN;
	p = rank_cdf(&z, (double)k);
	free(z.cdf);
	return p;
}

double stats_kendall_cdf(size_t n, size_t k)
{
	struct rank_null z;
	double p;

	if (n < 2 || rank_null_init(&z, RANK_KENDALL, n, n * (n - 1) / 2, 0.0))
		return NAN;
	p = rank_cdf(&z, (double)k);
	free(z.cdf);
	return p;
}

int stats_trend_sen(const double *t, const double *y, size_t n, double res, double confidence,
		    struct stats_interval *iv)
{
	double *l = NULL, *s = NULL, lo, hi, tie_var = 0.0;
	struct rank_null z = { 0 };
	size_t M = 0;
	int rc = -1;

	memset(iv, 0, sizeof(*iv));
	if (n < 3 || n > RANK_MAX_UNITS || !(confidence > 0 && confidence < 1) || !(res >= 0) || !isfinite(res))
		return -1;
	l = malloc(n * sizeof(*l));
	s = malloc(n * (n - 1) / 2 * sizeof(*s));
	if (!l || !s || logs_of(y, n, l))
		goto out;
	lo = hi = t[0];
	for (size_t i = 0; i < n; i++) {
		size_t ties = 1;

		if (!isfinite(t[i]))
			goto out;
		lo = fmin(lo, t[i]);
		hi = fmax(hi, t[i]);
		for (size_t j = 0; j < n; j++)
			ties += j != i && t[j] == t[i];
		/* a tied group of g times adds g (g - 1)(2g + 5): (g - 1)(2g + 5) a member */
		tie_var += ((double)ties - 1) * (2.0 * ties + 5);
	}
	if (hi == lo)
		goto out;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (t[i] != t[j])
				s[M++] = (l[j] - l[i]) / (t[j] - t[i]) * (hi - lo);
	qsort(s, M, sizeof(*s), dbl_cmp);
	if (rank_null_init(&z, RANK_KENDALL, n, M, tie_var))
		goto out;
	rank_fill(iv, s, &z, n, res, confidence);
	rc = 0;
out:
	free(z.cdf);
	free(l);
	free(s);
	return rc;
}

/* The sign-test interval's coverage with ends X(d), X(n + 1 - d):
 * 1 - 2 P(B <= d - 1), B ~ Bin(n, 1/2). */
static double sign_cover(size_t d, size_t n)
{
	return d == 0 ? 1.0 : 1.0 - 2.0 * gsl_cdf_binomial_P((unsigned)(d - 1), 0.5, (unsigned)n);
}

/* The interpolated sign-test interval of the sorted l[0..n) at confidence
 * c around d, each end widened by the resolution in quadrature; false
 * when even X(1)..X(n) does not reach c. */
static bool sign_interval(const double *l, size_t n, double d, double res, double c, double *lo, double *hi)
{
	size_t k = 0;
	double lam = 0.0, zr = res > 0 ? res * gsl_cdf_ugaussian_Pinv((1.0 + c) / 2.0) : 0.0;

	while (k + 1 <= n / 2 && sign_cover(k + 1, n) >= c)
		k++;
	if (k == 0)
		return false;
	if (k + 1 <= n / 2) {   /* Hettmansperger-Sheather between k and k + 1 */
		double gk = sign_cover(k, n), g1 = sign_cover(k + 1, n), I = (gk - c) / (gk - g1);

		lam = (double)(n - k) * I / ((double)k + (double)(n - 2 * k) * I);
	}
	*lo = (1.0 - lam) * l[k - 1] + lam * l[k];
	*hi = (1.0 - lam) * l[n - k] + lam * l[n - k - 1];
	*lo = d - hypot(d - *lo, zr);
	*hi = d + hypot(*hi - d, zr);
	return true;
}

int stats_block_median(const double *x, const double *base, size_t n, double res, double confidence,
		       struct stats_interval *iv)
{
	double *l, *lb, lo, hi, pl = 0.0, ph = 1.0;
	int rc = -1;

	memset(iv, 0, sizeof(*iv));
	if (n < 2 || !(confidence > 0 && confidence < 1) || !(res >= 0) || !isfinite(res))
		return -1;
	l = malloc(n * sizeof(*l));
	lb = malloc(n * sizeof(*lb));
	if (!l || !lb || logs_of(x, n, l) || logs_of(base, n, lb))
		goto out;
	for (size_t b = 0; b < n; b++)
		l[b] -= lb[b];
	qsort(l, n, sizeof(*l), dbl_cmp);
	iv->n = n;
	iv->df = INFINITY;
	iv->d = n % 2 ? l[n / 2] : (l[n / 2 - 1] + l[n / 2]) / 2.0;
	/* p: the smallest 1 - c whose interval excludes 0 (the intervals
	 * shrink as c falls, so the set is an interval of alpha) */
	if (!sign_interval(l, n, iv->d, res, 1e-9, &lo, &hi) || (lo <= 0 && hi >= 0)) {
		iv->p = 1.0;
	} else {
		for (int i = 0; i < 60; i++) {
			double mid = (pl + ph) / 2.0;

			if (sign_interval(l, n, iv->d, res, 1.0 - mid, &lo, &hi) && (lo > 0 || hi < 0))
				ph = mid;
			else
				pl = mid;
		}
		iv->p = ph;
	}
	if (sign_interval(l, n, iv->d, res, confidence, &lo, &hi)) {
		iv->lo = lo;
		iv->hi = hi;
		iv->se = (hi - lo) / (2.0 * gsl_cdf_ugaussian_Pinv((1.0 + confidence) / 2.0));
	} else {
		iv->lo = iv->hi = iv->se = NAN;
	}
	rc = 0;
out:
	free(l);
	free(lb);
	return rc;
}
