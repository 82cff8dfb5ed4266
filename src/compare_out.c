/*
 * compare_out.c - the outputs of swstress compare: the text tables, the
 * Markdown report, the JSON document and the overlay charts, all read from
 * the struct compare that compare_create filled (compare.c); see compare.h.
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
#include "text.h"
#include "config.h"
#include "fmt.h"
#include "pattern.h"
#include "plot.h"
#include "results.h"
#include "sfile.h"
#include "stats.h"

#define LETTER(i) ((char)('A' + (i)))
#define MAXI(a, b) ((a) > (b) ? (a) : (b))

/* ---------------------------------------------------------------- */
/* Text and Markdown                                                  */

/* " cpu" after the latency of run i's cell when its busy ranks
 * outnumbered the cores of a kernel they share (run_cell_cpu_bound): the
 * latency includes waiting for a CPU, not only the switch. */
static void mark_cpu(char *buf, size_t len, const struct compare *c, int i, int cell, bool latency)
{
	int k, n;

	if (latency && cell >= 0 && run_cell_cpu_bound(c->run[i], cell, &k, &n))
		sw_appendf(buf, len, " cpu");
}

/* Switch s's value in matched cell m: one run's median [CI], marked cpu
 * when CPU-bound; several runs' geometric mean and their range. */
static void fmt_value(char *buf, size_t len, const struct compare *c, const struct compare_cell *m, int s)
{
	const struct compare_value *v = &m->sv[s];
	enum fmt_unit u = m->latency ? FMT_TIME : FMT_BW;
	char lo[32], hi[32];

	if (v->n == 0 || !isfinite(v->median)) {
		snprintf(buf, len, "-");
		return;
	}
	if (c->sw_runs[s] > 1) {
		fmt_val(buf, len, u, v->median);
		sw_appendf(buf, len, " (runs %s..%s)", fmt_val(lo, sizeof(lo), u, v->lo), fmt_val(hi, sizeof(hi), u, v->hi));
		return;
	}
	fmt_ci(buf, len, u, v->median, v->lo, v->hi, v->ci_ok);
	mark_cpu(buf, len, c, s, m->cell[s], m->latency);
}

static void fmt_hops(char *buf, size_t len, long hops)
{
	if (hops == 0)
		snprintf(buf, len, "auto");
	else
		snprintf(buf, len, "%ld", hops);
}

void compare_worse_text(const struct compare_stmt *s, bool latency, bool ci, char *buf, size_t len)
{
	bool ok = ci && isfinite(s->lo) && isfinite(s->hi);
	char ci_s[48];

	if (!s->valid)
		snprintf(buf, len, "-");
	else if (s->pct > -0.05) {
		snprintf(buf, len, "%+.1f%% worse", fabs(s->pct) < 0.05 ? 0.0 : s->pct);
		if (ok)
			sw_appendf(buf, len, "%s", compare_ci(ci_s, sizeof(ci_s), s->pct_lo, s->pct_hi));
	} else {   /* better: by how much, or the ratio of the values X / A */
		double r = exp(latency ? s->d : -s->d), rlo = exp(latency ? s->lo : -s->hi),
		       rhi = exp(latency ? s->hi : -s->lo);

		if (latency ? r > 2.0 / 3.0 : r < 1.5) {
			snprintf(buf, len, "%.1f%% better", -s->pct);
			if (ok)
				sw_appendf(buf, len, "%s", compare_ci(ci_s, sizeof(ci_s), -s->pct_hi, -s->pct_lo));
		} else {
			snprintf(buf, len, "%.2fx %s", r, latency ? "lat" : "bw");
			if (ok)
				sw_appendf(buf, len, " [%.2f, %.2f]", rlo, rhi);
		}
	}
	if (s->valid && s->significant)
		sw_appendf(buf, len, " *");
}

/* The p that decided a statement: Holm-adjusted; "-" when not tested. */
static void fmt_stmt_p(char *buf, size_t len, const struct compare_stmt *s)
{
	if (!s->valid)
		snprintf(buf, len, "-");
	else if (!s->tested)
		snprintf(buf, len, "n/t");
	else
		stats_format_p(buf, len, s->p_adj);
}

/* The switches that are compared (the first run of each, with runs). */
static bool is_switch(const struct compare *c, int i)
{
	return c->sw[i] == i && c->sw_runs[i] > 0;
}

static void fmt_est(char *buf, size_t len, enum fmt_unit u, double x, double lo, double hi)
{
	if (!isfinite(x))
		snprintf(buf, len, "-");
	else if (isfinite(lo) && isfinite(hi))
		fmt_ci(buf, len, u, x, lo, hi, true);
	else
		fmt_val(buf, len, u, x);
}

static void fmt_change(char *buf, size_t len, const struct sw_change *ch)
{
	if (!ch->valid)
		snprintf(buf, len, "baseline");
	else if (!isfinite(ch->lo))
		snprintf(buf, len, "%+.1f%% ~", ch->pct);   /* too few repetitions to test */
	else {
		char ci[48];

		snprintf(buf, len, "%+.1f%%%s%s", ch->pct, compare_ci(ci, sizeof(ci), ch->lo, ch->hi),
			 ch->significant ? " *" : "");
	}
}

static void fmt_diff(char *buf, size_t len, const struct compare_stmt *s)
{
	if (!s->valid)
		snprintf(buf, len, "-");
	else if (isfinite(s->pct_lo) && isfinite(s->pct_hi))
	{
		char ci[48];

		snprintf(buf, len, "%+.1f%s%s", s->pct, compare_ci(ci, sizeof(ci), s->pct_lo, s->pct_hi),
			 s->significant ? " *" : "");
	}
	else
		snprintf(buf, len, "%+.1f", s->pct);
}

/* Run i's change in row r is against the baseline level of a sequential
 * run that drifted (analysis.h: drifted). */
static bool drifted(const struct compare *c, const struct compare_summary_row *r, int i)
{
	return r->run[i].valid && r->run[i].cell >= 0 && c->an[i]->cell[r->run[i].cell].drifted;
}

/* Switch s's name in a row: "A swA" (one run: its letter and label),
 * "SwA (3 runs)"; letters: "A" or "A (3)". */
static void switch_row_name(char *buf, size_t len, const struct compare *c, int s, bool letters)
{
	if (c->sw_runs[s] <= 1)
		snprintf(buf, len, letters ? "%c" : "%c %s", LETTER(s), c->label[s]);
	else if (letters)
		snprintf(buf, len, "%c (%d)", LETTER(s), c->sw_runs[s]);
	else
		snprintf(buf, len, "%s (%d runs)", compare_switch_name(c, s), c->sw_runs[s]);
}

/* Any run of switch s drifted in row r. */
static bool sw_drifted(const struct compare *c, const struct compare_summary_row *r, int s)
{
	bool d = false;

	for (int i = 0; i < c->nruns; i++)
		d |= c->sw[i] == s && c->copy_of[i] < 0 && drifted(c, r, i);
	return d;
}

void compare_row(const struct compare *c, const struct compare_summary_row *r, int i, struct compare_row_text *t)
{
	const struct compare_level *l = &r->sw[i];

	switch_row_name(t->run, sizeof(t->run), c, i, false);
	fmt_est(t->lat, sizeof(t->lat), FMT_TIME, l->lat, l->lat_lo, l->lat_hi);
	fmt_est(t->agg, sizeof(t->agg), FMT_BW, l->agg, l->agg_lo, l->agg_hi);
	if (pattern_latency_metric(r->pattern))
		snprintf(t->rate, sizeof(t->rate), "-");
	else
		fmt_est(t->rate, sizeof(t->rate), FMT_RATE, pattern_msgrate(r->size, l->agg),
			pattern_msgrate(r->size, l->agg_lo), pattern_msgrate(r->size, l->agg_hi));
	fmt_change(t->change, sizeof(t->change), &l->change);
	if (l->valid && l->runs == 1)
		mark_cpu(t->change, sizeof(t->change), c, i, l->cell, pattern_latency_metric(r->pattern));
	if (sw_drifted(c, r, i))
		sw_appendf(t->change, sizeof(t->change), " drift");
	stats_format_p(t->p, sizeof(t->p), l->change.valid ? l->change.p : NAN);
	if (i == c->sw[0])
		t->diff[0] = '\0';
	else {
		fmt_diff(t->diff, sizeof(t->diff), &r->s[i]);
		if (sw_drifted(c, r, i) || sw_drifted(c, r, c->sw[0]))
			sw_appendf(t->diff, sizeof(t->diff), " drift");
	}
}

static const char *metric_title(int pattern)
{
	return pattern_latency_metric(pattern) ? "per-hop latency (lower is better)"
				       : "per-pair bandwidth, MB/s = 10^6 bytes/s (higher is better)";
}

static void present_list(const struct compare *c, const bool *present, bool want, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < c->nruns; i++)
		if (present[i] == want)
			sw_appendf(buf, len, "%s%c", buf[0] ? ", " : "", LETTER(i));
}

/* ---------------------------------------------------------------- */
/* Maps: the hosts and the group bottlenecks side by side              */

typedef void (*line_fn)(FILE *f, const char *line);

/* The lines of map comparison cm after its verdict: the hosts that
 * changed most (worst first, at most 10), then each run's group
 * boundaries and uplinks; each through emit (text and Markdown alike). */
static void map_lines(FILE *f, const struct compare *c, const struct compare_map *cm, line_fn emit)
{
	const struct mapcmp *m = &cm->m;
	const struct blame_result *ra = &c->blame[cm->ps * c->nruns];
	bool lat = m->metric == BLAME_LATENCY;
	enum fmt_unit u = lat ? FMT_TIME : FMT_BW;
	char t[512], sz[32], a[64], b[64], x[16], y[16], z[16];
	int order[256], no = 0;

	config_format_size_spaced(cm->size, sz, sizeof(sz));
	snprintf(t, sizeof(t), "%s %s map, %s against %s: hosts, %s over %s beyond the fabric-wide shift (worst first)",
		 pattern_name(cm->pattern), sz, c->label[cm->x], c->label[0], c->label[cm->x], c->label[0]);
	emit(f, t);
	for (int i = 0; i < m->nhost && no < 256; i++)
		if (isfinite(m->host[i].rel))
			order[no++] = i;
	/* worst first: bandwidth lowest ratio, latency highest; insertion sort */
	for (int i = 1; i < no; i++)
		for (int j = i; j > 0; j--) {
			double p = m->host[order[j - 1]].rel, q = m->host[order[j]].rel;

			if (lat ? q <= p : q >= p)
				break;
			int k = order[j];

			order[j] = order[j - 1];
			order[j - 1] = k;
		}
	int hw = 4;   /* the host names' column: as wide as the longest shown, 20 at most */

	for (int k = 0; k < no && k < 10; k++)
		hw = MAXI(hw, (int)strlen(ra->host[m->host[order[k]].a].name));
	hw = hw > 20 ? 20 : hw;
	for (int k = 0; k < no && k < 10; k++) {
		const struct mapcmp_host *h = &m->host[order[k]];

		stats_format_p(a, sizeof(a), h->claim > 0 ? h->p_fast : h->p_slow);
		if (m->runs_unit)
			snprintf(b, sizeof(b), "%d runs a side", h->n);
		else
			snprintf(b, sizeof(b), "%d partners (%d slower, %d faster beyond %.0f%%)", h->n, h->slower,
				 h->faster, expm1(m->thresh) * 100.0);
		snprintf(t, sizeof(t), "  %-*s  %7sx  %s  p %s%s", hw, ra->host[h->a].name, fmt_num(x, sizeof(x), h->rel), b, a,
			 h->claim < 0 ? "  SLOWER" : h->claim > 0 ? "  FASTER" : "");
		emit(f, t);
	}
	snprintf(t, sizeof(t), "%s %s map: group bottlenecks side by side (crossing links [CI]; against the "
		 "links within; capacity: what the crossing pairs carried one way in the rounds with the most of them [CI])",
		 pattern_name(cm->pattern), sz);
	emit(f, t);
	for (int i = 0; i < c->nruns; i++) {
		const struct blame_result *r = &c->blame[cm->ps * c->nruns + i];
		int shown = 0;

		if (c->sw[i] != c->sw[0] && c->sw[i] != cm->x)
			continue;
		for (size_t k = 0; k < r->nbound; k++) {
			const struct blame_boundary *bd = &r->bound[k];

			fmt_ci(a, sizeof(a), u, bd->median, bd->lo, bd->hi, bd->n >= 2);
			if (isfinite(bd->capacity))
				fmt_ci(b, sizeof(b), u, bd->capacity, bd->cap_lo, bd->cap_hi, true);
			else
				snprintf(b, sizeof(b), "-");
			snprintf(t, sizeof(t), "  %c %s: %s %s|%s: crossing %s, %sx [%s, %s] within, capacity %s%s",
				 LETTER(i), c->label[i], r->ngroup == 2 ? "trunk" : "boundary", r->group[bd->g].name,
				 r->group[bd->h].name, a, fmt_num(x, sizeof(x), bd->rel), fmt_num(y, sizeof(y), bd->rel_lo),
				 fmt_num(z, sizeof(z), bd->rel_hi), b, bd->flagged ? "  SLOW" : "");
			emit(f, t);
			shown++;
		}
		for (int g = 0; g < r->ngroup && r->ngroup > 2; g++) {
			const struct blame_group *gr = &r->group[g];

			if (!isfinite(gr->rel))
				continue;
			snprintf(t, sizeof(t), "  %c %s: uplink of %s: %sx [%s, %s] the other crossing links%s", LETTER(i),
				 c->label[i], gr->name, fmt_num(x, sizeof(x), gr->rel), fmt_num(y, sizeof(y), gr->lo),
				 fmt_num(z, sizeof(z), gr->hi), gr->flagged ? "  SLOW" : "");
			emit(f, t);
			shown++;
		}
		if (!shown) {
			snprintf(t, sizeof(t), "  %c %s: %d group%s %s: no boundary", LETTER(i), c->label[i], r->ngroup,
				 r->ngroup == 1 ? "" : "s", r->inferred ? "inferred" : "from the topology");
			emit(f, t);
		}
	}
}

/* A line of the map comparison on a terminal: within 80 columns, the
 * rest of a long one indented under it. */
static void text_line(FILE *f, const char *line)
{
	text_wrapped_put(f, "    ", line);
}

static void md_line(FILE *f, const char *line)
{
	const char *p = line;

	while (*p == ' ')
		p++;
	fprintf(f, p == line ? "\n%s\n\n" : "- %s\n", p);
}

/* PREFIX TEXT ("answer: ...", "verdict: ...") within 80 columns, the rest
 * under indent; "[CI n/a]" is kept on one line (a tab: a blank
 * text_wrapped never breaks at). */
static void print_kept(FILE *f, const char *indent, const char *prefix, const char *text)
{
	size_t n = strlen(prefix) + strlen(text) + 1;
	char *buf = malloc(n), *p;

	if (!buf) {
		fprintf(f, "%s%s\n", prefix, text);
		return;
	}
	snprintf(buf, n, "%s%s", prefix, text);
	for (p = buf; (p = strstr(p, "[CI n/a]")); p += 8)
		p[3] = '\t';
	text_wrapped_put(f, indent, buf);
	free(buf);
}

/* A text table: row 0 the header, at most TAB_COLS columns of at most
 * TAB_CELL bytes; a column whose bit is set in right is right-aligned,
 * one empty in every row is left out.
 * Two blanks between columns, one when fit and a row would pass
 * TEXT_WIDTH. */
#define TAB_COLS 8
#define TAB_CELL 112
typedef char tab_row[TAB_COLS][TAB_CELL];

static int tab_last(const tab_row r)
{
	int last = TAB_COLS - 1;

	while (last > 0 && !r[last][0])
		last--;
	return last;
}

/* The widest row of rows[0..n-1] with gap blanks between columns. */
static int tab_width(tab_row *row, int n, int gap, int *w)
{
	int width = 0;

	for (int j = 0; j < TAB_COLS; j++)
		w[j] = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < TAB_COLS; j++)
			w[j] = MAXI(w[j], (int)strlen(row[i][j]));
	for (int i = 0; i < n; i++) {
		int last = tab_last(row[i]), x = 0;

		for (int j = 0; j <= last; j++)
			x += j < last ? (w[j] ? w[j] + gap : 0) : (int)strlen(row[i][j]);
		width = MAXI(width, x);
	}
	return width;
}

static void tab_print(FILE *f, tab_row *row, int n, unsigned right, bool fit)
{
	int w[TAB_COLS], gap = fit && tab_width(row, n, 2, w) > TEXT_WIDTH ? 1 : 2;

	tab_width(row, n, gap, w);

	for (int i = 0; i < n; i++) {
		int last = tab_last(row[i]);

		for (int j = 0; j <= last; j++) {
			bool r = right & (1u << j);

			if (!w[j])   /* a column empty in every row takes no room */
				continue;
			fprintf(f, r ? "%*s" : "%-*s", j < last || r ? w[j] : 0, row[i][j]);
			fprintf(f, "%s", j < last ? (gap == 2 ? "  " : " ") : "\n");
		}
	}
}

/* A median without its CI, "-" when there is none. */
static void fmt_plain(char *buf, size_t len, enum fmt_unit u, double x)
{
	if (!isfinite(x))
		snprintf(buf, len, "-");
	else
		fmt_val(buf, len, u, x);
}

/* The matched cells of pattern pat, a row per switch (the rows of one
 * cell under its size, nodes and hops): its value, the statement against
 * A's switch and its p; with verbose the CIs. Rows into row[1..],
 * returns their count + 1. */
static int cells_rows(const struct compare *c, int pat, bool verbose, bool letters, tab_row *row)
{
	int n = 1;

	memset(row[0], 0, sizeof(row[0]));
	snprintf(row[0][0], TAB_CELL, "size");
	snprintf(row[0][1], TAB_CELL, "nodes");
	snprintf(row[0][2], TAB_CELL, "hops");
	snprintf(row[0][3], TAB_CELL, "switch");
	snprintf(row[0][4], TAB_CELL, "median%s", verbose ? " [CI]" : "");
	snprintf(row[0][6], TAB_CELL, "vs A%s", verbose ? " [CI]" : "");
	snprintf(row[0][7], TAB_CELL, "p");
	for (int k = 0; k < c->ncells; k++) {
		const struct compare_cell *m = &c->cells[k];
		bool first = true;

		if (m->pattern != pat)
			continue;
		for (int i = 0; i < c->nruns; i++) {
			char *v = row[n][4];

			if (!is_switch(c, i))
				continue;
			memset(row[n], 0, sizeof(row[n]));
			if (first) {
				config_format_size_spaced(m->size, row[n][0], TAB_CELL);
				snprintf(row[n][1], TAB_CELL, "%d", m->nodes);
				fmt_hops(row[n][2], TAB_CELL, m->hops);
			}
			switch_row_name(row[n][3], TAB_CELL, c, i, letters);
			if (verbose)
				fmt_value(v, TAB_CELL, c, m, i);
			else if (m->sv[i].n == 0 || !isfinite(m->sv[i].median))
				snprintf(v, TAB_CELL, "-");
			else {   /* the mark in a column of its own: the units stay aligned */
				fmt_val(v, TAB_CELL, m->latency ? FMT_TIME : FMT_BW, m->sv[i].median);
				if (c->sw_runs[i] == 1)
					mark_cpu(row[n][5], TAB_CELL, c, i, m->cell[i], m->latency);
				if (row[n][5][0] == ' ')
					memmove(row[n][5], row[n][5] + 1, strlen(row[n][5]));
			}
			n++;
			if (first) {
				first = false;
				continue;
			}
			compare_worse_text(&m->s[i], m->latency, verbose, row[n - 1][6], TAB_CELL);
			fmt_stmt_p(row[n - 1][7], TAB_CELL, &m->s[i]);
		}
	}
	return n;
}

/* The node count of summary rows k0..k1-1 when they share one, else 0. */
static int one_nodes(const struct compare *c, int k0, int k1)
{
	for (int k = k0 + 1; k < k1; k++)
		if (c->summary[k].nodes != c->summary[k0].nodes)
			return 0;
	return c->summary[k0].nodes;
}

/* The summary rows of pattern pat (c->summary[k0..k1-1]), a row per
 * switch: the degradation and the difference against A's switch with
 * their CIs (the answer) after the pattern's own value (per-hop latency
 * of a latency pattern, else the aggregate bandwidth); verbose: latency
 * (or time per message), aggregate and message rate. Returns the rows
 * + 1. */
static int summary_rows(const struct compare *c, int k0, int k1, bool verbose, bool letters, tab_row *row)
{
	int pat = c->summary[k0].pattern, n = 1, j = 3;
	bool lat = pattern_latency_metric(pat), one = one_nodes(c, k0, k1) > 0;

	memset(row[0], 0, sizeof(row[0]));
	snprintf(row[0][0], TAB_CELL, "size");
	if (!one)   /* else the heading says it */
		snprintf(row[0][1], TAB_CELL, "nodes");
	snprintf(row[0][2], TAB_CELL, "switch");
	if (verbose) {
		snprintf(row[0][j++], TAB_CELL, "%s [CI]", lat ? "latency/hop" : "time/message");
		snprintf(row[0][j++], TAB_CELL, "aggregate [CI]");
		snprintf(row[0][j++], TAB_CELL, "message rate [CI]");
	} else
		snprintf(row[0][j++], TAB_CELL, "%s", lat ? "latency/hop" : "aggregate");
	snprintf(row[0][j++], TAB_CELL, "degradation [CI]");
	snprintf(row[0][j], TAB_CELL, "vs A, points [CI]");
	for (int k = k0; k < k1; k++) {
		const struct compare_summary_row *r = &c->summary[k];
		bool first = true;

		for (int i = 0; i < c->nruns; i++) {
			const struct compare_level *l = &r->sw[i];
			struct compare_row_text t;

			if (!is_switch(c, i))
				continue;
			compare_row(c, r, i, &t);
			memset(row[n], 0, sizeof(row[n]));
			if (first)
				config_format_size_spaced(r->size, row[n][0], TAB_CELL);
			first = false;
			if (!one)
				snprintf(row[n][1], TAB_CELL, "%d", r->nodes);
			switch_row_name(row[n][2], TAB_CELL, c, i, letters);
			j = 3;
			if (verbose) {
				snprintf(row[n][j++], TAB_CELL, "%s", t.lat);
				snprintf(row[n][j++], TAB_CELL, "%s", t.agg);
				snprintf(row[n][j++], TAB_CELL, "%s", t.rate);
			} else if (lat)
				fmt_plain(row[n][j++], TAB_CELL, FMT_TIME, l->lat);
			else
				fmt_plain(row[n][j++], TAB_CELL, FMT_BW, l->agg);
			snprintf(row[n][j++], TAB_CELL, "%s", t.change);
			snprintf(row[n][j], TAB_CELL, "%s", t.diff);
			n++;
		}
	}
	return n;
}

/* Rows built by fn, printed within 80 columns unless verbose: with the
 * runs' labels when they fit, else their letters. */
static void print_fitted(FILE *f, tab_row *row, int (*build)(const struct compare *, int, int, bool, bool, tab_row *),
			 const struct compare *c, int a, int b, bool verbose, unsigned right)
{
	int w[TAB_COLS], n = build(c, a, b, verbose, false, row);

	if (!verbose && tab_width(row, n, 1, w) > TEXT_WIDTH)
		n = build(c, a, b, verbose, true, row);
	tab_print(f, row, n, right, !verbose);
}

static int cells_build(const struct compare *c, int pat, int unused, bool verbose, bool letters, tab_row *row)
{
	(void)unused;
	return cells_rows(c, pat, verbose, letters, row);
}

void compare_print(FILE *f, const struct compare *c, bool verbose)
{
	char a[96], b[96], s[32], h[32];
	int nrows = (c->ncells + c->nsummary) * c->nruns + 1;
	tab_row *row = calloc((size_t)nrows, sizeof(*row));

	fprintf(f, "swstress compare: %d runs\n", c->nruns);
	if (c->nverdicts)
		fputc('\n', f);
	for (int k = 0; k < c->nverdicts; k++)
		print_kept(f, "  ", "answer: ", c->verdict[k].headline);
	fputc('\n', f);
	for (int i = 0; i < c->nruns; i++)
		text_wrapped(f, "      ", "  %c = %s: %s, %d ranks, started %s; switch %s%s", LETTER(i), c->label[i],
			     c->run[i]->name, c->run[i]->nranks, c->run[i]->started, compare_switch_name(c, i),
			     c->copy_of[i] >= 0 ? " (a copy, counted once)" : "");
	if (c->nnotes)
		fputc('\n', f);
	for (int i = 0; i < c->nnotes; i++)
		text_wrapped(f, "  ", "note: %s", c->notes[i]);
	if (!c->maps)
		text_wrapped(f, "  ", "\nvalues: a row per switch: one run's median of per-repetition values%s, or "
			     "its runs' geometric mean; vs A: against A's switch, in %%, from 1.5 times better as the "
			     "ratio of the values (2.00x bw: twice the bandwidth); p: Holm-adjusted (n/t: not tested, since "
			     "nothing at the highest load is significant); *\tsignificant (p < %g, CI excludes 0, "
			     "beyond %g%%; the run is the unit with 2 or more runs a side, else the repetition and only "
			     "beyond +-%.1f%%); ~\tCI needs more samples; cpu: a latency whose busy ranks outnumbered "
			     "the cores of a kernel they share (it includes waiting for a CPU); drift: a change of a run "
			     "that drifted (its baseline level, measured again, differed)",
			     verbose ? " [CI]" : " (CIs: compare --verbose)", c->alpha, c->min_effect, c->allow * 100.0);
	if (!row && (c->ncells || c->nsummary)) {
		fprintf(f, "\n(out of memory: the tables are in compare.md and compare.json)\n");
	}
	for (int pat = 0; row && pat < pattern_count(); pat++) {
		bool any = false;

		for (int k = 0; k < c->ncells && !any; k++)
			any = c->cells[k].pattern == pat;
		if (!any)
			continue;
		fprintf(f, "\n%s: %s\n", pattern_name(pat), metric_title(pat));
		print_fitted(f, row, cells_build, c, pat, 0, verbose, verbose ? 0x87u : 0xd7u);
	}
	if (c->nsummary)
		text_wrapped(f, "  ", "\nat the highest load every run reached: %s, the degradation from the "
			     "switch's own baseline level (%%) [%g%%\tCI] and its difference against A's switch in "
			     "points [CI] (negative = degrades less)", verbose ? "per-hop latency (time per message for bandwidth patterns), "
			     "the aggregate bandwidth and its message rate (Mmsg/s = 10^6 messages/s) [CI]" :
			     "per-hop latency (pingpong) or the aggregate bandwidth (their CIs, the other value and the "
			     "message rates: compare --verbose)", c->confidence * 100);
	for (int k0 = 0, k1; row && k0 < c->nsummary; k0 = k1) {
		int pat = c->summary[k0].pattern;

		for (k1 = k0; k1 < c->nsummary && c->summary[k1].pattern == pat; k1++)
			;
		fprintf(f, "\n%s (degradation = %s)", pattern_name(pat), change_name(pattern_info(pat)->metric, false));
		if (one_nodes(c, k0, k1))
			fprintf(f, " at %d nodes", one_nodes(c, k0, k1));
		fputc('\n', f);
		print_fitted(f, row, summary_rows, c, k0, k1, verbose, verbose ? 0x03u : 0x0bu);
	}
	free(row);
	if (c->nunmatched) {
		fprintf(f, "\nunmatched cells (not in every run):\n");
		for (int k = 0; k < c->nunmatched; k++) {
			const struct compare_unmatched *u = &c->unmatched[k];

			config_format_size_spaced(u->size, s, sizeof(s));
			fmt_hops(h, sizeof(h), u->hops);
			present_list(c, u->present, true, a, sizeof(a));
			present_list(c, u->present, false, b, sizeof(b));
			text_wrapped(f, "    ", "  %-8s %8s %3d nodes, %s hops: in %s, missing in %s", pattern_name(u->pattern),
				     s, u->nodes, h, a, b);
		}
	}
	if (c->nverdicts)
		fputc('\n', f);
	for (int k = 0; k < c->nverdicts; k++)
		print_kept(f, "  ", "verdict: ", c->verdict[k].text);
	for (int k = 0; k < c->nmaps; k++) {
		fputc('\n', f);
		map_lines(f, c, &c->map[k], text_line);
	}
	if (verbose)
		print_kept(f, "  ", "\nmethod: ", c->method);
	else if (c->maps)
		text_wrapped(f, "  ", "\nmethod: each map's statistics as its report gives them; the fabric-wide value "
			     "the median of the link medians, %%slower with its %g%%\tCI and p (runs as the unit with 2 or "
			     "more runs a side, else blocks), significant at p < %g and beyond %g%%; in full: "
			     "compare --verbose, compare.json \"method\"", c->confidence * 100, c->alpha, c->min_effect);
	else
		text_wrapped(f, "  ", "\nmethod: switches, not runs, are compared (runs of one switch are its "
			     "replicates); the run is the unit with 2 or more runs a side, else the repetition and the "
			     "run-to-run allowance; %g%%\tCIs; a gate holds the chance of any significant statement "
			     "about two alike switches at %g: first the highest load (Holm), then the other cells "
			     "(Holm); in full: compare --verbose, compare.json \"method\"", c->confidence * 100, c->alpha);
}

/* Markdown table cell text: '|' would split the cell. */
static void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; *s; s++)
		if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s, f);
	fputc(' ', f);
}

/* The Markdown's matched and unmatched cells (sweeps). */
static void md_cells(FILE *f, const struct compare *c)
{
	char a[128], b[128], s[32], h[32], p[32];

	fprintf(f, "\n## Matched cells\n\nEach switch's value: one run's median [%g%% CI], or its runs' "
		"geometric mean (their range); vs A: against A's switch, worse in %%, better as the ratio of the "
		"values; p: Holm-adjusted (n/t: not tested, since nothing at the highest load is significant); "
		"* significant (p < %g, the CI excludes 0 and beyond %g%%); ~ a CI that needs more samples; cpu: a "
		"latency whose busy ranks outnumbered the cores of a kernel they share (it includes waiting for a "
		"CPU).\n", c->confidence * 100, c->alpha, c->min_effect);
	for (int pat = 0; pat < pattern_count(); pat++) {
		bool any = false;

		for (int k = 0; k < c->ncells; k++) {
			const struct compare_cell *m = &c->cells[k];

			if (m->pattern != pat)
				continue;
			if (!any) {
				fprintf(f, "\n### %s: %s\n\n| size | nodes | hops |", pattern_name(pat), metric_title(pat));
				for (int i = 0; i < c->nruns; i++)
					if (is_switch(c, i)) {
						switch_row_name(a, sizeof(a), c, i, false);
						fprintf(f, " %s |", a);
					}
				for (int i = 0; i < c->nruns; i++)
					if (is_switch(c, i) && i != c->sw[0])
						fprintf(f, " %c vs A | %c p |", LETTER(i), LETTER(i));
				fprintf(f, "\n|---|---|---|");
				for (int i = 0; i < c->nruns; i++)
					if (is_switch(c, i))
						fprintf(f, "---|%s", i != c->sw[0] ? "---|---|" : "");
				fputc('\n', f);
				any = true;
			}
			config_format_size_spaced(m->size, s, sizeof(s));
			fmt_hops(h, sizeof(h), m->hops);
			snprintf(a, sizeof(a), "%d", m->nodes);
			md_cell(f, s);
			md_cell(f, a);
			md_cell(f, h);
			for (int i = 0; i < c->nruns; i++)
				if (is_switch(c, i)) {
					fmt_value(a, sizeof(a), c, m, i);
					md_cell(f, a);
				}
			for (int i = 0; i < c->nruns; i++)
				if (is_switch(c, i) && i != c->sw[0]) {
					compare_worse_text(&m->s[i], m->latency, true, a, sizeof(a));
					fmt_stmt_p(p, sizeof(p), &m->s[i]);
					md_cell(f, a);
					md_cell(f, p);
				}
			fputs("|\n", f);
		}
	}
	if (c->ncells == 0)
		fprintf(f, "\nNo cell is present in every run.\n");
	fprintf(f, "\n## Unmatched cells\n\n");
	if (c->nunmatched == 0)
		fprintf(f, "None: every cell is in every run.\n");
	else {
		fprintf(f, "| pattern | size | nodes | hops | present in | missing in |\n|---|---|---|---|---|---|\n");
		for (int k = 0; k < c->nunmatched; k++) {
			const struct compare_unmatched *u = &c->unmatched[k];

			config_format_size_spaced(u->size, s, sizeof(s));
			fmt_hops(h, sizeof(h), u->hops);
			md_cell(f, pattern_name(u->pattern));
			md_cell(f, s);
			snprintf(a, sizeof(a), "%d", u->nodes);
			md_cell(f, a);
			md_cell(f, h);
			present_list(c, u->present, true, a, sizeof(a));
			present_list(c, u->present, false, b, sizeof(b));
			md_cell(f, a);
			md_cell(f, b);
			fputs("|\n", f);
		}
	}
}

void compare_markdown(FILE *f, const struct compare *c, const char *const *charts, int ncharts)
{
	char a[128], s[32];

	fprintf(f, "# Switch comparison:");
	for (int i = 0, k = 0; i < c->nruns; i++)
		if (c->maps ? c->sw[i] == i : is_switch(c, i))
			fprintf(f, "%s %s", k++ ? " vs" : "", compare_switch_name(c, i));
	fprintf(f, "\n\nA's switch (%s) is the reference: every difference is against it.\n", compare_switch_name(c, 0));
	if (c->nverdicts)
		fprintf(f, "\n**Answer** (%s):\n\n",
			c->maps ? "per pattern and size, from the fabric maps" : "per pattern, at the highest load every run reached");
	for (int k = 0; k < c->nverdicts; k++)
		fprintf(f, "- %s\n", c->verdict[k].headline);
	if (c->nnotes) {
		fprintf(f, "\n**Read with care:**\n\n");
		for (int i = 0; i < c->nnotes; i++)
			fprintf(f, "- %s\n", c->notes[i]);
	}
	fprintf(f, "\n## Runs\n\n| run | switch | label | name | started | hosts | ranks | MPI | complete |\n"
		"|---|---|---|---|---|---|---|---|---|\n");
	for (int i = 0; i < c->nruns; i++) {
		snprintf(a, sizeof(a), "%c", LETTER(i));
		md_cell(f, a);
		snprintf(a, sizeof(a), "%s%s", compare_switch_name(c, i), c->copy_of[i] >= 0 ? " (a copy, counted once)" : "");
		md_cell(f, a);
		md_cell(f, c->label[i]);
		md_cell(f, c->run[i]->name);
		md_cell(f, c->run[i]->started);
		md_cell(f, c->hosts[i]);
		snprintf(a, sizeof(a), "%d", c->run[i]->nranks);
		md_cell(f, a);
		md_cell(f, c->mpi[i][0] ? c->mpi[i] : "?");
		md_cell(f, c->run[i]->complete ? "yes" : "no");
		fputs("|\n", f);
	}
	if (c->nverdicts) {
		fprintf(f, "\n## Verdict\n\n");
		for (int k = 0; k < c->nverdicts; k++)
			fprintf(f, "- %s\n", c->verdict[k].text);
	}
	if (c->nmaps)
		fprintf(f, "\n## Fabric maps\n");
	for (int k = 0; k < c->nmaps; k++)
		map_lines(f, c, &c->map[k], md_line);
	if (c->nsummary) {
		fprintf(f, "\n## Summary at the highest load\n\nPer-hop latency (µs), aggregate bandwidth "
			"(MB/s = 10⁶ bytes/s) and its message rate (Mmsg/s = 10⁶ messages/s), degradation from the run's own baseline level (latency inflation "
			"for pingpong, per-pair bandwidth drop otherwise, %%) with %g%% CI, a row per switch "
			"(its runs pooled), and the difference in degradation against A's switch in percentage "
			"points (negative: degrades less). * marks a significant change or difference.\n", c->confidence * 100);
	}
	for (int k = 0; k < c->nsummary; k++) {
		const struct compare_summary_row *r = &c->summary[k];

		if (k == 0 || c->summary[k - 1].pattern != r->pattern)
			fprintf(f, "\n### %s\n\n| size | nodes | switch | latency/hop [CI] | aggregate [CI] | "
				"message rate [CI] | degradation [CI] | vs A, points [CI] |\n|---|---|---|---|---|---|---|---|\n",
				pattern_name(r->pattern));
		config_format_size_spaced(r->size, s, sizeof(s));
		for (int i = 0; i < c->nruns; i++) {
			struct compare_row_text t;

			if (!is_switch(c, i))
				continue;
			compare_row(c, r, i, &t);
			snprintf(a, sizeof(a), "%d", r->nodes);
			md_cell(f, s);
			md_cell(f, a);
			md_cell(f, t.run);
			md_cell(f, t.lat);
			md_cell(f, t.agg);
			md_cell(f, t.rate);
			md_cell(f, t.change);
			md_cell(f, t.diff);
			fputs("|\n", f);
		}
	}
	if (!c->maps)
		md_cells(f, c);
	fprintf(f, "\n## Charts\n\n");
	if (ncharts == 0)
		fprintf(f, "No charts (gnuplot missing, disabled, or a run has no summary.csv).\n");
	for (int i = 0; i < ncharts; i++)
		fprintf(f, "![%s](%s)\n\n", charts[i], charts[i]);
	fprintf(f, "\n## Method\n\n%s.\n", c->method);
	if (!c->maps)
		fprintf(f, "\nRuns' own methods:\n\n");
	for (int i = 0; i < c->nruns && !c->maps; i++)
		fprintf(f, "- %c %s: %s\n", LETTER(i), c->label[i], c->an[i]->method);
}

/* ---------------------------------------------------------------- */
/* JSON                                                               */

/* A change as JSON: its two medians, pct (> 0: worse), CI, p, significant. */
static json_t *change_json(const struct sw_change *ch, bool significant)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:b}", "level", results_json_number(ch->level), "base",
			 results_json_number(ch->base), "pct", results_json_number(ch->pct), "lo",
			 results_json_number(ch->lo), "hi", results_json_number(ch->hi), "p", results_json_number(ch->p),
			 "significant", significant);
}

/* A statement as JSON: pct (%worse or points, > 0 X worse), its CI, the
 * log-scale d, p raw and Holm-adjusted, the unit, significant, text. */
static json_t *stmt_json(const struct compare_stmt *st, const char *text)
{
	if (!st->valid)
		return json_null();
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:s,s:i,s:i,s:b,s:s}", "pct", results_json_number(st->pct), "lo",
			 results_json_number(st->pct_lo), "hi", results_json_number(st->pct_hi), "log_ratio",
			 results_json_number(st->d), "p", results_json_number(st->p), "p_holm",
			 results_json_number(st->p_adj), "tested", st->tested, "unit", st->runs ? "run" : "repetition",
			 "runs_reference", st->na, "runs_other", st->nx, "significant", st->significant, "text", text);
}

/* The map comparisons: the fabric-wide change, the per-link ratio, the
 * hosts, the claims of one map alone and each run's boundaries (units:
 * bytes/s or s). NULL on ENOMEM. */
static json_t *maps_json(const struct compare *c)
{
	json_t *arr = json_array();

	for (int k = 0; arr && k < c->nmaps; k++) {
		const struct compare_map *cm = &c->map[k];
		const struct mapcmp *m = &cm->m;
		const struct blame_result *ra = &c->blame[cm->ps * c->nruns];
		json_t *hosts = json_array(), *alone = json_array(), *bounds = json_array(), *o;

		for (int i = 0; hosts && i < m->nhost; i++) {
			const struct mapcmp_host *h = &m->host[i];

			json_array_append_new(hosts, json_pack("{s:s,s:o,s:i,s:i,s:i,s:o,s:o,s:s}", "host", ra->host[h->a].name,
							       "rel", results_json_number(h->rel), "partners", h->n,
							       "slower", h->slower, "faster", h->faster, "p_slower",
							       results_json_number(h->p_slow), "p_faster",
							       results_json_number(h->p_fast), "claim",
							       h->claim < 0 ? "slower" : h->claim > 0 ? "faster" : ""));
		}
		for (int i = 0; alone && i < m->nclaim; i++)
			json_array_append_new(alone, json_pack("{s:s,s:s,s:s,s:s}", "on", m->claim[i].on_x ? c->label[cm->x] : c->label[0],
							       "kind", blame_kind_name(m->claim[i].claim->kind), "name",
							       m->claim[i].claim->name, "evidence", m->claim[i].claim->evidence));
		for (int i = 0; bounds && i < c->nruns; i++) {
			const struct blame_result *r = &c->blame[cm->ps * c->nruns + i];

			if (c->sw[i] != c->sw[0] && c->sw[i] != cm->x)
				continue;
			for (size_t b = 0; b < r->nbound; b++) {
				const struct blame_boundary *bd = &r->bound[b];

				json_array_append_new(bounds, json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:o,s:o,s:o}",
									"run", c->label[i], "group_a", r->group[bd->g].name,
									"group_b", r->group[bd->h].name, "median",
									results_json_number(bd->median), "lo", results_json_number(bd->lo),
									"hi", results_json_number(bd->hi), "rel",
									results_json_number(bd->rel), "rel_lo",
									results_json_number(bd->rel_lo), "rel_hi",
									results_json_number(bd->rel_hi), "flagged", bd->flagged,
									"capacity", results_json_number(bd->capacity), "capacity_lo",
									results_json_number(bd->cap_lo), "capacity_hi",
									results_json_number(bd->cap_hi)));
			}
		}
		o = json_pack("{s:s,s:I,s:s,s:s,s:s,s:i,s:i,s:s,s:o,s:o,s:o,s:s,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "pattern",
			      pattern_name(cm->pattern), "size_bytes", (json_int_t)cm->size, "run", c->label[cm->x], "reference",
			      c->label[0], "unit", m->metric == BLAME_LATENCY ? "s" : "bytes/s", "runs", m->nx,
			      "reference_runs", m->na, "replicates", m->runs_unit ? "runs" : "blocks", "fabric",
			      results_json_number(m->fab_x), "fabric_reference", results_json_number(m->fab_a), "slower",
			      change_json(&m->change, mapcmp_significant(m)), "hosts_matched_by",
			      m->by_name ? "name" : "position", "links", (json_int_t)m->nlinks, "link_ratio",
			      results_json_number(m->link_ratio), "link_ratio_q1", results_json_number(m->link_q1),
			      "link_ratio_q3", results_json_number(m->link_q3), "hosts", hosts ? hosts : json_null(),
			      "claims_alone", alone ? alone : json_null(), "boundaries", bounds ? bounds : json_null(),
			      "host_threshold_pct", results_json_number(expm1(m->thresh) * 100.0));
		if (!o || !hosts || !alone || !bounds || json_array_append_new(arr, o)) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

json_t *compare_json(const struct compare *c)
{
	json_t *root = json_object(), *runs = json_array(), *cells = json_array(), *un = json_array();
	json_t *sum = json_array(), *ver = json_array(), *notes = json_array();

	if (!root || !runs || !cells || !un || !sum || !ver || !notes)
		goto fail;
	json_t *answer = json_array();

	for (int k = 0; answer && k < c->nverdicts; k++)
		json_array_append_new(answer, json_string(c->verdict[k].headline));
	json_object_set_new(root, "answer", answer ? answer : json_null());
	json_object_set_new(root, "tool_version", json_string(SW_VERSION));
	json_object_set_new(root, "reference", json_string(c->label[0]));
	json_object_set_new(root, "alpha", results_json_number(c->alpha));
	json_object_set_new(root, "min_effect", results_json_number(c->min_effect));
	json_object_set_new(root, "confidence", results_json_number(c->confidence));
	for (int i = 0; i < c->nruns; i++) {
		const struct sw_run *r = c->run[i];

		json_array_append_new(runs, json_pack("{s:s#,s:s,s:s,s:s,s:s,s:s,s:s,s:i,s:b}",
			"run", (char[]){ LETTER(i) }, (size_t)1, "label", c->label[i], "name", r->name, "path", c->path[i],
			"started", r->started, "hosts", c->hosts[i], "mpi_version", c->mpi[i], "ranks", r->nranks,
			"complete", r->complete));
		json_t *o = json_array_get(runs, json_array_size(runs) - 1);

		json_object_set_new(o, "switch", json_string(compare_switch_name(c, i)));
		json_object_set_new(o, "copy_of", c->copy_of[i] >= 0 ? json_string(c->label[c->copy_of[i]]) : json_null());
	}
	if (c->caution[0])
		json_object_set_new(root, "caution", json_string(c->caution));
	json_object_set_new(root, "runs", runs);
	for (int i = 0; i < c->nnotes; i++)
		json_array_append_new(notes, json_string(c->notes[i]));
	json_object_set_new(root, "notes", notes);
	for (int k = 0; k < c->ncells; k++) {
		const struct compare_cell *m = &c->cells[k];
		json_t *vals = json_array();

		for (int i = 0; i < c->nruns; i++) {
			const struct compare_value *v = &m->v[i];

			json_array_append_new(vals, json_pack("{s:I,s:o,s:o,s:o,s:b}", "n", (json_int_t)v->n, "median",
				results_json_number(v->median), "lo", results_json_number(v->lo), "hi",
				results_json_number(v->hi), "ci_ok", v->ci_ok));
		}
		json_t *sws = json_array();

		for (int i = 0; sws && i < c->nruns; i++) {
			char w[128];

			if (!is_switch(c, i))
				continue;
			compare_worse_text(&m->s[i], m->latency, true, w, sizeof(w));
			json_t *o = json_pack("{s:s,s:i,s:o}", "switch", compare_switch_name(c, i), "runs", c->sw_runs[i],
					      "median", results_json_number(m->sv[i].median));

			if (i != c->sw[0])
				json_object_set_new(o, "vs_reference", stmt_json(&m->s[i], w));
			json_array_append_new(sws, o);
		}
		json_array_append_new(cells, json_pack("{s:s,s:I,s:i,s:o,s:s,s:o,s:o}", "pattern", pattern_name(m->pattern),
			"size_bytes", (json_int_t)m->size, "nodes", m->nodes,
			"hops", m->hops ? json_integer(m->hops) : json_string("auto"),
			"metric", m->latency ? "latency_s" : "bandwidth_Bps", "runs", vals, "switches", sws ? sws : json_null()));
	}
	json_object_set_new(root, "cells", cells);
	for (int k = 0; k < c->nunmatched; k++) {
		const struct compare_unmatched *u = &c->unmatched[k];
		json_t *in = json_array(), *out = json_array();

		for (int i = 0; i < c->nruns; i++)
			json_array_append_new(u->present[i] ? in : out, json_string(c->label[i]));
		json_array_append_new(un, json_pack("{s:s,s:I,s:i,s:o,s:o,s:o}", "pattern", pattern_name(u->pattern),
			"size_bytes", (json_int_t)u->size, "nodes", u->nodes,
			"hops", u->hops ? json_integer(u->hops) : json_string("auto"), "present_in", in, "missing_in", out));
	}
	json_object_set_new(root, "unmatched", un);
	for (int k = 0; k < c->nsummary; k++) {
		const struct compare_summary_row *r = &c->summary[k];
		json_t *lv = json_array();

		for (int i = 0; i < c->nruns; i++) {
			const struct compare_level *l = &r->run[i];
			json_t *o = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
				"latency_s", results_json_number(l->lat), "latency_lo", results_json_number(l->lat_lo), "latency_hi", results_json_number(l->lat_hi),
				"aggregate_Bps", results_json_number(l->agg), "aggregate_lo", results_json_number(l->agg_lo), "aggregate_hi", results_json_number(l->agg_hi),
				"degradation", results_json_change(&l->change));

			struct compare_row_text t;

			compare_row(c, r, i, &t);
			json_object_set_new(o, "text", json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "latency", t.lat, "aggregate",
								 t.agg, "message_rate", t.rate, "degradation", t.change,
								 "p", t.p, "vs_reference", t.diff));
			if (!pattern_latency_metric(r->pattern))
				json_object_set_new(o, "aggregate_message_rate_per_s",
						    results_json_number(pattern_msgrate(r->size, l->agg)));
			json_array_append_new(lv, o);
		}
		json_t *sws = json_array();

		for (int i = 0; sws && i < c->nruns; i++) {
			const struct compare_level *l = &r->sw[i];
			struct compare_row_text t;

			if (!is_switch(c, i))
				continue;
			compare_row(c, r, i, &t);
			json_t *o = json_pack("{s:s,s:i,s:o,s:o,s:o,s:{s:s,s:s,s:s,s:s,s:s}}", "switch",
				compare_switch_name(c, i), "runs", c->sw_runs[i], "latency_s", results_json_number(l->lat),
				"aggregate_Bps", results_json_number(l->agg), "degradation", results_json_change(&l->change),
				"text", "latency", t.lat, "aggregate", t.agg, "degradation", t.change, "p", t.p,
				"vs_reference", t.diff);

			if (i != c->sw[0])
				json_object_set_new(o, "degradation_vs_reference", stmt_json(&r->s[i], t.diff));
			json_array_append_new(sws, o);
		}
		json_array_append_new(sum, json_pack("{s:s,s:s,s:I,s:i,s:o,s:o}", "pattern", pattern_name(r->pattern),
			"degradation", change_name(pattern_info(r->pattern)->metric, true),
			"size_bytes", (json_int_t)r->size, "nodes", r->nodes,
			"hops", r->hops ? json_integer(r->hops) : json_string("auto"), "runs", lv));
		json_object_set_new(json_array_get(sum, json_array_size(sum) - 1), "switches", sws ? sws : json_null());
	}
	json_object_set_new(root, "summary", sum);
	for (int k = 0; k < c->nverdicts; k++)
		json_array_append_new(ver, json_pack("{s:s,s:s,s:s,s:s,s:s}", "pattern", pattern_name(c->verdict[k].pattern),
						     "switch", compare_switch_name(c, c->verdict[k].x), "against",
						     compare_switch_name(c, 0), "headline", c->verdict[k].headline, "text",
						     c->verdict[k].text));
	json_object_set_new(root, "verdicts", ver);
	if (c->maps) {
		json_t *maps = maps_json(c);

		if (!maps) {
			json_decref(root);
			return NULL;
		}
		json_object_set_new(root, "maps", maps);
	}
	json_object_set_new(root, "method", json_string(c->method));
	return root;
fail:
	json_decref(root);
	json_decref(runs);
	json_decref(cells);
	json_decref(un);
	json_decref(sum);
	json_decref(ver);
	json_decref(notes);
	return NULL;
}

/* ---------------------------------------------------------------- */
/* Files                                                              */

/* dir/name through fn, atomically. */
static int write_atomic(const char *dir, const char *name, sw_write_fn fn, const void *arg, char *err, size_t errlen)
{
	char path[SW_PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return sw_write_atomic(path, fn, arg, err, errlen);
}

struct md_arg {
	const struct compare *c;
	const char *const *charts;
	int ncharts;
};

static int write_md(FILE *f, const void *arg)
{
	const struct md_arg *m = arg;

	compare_markdown(f, m->c, m->charts, m->ncharts);
	return 0;
}

static int write_json(FILE *f, const void *arg)
{
	json_t *root = compare_json(arg);
	int rc;

	if (!root)
		return -1;
	rc = json_dumpf(root, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(root);
	return rc;
}

/* Draw compare-KIND-PATTERN.png for one pattern: up to three sizes
 * (smallest, middle, largest matched), every run in its own colour. */
static int draw(const struct compare *c, const char *dir, const char *script_dir, const char *kind, int pat,
		char *name, size_t namelen, char *err, size_t errlen)
{
	uint64_t sizes[SW_MAX_LIST * 4];
	long hops = -1;
	int nsizes = 0, nodes[SW_MAX_LIST * COMPARE_MAX_RUNS], nnodes = 0, rc;
	struct plot_vars v = { 0 };
	char script[SW_PATH_MAX + 16], log[SW_PATH_MAX + 16], out[SW_PATH_MAX + 80];
	char script_p[SW_PATH_MAX + 18], out_p[SW_PATH_MAX + 82];
	char title[600] = "";

	for (int k = 0; k < c->ncells; k++) {
		const struct compare_cell *m = &c->cells[k];

		if (m->pattern != pat)
			continue;
		if (nsizes == 0 || sizes[nsizes - 1] != m->size)
			if (nsizes < (int)(sizeof(sizes) / sizeof(sizes[0])))
				sizes[nsizes++] = m->size;
		if (m->hops > hops)
			hops = m->hops;
	}
	if (nsizes == 0)
		return 0;
	for (int i = 0; i < c->nruns; i++)
		for (int l = 0; l < c->run[i]->plan->nlevels && nnodes < (int)(sizeof(nodes) / sizeof(nodes[0])); l++)
			nodes[nnodes++] = 2 * c->run[i]->plan->level_pairs[l];
	qsort(nodes, (size_t)nnodes, sizeof(int), sw_cmp_int);

	snprintf(name, namelen, "compare-%s-%s.png", kind, pattern_name(pat));
	snprintf(out, sizeof(out), "%s/%s", dir, name);
	snprintf(script, sizeof(script), "%s/compare.gp", script_dir);
	snprintf(log, sizeof(log), "%s/plot.log", dir);
	/* every path that gnuplot sees goes through sw_path_plain */
	if (sw_path_plain(script, script_p, sizeof(script_p), err, errlen) ||
	    sw_path_plain(out, out_p, sizeof(out_p), err, errlen))
		return -1;
	for (int i = 0; i < c->nruns; i++)
		sw_appendf(title, sizeof(title), "%s%s", i ? " vs " : "", c->label[i]);

	plot_vars_add(&v, "nruns=%d; ", c->nruns);
	for (int i = 0; i < c->nruns; i++) {
		char var[16], in[SW_PATH_MAX + 16], in_p[SW_PATH_MAX + 18];

		snprintf(var, sizeof(var), "in%d", i + 1);
		snprintf(in, sizeof(in), "%s/summary.csv", c->path[i]);
		if (sw_path_plain(in, in_p, sizeof(in_p), err, errlen)) {
			free(v.s);
			return -1;
		}
		plot_vars_str(&v, var, in_p);
		snprintf(var, sizeof(var), "run%d", i + 1);
		plot_vars_str(&v, var, c->label[i]);
	}
	plot_vars_str(&v, "out", out_p);
	plot_vars_str(&v, "kind", kind);
	plot_vars_str(&v, "pattern", pattern_name(pat));
	plot_vars_str(&v, "metric", pattern_latency_metric(pat) ? "lat" : "bw");
	plot_vars_str(&v, "label", title);
	plot_vars_add(&v, "conf='%g'; min_effect=%g; hops=%ld; width=%d; height=%d; sizes='", c->confidence * 100,
	       c->min_effect, hops, strcmp(kind, "drop") ? 1500 : 1100,
	       strcmp(kind, "drop") ? 700 : 720);
	/* smallest, middle, largest */
	int pick[3] = { 0, nsizes / 2, nsizes - 1 }, npick = nsizes >= 3 ? 3 : nsizes;

	if (nsizes == 2)
		pick[1] = 1;
	for (int i = 0; i < npick; i++)
		plot_vars_add(&v, "%s%llu", i ? " " : "", (unsigned long long)sizes[pick[i]]);
	plot_vars_add(&v, "'; nodes='");
	for (int i = 0, k = 0; i < nnodes; i++)
		if (i == 0 || nodes[i] != nodes[i - 1])
			plot_vars_add(&v, "%s%d", k++ ? " " : "", nodes[i]);
	plot_vars_add(&v, "'");
	rc = plot_draw(script_p, &v, log, out, err, errlen);
	free(v.s);
	return rc < 0 ? -1 : 1;
}

static bool file_ok(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Draw the charts; names into names[], count returned, or -1. A missing
 * prerequisite is a note on stderr and 0 charts. */
static int draw_maps(const struct compare *c, const char *dir, const char *script_dir, char (*names)[SW_PATH_MAX],
		     int max, char *err, size_t errlen);

static int draw_all(const struct compare *c, const char *dir, const char *script_dir,
		    char (*names)[SW_PATH_MAX], int max, char *err, size_t errlen)
{
	char sd[SW_PATH_MAX], path[SW_PATH_MAX + 32];
	int n = 0;

	if (!plot_available()) {
		fprintf(stderr, "swstress: note: gnuplot not found on PATH (install gnuplot-nox): no charts\n");
		return 0;
	}
	if (!script_dir) {
		if (plot_script_dir(sd, sizeof(sd), path, sizeof(path)) < 0) {
			fprintf(stderr, "swstress: note: %s: no charts\n", path);
			return 0;
		}
		script_dir = sd;
	}
	if (c->maps)
		return draw_maps(c, dir, script_dir, names, max, err, errlen);
	snprintf(path, sizeof(path), "%s/compare.gp", script_dir);
	if (!file_ok(path)) {
		fprintf(stderr, "swstress: note: %s: no such script: no charts\n", path);
		return 0;
	}
	for (int i = 0; i < c->nruns; i++) {
		static const char *const cols[] = {
			"level", "nodes", "pattern", "size_bytes", "hops", "lat_median_us", "lat_lo_us", "lat_hi_us",
			"agg_median_MBps", "agg_lo_MBps", "agg_hi_MBps", "lat_infl_pct", "lat_infl_lo", "lat_infl_hi",
			"lat_infl_sig", "bw_drop_pct", "bw_drop_lo", "bw_drop_hi", "bw_drop_sig", NULL
		};

		snprintf(path, sizeof(path), "%s/summary.csv", c->path[i][0] ? c->path[i] : ".");
		if (!c->path[i][0] || plot_check_csv(path, cols, NULL, err, errlen) < 0) {
			fprintf(stderr, "swstress: note: %s: no charts\n", c->path[i][0] ? err : "a run has no results folder");
			return 0;
		}
	}
	snprintf(path, sizeof(path), "%s/plot.log", dir);
	FILE *lf = sfile_fopen_own(path, "w", NULL, 0);

	if (lf)
		fclose(lf);
	for (int pat = 0; pat < pattern_count(); pat++) {
		static const char *const kinds[] = { "falloff", "drop" };

		for (int k = 0; k < 2 && n < max; k++) {
			int rc = draw(c, dir, script_dir, kinds[k], pat, names[n], sizeof(names[n]), err, errlen);

			if (rc < 0)
				return -1;
			n += rc;
		}
	}
	return n;
}

/* The grid of map comparison cm for compare-fabric.gp: hosts of A's
 * first map ordered by group, each cell x, y with the link's ratio. */
struct grid_arg {
	const struct compare *c;
	const struct compare_map *cm;
};

static int write_grid(FILE *f, const void *arg)
{
	const struct grid_arg *g = arg;
	const struct mapcmp *m = &g->cm->m;
	const struct blame_result *r = &g->c->blame[g->cm->ps * g->c->nruns];
	int n = r->nhost, *at = malloc(sizeof(*at) * (size_t)(n + 1)), k = 0;

	if (!at)
		return -1;
	for (int gr = 0; gr < r->ngroup; gr++)
		for (int i = 0; i < n; i++)
			if (r->host[i].group == gr)
				at[k++] = i;
	fputs("x,y,host,group,group_start,value,claim\n", f);
	for (int y = 0; y < k; y++)
		for (int x = 0; x < k; x++) {
			const struct blame_link *l = x == y ? NULL : blame_link_of(r, at[x], at[y]);
			double v = l ? m->link_rel[l - r->link] : NAN;

			fprintf(f, "%d,%d,%s,%s,%d,", x, y, r->host[at[x]].name, r->group[r->host[at[x]].group].name,
				x > 0 && r->host[at[x]].group != r->host[at[x - 1]].group);
			if (isfinite(v))
				fprintf(f, "%.6g", v);
			fprintf(f, ",%d\n", m->host[at[x]].claim);
		}
	free(at);
	return ferror(f) ? -1 : 0;
}

/* The difference heat map of each map comparison: its grid, then
 * compare-fabric.gp. Returns the charts drawn (names[0..)), -1 on error. */
static int draw_maps(const struct compare *c, const char *dir, const char *script_dir, char (*names)[SW_PATH_MAX],
		     int max, char *err, size_t errlen)
{
	char script[SW_PATH_MAX + 24], script_p[SW_PATH_MAX + 26], log[SW_PATH_MAX + 16];
	int drawn = 0;

	snprintf(script, sizeof(script), "%s/compare-fabric.gp", script_dir);
	snprintf(log, sizeof(log), "%s/plot.log", dir);
	if (!file_ok(script)) {
		fprintf(stderr, "swstress: note: %s: no such script: no charts\n", script);
		return 0;
	}
	if (sw_path_plain(script, script_p, sizeof(script_p), err, errlen))
		return -1;
	for (int k = 0; k < c->nmaps && drawn < max; k++) {
		const struct compare_map *cm = &c->map[k];
		struct grid_arg g = { c, cm };
		struct plot_vars v = { 0 };
		char base[160], csv[SW_PATH_MAX + 192], csv_p[SW_PATH_MAX + 194], out[SW_PATH_MAX + 192];
		char out_p[SW_PATH_MAX + 194], title[300];
		int rc;

		snprintf(base, sizeof(base), "compare-fabric-%s-%llu-%c", pattern_name(cm->pattern),
			 (unsigned long long)cm->size, LETTER(cm->x));
		snprintf(csv, sizeof(csv), "%s/%s.csv", dir, base);
		snprintf(out, sizeof(out), "%s/%s.png", dir, base);
		if (write_atomic(dir, strrchr(csv, '/') + 1, write_grid, &g, err, errlen) ||
		    sw_path_plain(csv, csv_p, sizeof(csv_p), err, errlen) ||
		    sw_path_plain(out, out_p, sizeof(out_p), err, errlen))
			return -1;
		snprintf(title, sizeof(title), "%s vs %s", c->label[0], c->label[cm->x]);
		plot_vars_str(&v, "in", csv_p);
		plot_vars_str(&v, "out", out_p);
		plot_vars_str(&v, "metric", cm->m.metric == BLAME_LATENCY ? "lat" : "bw");
		plot_vars_str(&v, "run", c->label[cm->x]);
		plot_vars_str(&v, "reference", c->label[0]);
		plot_vars_str(&v, "label", title);
		rc = plot_draw(script_p, &v, log, out, err, errlen);
		free(v.s);
		if (rc < 0)
			return -1;
		snprintf(names[drawn++], SW_PATH_MAX, "%s.png", base);
	}
	return drawn;
}

int compare_write(const struct compare *c, const char *dir, const char *script_dir, bool charts,
		  int *ncharts, char *err, size_t errlen)
{
	char names[2 * PAT_MAX][SW_PATH_MAX];
	const char *np[2 * PAT_MAX];
	int n = 0;

	if (sw_mkdir_p(dir))
		return sw_fail(err, errlen, "%s: cannot create: %s", dir, strerror(errno));
	if (access(dir, W_OK | X_OK))
		return sw_fail(err, errlen, "%s: not writable: %s", dir, strerror(errno));
	if (charts) {
		n = draw_all(c, dir, script_dir, names, 2 * PAT_MAX, err, errlen);
		if (n < 0)
			return -1;
	}
	for (int i = 0; i < n; i++)
		np[i] = names[i];
	struct md_arg m = { c, np, n };

	if (write_atomic(dir, "compare.json", write_json, c, err, errlen) ||
	    write_atomic(dir, "compare.md", write_md, &m, err, errlen))
		return -1;
	if (ncharts)
		*ncharts = n;
	return 0;
}

