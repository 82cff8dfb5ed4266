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

/* Switch s (its first run) against A's switch in matched cell m, runs as
 * the unit: each run's cell median, Welch's t on the logs
 * (stats_runs_welch). Needs 2 runs a switch; else m->between[s].n = 0.
 * between_significant[s] is set here when all but the p-value hold;
 * between_holm then asks the Holm-adjusted p of it too. */
static void between_cell(struct compare *c, struct compare_cell *m, int s)
{
	double a[COMPARE_MAX_RUNS], b[COMPARE_MAX_RUNS];
	size_t na = 0, nb = 0;
	struct stats_interval *iv = &m->between[s];
	bool low = false;

	memset(iv, 0, sizeof(*iv));
	for (int i = 0; i < c->nruns; i++) {
		if (c->sw[i] == c->sw[0])
			a[na++] = m->v[i].median;
		else if (c->sw[i] == s)
			b[nb++] = m->v[i].median;
		else
			continue;
		low |= c->an[i]->cell[m->cell[i]].below_floor;
	}
	if (na < 2 || nb < 2 || stats_runs_welch(a, na, b, nb, 0.0, c->confidence, iv)) {
		iv->n = 0;
		return;
	}
	if (!m->latency)   /* bandwidth: worse is lower */
		*iv = (struct stats_interval){ iv->n, -iv->d, iv->se, iv->df, -iv->hi, -iv->lo, iv->p };
	m->between_significant[s] = !low && stats_beyond(iv->lo, iv->hi, 0.0) &&
				    fabs(expm1(iv->d)) * 100.0 > c->min_effect;
}

/* Switch s against A's, runs as the unit: the matched cells are one
 * family, Holm's step-down over their p-values (between_p); a cell is
 * significant when its adjusted p < alpha too. -1 on ENOMEM. */
static int between_holm(struct compare *c, int s)
{
	double *p = malloc(((size_t)c->ncells + 1) * 2 * sizeof(*p)), *adj;
	size_t n = 0;

	if (!p)
		return -1;
	adj = p + c->ncells + 1;
	for (int j = 0; j < c->ncells; j++)
		if (c->cells[j].between[s].n)
			p[n++] = c->cells[j].between[s].p;
	if (n && stats_holm(p, n, adj)) {
		free(p);
		return -1;
	}
	n = 0;
	for (int j = 0; j < c->ncells; j++) {
		struct compare_cell *m = &c->cells[j];

		if (!m->between[s].n)
			continue;
		m->between_p[s] = adj[n++];
		m->between_significant[s] &= m->between_p[s] < c->alpha;
	}
	free(p);
	return 0;
}

/* Test run x against run 0 in matched cell m: the one change test on
 * per-repetition values (change_test) with A's statistics settings. */
static int diff_cell(struct compare *c, struct compare_cell *m, int x)
{
	size_t na, nx;
	double *va = rep_values(c->run[0], m->cell[0], m->latency, &na);
	double *vx = rep_values(c->run[x], m->cell[x], m->latency, &nx);
	struct sw_config cfg = c->run[0]->cfg;
	const int metric = m->latency ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH;
	int rc = 0;

	if ((m->v[0].n && !va) || (m->v[x].n && !vx))
		rc = -1;   /* ENOMEM, or a cell with samples gave no repetition */
	cfg.confidence = c->confidence;
	cfg.alpha = c->alpha;
	cfg.min_effect = c->min_effect;
	change_test(vx, nx, va, na, metric, &cfg, &m->d[x]);
	/* a cell below the sample floor (analysis.h) is shown, never significant */
	if (c->an[0]->cell[m->cell[0]].below_floor || c->an[x]->cell[m->cell[x]].below_floor)
		m->d[x].significant = false;
	/* one run a side: the whole CI beyond the run-to-run allowance */
	if (m->d[x].significant &&
	    !stats_beyond(change_log(metric, m->d[x].lo), change_log(metric, m->d[x].hi), c->allow))
		m->d[x].significant = false;
	free(va);
	free(vx);
	return rc;
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
		for (int i = 1; i < c->nruns; i++) {
			if (diff_cell(c, m, i) < 0) {
				sw_fail(err, errlen, "out of memory");
				goto out_free;
			}
			if (c->sw[i] == i && c->sw[i] != c->sw[0])
				between_cell(c, m, i);
		}
	}
	for (int s = 1; s < c->nruns; s++)
		if (c->sw[s] == s && c->sw[s] != c->sw[0] && between_holm(c, s)) {
			sw_fail(err, errlen, "out of memory");
			goto out_free;
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
	l->lat = cs->lat.median;
	l->lat_lo = cs->lat.med_lo;
	l->lat_hi = cs->lat.med_hi;
	l->agg = cs->agg.n ? cs->agg.median : NAN;
	l->agg_lo = cs->agg.n ? cs->agg.med_lo : NAN;
	l->agg_hi = cs->agg.n ? cs->agg.med_hi : NAN;
	l->change = pattern_latency_metric(row->pattern) ? cs->inflation : cs->drop;
}

/* change(X) - change(A) in points with CI and p (change_diff),
 * for run x of row; never significant when a cell is below the sample
 * floor. */
static int diff_level(struct compare *c, struct compare_summary_row *row, int x)
{
	struct compare_level *la = &row->run[0], *lx = &row->run[x];
	bool latency = pattern_latency_metric(row->pattern);
	int cells[4] = { c->an[0]->cell[la->cell].baseline, la->cell, c->an[x]->cell[lx->cell].baseline, lx->cell };
	const struct sw_run *runs[4] = { c->run[0], c->run[0], c->run[x], c->run[x] };
	const struct sw_analysis *an[4] = { c->an[0], c->an[0], c->an[x], c->an[x] };
	double *set[4] = { NULL };
	size_t n[4] = { 0 };
	struct sw_config cfg = c->run[0]->cfg;
	struct sw_change d;
	bool short_cell = false;
	int rc = 0;

	if (!la->change.valid || !lx->change.valid)
		return 0;
	for (int i = 0; i < 4; i++) {
		set[i] = rep_values(runs[i], cells[i], latency, &n[i]);
		if (!set[i]) {
			rc = -1;   /* ENOMEM: the change was valid, so there were values */
			goto out_free;
		}
		short_cell |= an[i]->cell[cells[i]].below_floor;
	}
	cfg.confidence = c->confidence;
	cfg.alpha = c->alpha;
	cfg.min_effect = c->min_effect;
	change_diff((const double *const *)set, n, latency ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH,
			     &cfg, &d);
	lx->diff_valid = d.valid;
	lx->diff = d.pct;
	lx->diff_lo = d.lo;
	lx->diff_hi = d.hi;
	lx->diff_p = d.p;
	lx->diff_significant = d.significant && !short_cell;
out_free:
	for (int i = 0; i < 4; i++)
		free(set[i]);
	return rc;
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
		for (int i = 1; i < c->nruns; i++)
			if (diff_level(c, row, i) < 0)
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

/* The name of run i's switch: its model, else its label. */
static const char *switch_name(const struct compare *c, int i)
{
	return c->run[i]->cfg.model[0] ? c->run[i]->cfg.model : c->label[c->sw[i]];
}

/* The verdict's sentences about switches (rows[0..nrows) of one pattern):
 * runs of A's switch are replicates; a switch with 2 or more runs against
 * A's with 2 or more is judged with runs as the unit; with one run a
 * side, the allowance is said. */
static void switches_text(const struct compare *c, const int *rows, int nrows, char *t, size_t len)
{
	bool single = false;

	for (int x = 1; x < c->nruns; x++) {
		uint64_t sizes[SW_MAX_LIST * 4];
		bool better[SW_MAX_LIST * 4], worse[SW_MAX_LIST * 4];
		char sb[160], sw[160];

		if (c->sw[x] == c->sw[0]) {
			sw_appendf(t, len, "%s is another run of %s's switch (%s): their difference is run-to-run spread. ",
				   c->label[x], c->label[0], switch_name(c, 0));
			continue;
		}
		if (c->sw[x] != x)
			continue;
		if (c->sw_runs[x] < 2 || c->sw_runs[0] < 2) {
			single = true;
			continue;
		}
		for (int k = 0; k < nrows; k++) {
			const struct compare_cell *mk = &c->cells[c->summary[rows[k]].cmp];

			sizes[k] = mk->size;
			better[k] = mk->between[x].n && mk->between_significant[x] && mk->between[x].d < 0;
			worse[k] = mk->between[x].n && mk->between_significant[x] && mk->between[x].d > 0;
		}
		describe_sizes(sb, sizeof(sb), sizes, better, nrows);
		describe_sizes(sw, sizeof(sw), sizes, worse, nrows);
		sw_appendf(t, len, "Runs as the unit (%d runs of %s, %d of %s; Welch's t on the per-run medians): ",
			   c->sw_runs[x], switch_name(c, x), c->sw_runs[0], switch_name(c, 0));
		if (!sb[0] && !sw[0])
			sw_appendf(t, len, "no significant difference between the switches at any size. ");
		else {
			if (sb[0])
				sw_appendf(t, len, "%s is significantly better than %s %s", switch_name(c, x), switch_name(c, 0), sb);
			if (sb[0] && sw[0])
				sw_appendf(t, len, ", ");
			if (sw[0])
				sw_appendf(t, len, "%s is significantly worse than %s %s", switch_name(c, x), switch_name(c, 0), sw);
			sw_appendf(t, len, ". ");
		}
	}
	if (single)
		sw_appendf(t, len, "With one run of a switch the spread between its runs is unknown: a difference between "
			   "single runs counts only when its whole interval lies beyond +-%.1f%% (run_to_run = %g%%); "
			   "run each switch 2 or more times to measure it. ", c->allow * 100.0, c->run[0]->cfg.run_to_run);
}

/* " [lo, hi]" of a CI in points or percent, or " [CI n/a]" when it has
 * none (fewer than CHANGE_MIN_REPS repetitions a side). */
static void ci_text(char *buf, size_t len, double lo, double hi, bool sign)
{
	if (isfinite(lo) && isfinite(hi))
		snprintf(buf, len, sign ? " [%+.1f, %+.1f]" : " [%.1f, %.1f]", lo, hi);
	else
		snprintf(buf, len, " [CI n/a]");
}

/* The headline of one pattern in row r: per run X, who degrades less, X
 * or A, by how many points [CI], significant or not; the runs a side. */
static void headline(const struct compare *c, const struct compare_summary_row *r, char *t, size_t len)
{
	char sz[32], ci[64];

	config_format_size_spaced(r->size, sz, sizeof(sz));
	snprintf(t, len, "%s %s at %d nodes:", pattern_name(r->pattern), sz, r->nodes);
	for (int x = 1; x < c->nruns; x++) {
		const struct compare_level *lx = &r->run[x];
		bool less = lx->diff < 0;

		if (!lx->diff_valid) {
			sw_appendf(t, len, "%s %s against %s: no degradation to compare", x > 1 ? ";" : "", c->label[x],
				   c->label[0]);
			continue;
		}
		ci_text(ci, sizeof(ci), lx->diff_lo, lx->diff_hi, true);
		if (fabs(lx->diff) < 0.05)
			sw_appendf(t, len, "%s %s and %s degrade alike%s", x > 1 ? ";" : "", c->label[x], c->label[0], ci);
		else
			sw_appendf(t, len, "%s %s degrades %.1f points less than %s%s", x > 1 ? ";" : "",
				   less ? c->label[x] : c->label[0], fabs(lx->diff), less ? c->label[0] : c->label[x], ci);
		sw_appendf(t, len, ", %s", lx->diff_significant ? "significant" : "not significant");
	}
	if (c->sw_runs[0] < 2 && c->nruns == 2 && c->sw_runs[1] < 2)
		sw_appendf(t, len, "; 1 run a side (the run-to-run spread is unknown)");
	else
		for (int x = 0; x < c->nruns; x++)
			if (c->sw[x] == x)
				sw_appendf(t, len, "%s %d run%s of %s", x ? "," : ";", c->sw_runs[x], c->sw_runs[x] == 1 ? "" : "s",
					   switch_name(c, x));
}

/* The verdict of one pattern: its representative row is the largest size
 * for bandwidth patterns and the smallest for latency (pingpong). */
static void verdict(struct compare *c, int pattern, struct compare_verdict *v)
{
	int rows[SW_MAX_LIST * 4], nrows = 0, rep;
	bool latency = pattern_latency_metric(pattern);
	char *t = v->text, sz[32], what[64], ci[64];
	size_t len = sizeof(v->text);

	v->pattern = pattern;
	t[0] = '\0';
	for (int i = 0; i < c->nsummary && nrows < (int)(sizeof(rows) / sizeof(rows[0])); i++)
		if (c->summary[i].pattern == pattern)
			rows[nrows++] = i;
	if (nrows == 0)
		return;
	rep = latency ? rows[0] : rows[nrows - 1];
	const struct compare_summary_row *r = &c->summary[rep];

	headline(c, r, v->headline, sizeof(v->headline));
	config_format_size_spaced(r->size, sz, sizeof(sz));
	snprintf(what, sizeof(what), latency ? "per-hop latency" : "per-pair bandwidth");
	sw_appendf(t, len, "%s %s at %d nodes (the highest load every run reached): ", pattern_name(pattern), sz, r->nodes);
	if (!r->run[0].change.valid) {
		sw_appendf(t, len, "no degradation to compare (%d nodes is %s's baseline level or lacks one). ",
		    r->nodes, c->label[0]);
	} else {
		for (int i = 0; i < c->nruns; i++) {
			const struct sw_change *ch = &r->run[i].change;

			if (!ch->valid)
				sw_appendf(t, len, "%s%s has no baseline to compare with", i ? ", " : "", c->label[i]);
			else if (latency) {
				ci_text(ci, sizeof(ci), ch->lo, ch->hi, false);
				sw_appendf(t, len, "%s%s's %s rises %.1f%%%s%s", i ? ", " : "", c->label[i], what,
				    ch->pct, ci, i ? "" : " from its own unloaded level");
			} else {
				ci_text(ci, sizeof(ci), 100 - ch->hi, 100 - ch->lo, false);
				sw_appendf(t, len, "%s%s holds %.1f%%%s%s%s", i ? ", " : "", c->label[i], 100 - ch->pct,
				    ci, i ? "" : " of its unloaded ", i ? "" : what);
			}
		}
		sw_appendf(t, len, ". ");
	}
	for (int x = 1; x < c->nruns; x++) {
		const struct compare_level *lx = &r->run[x];
		const struct compare_cell *m = &c->cells[r->cmp];
		uint64_t sizes[SW_MAX_LIST * 4];
		bool better[SW_MAX_LIST * 4], worse[SW_MAX_LIST * 4];
		char sb[160], sw[160];

		ci_text(ci, sizeof(ci), lx->diff_lo, lx->diff_hi, true);
		if (lx->diff_valid && fabs(lx->diff) < 0.05) {
			sw_appendf(t, len, "%s and %s degrade alike (%s - %s: %+.1f%s points). ", c->label[x],
			    c->label[0], c->label[x], c->label[0], lx->diff, ci);
		} else if (lx->diff_valid) {
			const char *who = lx->diff < 0 ? c->label[x] : c->label[0];
			const char *other = lx->diff < 0 ? c->label[0] : c->label[x];

			sw_appendf(t, len, "%s degrades %.1f points less than %s (%s - %s: %+.1f%s points), %s. ",
			    who, fabs(lx->diff), other, c->label[x], c->label[0], lx->diff, ci,
			    lx->diff_significant ? "a real difference" : "not a significant difference");
		}
		if (m->d[x].valid) {
			char p[32];

			stats_format_p(p, sizeof(p), m->d[x].p);
			sw_appendf(t, len, "At %d nodes %s's %s is %.1f%% %s than %s's (p %s%s)", m->nodes, c->label[x], what,
			    fabs(m->d[x].pct), (m->d[x].pct > 0) == latency ? "higher" : "lower", c->label[0],
			    p[0] == '<' ? "" : "= ", p);
		}
		for (int k = 0; k < nrows; k++) {
			const struct compare_cell *mk = &c->cells[c->summary[rows[k]].cmp];

			sizes[k] = mk->size;
			better[k] = mk->d[x].valid && mk->d[x].significant && mk->d[x].pct < 0;
			worse[k] = mk->d[x].valid && mk->d[x].significant && mk->d[x].pct > 0;
		}
		describe_sizes(sb, sizeof(sb), sizes, better, nrows);
		describe_sizes(sw, sizeof(sw), sizes, worse, nrows);
		if (!sb[0] && !sw[0])
			sw_appendf(t, len, "; the difference between %s and %s at %d nodes is not significant at any size. ",
			    c->label[x], c->label[0], r->nodes);
		else {
			sw_appendf(t, len, ";");
			if (sb[0])
				sw_appendf(t, len, " %s is significantly better than %s %s", c->label[x], c->label[0], sb);
			if (sb[0] && sw[0])
				sw_appendf(t, len, ",");
			if (sw[0])
				sw_appendf(t, len, " %s is significantly worse than %s %s", c->label[x], c->label[0], sw);
			sw_appendf(t, len, ". ");
		}
	}
	switches_text(c, rows, nrows, t, len);
	size_t n = strlen(t);
	while (n && t[n - 1] == ' ')
		t[--n] = '\0';
}

static int verdicts(struct compare *c, char *err, size_t errlen)
{
	c->verdict = calloc((size_t)pattern_count(), sizeof(*c->verdict));
	if (!c->verdict)
		return sw_fail(err, errlen, "out of memory");
	for (int p = 0; p < pattern_count(); p++) {
		verdict(c, p, &c->verdict[c->nverdicts]);
		if (c->verdict[c->nverdicts].text[0])
			c->nverdicts++;
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
		sw_appendf(t, len, "%s's and %s's fabrics alike%s", switch_name(c, cm->x), switch_name(c, 0), ci);
	else
		sw_appendf(t, len, "%s's fabric is %.1f%% %s than %s's%s", switch_name(c, cm->x), fabs(m->change.pct),
			   slower ? "slower" : "faster", switch_name(c, 0), ci);
	sw_appendf(t, len, " (median %s: %s %s, %s %s), %s", m->runs_unit ? "run" : "block", switch_name(c, cm->x),
		   fmt_val(vx, sizeof(vx), u, m->change.level), switch_name(c, 0), fmt_val(va, sizeof(va), u, m->change.base),
		   mapcmp_significant(m) ? "significant" : "not significant");
	if (m->runs_unit)
		sw_appendf(t, len, "; %d runs of %s, %d of %s", m->nx, switch_name(c, cm->x), m->na, switch_name(c, 0));
	else
		sw_appendf(t, len, "; %d run%s of %s, %d of %s (a difference counts only beyond +-%.1f%%)", m->nx,
			   m->nx == 1 ? "" : "s", switch_name(c, cm->x), m->na, switch_name(c, 0), c->allow * 100.0);
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
	const char *x = switch_name(c, cm->x), *a = switch_name(c, 0);
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

/* Runs of one switch: the same [switch] model, without one the same
 * label. */
static void group_switches(struct compare *c)
{
	for (int i = 0; i < c->nruns; i++) {
		const struct sw_config *ci = &c->run[i]->cfg;

		c->sw[i] = i;
		for (int j = 0; j < i && c->sw[i] == i; j++) {
			const struct sw_config *cj = &c->run[j]->cfg;

			if (ci->model[0] ? !strcmp(ci->model, cj->model)
					 : !cj->model[0] && !strcmp(run_label(c->run[i]), run_label(c->run[j])))
				c->sw[i] = c->sw[j];
		}
	}
	for (int i = 0; i < c->nruns; i++) {
		c->sw_runs[i] = 0;
		for (int j = 0; j < c->nruns; j++)
			c->sw_runs[i] += c->sw[j] == c->sw[i];
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
	if (match_cells(c, err, errlen) || summarise(c, err, errlen) || verdicts(c, err, errlen))
		goto fail;
	differences(c);
	snprintf(c->method, sizeof(c->method),
		 "cells matched by pattern, size, nodes and hops, as judge matches them (any hop counts when "
		 "both runs chose them, hops = auto); per-hop latency for pingpong, per-pair bandwidth for "
		 "stream and bidir; unit of replication: the repetition (its value: the median over the pairs); "
		 "medians of those values with %g%% Bonett-Price CIs; %%worse against %s: latency (X-A)/A, "
		 "bandwidth (A-X)/A, positive = worse, of those medians, CI and p from one normal statistic on "
		 "the log ratio of the medians (Bonett-Price), significant when p < %g, the CI excludes 0 and "
		 "|%%worse| > %g%% (alpha and min_effect of %s, no correction for the number of cells) and the "
		 "CI lies beyond the run-to-run allowance +-%.1f%% (z sqrt 2 run_to_run: one run a side); runs "
		 "of one switch (same model, else label) are replicates, and a switch with 2 or more runs "
		 "against another with 2 or more is tested with runs as the unit (Welch's t on the logs of the "
		 "per-run medians, significant when its p after Holm's correction over the matched cells is "
		 "below alpha, the CI excludes 0 and it exceeds min_effect); "
		 "degradation from each run's own baseline level with the same test, and the difference in "
		 "degradation against %s in points, CI and p from the difference of the two log ratios (se "
		 "sqrt(se_A^2 + se_X^2)), real when p < %g, the CI excludes 0 and it exceeds %g points",
		 c->confidence * 100, c->label[0], c->alpha, c->min_effect, c->label[0], c->allow * 100.0,
		 c->label[0], c->alpha,
		 c->min_effect);
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
