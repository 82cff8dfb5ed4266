/*
 * compare.c - swstress compare: runs through different switches side by
 * side; see compare.h for the matching rule, the metrics and the files.
 *
 * Flow: load every run (results_load), analyse each with its own config
 * (analysis_run), match cells, test each matched cell against run A
 * (the change test on per-repetition values), summarise each pattern and size at
 * the highest common load, write the verdicts. The outputs (compare_out.c)
 * only read the struct compare that compare_create fills.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "compare.h"
#include "config.h"
#include "fmt.h"
#include "mapout.h"
#include "pattern.h"
#include "results.h"
#include "sfile.h"
#include "stats.h"

#define LETTER(i) ((char)('A' + (i)))

/* ---------------------------------------------------------------- */
/* Samples                                                            */

/* One value per repetition of cell ci of r (analysis_rep_values: the
 * median over the pairs of the repetition), the unit of every test here.
 * NULL with *n = 0 when there are none or on ENOMEM. */
static double *rep_values(const struct sw_run *r, int ci, bool latency, size_t *n)
{
	double *x;

	if (analysis_rep_values(r, ci, latency ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH, &x, n))
		*n = 0, x = NULL;
	return x;
}

/* ---------------------------------------------------------------- */
/* Matching                                                           */

/* A cell with samples of run `run`, sorted by its display key. */
struct key {
	int pattern;
	uint64_t size;
	int nodes;
	long hops;               /* 0 for a run with hops = auto */
	int run, cell;
};

static struct key cell_key(const struct sw_run *r, int i, int ci)
{
	const struct sw_cell *c = &r->plan->cell[ci];

	return (struct key){ c->pattern, c->size, plan_nodes(r->plan, ci), r->cfg.nhops == 0 ? 0 : c->hops, i, ci };
}

static int key_cmp(const struct key *a, const struct key *b)
{
	if (a->pattern != b->pattern)
		return a->pattern < b->pattern ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	if (a->hops != b->hops)
		return a->hops < b->hops ? -1 : 1;
	if (a->nodes != b->nodes)
		return a->nodes < b->nodes ? -1 : 1;
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	return 0;
}

static int key_qcmp(const void *a, const void *b)
{
	return key_cmp(a, b);
}

/* The cell of run x with samples that matches key k (the one rule,
 * analysis_match_cell), not taken by another key yet; or -1. */
static int find_cell(const struct compare *c, int x, const struct key *k, bool *const *used)
{
	int ci = x == k->run ? k->cell : analysis_match_cell(c->run[k->run], k->cell, c->run[x], used[x]);

	return ci >= 0 && c->an[x]->cell[ci].lat.n > 0 ? ci : -1;
}

static void fill_value(struct compare_value *v, const struct sw_cell_stats *cs, bool latency)
{
	const struct stats_summary *s = latency ? &cs->lat : &cs->bw;

	*v = (struct compare_value){ s->n, s->median, s->med_lo, s->med_hi, s->med_ci_ok };
}

/* Every cell with samples of every run, in key order: matched in all
 * runs (c->cells) or listed as unmatched; a cell belongs to one of them. */
static int match_cells(struct compare *c, char *err, size_t errlen)
{
	size_t nkeys = 0, cap = 0;
	struct key *keys = NULL;
	bool *used[COMPARE_MAX_RUNS] = { NULL };
	int rc = -1;

	for (int i = 0; i < c->nruns; i++)
		cap += (size_t)c->run[i]->plan->ncells;
	keys = malloc((cap ? cap : 1) * sizeof(*keys));
	c->cells = calloc(cap ? cap : 1, sizeof(*c->cells));
	c->unmatched = calloc(cap ? cap : 1, sizeof(*c->unmatched));
	bool oom = !keys || !c->cells || !c->unmatched;

	for (int i = 0; i < c->nruns; i++)
		oom |= !(used[i] = calloc((size_t)c->run[i]->plan->ncells + 1, sizeof(bool)));
	if (oom) {
		sw_fail(err, errlen, "out of memory");
		goto out_free;
	}
	for (int i = 0; i < c->nruns; i++)
		for (int ci = 0; ci < c->run[i]->plan->ncells; ci++)
			if (c->an[i]->cell[ci].lat.n > 0)
				keys[nkeys++] = cell_key(c->run[i], i, ci);
	qsort(keys, nkeys, sizeof(*keys), key_qcmp);
	for (size_t k = 0; k < nkeys; k++) {
		int where[COMPARE_MAX_RUNS], found = 0;

		if (used[keys[k].run][keys[k].cell])
			continue;   /* matched from an earlier key */
		for (int i = 0; i < c->nruns; i++) {
			where[i] = find_cell(c, i, &keys[k], used);
			found += where[i] >= 0;
		}
		for (int i = 0; i < c->nruns; i++)
			if (where[i] >= 0)
				used[i][where[i]] = true;
		if (found < c->nruns) {
			struct compare_unmatched *u = &c->unmatched[c->nunmatched++];

			*u = (struct compare_unmatched){ keys[k].pattern, keys[k].size, keys[k].nodes, keys[k].hops, { 0 } };
			for (int i = 0; i < c->nruns; i++)
				u->present[i] = where[i] >= 0;
			continue;
		}
		struct compare_cell *m = &c->cells[c->ncells++];

		memset(m, 0, sizeof(*m));
		m->pattern = keys[k].pattern;
		m->size = keys[k].size;
		m->nodes = keys[k].nodes;
		m->hops = keys[k].hops;
		m->latency = pattern_latency_metric(m->pattern);
		for (int i = 0; i < c->nruns; i++) {
			m->cell[i] = where[i];
			fill_value(&m->v[i], &c->an[i]->cell[where[i]], m->latency);
		}
	}
	for (int j = 0, nshort = 0; j < c->ncells; j++) {
		bool low = false;

		for (int i = 0; i < c->nruns; i++)
			low |= c->an[i]->cell[c->cells[j].cell[i]].below_floor;
		if (low && nshort++ == 0)
			SW_NOTE(c->notes, c->nnotes, "matched cells below the sample floor in some run (most samples "
				"under %d messages, %d windows or %d round trips): shown, never significant",
				ANALYSIS_FLOOR_MSGS, ANALYSIS_FLOOR_WINDOWS, ANALYSIS_FLOOR_TRIPS);
	}
	rc = 0;
out_free:
	free(keys);
	for (int i = 0; i < c->nruns; i++)
		free(used[i]);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Summary and verdicts                                               */

static void fill_level(struct compare *c, struct compare_summary_row *row, int i)
{
	struct compare_level *l = &row->run[i];
	const struct sw_cell_stats *cs = &c->an[i]->cell[row->run[i].cell];

	l->valid = true;
	l->runs = 1;
	l->lat = cs->lat.median;
	l->lat_lo = cs->lat.med_lo;
	l->lat_hi = cs->lat.med_hi;
	l->agg = cs->agg.n ? cs->agg.median : NAN;
	l->agg_lo = cs->agg.n ? cs->agg.med_lo : NAN;
	l->agg_hi = cs->agg.n ? cs->agg.med_hi : NAN;
	l->change = pattern_latency_metric(row->pattern) ? cs->inflation : cs->drop;
}

static int summarise(struct compare *c, char *err, size_t errlen)
{
	c->summary = calloc((size_t)(c->ncells ? c->ncells : 1), sizeof(*c->summary));
	if (!c->summary)
		return sw_fail(err, errlen, "out of memory");
	/* cells are sorted by pattern, size, hops, nodes: the last of each
	 * group is the highest load every run reached. */
	for (int k = 0; k < c->ncells; k++) {
		const struct compare_cell *m = &c->cells[k], *next = k + 1 < c->ncells ? &c->cells[k + 1] : NULL;

		if (next && next->pattern == m->pattern && next->size == m->size && next->hops == m->hops)
			continue;
		struct compare_summary_row *row = &c->summary[c->nsummary++];

		memset(row, 0, sizeof(*row));
		row->pattern = m->pattern;
		row->size = m->size;
		row->hops = m->hops;
		row->nodes = m->nodes;
		row->cmp = k;
		for (int i = 0; i < c->nruns; i++) {
			row->run[i].cell = m->cell[i];
			fill_level(c, row, i);
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* Statements: a switch against A's                                   */

/* A change in percent (> 0 worse) from its log-scale value y (> 0 worse):
 * latency e^y - 1, bandwidth 1 - e^-y (change_log's inverse). */
static double pct_of(bool latency, double y)
{
	return (latency ? expm1(y) : -expm1(-y)) * 100.0;
}

/* The runs of switch s that count (copies once) into idx; their number. */
static int members(const struct compare *c, int s, int *idx)
{
	int n = 0;

	for (int i = 0; i < c->nruns; i++)
		if (c->sw[i] == s && c->copy_of[i] < 0)
			idx[n++] = i;
	return n;
}

/* Runs as the unit, values on the log scale (> 0 worse): Welch's t with 2
 * or more a side (stats_runs_welch), Student's t with the variance of the
 * other side when one side has a single run. 0, or -1 (fewer than 3
 * runs, or a value not finite). */
static int runs_test(const double *a, int na, const double *b, int nb, double confidence,
		     struct stats_interval *iv)
{
	double ea[COMPARE_MAX_RUNS], eb[COMPARE_MAX_RUNS], ma = 0, mb = 0, ss = 0;

	for (int i = 0; i < na; i++)
		if (!isfinite(a[i]))
			return -1;
	for (int i = 0; i < nb; i++)
		if (!isfinite(b[i]))
			return -1;
	if (na >= 2 && nb >= 2) {
		for (int i = 0; i < na; i++)
			ea[i] = exp(a[i]);
		for (int i = 0; i < nb; i++)
			eb[i] = exp(b[i]);
		return stats_runs_welch(ea, (size_t)na, eb, (size_t)nb, 0.0, confidence, iv);
	}
	if (na < 1 || nb < 1 || na + nb < 3)
		return -1;
	for (int i = 0; i < na; i++)
		ma += a[i] / na;
	for (int i = 0; i < nb; i++)
		mb += b[i] / nb;
	for (int i = 0; i < na; i++)
		ss += (a[i] - ma) * (a[i] - ma);
	for (int i = 0; i < nb; i++)
		ss += (b[i] - mb) * (b[i] - mb);
	double df = na + nb - 2;

	if (stats_interval_set(iv, mb - ma, sqrt(ss / df * (1.0 / na + 1.0 / nb)), df, 0.0, confidence))
		return -1;
	iv->n = (size_t)(na + nb);
	return 0;
}

/* The statement's log-scale values from an interval. */
static void stmt_from(struct compare_stmt *st, const struct stats_interval *iv)
{
	st->valid = true;
	st->runs = true;
	st->d = iv->d;
	st->lo = iv->lo;
	st->hi = iv->hi;
	st->p = iv->p;
}

/* Switch x against A's in matched cell m: the level (%worse). */
static int cell_stmt(struct compare *c, struct compare_cell *m, int x)
{
	int ia[COMPARE_MAX_RUNS], ix[COMPARE_MAX_RUNS];
	int na = members(c, c->sw[0], ia), nx = members(c, x, ix);
	struct compare_stmt *st = &m->s[x];
	double a[COMPARE_MAX_RUNS], b[COMPARE_MAX_RUNS];
	struct stats_interval iv;
	double sg = m->latency ? 1.0 : -1.0;

	memset(st, 0, sizeof(*st));
	st->p = st->p_adj = NAN;
	st->na = na;
	st->nx = nx;
	if (na < 1 || nx < 1)
		return 0;
	for (int k = 0; k < na; k++) {
		a[k] = sg * log(m->v[ia[k]].median);
		st->short_cell |= c->an[ia[k]]->cell[m->cell[ia[k]]].below_floor;
	}
	for (int k = 0; k < nx; k++) {
		b[k] = sg * log(m->v[ix[k]].median);
		st->short_cell |= c->an[ix[k]]->cell[m->cell[ix[k]]].below_floor;
	}
	if (na + nx >= 3) {
		if (runs_test(a, na, b, nx, c->confidence, &iv) == 0)
			stmt_from(st, &iv);
	} else {   /* one run a side: its repetitions, the allowance later */
		size_t n0, n1;
		const int metric = m->latency ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH;
		double *v0 = rep_values(c->run[ia[0]], m->cell[ia[0]], m->latency, &n0);
		double *v1 = rep_values(c->run[ix[0]], m->cell[ix[0]], m->latency, &n1);
		struct sw_config cfg = c->run[0]->cfg;
		struct sw_change ch;
		int rc = 0;

		if (!v0 || !v1)
			rc = -1;
		cfg.confidence = c->confidence;
		cfg.alpha = c->alpha;
		cfg.min_effect = c->min_effect;
		if (!rc) {
			change_test(v1, n1, v0, n0, metric, &cfg, &ch);
			if (ch.valid) {
				st->valid = true;
				st->d = change_log(metric, ch.pct);
				st->lo = change_log(metric, ch.lo);
				st->hi = change_log(metric, ch.hi);
				st->p = ch.p;
			}
		}
		free(v0);
		free(v1);
		if (rc)
			return -1;
	}
	if (st->valid) {
		st->pct = pct_of(m->latency, st->d);
		st->pct_lo = pct_of(m->latency, st->lo);
		st->pct_hi = pct_of(m->latency, st->hi);
	}
	return 0;
}

/* Switch x against A's in summary row r: the difference of the
 * degradations, in points at A's degradation. */
static int row_stmt(struct compare *c, struct compare_summary_row *r, int x)
{
	int ia[COMPARE_MAX_RUNS], ix[COMPARE_MAX_RUNS];
	int na = members(c, c->sw[0], ia), nx = members(c, x, ix);
	bool latency = pattern_latency_metric(r->pattern);
	const int metric = latency ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH;
	struct compare_stmt *st = &r->s[x];
	double a[COMPARE_MAX_RUNS], b[COMPARE_MAX_RUNS], ya = 0;
	struct stats_interval iv;

	memset(st, 0, sizeof(*st));
	st->p = st->p_adj = NAN;
	st->na = na;
	st->nx = nx;
	if (na < 1 || nx < 1)
		return 0;
	for (int k = 0; k < na + nx; k++) {
		int i = k < na ? ia[k] : ix[k - na];
		const struct compare_level *l = &r->run[i];
		const struct sw_cell_stats *cs = &c->an[i]->cell[l->cell];

		if (!l->change.valid)
			return 0;
		st->short_cell |= cs->below_floor || (cs->baseline >= 0 && c->an[i]->cell[cs->baseline].below_floor);
		if (k < na)
			a[k] = change_log(metric, l->change.pct);
		else
			b[k - na] = change_log(metric, l->change.pct);
	}
	for (int k = 0; k < na; k++)
		ya += a[k] / na;
	if (na + nx >= 3) {
		if (runs_test(a, na, b, nx, c->confidence, &iv) == 0)
			stmt_from(st, &iv);
	} else {   /* one run a side: its repetitions (change_diff) */
		int cells[4] = { r->run[ia[0]].cell, r->run[ia[0]].cell, r->run[ix[0]].cell, r->run[ix[0]].cell };
		const int who[4] = { ia[0], ia[0], ix[0], ix[0] };
		double *set[4] = { NULL };
		size_t n[4] = { 0 };
		struct sw_config cfg = c->run[0]->cfg;
		struct sw_change d;
		int rc = 0;

		cells[0] = c->an[ia[0]]->cell[cells[0]].baseline;
		cells[2] = c->an[ix[0]]->cell[cells[2]].baseline;
		for (int i = 0; i < 4; i++)
			if (!(set[i] = rep_values(c->run[who[i]], cells[i], latency, &n[i])))
				rc = -1;
		cfg.confidence = c->confidence;
		cfg.alpha = c->alpha;
		cfg.min_effect = c->min_effect;
		if (!rc) {
			change_diff((const double *const *)set, n, metric, &cfg, &d);
			if (d.valid) {
				double pa = r->run[ia[0]].change.pct;

				st->valid = true;
				st->d = change_log(metric, pa + d.pct) - ya;
				st->lo = change_log(metric, pa + d.lo) - ya;
				st->hi = change_log(metric, pa + d.hi) - ya;
				st->p = d.p;
			}
		}
		for (int i = 0; i < 4; i++)
			free(set[i]);
		if (rc)
			return -1;
	}
	if (st->valid) {
		st->pct = pct_of(latency, ya + st->d) - pct_of(latency, ya);
		st->pct_lo = pct_of(latency, ya + st->lo) - pct_of(latency, ya);
		st->pct_hi = pct_of(latency, ya + st->hi) - pct_of(latency, ya);
	}
	return 0;
}

/* Significant by the one rule (compare.h), once its family set p_adj. */
static void judge_stmt(const struct compare *c, struct compare_stmt *st)
{
	st->significant = st->valid && st->tested && isfinite(st->p_adj) && st->p_adj < c->alpha &&
			  (st->pct_lo > 0.0 || st->pct_hi < 0.0) && fabs(st->pct) > c->min_effect && !st->short_cell &&
			  (st->runs || stats_beyond(st->lo, st->hi, c->allow) != 0);
}

/* Holm over the statements st[0..n) (stats_holm), then each judged.
 * -1 on ENOMEM. */
static int family(const struct compare *c, struct compare_stmt **st, size_t n)
{
	double *p = malloc((n ? n : 1) * 2 * sizeof(*p)), *adj;

	if (!p)
		return -1;
	adj = p + (n ? n : 1);
	for (size_t k = 0; k < n; k++)
		p[k] = st[k]->valid ? st[k]->p : NAN;
	if (n && stats_holm(p, n, adj)) {
		free(p);
		return -1;
	}
	for (size_t k = 0; k < n; k++) {
		st[k]->tested = st[k]->valid && isfinite(st[k]->p);
		st[k]->p_adj = adj[k];
		judge_stmt(c, st[k]);
	}
	free(p);
	return 0;
}

/* The gate of switch x against A's (compare.h): the first family (the
 * summary rows, degradation and level), then, only when one of them is
 * significant, the other cells. -1 on ENOMEM. */
static int gate(struct compare *c, int x)
{
	struct compare_stmt **st = malloc(((size_t)c->ncells + 2 * (size_t)c->nsummary + 1) * sizeof(*st));
	size_t n = 0;
	bool open = false;

	if (!st)
		return -1;
	for (int k = 0; k < c->nsummary; k++) {
		st[n++] = &c->summary[k].s[x];
		st[n++] = &c->cells[c->summary[k].cmp].s[x];
	}
	if (family(c, st, n)) {
		free(st);
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		open |= st[k]->significant;
	n = 0;
	for (int k = 0; k < c->ncells; k++)
		if (!c->cells[k].top)
			st[n++] = &c->cells[k].s[x];
	if (open && family(c, st, n)) {
		free(st);
		return -1;
	}
	free(st);
	return 0;
}

/* Switch s's value in matched cell m: one run's median [CI], or the
 * geometric mean of its runs' medians with their range. */
static void switch_value(const struct compare *c, struct compare_cell *m, int s)
{
	int idx[COMPARE_MAX_RUNS], n = members(c, s, idx);
	struct compare_value *v = &m->sv[s];
	double sum = 0;

	if (n == 0) {
		*v = (struct compare_value){ 0, NAN, NAN, NAN, false };
		return;
	}
	if (n == 1) {
		*v = m->v[idx[0]];
		return;
	}
	*v = (struct compare_value){ 0, NAN, INFINITY, -INFINITY, false };
	for (int k = 0; k < n; k++) {
		const struct compare_value *r = &m->v[idx[k]];

		v->n += r->n;
		sum += log(r->median) / n;
		v->lo = fmin(v->lo, r->median);
		v->hi = fmax(v->hi, r->median);
	}
	v->median = exp(sum);
}

/* Switch s's row in summary row r: one run's, or its runs pooled: the
 * geometric means of their latency and aggregate, the mean of their
 * degradations' log ratios with its t CI over the runs. */
static void switch_level(const struct compare *c, struct compare_summary_row *r, int s)
{
	int idx[COMPARE_MAX_RUNS], n = members(c, s, idx);
	struct compare_level *l = &r->sw[s];
	bool latency = pattern_latency_metric(r->pattern);
	const int metric = latency ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH;
	double y[COMPARE_MAX_RUNS], lat = 0, agg = 0, my = 0, ss = 0;
	bool valid = true;
	struct stats_interval iv;

	memset(l, 0, sizeof(*l));
	change_invalid(&l->change);
	l->lat = l->lat_lo = l->lat_hi = l->agg = l->agg_lo = l->agg_hi = NAN;
	l->cell = -1;
	if (n == 0)
		return;
	if (n == 1) {
		*l = r->run[idx[0]];
		l->runs = 1;
		return;
	}
	l->valid = true;
	l->runs = n;
	l->cell = r->run[idx[0]].cell;
	for (int k = 0; k < n; k++) {
		const struct compare_level *rk = &r->run[idx[k]];

		lat += log(rk->lat) / n;
		agg += log(rk->agg) / n;
		valid &= rk->change.valid;
		y[k] = rk->change.valid ? change_log(metric, rk->change.pct) : NAN;
		my += y[k] / n;
	}
	l->lat = exp(lat);
	l->agg = exp(agg);
	if (!valid || !isfinite(my))
		return;
	for (int k = 0; k < n; k++)
		ss += (y[k] - my) * (y[k] - my);
	l->change.valid = true;
	l->change.pct = pct_of(latency, my);
	if (stats_interval_set(&iv, my, sqrt(ss / (n - 1) / n), n - 1, 0.0, c->confidence) == 0) {
		l->change.lo = pct_of(latency, iv.lo);
		l->change.hi = pct_of(latency, iv.hi);
		l->change.p = iv.p;
		l->change.significant = iv.p < c->alpha && (l->change.lo > 0 || l->change.hi < 0) &&
					fabs(l->change.pct) > c->min_effect;
	}
}

/* Every switch's values and statements, then the gate of each pair. */
static int statements(struct compare *c, char *err, size_t errlen)
{
	for (int k = 0; k < c->nsummary; k++)
		c->cells[c->summary[k].cmp].top = true;
	for (int s = 0; s < c->nruns; s++) {
		if (c->sw[s] != s)
			continue;
		for (int k = 0; k < c->ncells; k++)
			switch_value(c, &c->cells[k], s);
		for (int k = 0; k < c->nsummary; k++)
			switch_level(c, &c->summary[k], s);
		if (s == c->sw[0])
			continue;
		for (int k = 0; k < c->ncells; k++)
			if (cell_stmt(c, &c->cells[k], s))
				return sw_fail(err, errlen, "out of memory");
		for (int k = 0; k < c->nsummary; k++)
			if (row_stmt(c, &c->summary[k], s))
				return sw_fail(err, errlen, "out of memory");
		if (gate(c, s))
			return sw_fail(err, errlen, "out of memory");
	}
	return 0;
}

/* "at every size", "at every size from 64 KiB up", "at 8 B and 1 KiB". */
static void describe_sizes(char *buf, size_t len, const uint64_t *size, const bool *flag, int n)
{
	int cnt = 0, first = -1, last = -1;
	char s[32];

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		if (flag[i]) {
			cnt++;
			last = i;
			if (first < 0)
				first = i;
		}
	if (cnt == 0)
		return;
	if (cnt == n) {
		snprintf(buf, len, n == 1 ? "at the one size measured" : "at every size");
		return;
	}
	if (cnt >= 2 && last - first + 1 == cnt && last == n - 1) {
		config_format_size_spaced(size[first], s, sizeof(s));
		snprintf(buf, len, "at every size from %s up", s);
		return;
	}
	if (cnt >= 2 && last - first + 1 == cnt && first == 0) {
		config_format_size_spaced(size[last], s, sizeof(s));
		snprintf(buf, len, "at every size up to %s", s);
		return;
	}
	snprintf(buf, len, "at ");
	for (int i = 0, k = 0; i < n; i++) {
		if (!flag[i])
			continue;
		config_format_size_spaced(size[i], s, sizeof(s));
		sw_appendf(buf, len, "%s%s", k == 0 ? "" : k == cnt - 1 ? " and " : ", ", s);
		k++;
	}
}

static void bound(char *buf, size_t len, double x)
{
	if (x <= -999.95)
		snprintf(buf, len, "<-999");
	else if (x >= 999.95)
		snprintf(buf, len, ">+999");
	else
		snprintf(buf, len, "%+.1f", x);
}

char *compare_ci(char *buf, size_t len, double lo, double hi)
{
	char a[16], b[16];

	bound(a, sizeof(a), lo);
	bound(b, sizeof(b), hi);
	snprintf(buf, len, " [%s, %s]", a, b);
	return buf;
}

static const char *run_label(const struct sw_run *r);

const char *compare_switch_name(const struct compare *c, int i)
{
	const struct sw_run *r = c->run[c->sw[i]];

	if (c->run[i]->cfg.model[0])
		return c->run[i]->cfg.model;
	return r->cfg.model[0] ? r->cfg.model : run_label(r);
}

/* The runs behind a pair's statements: "3 runs each", "3 runs of SwB, 2
 * of SwA", or one run a side and the allowance. */
static void runs_clause(const struct compare *c, const struct compare_stmt *st, int x, char *t, size_t len)
{
	if (st->na == 1 && st->nx == 1)
		snprintf(t, len, "1 run a side: only a difference beyond +-%.1f%% (run_to_run %g%%) counts",
			 c->allow * 100.0, c->run[0]->cfg.run_to_run);
	else if (st->na == st->nx)
		snprintf(t, len, "%d runs each", st->na);
	else
		snprintf(t, len, "%d run%s of %s, %d of %s", st->nx, st->nx == 1 ? "" : "s", compare_switch_name(c, x),
			 st->na, compare_switch_name(c, 0));
}

/* A level statement as words: worse in percent, better as the ratio of
 * the values ("2.0x A's"), so a switch twice as fast reads as such. */
static void level_words(const struct compare *c, const struct compare_stmt *st, bool latency, char *t, size_t len)
{
	const char *what = latency ? "per-hop latency" : "per-pair bandwidth", *a = compare_switch_name(c, 0);
	char ci[48];

	if (!st->valid) {
		snprintf(t, len, "%s: no value to compare", what);
		return;
	}
	if (st->pct >= 0.05) {
		snprintf(t, len, "%s %.1f%% %s than %s's", what, st->pct, latency ? "higher" : "lower", a);
		if (isfinite(st->pct_lo) && isfinite(st->pct_hi))
			sw_appendf(t, len, "%s", compare_ci(ci, sizeof(ci), st->pct_lo, st->pct_hi));
	} else if (st->pct <= -0.05) {
		/* the ratio X / A of the values: e^{+-d}; a small gain in percent */
		double r = exp(latency ? st->d : -st->d), rlo = exp(latency ? st->lo : -st->hi),
		       rhi = exp(latency ? st->hi : -st->lo);

		if (latency ? r > 2.0 / 3.0 : r < 1.5) {
			snprintf(t, len, "%s %.1f%% %s than %s's", what, -st->pct, latency ? "lower" : "higher", a);
			if (isfinite(st->pct_lo) && isfinite(st->pct_hi))
				sw_appendf(t, len, "%s", compare_ci(ci, sizeof(ci), -st->pct_hi, -st->pct_lo));
		} else {
			snprintf(t, len, "%s %.2fx %s's", what, r, a);
			if (isfinite(rlo) && isfinite(rhi))
				sw_appendf(t, len, " [%.2fx, %.2fx]", rlo, rhi);
			if (latency)
				sw_appendf(t, len, " (%.0f%% less)", -st->pct);
		}
	} else
		snprintf(t, len, "%s alike", what);
	sw_appendf(t, len, ", %s", st->significant ? "significant" : "not significant");
}

/* The answer of switch x against A's in pattern pat (rows[0..nrows) of
 * the summary, rep the row stated): one sentence. */
static void headline(const struct compare *c, int x, const int *rows, int nrows, int rep, char *t, size_t len)
{
	const struct compare_summary_row *r = &c->summary[rows[rep]];
	const struct compare_stmt *st = &r->s[x];
	const char *xn = compare_switch_name(c, x), *an = compare_switch_name(c, 0);
	bool latency = pattern_latency_metric(r->pattern);
	char sz[32], w[256], rc[320], ci[48];
	uint64_t sizes[SW_MAX_LIST * 4];
	bool also[SW_MAX_LIST * 4];

	config_format_size_spaced(r->size, sz, sizeof(sz));
	snprintf(t, len, "%s %s at %d nodes: ", pattern_name(r->pattern), sz, r->nodes);
	if (!st->valid)
		sw_appendf(t, len, "%s against %s: no degradation to compare", xn, an);
	else {
		bool more = st->pct > 0;

		if (fabs(st->pct) < 0.05)
			sw_appendf(t, len, "%s and %s degrade alike", xn, an);
		else
			sw_appendf(t, len, "%s degrades %.1f points %s than %s", xn, fabs(st->pct), more ? "more" : "less", an);
		if (isfinite(st->pct_lo) && isfinite(st->pct_hi))
			sw_appendf(t, len, "%s", compare_ci(ci, sizeof(ci), more ? st->pct_lo : -st->pct_hi,
							     more ? st->pct_hi : -st->pct_lo));
		else
			sw_appendf(t, len, " [CI n/a]");
		sw_appendf(t, len, ", %s", st->significant ? "significant" : "not significant");
	}
	level_words(c, &c->cells[r->cmp].s[x], latency, w, sizeof(w));
	sw_appendf(t, len, "; %s", w);
	for (int k = 0; k < nrows; k++) {
		const struct compare_stmt *sk = &c->summary[rows[k]].s[x];

		sizes[k] = c->summary[rows[k]].size;
		also[k] = k != rep && st->significant && sk->significant && (sk->pct > 0) == (st->pct > 0);
	}
	describe_sizes(w, sizeof(w), sizes, also, nrows);
	if (w[0])
		sw_appendf(t, len, "; the degradation difference is significant %s too", w + 3 * !strncmp(w, "at every", 8));
	runs_clause(c, st, x, rc, sizeof(rc));
	sw_appendf(t, len, "; %s", rc);
	if (c->caution[0])
		sw_appendf(t, len, "; caution, the runs differ in what they measure: %s", c->caution);
}

/* The paragraph of switch x against A's in pattern pat: every size at the
 * highest load, then the cells below it and the gate. */
static void pair_text(const struct compare *c, int x, const int *rows, int nrows, char *t, size_t len)
{
	const char *xn = compare_switch_name(c, x), *an = compare_switch_name(c, 0);
	const struct compare_summary_row *r0 = &c->summary[rows[0]];
	bool latency = pattern_latency_metric(r0->pattern);
	uint64_t sizes[SW_MAX_LIST * 4];
	bool flag[4][SW_MAX_LIST * 4];
	char d[4][160], rc[320];
	int sig = 0, tested = 0, lower = 0;

	for (int k = 0; k < nrows; k++) {
		const struct compare_summary_row *r = &c->summary[rows[k]];
		const struct compare_stmt *g = &r->s[x], *l = &c->cells[r->cmp].s[x];

		sizes[k] = r->size;
		flag[0][k] = g->significant && g->pct > 0;
		flag[1][k] = g->significant && g->pct < 0;
		flag[2][k] = l->significant && l->pct > 0;
		flag[3][k] = l->significant && l->pct < 0;
	}
	for (int i = 0; i < 4; i++)
		describe_sizes(d[i], sizeof(d[i]), sizes, flag[i], nrows);
	runs_clause(c, &r0->s[x], x, rc, sizeof(rc));
	snprintf(t, len, "%s against %s at %d nodes (%s%s): ", xn, an, r0->nodes, rc,
		 r0->s[x].runs ? ", runs as the unit" : "");
	if (d[0][0] || d[1][0]) {
		if (d[0][0])
			sw_appendf(t, len, "%s degrades significantly more %s", xn, d[0]);
		if (d[0][0] && d[1][0])
			sw_appendf(t, len, " and ");
		if (d[1][0])
			sw_appendf(t, len, "%sdegrades significantly less %s", d[0][0] ? "" : xn, d[1]);
		sw_appendf(t, len, ". ");
	} else
		sw_appendf(t, len, "no significant difference in degradation at any size. ");
	if (d[2][0] || d[3][0]) {
		sw_appendf(t, len, "Its %s is significantly ", latency ? "per-hop latency" : "per-pair bandwidth");
		if (d[2][0])
			sw_appendf(t, len, "%s %s", latency ? "higher" : "lower", d[2]);
		if (d[2][0] && d[3][0])
			sw_appendf(t, len, " and ");
		if (d[3][0])
			sw_appendf(t, len, "%s %s", latency ? "lower" : "higher", d[3]);
		sw_appendf(t, len, ". ");
	} else
		sw_appendf(t, len, "No significant difference in %s at that load. ",
			   latency ? "per-hop latency" : "per-pair bandwidth");
	for (int k = 0; k < c->ncells; k++) {
		const struct compare_cell *m = &c->cells[k];

		if (m->top || m->pattern != r0->pattern)
			continue;
		tested += m->s[x].tested;
		sig += m->s[x].significant;
		lower++;
	}
	if (lower && tested && sig)
		sw_appendf(t, len, "Lower loads (Holm over their %d cells): %d significantly different.", lower, sig);
	else if (lower && tested)
		sw_appendf(t, len, "Lower loads (Holm over their %d cells): no significant difference.", lower);
	else if (lower)
		sw_appendf(t, len, "Lower loads: not tested (the highest load shows no significant difference).");
}

/* The verdicts: for each pattern and each switch against A's, its
 * headline on the representative row (the row whose statement is most
 * significant; else the largest size for bandwidth, the smallest for
 * latency) and its paragraph. With one switch, a verdict per pattern
 * that says so. */
static int verdicts(struct compare *c, char *err, size_t errlen)
{
	c->verdict = calloc((size_t)pattern_count() * (size_t)c->nruns, sizeof(*c->verdict));
	if (!c->verdict)
		return sw_fail(err, errlen, "out of memory");
	for (int p = 0; p < pattern_count(); p++) {
		int rows[SW_MAX_LIST * 4], nrows = 0;

		for (int i = 0; i < c->nsummary && nrows < (int)(sizeof(rows) / sizeof(rows[0])); i++)
			if (c->summary[i].pattern == p)
				rows[nrows++] = i;
		if (nrows == 0)
			continue;
		if (c->nswitches < 2) {
			struct compare_verdict *v = &c->verdict[c->nverdicts++];

			v->pattern = p;
			v->x = 0;
			snprintf(v->headline, sizeof(v->headline), "%s: every run is of one switch (%s, %d run%s): no other "
				 "switch to compare; the runs' differences are run-to-run spread", pattern_name(p),
				 compare_switch_name(c, 0), c->sw_runs[0], c->sw_runs[0] == 1 ? "" : "s");
			snprintf(v->text, sizeof(v->text), "%s", v->headline);
			continue;
		}
		for (int x = 1; x < c->nruns; x++) {
			struct compare_verdict *v;
			int rep = pattern_latency_metric(p) ? 0 : nrows - 1;
			double best = INFINITY;

			if (c->sw[x] != x || c->sw[x] == c->sw[0])
				continue;
			for (int k = 0; k < nrows; k++) {
				const struct compare_stmt *g = &c->summary[rows[k]].s[x];

				if (g->significant && g->p_adj < best)
					best = g->p_adj, rep = k;
			}
			for (int k = 0; k < nrows && !isfinite(best); k++) {
				const struct compare_stmt *l = &c->cells[c->summary[rows[k]].cmp].s[x];

				if (l->significant && l->p_adj < best)
					best = l->p_adj, rep = k;
			}
			v = &c->verdict[c->nverdicts++];
			v->pattern = p;
			v->x = x;
			headline(c, x, rows, nrows, rep, v->headline, sizeof(v->headline));
			pair_text(c, x, rows, nrows, v->text, sizeof(v->text));
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* Maps                                                               */

static bool is_map(const struct sw_run *r)
{
	return r->cfg.schedule == CFG_SCHEDULE_MAP;
}

/* Every run a map or every run a sweep; else one error naming both
 * folders. */
static int same_kind(struct sw_run *const *runs, const char *const *dirs, int n, char *err, size_t errlen)
{
	for (int i = 1; i < n; i++)
		if (is_map(runs[i]) != is_map(runs[0])) {
			int m = is_map(runs[0]) ? 0 : i, w = m ? 0 : i;

			return sw_fail(err, errlen, "%s is a fabric map (schedule = map) and %s a sweep: compare takes "
				       "maps on every side or sweeps on every side",
				       dirs && dirs[m] ? dirs[m] : runs[m]->name, dirs && dirs[w] ? dirs[w] : runs[w]->name);
		}
	return 0;
}

/* The headline of map comparison k: which switch's fabric is slower, by
 * how much [CI], significant or not, the runs a side. */
static void map_headline(const struct compare *c, const struct compare_map *cm, char *t, size_t len)
{
	const struct mapcmp *m = &cm->m;
	enum fmt_unit u = m->metric == BLAME_LATENCY ? FMT_TIME : FMT_BW;
	char sz[32], ci[64], va[48], vx[48];
	bool slower = m->change.pct > 0;
	double sg = slower ? 1 : -1;   /* the CI of what the line says */

	config_format_size_spaced(cm->size, sz, sizeof(sz));
	snprintf(t, len, "%s %s map: ", pattern_name(cm->pattern), sz);
	if (!m->change.valid) {
		sw_appendf(t, len, "no fabric-wide value to compare");
		return;
	}
	if (isfinite(m->change.lo))
		snprintf(ci, sizeof(ci), " [%+.1f, %+.1f]", sg * (slower ? m->change.lo : m->change.hi),
			 sg * (slower ? m->change.hi : m->change.lo));
	else
		snprintf(ci, sizeof(ci), " [CI n/a: fewer than %d blocks a side]", CHANGE_MIN_REPS);
	if (fabs(m->change.pct) < 0.05)
		sw_appendf(t, len, "%s's and %s's fabrics alike%s", compare_switch_name(c, cm->x), compare_switch_name(c, 0), ci);
	else
		sw_appendf(t, len, "%s's fabric is %.1f%% %s than %s's%s", compare_switch_name(c, cm->x), fabs(m->change.pct),
			   slower ? "slower" : "faster", compare_switch_name(c, 0), ci);
	sw_appendf(t, len, " (median %s: %s %s, %s %s), %s", m->runs_unit ? "run" : "block", compare_switch_name(c, cm->x),
		   fmt_val(vx, sizeof(vx), u, m->change.level), compare_switch_name(c, 0), fmt_val(va, sizeof(va), u, m->change.base),
		   mapcmp_significant(m) ? "significant" : "not significant");
	if (m->runs_unit)
		sw_appendf(t, len, "; %d runs of %s, %d of %s", m->nx, compare_switch_name(c, cm->x), m->na, compare_switch_name(c, 0));
	else
		sw_appendf(t, len, "; %d run%s of %s, %d of %s (a difference counts only beyond +-%.1f%%)", m->nx,
			   m->nx == 1 ? "" : "s", compare_switch_name(c, cm->x), m->na, compare_switch_name(c, 0), c->allow * 100.0);
}

/* The hosts of one direction ("node05 0.70x (15 of 15 partners)", ...). */
static void map_hosts(const struct compare *c, const struct compare_map *cm, int dir, char *t, size_t len)
{
	const struct mapcmp *m = &cm->m;
	const struct blame_result *ra = &c->blame[cm->ps * c->nruns];
	int shown = 0;

	for (int i = 0; i < m->nhost; i++) {
		const struct mapcmp_host *h = &m->host[i];

		if (h->claim != dir)
			continue;
		if (shown++ == 8) {
			sw_appendf(t, len, ", ...");
			break;
		}
		sw_appendf(t, len, "%s%s %.3gx", shown > 1 ? ", " : "", ra->host[h->a].name, h->rel);
		if (!m->runs_unit)
			sw_appendf(t, len, " (%d of %d partners)", dir < 0 ? h->slower : h->faster, h->n);
	}
	if (!shown)
		sw_appendf(t, len, "none");
}

/* The paragraph of map comparison k. */
static void map_text(const struct compare *c, const struct compare_map *cm, char *t, size_t len)
{
	const struct mapcmp *m = &cm->m;
	const char *x = compare_switch_name(c, cm->x), *a = compare_switch_name(c, 0);
	int shown = 0;

	t[0] = '\0';
	if (m->runs_unit)
		sw_appendf(t, len, "Fabric-wide, runs as the unit (Welch's t on the logs of each run's median link, %d runs "
			   "of %s, %d of %s). ", m->nx, x, m->na, a);
	else
		sw_appendf(t, len, "Fabric-wide, blocks as the unit (each block's median over its links, %s's first run "
			   "against %s's, Bonett-Price); with one run a side the spread between runs is unknown: a "
			   "difference counts only when its whole interval lies beyond +-%.1f%% (run_to_run = %g%%). ",
			   x, a, c->allow * 100.0, c->run[0]->cfg.run_to_run);
	sw_appendf(t, len, "Per link, %zu links both maps measured (hosts matched by %s): %s over %s %.3gx, "
		   "quartiles [%.3g, %.3g]; links share hosts and blocks, so they are described, not tested. ",
		   m->nlinks, m->by_name ? "name" : "position, the names differ", x, a, m->link_ratio, m->link_q1,
		   m->link_q3);
	sw_appendf(t, len, "Hosts beyond the fabric-wide shift (%s, one-sided, at least %.0f%%, Holm over %d hosts "
		   "and both directions): slower on %s: ", m->runs_unit ? "Welch's t over runs" : "sign test over partners",
		   expm1(m->thresh) * 100.0, m->nhost, x);
	map_hosts(c, cm, -1, t, len);
	sw_appendf(t, len, "; faster on %s: ", x);
	map_hosts(c, cm, 1, t, len);
	sw_appendf(t, len, ". Claims of one map alone (first runs): ");
	for (int k = 0; k < m->nclaim; k++)
		sw_appendf(t, len, "%s%s only: %s", shown++ ? "; " : "", m->claim[k].on_x ? x : a, m->claim[k].claim->name);
	sw_appendf(t, len, "%s.", shown ? "" : "none");
}

/* Every run's statistics for each pattern and size of A's config, then
 * each switch against A's: the map comparisons and their verdicts. */
static int maps_compare(struct compare *c, char *err, size_t errlen)
{
	const struct sw_config *cfg = &c->run[0]->cfg;
	int n = c->nruns, nps = cfg->npatterns * cfg->nsizes;
	struct mapcmp_opts o = { .alpha = c->alpha, .confidence = c->confidence, .min_effect = c->min_effect,
				 .floor = cfg->suspect_min_effect / 100.0, .allow = c->allow };
	char msg[512];

	c->mapd = calloc((size_t)(nps * n), sizeof(*c->mapd));
	c->blame = calloc((size_t)(nps * n), sizeof(*c->blame));
	c->map = calloc((size_t)(nps * n), sizeof(*c->map));
	c->verdict = calloc((size_t)(nps * n), sizeof(*c->verdict));
	if (!c->mapd || !c->blame || !c->map || !c->verdict)
		return sw_fail(err, errlen, "out of memory");
	c->nps = nps;
	for (int ps = 0; ps < nps; ps++) {
		int pat = cfg->patterns[ps / cfg->nsizes];
		uint64_t size = cfg->sizes[ps % cfg->nsizes];

		for (int i = 0; i < n; i++)
			if (mapout_analyse_keep(c->run[i], pat, size, &c->mapd[ps * n + i], &c->blame[ps * n + i], msg,
						sizeof(msg)))
				return sw_fail(err, errlen, "%s: %s", c->path[i][0] ? c->path[i] : c->run[i]->name, msg);
		for (int x = 1; x < n; x++) {
			struct mapcmp_map ma[COMPARE_MAX_RUNS], mx[COMPARE_MAX_RUNS];
			struct compare_map *cm = &c->map[c->nmaps];
			int na = 0, nx = 0;

			if (c->sw[x] != x || c->sw[x] == c->sw[0])
				continue;
			for (int i = 0; i < n; i++) {
				struct mapcmp_map mp = { &c->mapd[ps * n + i].in, &c->blame[ps * n + i] };

				if (c->sw[i] == c->sw[0])
					ma[na++] = mp;
				else if (c->sw[i] == x)
					mx[nx++] = mp;
			}
			*cm = (struct compare_map){ .pattern = pat, .size = size, .ps = ps, .x = x };
			if (mapcmp_run(ma, na, mx, nx, &o, &cm->m, msg, sizeof(msg)))
				return sw_fail(err, errlen, "%s against %s: %s", c->label[x], c->label[0], msg);
			c->nmaps++;
			c->verdict[c->nverdicts].pattern = pat;
			c->verdict[c->nverdicts].x = x;
			map_headline(c, cm, c->verdict[c->nverdicts].headline, sizeof(c->verdict[0].headline));
			map_text(c, cm, c->verdict[c->nverdicts].text, sizeof(c->verdict[0].text));
			c->nverdicts++;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* Differences between the runs, stated at the top                   */

static int cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* Sorted unique hosts of r, joined with ", " into buf. */
static void host_set(const struct sw_run *r, char *buf, size_t len)
{
	char (*h)[SW_HOST_MAX] = malloc((size_t)(r->nranks ? r->nranks : 1) * SW_HOST_MAX);

	buf[0] = '\0';
	if (!h)
		return;
	memcpy(h, r->host, (size_t)r->nranks * SW_HOST_MAX);
	qsort(h, (size_t)r->nranks, SW_HOST_MAX, cmp_str);
	for (int i = 0; i < r->nranks; i++)
		if (i == 0 || strcmp(h[i], h[i - 1]))
			sw_appendf(buf, len, "%s%s", buf[0] ? ", " : "", h[i]);
	free(h);
}

/* First line of the MPI version, tabs as blanks. */
static void mpi_line(const char *v, char *buf, size_t len)
{
	size_t i = 0;

	for (; *v && *v != '\n' && i + 1 < len; v++)
		if (!(*v == '\t' && i && buf[i - 1] == ' '))
			buf[i++] = *v == '\t' || *v == '|' ? ' ' : *v;
	buf[i] = '\0';
	while (i && buf[i - 1] == ' ')
		buf[--i] = '\0';
}

/* The keys that change what a cell measures: runs that differ in one
 * are not like with like (issue 40), and the answer says so. */
static const char *const measured[] = {
	"sizes", "hops", "timed", "sample_time", "window", "distinct_buffers", "pairing", "warmup",
};

static void differences(struct compare *c)
{
	const char *ha = c->hosts[0], *ma = c->mpi[0];
	json_t *ca = config_to_json(&c->run[0]->cfg);

	for (int x = 0; x < c->nruns; x++) {
		const struct sw_run *r = c->run[x];

		if (!r->complete)
			SW_NOTE(c->notes, c->nnotes, "%s is incomplete: %s", c->label[x], r->failure[0] ? r->failure : "the sweep did not finish");
		if (x == 0)
			continue;
		const char *hx = c->hosts[x], *mx = c->mpi[x];

		if (strcmp(ha, hx))
			SW_NOTE(c->notes, c->nnotes, "different hosts: %s ran on %s; %s on %s", c->label[0], ha, c->label[x], hx);
		else {
			bool same = r->nranks == c->run[0]->nranks;

			for (int i = 0; same && i < r->nranks; i++)
				same = strcmp(r->host[i], c->run[0]->host[i]) == 0;
			if (!same)
				SW_NOTE(c->notes, c->nnotes, "same hosts, but %s placed the ranks in a different order than %s "
					 "(the pairs cross different ports)", c->label[x], c->label[0]);
		}
		if (strcmp(ma, mx))
			SW_NOTE(c->notes, c->nnotes, "different MPI: %s has '%s', %s '%s'", c->label[0], ma, c->label[x], mx);

		json_t *cx = config_to_json(&r->cfg);
		const char *key;
		json_t *va;
		char keys[400] = "";

		json_object_foreach(ca, key, va) {
			json_t *vx = cx ? json_object_get(cx, key) : NULL;

			if (!strcmp(key, "label") || !strcmp(key, "output"))
				continue;
			if (!vx || !json_equal(va, vx)) {
				const char *sa = json_is_string(va) ? json_string_value(va) : "?";
				const char *sx = vx && json_is_string(vx) ? json_string_value(vx) : "(unset)";

				sw_appendf(keys, sizeof(keys), "%s%s (%s / %s)", keys[0] ? ", " : "", key, sa, sx);
			}
		}
		if (keys[0])
			SW_NOTE(c->notes, c->nnotes, "different config: %s against %s: %s", c->label[x], c->label[0], keys);
		for (size_t k = 0; k < sizeof(measured) / sizeof(measured[0]); k++) {
			json_t *a = json_object_get(ca, measured[k]), *b = cx ? json_object_get(cx, measured[k]) : NULL;
			char sa[64], sx[64];

			if (!a || (b && json_equal(a, b)) || strstr(c->caution, measured[k]))
				continue;
			snprintf(sa, sizeof(sa), "%s", json_is_string(a) ? json_string_value(a) : "?");
			snprintf(sx, sizeof(sx), "%s", b && json_is_string(b) ? json_string_value(b) : "(unset)");
			sw_appendf(c->caution, sizeof(c->caution), "%s%s (%s %s, %s %s)", c->caution[0] ? ", " : "",
				   measured[k], c->label[0], sa, c->label[x], sx);
		}
		json_decref(cx);
	}
	json_decref(ca);
}

/* ---------------------------------------------------------------- */
/* Create and free                                                    */

/* Display names: the label; when two runs share it, the folder name;
 * when that is shared too (a run against itself), the label and letter. */
static const char *run_label(const struct sw_run *r)
{
	return r->cfg.label[0] ? r->cfg.label : r->name[0] ? r->name : "run";
}

/* Run i repeats the samples of run j: the same count and every sample's
 * cell, repetition, pair and time alike. */
static bool same_samples(const struct sw_run *a, const struct sw_run *b)
{
	if (a->nsamples != b->nsamples || a->nsamples == 0)
		return false;
	for (size_t k = 0; k < a->nsamples; k++) {
		const struct sw_sample *x = &a->sample[k], *y = &b->sample[k];

		if (x->cell != y->cell || x->rep != y->rep || x->pair != y->pair || x->seconds != y->seconds)
			return false;
	}
	return true;
}

/* Runs of one switch: the same [switch] model; a run without a model
 * joins the runs with its label (with or without a model), as the
 * README's procurement protocol says. A run with the samples of an
 * earlier run is a copy: counted once, with a note. */
static void group_switches(struct compare *c)
{
	for (int i = 0; i < c->nruns; i++) {
		const struct sw_config *ci = &c->run[i]->cfg;

		c->sw[i] = i;
		c->copy_of[i] = -1;
		for (int j = 0; j < i && c->sw[i] == i; j++) {
			const struct sw_config *cj = &c->run[j]->cfg;

			if (ci->model[0] && cj->model[0] ? !strcmp(ci->model, cj->model)
							  : !strcmp(run_label(c->run[i]), run_label(c->run[j])))
				c->sw[i] = c->sw[j];
		}
		for (int j = 0; j < i && c->copy_of[i] < 0; j++)
			if (c->copy_of[j] < 0 && same_samples(c->run[i], c->run[j]))
				c->copy_of[i] = j;
		if (c->copy_of[i] >= 0)
			SW_NOTE(c->notes, c->nnotes, "%s has the same samples as %s (a copy): counted once", c->label[i],
				c->label[c->copy_of[i]]);
	}
	c->nswitches = 0;
	for (int i = 0; i < c->nruns; i++) {
		c->sw_runs[i] = 0;
		for (int j = 0; j < c->nruns; j++)
			c->sw_runs[i] += c->sw[j] == c->sw[i] && c->copy_of[j] < 0;
		c->nswitches += c->sw[i] == i && c->sw_runs[i] > 0;
	}
}

static void make_labels(struct compare *c)
{
	for (int i = 0; i < c->nruns; i++) {
		bool dup_label = false, dup_name = false;

		for (int j = 0; j < c->nruns; j++) {
			if (j == i)
				continue;
			dup_label |= strcmp(run_label(c->run[i]), run_label(c->run[j])) == 0;
			dup_name |= strcmp(c->run[i]->name, c->run[j]->name) == 0;
		}
		if (!dup_label)
			snprintf(c->label[i], sizeof(c->label[i]), "%s", run_label(c->run[i]));
		else if (!dup_name && c->run[i]->name[0])
			snprintf(c->label[i], sizeof(c->label[i]), "%s", c->run[i]->name);
		else
			snprintf(c->label[i], sizeof(c->label[i]), "%.100s (%c)", run_label(c->run[i]), LETTER(i));
	}
}

void compare_free(struct compare *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nruns; i++) {
		analysis_free(c->an[i]);
		run_free(c->run[i]);
	}
	free(c->cells);
	free(c->unmatched);
	free(c->summary);
	free(c->verdict);
	for (int k = 0; k < c->nmaps; k++)
		mapcmp_free(&c->map[k].m);
	free(c->map);
	for (int k = 0; k < c->nps * c->nruns; k++) {
		mapdata_free(&c->mapd[k]);
		blame_free(&c->blame[k]);
	}
	free(c->mapd);
	free(c->blame);
	free(c);
}

static void map_method(struct compare *c)
{
	snprintf(c->method, sizeof(c->method),
		 "fabric maps, each pattern and size of %s's config; each map's statistics as its report gives "
		 "them (groups from the config's [topology], else inferred); fabric-wide value: the median of the "
		 "link medians; %%slower of X against %s of those values (latency (X-A)/A, bandwidth (A-X)/A), "
		 "with %g%% CI and p from one statistic: 2 or more runs a side, runs as the unit (Welch's t on "
		 "the logs), otherwise the blocks of each side's first run (the median over the links of a block, "
		 "Bonett-Price; a CI needs %d blocks a side) and a claim only beyond the run-to-run allowance "
		 "+-%.1f%% (z sqrt 2 run_to_run); significant when p < %g, the CI excludes 0 and it exceeds %g%%; "
		 "hosts and links matched by host name when every host of %s is in the other map, else by "
		 "position; per-link ratios over the links both maps measured, described, not tested (links share "
		 "hosts and blocks); a host's change: its links' log ratios less their median over all links, a "
		 "one-sided sign test over its partners beyond max(suspect_min_effect, the allowance) (one run a "
		 "side) or Welch's t over runs beyond suspect_min_effect, Holm over the hosts and both directions "
		 "at %g; claims of one map alone: the first runs' claims (kind and name) that the other does not make",
		 c->label[0], c->label[0], c->confidence * 100, CHANGE_MIN_REPS, c->allow * 100.0, c->alpha,
		 c->min_effect, c->label[0], c->alpha);
}

struct compare *compare_create(struct sw_run **runs, const char *const *dirs, int n, char *err, size_t errlen)
{
	struct compare *c;
	char msg[512];

	if (n < 2 || n > COMPARE_MAX_RUNS) {
		sw_fail(err, errlen, "compare needs 2 to %d results, got %d", COMPARE_MAX_RUNS, n);
		return NULL;
	}
	if (same_kind(runs, dirs, n, err, errlen))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c) {
		sw_fail(err, errlen, "out of memory");
		return NULL;
	}
	stats_init();
	c->maps = is_map(runs[0]);
	c->nruns = n;
	c->alpha = runs[0]->cfg.alpha;
	c->min_effect = runs[0]->cfg.min_effect;
	c->confidence = runs[0]->cfg.confidence;
	for (int i = 0; i < n; i++) {
		snprintf(c->path[i], sizeof(c->path[i]), "%s", dirs && dirs[i] ? dirs[i] : "");
		c->an[i] = analysis_run(runs[i], &runs[i]->cfg, msg, sizeof(msg));
		if (!c->an[i]) {
			sw_fail(err, errlen, "%s: %s", c->path[i][0] ? c->path[i] : runs[i]->name, msg);
			goto fail;
		}
		if (c->path[i][0] && results_verify(c->path[i], runs[i], c->an[i], err, errlen))
			goto fail;
	}
	for (int i = 0; i < n; i++) {
		c->run[i] = runs[i];
		host_set(runs[i], c->hosts[i], sizeof(c->hosts[i]));
		mpi_line(runs[i]->mpi_version, c->mpi[i], sizeof(c->mpi[i]));
	}
	make_labels(c);
	group_switches(c);
	c->allow = stats_run_allowance(runs[0]->cfg.run_to_run / 100.0, c->confidence);
	if (c->maps) {
		if (maps_compare(c, err, errlen))
			goto fail;
		differences(c);
		map_method(c);
		return c;
	}
	if (match_cells(c, err, errlen) || summarise(c, err, errlen) || statements(c, err, errlen))
		goto fail;
	differences(c);
	if (verdicts(c, err, errlen))
		goto fail;
	snprintf(c->method, sizeof(c->method),
		 "cells matched by pattern, size, nodes and hops, as judge matches them (any hop counts when "
		 "both runs chose them, hops = auto); per-hop latency for pingpong, per-pair bandwidth for "
		 "stream and bidir; inside a run the repetition is the unit (its value: the median over the "
		 "pairs), medians with %g%% Bonett-Price CIs, each run's degradation from its own baseline level; "
		 "switches, not runs, are compared: runs of one switch (the same model; without one, the same "
		 "label) are its replicates, a run with the samples of an earlier one is counted once; each "
		 "switch against %s's: %%worse of a cell (latency (X-A)/A, bandwidth (A-X)/A, positive = worse) "
		 "and the difference of the degradations at the highest load every run reached, in points at "
		 "%s's degradation; with 2 or more runs on a side the run is the unit (one value a run: the log of "
		 "its cell median, or its degradation's log ratio, where a speed shift shared by a run's cells "
		 "cancels), Welch's t with 2 or more runs a side, Student's t with the other side's variance when "
		 "one side has one run; with one run a side the repetitions (Bonett-Price) and a statement only "
		 "when its whole CI lies beyond the run-to-run allowance +-%.1f%% (z sqrt 2 run_to_run); "
		 "significant when the Holm-adjusted p < %g, the CI excludes 0, it exceeds %g%% (points) and no "
		 "cell is below the sample floor; error rate, for each pair of switches a gate: first the "
		 "statements at the highest load (each size's degradation and level difference, Holm over them), "
		 "then, only when one of them is significant, the other cells (Holm over them), so two alike "
		 "switches get any significant statement at most %g of the time",
		 c->confidence * 100, compare_switch_name(c, 0), compare_switch_name(c, 0), c->allow * 100.0,
		 c->alpha, c->min_effect, c->alpha);
	return c;
fail:
	for (int i = 0; i < n; i++)
		c->run[i] = NULL;   /* the caller keeps the runs */
	compare_free(c);
	return NULL;
}

struct compare *compare_load(const char *const *paths, int n, char *err, size_t errlen)
{
	struct sw_run *runs[COMPARE_MAX_RUNS] = { NULL };
	char dirs[COMPARE_MAX_RUNS][SW_PATH_MAX];
	const char *dp[COMPARE_MAX_RUNS];
	struct compare *c = NULL;

	if (n < 2 || n > COMPARE_MAX_RUNS) {
		sw_fail(err, errlen, "compare needs 2 to %d results, got %d", COMPARE_MAX_RUNS, n);
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		struct stat st;
		size_t len;

		runs[i] = results_load(paths[i], err, errlen);
		if (!runs[i])
			goto out_free;
		snprintf(dirs[i], sizeof(dirs[i]), "%s", paths[i]);
		if (stat(paths[i], &st) == 0 && !S_ISDIR(st.st_mode)) {
			char *slash = strrchr(dirs[i], '/');

			if (slash)
				*slash = '\0';
			else
				snprintf(dirs[i], sizeof(dirs[i]), ".");
		}
		len = strlen(dirs[i]);
		while (len > 1 && dirs[i][len - 1] == '/')
			dirs[i][--len] = '\0';
		dp[i] = dirs[i];
	}
	c = compare_create(runs, dp, n, err, errlen);
out_free:
	if (!c)
		for (int i = 0; i < n; i++)
			run_free(runs[i]);
	return c;
}
