/*
 * report.c - terminal tables; see report.h. Latency in microseconds per
 * hop, bandwidth in MB/s (10^6 bytes/s), changes in percent against the
 * baseline level with their CI and Mann-Whitney p-value.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "blame_out.h"
#include "mapout.h"
#include "pattern.h"
#include "isolate.h"
#include "stats.h"
#include "text.h"
#include "victims.h"
#include "hostid.h"
#include "fmt.h"

/* The width the report keeps to (its tables in their short form, its
 * prose lines: text_wrapped). */
#define REPORT_WIDTH TEXT_WIDTH

int report_format_find(const char *name)
{
	if (!strcmp(name, "table"))
		return REPORT_TABLE;
	if (!strcmp(name, "classic"))
		return REPORT_CLASSIC;
	return -1;
}

/* "p = 0.012", "p < 0.001", "p n/a": stats_format_p after "p". */
static void fmt_p(char *buf, size_t len, double p)
{
	char v[16];

	stats_format_p(v, sizeof(v), p);
	snprintf(buf, len, "p %s%s", isfinite(p) && p >= 0.001 ? "= " : "", v);
}

/* "bandwidth drop +19.1% [+17.8, +20.4], p < 0.001 *" */
static void fmt_change(char *buf, size_t len, const char *what, const struct sw_change *c)
{
	char p[32];

	if (!c->valid) {
		snprintf(buf, len, "-");
		return;
	}
	if (!isfinite(c->lo)) {
		snprintf(buf, len, "%s %+.1f%% ~", what, c->pct);   /* too few repetitions to test */
		return;
	}
	fmt_p(p, sizeof(p), c->p);
	snprintf(buf, len, "%s %+.1f%% [%+.1f, %+.1f], %s%s", what, c->pct, c->lo, c->hi, p,
		 c->significant ? " *" : "");
}

/* The change alone with its CI, for an 80-column table: "+19.1% [+17.8,
 * +20.4] *", "+4.2% ~" when too few repetitions to test, "-". */
static void fmt_change_short(char *buf, size_t len, const struct sw_change *c)
{
	if (!c->valid)
		snprintf(buf, len, "-");
	else if (!isfinite(c->lo))
		snprintf(buf, len, "%+.1f%% ~", c->pct);
	else
		snprintf(buf, len, "%+.1f%% [%+.1f, %+.1f]%s", c->pct, c->lo, c->hi, c->significant ? " *" : "");
}

/* A cell's median, with its CI when ci. */
static void cell_ci(char *buf, size_t len, enum fmt_unit u, const struct stats_summary *s, bool ci)
{
	if (s->n == 0)
		snprintf(buf, len, "-");
	else if (ci)
		fmt_ci(buf, len, u, s->median, s->med_lo, s->med_hi, s->med_ci_ok);
	else
		fmt_val(buf, len, u, s->median);
}

/* The caution of a table of the cells of column ci (one a level) when
 * ranks share a kernel (hostid.h), naming its busiest cell's ranks and
 * cores; nothing otherwise. */
static void print_caution(FILE *f, const struct sw_run *r, int ci)
{
	int per = plan_cells_per_level(r->plan), most = 0, most_cores = 1;
	struct hostid_share hs;
	char line[512];

	hostid_share(r->id, r->host, r->nranks, &hs);
	for (int l = 0; l < r->plan->nlevels && hs.kernel >= 0; l++) {
		int k, c;

		if (run_cell_cpu_bound(r, l * per + ci % per, &k, &c) && (long)k * most_cores > (long)most * c) {
			most = k;
			most_cores = c;
		}
	}
	hostid_caution(&hs, most, most_cores, line, sizeof(line));
	if (line[0])
		text_wrapped(f, "  ", "%s", line);
}

/* " cpu" after a change of a cell whose busy ranks outnumbered the cores
 * of a kernel they share (run_cell_cpu_bound). */
static void mark_cpu(char *buf, size_t len, const struct sw_run *r, int cell)
{
	int k, c;

	if (run_cell_cpu_bound(r, cell, &k, &c))
		sw_appendf(buf, len, " cpu");
}

/* One pair dominates a level of fewer than ANALYSIS_SLOW_PAIR_MIN pairs
 * when it is this many times slower than the fastest (the level's value
 * is then mostly that pair). */
#define REPORT_DOMINANT_RATIO 2.0

/* "1.234 / 4.936": the per-pair and aggregate message rates of cell cs
 * at size, in 10^6 messages/s ("-" without samples). */
static void fmt_rates(char *buf, size_t len, uint64_t size, const struct sw_cell_stats *cs)
{
	char pr[32], ag[32];

	snprintf(buf, len, "%s / %s", cs->bw.n ? fmt_num(pr, sizeof(pr), pattern_msgrate(size, cs->bw.median) / 1e6) : "-",
		 cs->agg.n ? fmt_num(ag, sizeof(ag), pattern_msgrate(size, cs->agg.median) / 1e6) : "-");
}

/* A table's columns, each as wide as its widest entry, the last one not
 * padded: rows of REPORT_COLS strings. */
#define REPORT_COLS 7
#define REPORT_CELL 112
typedef char report_row[REPORT_COLS][REPORT_CELL];

/* Columns before right are right-aligned (numbers), the others left; two
 * spaces between columns, one when fit and a row would pass REPORT_WIDTH
 * (a change with its marks, "+282.5% [+222.9, +353.1] * cpu", made 81;
 * --verbose is wide anyway and keeps two). */
static void print_rows(FILE *f, report_row *row, int nrows, int right, bool fit)
{
	int w[REPORT_COLS] = { 0 }, gap = 2;

	for (int i = 0; i < nrows; i++)
		for (int j = 0; j < REPORT_COLS; j++)
			if ((int)strlen(row[i][j]) > w[j])
				w[j] = (int)strlen(row[i][j]);
	for (int i = 0; i < nrows; i++) {
		int width = 0, last = REPORT_COLS - 1;

		while (last > 0 && !row[i][last][0])
			last--;
		for (int j = 0; j <= last; j++)
			width += (j < last ? w[j] + 2 : (int)strlen(row[i][j]));
		if (fit && width > REPORT_WIDTH)
			gap = 1;
	}
	for (int i = 0; i < nrows; i++) {
		int last = REPORT_COLS - 1;

		while (last > 0 && !row[i][last][0])
			last--;
		for (int j = 0; j <= last; j++)
			fprintf(f, j < right ? "%*s%s" : "%-*s%s", j < last ? w[j] : (j < right ? w[j] : 0), row[i][j],
				j < last ? (gap == 2 ? "  " : " ") : "\n");
	}
}

/* The ratio of the slowest to the fastest pair of cell c (per-hop
 * latency medians of the pairs), the slowest pair into *slow; NaN
 * unless at least 2 pairs have samples. */
static double pair_ratio(const struct sw_analysis *a, int c, int *slow)
{
	double lo = NAN, hi = NAN;

	for (size_t i = 0; i < a->npairstats; i++) {
		const struct sw_pair_stats *ps = &a->pair[i];

		if (ps->cell != c || !isfinite(ps->lat_median))
			continue;
		if (isnan(lo) || ps->lat_median < lo)
			lo = ps->lat_median;
		if (isnan(hi) || ps->lat_median > hi) {
			hi = ps->lat_median;
			*slow = ps->pair;
		}
	}
	return lo > 0 && hi > lo ? hi / lo : NAN;
}

/* Under a table: the levels whose value one pair dominates (fewer than
 * ANALYSIS_SLOW_PAIR_MIN pairs, so the slow-pair test cannot name it, and
 * the slowest pair REPORT_DOMINANT_RATIO times the fastest or more). */
static void print_dominant(FILE *f, const struct sw_run *r, const struct sw_analysis *a, int ci)
{
	const struct sw_plan *p = r->plan;
	int per = plan_cells_per_level(p);

	for (int l = 0; l < p->nlevels; l++) {
		int c = l * per + ci % per, slow = -1;
		double ratio;

		if (r->cell[c].stop == SW_STOP_NOT_RUN || a->cell[c].pairs >= ANALYSIS_SLOW_PAIR_MIN ||
		    pattern_info(p->cell[c].pattern)->incast)
			continue;
		ratio = pair_ratio(a, c, &slow);
		if (!(ratio >= REPORT_DOMINANT_RATIO))
			continue;
		struct sw_pair pq = plan_level_pair(p, l, slow);
		const struct sw_pair *pp = &pq;
		char rt[32], ha[SW_HOST_MAX * 4], hb[SW_HOST_MAX * 4];

		text_wrapped(f, "  ", "note: at %d nodes pair %d (ranks %d-%d, %s - %s) is %sx slower than the fastest "
			"pair and dominates the level's value: a slow pair, not necessarily the switch (the slow-pair "
			"test needs %d or more pairs)", a->cell[c].nodes, slow, pp->a, pp->b,
			text_term(ha, sizeof(ha), r->host[pp->a]), text_term(hb, sizeof(hb), r->host[pp->b]),
			fmt_num(rt, sizeof(rt), ratio), ANALYSIS_SLOW_PAIR_MIN);
	}
}

/* Cells with the same pattern, size and hops as cell ci, at every level.
 * Incast: senders for pairs, each sender's bandwidth, the aggregate at
 * the receiver and its drop against the baseline level (one sender).
 * Within 80 columns the medians go without their CIs and the change
 * without its p; wide (report --verbose) has them all. */
static void print_table(FILE *f, const struct sw_run *r, const struct sw_analysis *a, int ci, bool wide)
{
	const struct sw_plan *p = r->plan;
	const struct sw_cell *c0 = &p->cell[ci];
	int per = plan_cells_per_level(p), off = ci % per, n = 0;
	char sz[32], ms[32];
	bool latency = pattern_latency_metric(c0->pattern), incast = pattern_info(c0->pattern)->incast;
	int chg_col = wide && !latency ? 6 : 5;   /* wide: a bandwidth pattern's message rate before it */
	report_row *row = calloc((size_t)p->nlevels + 1, sizeof(*row));

	if (!row)
		return;
	config_format_size(c0->size, sz, sizeof(sz));
	fmt_val(ms, sizeof(ms), FMT_TIME, r->cfg.sample_time);
	if (incast) {
		struct sw_pair rx = plan_pair(p, ci, 0);

		fprintf(f, "\n%s %s, timed: every sender %s to one deadline, all to rank %d (%s)\n",
			pattern_name(c0->pattern), sz, ms, rx.b, r->host[rx.b]);
	} else if (c0->timed)
		fprintf(f, "\n%s %s, timed: every pair %s to one deadline\n", pattern_name(c0->pattern), sz, ms);
	else
		fprintf(f, "\n%s %s, %ld hops%s\n", pattern_name(c0->pattern), sz, c0->hops,
			r->cfg.nhops == 0 ? " (auto)" : "");
	print_caution(f, r, ci);
	snprintf(row[0][0], REPORT_CELL, "nodes");
	snprintf(row[0][1], REPORT_CELL, "%s", incast ? "senders" : "pairs");
	snprintf(row[0][2], REPORT_CELL, "%s%s", latency ? "latency/hop" : "time/message", wide ? " [CI]" : "");
	snprintf(row[0][3], REPORT_CELL, "%s%s", incast ? "per sender" : "per pair", wide ? " [CI]" : "");
	snprintf(row[0][4], REPORT_CELL, "%s%s", incast ? "at receiver" : "aggregate", wide ? " [CI]" : "");
	if (wide && !latency)
		snprintf(row[0][5], REPORT_CELL, "Mmsg/s %s", incast ? "sender/receiver" : "pair/aggr.");
	if (wide)
		snprintf(row[0][chg_col], REPORT_CELL, "vs baseline (+ = worse)");
	else
		snprintf(row[0][chg_col], REPORT_CELL, "%s [CI]", incast ? "receiver drop"
			 : change_name(latency ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH, false));
	for (int l = 0; l < p->nlevels; l++) {
		int c = l * per + off;
		const struct sw_cell_stats *cs = a ? &a->cell[c] : NULL;
		char *chg = row[n + 1][chg_col];
		size_t cl = REPORT_CELL;

		if (r->cell[c].stop == SW_STOP_NOT_RUN)
			continue;
		n++;
		snprintf(row[n][0], REPORT_CELL, "%d", cs ? cs->nodes : plan_nodes(p, c));
		snprintf(row[n][1], REPORT_CELL, "%d", cs ? cs->pairs : p->level_pairs[l]);
		if (!cs || cs->lat.n == 0) {
			snprintf(row[n][2], REPORT_CELL, "%s", r->cell[c].stop == SW_STOP_FAILED ? "failed" : "no samples");
			continue;
		}
		cell_ci(row[n][2], REPORT_CELL, FMT_TIME, &cs->lat, wide);
		cell_ci(row[n][3], REPORT_CELL, FMT_BW, &cs->bw, wide);
		cell_ci(row[n][4], REPORT_CELL, FMT_BW, &cs->agg, wide);
		if (wide && !latency)
			fmt_rates(row[n][5], REPORT_CELL, c0->size, cs);
		if (cs->baseline == c)
			snprintf(chg, cl, "baseline");
		else if (!wide)
			fmt_change_short(chg, cl, incast ? &cs->receiver_drop : latency ? &cs->inflation : &cs->drop);
		else if (incast)
			fmt_change(chg, cl, "receiver drop", &cs->receiver_drop);
		else if (latency)
			fmt_change(chg, cl, change_name(SW_METRIC_LATENCY, false), &cs->inflation);
		else
			fmt_change(chg, cl, change_name(SW_METRIC_BANDWIDTH, false), &cs->drop);
		if (cs->below_floor || (cs->baseline >= 0 && a->cell[cs->baseline].below_floor))
			sw_appendf(chg, cl, " short");
		if (cs->baseline != c)
			mark_cpu(chg, cl, r, c);
		if (cs->drifted)
			sw_appendf(chg, cl, " drift");
	}
	print_rows(f, row, n + 1, wide ? 2 : 5, !wide);
	free(row);
	if (a)
		print_dominant(f, r, a, ci);
}

/* Decimals that show a latency of s seconds in us with 4 significant
 * digits, and never in exponent form (0 from 1 ms up). */
#define US_DIGITS(s) ((s) * 1e6 >= 1000 ? 0 : (s) * 1e6 >= 100 ? 1 : (s) * 1e6 >= 10 ? 2 : 3)

/* The victims' CPU control of print_table's column ci (victims.h): the
 * median beside the aggressors, beside the aggressors only busy, and
 * alone; the CPU part and the network part of the inflation. */
static void print_cpu_control(FILE *f, const struct sw_run *r, const struct sw_analysis *a, int ci, bool wide)
{
	const struct sw_plan *p = r->plan;
	int per = plan_cells_per_level(p), off = ci % per;
	char cpu[96], net[96], med[64];
	const char *name = change_name(SW_METRIC_LATENCY, false);

	text_wrapped(f, "  ", "victims' CPU control (a round in which the aggressors streamed as fast through their "
		      "own loopback, crossing no switch): median one-way latency us loaded / control / alone; the CPU "
		      "part (control/alone) and the network part (loaded/control), within each repetition");
	if (wide)
		fprintf(f, "%5s %5s  %-30s %-52s %s\n", "nodes", "aggr.", "median loaded/control/alone", "CPU part",
			"network part");
	else
		fprintf(f, "%5s %5s  %-24s %s\n", "nodes", "aggr.", "CPU part [CI]", "network part [CI]");
	for (int l = 0; l < p->nlevels; l++) {
		int c = l * per + off;
		const struct sw_victim_stats *vs = &a->victim[c];

		if (r->cell[c].stop == SW_STOP_NOT_RUN || !vs->ncpu)
			continue;
		snprintf(med, sizeof(med), "%.*f / %.*f / %.*f", US_DIGITS(vs->net.level), vs->net.level * 1e6,
			 US_DIGITS(vs->cpu.level), vs->cpu.level * 1e6, US_DIGITS(vs->cpu.base), vs->cpu.base * 1e6);
		if (!wide) {
			fmt_change_short(cpu, sizeof(cpu), &vs->cpu);
			fmt_change_short(net, sizeof(net), &vs->net);
			fprintf(f, "%5d %5d  %-24s %s\n", plan_nodes(p, c), p->level_pairs[l], cpu, net);
			continue;
		}
		fmt_change(cpu, sizeof(cpu), name, &vs->cpu);
		fmt_change(net, sizeof(net), name, &vs->net);
		fprintf(f, "%5d %5d  %-30s %-52s %s\n", plan_nodes(p, c), p->level_pairs[l],
			vs->cpu.valid && vs->net.valid ? med : "-", cpu, net);
	}
}

/* The victims beside the cells of print_table's column ci: their one-way
 * latency beside the aggressors and alone, and its inflation. */
static void print_victims(FILE *f, const struct sw_run *r, const struct sw_analysis *a, int ci, bool wide)
{
	const struct sw_plan *p = r->plan;
	int per = plan_cells_per_level(p), off = ci % per;
	char sz[32], m[96], t[96], pairs[256] = "";
	int ncpu = 0;

	config_format_size(r->cfg.victim_size, sz, sizeof(sz));
	for (int i = 0; i < p->nvictims; i++)
		sw_appendf(pairs, sizeof(pairs), "%s%d-%d", i ? ", " : "", p->victim[i].a, p->victim[i].b);
	text_wrapped(f, "  ", "victims (pairs %s, pingpong %s): one-way latency us, beside the aggressors / alone "
		      "in the same repetitions (median over repetitions of the victims' sample median, and of their "
		      "p99); nodes and aggr. (aggressor pairs or senders) as in the table above, the victims on top",
		      pairs, sz);
	print_caution(f, r, ci);
	if (wide)
		fprintf(f, "%5s %5s  %-22s %-52s %-22s %s\n", "nodes", "aggr.", "median loaded/alone", "change",
			"p99 loaded/alone", "change");
	else
		fprintf(f, "%5s %5s  %-15s %-24s %s\n", "nodes", "aggr.", "median us l/a", "inflation [CI]",
			"p99 inflation [CI]");
	for (int l = 0; l < p->nlevels; l++) {
		int c = l * per + off;
		const struct sw_victim_stats *vs = &a->victim[c];
		char lm[48], lt[48];

		if (r->cell[c].stop == SW_STOP_NOT_RUN)
			continue;
		snprintf(lm, sizeof(lm), "%.*f / %.*f", US_DIGITS(vs->p50.level), vs->p50.level * 1e6,
			 US_DIGITS(vs->p50.base), vs->p50.base * 1e6);
		snprintf(lt, sizeof(lt), "%.*f / %.*f", US_DIGITS(vs->p99.level), vs->p99.level * 1e6,
			 US_DIGITS(vs->p99.base), vs->p99.base * 1e6);
		if (wide) {
			fmt_change(m, sizeof(m), change_name(SW_METRIC_LATENCY, false), &vs->p50);
			fmt_change(t, sizeof(t), change_name(SW_METRIC_LATENCY, false), &vs->p99);
		} else {
			fmt_change_short(m, sizeof(m), &vs->p50);
			fmt_change_short(t, sizeof(t), &vs->p99);
		}
		mark_cpu(m, sizeof(m), r, c);
		mark_cpu(t, sizeof(t), r, c);
		if (wide)
			fprintf(f, "%5d %5d  %-22s %-52s %-22s %s\n", plan_nodes(p, c), p->level_pairs[l],
				vs->p50.valid ? lm : "-", m, vs->p99.valid ? lt : "-", t);
		else
			fprintf(f, "%5d %5d  %-15s %-24s %s\n", plan_nodes(p, c), p->level_pairs[l],
				vs->p50.valid ? lm : "-", m, t);
		ncpu += vs->ncpu > 0;
	}
	if (ncpu)
		print_cpu_control(f, r, a, ci, wide);
}

static void print_classic(FILE *f, const struct sw_run *r, const struct sw_analysis *a)
{
	for (int c = 0; c < r->plan->ncells; c++) {
		const struct sw_cell *cell = &r->plan->cell[c];
		const struct sw_cell_stats *cs = a ? &a->cell[c] : NULL;

		long hops;

		if (!cs || cs->lat.n == 0)
			continue;
		/* a timed cell: the hops of a median sample of sample_time */
		hops = cell->hops ? cell->hops : (long)(r->cfg.sample_time / cs->lat.median + 0.5);
		fprintf(f, "%-8s size=%6llu, %5ld hops, %2d nodes in %5.2f sec (%5.1f us/hop) %6.0f KB/sec\n",
			pattern_name(cell->pattern), (unsigned long long)cell->size, hops, cs->nodes,
			cs->lat.median * (double)hops, cs->lat.median * 1e6, cs->bw.median / 1e3);
	}
}

/* Cells with samples below the floor (analysis.h). */
static void print_short(FILE *f, const struct sw_run *r, const struct sw_analysis *a)
{
	char sz[32];
	int low = 0;

	for (int c = 0; c < a->ncells; c++) {
		const struct sw_cell_stats *cs = &a->cell[c];
		const struct sw_cell *cell = &r->plan->cell[c];

		if (!cs->nshort)
			continue;
		if (low++ == 0)
			text_wrapped(f, "  ", "\nwarning: samples below the floor (fewer than %d messages, %d windows of a "
				     "fixed-hop stream or bidir, or shorter than %.3g us: %d timer ticks, %d one-byte round "
				     "trips): a cell marked short (most of its samples) is not trusted, its changes are "
				     "never significant; raise sample_time or hops:", ANALYSIS_FLOOR_MSGS,
				     ANALYSIS_FLOOR_WINDOWS, analysis_floor_seconds(r->wtick, r->round_trip) * 1e6,
				     ANALYSIS_FLOOR_TICKS, ANALYSIS_FLOOR_TRIPS);
		config_format_size(cell->size, sz, sizeof(sz));
		fprintf(f, "  %d nodes %s %s: %zu of %zu samples short%s\n", cs->nodes, pattern_name(cell->pattern),
			sz, cs->nshort, cs->lat_spread.n, cs->below_floor ? ", the cell is short" : "");
	}
}

/* Cells with missing samples (run.h): how many of how many, and why. */
static void print_missing(FILE *f, const struct sw_run *r, const struct sw_analysis *a)
{
	char sz[32], why[160];
	int shown = 0;

	for (int c = 0; c < a->ncells; c++) {
		const struct sw_cell_stats *cs = &a->cell[c];
		const struct sw_cell *cell = &r->plan->cell[c];

		if (!cs->nmissing)
			continue;
		if (shown++ == 0)
			text_wrapped(f, "  ", "\nwarning: missing samples (no usable time window: a busy host "
				     "descheduled the pair past the deadline, or the window was below the timer's "
				     "resolution), left out of every statistic; a cell marked short has more missing "
				     "than usable samples and is not trusted:");
		why[0] = '\0';
		for (int m = 1; m < SW_MISSING_COUNT; m++)
			if (cs->missing[m])
				sw_appendf(why, sizeof(why), "%s%zu %s", why[0] ? ", " : "", cs->missing[m],
					   run_missing_why(m));
		config_format_size(cell->size, sz, sizeof(sz));
		text_wrapped(f, "    ", "  %d nodes %s %s: %zu of %zu samples missing (%s)%s", cs->nodes,
			     pattern_name(cell->pattern), sz, cs->nmissing, cs->nmissing + cs->lat_spread.n, why,
			     cs->nmissing > cs->lat_spread.n ? ", the cell is short" : "");
	}
}

/* Drift control: each baseline-level cell measured again, and the mark. */
static void print_drift(FILE *f, const struct sw_run *r, const struct sw_analysis *a)
{
	char sz[32], chg[160];
	bool few = false;

	if (a->ndrift == 0)
		return;
	if (r->cfg.design == CFG_DESIGN_BLOCKS)
		text_wrapped(f, "  ", "\ndrift check: the baseline level's (%d pair%s) trend over the blocks "
			      "(Theil-Sen), first block to last (alpha %g / %d cell%s = %.3g):", r->plan->level_pairs[0],
			r->plan->level_pairs[0] == 1 ? "" : "s", r->cfg.alpha, a->ndrift, a->ndrift == 1 ? "" : "s",
			a->drift_alpha);
	else
		text_wrapped(f, "  ", "\ndrift control: the baseline level (%d pair%s) measured again after the last "
			"level, against the first time (alpha %g / %d cell%s = %.3g):", r->plan->level_pairs[0],
			r->plan->level_pairs[0] == 1 ? "" : "s", r->cfg.alpha, a->ndrift, a->ndrift == 1 ? "" : "s",
			a->drift_alpha);
	for (int i = 0; i < a->ndrift; i++) {
		const struct sw_drift *d = &a->drift[i];
		const struct sw_cell *cell = &r->plan->cell[d->cell];

		config_format_size(cell->size, sz, sizeof(sz));
		fmt_change(chg, sizeof(chg), change_name(d->metric, false), &d->change);
		fprintf(f, "  %s %s: %s\n", pattern_name(cell->pattern), sz, chg);
		few |= d->change.valid && !isfinite(d->change.lo);
	}
	if (few && r->cfg.design == CFG_DESIGN_BLOCKS)
		text_wrapped(f, "  ", "~: too few blocks to test a trend at alpha %.3g (%zu needed)", a->drift_alpha,
			     stats_rank_min_units(1, 1.0 - a->drift_alpha));
	if (a->drifted && r->cfg.design == CFG_DESIGN_BLOCKS)
		text_wrapped(f, "  ", "DRIFT: the speed changed significantly during the run; the changes against the "
			      "baseline level are computed within blocks, where a drift shared by a block's levels "
			      "cancels");
	else if (a->drifted)
		text_wrapped(f, "  ", "DRIFT: the baseline level changed significantly during the run: its changes "
			      "against the baseline level (marked drift) may be drift, not load");
	else
		fprintf(f, "no significant drift\n");
}

static void print_notes(FILE *f, const struct sw_run *r, const struct sw_analysis *a, bool verbose)
{
	int unconv = 0, lowov = 0, flagged = 0, blind = 0;
	char sz[32], host[4 * SW_HOST_MAX];
	/* a block design's change needs its sign-test interval's blocks */
	size_t min_reps = r->cfg.design == CFG_DESIGN_BLOCKS && r->plan->nlevels > 1 ? change_min_blocks(&r->cfg)
										      : CHANGE_MIN_REPS;

	for (size_t i = 0; i < a->npairstats; i++) {
		const struct sw_pair_stats *ps = &a->pair[i];
		const struct sw_cell *c = &r->plan->cell[ps->cell];
		struct sw_pair pq = plan_level_pair(r->plan, c->level, ps->pair);
		const struct sw_pair *pp = &pq;

		if (!ps->flagged)
			continue;
		if (flagged++ == 0)
			text_wrapped(f, "  ", "\nslow pairs (slower than the level's typical pair by more "
				"than %g%%, z beyond the Bonferroni limit for its pairs at %g%% per cell):",
				a->suspect_min_effect, a->suspect_alpha * 100);
		config_format_size(c->size, sz, sizeof(sz));
		fprintf(f, "  %d nodes %s %s: pair %d (ranks %d-%d, %s - %s) %+.1f%% slower, z = %.1f\n",
			2 * r->plan->level_pairs[c->level], pattern_name(c->pattern), sz, ps->pair, pp->a, pp->b,
			r->host[pp->a], r->host[pp->b], ps->effect, ps->z);
	}
	for (int i = 0; i < a->nsuspects; i++)
		fprintf(f, "%ssuspect port: %s (flagged in %d of %d cells)\n", i == 0 ? "\n" : "",
			text_term(host, sizeof(host), a->suspect[i].host), a->suspect[i].flagged, a->suspect[i].cells);
	for (int i = 0; i < a->nisolated; i++) {
		char ev[512];

		if (i == 0)
			text_wrapped(f, "  ", "\nisolation (each host of a flagged pair with %d hosts in no "
				"flagged pair, one pair at a time; a cleared host is no suspect):", ISOLATE_PARTNERS);
		isolate_evidence(&a->isolated[i], ev, sizeof(ev));
		fprintf(f, "  %s: %s\n", isolate_verdict_name(a->isolated[i].verdict), ev);
	}
	for (int c = 0; c < a->ncells; c++) {
		const struct sw_cell_stats *cs = &a->cell[c];
		const struct sw_cell *cell = &r->plan->cell[c];

		if (cs->lat.n == 0)
			continue;
		config_format_size(cell->size, sz, sizeof(sz));
		if (r->cell[c].stop == SW_STOP_MAX_REPS || r->cell[c].stop == SW_STOP_BUDGET) {
			if (unconv++ == 0)
				fprintf(f, "\nnot converged (median CI wider than ci_target %g):\n", r->cfg.ci_target);
			fprintf(f, "  %d nodes %s %s: stopped at %s after %d repetitions\n", cs->nodes,
				pattern_name(cell->pattern), sz, run_stop_name(r->cell[c].stop), r->cell[c].reps);
		}
		if ((size_t)r->cell[c].reps < min_reps) {
			if (blind++ == 0)
				text_wrapped(f, "  ", "\nwarning: fewer than %zu repetitions: no change of "
					"these cells can be significant (estimates only; set repetitions >= %zu):", min_reps,
					min_reps);
			fprintf(f, "  %d nodes %s %s: %d repetitions\n", cs->nodes, pattern_name(cell->pattern), sz,
				r->cell[c].reps);
		}
		if (cs->pairs > 1 && isfinite(cs->overlap) && cs->overlap < 0.9) {
			if (lowov++ == 0)
				text_wrapped(f, "  ", "\nwarning: pairs did not fully overlap in time (overlap "
					"< 0.9), the switch was not loaded as planned:");
			fprintf(f, "  %d nodes %s %s: overlap %.2f\n", cs->nodes, pattern_name(cell->pattern), sz,
				cs->overlap);
		}
	}
	print_short(f, r, a);
	print_missing(f, r, a);
	print_drift(f, r, a);
	for (int i = 0; i < a->nfits; i++) {
		const struct sw_fit *ft = &a->fit[i];
		char lo[32], hi[32], al[32], be[32], nh[32], r2[48];

		if (i == 0)
			fprintf(f, "\nHockney fit T(m) = alpha + m/beta of per-hop latency:\n");
		config_format_size(ft->size_lo, lo, sizeof(lo));
		config_format_size(ft->size_hi, hi, sizeof(hi));
		if (!isfinite(ft->beta) || ft->beta <= 0) {
			fprintf(f, "  %2d nodes %-8s %s..%s: no fit (latency does not grow with size)\n",
				2 * r->plan->level_pairs[ft->level], pattern_name(ft->pattern), lo, hi);
			continue;
		}
		if (ft->npoints > 2)
			snprintf(r2, sizeof(r2), "R^2\t%.4f", ft->r2);
		else   /* a line through two points: R^2 = 1 says nothing */
			snprintf(r2, sizeof(r2), "exact\tby\tconstruction\t(2\tsizes)");
		text_wrapped(f, "      ", "  %2d nodes %-8s %s..%s: alpha %s, beta %s, n1/2 %s B, %s",
			      2 * r->plan->level_pairs[ft->level], pattern_name(ft->pattern), lo, hi,
			      fmt_val(al, sizeof(al), FMT_TIME, ft->alpha), fmt_val(be, sizeof(be), FMT_BW, ft->beta),
			      fmt_num(nh, sizeof(nh), ft->n_half), r2);
	}
	if (verbose)
		fprintf(f, "\nmethod: %s\n", a->method);
	else {
		text_wrapped(f, "  ", "\nmethod: medians of per-repetition values (the repetition is the unit), %g%%\t"
			      "Bonett-Price\tCIs, a change significant at p < %g and beyond %g%%; in full: report "
			      "--verbose, run.json \"method\"", r->cfg.confidence * 100, r->cfg.alpha, r->cfg.min_effect);
	}
}

/* One "name value" item of a metadata line, when the value is given. */
static void add_item(char *buf, size_t len, const char *name, const char *value)
{
	if (*value)
		sw_appendf(buf, len, "%s%s%s", *buf ? ", " : "", name, value);
}

/* What was measured: the [switch] and [host] keys that are set. */
static char *mpi_line(char *buf, size_t len, const char *v);

static void print_setup(FILE *f, const struct sw_run *r)
{
	const struct sw_config *c = &r->cfg;
	char line[1024] = "", ports[32] = "", mpi[256], shown[4096];

	add_item(line, sizeof(line), "", c->vendor);
	add_item(line, sizeof(line), "model ", c->model);
	add_item(line, sizeof(line), "firmware ", c->firmware);
	add_item(line, sizeof(line), "ports ", c->port_speed);
	if (c->ports_used)
		snprintf(ports, sizeof(ports), "%d", c->ports_used);
	add_item(line, sizeof(line), "ports used ", ports);
	add_item(line, sizeof(line), "topology ", c->topology);
	add_item(line, sizeof(line), "oversubscription ", c->oversubscription);
	add_item(line, sizeof(line), "cabling ", c->cabling);
	add_item(line, sizeof(line), "notes: ", c->notes);
	fprintf(f, "switch: %s\n",
		*line ? text_term(shown, sizeof(shown), line) : "not described (set the [switch] keys)");
	line[0] = '\0';
	add_item(line, sizeof(line), "NIC ", c->nic);
	add_item(line, sizeof(line), "MPI transport ", c->transport);
	if (*line)
		fprintf(f, "hosts: %s\n", text_term(shown, sizeof(shown), line));
	fprintf(f, "MPI library: %s\n", text_term(shown, sizeof(shown), mpi_line(mpi, sizeof(mpi), r->mpi_version)));
}

/* The first line of an MPI library's version string, each run of blanks
 * (tabs too) one space: "MPICH Version: 4.0.2". */
static char *mpi_line(char *buf, size_t len, const char *v)
{
	size_t n = 0;

	for (const char *p = *v ? v : "unknown"; *p && *p != '\n' && n + 1 < len; p++) {
		if (*p == ' ' || *p == '\t') {
			if (n && buf[n - 1] != ' ')
				buf[n++] = ' ';
		} else
			buf[n++] = *p;
	}
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return buf;
}

/* The answer first: per pattern, the change of every size at the highest
 * load it reached; the first load with a significant change (the knee);
 * the slow ports flagged, or why none could be. */
static void print_summary(FILE *f, const struct sw_run *r, const struct sw_analysis *a)
{
	const struct sw_plan *p = r->plan;
	int per = plan_cells_per_level(p), knee = -1, tested = 0, untested = 0;
	char line[1024], chg[96], sz[32], host[4 * SW_HOST_MAX];

	fprintf(f, "\nsummary:\n");
	for (int pat = 0; pat < pattern_count(); pat++) {
		int top = -1;

		line[0] = '\0';
		for (int off = 0; off < per; off++) {
			if (p->cell[off].pattern != pat)
				continue;
			for (int l = p->nlevels - 1; l > 0; l--) {
				int c = l * per + off;
				const struct sw_cell_stats *cs = &a->cell[c];
				const struct sw_change *ch = pattern_info(pat)->incast ? &cs->receiver_drop
						: pattern_latency_metric(pat) ? &cs->inflation : &cs->drop;

				if (cs->lat.n == 0 || !ch->valid)
					continue;
				if (top < 0 || top == cs->nodes) {
					top = cs->nodes;
					config_format_size(p->cell[off].size, sz, sizeof(sz));
					fmt_pct(chg, sizeof(chg), ch->pct);
					if (!line[0])
						sw_appendf(line, sizeof(line), "%s ", change_name(pattern_latency_metric(pat)
							   ? SW_METRIC_LATENCY : SW_METRIC_BANDWIDTH, false));
					else
						sw_appendf(line, sizeof(line), ", ");
					sw_appendf(line, sizeof(line), "%s\t%s", sz, chg);
					if (isfinite(ch->lo))
						sw_appendf(line, sizeof(line), "\t[%+.1f,\t%+.1f]%s", ch->lo, ch->hi,
							   ch->significant ? " *" : "");
					else
						sw_appendf(line, sizeof(line), " ~");
					if (cs->drifted)
						sw_appendf(line, sizeof(line), " drift");
				}
				break;
			}
		}
		if (line[0])
			text_wrapped(f, "    ", "  %s at %d nodes (the highest load): %s", pattern_name(pat), top, line);
	}
	for (int l = 1; l < p->nlevels && knee < 0; l++)
		for (int off = 0; off < per; off++) {
			const struct sw_cell_stats *cs = &a->cell[l * per + off];

			if (cs->inflation.significant || cs->drop.significant || cs->receiver_drop.significant)
				knee = cs->nodes;
		}
	if (knee >= 0)
		fprintf(f, "  knee: the first significant change at %d nodes\n", knee);
	else
		fprintf(f, "  knee: no significant change at any load\n");
	for (int l = 0; l < p->nlevels; l++) {
		tested += p->level_pairs[l] >= ANALYSIS_SLOW_PAIR_MIN;
		untested += p->level_pairs[l] > 1 && p->level_pairs[l] < ANALYSIS_SLOW_PAIR_MIN;
	}
	for (int i = 0; i < a->nsuspects; i++)
		fprintf(f, "  suspect port: %s (flagged in %d of %d cells)\n",
			text_term(host, sizeof(host), a->suspect[i].host), a->suspect[i].flagged, a->suspect[i].cells);
	if (!a->nsuspects)
		text_wrapped(f, "    ", "  slow ports: none flagged%s", !tested ? ", and none could be: the slow-pair "
			      "test needs 3 or more pairs in a level" : untested ? " (levels of 2 pairs untested: the "
			      "slow-pair test needs 3 or more)" : "");
}

/* One pattern and size of a map run: mapout_analyse's rc, its result b
 * (rc 0: blame_free it) or why there is none (err). */
struct map_set {
	int rc;
	struct blame_result b;
	char err[512];
};

struct report_maps {
	int n;                    /* npatterns * nsizes of the run */
	struct map_set set[];     /* pattern i, size j at i * nsizes + j */
};

/* Set s from r's pattern i and size j; returns s. */
static struct map_set *analyse_set(const struct sw_run *r, int i, int j, struct map_set *s)
{
	s->rc = mapout_analyse(r, r->cfg.patterns[i], r->cfg.sizes[j], &s->b, s->err, sizeof(s->err));
	return s;
}

static void free_set(struct map_set *s)
{
	if (!s->rc)
		blame_free(&s->b);
}

struct report_maps *report_maps_analyse(const struct sw_run *r)
{
	int n = r->cfg.npatterns * r->cfg.nsizes;
	struct report_maps *m = malloc(sizeof(*m) + (size_t)n * sizeof(m->set[0]));

	if (!m)
		return NULL;
	m->n = n;
	for (int i = 0; i < r->cfg.npatterns; i++)
		for (int j = 0; j < r->cfg.nsizes; j++)
			analyse_set(r, i, j, &m->set[i * r->cfg.nsizes + j]);
	return m;
}

void report_maps_free(struct report_maps *m)
{
	if (!m)
		return;
	for (int k = 0; k < m->n; k++)
		free_set(&m->set[k]);
	free(m);
}

/* A map run: the map's tables for each pattern and size, in place of the
 * summary, the per-level tables and their notes (levels mean nothing
 * there); from m when given, else each analysed here in turn. */
static void print_map(FILE *f, const struct sw_run *r, const struct report_maps *m)
{
	for (int i = 0; i < r->cfg.npatterns; i++)
		for (int j = 0; j < r->cfg.nsizes; j++) {
			struct map_set own;
			const struct map_set *s = m ? &m->set[i * r->cfg.nsizes + j] : analyse_set(r, i, j, &own);

			fprintf(f, "\n%s, %" PRIu64 " bytes:", pattern_name(r->cfg.patterns[i]), r->cfg.sizes[j]);
			if (s->rc) {
				fprintf(f, " no statistics: %s\n", s->err);
			} else {
				fputc('\n', f);
				blame_report(f, &s->b, 10);
			}
			if (!m)
				free_set(&own);
		}
}

static bool has_cell(const struct sw_run *r, int pattern, uint64_t size)
{
	for (int i = 0; i < r->plan->ncells; i++)
		if (r->plan->cell[i].pattern == pattern && r->plan->cell[i].size == size)
			return true;
	return false;
}

int report_map_check(const struct sw_run *r, const struct sw_run *u, char *err, size_t errlen)
{
	int common = 0;

	if (r->cfg.schedule != CFG_SCHEDULE_MAP || u->cfg.schedule != CFG_SCHEDULE_MAP)
		return sw_fail(err, errlen, "--unloaded: %s is not a fabric map (schedule = map)",
			       r->cfg.schedule != CFG_SCHEDULE_MAP ? r->name : u->name);
	if (u->nranks != r->nranks)
		return sw_fail(err, errlen, "--unloaded: %s has %d ranks, %s %d: not a map of the same hosts",
			       u->name, u->nranks, r->name, r->nranks);
	for (int i = 0; i < r->nranks; i++)
		if (strcmp(r->host[i], u->host[i]))
			return sw_fail(err, errlen, "--unloaded: rank %d is on %s in %s but on %s in %s: not a map of "
				       "the same hosts", i, u->host[i], u->name, r->host[i], r->name);
	for (int i = 0; i < r->cfg.npatterns; i++)
		for (int j = 0; j < r->cfg.nsizes; j++)
			common += has_cell(u, r->cfg.patterns[i], r->cfg.sizes[j]);
	return common ? 0 : sw_fail(err, errlen, "--unloaded: %s and %s have no pattern and size in common",
				    r->name, u->name);
}

int report_map_contrast(FILE *f, const struct sw_run *r, struct report_maps *m, const struct sw_run *u, char *err,
			size_t errlen)
{
	if (u->cfg.map_concurrency != 1) {
		char k[16] = "all";

		if (u->cfg.map_concurrency)
			snprintf(k, sizeof(k), "%d", u->cfg.map_concurrency);
		text_wrapped(f, "  ", "\nnote: %s ran more than one pair at once (map_concurrency = %s), not one: "
			     "its claims may be congestion too", u->name, k);
	}
	for (int i = 0; i < r->cfg.npatterns; i++)
		for (int j = 0; j < r->cfg.nsizes; j++) {
			int pat = r->cfg.patterns[i];
			uint64_t size = r->cfg.sizes[j];
			struct map_set *s = &m->set[i * r->cfg.nsizes + j];
			struct blame_result ub;
			char sz[32];

			if (!has_cell(u, pat, size))
				continue;
			if (s->rc)
				return sw_fail(err, errlen, "%s", s->err);
			if (mapout_analyse(u, pat, size, &ub, err, errlen))
				return -1;
			if (blame_contrast(&s->b, &ub, err, errlen)) {
				blame_free(&ub);
				return -1;
			}
			config_format_size(size, sz, sizeof(sz));
			text_wrapped(f, "  ", "\n%s %s, loaded (%s) against unloaded (%s): a fault is slow on both maps, "
				     "congestion only under load", pattern_name(pat), sz, r->name, u->name);
			blame_report_claims(f, &s->b);
			blame_free(&ub);
		}
	return 0;
}

/* Whether any level of column off (a pattern, size and hops) was run. */
static bool column_run(const struct sw_run *r, int off)
{
	int per = plan_cells_per_level(r->plan);

	for (int l = 0; l < r->plan->nlevels; l++)
		if (r->cell[l * per + off].stop != SW_STOP_NOT_RUN)
			return true;
	return false;
}

/* A run that stopped early (a .partial folder, a run.json of complete
 * false): what stopped it and how many cells finished, before the
 * tables of those cells alone (no headline over empty tables). */
static void print_incomplete(FILE *f, const struct sw_run *r)
{
	int done = 0;

	for (int c = 0; c < r->plan->ncells; c++)
		done += r->cell[c].stop != SW_STOP_NOT_RUN;
	if (done)
		text_wrapped(f, "  ", "\nINCOMPLETE: %s; %d of %d cells finished (their tables below; no summary "
			     "of a run cut short)", r->failure[0] ? r->failure : "the sweep did not finish", done,
			     r->plan->ncells);
	else
		text_wrapped(f, "  ", "\nINCOMPLETE: %s; none of its %d cells finished: nothing to report",
			     r->failure[0] ? r->failure : "the sweep did not finish", r->plan->ncells);
}

void report_print(FILE *f, const struct sw_run *r, const struct sw_analysis *a, int format)
{
	report_print_maps(f, r, a, format, NULL);
}

void report_print_maps(FILE *f, const struct sw_run *r, const struct sw_analysis *a, int format,
		       const struct report_maps *m)
{
	char rtt[32] = "not measured", tick[32];
	bool verbose = format & REPORT_VERBOSE;

	format &= ~REPORT_VERBOSE;
	if (isfinite(r->round_trip))
		fmt_val(rtt, sizeof(rtt), FMT_TIME, r->round_trip);
	fprintf(f, "swstress %s: %s, %d ranks, %s\n", r->tool_version, r->name, r->nranks, r->started);
	text_wrapped(f, "  ", "timer: MPI_Wtime, resolution %s%s, one-byte round trip %s; %s",
		fmt_val(tick, sizeof(tick), FMT_TIME, r->wtick), r->wtime_global ? " (global clock)" : "", rtt,
		r->yield ? "ranks yielded the CPU while waiting (more ranks than cores)" : "ranks polled while waiting");
	print_setup(f, r);
	if (r->cfg.schedule == CFG_SCHEDULE_MAP)
		print_map(f, r, m);
	else if (format == REPORT_CLASSIC)
		print_classic(f, r, a);
	else {
		if (!r->complete)
			print_incomplete(f, r);
		else if (a)
			print_summary(f, r, a);
		text_wrapped(f, "  ", "\nvalues: the median over repetitions of each repetition's median over its "
			      "pairs%s; MB/s = 10^6 bytes/s%s; change: against the baseline level (inflation = "
			      "level/baseline - 1, drop = 1 - level/baseline) [%g%%\tCI]; * significant, ~ CI needs "
			      "more repetitions, short below the sample floor (never significant)",
			      verbose ? " [CI]" : " (their CIs and the message rates: report --verbose)",
			      verbose ? "; Mmsg/s = 10^6 messages/s (both ways for bidir; at one size it falls off as the "
			      "bandwidth does)" : "", r->cfg.confidence * 100);
		for (int c = 0; c < plan_cells_per_level(r->plan); c++) {
			if (!r->complete && !column_run(r, c))
				continue;
			print_table(f, r, a, c, verbose);
			if (a && a->victim)
				print_victims(f, r, a, c, verbose);
		}
	}
	if (a && r->cfg.schedule != CFG_SCHEDULE_MAP)
		print_notes(f, r, a, verbose);
	if (!r->complete)
		fprintf(f, "\nINCOMPLETE: %s\n", r->failure[0] ? r->failure : "the sweep did not finish");
}

char *report_string(const struct sw_run *r, const struct sw_analysis *a, int format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	report_print(f, r, a, format);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
