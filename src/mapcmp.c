/*
 * mapcmp.c - two switches' fabric maps side by side; see mapcmp.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mapcmp.h"
#include "stats.h"

#define MAPCMP_MAX_RUNS 32   /* a side, more than compare takes */

void mapcmp_free(struct mapcmp *m)
{
	free(m->host);
	free(m->claim);
	free(m->link_rel);
	memset(m, 0, sizeof(*m));
}

bool mapcmp_significant(const struct mapcmp *m)
{
	return m->change.significant && (m->runs_unit || m->beyond);
}

/* Goodness on the log scale: lower is slower, either metric. */
static double good(int metric, double v)
{
	return metric == BLAME_LATENCY ? -log(v) : log(v);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The fabric-wide value of a map: the median of its link medians. */
static double fabric(const struct blame_result *r, double *tmp)
{
	size_t n = 0;

	for (size_t l = 0; l < r->nlink; l++)
		if (isfinite(r->link[l].median))
			tmp[n++] = r->link[l].median;
	return stats_median(tmp, n);
}

/* Each block's median over the links it measured into out (finite ones
 * counted in *n). */
static void block_values(const struct blame_input *in, double *tmp, double *out, size_t *n)
{
	*n = 0;
	for (int b = 0; b < in->nblock; b++) {
		size_t k = 0;

		for (size_t p = 0; p < in->npair; p++)
			if (isfinite(in->pair[p].v[b]) && in->pair[p].v[b] > 0)
				tmp[k++] = in->pair[p].v[b];
		if (k)
			out[(*n)++] = stats_median(tmp, k);
	}
}

/* map[i]: the host of r matching host i of ref, by name when every host
 * of ref is in r, else by position. */
static bool host_map(const struct blame_result *ref, const struct blame_result *r, int *map)
{
	for (int i = 0; i < ref->nhost; i++) {
		map[i] = -1;
		for (int j = 0; j < r->nhost && map[i] < 0; j++)
			if (!strcmp(ref->host[i].name, r->host[j].name))
				map[i] = j;
		if (map[i] < 0) {
			for (int k = 0; k < ref->nhost; k++)
				map[k] = k;
			return false;
		}
	}
	return true;
}

/* The log ratio (goodness, X over A) of every link of A's first map
 * matched in X's first map, in d[i * n + j] (NaN unmatched), and the
 * metric's ratio in rel[link]. */
static size_t paired(const struct blame_result *a, const struct blame_result *x, const int *map, double *d,
		     double *rel)
{
	int n = a->nhost;
	size_t m = 0;

	for (size_t k = 0; k < (size_t)n * (size_t)n; k++)
		d[k] = NAN;
	for (size_t l = 0; l < a->nlink; l++) {
		const struct blame_link *la = &a->link[l], *lx = blame_link_of(x, map[la->a], map[la->b]);

		rel[l] = NAN;
		if (!lx || !isfinite(la->median) || !isfinite(lx->median) || la->median <= 0 || lx->median <= 0)
			continue;
		d[la->a * n + la->b] = d[la->b * n + la->a] = good(a->metric, lx->median) - good(a->metric, la->median);
		rel[l] = lx->median / la->median;
		m++;
	}
	return m;
}

/* One run a side: each host's sign tests over its partners. */
static void hosts_sign(struct mapcmp *m, const double *d, double shift, double *tmp)
{
	int n = m->nhost;

	for (int i = 0; i < n; i++) {
		struct mapcmp_host *h = &m->host[i];
		size_t k = 0;

		for (int j = 0; j < n; j++) {
			double e = d[i * n + j] - shift;

			if (j == i || !isfinite(e))
				continue;
			tmp[k++] = e;
			h->slower += e < -m->thresh;
			h->faster += e > m->thresh;
		}
		h->n = (int)k;
		h->rel = exp(stats_median(tmp, k));
		h->p_slow = k ? stats_sign_p((size_t)h->slower, k) : NAN;
		h->p_fast = k ? stats_sign_p((size_t)h->faster, k) : NAN;
	}
}

/* A host's value in one map: ln of its score over the map's fabric-wide
 * value (goodness); NaN without a score. */
static double host_value(const struct blame_result *r, int i, double fab)
{
	double s = r->host[i].score;

	return isfinite(s) && s > 0 && fab > 0 ? good(r->metric, s) - good(r->metric, fab) : NAN;
}

/* 2 or more runs a side: Welch's t over runs on each host's value. */
static int hosts_runs(struct mapcmp *m, const struct mapcmp_map *a, int na, const struct mapcmp_map *x, int nx,
		      const double *fa, const double *fx)
{
	int n = m->nhost, *map = malloc(sizeof(*map) * (size_t)n * (size_t)(na + nx));

	if (!map)
		return -1;
	/* each run's hosts matched to A's first map's, once */
	for (int r = 0; r < na + nx; r++)
		host_map(a[0].res, r < na ? a[r].res : x[r - na].res, map + (size_t)r * (size_t)n);
	for (int i = 0; i < n; i++) {
		struct mapcmp_host *h = &m->host[i];
		double v[2][MAPCMP_MAX_RUNS];
		size_t k[2] = { 0, 0 };
		struct stats_interval iv;

		for (int r = 0; r < na + nx; r++) {
			int side = r >= na;
			const struct blame_result *res = side ? x[r - na].res : a[r].res;
			double y = host_value(res, map[(size_t)r * (size_t)n + (size_t)i], side ? fx[r - na] : fa[r]);

			if (isfinite(y) && k[side] < MAPCMP_MAX_RUNS)
				v[side][k[side]++] = exp(y);
		}
		h->n = (int)(k[0] < k[1] ? k[0] : k[1]);
		h->p_slow = h->p_fast = NAN;
		if (k[0] < 2 || k[1] < 2 || stats_runs_welch(v[0], k[0], v[1], k[1], 0.0, m->confidence, &iv))
			continue;
		h->rel = exp(iv.d);
		h->p_slow = iv.d < 0 ? iv.p / 2 : 1 - iv.p / 2;
		h->p_fast = 1 - h->p_slow;
		h->slower = iv.d < -m->thresh;
		h->faster = iv.d > m->thresh;
	}
	free(map);
	return 0;
}

/* Holm over the hosts and both directions, then each host's claim. */
static int host_claims(struct mapcmp *m, double alpha)
{
	int n = m->nhost;
	double *p = malloc(sizeof(*p) * 4 * (size_t)n), *adj;

	if (!p)
		return -1;
	adj = p + 2 * n;
	for (int i = 0; i < n; i++) {
		p[2 * i] = m->host[i].p_slow;
		p[2 * i + 1] = m->host[i].p_fast;
	}
	if (stats_holm(p, 2 * (size_t)n, adj)) {
		free(p);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct mapcmp_host *h = &m->host[i];
		bool runs = m->runs_unit;

		h->p_slow = adj[2 * i];
		h->p_fast = adj[2 * i + 1];
		/* the sign test counts partners beyond the threshold; over
		 * runs, the mean must lie beyond it */
		if (h->p_slow < alpha && (!runs || h->slower))
			h->claim = -1, m->nslower++;
		else if (h->p_fast < alpha && (!runs || h->faster))
			h->claim = 1, m->nfaster++;
		if (m->metric == BLAME_LATENCY)
			h->rel = 1 / h->rel;   /* the metric's ratio */
	}
	free(p);
	return 0;
}

bool mapcmp_has_claim(const struct blame_result *r, const struct blame_claim *c)
{
	for (int k = 0; k < r->nclaim; k++)
		if (r->claim[k].kind == c->kind && !strcmp(r->claim[k].name, c->name))
			return true;
	return false;
}

static int claims(struct mapcmp *m, const struct blame_result *a, const struct blame_result *x)
{
	m->claim = calloc((size_t)(a->nclaim + x->nclaim) + 1, sizeof(*m->claim));
	if (!m->claim)
		return -1;
	for (int k = 0; k < x->nclaim; k++)
		if (!mapcmp_has_claim(a, &x->claim[k]))
			m->claim[m->nclaim++] = (struct mapcmp_claim){ true, &x->claim[k] };
	for (int k = 0; k < a->nclaim; k++)
		if (!mapcmp_has_claim(x, &a->claim[k]))
			m->claim[m->nclaim++] = (struct mapcmp_claim){ false, &a->claim[k] };
	return 0;
}

/* The fabric-wide change, X against A. */
static void fabric_change(struct mapcmp *m, const struct mapcmp_map *a, const struct mapcmp_map *x,
			  const double *fa, const double *fx, const struct mapcmp_opts *o, double *tmp, double *ba,
			  double *bx)
{
	int metric = m->metric == BLAME_LATENCY ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH;
	struct sw_config cfg;
	size_t nba, nbx;

	memset(&cfg, 0, sizeof(cfg));
	cfg.alpha = o->alpha;
	cfg.confidence = o->confidence;
	cfg.min_effect = o->min_effect;
	if (m->runs_unit) {
		/* as compare's runs as the unit: no floor on the number of runs */
		struct stats_interval iv;
		bool lat = metric == SW_METRIC_LATENCY;
		double sg = lat ? 1 : -1;   /* worse: latency up, bandwidth down */

		change_invalid(&m->change);
		if (stats_runs_welch(fa, (size_t)m->na, fx, (size_t)m->nx, 0.0, o->confidence, &iv))
			return;
		m->change = (struct sw_change){ .valid = true, .level = m->fab_x, .base = m->fab_a,
						.pct = sg * expm1(iv.d) * 100, .p = iv.p };
		m->change.lo = sg * expm1(lat ? iv.lo : iv.hi) * 100;
		m->change.hi = sg * expm1(lat ? iv.hi : iv.lo) * 100;
		m->change.significant = iv.p < o->alpha && stats_beyond(iv.lo, iv.hi, 0.0) &&
					fabs(expm1(iv.d)) * 100 > o->min_effect;
		return;
	}
	block_values(a[0].in, tmp, ba, &nba);
	block_values(x[0].in, tmp, bx, &nbx);
	change_test(bx, nbx, ba, nba, metric, &cfg, &m->change);
	if (m->change.valid && isfinite(m->change.lo)) {
		m->beyond = stats_beyond(change_log(metric, m->change.lo), change_log(metric, m->change.hi),
					 o->allow) != 0;
	}
}

int mapcmp_run(const struct mapcmp_map *a, int na, const struct mapcmp_map *x, int nx, const struct mapcmp_opts *o,
	       struct mapcmp *out, char *err, size_t errlen)
{
	int n, nb, *map = NULL, rc = -1;
	size_t big;
	double *d = NULL, *tmp = NULL, *fa = NULL, *fx = NULL, *ba, *bx;

	memset(out, 0, sizeof(*out));
	if (na < 1 || nx < 1)
		return sw_fail(err, errlen, "a map comparison needs a map a side");
	n = a[0].res->nhost;
	nb = 0;
	for (int r = 0; r < na + nx; r++) {
		const struct mapcmp_map *mp = r < na ? &a[r] : &x[r - na];

		if (mp->res->nhost != n)
			return sw_fail(err, errlen, "the maps have %d and %d hosts: only maps of as many hosts compare",
				       n, mp->res->nhost);
		if (mp->res->metric != a[0].res->metric)
			return sw_fail(err, errlen, "the maps measured different metrics");
		nb = mp->in->nblock > nb ? mp->in->nblock : nb;
	}
	big = (size_t)n * (size_t)n;
	for (int r = 0; r < na + nx; r++) {
		const struct mapcmp_map *mp = r < na ? &a[r] : &x[r - na];

		big = mp->res->nlink > big ? mp->res->nlink : big;
		big = mp->in->npair > big ? mp->in->npair : big;
	}
	out->metric = a[0].res->metric;
	out->na = na;
	out->nx = nx;
	out->nhost = n;
	out->confidence = o->confidence;
	out->runs_unit = na >= 2 && nx >= 2;
	out->thresh = out->runs_unit ? -log1p(-o->floor) : fmax(-log1p(-o->floor), o->allow);
	d = malloc(sizeof(*d) * big);
	tmp = malloc(sizeof(*tmp) * big);
	fa = malloc(sizeof(*fa) * (size_t)(na + nx + 2 * nb + 2));
	map = malloc(sizeof(*map) * (size_t)n);
	out->host = calloc((size_t)n, sizeof(*out->host));
	out->link_rel = malloc(sizeof(*out->link_rel) * (a[0].res->nlink + 1));
	if (!d || !tmp || !fa || !map || !out->host || !out->link_rel) {
		sw_fail(err, errlen, "out of memory (a map of %d hosts)", n);
		goto out;
	}
	fx = fa + na;
	ba = fx + nx;
	bx = ba + nb + 1;
	for (int r = 0; r < na; r++)
		fa[r] = fabric(a[r].res, tmp);
	for (int r = 0; r < nx; r++)
		fx[r] = fabric(x[r].res, tmp);
	out->fab_a = stats_median(fa, (size_t)na);
	out->fab_x = stats_median(fx, (size_t)nx);
	fabric_change(out, a, x, fa, fx, o, tmp, ba, bx);

	out->by_name = host_map(a[0].res, x[0].res, map);
	for (int i = 0; i < n; i++)
		out->host[i] = (struct mapcmp_host){ .a = i, .x = map[i], .rel = NAN };
	out->nlinks = paired(a[0].res, x[0].res, map, d, out->link_rel);
	{
		size_t k = 0;
		double shift;

		for (size_t q = 0; q < (size_t)n * (size_t)n; q++)
			if (isfinite(d[q]) && q / (size_t)n < q % (size_t)n)
				tmp[k++] = d[q];
		qsort(tmp, k, sizeof(*tmp), cmp_double);
		shift = stats_median(tmp, k);
		out->link_ratio = k ? exp(out->metric == BLAME_LATENCY ? -shift : shift) : NAN;
		out->link_q1 = k ? exp(out->metric == BLAME_LATENCY ? -tmp[3 * (k - 1) / 4] : tmp[(k - 1) / 4]) : NAN;
		out->link_q3 = k ? exp(out->metric == BLAME_LATENCY ? -tmp[(k - 1) / 4] : tmp[3 * (k - 1) / 4]) : NAN;
		if (out->runs_unit) {
			if (hosts_runs(out, a, na, x, nx, fa, fx)) {
				sw_fail(err, errlen, "out of memory");
				goto out;
			}
		} else
			hosts_sign(out, d, shift, tmp);
	}
	if (host_claims(out, o->alpha) || claims(out, a[0].res, x[0].res)) {
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	rc = 0;
out:
	free(d);
	free(tmp);
	free(fa);
	free(map);
	if (rc)
		mapcmp_free(out);
	return rc;
}
