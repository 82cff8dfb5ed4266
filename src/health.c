/*
 * health.c - the health verdict of a run against a baseline. Pure: it
 * reads no database and prints nothing; its outputs (health_out.c), the
 * history rows (history.c) and the judge command (cmd_judge.c) build on
 * it. See health.h for the rules.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "health.h"
#include "pattern.h"
#include "stats.h"

const char *health_status_name(int status)
{
	static const char *const names[] = { "OK", "WARNING", "CRITICAL", "UNKNOWN" };

	return status >= 0 && status <= 3 ? names[status] : "UNKNOWN";
}

/* Severity for combining: OK < UNKNOWN < WARNING < CRITICAL. */
static int severity(int status)
{
	switch (status) {
	case SW_NAGIOS_OK: return 0;
	case SW_NAGIOS_UNKNOWN: return 1;
	case SW_NAGIOS_WARNING: return 2;
	case SW_NAGIOS_CRITICAL: return 3;
	}
	return 1;
}

static int worse(int a, int b)
{
	return severity(b) > severity(a) ? b : a;
}

/* ---------------------------------------------------------------- */
/* The verdict                                                        */

/* Per-repetition values of cell c (analysis_rep_values, the unit of every
 * interval and test): per-hop latency and bandwidth into malloc'ed arrays.
 * 0 or -1 on ENOMEM. */
static int cell_values(const struct sw_run *r, int c, double **lat, double **bw, size_t *n)
{
	size_t nl, nb;

	*lat = *bw = NULL;
	if (analysis_rep_values(r, c, SW_METRIC_LATENCY, lat, &nl) ||
	    analysis_rep_values(r, c, SW_METRIC_BANDWIDTH, bw, &nb)) {
		free(*lat);
		*lat = NULL;
		return -1;
	}
	*n = nl < nb ? nl : nb;   /* equal: the same repetitions */
	return 0;
}

/* The median and its CI of a summary of per-repetition values (one of
 * analysis_run's cell summaries, or est_of's). */
static void est_from(const struct stats_summary *s, struct health_est *e)
{
	e->n = s->n;
	e->median = s->median;
	e->lo = s->med_lo;
	e->hi = s->med_hi;
}

/* The same for values analysis_run did not summarize (several baseline
 * runs pooled), computed as it computes its own (analysis_rep_ci). */
void health_est_of(const double *x, size_t n, double confidence, struct health_est *e)
{
	struct stats_summary s;

	if (stats_summarize(x, n, confidence, &s) == 0)
		analysis_rep_ci(x, n, confidence, &s);
	est_from(&s, e);
}

static void cell_key(struct health_cell *hc, const struct sw_run *r, int c)
{
	const struct sw_cell *pc = &r->plan->cell[c];

	hc->pattern = pc->pattern;
	hc->size = pc->size;
	hc->hops = pc->hops;
	hc->pairs = run_cell_pairs(r, c);
	hc->nodes = plan_nodes(r->plan, c);
	hc->metric = pattern_latency_metric(pc->pattern) ? HEALTH_LATENCY : HEALTH_BANDWIDTH;
}

void health_cell_blank(struct health_cell *hc)
{
	memset(hc, 0, sizeof(*hc));
	hc->cell = hc->base_cell = -1;
	hc->lat.median = hc->lat.lo = hc->lat.hi = NAN;
	hc->bw = hc->base_lat = hc->base_bw = hc->lat;
	hc->change = hc->lo = hc->hi = hc->p = NAN;
	hc->typical = hc->spread_pct = hc->sd_pct = hc->sigma = hc->p_night = hc->night_sd = NAN;
	hc->ewma = hc->ewma_limit = NAN;
	hc->iv = (struct stats_interval){ 0, NAN, NAN, NAN, NAN, NAN, NAN };
	hc->allow = hc->p_crit = hc->p_warn = hc->run_sd = NAN;
	hc->night_df = hc->night_s2 = hc->w_base = hc->w_now = hc->night_floor = hc->log_d = NAN;
	hc->status = SW_NAGIOS_OK;
}

/* Why cell c of r has no partner in b. */
static void missing_reason(const struct sw_run *r, int c, const struct sw_run *b, char *buf, size_t len)
{
	const struct sw_cell *x = &r->plan->cell[c];
	bool pat = false, size = false, level = false;
	char s[32];

	for (int bc = 0; bc < b->plan->ncells; bc++) {
		pat |= b->plan->cell[bc].pattern == x->pattern;
		size |= b->plan->cell[bc].size == x->size;
		level |= run_cell_pairs(b, bc) == run_cell_pairs(r, c);
	}
	config_format_size(x->size, s, sizeof(s));
	if (!pat)
		snprintf(buf, len, "pattern %s not in baseline", pattern_name(x->pattern));
	else if (!size)
		snprintf(buf, len, "size %s not in baseline", s);
	else if (!level)
		snprintf(buf, len, "%d nodes not in baseline", plan_nodes(r->plan, c));
	else
		snprintf(buf, len, "%ld hops not in baseline", x->hops);
}

/* The degradation (log scale, > 0 worse) g as the outputs print it, in
 * percent: latency inflation, or bandwidth drop. */
static double degradation_pct(const struct health_cell *hc, double g)
{
	return (hc->metric == HEALTH_LATENCY ? expm1(g) : -expm1(-g)) * 100.0;
}

/* A threshold in percent on the log degradation scale. */
static double log_threshold(const struct health_cell *hc, double pct)
{
	return hc->metric == HEALTH_LATENCY ? log1p(pct / 100.0) : -log1p(-pct / 100.0);
}

/* hc's printed CI from its interval hc->iv. */
static void ci_from_interval(struct health_cell *hc)
{
	hc->lo = degradation_pct(hc, hc->iv.lo);
	hc->hi = degradation_pct(hc, hc->iv.hi);
}

/* hc's night-to-night SD, score and interval (health_cell_nightly's
 * figures) from the night variance s2 of its baseline runs' ln medians on
 * df degrees of freedom: the night SD never below the runs' own noise nor
 * the floor, a new night's SD (1 + 1/k) plus tonight's noise beyond the
 * baseline runs'. 0 or -1 (the interval cannot be set). */
static int night_interval(struct health_cell *hc, double s2, double df, double confidence)
{
	double k = hc->nights_k, night = fmax(fmax(sqrt(s2), sqrt(hc->w_base)), hc->night_floor);
	double sd = sqrt(night * night * (1.0 + 1.0 / k) + fmax(0.0, hc->w_now - hc->w_base));

	hc->night_df = df;
	hc->night_sd = night * sqrt(1.0 + 1.0 / k);
	hc->sd_pct = expm1(sd) * 100.0;
	hc->sigma = hc->log_d / sd;
	hc->p_night = stats_interval_p_above(&(struct stats_interval){ .d = hc->log_d, .se = sd, .df = df }, 0.0);
	if (stats_interval_set(&hc->iv, hc->log_d, sd, df, hc->res, confidence))
		return -1;
	ci_from_interval(hc);
	return 0;
}

void health_cell_single(struct health_cell *hc, const struct sw_config *cfg, const double *x, size_t nx,
			const double *y, size_t ny, double res)
{
	bool lat = hc->metric == HEALTH_LATENCY;
	struct sw_change ch;
	double lx, sx, ly, sy;

	change_test(x, nx, y, ny, lat ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH, cfg, &ch);
	if (!ch.valid || stats_log_median_se(x, nx, &lx, &sx) || stats_log_median_se(y, ny, &ly, &sy)) {
		snprintf(hc->why, sizeof(hc->why), "a repetition value is not positive");
		return;
	}
	hc->compared = true;
	hc->change = ch.pct;
	hc->lo = ch.lo;
	hc->hi = ch.hi;
	hc->p = ch.p;
	/* the night-to-night spread is not measured: the assumed run_to_run,
	 * a run's SD, twice over (tonight and the baseline run) */
	hc->allow = 0.0;
	hc->run_sd = cfg->run_to_run / 100.0;
	/* fewer than CHANGE_MIN_REPS a side: the estimate only */
	if (!isfinite(ch.lo) ||
	    stats_interval_set(&hc->iv, lat ? lx - ly : ly - lx, hypot(hypot(sx, sy), M_SQRT2 * hc->run_sd), INFINITY,
			       res, cfg->confidence))
		return;
	ci_from_interval(hc);
	hc->pageable = true;
}

struct health_verdict *health_verdict_new(const struct sw_run *r, size_t ncells)
{
	struct health_verdict *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	v->cell = calloc(ncells ? ncells : 1, sizeof(*v->cell));
	if (!v->cell) {
		free(v);
		return NULL;
	}
	v->status = SW_NAGIOS_OK;
	if (r) {
		snprintf(v->run, sizeof(v->run), "%s", r->name);
		snprintf(v->started, sizeof(v->started), "%s", r->started);
		v->warn_drop = r->cfg.warn_drop;
		v->crit_drop = r->cfg.crit_drop;
		v->warn_inflation = r->cfg.warn_inflation;
		v->crit_inflation = r->cfg.crit_inflation;
		v->alpha = r->cfg.alpha;
		v->nightly_sigma = r->cfg.nightly_sigma;
		v->confidence = r->cfg.confidence;
		v->nhops = r->cfg.nhops;
	}
	return v;
}

void health_add_note(struct health_verdict *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sw_vnote(v->notes[0], sizeof(v->notes[0]), (int)(sizeof(v->notes) / sizeof(v->notes[0])), &v->nnotes, fmt, ap);
	va_end(ap);
}

/* Suspects of a; one flagged in at least half of the k baseline runs'
 * analyses ba[] (NULL ones count as not flagged) is in_baseline. */
static int fill_suspects(struct health_verdict *v, const struct sw_analysis *a,
			 const struct sw_analysis *const *ba, int k)
{
	if (!a || a->nsuspects <= 0)
		return 0;
	v->suspect = calloc((size_t)a->nsuspects, sizeof(*v->suspect));
	if (!v->suspect)
		return -1;
	for (int i = 0; i < a->nsuspects; i++) {
		struct health_suspect *s = &v->suspect[v->nsuspects++];

		snprintf(s->host, sizeof(s->host), "%s", a->suspect[i].host);
		s->flagged = a->suspect[i].flagged;
		s->cells = a->suspect[i].cells;
		int runs = 0;

		for (int b = 0; b < k; b++)
			for (int j = 0; ba[b] && j < ba[b]->nsuspects; j++)
				if (!strcmp(ba[b]->suspect[j].host, s->host)) {
					runs++;
					break;
				}
		s->in_baseline = k > 0 && 2 * runs >= k;
	}
	return 0;
}

/* "16 nodes 64KiB stream" (+ " 1000 hops" when the run has several). */
void health_cell_name(const struct health_verdict *v, const struct health_cell *hc, char *buf, size_t len)
{
	char s[32];

	config_format_size(hc->size, s, sizeof(s));
	if (hc->elem > HEALTH_CELL && hc->elem <= HEALTH_UPLINK) {
		/* blame's names: "host node03", "uplink of leaf2", "trunk leaf1|leaf2" */
		const char *what = hc->elem == HEALTH_FABRIC ? "fabric" : hc->elem == HEALTH_HOST ? "host "
				   : strchr(hc->elem_name, '|') ? "trunk " : "uplink of ";

		snprintf(buf, len, "%s%s (%s %s)", what, hc->elem_name, pattern_name(hc->pattern), s);
		return;
	}
	if (v->nhops > 1)
		snprintf(buf, len, "%d nodes %s %s %ld hops", hc->nodes, s, pattern_name(hc->pattern), hc->hops);
	else
		snprintf(buf, len, "%d nodes %s %s", hc->nodes, s, pattern_name(hc->pattern));
}

const char *health_elem_name(int elem)
{
	static const char *const names[] = { "cell", "fabric", "host", "uplink" };

	return elem >= HEALTH_CELL && elem <= HEALTH_UPLINK ? names[elem] : "cell";
}

bool health_cell_ratio(const struct health_cell *hc)
{
	return hc->elem == HEALTH_HOST || hc->elem == HEALTH_UPLINK;
}

/* "bandwidth drop" or "latency inflation" (> 0 is worse), or as a key */
const char *health_change_name(const struct health_cell *hc, bool key)
{
	return change_name(hc->metric == HEALTH_LATENCY ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH, key);
}

/* "bandwidth drop +31.2% [+28.1,+34.0]", then against a baseline set
 * ", 9.3 sd of 1.2% (healthy nights)", the chart's ", drifting: EWMA
 * 1.42 sd > limit 0.93 over 6 nights", a CPU-bound latency cell's
 * ", CPU-bound: 8 busy ranks on 2 shared cores", and for an estimate over a limit
 * that did not page why (health.h). */
void health_change_text(const struct health_verdict *v, const struct health_cell *hc, char *buf, size_t len)
{
	bool lat = hc->metric == HEALTH_LATENCY;
	double warn = lat ? v->warn_inflation : v->warn_drop, crit = lat ? v->crit_inflation : v->crit_drop;
	double limit = NAN;

	if (isfinite(hc->lo) && isfinite(hc->hi))
		snprintf(buf, len, "%s %+.1f%% [%+.1f,%+.1f]", health_change_name(hc, false), hc->change, hc->lo, hc->hi);
	else
		snprintf(buf, len, "%s %+.1f%%", health_change_name(hc, false), hc->change);
	if (hc->nightly)
		sw_appendf(buf, len, ", %.1f sd of %.1f%% (healthy nights)", hc->sigma, hc->sd_pct);
	if (hc->drift)
		sw_appendf(buf, len, ", drifting: EWMA %.2f sd > limit %.2f over %d nights", hc->ewma,
			   hc->ewma_limit, hc->chart_nights);
	if (hc->cpu_ranks)
		sw_appendf(buf, len, ", CPU-bound: %d busy ranks on %d shared cores", hc->cpu_ranks, hc->cpu_cores);
	if (!hc->compared || hc->status == SW_NAGIOS_CRITICAL)
		return;
	if (hc->change >= crit)
		limit = crit;
	else if (hc->change >= warn && hc->status == SW_NAGIOS_OK)
		limit = warn;
	if (!isfinite(limit))
		return;
	if (!hc->pageable && !isfinite(hc->lo)) {   /* an estimate only: it cannot page */
		sw_appendf(buf, len, ", over the %g%% limit, no CI: fewer than %d %s a side", limit, CHANGE_MIN_REPS,
			   v->map ? "blocks" : "repetitions");
		return;
	}
	if (!hc->pageable)
		sw_appendf(buf, len, ", over the %g%% limit, but this cell cannot page (see the notes)", limit);
	else if (hc->nightly)
		sw_appendf(buf, len, ", over the %g%% limit, but within a healthy night's spread", limit);
	else
		sw_appendf(buf, len, ", over the %g%% limit, but within the run-to-run spread assumed (run_to_run "
			   "%.3g%%, %d baseline run%s)", limit, hc->run_sd * 100.0, hc->base_runs,
			   hc->base_runs == 1 ? "" : "s");
}

/* Order key: failed cells, then by status severity, then by how far
 * beyond its critical threshold. */
static double rank_key(const struct health_verdict *v, const struct health_cell *hc)
{
	double crit;

	if (hc->cell < 0)
		return -2e9;
	if (!hc->compared)
		return hc->status == SW_NAGIOS_CRITICAL ? 1e9 : -1e9;
	crit = hc->metric == HEALTH_LATENCY ? v->crit_inflation : v->crit_drop;
	return severity(hc->status) * 1e6 + (isfinite(hc->change) ? hc->change / (crit > 0 ? crit : 1) : 0);
}

static int cmp_rank(const void *pa, const void *pb, void *arg)
{
	const struct health_verdict *v = arg;
	double a = rank_key(v, &v->cell[*(const int *)pa]), b = rank_key(v, &v->cell[*(const int *)pb]);

	if (a != b)
		return a > b ? -1 : 1;
	return *(const int *)pa - *(const int *)pb;
}

/* Indices of v's cells, worst first. malloc'ed, NULL on ENOMEM. */
int *health_worst_first(const struct health_verdict *v)
{
	int *idx = malloc((size_t)(v->ncells ? v->ncells : 1) * sizeof(int));

	if (!idx)
		return NULL;
	for (int i = 0; i < v->ncells; i++)
		idx[i] = i;
	qsort_r(idx, (size_t)v->ncells, sizeof(int), cmp_rank, (void *)v);
	return idx;
}

static void hosts_check(struct health_verdict *v, const struct sw_run *r, const struct sw_run *b)
{
	char only_r[200] = "", only_b[200] = "";
	size_t nr = 0, nb = 0;
	bool same = r->nranks == b->nranks;

	for (int i = 0; same && i < r->nranks; i++)
		same = !strcmp(r->host[i], b->host[i]);
	if (same)
		return;
	for (int i = 0; i < r->nranks; i++) {
		bool found = false, dup = false;

		for (int j = 0; j < b->nranks && !found; j++)
			found = !strcmp(r->host[i], b->host[j]);
		for (int j = 0; j < i && !dup; j++)
			dup = !strcmp(r->host[i], r->host[j]);
		if (!found && !dup && nr < sizeof(only_r) - 1)
			nr += (size_t)snprintf(only_r + nr, sizeof(only_r) - nr, "%s%s", nr ? ", " : "", r->host[i]);
	}
	for (int i = 0; i < b->nranks; i++) {
		bool found = false, dup = false;

		for (int j = 0; j < r->nranks && !found; j++)
			found = !strcmp(b->host[i], r->host[j]);
		for (int j = 0; j < i && !dup; j++)
			dup = !strcmp(b->host[i], b->host[j]);
		if (!found && !dup && nb < sizeof(only_b) - 1)
			nb += (size_t)snprintf(only_b + nb, sizeof(only_b) - nb, "%s%s", nb ? ", " : "", b->host[i]);
	}
	v->status = worse(v->status, SW_NAGIOS_UNKNOWN);
	if (!nr && !nb && r->nranks == b->nranks)
		health_add_note(v, "baseline has the same hosts in another rank order (pairs ran over other ports)");
	else if (!nr && !nb)
		health_add_note(v, "baseline has %d ranks on the same hosts, this run %d", b->nranks, r->nranks);
	else
		health_add_note(v, "baseline taken on other hosts:%s%s%s%s%s", nr ? " not in baseline: " : "", only_r,
			 nr && nb ? ";" : "", nb ? " only in baseline: " : "", only_b);
}

/* The status line text once every cell is judged. */
static void summarize(struct health_verdict *v, const struct health_cell *worst)
{
	const char *unit = v->map ? "element" : "cell";
	char name[128], ch[256], sus[256] = "", buf[1024];
	size_t ns = 0;
	int nbad = v->ncritical + v->nwarning;

	for (int i = 0; i < v->nsuspects && ns < sizeof(sus) - 1; i++)
		ns += (size_t)snprintf(sus + ns, sizeof(sus) - ns, "%s%s", i ? ", " : "", v->suspect[i].host);
	if (worst)
		health_cell_name(v, worst, name, sizeof(name));
	if (v->status == SW_NAGIOS_CRITICAL || v->status == SW_NAGIOS_WARNING) {
		if (worst && worst->cell >= 0 && !worst->compared && worst->status == SW_NAGIOS_CRITICAL)
			snprintf(buf, sizeof(buf), "%s: %s", name, worst->why);
		else if (worst && worst->compared && worst->status == v->status) {
			health_change_text(v, worst, ch, sizeof(ch));
			snprintf(buf, sizeof(buf), "%s: %s vs baseline", name, ch);
			if (nbad + v->nfailed > 1)
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " (+%d more %s%s)",
					 nbad + v->nfailed - 1, unit, nbad + v->nfailed - 1 == 1 ? "" : "s");
		} else
			snprintf(buf, sizeof(buf), "no %s beyond thresholds vs baseline", unit);
		if (ns)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "; %s%s %s",
				 v->map ? "map claim" : "suspect port", v->nsuspects > 1 ? "s" : "", sus);
	} else if (v->status == SW_NAGIOS_UNKNOWN) {
		size_t n = 0;
		int shown = 0;

		buf[0] = '\0';
		if (v->nmissing) {
			n += (size_t)snprintf(buf, sizeof(buf), "%d %s%s not compared (", v->nmissing, unit,
					      v->nmissing == 1 ? "" : "s");
			for (int i = 0; i < v->ncells && shown < 2 && n < sizeof(buf); i++) {
				const struct health_cell *hc = &v->cell[i];

				if (hc->compared || hc->status != SW_NAGIOS_OK || !hc->why[0])
					continue;
				health_cell_name(v, hc, name, sizeof(name));
				n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s: %s", shown ? "; " : "", name, hc->why);
				shown++;
			}
			if (n < sizeof(buf))
				n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s)", v->nmissing > shown ? "; ..." : "");
		}
		for (int i = 0; i < v->nnotes && n < sizeof(buf); i++)
			if (strncmp(v->notes[i], "baseline", 8) == 0)
				n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? "; " : "", v->notes[i]);
		if (n < sizeof(buf))
			snprintf(buf + n, sizeof(buf) - n, "%s%d compared %s%s OK", n ? "; " : "", v->ncompared,
				 unit, v->ncompared == 1 ? "" : "s");
	} else {
		snprintf(buf, sizeof(buf), "%d %s%s within thresholds vs baseline %s", v->ncompared, unit,
			 v->ncompared == 1 ? "" : "s", v->baseline);
		if (worst && worst->compared) {
			health_change_text(v, worst, ch, sizeof(ch));
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " (worst: %s %s)", name, ch);
		}
	}
	if (v->caution[0])
		sw_appendf(buf, sizeof(buf), "; %s", v->caution);
	if (v->drift[0])
		sw_appendf(buf, sizeof(buf), "; %s", v->drift);
	if (v->nmostly_missing)
		sw_appendf(buf, sizeof(buf), "; %d cell%s mostly missing samples (no time window)", v->nmostly_missing,
			   v->nmostly_missing == 1 ? "" : "s");
	if (v->nspread_unknown && v->status != SW_NAGIOS_UNKNOWN)
		sw_appendf(buf, sizeof(buf), "; night-to-night spread unknown (%d baseline run%s)", v->base_runs,
			   v->base_runs == 1 ? "" : "s");
	/* cut short with no cell failed (a signal): the line says so, whatever its status */
	for (int i = 0; i < v->nnotes && !v->nfailed; i++)
		if (strncmp(v->notes[i], "run incomplete", 14) == 0)
			sw_appendf(buf, sizeof(buf), "; %s", v->notes[i]);
	snprintf(v->summary, sizeof(v->summary), "%s", buf);
}

/* Append x[0..n) to the malloc'ed *dst that holds ndst values. 0 or -1
 * (ENOMEM). */
static int append_values(double **dst, size_t ndst, const double *x, size_t n)
{
	double *p = realloc(*dst, (ndst + n + 1) * sizeof(double));

	if (!p)
		return -1;
	if (n)
		memcpy(p + ndst, x, n * sizeof(double));
	*dst = p;
	return 0;
}

/* The per-cell working set of health_judge_set: tonight's values and each
 * baseline run's. */
struct cell_work {
	size_t n;                       /* tonight: repetitions (analysis_run) */
	double *rx;                     /* tonight: repetition values of the metric */
	size_t nrx;
	double *blat, *bbw, *ry;        /* every baseline run's, pooled */
	size_t bn, nry;
	double **yj;                    /* per baseline run: repetition values */
	size_t *nyj;
	int nruns;                      /* runs in yj (>= 2 values each) */
	int first;                      /* the first baseline run matched */
};

static void cell_work_free(struct cell_work *w, int k)
{
	free(w->rx);
	free(w->blat);
	free(w->bbw);
	free(w->ry);
	for (int j = 0; j < k; j++)
		free(w->yj[j]);
	memset(w->yj, 0, (size_t)k * sizeof(*w->yj));
	w->rx = w->blat = w->bbw = w->ry = NULL;
	w->n = w->nrx = w->bn = w->nry = 0;
	w->nruns = w->first = 0;
}

/* Gather baseline run j's values of its cell bc into w. 0 or -1 (ENOMEM). */
static int gather_base(struct cell_work *w, const struct sw_run *b, int bc, int metric)
{
	double *lat = NULL, *bw = NULL, *ry = NULL;
	size_t n = 0, nry = 0;
	int rc = -1;

	if (cell_values(b, bc, &lat, &bw, &n))
		return -1;
	if (append_values(&w->blat, w->bn, lat, n) || append_values(&w->bbw, w->bn, bw, n))
		goto out;
	w->bn += n;
	if (analysis_rep_values(b, bc, metric == HEALTH_LATENCY ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH,
				&ry, &nry) == 0) {
		if (append_values(&w->ry, w->nry, ry, nry))
			goto out;
		w->nry += nry;
		if (nry >= 2) {
			w->yj[w->nruns] = ry;
			w->nyj[w->nruns++] = nry;
			ry = NULL;
		}
	}
	rc = 0;
out:
	free(lat);
	free(bw);
	free(ry);
	return rc;
}

/* Cell hc against k >= HEALTH_MIN_NIGHTS baseline runs' repetition values
 * y[j]: the night-to-night figures (health.h); its interval here rests on
 * its own k - 1 degrees of freedom until health_grade pools them across
 * the verdict's cells. res as health_cell_single. */
void health_cell_nightly(struct health_cell *hc, const struct sw_config *cfg, const double *x, size_t nx,
			 double *const *y, const size_t *ny, int k, double res)
{
	struct stats_nightly s;
	bool lat = hc->metric == HEALTH_LATENCY;

	if (stats_nightly((const double *const *)y, ny, (size_t)k, x, nx, log1p(cfg->min_effect / 100.0),
			  cfg->confidence, &s)) {
		snprintf(hc->why, sizeof(hc->why), "a median is not positive");
		return;
	}
	hc->compared = hc->nightly = true;
	hc->typical = s.typical;
	/* the degradation: inflation for latency, drop for bandwidth */
	hc->log_d = lat ? s.d : -s.d;
	hc->change = degradation_pct(hc, hc->log_d);
	hc->spread_pct = expm1(s.spread) * 100.0;
	hc->night_s2 = s.spread * s.spread;
	hc->nights_k = k;
	hc->w_base = s.w_base;
	hc->w_now = s.w_now;
	hc->night_floor = log1p(cfg->min_effect / 100.0);
	hc->res = res;
	hc->allow = 0.0;   /* the spread between nights is measured */
	hc->pageable = true;
	if (night_interval(hc, s.spread * s.spread, (double)(k - 1), cfg->confidence))
		hc->pageable = false;
}

/* The night-to-night SD of the verdict's set cells, pooled: each cell's
 * SD of its baseline runs' ln medians (k - 1 df) moderated towards the
 * pool of every set cell (stats_moderate_var, Smyth 2004), so that 3
 * baseline runs carry the degrees of freedom of many cells; then each
 * cell's score and interval on the moderated SD. 0 or -1 (ENOMEM). */
static int pool_nights(struct health_verdict *v)
{
	size_t n = (size_t)(v->ncells ? v->ncells : 1), m = 0;
	double *s2 = malloc(2 * n * sizeof(double)), *df = s2 + n, s0sq, d0, pool = 0.0;

	if (!s2)
		return -1;
	for (int i = 0; i < v->ncells; i++) {
		const struct health_cell *hc = &v->cell[i];

		if (!hc->compared || !hc->nightly || !isfinite(hc->night_s2))
			continue;
		s2[m] = hc->night_s2;
		df[m] = hc->nights_k - 1;
		pool += df[m++];
	}
	if (stats_moderate_var(s2, df, m, &s0sq, &d0)) {
		free(s2);
		return -1;
	}
	free(s2);
	for (int i = 0; i < v->ncells; i++) {
		struct health_cell *hc = &v->cell[i];
		double dfm, s2m;

		if (!hc->compared || !hc->nightly || !isfinite(hc->night_s2))
			continue;
		s2m = stats_moderated(hc->night_s2, hc->nights_k - 1, s0sq, d0, pool, &dfm);
		hc->pageable = hc->pageable && !night_interval(hc, s2m, dfm, v->confidence);
	}
	return 0;
}

/* The paging family: the verdict's pageable cells, m of them. Each one's
 * one-sided p of "tonight is no worse than a healthy night" (d at most
 * hc->allow, 0; against fewer than 3 runs the run-to-run SD is in the
 * se), times m (Bonferroni), is the p printed; its interval is printed
 * at the level whose lower bound holds for all m cells at once with
 * 1 - alpha (each bound at 1 - alpha / m), so the interval excludes a
 * healthy night exactly when the printed p is below alpha. A cell pages
 * at a threshold when that holds and its estimate is beyond the
 * threshold: then an interval that lies beyond a threshold always pages,
 * one that includes a healthy night never does, and the chance that a
 * healthy night pages anywhere in the check is at most alpha. */
int health_grade(struct health_verdict *v)
{
	int m = 0;
	double conf;

	if (pool_nights(v))
		return -1;
	for (int i = 0; i < v->ncells; i++)
		m += v->cell[i].compared && v->cell[i].pageable;
	conf = fmax(1e-3, 1.0 - 2.0 * v->alpha / (m > 0 ? m : 1));
	v->ncompared = v->ncritical = v->nwarning = 0;
	for (int i = 0; i < v->ncells; i++) {
		struct health_cell *hc = &v->cell[i];
		bool lat = hc->metric == HEALTH_LATENCY;
		struct stats_interval sim;

		if (!hc->compared)
			continue;
		hc->status = SW_NAGIOS_OK;
		v->ncompared++;
		if (!hc->pageable) {
			v->status = worse(v->status, hc->status);
			continue;
		}
		hc->family = m;
		hc->p = fmin(1.0, m * stats_interval_p_above(&hc->iv, hc->allow));
		hc->p_crit = hc->p_warn = hc->p;
		if (stats_interval_set(&sim, hc->iv.d, hc->iv.se, hc->iv.df, 0.0, conf) == 0) {
			hc->lo = degradation_pct(hc, sim.lo);
			hc->hi = degradation_pct(hc, sim.hi);
		}
		if (hc->p < v->alpha) {
			if (hc->iv.d > log_threshold(hc, lat ? v->crit_inflation : v->crit_drop))
				hc->status = SW_NAGIOS_CRITICAL;
			else if (hc->iv.d > log_threshold(hc, lat ? v->warn_inflation : v->warn_drop))
				hc->status = SW_NAGIOS_WARNING;
		}
		v->ncritical += hc->status == SW_NAGIOS_CRITICAL;
		v->nwarning += hc->status == SW_NAGIOS_WARNING;
		v->status = worse(v->status, hc->status);
	}
	if (m > 0 && !v->graded)
		health_add_note(v, "paging: %s pages when its change is over a threshold and its interval excludes a "
			 "healthy %s; intervals and p are simultaneous over the %d %s%s that can page (Bonferroni, "
			 "bounds at %.4g%%): a healthy %s pages with at most %g%% chance", v->map ? "an element" : "a cell",
			 v->map ? "map" : "night", m, v->map ? "element" : "cell", m == 1 ? "" : "s",
			 100.0 * (1.0 - v->alpha / m), v->map ? "map" : "night", 100.0 * v->alpha);
	v->graded = true;
	return 0;
}

/* The judged run drifted (struct sw_drift): the largest significant
 * drift into v->drift and a note. */
static void drift_note(struct health_verdict *v, const struct sw_run *r, const struct sw_analysis *a)
{
	const struct sw_drift *d = NULL;
	char sz[32];

	for (int i = 0; i < a->ndrift; i++)
		if (a->drift[i].change.significant && (!d || fabs(a->drift[i].change.pct) > fabs(d->change.pct)))
			d = &a->drift[i];
	if (!d)
		return;
	config_format_size(r->plan->cell[d->cell].size, sz, sizeof(sz));
	snprintf(v->drift, sizeof(v->drift), "run drifted: baseline level %s %s again %s %+.1f%%",
		 pattern_name(r->plan->cell[d->cell].pattern), sz, change_name(d->metric, false),
		 d->change.pct);
	health_add_note(v, "drift: the baseline level measured again after the last level differs from the first time "
		 "(%s %s: %s %+.1f%% [%+.1f, %+.1f]): a change in this run may be drift (a busy host, another job), "
		 "not the fabric", pattern_name(r->plan->cell[d->cell].pattern), sz,
		 change_name(d->metric, false), d->change.pct, d->change.lo, d->change.hi);
}

int health_summarize(struct health_verdict *v)
{
	int *order = health_worst_first(v);

	if (!order)
		return -1;
	summarize(v, v->ncells ? &v->cell[order[0]] : NULL);
	free(order);
	return 0;
}

struct health_verdict *health_judge(const struct sw_run *r, const struct sw_analysis *a,
				    const struct sw_run *base, const struct sw_analysis *ba)
{
	return health_judge_set(r, a, &base, &ba, 1, NULL);
}

/* What health_judge_set's steps share: the runs, which baseline cells
 * are taken, the per-cell working set and the counts of the notes. */
struct judge_ctx {
	const struct sw_run *r;
	const struct sw_analysis *a;
	const struct sw_run *const *base;
	const struct sw_analysis *const *ba;
	int k;
	bool **used;                    /* per baseline run: cell matched */
	struct cell_work w;
	int nblind, nlow;               /* cells that cannot page, and why */
};

/* Compare cell c of the judged run (already in hc with its key and
 * baseline estimates) on x->w's values: the night-to-night rule with
 * enough baseline runs, else the one-run rule. 0 or -1 (ENOMEM). */
static int judge_compare(struct judge_ctx *x, struct health_cell *hc, int c, bool low)
{
	struct cell_work *w = &x->w;
	double res, rb = 0.0;

	if (analysis_cell_resolution(x->r, c, &res) || analysis_cell_resolution(x->base[w->first], hc->base_cell, &rb))
		return -1;
	res = hypot(res, rb);   /* of the ratio tonight / baseline */
	if (w->nruns >= HEALTH_MIN_NIGHTS)
		health_cell_nightly(hc, &x->r->cfg, w->rx, w->nrx, w->yj, w->nyj, w->nruns, res);
	else
		health_cell_single(hc, &x->r->cfg, w->rx, w->nrx, w->ry, w->nry, res);
	/* below the sample floor (analysis.h): shown, never paged */
	if (hc->compared && low) {
		hc->pageable = false;
		x->nlow++;
	}
	if (hc->compared && (w->nrx < CHANGE_MIN_REPS || (w->nruns < HEALTH_MIN_NIGHTS && w->nry < CHANGE_MIN_REPS)))
		x->nblind++;
	return 0;
}

/* Cell c of the judged run into v's next cell: matched in each baseline
 * run, its values gathered, compared (graded later by health_grade) or
 * counted as failed or missing. 0 or -1 (ENOMEM). */
static int judge_cell(struct health_verdict *v, struct judge_ctx *x, int c)
{
	const struct sw_run *r = x->r;
	struct cell_work *w = &x->w;
	struct health_cell *hc = &v->cell[v->ncells++];
	const struct sw_cell_stats *bs = NULL;
	bool low = x->a->cell[c].below_floor;
	int matched = 0, rc = -1;

	health_cell_blank(hc);
	hc->cell = c;
	cell_key(hc, r, c);
	if (hc->metric != HEALTH_LATENCY || !run_cell_cpu_bound(r, c, &hc->cpu_ranks, &hc->cpu_cores))
		hc->cpu_ranks = hc->cpu_cores = 0;
	est_from(&x->a->cell[c].lat, &hc->lat);
	est_from(&x->a->cell[c].bw, &hc->bw);
	w->n = hc->lat.n;
	for (int j = 0; j < x->k; j++) {
		int bc = analysis_match_cell(r, c, x->base[j], x->used[j]);

		if (bc < 0)
			continue;
		x->used[j][bc] = true;
		low |= x->ba[j]->cell[bc].below_floor;
		if (!matched++) {
			hc->base_cell = bc;
			bs = &x->ba[j]->cell[bc];
			w->first = j;
		}
		if (gather_base(w, x->base[j], bc, hc->metric))
			goto out;
	}
	hc->base_runs = matched;
	if (matched == 1) {
		est_from(&bs->lat, &hc->base_lat);
		est_from(&bs->bw, &hc->base_bw);
	} else if (matched > 1) {
		health_est_of(w->blat, w->bn, r->cfg.confidence, &hc->base_lat);
		health_est_of(w->bbw, w->bn, r->cfg.confidence, &hc->base_bw);
	}
	if (r->cell[c].stop == SW_STOP_FAILED) {
		snprintf(hc->why, sizeof(hc->why), "failed%s%.80s", r->failure[0] ? ": " : "", r->failure);
		hc->status = SW_NAGIOS_CRITICAL;
		v->nfailed++;
	} else if (!matched) {
		missing_reason(r, c, x->base[x->k - 1], hc->why, sizeof(hc->why));
		v->nmissing++;
	} else if (w->n < 2 || w->bn < 2 ||
		   analysis_rep_values(r, c, hc->metric == HEALTH_LATENCY ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH,
				       &w->rx, &w->nrx) ||
		   w->nrx < 2 || w->nry < 2) {
		if (w->n == 0 && r->cell[c].stop == SW_STOP_NOT_RUN)
			snprintf(hc->why, sizeof(hc->why), "not run");
		else if (w->n < 2 || w->bn < 2)
			snprintf(hc->why, sizeof(hc->why), "too few repetitions (%zu now, %zu in baseline)", w->n, w->bn);
		else
			snprintf(hc->why, sizeof(hc->why), "too few repetitions (%zu now, %zu in baseline)", w->nrx, w->nry);
		v->nmissing++;
	} else {
		if (judge_compare(x, hc, c, low))
			goto out;
		v->nmissing += !hc->compared;
	}
	v->status = worse(v->status, hc->status);
	rc = 0;
out:
	cell_work_free(w, x->k);
	return rc;
}

/* Cells of the baseline runs that the judged run lacks, each shape once. */
static void baseline_only_cells(struct health_verdict *v, const struct judge_ctx *x)
{
	for (int j = x->k - 1; j >= 0; j--)
		for (int b = 0; b < x->base[j]->plan->ncells; b++) {
			struct health_cell *hc, key;
			bool seen = false;

			if (x->used[j][b])
				continue;
			cell_key(&key, x->base[j], b);
			for (int i = 0; i < v->ncells && !seen; i++)
				seen = v->cell[i].pattern == key.pattern && v->cell[i].size == key.size &&
				       v->cell[i].pairs == key.pairs && v->cell[i].hops == key.hops;
			if (seen)
				continue;
			hc = &v->cell[v->ncells++];
			health_cell_blank(hc);
			hc->base_cell = b;
			cell_key(hc, x->base[j], b);
			snprintf(hc->why, sizeof(hc->why), "in baseline, not in this run");
			v->nmissing++;
		}
}

/* The notes of a graded verdict: cells that cannot page, the spread
 * unknown, drift, hosts, an incomplete run. */
/* Missing samples of the judged run (run.h): how many, why, and the
 * cells where they outnumber the usable ones (below the floor: shown,
 * never paged); those also go into the status line (v->nmostly_missing). */
static void missing_note(struct health_verdict *v, const struct sw_run *r, const struct sw_analysis *a)
{
	size_t n = 0, all = 0, why[SW_MISSING_COUNT] = { 0 };
	char list[160] = "";

	for (int c = 0; c < a->ncells; c++) {
		const struct sw_cell_stats *cs = &a->cell[c];

		n += cs->nmissing;
		all += cs->nmissing + cs->lat_spread.n;
		for (int m = 1; m < SW_MISSING_COUNT; m++)
			why[m] += cs->missing[m];
		v->nmostly_missing += cs->nmissing > cs->lat_spread.n;
	}
	if (!n)
		return;
	for (int m = 1; m < SW_MISSING_COUNT; m++)
		if (why[m])
			sw_appendf(list, sizeof(list), "%s%zu %s", list[0] ? ", " : "", why[m], run_missing_why(m));
	health_add_note(v, "%zu of %zu samples of run %s missing (%s): left out of every statistic; %d cell%s "
			"more missing than usable samples and cannot page", n, all, r->name, list, v->nmostly_missing,
			v->nmostly_missing == 1 ? " has" : "s have");
}

static void judge_notes(struct health_verdict *v, const struct judge_ctx *x)
{
	int k = x->k;

	/* A check that cannot page: too few repetitions for any change to be
	 * significant (the change test needs CHANGE_MIN_REPS a side). */
	if (x->nblind)
		health_add_note(v, "%d compared cell%s cannot show a significant change: fewer than %d repetitions "
			 "(this run or the baseline); only estimates are given, set repetitions >= %d",
			 x->nblind, x->nblind == 1 ? "" : "s", CHANGE_MIN_REPS, CHANGE_MIN_REPS);
	if (x->nlow)
		health_add_note(v, "%d compared cell%s below the sample floor (most samples under %d messages, %d windows "
			 "or %d round trips; this run or the baseline): not trusted, they cannot page; raise "
			 "sample_time or hops", x->nlow, x->nlow == 1 ? " is" : "s are", ANALYSIS_FLOOR_MSGS,
			 ANALYSIS_FLOOR_WINDOWS, ANALYSIS_FLOOR_TRIPS);
	for (int i = 0; i < v->ncells; i++)
		v->nspread_unknown += v->cell[i].compared && !v->cell[i].nightly;
	if (v->nspread_unknown)
		health_add_note(v, "night-to-night spread unknown for %d cell%s (%d baseline run%s; %d give it): each "
			 "interval counts the run_to_run SD assumed (%g%%) instead; add healthy runs with swstress "
			 "baseline add", v->nspread_unknown, v->nspread_unknown == 1 ? "" : "s", k,
			 k == 1 ? "" : "s", HEALTH_MIN_NIGHTS, x->r->cfg.run_to_run);
	if (x->a && x->a->drifted)
		drift_note(v, x->r, x->a);
	if (x->a)
		missing_note(v, x->r, x->a);
	hosts_check(v, x->r, x->base[k - 1]);
	if (!x->r->complete) {   /* cut short (a signal, a crash): not all of it was judged */
		health_add_note(v, "run incomplete%s%s", x->r->failure[0] ? ": " : "", x->r->failure);
		v->status = worse(v->status, SW_NAGIOS_UNKNOWN);
	}
}

/* Like with like (health.h): the config keys that change what a cell
 * measures, which a baseline must share, and those people change on
 * purpose, which the status line cautions about. Cells themselves are
 * matched on pattern, size, level and hops (analysis_match_cell). */
static const char *const must_match[] = {
	"window", "distinct_buffers", "timed", "blocking_waits", "pairing", "ranks_per_node",
	"victims", "victim_size", "schedule",
};
static const char *const on_purpose[] = { "sample_time", "hops", "warmup", "design", "yield", "cpu_control" };

/* Append "key BASE vs RUN" for each key of keys[0..n) whose value differs
 * between base and r (and is not already named in buf). */
static void keys_differ(const struct sw_run *r, const struct sw_run *base, const char *const *keys, size_t n,
			char *buf, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		char vr[128], vb[128], name[64];

		if (config_format_value(&r->cfg, keys[i], vr, sizeof(vr)) ||
		    config_format_value(&base->cfg, keys[i], vb, sizeof(vb)) || !strcmp(vr, vb))
			continue;
		snprintf(name, sizeof(name), "%s ", keys[i]);
		if (strstr(buf, name))   /* named already, from another baseline run */
			continue;
		sw_appendf(buf, len, "%s%s %s vs %s", buf[0] ? ", " : "", keys[i], vb, vr);
	}
}

void health_config_check(const struct sw_run *r, const struct sw_run *const *base, int k, char *must,
			 size_t mlen, char *caution, size_t clen)
{
	must[0] = caution[0] = '\0';
	for (int j = k - 1; j >= 0; j--) {
		keys_differ(r, base[j], must_match, sizeof(must_match) / sizeof(must_match[0]), must, mlen);
		keys_differ(r, base[j], on_purpose, sizeof(on_purpose) / sizeof(on_purpose[0]), caution, clen);
		/* a random pairing pairs other ranks under another seed */
		if (r->cfg.pairing == CFG_PAIRING_RANDOM)
			keys_differ(r, base[j], (const char *const[]){ "seed" }, 1, must, mlen);
	}
}

struct health_verdict *health_judge_set(const struct sw_run *r, const struct sw_analysis *a,
					const struct sw_run *const *base, const struct sw_analysis *const *ba,
					int k, const char *set)
{
	struct judge_ctx x = { .r = r, .a = a, .base = base, .ba = ba, .k = k };
	int nc = r->plan->ncells, nb = 0;
	struct health_verdict *v = NULL;
	int *order = NULL;

	char must[200], caution[200];

	health_config_check(r, base, k, must, sizeof(must), caution, sizeof(caution));
	if (must[0])   /* unlike with like: nothing of it can be judged */
		return health_verdict_unknown(r, a, "baseline differs: %s (a run is judged only against a baseline "
					      "measured the same way)", must);
	for (int j = 0; j < k; j++)
		nb += base[j]->plan->ncells;
	v = health_verdict_new(r, (size_t)nc + (size_t)nb);
	x.used = calloc((size_t)k, sizeof(*x.used));
	x.w.yj = calloc((size_t)k, sizeof(*x.w.yj));
	x.w.nyj = calloc((size_t)k, sizeof(*x.w.nyj));
	if (!v || !x.used || !x.w.yj || !x.w.nyj)
		goto out_fail;
	for (int j = 0; j < k; j++)
		if (!(x.used[j] = calloc((size_t)base[j]->plan->ncells + 1, sizeof(bool))))
			goto out_fail;
	snprintf(v->baseline, sizeof(v->baseline), "%s", set ? set : base[k - 1]->name);
	v->baseline_set = set != NULL;
	if (caution[0]) {
		snprintf(v->caution, sizeof(v->caution), "caution: baseline differs in %.170s", caution);
		health_add_note(v, "baseline differs in %s: keys changed on purpose, but the values may move with them",
				caution);
	}
	v->base_runs = k;
	stats_init();
	for (int c = 0; c < nc; c++)
		if (judge_cell(v, &x, c))
			goto out_fail;
	baseline_only_cells(v, &x);
	if (health_grade(v))
		goto out_fail;
	if (v->nmissing)
		v->status = worse(v->status, SW_NAGIOS_UNKNOWN);
	judge_notes(v, &x);
	if (fill_suspects(v, a, ba, k))
		goto out_fail;
	/* A port newly slower than its peers (flagged in at least half of its
	 * cells, beyond min_effect) is a failing port or cable: page. One
	 * flagged in the baseline too is a known quirk, listed only. */
	for (int i = 0; i < v->nsuspects; i++)
		if (!v->suspect[i].in_baseline)
			v->status = worse(v->status, SW_NAGIOS_CRITICAL);
	if (v->ncompared == 0 && v->nfailed == 0) {
		v->status = SW_NAGIOS_UNKNOWN;
		if (!r->complete)   /* cut short before a cell had its repetitions: that is the fact */
			snprintf(v->summary, sizeof(v->summary), "run incomplete%s%s, before any cell could be "
				 "compared with baseline %s", r->failure[0] ? ": " : "", r->failure, v->baseline);
		else
			snprintf(v->summary, sizeof(v->summary), "no cell of %s can be compared with baseline %s "
				 "(other patterns, sizes or levels?)", r->name, v->baseline);
		goto out;
	}
	order = health_worst_first(v);
	if (!order)
		goto out_fail;
	summarize(v, v->ncells ? &v->cell[order[0]] : NULL);
	free(order);
out:
	for (int j = 0; x.used && j < k; j++)
		free(x.used[j]);
	free(x.used);
	free(x.w.yj);
	free(x.w.nyj);
	return v;

out_fail:
	health_verdict_free(v);
	v = NULL;
	goto out;
}

int health_add_chart(struct health_verdict *v, const struct sw_run *r, health_nights_fn nights, void *ctx,
		     char *err, size_t errlen)
{
	double lambda = r->cfg.ewma_lambda, L = r->cfg.ewma_limit;
	int drifting = 0, charted = 0, *order;

	for (int i = 0; i < v->ncells; i++) {
		struct health_cell *hc = &v->cell[i];
		double *past = NULL;
		size_t n = 0;
		double *z, *e, *lim;
		bool lat = hc->metric == HEALTH_LATENCY;

		if (!hc->compared || !hc->nightly || !(hc->night_sd > 0))
			continue;
		if (nights(hc, ctx, &past, &n, err, errlen))
			return -1;
		z = malloc(3 * (n + 1) * sizeof(double));
		if (!z) {
			free(past);
			return sw_fail(err, errlen, "out of memory");
		}
		e = z + n + 1;
		lim = e + n + 1;
		/* Each past night against today's baseline; tonight's own score
		 * also counts its noise beyond the baseline runs'. */
		for (size_t t = 0; t < n; t++) {
			double d = past[t] > 0 ? log(past[t] / hc->typical) / hc->night_sd : 0.0;

			z[t] = lat ? d : -d;
		}
		z[n] = hc->sigma;
		free(past);
		/* Each night counts at most L SDs: then one night alone, however
		 * bad, stays at or under the limit (lambda L at the first night,
		 * below it later): the chart speaks of several nights, the
		 * thresholds of one. A fault since repaired leaves it in days. */
		stats_ewma(z, n + 1, lambda, L, L, e, lim);
		hc->chart_nights = (int)n + 1;
		hc->ewma = e[n];
		hc->ewma_limit = lim[n];
		free(z);
		charted++;
		if (hc->ewma > hc->ewma_limit + 1e-9) {   /* not by rounding alone */
			hc->drift = true;
			drifting++;
			if (hc->status == SW_NAGIOS_OK) {
				hc->status = SW_NAGIOS_WARNING;
				v->nwarning++;
			}
			v->status = worse(v->status, hc->status);
		}
	}
	if (!charted)
		health_add_note(v, "no drift chart: it needs the night-to-night spread (%d baseline runs)", HEALTH_MIN_NIGHTS);
	if (drifting && (order = health_worst_first(v))) {
		summarize(v, &v->cell[order[0]]);
		free(order);
	}
	return 0;
}

struct health_verdict *health_verdict_unknown(const struct sw_run *r, const struct sw_analysis *a,
					      const char *fmt, ...)
{
	struct health_verdict *v = health_verdict_new(r, r ? (size_t)r->plan->ncells : 0);
	va_list ap;

	if (!v)
		return NULL;
	v->status = SW_NAGIOS_UNKNOWN;
	va_start(ap, fmt);
	vsnprintf(v->summary, sizeof(v->summary), fmt, ap);
	va_end(ap);
	for (int c = 0; r && c < r->plan->ncells; c++) {
		struct health_cell *hc = &v->cell[v->ncells++];

		health_cell_blank(hc);
		hc->cell = c;
		cell_key(hc, r, c);
		if (a) {
			est_from(&a->cell[c].lat, &hc->lat);
			est_from(&a->cell[c].bw, &hc->bw);
		}
	}
	if (fill_suspects(v, a, NULL, 0)) {
		health_verdict_free(v);
		return NULL;
	}
	return v;
}

void health_verdict_free(struct health_verdict *v)
{
	if (!v)
		return;
	free(v->cell);
	free(v->suspect);
	free(v);
}
