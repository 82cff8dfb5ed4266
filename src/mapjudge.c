/*
 * mapjudge.c - the health verdict of a fabric map against baseline
 * maps, element by element; see mapjudge.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "mapcmp.h"
#include "mapdata.h"
#include "mapjudge.h"
#include "mapout.h"
#include "pattern.h"
#include "stats.h"

int mapjudge_elements(const struct blame_result *b)
{
	int up = b->ngroup == 2 ? 1 : b->ngroup > 2 ? b->ngroup : 0;

	return 1 + b->nhost + up;
}

/* to[i]: the host of ref named as host i of in; -1 when one is missing
 * or the host counts differ. */
static int match_hosts(const struct blame_input *in, const struct blame_result *ref, int *to)
{
	if (in->nhost != ref->nhost)
		return -1;
	for (int i = 0; i < in->nhost; i++) {
		to[i] = -1;
		for (int j = 0; j < ref->nhost && to[i] < 0; j++)
			if (!strcmp(in->host[i], ref->host[j].name))
				to[i] = j;
		if (to[i] < 0)
			return -1;
	}
	return 0;
}

/* Scratch of elem_values. */
struct work {
	int n, ng, nelem, nb;
	const int *grp;          /* ref host -> group */
	double *tmp;             /* npair */
	double *ref;             /* ng * ng */
	double *out;             /* nelem * nb: element e's value in block b */
};

/* The median over block b's links of map in (hosts through to): every
 * link (g = h = -1), those between groups g and h (both >= 0), those
 * within groups (g = -2), or those with one end in g (h = -1); NaN when
 * none. */
static double pair_median(const struct blame_input *in, const int *to, const struct work *w, int b, int g, int h)
{
	size_t k = 0;

	for (size_t p = 0; p < in->npair; p++) {
		int ga = w->grp[to[in->pair[p].a]], gc = w->grp[to[in->pair[p].b]];
		double x = in->pair[p].v[b];

		if (!(isfinite(x) && x > 0))
			continue;
		if (g >= 0 && h >= 0 && !((ga == g && gc == h) || (ga == h && gc == g)))
			continue;
		if (g == -2 && ga != gc)
			continue;
		if (g >= 0 && h == -1 && (ga == gc || (ga != g && gc != g)))
			continue;
		w->tmp[k++] = x;
	}
	return k ? stats_median(w->tmp, k) : NAN;
}

/* Each element's value in each block of map m (see mapjudge.h) into
 * w->out, NaN where it has none. */
static void elem_values(const struct blame_input *in, const int *to, struct work *w)
{
	for (int b = 0; b < w->nb; b++) {
		double *o = w->out + (size_t)b, fab, within;
		int e = 1;

		for (int q = 0; q < w->nelem; q++)
			o[(size_t)q * (size_t)w->nb] = NAN;
		if (b >= in->nblock)
			continue;
		fab = pair_median(in, to, w, b, -1, -1);
		o[0] = fab;
		for (int g = 0; g < w->ng; g++)
			for (int h = g; h < w->ng; h++)
				w->ref[g * w->ng + h] = w->ref[h * w->ng + g] = pair_median(in, to, w, b, g, h);
		for (int i = 0; i < w->n; i++, e++) {
			size_t k = 0;

			for (size_t p = 0; p < in->npair; p++) {
				int a = to[in->pair[p].a], c = to[in->pair[p].b];
				double x = in->pair[p].v[b], r;

				if ((a != i && c != i) || !(isfinite(x) && x > 0))
					continue;
				r = w->ref[w->grp[a] * w->ng + w->grp[c]];
				if (isfinite(r) && r > 0)
					w->tmp[k++] = x / r;
			}
			o[(size_t)e * (size_t)w->nb] = k ? stats_median(w->tmp, k) : NAN;
		}
		within = pair_median(in, to, w, b, -2, -1);
		if (!(within > 0))
			within = fab;
		for (int g = 0; w->ng >= 2 && e < w->nelem; g++, e++)
			o[(size_t)e * (size_t)w->nb] = pair_median(in, to, w, b, g, -1) / within;
	}
}

/* Element e's finite values of one map into x; their count. */
static size_t take(const struct work *w, const double *vals, int e, double *x)
{
	size_t k = 0;

	for (int b = 0; b < w->nb; b++) {
		double y = vals[(size_t)e * (size_t)w->nb + (size_t)b];

		if (isfinite(y) && y > 0)
			x[k++] = y;
	}
	return k;
}

/* Element e of the map into hc: its name and key. */
static void elem_key(struct health_cell *hc, const struct blame_result *ref, int e, int pattern, uint64_t size,
		     int metric)
{
	health_cell_blank(hc);
	hc->pattern = pattern;
	hc->size = size;
	hc->nodes = ref->nhost;
	hc->pairs = ref->nhost / 2;
	hc->metric = metric == BLAME_LATENCY ? HEALTH_LATENCY : HEALTH_BANDWIDTH;
	if (e == 0) {
		hc->elem = HEALTH_FABRIC;
	} else if (e <= ref->nhost) {
		hc->elem = HEALTH_HOST;
		snprintf(hc->elem_name, sizeof(hc->elem_name), "%s", ref->host[e - 1].name);
	} else {
		hc->elem = HEALTH_UPLINK;
		if (ref->ngroup == 2)
			snprintf(hc->elem_name, sizeof(hc->elem_name), "%.*s|%.*s", SW_HOST_MAX / 2 - 1, ref->group[0].name,
				 SW_HOST_MAX / 2 - 1, ref->group[1].name);
		else
			snprintf(hc->elem_name, sizeof(hc->elem_name), "%s", ref->group[e - 1 - ref->nhost].name);
	}
}

/* The claims of the judged map (blame.h: one-sided, above the floor,
 * Holm over the elements of their kind) as v's suspects, one per
 * element name over every map: flagged counts the maps that claim it;
 * in_baseline when at least half of the baseline maps make it too. 0 or
 * -1 (ENOMEM). */
static int add_claims(struct health_verdict *v, const struct mapjudge_map *run, const struct mapjudge_map *base,
		      int k)
{
	const struct blame_result *r = run->res;

	for (int c = 0; c < r->nclaim; c++) {
		const struct blame_claim *cl = &r->claim[c];
		struct health_suspect *s = NULL, *grown;
		int in = 0;

		for (int j = 0; j < k; j++)
			in += mapcmp_has_claim(base[j].res, cl);
		for (int i = 0; i < v->nsuspects && !s; i++)
			if (!strncmp(v->suspect[i].host, cl->name, sizeof(v->suspect[i].host) - 1))
				s = &v->suspect[i];
		if (!s) {
			if (!(grown = realloc(v->suspect, sizeof(*grown) * (size_t)(v->nsuspects + 1))))
				return -1;
			v->suspect = grown;
			s = &v->suspect[v->nsuspects++];
			memset(s, 0, sizeof(*s));
			snprintf(s->host, sizeof(s->host), "%.*s", (int)sizeof(s->host) - 1, cl->name);
			s->in_baseline = true;
		}
		s->flagged++;
		s->in_baseline &= 2 * in >= k;
	}
	return 0;
}

int mapjudge_add(struct health_verdict *v, const struct sw_config *cfg, int pattern, uint64_t size,
		 const struct mapjudge_map *run, const struct mapjudge_map *base, int k, char *err, size_t errlen)
{
	const struct blame_result *ref = base[0].res;
	struct work w = { .n = ref->nhost, .ng = ref->ngroup, .nelem = mapjudge_elements(ref) };
	int *grp = NULL, *to = NULL, rc = -1, nruns = 0;
	double *vals = NULL, *x = NULL, **y = NULL, *pool;
	size_t big = run->in->npair, *ny = NULL;

	if (k < 1)
		return sw_fail(err, errlen, "no baseline map");
	w.nb = run->in->nblock;
	for (int j = 0; j < k; j++) {
		if (base[j].res->metric != run->res->metric)
			return sw_fail(err, errlen, "the baseline map measured another metric");
		w.nb = base[j].in->nblock > w.nb ? base[j].in->nblock : w.nb;
		big = base[j].in->npair > big ? base[j].in->npair : big;
	}
	grp = malloc(sizeof(*grp) * (size_t)w.n);
	to = malloc(sizeof(*to) * (size_t)w.n);
	w.tmp = malloc(sizeof(double) * (big + 1));
	w.ref = malloc(sizeof(double) * (size_t)(w.ng * w.ng + 1));
	vals = malloc(sizeof(double) * (size_t)(k + 1) * (size_t)w.nelem * (size_t)w.nb);
	x = malloc(sizeof(double) * (size_t)(k + 2) * (size_t)w.nb);
	y = calloc((size_t)k, sizeof(*y));
	ny = calloc((size_t)k, sizeof(*ny));
	if (!grp || !to || !w.tmp || !w.ref || !vals || !x || !y || !ny) {
		sw_fail(err, errlen, "out of memory (a map of %d hosts)", w.n);
		goto out;
	}
	for (int i = 0; i < w.n; i++)
		grp[i] = ref->host[i].group >= 0 && ref->host[i].group < w.ng ? ref->host[i].group : 0;
	w.grp = grp;
	/* the values of every map, the run's last: each in the first
	 * baseline map's host order and groups */
	for (int j = 0; j <= k; j++) {
		const struct blame_input *in = j < k ? base[j].in : run->in;

		if (match_hosts(in, ref, to)) {
			sw_fail(err, errlen, "%s has other hosts than the first baseline map (%d and %d hosts, matched "
				"by name)", j < k ? "a baseline map" : "the map judged", in->nhost, w.n);
			goto out;
		}
		w.out = vals + (size_t)j * (size_t)w.nelem * (size_t)w.nb;
		elem_values(in, to, &w);
	}
	pool = x + w.nb;
	for (int e = 0; e < w.nelem; e++) {
		struct health_cell *hc = &v->cell[v->ncells];
		const double *tv = vals + (size_t)k * (size_t)w.nelem * (size_t)w.nb;
		size_t nx = take(&w, tv, e, x), np = 0;

		elem_key(hc, ref, e, pattern, size, run->res->metric);
		hc->cell = hc->base_cell = v->ncells++;
		nruns = 0;
		for (int j = 0; j < k; j++) {
			size_t n = take(&w, vals + (size_t)j * (size_t)w.nelem * (size_t)w.nb, e, pool + np);

			if (n >= 2) {
				y[nruns] = pool + np;
				ny[nruns++] = n;
			}
			np += n;
		}
		hc->base_runs = k;
		health_est_of(x, nx, cfg->confidence, hc->metric == HEALTH_LATENCY ? &hc->lat : &hc->bw);
		health_est_of(pool, np, cfg->confidence, hc->metric == HEALTH_LATENCY ? &hc->base_lat : &hc->base_bw);
		if (nx < 2 || np < 2) {
			snprintf(hc->why, sizeof(hc->why), "too few blocks (%zu now, %zu in baseline)", nx, np);
			v->nmissing++;
			continue;
		}
		if (nruns >= HEALTH_MIN_NIGHTS)
			health_cell_nightly(hc, cfg, x, nx, y, ny, nruns, 0.0);
		else
			health_cell_single(hc, cfg, x, nx, pool, np, 0.0);
		v->nmissing += !hc->compared;
	}
	if (add_claims(v, run, base, k)) {
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	rc = 0;
out:
	free(grp);
	free(to);
	free(w.tmp);
	free(w.ref);
	free(vals);
	free(x);
	free(y);
	free(ny);
	return rc;
}

/* CRITICAL by a new claim alone (no element beyond a threshold): the
 * status line names the claimed element with its change against the
 * baseline, as an element that pages is named. */
static void claim_summary(struct health_verdict *v)
{
	const struct health_suspect *s = NULL;
	const struct health_cell *best = NULL;
	char name[160], ch[256], buf[sizeof(v->summary)];

	if (v->status != SW_NAGIOS_CRITICAL || v->ncritical + v->nwarning)
		return;
	for (int j = 0; j < v->nsuspects && !s; j++)
		if (!v->suspect[j].in_baseline)
			s = &v->suspect[j];
	if (!s)
		return;
	for (int i = 0; i < v->ncells; i++) {
		const struct health_cell *hc = &v->cell[i];
		size_t n;

		health_cell_name(v, hc, name, sizeof(name));
		n = strlen(s->host);
		if (hc->compared && !strncmp(name, s->host, n) && !strncmp(name + n, " (", 2) &&
		    (!best || hc->change > best->change))
			best = hc;
	}
	if (best) {
		health_cell_name(v, best, name, sizeof(name));
		health_change_text(v, best, ch, sizeof(ch));
		snprintf(buf, sizeof(buf), "%s: %s vs baseline; map claim %s, new since the baseline", name, ch, s->host);
	} else {
		snprintf(buf, sizeof(buf), "map claim %s, new since the baseline", s->host);
	}
	for (int j = 0, more = 0; j < v->nsuspects; j++)
		if (!v->suspect[j].in_baseline && &v->suspect[j] != s)
			sw_appendf(buf, sizeof(buf), "%s%s", more++ ? ", " : " (also ", v->suspect[j].host);
	if (strstr(buf, " (also "))
		sw_appendf(buf, sizeof(buf), ")");
	if (v->nspread_unknown)
		sw_appendf(buf, sizeof(buf), "; night-to-night spread unknown (%d baseline run%s)", v->base_runs,
			   v->base_runs == 1 ? "" : "s");
	snprintf(v->summary, sizeof(v->summary), "%s", buf);
}

int mapjudge_finish(struct health_verdict *v)
{
	int blind = 0, maps = 0;

	v->map = true;
	if (health_grade(v))
		return -1;
	for (int i = 0; i < v->ncells; i++)
		maps += v->cell[i].elem == HEALTH_FABRIC;
	for (int j = 0; j < v->nsuspects; j++)
		v->suspect[j].cells = maps;
	/* a claim the baseline maps do not make: a new fault, as a sweep's
	 * new suspect port */
	for (int j = 0; j < v->nsuspects; j++)
		if (!v->suspect[j].in_baseline)
			v->status = SW_NAGIOS_CRITICAL;
	for (int i = 0; i < v->ncells; i++) {
		v->nspread_unknown += v->cell[i].compared && !v->cell[i].nightly;
		blind += v->cell[i].compared && !v->cell[i].pageable;
	}
	if (v->nmissing && v->status == SW_NAGIOS_OK)
		v->status = SW_NAGIOS_UNKNOWN;
	if (blind)
		health_add_note(v, "%d compared element%s cannot show a significant change: fewer than %d blocks (this "
				"map or the baseline's) and fewer than %d baseline maps; only estimates are given, set "
				"repetitions >= %d or judge against a baseline set", blind, blind == 1 ? "" : "s",
				CHANGE_MIN_REPS, HEALTH_MIN_NIGHTS, CHANGE_MIN_REPS);
	if (v->nspread_unknown)
		health_add_note(v, "night-to-night spread unknown for %d element%s (%d baseline map%s; %d give it): each "
				"interval counts the run_to_run SD assumed instead; add healthy maps with swstress "
				"baseline add", v->nspread_unknown,
				v->nspread_unknown == 1 ? "" : "s", v->base_runs, v->base_runs == 1 ? "" : "s",
				HEALTH_MIN_NIGHTS);
	if (v->ncompared == 0) {
		v->status = SW_NAGIOS_UNKNOWN;
		snprintf(v->summary, sizeof(v->summary), "no element of map %s can be compared with baseline %s",
			 v->run, v->baseline);
		return 0;
	}
	if (health_summarize(v))
		return -1;
	claim_summary(v);
	return 0;
}

/* A map run's maps: one mapdata and blame_result per pattern and size. */
struct maps {
	int n;
	struct mapdata *d;
	struct blame_result *b;
};

static void maps_free(struct maps *m)
{
	for (int i = 0; i < m->n; i++) {
		mapdata_free(&m->d[i]);
		blame_free(&m->b[i]);
	}
	free(m->d);
	free(m->b);
	memset(m, 0, sizeof(*m));
}

/* The maps of run r for the patterns and sizes of cfg. 0 or -1 with err. */
static int maps_load(const struct sw_run *r, const struct sw_config *cfg, struct maps *m, char *err, size_t errlen)
{
	int n = cfg->npatterns * cfg->nsizes;
	char msg[512];

	m->n = 0;
	m->d = calloc((size_t)n + 1, sizeof(*m->d));
	m->b = calloc((size_t)n + 1, sizeof(*m->b));
	if (!m->d || !m->b)
		return sw_fail(err, errlen, "out of memory");
	for (int ps = 0; ps < n; ps++) {
		int pat = cfg->patterns[ps / cfg->nsizes];
		uint64_t size = cfg->sizes[ps % cfg->nsizes];

		if (mapout_analyse_keep(r, pat, size, &m->d[ps], &m->b[ps], msg, sizeof(msg)))
			return sw_fail(err, errlen, "%s: %s", r->name, msg);
		m->n++;
	}
	return 0;
}

struct health_verdict *mapjudge_verdict(const struct sw_run *r, const struct sw_run *const *base, int k,
					const char *set, char *err, size_t errlen)
{
	const struct sw_config *cfg = &r->cfg;
	struct maps mr = { 0 }, *mb = calloc((size_t)k + 1, sizeof(*mb));
	struct mapjudge_map *bm = calloc((size_t)k + 1, sizeof(*bm));
	struct health_verdict *v = NULL;
	size_t ncells = 0;
	int nps = cfg->npatterns * cfg->nsizes;
	bool ok = false;

	if (!mb || !bm) {
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	stats_init();
	if (maps_load(r, cfg, &mr, err, errlen))
		goto out;
	for (int j = 0; j < k; j++)
		if (maps_load(base[j], cfg, &mb[j], err, errlen))
			goto out;
	for (int ps = 0; ps < nps; ps++)
		ncells += (size_t)mapjudge_elements(&mb[0].b[ps]);
	if (!(v = health_verdict_new(r, ncells))) {
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	snprintf(v->baseline, sizeof(v->baseline), "%s", set ? set : base[k - 1]->name);
	v->baseline_set = set != NULL;
	v->base_runs = k;
	for (int ps = 0; ps < nps; ps++) {
		struct mapjudge_map rm = { &mr.d[ps].in, &mr.b[ps] };

		for (int j = 0; j < k; j++)
			bm[j] = (struct mapjudge_map){ &mb[j].d[ps].in, &mb[j].b[ps] };
		if (mapjudge_add(v, cfg, cfg->patterns[ps / cfg->nsizes], cfg->sizes[ps % cfg->nsizes], &rm, bm, k, err,
				 errlen))
			goto out;
	}
	if (mb[0].n && mb[0].b[0].inferred && mb[0].b[0].ngroup > 1)
		health_add_note(v, "groups inferred from baseline map %s (ports that behave as one group, not a fact): "
				"give them in the config's [topology]", base[0]->name);
	else if (mb[0].n && mb[0].b[0].ngroup <= 1)
		health_add_note(v, "one group: no uplink judged (give the groups in the config's [topology])");
	if (!r->complete) {
		health_add_note(v, "run incomplete%s%s", r->failure[0] ? ": " : "", r->failure);
		v->status = SW_NAGIOS_UNKNOWN;
	}
	if (mapjudge_finish(v)) {
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	ok = true;
out:
	maps_free(&mr);
	for (int j = 0; mb && j < k; j++)
		maps_free(&mb[j]);
	free(mb);
	free(bm);
	if (!ok) {
		health_verdict_free(v);
		v = NULL;
	}
	return v;
}
