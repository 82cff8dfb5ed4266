/*
 * blame.c - the fabric map's statistics; see blame.h for the tests. Pure:
 * allocates the result, prints nothing.
 *
 * Inside, every value is a "goodness" on the log scale: ln v for
 * bandwidth, -ln v for latency, less the block's median over all links,
 * so lower is slower whatever the metric and a shift of the whole block
 * cancels. g[] is the N x N matrix of the links' goodness (median over
 * blocks; NaN where no link was measured); the floor is c = ln(1 - floor)
 * (bandwidth) or -ln(1 + floor) (latency) on that scale.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "blame.h"
#include "fmt.h"
#include "stats.h"

/* One run of the tests on one grouping. */
struct map {
	const struct blame_input *in;
	struct blame_result *r;
	const struct blame_pair **src;   /* nlink: the input pair of each link */
	int n, nb;
	double *y;                       /* nlink x nb block goodness */
	double *g;                       /* n x n link goodness */
	int *li;                         /* n x n link index, -1 */
	int *grp;                        /* n: each host's group */
	double c;                        /* the floor on the goodness scale */
	double *hfx;                     /* n: each host's effect (fit_model) */
	double *mu;                      /* ngroup x ngroup: each group pair's */
};

static double goodness_of(int metric, double v)
{
	return metric == BLAME_LATENCY ? -log(v) : log(v);
}

/* A goodness difference as the metric's ratio (bandwidth 0.8: 20% less;
 * latency 1.25: 25% more). */
static double rel_of(int metric, double d)
{
	return exp(metric == BLAME_LATENCY ? -d : d);
}

/* x[k] as if x[0..n) were sorted, x reordered so that x[0..k) are no
 * larger (Wirth's selection with Hoare's partition: linear on average). */
static double select_kth(double *x, size_t n, size_t k)
{
	long lo = 0, hi = (long)n - 1, kk = (long)k;

	while (lo < hi) {
		double pivot = x[kk];
		long i = lo, j = hi;

		do {
			while (x[i] < pivot)
				i++;
			while (pivot < x[j])
				j--;
			if (i <= j) {
				double t = x[i];

				x[i++] = x[j];
				x[j--] = t;
			}
		} while (i <= j);
		if (j < kk)
			lo = i;
		if (kk < i)
			hi = j;
	}
	return x[kk];
}

/* Median of the finite values of x[0..n) (reordered in place); NaN when
 * none. */
static double median_inplace(double *x, size_t n)
{
	size_t k = 0;
	double hi, lo;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			x[k++] = x[i];
	if (!k)
		return NAN;
	hi = select_kth(x, k, k / 2);
	if (k % 2)
		return hi;
	/* the largest of the lower half */
	lo = x[0];
	for (size_t i = 1; i < k / 2; i++)
		lo = x[i] > lo ? x[i] : lo;
	return (lo + hi) / 2.0;
}

static int link_cmp(const void *a, const void *b)
{
	const struct blame_link *x = a, *y = b;

	return x->a != y->a ? x->a - y->a : x->b - y->b;
}

static int check_input(const struct blame_input *in, char *err, size_t errlen)
{
	if (in->nhost < 2 || !in->host)
		return sw_fail(err, errlen, "map: %d hosts (2 at least)", in->nhost);
	if (in->nblock < 1)
		return sw_fail(err, errlen, "map: no blocks");
	if (!(in->floor >= 0.0 && in->floor < 1.0))
		return sw_fail(err, errlen, "map: effect floor %g not in [0, 1)", in->floor);
	if (!(in->alpha > 0.0 && in->alpha < 1.0) || !(in->confidence > 0.0 && in->confidence < 1.0))
		return sw_fail(err, errlen, "map: alpha %g or confidence %g not in (0, 1)", in->alpha,
			       in->confidence);
	if (in->metric != BLAME_BANDWIDTH && in->metric != BLAME_LATENCY)
		return sw_fail(err, errlen, "map: unknown metric %d", in->metric);
	if (in->group && in->ngroup < 1)
		return sw_fail(err, errlen, "map: groups given but ngroup is %d", in->ngroup);
	for (int i = 0; in->group && i < in->nhost; i++)
		if (in->group[i] < 0 || in->group[i] >= in->ngroup)
			return sw_fail(err, errlen, "map: host '%s' in group %d (of %d)", in->host[i],
				       in->group[i], in->ngroup);
	for (size_t k = 0; k < in->npair; k++) {
		const struct blame_pair *p = &in->pair[k];

		if (p->a < 0 || p->b < 0 || p->a >= in->nhost || p->b >= in->nhost || p->a == p->b || !p->v)
			return sw_fail(err, errlen, "map: pair %zu (%d, %d) is not two of the %d hosts", k, p->a,
				       p->b, in->nhost);
		for (int b = 0; b < in->nblock; b++)
			if (!isnan(p->v[b]) && !(p->v[b] > 0.0 && isfinite(p->v[b])))
				return sw_fail(err, errlen, "map: pair %s-%s, block %d: value %g not positive",
					       in->host[p->a], in->host[p->b], b, p->v[b]);
	}
	return 0;
}

/* The links, their block goodness and their medians with CI. */
static int load_links(struct map *m, char *err, size_t errlen)
{
	const struct blame_input *in = m->in;
	struct blame_result *r = m->r;
	size_t nl = in->npair, n2 = (size_t)m->n * (size_t)m->n;
	double *col = NULL, *raw = NULL, *ref = NULL;
	int ret = -1;

	r->link = calloc(nl ? nl : 1, sizeof(*r->link));
	m->src = calloc(nl ? nl : 1, sizeof(*m->src));
	m->y = malloc((nl ? nl : 1) * (size_t)m->nb * sizeof(*m->y));
	m->g = malloc(n2 * sizeof(*m->g));
	m->li = malloc(n2 * sizeof(*m->li));
	col = malloc((nl ? nl : 1) * sizeof(*col));
	raw = malloc((size_t)m->nb * sizeof(*raw));
	ref = malloc((size_t)m->nb * sizeof(*ref));
	if (!r->link || !m->src || !m->y || !m->g || !m->li || !col || !raw || !ref) {
		sw_fail(err, errlen, "map: out of memory");
		goto out_free;
	}
	r->nlink = nl;
	for (size_t k = 0; k < nl; k++) {
		const struct blame_pair *p = &in->pair[k];

		r->link[k].a = p->a < p->b ? p->a : p->b;
		r->link[k].b = p->a < p->b ? p->b : p->a;
		r->link[k].by = (int)k;   /* the input pair, until sorted */
	}
	qsort(r->link, nl, sizeof(*r->link), link_cmp);
	for (size_t i = 0; i < n2; i++) {
		m->li[i] = -1;
		m->g[i] = NAN;
	}
	for (size_t k = 0; k < nl; k++) {
		struct blame_link *l = &r->link[k];

		if (k && l->a == l[-1].a && l->b == l[-1].b) {
			sw_fail(err, errlen, "map: pair %s-%s measured twice", in->host[l->a], in->host[l->b]);
			goto out_free;
		}
		m->src[k] = &in->pair[l->by];
		m->li[l->a * m->n + l->b] = m->li[l->b * m->n + l->a] = (int)k;
	}
	/* each block's median over every link it measured */
	for (int b = 0; b < m->nb; b++) {
		size_t c = 0;

		for (size_t k = 0; k < nl; k++)
			if (!isnan(m->src[k]->v[b]))
				col[c++] = goodness_of(in->metric, m->src[k]->v[b]);
		ref[b] = median_inplace(col, c);
	}
	for (size_t k = 0; k < nl; k++) {
		struct blame_link *l = &r->link[k];
		int c = 0;

		for (int b = 0; b < m->nb; b++) {
			double v = m->src[k]->v[b];

			m->y[k * m->nb + b] = isnan(v) ? NAN : goodness_of(in->metric, v) - ref[b];
			if (!isnan(v))
				raw[c++] = v;
		}
		l->n = c;
		l->median = stats_median(raw, (size_t)c);
		l->lo = l->hi = l->median;
		if (c >= 2 && stats_median_ci(raw, (size_t)c, in->confidence, &l->lo, &l->hi))
			l->lo = l->hi = l->median;
		for (int b = 0; b < m->nb; b++)
			col[b] = m->y[k * m->nb + b];
		m->g[l->a * m->n + l->b] = m->g[l->b * m->n + l->a] = median_inplace(col, (size_t)m->nb);
		l->p = l->rel = NAN;
		l->cause = BLAME_NONE;
		l->by = -1;
	}
	ret = 0;
out_free:
	free(ref);
	free(raw);
	free(col);
	return ret;
}

/*
 * Inferred groups: average linkage, the most alike hosts first. Two
 * hosts are alike when their links to the others are: their distance is
 * the mean of |g_ik - g_jk| over the hosts k both reached (a profile, so
 * one lucky link does not join two groups). Clusters A and B may join
 * only when their mean link is no slower than the floor below the slower
 * of their own mean links within (a single host has none: two single
 * hosts always may). Hosts left alone (slower with everyone: a slow
 * port, not a group) join the cluster they are fastest with. grp[] gets
 * the clusters numbered by their first host; returns how many, -1 on
 * ENOMEM.
 */
static int infer_groups(const struct map *m, int *grp)
{
	int n = m->n, ng = 0, ret = -1;
	size_t n2 = (size_t)n * n;
	double *sum = calloc(n2, sizeof(*sum)), *dist = calloc(n2, sizeof(*dist));
	int *cnt = calloc(n2, sizeof(*cnt)), *dcnt = calloc(n2, sizeof(*dcnt)), *size = malloc(n * sizeof(*size));
	int *root = malloc(n * sizeof(*root)), *num = malloc(n * sizeof(*num));
	const double *g = m->g;

	if (!sum || !dist || !cnt || !dcnt || !size || !root || !num)
		goto out_free;
	for (int i = 0; i < n; i++) {
		root[i] = i;
		size[i] = 1;
		for (int j = i + 1; j < n; j++) {
			double d = 0.0;
			int c = 0;

			if (isfinite(g[i * n + j])) {
				sum[i * n + j] = sum[j * n + i] = g[i * n + j];
				cnt[i * n + j] = cnt[j * n + i] = 1;
			}
			for (int k = 0; k < n; k++)
				if (k != i && k != j && isfinite(g[i * n + k]) && isfinite(g[j * n + k])) {
					d += fabs(g[i * n + k] - g[j * n + k]);
					c++;
				}
			if (c) {
				dist[i * n + j] = dist[j * n + i] = d / c;
				dcnt[i * n + j] = dcnt[j * n + i] = 1;
			}
		}
	}
	/* sum[a*n+a], cnt[a*n+a]: the links within cluster a */
	for (;;) {
		int ba = -1, bb = -1;
		double best = INFINITY;

		for (int a = 0; a < n; a++) {
			if (root[a] != a)
				continue;
			for (int b = a + 1; b < n; b++) {
				double d, wa, wb, floor_at;

				if (root[b] != b || !cnt[a * n + b] || !dcnt[a * n + b])
					continue;
				d = dist[a * n + b] / dcnt[a * n + b];
				wa = cnt[a * n + a] ? sum[a * n + a] / cnt[a * n + a] : NAN;
				wb = cnt[b * n + b] ? sum[b * n + b] / cnt[b * n + b] : NAN;
				floor_at = isnan(wa) ? wb : isnan(wb) ? wa : fmin(wa, wb);
				if (!isnan(floor_at) && sum[a * n + b] / cnt[a * n + b] < floor_at + m->c)
					continue;
				if (d < best) {
					best = d;
					ba = a;
					bb = b;
				}
			}
		}
		if (ba < 0)
			break;
		/* b joins a */
		sum[ba * n + ba] += sum[bb * n + bb] + sum[ba * n + bb];
		cnt[ba * n + ba] += cnt[bb * n + bb] + cnt[ba * n + bb];
		for (int k = 0; k < n; k++) {
			if (root[k] != k || k == ba || k == bb)
				continue;
			sum[ba * n + k] = sum[k * n + ba] = sum[ba * n + k] + sum[bb * n + k];
			cnt[ba * n + k] = cnt[k * n + ba] = cnt[ba * n + k] + cnt[bb * n + k];
			dist[ba * n + k] = dist[k * n + ba] = dist[ba * n + k] + dist[bb * n + k];
			dcnt[ba * n + k] = dcnt[k * n + ba] = dcnt[ba * n + k] + dcnt[bb * n + k];
		}
		for (int k = 0; k < n; k++)
			if (root[k] == bb)
				root[k] = ba;
		size[ba] += size[bb];
	}
	/* a host alone joins its fastest cluster */
	for (int i = 0; i < n; i++) {
		int best = -1;
		double bv = -INFINITY;

		if (size[root[i]] > 1)
			continue;
		for (int a = 0; a < n; a++)
			if (root[a] == a && size[a] > 1 && cnt[i * n + a] && sum[i * n + a] / cnt[i * n + a] > bv) {
				bv = sum[i * n + a] / cnt[i * n + a];
				best = a;
			}
		if (best >= 0)
			root[i] = best;
	}
	for (int i = 0; i < n; i++)
		num[i] = -1;
	for (int i = 0; i < n; i++) {
		if (num[root[i]] < 0)
			num[root[i]] = ng++;
		grp[i] = num[root[i]];
	}
	ret = ng;
out_free:
	free(num);
	free(root);
	free(size);
	free(dcnt);
	free(cnt);
	free(dist);
	free(sum);
	return ret;
}

/* Set r's groups (names, sizes) from m->grp with ng groups. */
static int set_groups(struct map *m, int ng, char *err, size_t errlen)
{
	const struct blame_input *in = m->in;
	struct blame_result *r = m->r;

	free(r->group);
	free(m->mu);
	r->group = calloc((size_t)ng, sizeof(*r->group));
	m->mu = calloc((size_t)ng * (size_t)ng, sizeof(*m->mu));
	if (!r->group || !m->mu)
		return sw_fail(err, errlen, "map: out of memory");
	r->ngroup = ng;
	for (int g = 0; g < ng; g++) {
		if (in->group && in->group_name)
			snprintf(r->group[g].name, sizeof(r->group[g].name), "%s", in->group_name[g]);
		else
			snprintf(r->group[g].name, sizeof(r->group[g].name), "g%d", g + 1);
		r->group[g].rel = r->group[g].lo = r->group[g].hi = r->group[g].p = NAN;
	}
	for (int i = 0; i < m->n; i++) {
		r->host[i].group = m->grp[i];
		r->group[m->grp[i]].nhost++;
	}
	for (size_t k = 0; k < r->nlink; k++) {
		r->link[k].ga = m->grp[r->link[k].a];
		r->link[k].gb = m->grp[r->link[k].b];
	}
	return 0;
}

/* Whether link k is left out of the group and link tests: a slow host's. */
static bool masked(const struct map *m, size_t k)
{
	return m->r->host[m->r->link[k].a].flagged || m->r->host[m->r->link[k].b].flagged;
}

/* Store a difference d with its CI as the metric's ratios. */
static void set_rel(const struct map *m, double d, double lo, double hi, double *rel, double *rlo, double *rhi)
{
	int mt = m->r->metric;

	*rel = rel_of(mt, d);
	*rlo = mt == BLAME_LATENCY ? rel_of(mt, hi) : rel_of(mt, lo);
	*rhi = mt == BLAME_LATENCY ? rel_of(mt, lo) : rel_of(mt, hi);
}

/* The mean of the finite values of x[0..n) and its standard error (NaN
 * with fewer than 2); returns how many. */
static size_t mean_se(const double *x, size_t n, double *mean, double *se)
{
	double mu = 0.0, ss = 0.0;
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i])) {
			double dv = x[i] - mu;

			c++;
			mu += dv / (double)c;
			ss += dv * (x[i] - mu);
		}
	*mean = c ? mu : NAN;
	*se = c >= 2 ? sqrt(ss / (double)(c - 1) / (double)c) : NAN;
	return c;
}

/*
 * The one test of every claim: an effect d on the goodness scale (lower
 * = slower) with its standard error se on df degrees of freedom; the
 * one-sided p of "no slower than the floor" (small when d lies below the
 * floor c beyond chance) and d's CI as the metric's ratios. -1 (p NaN)
 * when it cannot be tested (se or df missing).
 */
static int floor_test(const struct map *m, double d, double se, double df, double *rel, double *lo, double *hi,
		      double *p)
{
	struct stats_interval iv;

	*p = NAN;
	if (!isfinite(d) || !(se >= 0.0) || !(df >= 1.0))
		return -1;
	/* negated: p_above asks "at most", the claim is "below the floor" */
	if (stats_interval_set(&iv, -d, se, df, 0.0, m->r->confidence))
		return -1;
	*p = stats_interval_p_above(&iv, -m->c);
	set_rel(m, d, -iv.hi, -iv.lo, rel, lo, hi);
	return 0;
}

/*
 * Holm over one family at alpha (stats_holm): p[0..n) the raw p-values
 * in (NaN: not tested), the adjusted out; flag[k] = adjusted < alpha.
 * 0 or -1 (ENOMEM). Every family of the map goes through here.
 */
static int holm_family(double *p, bool *flag, size_t n, double alpha)
{
	double *adj = malloc((n ? n : 1) * sizeof(*adj));

	if (!adj || stats_holm(p, n, adj)) {
		free(adj);
		return -1;
	}
	for (size_t k = 0; k < n; k++) {
		p[k] = adj[k];
		flag[k] = adj[k] < alpha;
	}
	free(adj);
	return 0;
}

/* The model's fit of link (i, j) without the host effect of i: what the
 * goodness of its group pair and partner j predict. */
static double fit_without(const struct map *m, int i, int j)
{
	return m->mu[m->grp[i] * m->r->ngroup + m->grp[j]] + m->hfx[j];
}

/*
 * The additive model on the links' goodness (log rates, each block
 * centred):
 *
 *     g_ij = mu[G(i), G(j)] + h_i + h_j + e_ij
 *
 * a term per group pair, one per host, fitted by median polish (Tukey,
 * Exploratory Data Analysis, 1977, ch. 11; here a link sits in the rows
 * of both its hosts): alternately each host's term moves by the median of
 * its links' residuals, and each group pair's by the median of its
 * links'. Host terms are centred on their median within each group (the
 * group's level belongs to its pairs' terms), so a host's effect is its
 * distance from its group's typical host, and a group of one host has
 * none. Robust: a few slow links move no median. Fills m->hfx and m->mu;
 * 0 or -1 (ENOMEM).
 */
static int fit_model(struct map *m)
{
	const struct blame_result *r = m->r;
	int n = m->n, ng = r->ngroup, ret = -1;
	size_t nl = r->nlink, cap = nl > (size_t)n ? nl : (size_t)n, *start = NULL;
	unsigned *ord = NULL;   /* link indexes: fewer than 2^32 below SW_MAX_RANKS */
	double *col = malloc((cap ? cap : 1) * sizeof(*col)), *cen = malloc((size_t)ng * sizeof(*cen));

	start = calloc((size_t)ng * ng + 1, sizeof(*start));
	ord = malloc((nl ? nl : 1) * sizeof(*ord));
	if (!col || !cen || !start || !ord)
		goto out_free;
	/* the links by group pair (counting sort; pair (g, h) with g <= h) */
	for (size_t k = 0; k < nl; k++) {
		int a = r->link[k].ga < r->link[k].gb ? r->link[k].ga : r->link[k].gb;
		int b = r->link[k].ga < r->link[k].gb ? r->link[k].gb : r->link[k].ga;

		start[a * ng + b + 1]++;
	}
	for (int q = 0; q < ng * ng; q++)
		start[q + 1] += start[q];
	for (size_t k = 0; k < nl; k++) {
		int a = r->link[k].ga < r->link[k].gb ? r->link[k].ga : r->link[k].gb;
		int b = r->link[k].ga < r->link[k].gb ? r->link[k].gb : r->link[k].ga;

		ord[start[a * ng + b]++] = (unsigned)k;
	}
	for (int q = ng * ng; q > 0; q--)
		start[q] = start[q - 1];
	start[0] = 0;
	for (int i = 0; i < n; i++)
		m->hfx[i] = 0.0;
	for (int q = 0; q < ng * ng; q++)
		m->mu[q] = 0.0;
	for (int it = 0; it < 30; it++) {
		double moved = 0.0;

		/* the group pairs' terms */
		for (int a = 0; a < ng; a++)
			for (int b = a; b < ng; b++) {
				size_t c = 0;
				double d;

				for (size_t s = start[a * ng + b]; s < start[a * ng + b + 1]; s++) {
					const struct blame_link *l = &r->link[ord[s]];

					col[c++] = m->g[l->a * n + l->b] - m->mu[a * ng + b] - m->hfx[l->a] - m->hfx[l->b];
				}
				d = median_inplace(col, c);
				if (isfinite(d)) {
					m->mu[a * ng + b] = m->mu[b * ng + a] = m->mu[a * ng + b] + d;
					moved = fmax(moved, fabs(d));
				}
			}
		/* the hosts' terms, each on the others' latest */
		for (int i = 0; i < n; i++) {
			size_t c = 0;
			double d;

			for (int j = 0; j < n; j++)
				if (m->li[i * n + j] >= 0)
					col[c++] = m->g[i * n + j] - fit_without(m, i, j) - m->hfx[i];
			d = median_inplace(col, c);
			if (isfinite(d)) {
				m->hfx[i] += d;
				moved = fmax(moved, fabs(d));
			}
		}
		/* centred in each group, the centre into the pairs' terms */
		for (int g = 0; g < ng; g++) {
			size_t c = 0;

			for (int i = 0; i < n; i++)
				if (m->grp[i] == g)
					col[c++] = m->hfx[i];
			cen[g] = median_inplace(col, c);
			if (!isfinite(cen[g]))
				cen[g] = 0.0;
		}
		for (int i = 0; i < n; i++)
			m->hfx[i] -= cen[m->grp[i]];
		for (int a = 0; a < ng; a++)
			for (int b = 0; b < ng; b++)
				m->mu[a * ng + b] += cen[a] + cen[b];
		if (moved < 1e-5)   /* 0.001% of a rate */
			break;
	}
	ret = 0;
out_free:
	free(ord);
	free(start);
	free(cen);
	free(col);
	return ret;
}

/*
 * Host i's effect in each block b: the median over its partners j (those
 * of its own group when own) of y_ijb less the model's fit without i,
 * into hb[b] (NaN when it has none); col scratch of n.
 */
static void host_blocks(const struct map *m, int i, bool own, double *hb, double *col)
{
	int n = m->n, nb = m->nb;

	for (int b = 0; b < nb; b++) {
		size_t c = 0;

		for (int j = 0; j < n; j++) {
			int k = m->li[i * n + j];

			if (k >= 0 && (!own || m->grp[j] == m->grp[i]) && isfinite(m->y[(size_t)k * nb + b]))
				col[c++] = m->y[(size_t)k * nb + b] - fit_without(m, i, j);
		}
		hb[b] = median_inplace(col, c);
	}
}

/*
 * Host i's effect: the blocks are the replicates (its effect in each
 * block, host_blocks: their mean d and variance s2 over c blocks); with
 * one block, the partners are (the links' departures from the fit). Over
 * all partners, or those of its own group when own. Returns c (< 2: no
 * variance).
 */
static size_t host_effect(const struct map *m, int i, bool own, double *hb, double *col, double *d, double *s2)
{
	int n = m->n;
	double se;
	size_t c = 0;

	if (m->nb >= 2) {
		host_blocks(m, i, own, hb, col);
		c = mean_se(hb, (size_t)m->nb, d, &se);
	} else {
		for (int j = 0; j < n; j++)
			if (m->li[i * n + j] >= 0 && (!own || m->grp[j] == m->grp[i]) && isfinite(m->g[i * n + j]))
				col[c++] = m->g[i * n + j] - fit_without(m, i, j);
		c = mean_se(col, c, d, &se);
	}
	*s2 = c >= 2 ? se * se * (double)c : NAN;
	return c;
}

/* The weight of the hosts' pooled block-to-block variance in each host's
 * test, in degrees of freedom per degree of freedom of one host: as if
 * four more hosts had been measured (Smyth's moderated t, whose prior
 * degrees of freedom come out near 4 on typical data). */
#define HOST_POOL_WEIGHT 4.0

/*
 * The slow host ports: each host's effect from the model (fit_model)
 * with its interval, a one-sided t on the blocks beyond the floor, over
 * all its partners or over those of its own group (a trunk that holds
 * every crossing link down hides a slow port there: the smaller p,
 * twice, Bonferroni over the two), Holm over the hosts tested. Few
 * blocks give a host's own variance few degrees of freedom (2 blocks: a
 * t on 1), so it is moderated by the variance pooled over all hosts
 * (Smyth 2004): s^2 = (d0 s0^2 + d s_i^2) / (d0 + d) on d0 + d degrees
 * of freedom, d = c - 1 its own, d0 = HOST_POOL_WEIGHT d (blocks only;
 * partners as replicates are not pooled). The counts (slower of tested
 * partners) describe; they decide nothing.
 */
static int test_hosts(struct map *m)
{
	struct blame_result *r = m->r;
	int n = m->n, ret = -1;
	double *col = malloc((size_t)n * sizeof(*col)), *raw = malloc((size_t)n * sizeof(*raw));
	double *hb = malloc((size_t)m->nb * sizeof(*hb)), *p = malloc((size_t)n * sizeof(*p));
	double *est = malloc((size_t)n * 4 * sizeof(*est));
	size_t *cnt = malloc((size_t)n * 2 * sizeof(*cnt));
	bool *flag = malloc((size_t)n * sizeof(*flag));
	double pool[2] = { 0.0, 0.0 }, pool_df[2] = { 0.0, 0.0 };

	if (!col || !raw || !hb || !p || !est || !cnt || !flag)
		goto out_free;
	for (int i = 0; i < n; i++) {
		struct blame_host *h = &r->host[i];
		size_t nr = 0;

		h->slower = h->own = h->own_slower = h->tested = 0;
		for (int j = 0; j < n; j++) {
			int l = m->li[i * n + j];
			double d;

			if (l < 0)
				continue;
			if (isfinite(r->link[l].median))
				raw[nr++] = r->link[l].median;
			d = m->g[i * n + j] - fit_without(m, i, j);
			if (!isfinite(d))
				continue;
			h->tested++;
			h->slower += d < m->c;
			if (m->grp[j] == m->grp[i]) {
				h->own++;
				h->own_slower += d < m->c;
			}
		}
		h->n = (int)nr;
		h->score = stats_median(raw, nr);
		h->lo = h->hi = h->score;
		if (nr >= 2 && stats_median_ci(raw, nr, r->confidence, &h->lo, &h->hi))
			h->lo = h->hi = h->score;
		h->blocks = m->nb;
		for (int v = 0; v < 2; v++) {
			cnt[i * 2 + v] = 0;
			if (v && !(h->own >= 2 && h->own < h->tested))
				continue;
			cnt[i * 2 + v] = host_effect(m, i, v, hb, col, &est[i * 4 + v * 2], &est[i * 4 + v * 2 + 1]);
			if (cnt[i * 2 + v] >= 2 && isfinite(est[i * 4 + v * 2 + 1])) {
				pool[v] += (double)(cnt[i * 2 + v] - 1) * est[i * 4 + v * 2 + 1];
				pool_df[v] += (double)(cnt[i * 2 + v] - 1);
			}
		}
	}
	for (int v = 0; v < 2; v++)
		pool[v] = pool_df[v] > 0 ? pool[v] / pool_df[v] : 0.0;
	for (int i = 0; i < n; i++) {
		struct blame_host *h = &r->host[i];
		double rel[2], lo[2], hi[2], pp[2];
		bool ok[2];

		for (int v = 0; v < 2; v++) {
			size_t c = cnt[i * 2 + v];
			double d = est[i * 4 + v * 2], s2 = est[i * 4 + v * 2 + 1], df = (double)c - 1.0;
			double d0 = m->nb >= 2 ? HOST_POOL_WEIGHT * df : 0.0;

			ok[v] = false;
			if (c < 2 || !isfinite(s2))
				continue;
			s2 = (d0 * pool[v] + df * s2) / (d0 + df);
			ok[v] = !floor_test(m, d, sqrt(s2 / (double)c), d0 + df, &rel[v], &lo[v], &hi[v], &pp[v]);
		}
		h->by_own = ok[1] && (!ok[0] || pp[1] < pp[0]);
		p[i] = ok[0] && ok[1] ? fmin(1.0, 2.0 * fmin(pp[0], pp[1])) : ok[0] ? pp[0] : ok[1] ? pp[1] : NAN;
		h->rel = h->rel_lo = h->rel_hi = NAN;
		if (ok[0] || ok[1]) {
			h->rel = rel[h->by_own];
			h->rel_lo = lo[h->by_own];
			h->rel_hi = hi[h->by_own];
		}
	}
	if (holm_family(p, flag, (size_t)n, r->alpha))
		goto out_free;
	for (int i = 0; i < n; i++) {
		r->host[i].p = p[i];
		r->host[i].flagged = flag[i];
	}
	ret = 0;
out_free:
	free(flag);
	free(cnt);
	free(est);
	free(p);
	free(hb);
	free(raw);
	free(col);
	return ret;
}
/* What the crossing pairs carried one way in the rounds that load the
 * boundary most (bandwidth, rounds known): per block the sum of one
 * (round, direction)'s values, pooled over the (round, direction)s with
 * the most crossing pairs; their median and its CI. Not the largest
 * round's: a maximum over rounds of noisy sums reads high, and more so on
 * a busy machine (+2% quiet, +5% to +7% at load 3 on the emulated trunk). */
static int boundary_capacity(const struct map *m, struct blame_boundary *bd)
{
	const struct blame_result *r = m->r;
	int nround = 0, nb = m->nb, ret = -1, most = 0;
	double *sum = NULL, *col = NULL;
	int *cnt = NULL;
	size_t c = 0;

	bd->capacity = bd->cap_lo = bd->cap_hi = NAN;
	bd->cap_pairs = 0;
	bd->cap_round = -1;
	if (r->metric != BLAME_BANDWIDTH)
		return 0;
	for (size_t k = 0; k < r->nlink; k++)
		if (m->src[k]->round >= nround)
			nround = m->src[k]->round + 1;
	if (!nround)
		return 0;
	sum = calloc((size_t)nround * 2 * nb, sizeof(*sum));
	cnt = calloc((size_t)nround * 2, sizeof(*cnt));
	col = malloc((size_t)nround * 2 * nb * sizeof(*col));
	if (!sum || !cnt || !col)
		goto out_free;
	for (size_t k = 0; k < r->nlink; k++) {
		const struct blame_pair *p = m->src[k];
		int ga = m->grp[p->a], gb = m->grp[p->b], slot;

		if (p->round < 0 || masked(m, k) || !((ga == bd->g && gb == bd->h) || (ga == bd->h && gb == bd->g)))
			continue;
		slot = p->round * 2 + (ga == bd->g);
		cnt[slot]++;
		for (int b = 0; b < nb; b++)
			sum[(size_t)slot * nb + b] += p->v[b];   /* NaN: that block is out */
	}
	for (int s = 0; s < nround * 2; s++)
		if (cnt[s] > most)
			most = cnt[s];
	for (int s = 0; s < nround * 2; s++) {
		if (!most || cnt[s] != most)
			continue;
		for (int b = 0; b < nb; b++)
			if (isfinite(sum[(size_t)s * nb + b]))
				col[c++] = sum[(size_t)s * nb + b];
		if (bd->cap_round < 0)
			bd->cap_round = s / 2;
	}
	if (c) {
		bd->capacity = bd->cap_lo = bd->cap_hi = stats_median(col, c);
		if (c >= 2 && stats_median_ci(col, c, r->confidence, &bd->cap_lo, &bd->cap_hi))
			bd->cap_lo = bd->cap_hi = bd->capacity;
		bd->cap_pairs = most;
	}
	ret = 0;
out_free:
	free(col);
	free(cnt);
	free(sum);
	return ret;
}

/* Link (i, j)'s goodness less both hosts' effects: what is left of it
 * for the group tests (NaN when not measured). */
static double adjusted(const struct map *m, int i, int j)
{
	return m->g[i * m->n + j] - m->hfx[i] - m->hfx[j];
}

/* The median of host i's links to the unflagged hosts j of group g_in
 * (g_in >= 0), or to those outside its own group and g_out (g_out >=
 * 0): their goodness less both hosts' effects, or the links' medians in
 * the unit when raw; NaN when none. col scratch of n. */
static double host_summary(const struct map *m, int i, int g_in, int g_out, bool raw, double *col)
{
	const struct blame_result *r = m->r;
	size_t c = 0;

	for (int j = 0; j < m->n; j++) {
		int k = m->li[i * m->n + j];

		if (k < 0 || r->host[j].flagged || (g_in >= 0 && m->grp[j] != g_in) ||
		    (g_out >= 0 && (m->grp[j] == g_out || m->grp[j] == m->grp[i])))
			continue;
		col[c++] = raw ? r->link[k].median : adjusted(m, i, j);
	}
	return median_inplace(col, c);
}

/*
 * Group boundaries (crossing against within) and, with 3 groups or more,
 * uplinks (crossing one group against crossing the others), with hosts
 * as the unit: links that share a host are not independent, so each
 * host's links are summarised first (the median of their goodness less
 * the two hosts' effects; flagged hosts and their links left out).
 *
 *  - boundary g|h: each host of g and h gives its crossing median less
 *    its within median (its own effect cancels); a one-sided t over
 *    those hosts beyond the floor.
 *  - uplink of G: each host of G gives the median of its crossing
 *    links, each other host the median of its crossing links that do
 *    not touch G; Welch's t between the two sets of hosts beyond the
 *    floor.
 *
 * Holm within each family (holm_family).
 */
static int test_groups(struct map *m)
{
	struct blame_result *r = m->r;
	int ng = r->ngroup, n = m->n, ret = -1;
	size_t nbd = (size_t)ng * (ng - 1) / 2, k2 = 0, np = nbd > (size_t)ng ? nbd : (size_t)ng;
	double *x = malloc((size_t)n * sizeof(*x)), *y = malloc((size_t)n * sizeof(*y));
	double *col = malloc((size_t)n * sizeof(*col)), *p = malloc(np * sizeof(*p));
	bool *flag = malloc(np * sizeof(*flag));

	free(r->bound);
	r->bound = calloc(nbd ? nbd : 1, sizeof(*r->bound));
	r->nbound = nbd;
	if (!x || !y || !col || !p || !flag || !r->bound)
		goto out_free;
	for (int g = 0; g < ng; g++)
		for (int h = g + 1; h < ng; h++) {
			struct blame_boundary *bd = &r->bound[k2];
			size_t nx = 0, ny = 0;
			double d, se;

			bd->g = g;
			bd->h = h;
			bd->rel = bd->rel_lo = bd->rel_hi = bd->median = bd->lo = bd->hi = NAN;
			p[k2] = NAN;
			bd->n = 0;
			for (size_t k = 0; k < r->nlink; k++) {
				const struct blame_link *l = &r->link[k];

				bd->n += !masked(m, k) && isfinite(m->g[l->a * n + l->b]) &&
					 ((l->ga == g && l->gb == h) || (l->ga == h && l->gb == g));
			}
			for (int i = 0; i < n; i++) {
				int other = m->grp[i] == g ? h : g;
				double cross, within;

				if (r->host[i].flagged || (m->grp[i] != g && m->grp[i] != h))
					continue;
				cross = host_summary(m, i, other, -1, false, col);
				within = host_summary(m, i, m->grp[i], -1, false, col);
				if (isfinite(cross) && isfinite(within))
					x[nx++] = cross - within;
				cross = host_summary(m, i, other, -1, true, col);
				if (isfinite(cross))
					y[ny++] = cross;
			}
			bd->units = (int)mean_se(x, nx, &d, &se);
			if (bd->units >= 2)
				floor_test(m, d, se, bd->units - 1, &bd->rel, &bd->rel_lo, &bd->rel_hi, &p[k2]);
			if (ny) {
				bd->median = stats_median(y, ny);
				bd->lo = bd->hi = bd->median;
				if (ny >= 2 && stats_median_ci(y, ny, r->confidence, &bd->lo, &bd->hi))
					bd->lo = bd->hi = bd->median;
			}
			if (boundary_capacity(m, bd))
				goto out_free;
			k2++;
		}
	if (holm_family(p, flag, nbd, r->alpha))
		goto out_free;
	for (size_t b = 0; b < nbd; b++) {
		r->bound[b].p = p[b];
		r->bound[b].flagged = flag[b];
	}
	for (int g = 0; g < ng; g++) {
		struct blame_group *gr = &r->group[g];
		size_t nx = 0, ny = 0;
		struct stats_interval iv;

		gr->rel = gr->lo = gr->hi = gr->p = NAN;
		gr->flagged = false;
		gr->n = gr->units = 0;
		p[g] = NAN;
		if (ng < 3)
			continue;
		for (size_t k = 0; k < r->nlink; k++) {
			const struct blame_link *l = &r->link[k];

			gr->n += !masked(m, k) && l->ga != l->gb && (l->ga == g || l->gb == g) &&
				 isfinite(m->g[l->a * n + l->b]);
		}
		for (int i = 0; i < n; i++) {
			double v;

			if (r->host[i].flagged)
				continue;
			if (m->grp[i] == g) {
				v = host_summary(m, i, -1, m->grp[i], false, col);
				if (isfinite(v))
					x[nx++] = exp(v);
			} else {
				v = host_summary(m, i, -1, g, false, col);
				if (isfinite(v))
					y[ny++] = exp(v);
			}
		}
		gr->units = (int)nx;
		if (nx >= 2 && ny >= 2 && !stats_runs_welch(y, ny, x, nx, 0.0, r->confidence, &iv))
			floor_test(m, iv.d, iv.se, iv.df, &gr->rel, &gr->lo, &gr->hi, &p[g]);
	}
	if (holm_family(p, flag, (size_t)ng, r->alpha))
		goto out_free;
	for (int g = 0; g < ng; g++) {
		r->group[g].p = p[g];
		r->group[g].flagged = flag[g];
	}
	ret = 0;
out_free:
	free(flag);
	free(p);
	free(col);
	free(y);
	free(x);
	return ret;
}
static const struct blame_boundary *boundary_of(const struct blame_result *r, int g, int h)
{
	if (g > h) {
		int t = g;

		g = h;
		h = t;
	}
	for (size_t b = 0; b < r->nbound; b++)
		if (r->bound[b].g == g && r->bound[b].h == h)
			return &r->bound[b];
	return NULL;
}

/*
 * Links alone, on what the model leaves: each link's goodness in each
 * block less its group pair's term and both hosts' effects (fit_model),
 * Student t over the blocks beyond the floor, Holm over the links
 * tested (a flagged host's links are its, untested); then each link's
 * cause: a flagged host, else the link itself (its residual is beyond
 * what its hosts and its group pair explain), else a flagged uplink or
 * boundary. rel: the link against its group pair's typical link.
 */
static int test_links(struct map *m)
{
	struct blame_result *r = m->r;
	int ng = r->ngroup, nb = m->nb, n = m->n, ret = -1;
	size_t nl = r->nlink;
	double *col = malloc((size_t)nb * sizeof(*col)), *p = malloc((nl ? nl : 1) * sizeof(*p));
	bool *flag = malloc((nl ? nl : 1) * sizeof(*flag));

	if (!col || !p || !flag)
		goto out_free;
	for (size_t k = 0; k < nl; k++) {
		struct blame_link *l = &r->link[k];
		double fit = m->mu[l->ga * ng + l->gb] + m->hfx[l->a] + m->hfx[l->b], d, se;
		size_t c;

		p[k] = NAN;
		l->rel = rel_of(r->metric, m->g[l->a * n + l->b] - m->mu[l->ga * ng + l->gb]);
		l->resid = NAN;
		if (masked(m, k))
			continue;
		for (int b = 0; b < nb; b++)
			col[b] = m->y[k * nb + b] - fit;
		c = mean_se(col, (size_t)nb, &d, &se);
		l->resid = rel_of(r->metric, d);
		if (c >= 2)
			floor_test(m, d, se, (double)(c - 1), &l->resid, &l->res_lo, &l->res_hi, &p[k]);
	}
	if (holm_family(p, flag, nl, r->alpha))
		goto out_free;
	for (size_t k = 0; k < nl; k++) {
		struct blame_link *l = &r->link[k];
		const struct blame_host *ha = &r->host[l->a], *hb = &r->host[l->b];
		const struct blame_boundary *bd = l->ga != l->gb ? boundary_of(r, l->ga, l->gb) : NULL;

		l->p = p[k];
		l->flagged = flag[k];
		l->cause = BLAME_NONE;
		l->by = -1;
		if (ha->flagged || hb->flagged) {
			l->cause = BLAME_HOST;
			/* both slow: the slower of the two */
			l->by = !hb->flagged || (ha->flagged && goodness_of(r->metric, ha->rel) <=
							       goodness_of(r->metric, hb->rel)) ? l->a : l->b;
		} else if (l->flagged) {
			l->cause = BLAME_LINK;
		} else if (l->ga != l->gb && (r->group[l->ga].flagged || r->group[l->gb].flagged)) {
			l->cause = BLAME_UPLINK;
			l->by = r->group[l->ga].flagged ? l->ga : l->gb;
		} else if (bd && bd->flagged) {
			l->cause = BLAME_BOUNDARY;
			l->by = (int)(bd - r->bound);
		}
	}
	ret = 0;
out_free:
	free(flag);
	free(p);
	free(col);
	return ret;
}
/* Inferred groups with no flagged boundary between them become one
 * (union over unflagged boundaries); returns the new count, or ng when
 * nothing changed. */
static int merge_unsupported(struct map *m, int ng)
{
	const struct blame_result *r = m->r;
	int root[ng], num[ng], nn = 0;

	for (int g = 0; g < ng; g++)
		root[g] = g;
	for (size_t b = 0; b < r->nbound; b++) {
		int a = r->bound[b].g, c = r->bound[b].h;

		if (r->bound[b].flagged)
			continue;
		while (root[a] != a)
			a = root[a];
		while (root[c] != c)
			c = root[c];
		if (a != c)
			root[a > c ? a : c] = a < c ? a : c;
	}
	for (int g = 0; g < ng; g++) {
		int a = g;

		while (root[a] != a)
			a = root[a];
		num[g] = a == g ? nn++ : -1;
	}
	if (nn == ng)
		return ng;
	for (int i = 0; i < m->n; i++) {
		int a = m->grp[i];

		while (root[a] != a)
			a = root[a];
		m->grp[i] = num[a];
	}
	return nn;
}

static void add_claim(struct blame_result *r, int kind, int who, int with, double rel, double lo, double hi,
		      double p)
{
	struct blame_claim *c = &r->claim[r->nclaim++];

	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->who = who;
	c->with = with;
	c->rel = rel;
	c->lo = lo;
	c->hi = hi;
	c->p = p;
	blame_claim_name(r, c, c->name, sizeof(c->name));
}

static const char *pstr(char *buf, size_t len, double p)
{
	stats_format_p(buf, len, p);
	return buf;
}

/* The claims, each with its evidence line. */
static int make_claims(struct blame_result *r)
{
	size_t max = (size_t)r->nhost + r->ngroup + r->nbound + r->nlink;
	enum fmt_unit u = r->metric == BLAME_LATENCY ? FMT_TIME : FMT_BW;
	char a[48], b[48], c[48], fl[16], fl2[16], ps[16];
	double pct = 100.0 * r->floor;

	r->claim = calloc(max ? max : 1, sizeof(*r->claim));
	if (!r->claim)
		return -1;
	r->nclaim = 0;
	for (int i = 0; i < r->nhost; i++) {
		const struct blame_host *h = &r->host[i];
		struct blame_claim *cl;

		if (!h->flagged)
			continue;
		add_claim(r, BLAME_HOST, i, -1, h->rel, h->rel_lo, h->rel_hi, h->p);
		cl = &r->claim[r->nclaim - 1];
		if (h->by_own)
			snprintf(c, sizeof(c), "its %d partners in its group", h->own);
		else
			snprintf(c, sizeof(c), "its %d partners", h->tested);
		sw_appendf(cl->evidence, sizeof(cl->evidence),
			 "%s: %sx [%s, %s] its group's typical host with %s (host effect of a model of "
			 "the log link rates; t on %d %s beyond the %s%% floor, Holm over %d hosts: p %s); "
			 "below the floor with %d of %d partners; its partners cleared",
			 cl->name, fmt_num(a, sizeof(a), h->rel), fmt_num(b, sizeof(b), h->rel_lo),
			 fmt_num(fl2, sizeof(fl2), h->rel_hi), c, h->blocks >= 2 ? h->blocks : h->by_own ? h->own : h->tested,
			 h->blocks >= 2 ? "blocks" : "partners", fmt_num(fl, sizeof(fl), pct), r->nhost,
			 pstr(ps, sizeof(ps), h->p), h->slower, h->tested);
	}
	for (int g = 0; g < r->ngroup; g++) {
		const struct blame_group *gr = &r->group[g];
		struct blame_claim *cl;

		if (!gr->flagged)
			continue;
		add_claim(r, BLAME_UPLINK, g, -1, gr->rel, gr->lo, gr->hi, gr->p);
		cl = &r->claim[r->nclaim - 1];
		sw_appendf(cl->evidence, sizeof(cl->evidence),
			 "%s: the crossing links of its %d hosts at %sx [%s, %s] those of the other groups' "
			 "hosts (hosts as the unit, Welch t beyond the %s%% floor, Holm over %d groups: p %s); "
			 "no host of %s flagged",
			 cl->name, gr->units, fmt_num(a, sizeof(a), gr->rel), fmt_num(b, sizeof(b), gr->lo),
			 fmt_num(c, sizeof(c), gr->hi), fmt_num(fl, sizeof(fl), pct), r->ngroup,
			 pstr(ps, sizeof(ps), gr->p), gr->name);
	}
	for (size_t k = 0; k < r->nbound; k++) {
		const struct blame_boundary *bd = &r->bound[k];
		struct blame_claim *cl;
		char cap[96] = "";

		if (!bd->flagged || r->group[bd->g].flagged || r->group[bd->h].flagged)
			continue;
		add_claim(r, BLAME_BOUNDARY, bd->g, bd->h, bd->rel, bd->rel_lo, bd->rel_hi, bd->p);
		cl = &r->claim[r->nclaim - 1];
		if (isfinite(bd->capacity))
			snprintf(cap, sizeof(cap), "; carried %s (one direction, the rounds of %d crossing pairs)",
				 fmt_ci(c, sizeof(c), u, bd->capacity, bd->cap_lo, bd->cap_hi, true), bd->cap_pairs);
		sw_appendf(cl->evidence, sizeof(cl->evidence),
			 "%s: its %d crossing links at %sx [%s, %s] the links within (%d hosts as the unit, t "
			 "beyond the %s%% floor, Holm over %zu boundaries: p %s)%s",
			 cl->name, bd->n, fmt_num(a, sizeof(a), bd->rel), fmt_num(b, sizeof(b), bd->rel_lo),
			 fmt_num(c, sizeof(c), bd->rel_hi), bd->units, fmt_num(fl, sizeof(fl), pct), r->nbound,
			 pstr(ps, sizeof(ps), bd->p), cap);
	}
	for (size_t k = 0; k < r->nlink; k++) {
		const struct blame_link *l = &r->link[k];
		struct blame_claim *cl;

		if (l->cause != BLAME_LINK)
			continue;
		add_claim(r, BLAME_LINK, (int)k, -1, l->resid, l->res_lo, l->res_hi, l->p);
		cl = &r->claim[r->nclaim - 1];
		sw_appendf(cl->evidence, sizeof(cl->evidence),
			 "%s: %s, %sx [%s, %s] what its group pair and its two hosts' effects predict (t on "
			 "the residual in %d blocks beyond the %s%% floor, Holm over %zu links: p %s); "
			 "neither host flagged",
			 cl->name, fmt_ci(a, sizeof(a), u, l->median, l->lo, l->hi, l->n >= 2),
			 fmt_num(b, sizeof(b), l->resid), fmt_num(c, sizeof(c), l->res_lo), fmt_num(fl2, sizeof(fl2), l->res_hi),
			 l->n, fmt_num(fl, sizeof(fl), pct), r->nlink, pstr(ps, sizeof(ps), l->p));
	}
	return 0;
}

int blame_run(const struct blame_input *in, struct blame_result *out, char *err, size_t errlen)
{
	struct map m = { .in = in, .r = out, .n = in->nhost, .nb = in->nblock };
	int ng, ret = -1;

	memset(out, 0, sizeof(*out));
	if (check_input(in, err, errlen))
		return -1;
	stats_init();
	out->nhost = in->nhost;
	out->metric = in->metric;
	out->floor = in->floor;
	out->alpha = in->alpha;
	out->confidence = in->confidence;
	out->inferred = !in->group;
	m.c = in->metric == BLAME_LATENCY ? -log1p(in->floor) : log1p(-in->floor);
	out->host = calloc((size_t)in->nhost, sizeof(*out->host));
	m.grp = malloc((size_t)in->nhost * sizeof(*m.grp));
	m.hfx = malloc((size_t)in->nhost * sizeof(*m.hfx));
	if (!out->host || !m.grp || !m.hfx) {
		sw_fail(err, errlen, "map: out of memory");
		goto out_free;
	}
	for (int i = 0; i < in->nhost; i++)
		snprintf(out->host[i].name, sizeof(out->host[i].name), "%s", in->host[i]);
	if (load_links(&m, err, errlen))
		goto out_free;
	if (in->group) {
		memcpy(m.grp, in->group, (size_t)in->nhost * sizeof(*m.grp));
		ng = in->ngroup;
	} else {
		ng = infer_groups(&m, m.grp);
	}
	for (;;) {
		int nn;

		if (ng < 0 || set_groups(&m, ng, err, errlen) || fit_model(&m) || test_hosts(&m) || test_groups(&m))
			goto out_nomem;
		if (!out->inferred || (nn = merge_unsupported(&m, ng)) == ng)
			break;
		ng = nn;
	}
	if (test_links(&m) || make_claims(out))
		goto out_nomem;
	ret = 0;
	goto out_free;
out_nomem:
	sw_fail(err, errlen, "map: out of memory");
out_free:
	free(m.mu);
	free(m.hfx);
	free(m.grp);
	free(m.li);
	free(m.g);
	free(m.y);
	free(m.src);
	if (ret)
		blame_free(out);
	return ret;
}

const struct blame_link *blame_link_of(const struct blame_result *r, int a, int b)
{
	struct blame_link key = { .a = a < b ? a : b, .b = a < b ? b : a };

	return bsearch(&key, r->link, r->nlink, sizeof(*r->link), link_cmp);
}

void blame_claim_name(const struct blame_result *r, const struct blame_claim *c, char *buf, size_t len)
{
	const struct blame_link *l;

	switch (c->kind) {
	case BLAME_HOST:
		snprintf(buf, len, "host %s", r->host[c->who].name);
		break;
	case BLAME_UPLINK:
		snprintf(buf, len, "uplink of %s", r->group[c->who].name);
		break;
	case BLAME_BOUNDARY:
		snprintf(buf, len, "%s %s|%s", r->ngroup == 2 ? "trunk" : "boundary", r->group[c->who].name,
			 r->group[c->with].name);
		break;
	case BLAME_LINK:
		l = &r->link[c->who];
		snprintf(buf, len, "link %s-%s", r->host[l->a].name, r->host[l->b].name);
		break;
	default:
		snprintf(buf, len, "-");
	}
}

const char *blame_kind_name(int kind)
{
	static const char *const name[] = { "-", "host", "uplink", "boundary", "link" };

	return kind >= 0 && kind <= BLAME_LINK ? name[kind] : "-";
}

const char *blame_when_name(int when)
{
	return when == BLAME_FAULT ? "fault" : when == BLAME_CONGESTION ? "congestion" : "";
}

int blame_contrast(struct blame_result *loaded, const struct blame_result *unloaded, char *err, size_t errlen)
{
	struct blame_claim *c;
	int n = loaded->nclaim;

	if (loaded->nhost != unloaded->nhost)
		return sw_fail(err, errlen, "map: the loaded map has %d hosts, the unloaded %d", loaded->nhost,
			       unloaded->nhost);
	for (int i = 0; i < loaded->nhost; i++)
		if (strcmp(loaded->host[i].name, unloaded->host[i].name))
			return sw_fail(err, errlen, "map: host %d is '%s' loaded but '%s' unloaded", i,
				       loaded->host[i].name, unloaded->host[i].name);
	c = realloc(loaded->claim, ((size_t)n + unloaded->nclaim + 1) * sizeof(*c));
	if (!c)
		return sw_fail(err, errlen, "map: out of memory");
	loaded->claim = c;
	for (int i = 0; i < n; i++)
		c[i].when = BLAME_CONGESTION;
	for (int j = 0; j < unloaded->nclaim; j++) {
		const struct blame_claim *u = &unloaded->claim[j];
		bool seen = false;

		for (int i = 0; i < n; i++)
			if (c[i].kind == u->kind && !strcmp(c[i].name, u->name)) {
				c[i].when = BLAME_FAULT;
				seen = true;
			}
		if (!seen) {
			c[loaded->nclaim] = *u;
			c[loaded->nclaim].when = BLAME_FAULT;
			c[loaded->nclaim].unloaded = true;
			loaded->nclaim++;
		}
	}
	return 0;
}

void blame_free(struct blame_result *r)
{
	free(r->host);
	free(r->group);
	free(r->link);
	free(r->bound);
	free(r->claim);
	memset(r, 0, sizeof(*r));
}
