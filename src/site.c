/*
 * site.c - the catalog web site; see site.h.
 *
 * Reads the store's runs, cells and suspects tables once into string
 * tables, groups runs by switch (vendor and model), and writes one page at
 * a time through sfile_write_under. Pages are plain HTML5 with one local
 * style sheet: tables have <th scope> headers and captions, every chart is
 * inline SVG with role="img", a <title> and a <desc> that states its
 * numbers, and the table beside it holds the same numbers for readers
 * without graphics (terminal browsers, screen readers).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include "compare.h"
#include "config.h"
#include "mapout.h"
#include "pattern.h"
#include "results.h"
#include "sfile.h"
#include "site.h"
#include "site_map.h"
#include "stats.h"
#include "text.h"

/* ---- the store's tables as text ---- */

struct rows {
	int ncols;
	size_t n, cap;
	char **v;        /* n * ncols values, NULL for SQL NULL */
};

static int collect(void *arg, int ncols, const char *const *vals)
{
	struct rows *t = arg;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		char **nv = realloc(t->v, cap * (size_t)ncols * sizeof(*nv));

		if (!nv)
			return -1;
		t->v = nv;
		t->cap = cap;
	}
	t->ncols = ncols;
	for (int i = 0; i < ncols; i++) {
		char **dst = &t->v[t->n * (size_t)ncols + (size_t)i];

		*dst = vals[i] ? strdup(vals[i]) : NULL;
		if (vals[i] && !*dst) {
			for (int j = 0; j < i; j++)
				free(t->v[t->n * (size_t)ncols + (size_t)j]);
			return -1;
		}
	}
	t->n++;
	return 0;
}

static void rows_free(struct rows *t)
{
	for (size_t i = 0; i < t->n * (size_t)t->ncols; i++)
		free(t->v[i]);
	free(t->v);
}

/* Row r, column c: "" for NULL. */
static const char *val(const struct rows *t, size_t r, int c)
{
	const char *v = t->v[r * (size_t)t->ncols + (size_t)c];

	return v ? v : "";
}

/* A number, NaN for NULL or text that is not one. */
static double num(const struct rows *t, size_t r, int c)
{
	const char *v = t->v[r * (size_t)t->ncols + (size_t)c];
	char *end;
	double x;

	if (!v)
		return NAN;
	x = strtod(v, &end);
	return end == v ? NAN : x;
}

/* An integer the store's row check (check_rows) has already parsed. */
static long inum(const struct rows *t, size_t r, int c)
{
	long x = 0;

	sw_parse_long(val(t, r, c), LONG_MIN, LONG_MAX, &x);
	return x;
}

enum run_col {
	R_NAME, R_STARTED, R_PUBLISHED, R_TOOL, R_MPI, R_CMD, R_NRANKS, R_MAXNODES, R_HOSTS,
	R_VENDOR, R_MODEL, R_FIRMWARE, R_PORT_SPEED, R_PORTS_USED, R_TOPOLOGY, R_OVERSUB,
	R_CABLING, R_NOTES, R_NIC, R_TRANSPORT, R_SHARED, R_SUPPLIED,
};

static const char RUNS_SQL[] =
	"SELECT name, started, published, tool_version, mpi_version, command_line, nranks, max_nodes,"
	" hosts, vendor, model, firmware, port_speed, ports_used, topology, oversubscription, cabling,"
	" notes, nic, transport, shared_node, supplied FROM runs ORDER BY vendor, model, started DESC, name";

enum cell_col {
	C_RUN, C_CELL, C_LEVEL, C_NODES, C_PAIRS, C_PATTERN, C_SIZE, C_HOPS, C_REPS, C_N,
	C_LAT, C_LAT_LO, C_LAT_HI, C_BW, C_BW_LO, C_BW_HI, C_AGG, C_AGG_LO, C_AGG_HI,
	C_INFL, C_INFL_LO, C_INFL_HI, C_INFL_P, C_INFL_SIG,
	C_DROP, C_DROP_LO, C_DROP_HI, C_DROP_P, C_DROP_SIG, C_DRIFTED,
};

static const char CELLS_SQL[] =
	"SELECT run, cell, level, nodes, pairs, pattern, size_bytes, hops, reps, n,"
	" lat_median_us, lat_lo_us, lat_hi_us, bw_median_MBps, bw_lo_MBps, bw_hi_MBps,"
	" agg_median_MBps, agg_lo_MBps, agg_hi_MBps, lat_infl_pct, lat_infl_lo, lat_infl_hi,"
	" lat_infl_p, lat_infl_sig, bw_drop_pct, bw_drop_lo, bw_drop_hi, bw_drop_p, bw_drop_sig,"
	" drifted FROM cells ORDER BY run, cell";

/* One switch: runs[first .. first + count - 1] (newest first). */
struct sw_entry {
	size_t first, count;
	char slug[96];
};

/* Two switches compared at one largest node count: every published run
 * of each at that count (newest first, at most SITE_SIDE_RUNS a side), as
 * compare takes runs of one switch: replicates. */
#define SITE_SIDE_RUNS (COMPARE_MAX_RUNS / 2)
struct cmp_entry {
	size_t a, b;         /* switch indexes */
	size_t run[COMPARE_MAX_RUNS];   /* run rows: A's na, then B's nb */
	int na, nb;
	int nodes;
	bool map;            /* fabric maps on both sides, else sweeps */
	char file[256];      /* compare/SLUGA--SLUGB-nN.html, -nN-map.html */
};

struct site {
	struct store *store;
	const char *outdir;
	struct rows runs, cells, suspects, files;
	struct rows maps;    /* map runs: run, hosts, claims (site_map.h) */
	size_t nsw;
	struct sw_entry *sw;
	size_t ncmp;
	struct cmp_entry *cmp;
	char generated[32];
	char refused[4][600];   /* comparisons compare refused: why (the first few) */
	int nrefused;
};

/* ---- HTML ---- */

/* Text safe in element content and in quoted attributes: & < > " '
 * escaped, control and bidi characters shown as escapes (text.h). */
static void esc(FILE *f, const char *s)
{
	text_html_put(f, s);
}

/* fprintf, then the escaped text s. */
static void put(FILE *f, const char *html, const char *s)
{
	fputs(html, f);
	esc(f, s);
}

static void page_head(FILE *f, const char *title, const char *root)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", f);
	put(f, "<title>", title);
	fprintf(f, " - swstress switch catalog</title>\n<link rel=\"icon\" href=\"data:,\">\n"
		"<link rel=\"stylesheet\" href=\"%sstyle.css\">\n</head>\n<body>\n"
		"<nav><a href=\"%sindex.html\">Switch catalog</a></nav>\n<main>\n", root, root);
	put(f, "<h1>", title);
	fputs("</h1>\n", f);
}

static int page_tail(FILE *f, const struct site *st)
{
	fprintf(f, "</main>\n<footer>Written by swstress %s on %s from the catalog store. Latency is per "
		"hop in microseconds, bandwidth in MB/s (10<sup>6</sup> bytes/s); intervals are %s.</footer>\n"
		"</body>\n</html>\n", SW_VERSION, st->generated,
		"confidence intervals at each run's own confidence level");
	return ferror(f) ? -1 : 0;
}

static const char STYLE[] =
	"body { font-family: sans-serif; margin: 0 auto; max-width: 72em; padding: 0 0.75em; "
	"line-height: 1.4; color: #111; background: #fff; }\n"
	"nav { padding: 0.5em 0; border-bottom: 1px solid #ccc; }\n"
	"footer { margin: 2em 0 1em; font-size: 0.85em; color: #444; }\n"
	"table { border-collapse: collapse; margin: 0.5em 0 1.5em; max-width: 100%; }\n"
	"caption { text-align: left; font-weight: bold; padding: 0.25em 0; }\n"
	"th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: left; vertical-align: top; "
	"overflow-wrap: break-word; }\n"
	"td.wrap { overflow-wrap: anywhere; }\n"
	"td.num { text-align: right; }\n"
	"th[scope=row] { font-weight: normal; background: #f4f4f4; }\n"
	"thead th { background: #e8e8e8; }\n"
	"figure { margin: 1em 0; }\n"
	"section.map-set { border-top: 2px solid #888; margin-top: 2em; }\n"
	"svg { max-width: 100%; height: auto; border: 1px solid #ddd; background: #fff; }\n"
	"code { word-break: break-all; }\n"
	"small { color: #444; }\n"
	".sig { font-weight: bold; }\n"
	".shared { color: #9a2500; font-weight: bold; }\n"
	".drift { color: #7a4a00; font-weight: bold; }\n"
	/* a phone: the secondary columns go, the answer columns stay */
	"@media (max-width: 48em) { .opt { display: none; } table { font-size: 0.9em; } "
	"th, td { padding: 0.2em 0.25em; } }\n";

/* ---- numbers ---- */

/* "12.34 [12.1, 12.5]" or, for a percentage, "+30.1% [+29.9, +31.0]";
 * without the CI when it is missing, "-" without the estimate. */
static void fmt_ci(char *buf, size_t len, double x, double lo, double hi, bool pct)
{
	if (!isfinite(x))
		snprintf(buf, len, "-");
	else if (isfinite(lo) && isfinite(hi))
		snprintf(buf, len, pct ? "%+.1f%% [%+.1f, %+.1f]" : "%.4g [%.4g, %.4g]", x, lo, hi);
	else
		snprintf(buf, len, pct ? "%+.1f%%" : "%.4g", x);
}

static void fmt_size_text(const char *bytes, char *buf, size_t len)
{
	uint64_t b = 0;

	sw_parse_u64(bytes, 1, UINT64_MAX, &b);   /* checked by check_rows */
	config_format_size(b, buf, len);
}

static bool is_latency(const char *pattern)
{
	return pattern_latency_metric(pattern_find(pattern));
}

/* ---- grouping ---- */

static void make_slug(const char *vendor, const char *model, char *buf, size_t len)
{
	size_t n = 0;
	bool dash = true;

	for (const char *parts[2] = { vendor, model }, **p = parts; p < parts + 2; p++)
		for (const char *s = *p; *s && n + 2 < len && n < 60; s++) {
			char ch = *s;

			if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
				buf[n++] = ch;
				dash = false;
			} else if (ch >= 'A' && ch <= 'Z') {
				buf[n++] = (char)(ch - 'A' + 'a');
				dash = false;
			} else if (!dash) {
				buf[n++] = '-';
				dash = true;
			}
			if (s[1] == '\0' && p == parts && !dash && n + 2 < len) {
				buf[n++] = '-';
				dash = true;
			}
		}
	while (n && buf[n - 1] == '-')
		n--;
	buf[n] = '\0';
	if (!n)
		snprintf(buf, len, "switch");
}

/* Whether a switch before the newest has slug. */
static bool slug_taken(const struct site *st, const char *slug)
{
	for (size_t j = 0; j + 1 < st->nsw; j++)
		if (!strcmp(st->sw[j].slug, slug))
			return true;
	return false;
}

static long map_row(const struct site *st, const char *name);

/* Whether run row r is a fabric map. */
static bool is_map_run(const struct site *st, size_t r)
{
	return map_row(st, val(&st->runs, r, R_NAME)) >= 0;
}

/* Switch sw's runs of one kind (maps or sweeps: compare takes one kind)
 * at a largest node count of nodes into run[0..*n), newest first, at most
 * SITE_SIDE_RUNS. */
static void side_runs(const struct site *st, size_t sw, int nodes, bool map, size_t *run, int *n)
{
	const struct sw_entry *e = &st->sw[sw];

	*n = 0;
	for (size_t r = e->first; r < e->first + e->count && *n < SITE_SIDE_RUNS; r++)
		if (inum(&st->runs, r, R_MAXNODES) == nodes && is_map_run(st, r) == map)
			run[(*n)++] = r;
}

static int group(struct site *st)
{
	const struct rows *t = &st->runs;

	st->sw = calloc(t->n ? t->n : 1, sizeof(*st->sw));
	if (!st->sw)
		return -1;
	for (size_t r = 0; r < t->n; r++) {
		struct sw_entry *e = st->nsw ? &st->sw[st->nsw - 1] : NULL;

		if (e && !strcmp(val(t, e->first, R_VENDOR), val(t, r, R_VENDOR)) &&
		    !strcmp(val(t, e->first, R_MODEL), val(t, r, R_MODEL))) {
			e->count++;
			continue;
		}
		e = &st->sw[st->nsw++];
		e->first = r;
		e->count = 1;
		make_slug(val(t, r, R_VENDOR), val(t, r, R_MODEL), e->slug, sizeof(e->slug) - 8);
		/* "-N" until no other switch has it (Acme x's acme-x-3 may be Acme X-3's) */
		for (size_t k = st->nsw, n = strlen(e->slug); slug_taken(st, e->slug); k++)
			snprintf(e->slug + n, sizeof(e->slug) - n, "-%zu", k);
	}
	/* Comparisons: each pair of switches, at each largest node count both
	 * have, all their runs at that count (runs are newest first), sweeps
	 * with sweeps and maps with maps. Each is of a run of switch a
	 * against one other switch: at most runs x switches. */
	st->cmp = calloc(t->n * st->nsw + 1, sizeof(*st->cmp));
	if (!st->cmp)
		return -1;
	for (size_t a = 0; a < st->nsw; a++)
		for (size_t b = a + 1; b < st->nsw; b++)
			for (size_t i = st->sw[a].first; i < st->sw[a].first + st->sw[a].count; i++) {
				int nodes = (int)inum(t, i, R_MAXNODES);
				bool seen = false, map = is_map_run(st, i);

				for (size_t k = 0; k < st->ncmp; k++)
					seen |= st->cmp[k].a == a && st->cmp[k].b == b && st->cmp[k].nodes == nodes &&
						st->cmp[k].map == map;
				if (seen)
					continue;
				struct cmp_entry *c = &st->cmp[st->ncmp];

				*c = (struct cmp_entry){ .a = a, .b = b, .nodes = nodes, .map = map };
				side_runs(st, a, nodes, map, c->run, &c->na);
				side_runs(st, b, nodes, map, c->run + c->na, &c->nb);
				if (!c->nb)
					continue;
				snprintf(c->file, sizeof(c->file), "compare/%s--%s-n%d%s.html", st->sw[a].slug,
					 st->sw[b].slug, nodes, map ? "-map" : "");
				st->ncmp++;
			}
	return 0;
}

/* The mark of a run whose ranks shared a host, between pre and post;
 * brief for a table cell. */
static void shared_mark(FILE *f, const struct site *st, size_t r, bool brief, const char *pre, const char *post)
{
	if (!strcmp(val(&st->runs, r, R_SHARED), "1"))
		fprintf(f, "%sShared host: %s the host, not a switch%s", pre,
			brief ? "measured" : "the ranks of this run shared a machine, so it measured", post);
}

static void switch_title(const struct site *st, size_t sw, char *buf, size_t len)
{
	const char *v = val(&st->runs, st->sw[sw].first, R_VENDOR), *m = val(&st->runs, st->sw[sw].first, R_MODEL);

	snprintf(buf, len, "%s%s%s", v, *v ? " " : "", m);
}

/* The cells of run row r: [*first, *first + return). Cells are sorted by
 * run name, then cell. */
static size_t run_cells(const struct site *st, size_t r, size_t *first)
{
	const char *name = val(&st->runs, r, R_NAME);
	size_t n = 0;

	*first = 0;
	for (size_t i = 0; i < st->cells.n; i++)
		if (!strcmp(val(&st->cells, i, C_RUN), name)) {
			if (!n)
				*first = i;
			n++;
		}
	return n;
}

/* The cell of run row r at its largest node count for the index: of the
 * metric's headline pattern of the lowest rank present (pattern.h), a
 * bandwidth one at the largest size, a latency one at the smallest. -1 if
 * none. */
static long full_load_cell(const struct site *st, size_t r, bool latency)
{
	size_t first, n = run_cells(st, r, &first);
	long nodes = inum(&st->runs, r, R_MAXNODES);
	long best = -1;

	for (int rank = 1; rank <= pattern_count() && best < 0; rank++) {
		for (size_t i = first; i < first + n; i++) {
			const struct rows *c = &st->cells;
			int pat = pattern_find(val(c, i, C_PATTERN));

			if (inum(c, i, C_NODES) != nodes || pat < 0 || pattern_info(pat)->headline != rank ||
			    pattern_latency_metric(pat) != latency)
				continue;
			if (best < 0 || (latency ? num(c, i, C_SIZE) < num(c, (size_t)best, C_SIZE)
						 : num(c, i, C_SIZE) > num(c, (size_t)best, C_SIZE)))
				best = (long)i;
		}
	}
	return best;
}

/* The mark of a change in a sequential run that drifted (the baseline
 * level measured again differed): it may be drift, not load. */
static void drift_mark(FILE *f, const struct rows *c, size_t i)
{
	if (!strcmp(val(c, i, C_DRIFTED), "1"))
		fputs("<br><small class=\"drift\">drifted: may be drift, not load</small>", f);
}


/* "<td>+30.0% [+29.1, +30.8]<br><small>stream 64KiB, 8 nodes, p < 0.001</small></td>";
 * run row r's "-" says why: a fabric map has no load levels (its page has
 * the answer), else the run measured no such pattern at full load. */
static void full_load_td(FILE *f, const struct site *st, size_t r, long i, bool latency)
{
	const struct rows *c = &st->cells;
	char pct[96], p[32], sz[32];
	int k = latency ? C_INFL : C_DROP;
	const char *name = val(&st->runs, r, R_NAME);

	if (map_row(st, name) >= 0) {
		fputs("<td class=\"num\" title=\"a fabric map measures every pair of hosts, not load levels: it has no "
		      "full load; its answer is on its page\">-<br><small><a href=\"maps/", f);
		esc(f, name);
		fputs(".html\">fabric map</a>: no load levels</small></td>", f);
		return;
	}
	if (i < 0) {
		fprintf(f, "<td class=\"num\" title=\"this run measured no %s pattern at full load\">-<br><small>not "
			"measured</small></td>", latency ? "latency" : "bandwidth");
		return;
	}
	fmt_ci(pct, sizeof(pct), num(c, (size_t)i, k), num(c, (size_t)i, k + 1), num(c, (size_t)i, k + 2), true);
	stats_format_p(p, sizeof(p), num(c, (size_t)i, k + 3));
	fmt_size_text(val(c, (size_t)i, C_SIZE), sz, sizeof(sz));
	fprintf(f, "<td class=\"num\" data-cell=\"%s/%s\" data-col=\"%s\">", val(c, (size_t)i, C_RUN),
		val(c, (size_t)i, C_CELL), latency ? "lat_infl" : "bw_drop");
	esc(f, pct);
	fprintf(f, "<br><small>%s %s, %s nodes, p ", val(c, (size_t)i, C_PATTERN), sz, val(c, (size_t)i, C_NODES));
	esc(f, p);
	fputs("</small>", f);
	drift_mark(f, c, (size_t)i);
	fputs("</td>", f);
}

/* ---- the index ---- */

static int write_index(FILE *f, const void *arg)
{
	const struct site *st = arg;
	const struct rows *t = &st->runs;

	page_head(f, "Switch catalog", "");
	fprintf(f, "<p>%zu switches, %zu runs. Each switch was loaded with more and more pairs of nodes at "
		"once; the figures below are from its newest run at its largest load (full load), against "
		"the same run with one pair (the unloaded switch): one run backs each switch's figures, "
		"so the spread between its runs is not in their CIs.</p>\n", st->nsw, t->n);
	fputs("<table>\n<caption>Switches</caption>\n<thead><tr><th scope=\"col\">Switch</th>"
	      "<th scope=\"col\">Ports tested</th><th scope=\"col\">Bandwidth drop at full load [CI]</th>"
	      "<th scope=\"col\">Latency inflation at full load [CI]</th><th scope=\"col\" class=\"opt\">Runs behind the figures</th>"
	      "<th scope=\"col\" class=\"opt\">Newest run</th></tr></thead>\n<tbody>\n", f);
	for (size_t s = 0; s < st->nsw; s++) {
		size_t r = st->sw[s].first;
		char title[160];

		switch_title(st, s, title, sizeof(title));
		fprintf(f, "<tr><th scope=\"row\"><a href=\"switch/%s.html\">", st->sw[s].slug);
		esc(f, title);
		fputs("</a>", f);
		if (*val(t, r, R_FIRMWARE))
			put(f, "<br><small>firmware ", val(t, r, R_FIRMWARE)), fputs("</small>", f);
		shared_mark(f, st, r, true, "<br><small class=\"shared\">", "</small>");
		fprintf(f, "</th><td class=\"num\">%ld</td>", inum(t, r, R_MAXNODES));
		full_load_td(f, st, r, full_load_cell(st, r, false), false);
		full_load_td(f, st, r, full_load_cell(st, r, true), true);
		fprintf(f, "<td class=\"num opt\">1 of %zu</td><td class=\"opt\">", st->sw[s].count);
		esc(f, val(t, r, R_STARTED));
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
	fputs("<h2>Comparisons</h2>\n", f);
	if (!st->ncmp)
		fputs("<p>No two switches were tested at the same scale (the same largest node count).</p>\n", f);
	else
		fputs("<ul>\n", f);
	for (size_t i = 0; i < st->ncmp; i++) {
		char a[160], b[160];

		switch_title(st, st->cmp[i].a, a, sizeof(a));
		switch_title(st, st->cmp[i].b, b, sizeof(b));
		fprintf(f, "<li><a href=\"%s\">", st->cmp[i].file);
		esc(f, a);
		fputs(" and ", f);
		esc(f, b);
		fprintf(f, " at %d nodes%s</a></li>\n", st->cmp[i].nodes, st->cmp[i].map ? ", fabric maps" : "");
	}
	if (st->ncmp)
		fputs("</ul>\n", f);
	for (int i = 0; i < st->nrefused; i++) {
		fputs(i ? "<br>" : "<p>Not compared (compare refused them):<br>", f);
		esc(f, st->refused[i]);
	}
	if (st->nrefused)
		fputs("</p>\n", f);
	return page_tail(f, st);
}

/* ---- charts ---- */

/* Narrow enough that its 13 px text stays 10 px or more when shrunk to a
 * phone's width (360 px: 0.8); the legend goes below the plot, a row per
 * series. */
#define CHART_W 420
#define PLOT_H 240
#define PLOT_L 64
#define PLOT_R 16
#define PLOT_T 16
#define PLOT_B 56
#define LEGEND_ROW 20

static const char *const COLOURS[] = { "#1f5fa8", "#c0392b", "#1e8449", "#7d3c98", "#b9770e", "#17202a" };
static const char *const DASHES[] = { "", "6 3", "2 3", "8 3 2 3", "12 4", "1 2" };

static double nice_step(double range)
{
	double raw = range / 5, mag = pow(10, floor(log10(raw))), m = raw / mag;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag;
}

/* The value of column k of cell i relative to the same pattern, size and
 * hops at the baseline level (level 0) of cells [first, first + n), in %. */
static double rel(const struct site *st, size_t first, size_t n, size_t i, int k, int base_k)
{
	const struct rows *c = &st->cells;

	for (size_t j = first; j < first + n; j++)
		if (!strcmp(val(c, j, C_LEVEL), "0") && !strcmp(val(c, j, C_PATTERN), val(c, i, C_PATTERN)) &&
		    !strcmp(val(c, j, C_SIZE), val(c, i, C_SIZE)) && !strcmp(val(c, j, C_HOPS), val(c, i, C_HOPS)))
			return num(c, i, k) / num(c, j, base_k) * 100;
	return NAN;
}

/* Whether cell i belongs to the series (pattern, size, hops). */
static bool in_series(const struct rows *c, size_t i, const char *pattern, const char *const series[2])
{
	return !strcmp(val(c, i, C_PATTERN), pattern) && !strcmp(val(c, i, C_SIZE), series[0]) &&
	       !strcmp(val(c, i, C_HOPS), series[1]);
}

/* The fall-off chart of one pattern of run cells [first, first + n): per
 * (size, hops) a line of the metric (per-hop latency or per-pair
 * bandwidth) at each node count as % of its value with one pair, so that
 * every size shares one axis; the CI as error bars. */
static void chart(FILE *f, const struct site *st, size_t first, size_t n, const char *pattern, const char *id)
{
	const struct rows *c = &st->cells;
	bool lat = is_latency(pattern);
	int k = lat ? C_LAT : C_BW;
	double ymax = 100, xmax = 0;
	const char *series[6][2];
	int nseries = 0;

	for (size_t i = first; i < first + n; i++) {
		bool known = false;

		if (strcmp(val(c, i, C_PATTERN), pattern))
			continue;
		for (int s = 0; s < nseries; s++)
			known |= !strcmp(series[s][0], val(c, i, C_SIZE)) && !strcmp(series[s][1], val(c, i, C_HOPS));
		if (!known && nseries < 6) {
			series[nseries][0] = val(c, i, C_SIZE);
			series[nseries++][1] = val(c, i, C_HOPS);
		}
		for (int j = 0; j < 3; j++)
			if (rel(st, first, n, i, k + j, k) > ymax)
				ymax = rel(st, first, n, i, k + j, k);
		if (num(c, i, C_NODES) > xmax)
			xmax = num(c, i, C_NODES);
	}
	if (!nseries || !(xmax > 0) || !isfinite(ymax))
		return;
	double step = nice_step(ymax * 1.05), ytop = ceil(ymax * 1.05 / step) * step;
	double pw = CHART_W - PLOT_L - PLOT_R, ph = PLOT_H;
	int h = PLOT_T + PLOT_H + PLOT_B + LEGEND_ROW * nseries;
#define X(v) (PLOT_L + (v) / xmax * pw)
#define Y(v) (PLOT_T + ph - (v) / ytop * ph)
	const char *what = lat ? "Per-hop latency" : "Per-pair bandwidth";

	fprintf(f, "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" "
		"height=\"%d\" role=\"img\" aria-labelledby=\"%s-t %s-d\">\n", CHART_W, h, CHART_W, h,
		id, id);
	fprintf(f, "<title id=\"%s-t\">%s of %s against nodes, %% of one pair</title>\n<desc id=\"%s-d\">", id,
		what, pattern, id);
	for (int s = 0; s < nseries; s++) {
		char sz[32];

		fmt_size_text(series[s][0], sz, sizeof(sz));
		fprintf(f, "%s%s:", s ? "; " : "", sz);
		for (size_t i = first; i < first + n; i++)
			if (in_series(c, i, pattern, series[s]))
				fprintf(f, " %s nodes %.1f%%", val(c, i, C_NODES), rel(st, first, n, i, k, k));
	}
	fputs("</desc>\n<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n", f);
	for (double y = 0; y <= ytop * 1.0001; y += step)
		fprintf(f, "<line x1=\"%d\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%d\" y=\"%.1f\" font-size=\"13\" text-anchor=\"end\">%g%%</text>\n", PLOT_L,
			PLOT_L + pw, Y(y), Y(y), PLOT_L - 6, Y(y) + 4, y);
	fprintf(f, "<line x1=\"%d\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#888\" stroke-dasharray=\"4 4\"/>\n",
		PLOT_L, PLOT_L + pw, Y(100.0), Y(100.0));
	for (size_t i = first; i < first + n; i++)
		if (in_series(c, i, pattern, series[0]))
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\">%s</text>\n",
				X(num(c, i, C_NODES)), PLOT_T + ph + 18, val(c, i, C_NODES));
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%.1f\" stroke=\"#000\"/>"
		"<line x1=\"%d\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n",
		PLOT_L, PLOT_L, PLOT_T, PLOT_T + ph, PLOT_L, PLOT_L + pw, PLOT_T + ph, PLOT_T + ph);
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"14\" text-anchor=\"middle\">nodes (2 per pair)</text>\n"
		"<text x=\"14\" y=\"%.1f\" font-size=\"14\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">"
		"%s, %% of one pair</text>\n", PLOT_L + pw / 2, PLOT_T + PLOT_H + 40, PLOT_T + ph / 2, PLOT_T + ph / 2,
		lat ? "latency" : "bandwidth");
	for (int s = 0; s < nseries; s++) {
		char sz[32];
		const char *dash = *DASHES[s] ? DASHES[s] : "none";

		fprintf(f, "<g class=\"series\" stroke=\"%s\" fill=\"%s\">\n<polyline fill=\"none\" stroke-width=\"2\" "
			"stroke-dasharray=\"%s\" points=\"", COLOURS[s], COLOURS[s], dash);
		for (size_t i = first; i < first + n; i++)
			if (in_series(c, i, pattern, series[s]) && isfinite(rel(st, first, n, i, k, k)))
				fprintf(f, "%.1f,%.1f ", X(num(c, i, C_NODES)), Y(rel(st, first, n, i, k, k)));
		fputs("\"/>\n", f);
		for (size_t i = first; i < first + n; i++) {
			double x, v = rel(st, first, n, i, k, k), lo = rel(st, first, n, i, k + 1, k),
				  hi = rel(st, first, n, i, k + 2, k);

			if (!in_series(c, i, pattern, series[s]) || !isfinite(v))
				continue;
			x = X(num(c, i, C_NODES));
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"/>", x, Y(v));
			if (isfinite(lo) && isfinite(hi))
				fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke-width=\"1.5\"/>",
					x, x, Y(lo), Y(hi));
			fputc('\n', f);
		}
		/* the legend: size and hops; a timed cell (hops 0) has no hop count */
		int ly = PLOT_T + PLOT_H + PLOT_B + LEGEND_ROW * s + 4;

		fmt_size_text(series[s][0], sz, sizeof(sz));
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke-width=\"2\" stroke-dasharray=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\" font-size=\"13\" stroke=\"none\" fill=\"#000\">%s, ", PLOT_L,
			PLOT_L + 24, ly, ly, dash, PLOT_L + 30, ly + 4, sz);
		if (strcmp(series[s][1], "0"))
			fprintf(f, "%s hops", series[s][1]);
		else
			fputs("timed", f);
		fputs("</text>\n</g>\n", f);
	}
#undef X
#undef Y
	fprintf(f, "</svg>\n<figcaption>%s of %s at each load as a percentage of the same size with one "
		"pair (the dashed line at 100%%), median with its confidence interval; the table below holds "
		"the numbers.</figcaption>\n</figure>\n", what, pattern);
}

/* ---- a switch's page ---- */

/* The rows of a run's provenance table (empty values are left out). */
static const struct { const char *label; int col; } PROVENANCE[] = {
	{ "Started (UTC)", R_STARTED }, { "Published (UTC)", R_PUBLISHED }, { "Vendor", R_VENDOR },
	{ "Model", R_MODEL }, { "Firmware", R_FIRMWARE }, { "Port speed", R_PORT_SPEED },
	{ "Ports used", R_PORTS_USED }, { "Topology", R_TOPOLOGY }, { "Oversubscription", R_OVERSUB },
	{ "Cabling", R_CABLING }, { "Notes", R_NOTES }, { "NIC", R_NIC }, { "MPI library", R_MPI },
	{ "MPI transport", R_TRANSPORT }, { "swstress version", R_TOOL }, { "Ranks", R_NRANKS },
	{ "Largest node count", R_MAXNODES }, { "Hosts", R_HOSTS }, { "Command line", R_CMD },
	{ "Given at publish time", R_SUPPLIED },
};

static void prov_row(FILE *f, const char *name, const char *value)
{
	if (!*value)
		return;
	fprintf(f, "<tr><th scope=\"row\">%s</th><td class=\"wrap\">", name);
	esc(f, value);
	fputs("</td></tr>\n", f);
}

static void cells_table(FILE *f, const struct site *st, size_t first, size_t n)
{
	const struct rows *c = &st->cells;

	fputs("<table>\n<caption>Every cell: median [CI]; change against the baseline level (one pair): "
	      "latency inflation for pingpong, per-pair bandwidth drop for stream and bidir, with the "
	      "CI and p-value of the change test (per-repetition medians, Bonett-Price)</caption>\n<thead><tr><th scope=\"col\">Pattern</th>"
	      "<th scope=\"col\">Size</th><th scope=\"col\" class=\"opt\">Hops</th><th scope=\"col\">Nodes</th>"
	      "<th scope=\"col\" class=\"opt\">Latency per hop, us</th><th scope=\"col\" class=\"opt\">Per-pair MB/s</th>"
	      "<th scope=\"col\" class=\"opt\">Aggregate MB/s</th><th scope=\"col\" class=\"opt\">Aggregate "
	      "Mmsg/s</th><th scope=\"col\">Change vs baseline</th>"
	      "<th scope=\"col\" class=\"opt\">p</th><th scope=\"col\">Significant</th></tr></thead>\n<tbody>\n", f);
	for (size_t i = first; i < first + n; i++) {
		bool lat = is_latency(val(c, i, C_PATTERN));
		int k = lat ? C_INFL : C_DROP;
		char sz[32], a[96], b[96], g[96], m[96], ch[96], p[32];
		const char *sig = val(c, i, k + 4);
		double per = num(c, i, C_SIZE);   /* MB/s over bytes: 10^6 messages/s */

		fmt_size_text(val(c, i, C_SIZE), sz, sizeof(sz));
		fmt_ci(a, sizeof(a), num(c, i, C_LAT), num(c, i, C_LAT_LO), num(c, i, C_LAT_HI), false);
		fmt_ci(b, sizeof(b), num(c, i, C_BW), num(c, i, C_BW_LO), num(c, i, C_BW_HI), false);
		fmt_ci(g, sizeof(g), num(c, i, C_AGG), num(c, i, C_AGG_LO), num(c, i, C_AGG_HI), false);
		fmt_ci(m, sizeof(m), lat ? NAN : num(c, i, C_AGG) / per, num(c, i, C_AGG_LO) / per,
		       num(c, i, C_AGG_HI) / per, false);
		fmt_ci(ch, sizeof(ch), num(c, i, k), num(c, i, k + 1), num(c, i, k + 2), true);
		stats_format_p(p, sizeof(p), num(c, i, k + 3));
		fprintf(f, "<tr data-cell=\"%s/%s\"><td>%s</td><td class=\"num\">%s</td><td class=\"num opt\">%s</td>"
			"<td class=\"num\">%s</td><td class=\"num opt\">%s</td><td class=\"num opt\">%s</td>"
			"<td class=\"num opt\">%s</td><td class=\"num opt\">%s</td><td class=\"num\">%s %s</td>"
			"<td class=\"num opt\">", val(c, i, C_RUN),
			val(c, i, C_CELL), val(c, i, C_PATTERN), sz, val(c, i, C_HOPS), val(c, i, C_NODES), a, b, g, m,
			*sig ? (lat ? "inflation" : "drop") : "baseline", *sig ? ch : "");
		esc(f, p);
		fprintf(f, "</td><td%s>%s", *sig == '1' ? " class=\"sig\"" : "", !*sig ? "-" : *sig == '1' ? "yes" : "no");
		drift_mark(f, c, i);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
}

static int write_file(const struct site *st, const char *rel, sw_write_fn fn, const void *arg,
		      char *err, size_t errlen);

/* The row of st->maps of run name, or -1: not a map run. */
static long map_row(const struct site *st, const char *name)
{
	for (size_t i = 0; i < st->maps.n; i++)
		if (!strcmp(val(&st->maps, i, 0), name))
			return (long)i;
	return -1;
}

/* A run's line on its switch page: its map's page, when it is a map. */
static void map_line(FILE *f, const struct site *st, const char *name)
{
	long i = map_row(st, name);

	if (i < 0)
		return;
	fprintf(f, "<p>Fabric map of this run (%s hosts, ", val(&st->maps, i, 1));
	if (strcmp(val(&st->maps, i, 3), "1"))
		fprintf(f, "%s patterns and sizes, ", val(&st->maps, i, 3));
	fprintf(f, "%s claim%s): <a href=\"../maps/%s.html\">the map, its claims and its heat map%s</a>.</p>\n",
		val(&st->maps, i, 2), strcmp(val(&st->maps, i, 2), "1") ? "s" : "", name,
		strcmp(val(&st->maps, i, 3), "1") ? "s" : "");
}

/* The switch's map runs, newest first, at the top of its page. */
static void map_list(FILE *f, const struct site *st, const struct sw_entry *e)
{
	int n = 0;

	for (size_t r = e->first; r < e->first + e->count; r++) {
		const char *name = val(&st->runs, r, R_NAME);

		if (map_row(st, name) >= 0)
			fprintf(f, "%s <a href=\"../maps/%s.html\">%s</a>", n++ ? "," : "<p>Fabric maps:", name, name);
	}
	if (n)
		fputs(".</p>\n", f);
}

/* site.c's frame lent to the map pages (site_map.h). */
static int map_page_tail(FILE *f, const char *generated)
{
	struct site st = { 0 };

	snprintf(st.generated, sizeof(st.generated), "%s", generated);
	return page_tail(f, &st);
}

static void map_fmt_ci(char *buf, size_t len, double x, double lo, double hi)
{
	fmt_ci(buf, len, x, lo, hi, false);
}

static const struct site_frame map_frame = { page_head, map_page_tail, map_fmt_ci };

/* The page of every map run, maps/NAME.html. */
static int write_maps(const struct site *st, int *pages, char *err, size_t errlen)
{
	for (size_t i = 0; i < st->nsw; i++)
		for (size_t r = st->sw[i].first; r < st->sw[i].first + st->sw[i].count; r++) {
			const char *name = val(&st->runs, r, R_NAME);
			char title[160], href[160], rel[SW_PATH_MAX];
			struct site_map *m;
			int rc;

			if (map_row(st, name) < 0)
				continue;
			switch_title(st, i, title, sizeof(title));
			snprintf(href, sizeof(href), "../switch/%s.html#%s", st->sw[i].slug, name);
			snprintf(rel, sizeof(rel), "maps/%s.html", name);
			if (site_map_load(st->store, name, title, href, st->generated, &map_frame, &m, err, errlen))
				return -1;
			rc = write_file(st, rel, site_map_write, m, err, errlen);
			site_map_free(m);
			if (rc)
				return -1;
			(*pages)++;
		}
	return 0;
}

struct switch_page {
	const struct site *st;
	size_t sw;
};

static int write_switch(FILE *f, const void *arg)
{
	const struct switch_page *pg = arg;
	const struct site *st = pg->st;
	const struct rows *t = &st->runs;
	const struct sw_entry *e = &st->sw[pg->sw];
	char title[160];

	switch_title(st, pg->sw, title, sizeof(title));
	page_head(f, title, "../");
	fprintf(f, "<p>%zu published run%s, newest first; each run's figures are from that run alone, and "
		"the comparisons use every run of each switch at the compared scale.", e->count, e->count == 1 ? "" : "s");
	for (size_t i = 0; i < st->ncmp; i++)
		if (st->cmp[i].a == pg->sw || st->cmp[i].b == pg->sw) {
			char other[160];

			switch_title(st, st->cmp[i].a == pg->sw ? st->cmp[i].b : st->cmp[i].a, other, sizeof(other));
			fprintf(f, " <a href=\"../%s\">Compared with ", st->cmp[i].file);
			esc(f, other);
			fprintf(f, " at %d nodes%s</a>.", st->cmp[i].nodes, st->cmp[i].map ? ", fabric maps" : "");
		}
	fputs("</p>\n", f);
	map_list(f, st, e);
	for (size_t r = e->first; r < e->first + e->count; r++) {
		const char *name = val(t, r, R_NAME);
		size_t first, n = run_cells(st, r, &first);
		const char *pats[SW_MAX_PATTERNS];
		int npats = 0;

		fprintf(f, "<section id=\"%s\">\n<h2>Run %s</h2>\n", name, name);
		shared_mark(f, st, r, false, "<p class=\"shared\">", ".</p>\n");
		fputs("<table>\n<caption>Provenance</caption>\n<tbody>\n", f);
		for (size_t k = 0; k < sizeof(PROVENANCE) / sizeof(PROVENANCE[0]); k++) {
			const char *v = val(t, r, PROVENANCE[k].col);

			prov_row(f, PROVENANCE[k].label, PROVENANCE[k].col == R_PORTS_USED && !strcmp(v, "0") ? "" : v);
		}
		fputs("<tr><th scope=\"row\">Suspect ports</th><td>", f);
		int nsus = 0;

		for (size_t i = 0; i < st->suspects.n; i++)
			if (!strcmp(val(&st->suspects, i, 0), name)) {
				fputs(nsus++ ? ", " : "", f);
				esc(f, val(&st->suspects, i, 1));
				put(f, " (flagged in ", val(&st->suspects, i, 2));
				put(f, " of ", val(&st->suspects, i, 3));
				fputs(" cells)", f);
			}
		fprintf(f, "%s</td></tr>\n</tbody>\n</table>\n", nsus ? "" : "none");
		fputs("<p>Files of this run:", f);
		for (size_t i = 0; i < st->files.n; i++)
			if (!strcmp(val(&st->files, i, 0), name))
				fprintf(f, " <a href=\"../runs/%s/%s\" download>%s</a>", name, val(&st->files, i, 1),
					val(&st->files, i, 1));
		fputs("</p>\n", f);
		map_line(f, st, name);
		for (size_t i = first; i < first + n; i++) {
			bool known = false;

			for (int j = 0; j < npats; j++)
				known |= !strcmp(pats[j], val(&st->cells, i, C_PATTERN));
			if (!known && npats < SW_MAX_PATTERNS)
				pats[npats++] = val(&st->cells, i, C_PATTERN);
		}
		if (map_row(st, name) >= 0)
			npats = 0;   /* a map's steps are not a fall-off: its page has the heat map */
		for (int j = 0; j < npats; j++) {
			char id[160];

			snprintf(id, sizeof(id), "chart-%s-%s", name, pats[j]);
			fprintf(f, "<h3>%s</h3>\n", pats[j]);
			chart(f, st, first, n, pats[j], id);
		}
		cells_table(f, st, first, n);
		fputs("</section>\n", f);
	}
	return page_tail(f, st);
}

/* ---- a comparison page ---- */

struct compare_page {
	const struct site *st;
	const struct cmp_entry *e;
	const struct compare *c;
};

static double disp(double x, bool latency)
{
	return latency ? x * 1e6 : x * 1e-6;
}

/* The name of run x of a comparison in its tables: its side, A or B, and
 * with more than one run a side its number there (A1 the newest). */
static void side_name(const struct cmp_entry *e, int x, char *buf, size_t len)
{
	bool b = x >= e->na;
	int n = b ? e->nb : e->na;

	if (n == 1)
		snprintf(buf, len, "%c", b ? 'B' : 'A');
	else
		snprintf(buf, len, "%c%d", b ? 'B' : 'A', b ? x - e->na + 1 : x + 1);
}

static int write_compare(FILE *f, const void *arg)
{
	const struct compare_page *pg = arg;
	const struct site *st = pg->st;
	const struct compare *c = pg->c;
	const struct cmp_entry *e = pg->e;
	const size_t sw[2] = { e->a, e->b };
	const int first[2] = { 0, e->na }, count[2] = { e->na, e->nb };
	char title[400], name[2][160];

	for (int i = 0; i < 2; i++)
		switch_title(st, sw[i], name[i], sizeof(name[i]));
	snprintf(title, sizeof(title), "%s and %s at %d nodes", name[0], name[1], pg->e->nodes);
	page_head(f, title, "../");
	fputs("<h2>Verdict</h2>\n<ul>\n", f);
	for (int i = 0; i < c->nverdicts; i++)
		put(f, "<li>", c->verdict[i].headline), fputs("</li>\n", f);
	fputs("</ul>\n", f);
	for (int i = 0; i < c->nverdicts; i++)
		put(f, "<p>", c->verdict[i].text), fputs("</p>\n", f);
	fputs("<p>Every published run of each switch at this scale, taken as replicates of that switch "
	      "(as <code>swstress compare</code> takes runs of one switch): the switches are compared, never "
	      "a run against a run. With 2 or more runs on a side the unit is the run (Welch's t on each "
	      "run's value); with one run a side, the repetitions, and a difference counts only beyond the "
	      "run-to-run allowance. The highest load is tested first (Holm over its statements); the other "
	      "cells only when something there is significant.</p>\n<ul>\n", f);
	for (int i = 0; i < 2; i++) {
		fprintf(f, "<li>%c: <a href=\"../switch/%s.html\">", 'A' + i, st->sw[sw[i]].slug);
		esc(f, name[i]);
		fprintf(f, "</a>, %d run%s (of the switch's %zu published):", count[i], count[i] == 1 ? "" : "s",
			st->sw[sw[i]].count);
		for (int x = first[i]; x < first[i] + count[i]; x++) {
			const size_t r = e->run[x];
			char side[16];

			side_name(e, x, side, sizeof(side));
			fprintf(f, "%s %s <a href=\"../switch/%s.html#%s\">", x > first[i] ? "," : "", side,
				st->sw[sw[i]].slug, val(&st->runs, r, R_NAME));
			esc(f, val(&st->runs, r, R_NAME));
			put(f, "</a> (label ", c->label[x]);
			fputs(c->copy_of[x] >= 0 ? ", a copy: counted once)" : ")", f);
			shared_mark(f, st, r, true, " <span class=\"shared\">", "</span>");
		}
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
	if (c->nnotes) {
		fputs("<h2>Differences between the runs</h2>\n<ul>\n", f);
		for (int i = 0; i < c->nnotes; i++)
			put(f, "<li>", c->notes[i]), fputs("</li>\n", f);
		fputs("</ul>\n", f);
	}
	fputs("<table>\n<caption>Degradation at the largest common load, each switch (its runs pooled) against "
	      "its own unloaded baseline; B - A in percentage points (negative: B degrades less)</caption>\n"
	      "<thead><tr><th scope=\"col\">Pattern</th><th scope=\"col\">Size</th><th scope=\"col\" class=\"opt\">Nodes</th>"
	      "<th scope=\"col\">Switch</th><th scope=\"col\" class=\"opt\">Latency per hop</th>"
	      "<th scope=\"col\" class=\"opt\">Aggregate</th><th scope=\"col\" class=\"opt\">Message rate</th>"
	      "<th scope=\"col\">Change vs own baseline</th>"
	      "<th scope=\"col\" class=\"opt\">p</th><th scope=\"col\">B - A, points</th></tr></thead>\n<tbody>\n", f);
	for (int i = 0; i < c->nsummary; i++) {
		const struct compare_summary_row *row = &c->summary[i];
		char sz[32];

		config_format_size(row->size, sz, sizeof(sz));
		for (int k = 0; k < 2; k++) {
			const int x = first[k];   /* the switch: its first run */
			const struct compare_level *l = &row->sw[x];
			struct compare_row_text t;

			if (!l->valid)
				continue;
			compare_row(c, row, x, &t);   /* the strings of the text, Markdown and JSON rows */
			fprintf(f, "<tr><td>%s</td><td class=\"num\">%s</td><td class=\"num opt\">%d</td><th scope=\"row\">%c",
				pattern_name(row->pattern), sz, row->nodes, 'A' + k);
			if (l->runs > 1)
				fprintf(f, " (%d runs)", l->runs);
			fputs("</th><td class=\"num opt\">", f);
			esc(f, t.lat);
			fputs("</td><td class=\"num opt\">", f);
			esc(f, t.agg);
			fputs("</td><td class=\"num opt\">", f);
			esc(f, t.rate);
			fputs("</td><td class=\"num\">", f);
			esc(f, t.change);
			fputs("</td><td class=\"num opt\">", f);
			esc(f, t.p);
			fprintf(f, "</td><td class=\"num%s\">", k && row->s[x].significant ? " sig" : "");
			esc(f, t.diff[0] ? t.diff : "-");
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</tbody>\n</table>\n", f);
	fputs("<table>\n<caption>Every matched cell: each switch's value (one run's median [CI], or its runs' "
	      "geometric mean and their range; latency per hop in us for pingpong, per-pair MB/s otherwise); B "
	      "against A: worse in percent, better as the ratio of the values [CI]; p Holm-adjusted (n/t: not "
	      "tested)</caption>\n"
	      "<thead><tr><th scope=\"col\">Pattern</th><th scope=\"col\">Size</th><th scope=\"col\" class=\"opt\">Hops</th>"
	      "<th scope=\"col\">Nodes</th><th scope=\"col\" class=\"opt\">A</th><th scope=\"col\" class=\"opt\">B</th>"
	      "<th scope=\"col\">B against A [CI]</th><th scope=\"col\" class=\"opt\">p</th><th scope=\"col\">Significant</th>"
	      "</tr></thead>\n<tbody>\n", f);
	for (int i = 0; i < c->ncells; i++) {
		const struct compare_cell *m = &c->cells[i];
		const int xb = e->na;   /* B's switch: its first run */
		const struct compare_stmt *d = &m->s[xb];
		char sz[32], v[2][96], w[96], p[32], hops[24];

		config_format_size(m->size, sz, sizeof(sz));
		for (int k = 0; k < 2; k++) {
			const struct compare_value *cv = &m->sv[k ? xb : 0];

			fmt_ci(v[k], sizeof(v[k]), cv->n ? disp(cv->median, m->latency) : NAN,
				disp(cv->lo, m->latency), disp(cv->hi, m->latency), false);
		}
		compare_worse_text(d, m->latency, true, w, sizeof(w));
		if (d->valid && !d->tested)
			snprintf(p, sizeof(p), "n/t");
		else
			stats_format_p(p, sizeof(p), d->valid ? d->p_adj : NAN);
		if (m->hops)
			snprintf(hops, sizeof(hops), "%ld", m->hops);
		else
			snprintf(hops, sizeof(hops), "auto");
		fprintf(f, "<tr data-a=\"%s/%d\" data-b=\"%s/%d\"><td>%s</td><td class=\"num\">%s</td>"
			"<td class=\"num opt\">%s</td><td class=\"num\">%d</td><td class=\"num opt\">%s</td>"
			"<td class=\"num opt\">%s</td><td class=\"num\">%s</td><td class=\"num opt\">",
			val(&st->runs, e->run[0], R_NAME), m->cell[0], val(&st->runs, e->run[xb], R_NAME), m->cell[xb],
			pattern_name(m->pattern), sz, hops, m->nodes, v[0], v[1], w);
		esc(f, p);
		fprintf(f, "</td><td%s>%s</td></tr>\n", d->significant ? " class=\"sig\"" : "",
			!d->valid ? "-" : d->significant ? "yes" : "no");
	}
	fputs("</tbody>\n</table>\n", f);
	put(f, "<h2>Method</h2>\n<p>", c->method);
	fputs("</p>\n", f);
	return page_tail(f, st);
}

/* ---- the whole site ---- */

static int write_text(FILE *f, const void *arg)
{
	return fputs(arg, f) < 0 ? -1 : 0;
}

static bool safe_name(const char *s)
{
	size_t n = strlen(s);

	return n && n < 128 && s[0] != '.' &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

/* Table t, row r, column c (named field, e.g. "runs.max_nodes") is a
 * whole number in lo..hi, or an error naming the field and the run. */
static int int_field(const struct rows *t, size_t r, int c, const char *field, long lo, long hi, const char *run,
		     char *err, size_t errlen)
{
	char shown[2][160];
	long x;

	if (sw_parse_long(val(t, r, c), lo, hi, &x))
		return sw_fail(err, errlen, "store: %s of run '%s': '%s' is not a whole number from %ld to %ld",
			       field, text_term(shown[0], sizeof(shown[0]), run),
			       text_term(shown[1], 48, val(t, r, c)), lo, hi);
	return 0;
}

/* A map run's file of a pattern and size other than its first
 * (mapout_set_file): links, hosts or groups-PATTERN-BYTES.csv. */
static bool map_set_file(const char *name)
{
	for (int k = 0; k < MAPOUT_NFILES; k++) {
		size_t n = strlen(mapout_files[k]);
		const char *pat = name + n + 1, *dash;
		char buf[16];

		if (strncmp(name, mapout_files[k], n) || name[n] != '-' || !(dash = strchr(pat, '-')) ||
		    (size_t)(dash - pat) >= sizeof(buf))
			continue;
		snprintf(buf, sizeof(buf), "%.*s", (int)(dash - pat), pat);
		dash++;
		if (pattern_find(buf) >= 0 && dash[0] >= '1' && dash[0] <= '9' && strspn(dash, "0123456789") < 20 &&
		    !strcmp(dash + strspn(dash, "0123456789"), ".csv"))
			return true;
	}
	return false;
}

/* Refuse rows the pages would print unescaped or use in paths, and
 * numbers out of range. */
static int check_rows(const struct site *st, char *err, size_t errlen)
{
	static const char *const files[] = {
		"run.json", "samples.csv", "summary.csv", "pairs.csv", "fits.csv", "report.txt",
		"links.csv", "hosts.csv", "groups.csv",
	};

	for (size_t r = 0; r < st->runs.n; r++)
		if (!safe_name(val(&st->runs, r, R_NAME)))
			return sw_fail(err, errlen, "run name '%.100s' in the store is not letters, digits, '.', "
				       "'_' and '-'", val(&st->runs, r, R_NAME));
	for (size_t r = 0; r < st->runs.n; r++)
		if (int_field(&st->runs, r, R_MAXNODES, "runs.max_nodes", 2, SW_MAX_RANKS, val(&st->runs, r, R_NAME),
			      err, errlen))
			return -1;
	for (size_t i = 0; i < st->cells.n; i++) {
		static const struct {
			int col;
			const char *name;
			long lo, hi;
		} ints[] = {
			{ C_CELL, "cells.cell", 0, INT_MAX }, { C_LEVEL, "cells.level", 0, INT_MAX },
			{ C_NODES, "cells.nodes", 2, SW_MAX_RANKS }, { C_PAIRS, "cells.pairs", 1, SW_MAX_RANKS / 2 },
			{ C_SIZE, "cells.size_bytes", 1, LONG_MAX }, { C_HOPS, "cells.hops", 0, LONG_MAX },
			{ C_REPS, "cells.reps", 0, INT_MAX }, { C_N, "cells.n", 0, LONG_MAX },
		};

		if (pattern_find(val(&st->cells, i, C_PATTERN)) < 0)
			return sw_fail(err, errlen, "run '%.100s': cell with unknown pattern in the store",
				       val(&st->cells, i, C_RUN));
		for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++)
			if (int_field(&st->cells, i, ints[k].col, ints[k].name, ints[k].lo, ints[k].hi,
				      val(&st->cells, i, C_RUN), err, errlen))
				return -1;
	}
	for (size_t i = 0; i < st->suspects.n; i++)
		if (int_field(&st->suspects, i, 2, "suspects.flagged", 1, INT_MAX, val(&st->suspects, i, 0), err, errlen) ||
		    int_field(&st->suspects, i, 3, "suspects.cells", 1, INT_MAX, val(&st->suspects, i, 0), err, errlen))
			return -1;
	for (size_t i = 0; i < st->files.n; i++) {
		bool known = false;

		for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++)
			known |= !strcmp(val(&st->files, i, 1), files[k]);
		if (!known && !map_set_file(val(&st->files, i, 1)))
			return sw_fail(err, errlen, "run '%.100s': unknown file '%.100s' in the store",
				       val(&st->files, i, 0), val(&st->files, i, 1));
	}
	return 0;
}

/* A file under the site: OUTDIR/REL, its folders created; a planted link
 * in REL is refused (sfile.h). */
static int write_file(const struct site *st, const char *rel, sw_write_fn fn, const void *arg,
		      char *err, size_t errlen)
{
	return sfile_write_under(st->outdir, rel, fn, arg, err, errlen);
}

/* The published files of every run into OUTDIR/runs/NAME/. */
static int write_run_files(const struct site *st, char *err, size_t errlen)
{
	for (size_t r = 0; r < st->runs.n; r++) {
		const char *name = val(&st->runs, r, R_NAME);
		struct rows content = { 0 };
		int rc = 0;

		if (store_query(st->store, "SELECT file, content FROM run_files WHERE run = $1", 1, &name,
				collect, &content, err, errlen))
			return -1;
		for (size_t i = 0; i < content.n && !rc; i++) {
			char rel[SW_PATH_MAX];

			snprintf(rel, sizeof(rel), "runs/%s/%s", name, val(&content, i, 0));
			rc = write_file(st, rel, write_text, val(&content, i, 1), err, errlen);
		}
		rows_free(&content);
		if (rc)
			return -1;
	}
	return 0;
}

/* The compare of comparison e: its runs as published, each given its
 * switch's name as its model, so that compare's replicates are the site's
 * switches (a run may lack the model that publish supplied). NULL with
 * the message in err. */
static struct compare *compare_sides(const struct site *st, const struct cmp_entry *e, char *err, size_t errlen)
{
	struct sw_run *runs[COMPARE_MAX_RUNS] = { NULL };
	char dirs[COMPARE_MAX_RUNS][SW_PATH_MAX];
	const char *dp[COMPARE_MAX_RUNS] = { NULL };
	const int n = e->na + e->nb;
	struct compare *c = NULL;

	for (int x = 0; x < n; x++) {
		char model[sizeof(runs[0]->cfg.model)];

		snprintf(dirs[x], sizeof(dirs[x]), "%s/runs/%s", st->outdir, val(&st->runs, e->run[x], R_NAME));
		dp[x] = dirs[x];
		if (!(runs[x] = results_load(dirs[x], err, errlen)))
			goto out;
		switch_title(st, x < e->na ? e->a : e->b, model, sizeof(model));
		if (x >= e->na && !strcmp(model, runs[0]->cfg.model))   /* the same in its first bytes */
			snprintf(model, sizeof(model), "%.*s", (int)sizeof(model) - 1, st->sw[e->b].slug);
		snprintf(runs[x]->cfg.model, sizeof(runs[x]->cfg.model), "%s", model);
	}
	c = compare_create(runs, dp, n, err, errlen);
out:
	if (!c)
		for (int x = 0; x < n; x++)
			run_free(runs[x]);
	return c;
}

/* The published files of run r, as site_write wrote them under the
 * site's folder, are whole: summary.csv and fits.csv what its run.json
 * and samples.csv give (results_verify, as plot, compare and publish
 * check them). 0, or -1 with "FILE:LINE: ..." in err. */
static int verify_run(const struct site *st, size_t r, char *err, size_t errlen)
{
	char dir[SW_PATH_MAX];

	if (sfile_path(dir, sizeof(dir), err, errlen, "%s/runs/%s", st->outdir, val(&st->runs, r, R_NAME)))
		return -1;
	return results_verify_folder(dir, err, errlen);
}

/* The site's pages into st->outdir (a new, empty folder). 0, or -1 with
 * the message in err. */
static int build(struct site *st, int *npages, char *err, size_t errlen)
{
	struct store *s = st->store;
	int pages = 0;

	if (store_query(s, RUNS_SQL, 0, NULL, collect, &st->runs, err, errlen) ||
	    store_query(s, CELLS_SQL, 0, NULL, collect, &st->cells, err, errlen) ||
	    store_query(s, "SELECT run, host, flagged, cells FROM suspects ORDER BY run, host", 0, NULL,
			collect, &st->suspects, err, errlen) ||
	    store_query(s, "SELECT run, file FROM run_files ORDER BY run, file", 0, NULL, collect, &st->files,
			err, errlen) ||
	    store_query(s, "SELECT run, max(nhosts), (SELECT count(*) FROM map_claims c WHERE c.run = m.run),"
			" count(*) FROM maps m GROUP BY run ORDER BY run", 0, NULL, collect, &st->maps, err, errlen) ||
	    check_rows(st, err, errlen))
		return -1;
	if (group(st))
		return sw_fail(err, errlen, "%s: out of memory", st->outdir);
	if (write_file(st, "style.css", write_text, STYLE, err, errlen) ||
	    write_run_files(st, err, errlen))
		return -1;
	for (size_t r = 0; r < st->runs.n; r++)
		if (verify_run(st, r, err, errlen))
			return -1;
	/* The comparisons first: one that compare refuses (runs it cannot
	 * match) is left out of every page and named on the index; it does
	 * not stop the site. */
	for (size_t i = 0; i < st->ncmp; i++) {
		char why[512];
		struct compare *c = compare_sides(st, &st->cmp[i], why, sizeof(why));

		if (!c) {
			char a[160], b[160];

			switch_title(st, st->cmp[i].a, a, sizeof(a));
			switch_title(st, st->cmp[i].b, b, sizeof(b));
			if (st->nrefused < (int)(sizeof(st->refused) / sizeof(st->refused[0])))
				snprintf(st->refused[st->nrefused++], sizeof(st->refused[0]), "%.150s and %.150s at %d "
					 "nodes: %.200s", a, b, st->cmp[i].nodes, why);
			memmove(&st->cmp[i], &st->cmp[i + 1], (st->ncmp - i - 1) * sizeof(st->cmp[0]));
			st->ncmp--;
			i--;
			continue;
		}
		struct compare_page pg = { st, &st->cmp[i], c };
		int wrc = write_file(st, st->cmp[i].file, write_compare, &pg, err, errlen);

		compare_free(c);
		if (wrc)
			return -1;
		pages++;
	}
	for (size_t i = 0; i < st->nsw; i++) {
		struct switch_page pg = { st, i };
		char rel[160];

		snprintf(rel, sizeof(rel), "switch/%s.html", st->sw[i].slug);
		if (write_file(st, rel, write_switch, &pg, err, errlen))
			return -1;
		pages++;
	}
	if (write_maps(st, &pages, err, errlen) ||
	    write_file(st, "index.html", write_index, st, err, errlen))
		return -1;
	*npages = pages + 1;
	return 0;
}

/* ---- the site's folder: built beside it, renamed into place ---- */

/* What a site folder holds (site.h); temporary files are ".NAME.XXXXXX.tmp". */
static bool site_entry(const char *name)
{
	static const char *const names[] = { "index.html", "style.css", "runs", "switch", "compare", "maps" };
	size_t n = strlen(name);

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (!strcmp(name, names[k]))
			return true;
	return name[0] == '.' && n > 4 && !strcmp(name + n - 4, ".tmp");
}

/* Whether path is missing (*exists false), or a folder that site_write
 * may replace: empty, or holding nothing but what a site holds. A folder
 * of anything else is refused, never replaced. 0 or -1 with err. */
static int replaceable(const char *path, bool *exists, char *err, size_t errlen)
{
	struct stat sb;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	*exists = false;
	if (lstat(path, &sb))
		return errno == ENOENT ? 0 : sw_fail(err, errlen, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return sw_fail(err, errlen, "%s: exists and is not a folder", path);
	*exists = true;
	if (!(d = opendir(path)))
		return sw_fail(err, errlen, "%s: %s", path, strerror(errno));
	while (!rc && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && !site_entry(de->d_name))
			rc = sw_fail(err, errlen, "%s: holds '%.100s', which a site does not: site replaces only a "
				     "folder that holds a site (or nothing); name a new folder", path, de->d_name);
	closedir(d);
	return rc;
}

static int remove_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

/* Remove the folder tree path (links removed, never followed; not across
 * mounts). */
static void remove_tree(const char *path)
{
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* The folder the site goes to, as a path whose last component is the
 * folder itself (a link the user named is followed to its folder), and
 * its parent folder. 0 or -1 with err. */
static int site_target(const char *outdir, char *target, char *parent, size_t len, char *err, size_t errlen)
{
	char buf[SW_PATH_MAX], *slash;
	size_t n;

	if (sfile_path(buf, sizeof(buf), err, errlen, "%s", outdir))
		return -1;
	n = strlen(buf);
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	if (realpath(buf, target)) {   /* there (through a link, the user's choice) */
		if (strlen(target) >= len)
			return sw_fail(err, errlen, "%s: path too long", outdir);
	} else if (errno == ENOENT) {
		char dir[SW_PATH_MAX], real[PATH_MAX];
		const char *base;

		slash = strrchr(buf, '/');
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - buf) + (slash == buf) : 1, slash ? buf : ".");
		base = slash ? slash + 1 : buf;
		if (sw_mkdir_p(dir) || !realpath(dir, real))
			return sw_fail(err, errlen, "%s: %s", dir, strerror(errno));
		if (sfile_path(target, len, err, errlen, "%s/%s", strcmp(real, "/") ? real : "", base))
			return -1;
	} else
		return sw_fail(err, errlen, "%s: %s", outdir, strerror(errno));
	slash = strrchr(target, '/');
	if (!slash || !slash[1] || !strcmp(slash + 1, ".") || !strcmp(slash + 1, ".."))
		return sw_fail(err, errlen, "%s: name a folder for the site, not the root", outdir);
	snprintf(parent, len, "%.*s", slash == target ? 1 : (int)(slash - target), target);
	return 0;
}

int site_write(struct store *s, const char *outdir, int *npages, char *err, size_t errlen)
{
	struct site st = { .store = s };
	char target[SW_PATH_MAX], parent[SW_PATH_MAX], tmp[SW_PATH_MAX + 32], old[SW_PATH_MAX + 32];
	const char *base;
	time_t now = time(NULL);
	struct tm tm;
	bool exists;
	int rc = -1, pages = 0;

	if (site_target(outdir, target, parent, sizeof(target), err, errlen) ||
	    replaceable(target, &exists, err, errlen))
		return -1;
	base = strrchr(target, '/') + 1;
	/* a new folder beside the target, made exclusively (mkdtemp) */
	snprintf(tmp, sizeof(tmp), "%s/.%s.new-XXXXXX", strcmp(parent, "/") ? parent : "", base);
	if (!mkdtemp(tmp) || chmod(tmp, 0755))
		return sw_fail(err, errlen, "%s: cannot create a folder beside it: %s", target, strerror(errno));
	st.outdir = tmp;
	gmtime_r(&now, &tm);
	strftime(st.generated, sizeof(st.generated), "%Y-%m-%d %H:%M UTC", &tm);
	if (build(&st, &pages, err, errlen))
		goto out_remove;
	/* into place: swapped with the previous site in one step, else (a
	 * file system without RENAME_EXCHANGE) the previous one moved aside
	 * first */
	if (!exists) {
		if (rename(tmp, target)) {
			sw_fail(err, errlen, "%s: cannot rename the new site into place: %s", target, strerror(errno));
			goto out_remove;
		}
	} else if (renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_EXCHANGE) == 0) {
		remove_tree(tmp);   /* the previous site */
	} else {
		snprintf(old, sizeof(old), "%s/.%s.old-XXXXXX", strcmp(parent, "/") ? parent : "", base);
		if ((errno != EINVAL && errno != ENOSYS) || !mkdtemp(old) || rename(target, old)) {
			sw_fail(err, errlen, "%s: cannot rename the new site into place: %s", target, strerror(errno));
			goto out_remove;
		}
		if (rename(tmp, target)) {
			sw_fail(err, errlen, "%s: cannot rename the new site into place: %s", target, strerror(errno));
			rename(old, target);
			goto out_remove;
		}
		remove_tree(old);
	}
	if (npages)
		*npages = pages;
	rc = 0;
	goto out;
out_remove:
	remove_tree(tmp);
out:
	rows_free(&st.runs);
	rows_free(&st.cells);
	rows_free(&st.suspects);
	rows_free(&st.files);
	rows_free(&st.maps);
	free(st.sw);
	free(st.cmp);
	return rc;
}
