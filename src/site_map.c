/*
 * site_map.c - a map run's page on the catalog site; see site_map.h.
 *
 * The store's rows are read into typed arrays (hosts by their place on
 * the heat map's axis, links by the axis places of their two hosts), and
 * the page is written from those alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "blame_out.h"
#include "config.h"
#include "pattern.h"
#include "site_map.h"
#include "stats.h"
#include "sw.h"
#include "text.h"

struct smap_host {
	char name[SW_HOST_MAX], group[SW_HOST_MAX];
	int n, slower, tested;
	bool flagged;
	double score, lo, hi, rel, p;
};

struct smap_link {
	int a, b, n;          /* axis places */
	bool flagged;         /* slow alone */
	double median, lo, hi, rel;
	char *cause;          /* NULL for "-": no claim explains it */
};

struct smap_group {
	char kind[16], a[SW_HOST_MAX], b[SW_HOST_MAX];
	int n;
	bool flagged;
	double median, lo, hi, rel, rel_lo, rel_hi, p, cap, cap_lo, cap_hi;
};

struct smap_claim {
	char kind[16], holds[16];
	char *element, *evidence;
};

/* One pattern and size of the map (a row of maps): its own hosts, links,
 * groups and claims. */
struct smap_set {
	char pattern[16], id[48], title[64];   /* id: PATTERN-SIZE, safe in HTML */
	uint64_t size;
	bool latency, inferred;
	int nhost, ngroup;
	double floor, alpha, confidence;
	struct smap_host *host;       /* nhost, by axis */
	struct smap_link *link;
	size_t nlink, caplink;
	struct smap_group *group;
	size_t ngrp, capgrp;
	struct smap_claim *claim;
	size_t nclaim, capclaim;
	int bad;                      /* a row out of range: its table's number */
};

struct site_map {
	const char *run, *switch_title, *switch_href, *generated;
	const struct site_frame *frame;
	struct smap_set *set;         /* in the run's order: set 0 its first cell's */
	size_t nset, capset;
	int bad;
};

/* ---- rows ---- */

static double dnum(const char *v)
{
	char *end;
	double x;

	if (!v)
		return NAN;
	x = strtod(v, &end);
	return end == v || *end ? NAN : x;
}

/* A whole number in lo..hi into *x, or false. */
static bool inum(const char *v, long lo, long hi, int *x)
{
	long l;

	if (!v || sw_parse_long(v, lo, hi, &l))
		return false;
	*x = (int)l;
	return true;
}

static const char *str(const char *v)
{
	return v ? v : "";
}

/* One more slot of an array of size elements (*cap grows), or NULL. */
static void *grow(void *arrp, size_t *n, size_t *cap, size_t size)
{
	void **arr = arrp;

	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		void *p = realloc(*arr, c * size);

		if (!p)
			return NULL;
		*arr = p;
		*cap = c;
	}
	return (char *)*arr + (*n)++ * size;
}

static int row_map(void *arg, int ncols, const char *const *v)
{
	struct site_map *m = arg;
	struct smap_set *t;
	int inferred;
	long long size;
	char *end;

	if (ncols < 9 || !v[0] || pattern_find(v[0]) < 0 || !v[1]) {
		m->bad = 1;
		return 0;
	}
	errno = 0;
	size = strtoll(v[1], &end, 10);
	if (errno || end == v[1] || *end || size < 1) {
		m->bad = 1;
		return 0;
	}
	t = grow(&m->set, &m->nset, &m->capset, sizeof(*t));
	if (!t)
		return -1;
	memset(t, 0, sizeof(*t));
	if (!inum(v[3], 2, SW_MAX_RANKS, &t->nhost) || !inum(v[4], 1, SW_MAX_RANKS, &t->ngroup) ||
	    !inum(v[5], 0, 1, &inferred)) {
		m->bad = 1;
		return 0;
	}
	snprintf(t->pattern, sizeof(t->pattern), "%s", pattern_name(pattern_find(v[0])));
	t->size = (uint64_t)size;
	snprintf(t->id, sizeof(t->id), "%s-%" PRIu64, t->pattern, t->size);
	config_format_size_spaced(t->size, t->title, sizeof(t->title));
	t->latency = !strcmp(str(v[2]), "latency_us");
	t->inferred = inferred;
	t->floor = dnum(v[6]);
	t->alpha = dnum(v[7]);
	t->confidence = dnum(v[8]);
	return 0;
}

static int row_host(void *arg, int ncols, const char *const *v)
{
	struct smap_set *m = arg;
	struct smap_host *h;
	int axis, flagged;

	if (!m->host)
		return -1;
	if (ncols < 13 || !inum(v[2], 0, m->nhost - 1, &axis) || m->host[axis].name[0] || !v[0] || !v[0][0] ||
	    !inum(v[12], 0, 1, &flagged)) {
		m->bad = 2;
		return 0;
	}
	h = &m->host[axis];
	snprintf(h->name, sizeof(h->name), "%s", v[0]);
	snprintf(h->group, sizeof(h->group), "%s", str(v[1]));
	inum(v[3], 0, INT_MAX, &h->n);
	inum(v[7], 0, INT_MAX, &h->slower);
	inum(v[8], 0, INT_MAX, &h->tested);
	h->flagged = flagged;
	h->score = dnum(v[4]);
	h->lo = dnum(v[5]);
	h->hi = dnum(v[6]);
	h->rel = dnum(v[9]);
	h->p = dnum(v[10]);
	return 0;
}

static int row_link(void *arg, int ncols, const char *const *v)
{
	struct smap_set *m = arg;
	struct smap_link l = { 0 }, *slot;
	int flagged;

	if (ncols < 9 || !inum(v[0], 0, m->nhost - 1, &l.a) || !inum(v[1], 0, m->nhost - 1, &l.b) || l.a == l.b ||
	    !inum(v[5], 0, INT_MAX, &l.n) || !inum(v[7], 0, 1, &flagged)) {
		m->bad = 3;
		return 0;
	}
	l.flagged = flagged;
	l.median = dnum(v[2]);
	l.lo = dnum(v[3]);
	l.hi = dnum(v[4]);
	l.rel = dnum(v[6]);
	if (v[8] && strcmp(v[8], "-") && !(l.cause = strdup(v[8])))
		return -1;
	slot = grow(&m->link, &m->nlink, &m->caplink, sizeof(*slot));
	if (!slot) {
		free(l.cause);
		return -1;
	}
	*slot = l;
	return 0;
}

static int row_group(void *arg, int ncols, const char *const *v)
{
	struct smap_set *m = arg;
	struct smap_group *g;
	int flagged;

	if (ncols < 15 || !inum(v[11], 0, 1, &flagged)) {
		m->bad = 4;
		return 0;
	}
	g = grow(&m->group, &m->ngrp, &m->capgrp, sizeof(*g));
	if (!g)
		return -1;
	snprintf(g->kind, sizeof(g->kind), "%s", str(v[0]));
	snprintf(g->a, sizeof(g->a), "%s", str(v[1]));
	snprintf(g->b, sizeof(g->b), "%s", str(v[2]));
	inum(v[3], 0, INT_MAX, &g->n);
	g->flagged = flagged;
	double *x[] = { &g->median, &g->lo, &g->hi, &g->rel, &g->rel_lo, &g->rel_hi, &g->p };
	for (int i = 0; i < 7; i++)
		*x[i] = dnum(v[4 + i]);
	g->cap = dnum(v[12]);
	g->cap_lo = dnum(v[13]);
	g->cap_hi = dnum(v[14]);
	return 0;
}

static int row_claim(void *arg, int ncols, const char *const *v)
{
	struct smap_set *m = arg;
	struct smap_claim *c;

	if (ncols < 4) {
		m->bad = 5;
		return 0;
	}
	c = grow(&m->claim, &m->nclaim, &m->capclaim, sizeof(*c));
	if (!c)
		return -1;
	snprintf(c->kind, sizeof(c->kind), "%s", str(v[0]));
	snprintf(c->holds, sizeof(c->holds), "%s", str(v[2]));
	c->element = strdup(str(v[1]));
	c->evidence = strdup(str(v[3]));
	return c->element && c->evidence ? 0 : -1;
}

/* The rows of set t of run from s. 0, or -1 with err (t->bad: a row
 * out of range). */
static int load_set(struct store *s, const char *run, struct smap_set *t, char *err, size_t errlen)
{
	char size[32];
	const char *p[3] = { run, t->pattern, size };

	snprintf(size, sizeof(size), "%" PRIu64, t->size);
	if (!(t->host = calloc((size_t)t->nhost, sizeof(*t->host))))
		return sw_fail(err, errlen, "site: out of memory");
	if (store_query(s, "SELECT host, group_name, axis, n, score, lo, hi, slower, tested, rel, p, 0, flagged"
			" FROM map_hosts WHERE run = $1 AND pattern = $2 AND size_bytes = $3", 3, p, row_host, t, err,
			errlen) ||
	    store_query(s, "SELECT ha.axis, hb.axis, l.median, l.lo, l.hi, l.n, l.rel, l.flagged, l.cause"
			" FROM map_links l JOIN map_hosts ha ON ha.run = l.run AND ha.pattern = l.pattern"
			" AND ha.size_bytes = l.size_bytes AND ha.host = l.host_a"
			" JOIN map_hosts hb ON hb.run = l.run AND hb.pattern = l.pattern"
			" AND hb.size_bytes = l.size_bytes AND hb.host = l.host_b"
			" WHERE l.run = $1 AND l.pattern = $2 AND l.size_bytes = $3", 3, p, row_link, t, err, errlen) ||
	    store_query(s, "SELECT kind, group_a, group_b, n, median, lo, hi, rel, rel_lo, rel_hi, p, flagged,"
			" capacity, cap_lo, cap_hi FROM map_groups WHERE run = $1 AND pattern = $2 AND size_bytes = $3"
			" ORDER BY kind DESC, group_a, group_b", 3, p, row_group, t, err, errlen) ||
	    store_query(s, "SELECT kind, element, holds, evidence FROM map_claims WHERE run = $1 AND pattern = $2"
			" AND size_bytes = $3 ORDER BY claim", 3, p, row_claim, t, err, errlen))
		return -1;
	for (int i = 0; i < t->nhost && !t->bad; i++)
		if (!t->host[i].name[0])
			t->bad = 2;   /* a place on the axis without its host */
	return 0;
}

int site_map_load(struct store *s, const char *run, const char *switch_title, const char *switch_href,
		  const char *generated, const struct site_frame *frame, struct site_map **out, char *err,
		  size_t errlen)
{
	static const char *const tables[] = { "", "maps", "map_hosts", "map_links", "map_groups", "map_claims" };
	struct site_map *m = calloc(1, sizeof(*m));
	char shown[160];

	*out = NULL;
	if (!m)
		return sw_fail(err, errlen, "site: out of memory");
	*m = (struct site_map){ .run = run, .switch_title = switch_title, .switch_href = switch_href,
				.generated = generated, .frame = frame };
	/* the run's order: by the first cell of each pattern and size */
	if (store_query(s, "SELECT pattern, size_bytes, metric, nhosts, ngroups, inferred, floor, alpha, confidence"
			" FROM maps m WHERE run = $1 ORDER BY (SELECT min(c.cell) FROM cells c WHERE c.run = m.run"
			" AND c.pattern = m.pattern AND c.size_bytes = m.size_bytes), pattern, size_bytes", 1, &run,
			row_map, m, err, errlen))
		goto fail;
	if (!m->bad && m->nset == 0)
		m->bad = 1;
	for (size_t k = 0; k < m->nset && !m->bad; k++) {
		if (load_set(s, run, &m->set[k], err, errlen))
			goto fail;
		m->bad = m->set[k].bad;
	}
	if (m->bad) {
		sw_fail(err, errlen, "store: %s of map run '%s': a row out of range, or hosts missing", tables[m->bad],
			text_term(shown, sizeof(shown), run));
		goto fail;
	}
	*out = m;
	return 0;
fail:
	if (!err[0])
		sw_fail(err, errlen, "site: out of memory");
	site_map_free(m);
	return -1;
}

static void set_free(struct smap_set *t)
{
	for (size_t i = 0; i < t->nlink; i++)
		free(t->link[i].cause);
	for (size_t i = 0; i < t->nclaim; i++) {
		free(t->claim[i].element);
		free(t->claim[i].evidence);
	}
	free(t->link);
	free(t->group);
	free(t->claim);
	free(t->host);
}

void site_map_free(struct site_map *m)
{
	if (!m)
		return;
	for (size_t k = 0; k < m->nset; k++)
		set_free(&m->set[k]);
	free(m->set);
	free(m);
}

/* ---- the heat map ---- */

#define MAP_W 420           /* the SVG's width (viewBox units) */
#define MAP_T 8
#define MAP_FONT 13         /* >= 10 px drawn at a phone's 0.85 scale */

/* viridis, dark (slow) to bright (fast), 9 stops */
static const unsigned char VIRIDIS[9][3] = {
	{ 0x44, 0x01, 0x54 }, { 0x47, 0x2d, 0x7b }, { 0x3b, 0x52, 0x8b }, { 0x2c, 0x72, 0x8e }, { 0x21, 0x91, 0x8c },
	{ 0x28, 0xae, 0x80 }, { 0x5e, 0xc9, 0x62 }, { 0xad, 0xdc, 0x30 }, { 0xfd, 0xe7, 0x25 },
};

static void colour(double t, char buf[8])
{
	double x = (t < 0 ? 0 : t > 1 ? 1 : t) * 8;
	int i = x >= 8 ? 7 : (int)x;
	double f = x - i;
	int c[3];

	for (int k = 0; k < 3; k++)
		c[k] = (int)lround(VIRIDIS[i][k] + f * (VIRIDIS[i + 1][k] - VIRIDIS[i][k]));
	snprintf(buf, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* The heat map's grid: nb x nb blocks of neighbouring axis places (one
 * host each up to SITE_MAP_CELLS), each the mean of its links' medians
 * (NaN: none), mark 1 when a claim explains one of its links, 2 when one
 * is slow alone; flagged: a block with a flagged host. */
struct grid {
	int nb;
	double *v, lo, hi;
	unsigned char *mark;
	bool *flagged;
};

static int block(const struct smap_set *m, int nb, int axis)
{
	return (int)((long long)axis * nb / m->nhost);
}

static int grid_fill(const struct smap_set *m, struct grid *g)
{
	int nb = m->nhost <= SITE_MAP_CELLS ? m->nhost : SITE_MAP_CELLS;
	size_t cells = (size_t)nb * (size_t)nb;
	int *cnt = calloc(cells, sizeof(*cnt));

	g->nb = nb;
	g->v = calloc(cells, sizeof(*g->v));
	g->mark = calloc(cells, 1);
	g->flagged = calloc((size_t)nb, sizeof(*g->flagged));
	if (!cnt || !g->v || !g->mark || !g->flagged) {
		free(cnt);
		return -1;
	}
	for (size_t i = 0; i < m->nlink; i++) {
		const struct smap_link *l = &m->link[i];
		int x = block(m, nb, l->a), y = block(m, nb, l->b);
		unsigned char mk = l->flagged ? 2 : l->cause ? 1 : 0;

		if (!isfinite(l->median))
			continue;
		for (int k = 0; k < 2; k++) {
			size_t c = k ? (size_t)x * nb + y : (size_t)y * nb + x;

			g->v[c] += l->median;
			cnt[c]++;
			if (mk > g->mark[c])
				g->mark[c] = mk;
		}
	}
	g->lo = INFINITY;
	g->hi = -INFINITY;
	for (size_t c = 0; c < cells; c++) {
		g->v[c] = cnt[c] ? g->v[c] / cnt[c] : NAN;
		if (cnt[c] && g->v[c] < g->lo)
			g->lo = g->v[c];
		if (cnt[c] && g->v[c] > g->hi)
			g->hi = g->v[c];
	}
	for (int i = 0; i < m->nhost; i++)
		g->flagged[block(m, nb, i)] |= m->host[i].flagged;
	free(cnt);
	return 0;
}

static void grid_free(struct grid *g)
{
	free(g->v);
	free(g->mark);
	free(g->flagged);
}

/* t in [0, 1] for value v: 0 the slowest (the lowest bandwidth, the
 * highest latency). */
static double scale(const struct smap_set *m, const struct grid *g, double v)
{
	double t = g->hi > g->lo ? (v - g->lo) / (g->hi - g->lo) : 0.5;

	return m->latency ? 1 - t : t;
}

static const char *unit(const struct smap_set *m)
{
	return m->latency ? "us" : "MB/s";
}

/* A label of at most 14 bytes, cut at a character's start (an ellipsis
 * for the rest). */
static void label(FILE *f, const char *s)
{
	char buf[64];
	int n = 13;

	if (strlen(s) <= 14) {
		text_html_put(f, s);
		return;
	}
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	snprintf(buf, sizeof(buf), "%.*s\xe2\x80\xa6", n, s);
	text_html_put(f, buf);
}

static void heat_map(FILE *f, const char *run, const struct smap_set *m, const struct grid *g)
{
	int nb = g->nb, left = 110, size = MAP_W - left - 8, legend_y;
	double c = (double)size / nb;
	bool names = c >= 14;   /* a host's name beside each row */
	int nflag = 0;
	char col[8];

	for (int i = 0; i < m->nhost; i++)
		nflag += m->host[i].flagged;
	legend_y = MAP_T + size + 24;
	fprintf(f, "<figure>\n<svg role=\"img\" aria-labelledby=\"heat-t-%s heat-d-%s\" viewBox=\"0 0 %d %d\" "
		"width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n<title id=\"heat-t-%s\">Heat map of "
		"every link of ", m->id, m->id, MAP_W, legend_y + 84, MAP_W, legend_y + 84, m->id);
	text_html_put(f, run);
	fprintf(f, ", %s %s</title>\n<desc id=\"heat-d-%s\">%d hosts in %d group%s, rows and columns in the same order, by "
		"group; each square the median of a link in %s%s, from %.4g (%s) to %.4g; %d flagged host%s "
		"outlined in red%s</desc>\n", m->pattern, m->title, m->id, m->nhost, m->ngroup, m->ngroup == 1 ? "" : "s", unit(m),
		nb < m->nhost ? " (each square a block of neighbouring hosts: the mean of its links)" : "",
		m->latency ? g->hi : g->lo, "slowest", m->latency ? g->lo : g->hi, nflag, nflag == 1 ? "" : "s",
		"; a white dot: a link a claim explains, a red square: a link slow alone");
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#d9d9d9\"/>\n", left, MAP_T, size, size);
	for (int y = 0; y < nb; y++)
		for (int x = 0; x < nb; x++) {
			double v = g->v[(size_t)y * nb + x];

			if (!isfinite(v))
				continue;
			colour(scale(m, g, v), col);
			fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n",
				left + x * c, MAP_T + y * c, c + 0.05, c + 0.05, col);
		}
	for (int y = 0; y < nb; y++)   /* marks above the colours */
		for (int x = 0; x < nb; x++) {
			int mk = g->mark[(size_t)y * nb + x];
			double cx = left + (x + 0.5) * c, cy = MAP_T + (y + 0.5) * c, r = c * 0.16 > 1.2 ? c * 0.16 : 1.2;

			if (mk == 1)
				fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"#fff\"/>\n", cx, cy, r);
			else if (mk == 2)
				fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" "
					"stroke=\"#e31a1c\" stroke-width=\"1.5\"/>\n", cx - r * 1.5, cy - r * 1.5, 3 * r, 3 * r);
		}
	/* group boundaries, names, flagged hosts */
	for (int i = 0; i < m->nhost; i++) {
		bool start = i == 0 || strcmp(m->host[i].group, m->host[i - 1].group);
		int end = i;
		double y0, y1;

		if (!start)
			continue;
		while (end + 1 < m->nhost && !strcmp(m->host[end + 1].group, m->host[i].group))
			end++;
		y0 = MAP_T + (double)i * size / m->nhost;
		y1 = MAP_T + (double)(end + 1) * size / m->nhost;
		if (i > 0)
			fprintf(f, "<path d=\"M%d %.2fH%dM%.2f %dV%d\" stroke=\"#fff\" stroke-width=\"1.5\"/>\n", left, y0,
				left + size, left + y0 - MAP_T, MAP_T, MAP_T + size);
		if (m->ngroup > 1 && y1 - y0 >= 8 * strlen(m->host[i].group) + 6 && strlen(m->host[i].group) <= 14) {
			fprintf(f, "<text x=\"%.2f\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\">", left + (y0 + y1) / 2 -
				MAP_T, MAP_T + size + 14, MAP_FONT);
			text_html_put(f, m->host[i].group);
			fputs("</text>\n", f);
		}
		if (!names && y1 - y0 >= MAP_FONT + 2 && m->ngroup > 1) {
			fprintf(f, "<text x=\"%d\" y=\"%.2f\" font-size=\"%d\" text-anchor=\"end\" "
				"dominant-baseline=\"middle\">", left - 6, (y0 + y1) / 2, MAP_FONT);
			label(f, m->host[i].group);
			fputs("</text>\n", f);
		}
	}
	for (int i = 0; i < m->nhost; i++) {
		const struct smap_host *h = &m->host[i];
		double y = MAP_T + (i + 0.5) * size / m->nhost;

		if (names) {
			fprintf(f, "<text x=\"%d\" y=\"%.2f\" font-size=\"%d\" text-anchor=\"end\" dominant-baseline="
				"\"middle\"%s>", left - 6, y, MAP_FONT, h->flagged ? " fill=\"#b10026\" font-weight=\"bold\"" : "");
			label(f, h->name);
			fputs(h->flagged ? " \xe2\x96\xb6" : "", f);
			fputs("</text>\n", f);
		}
	}
	for (int b = 0; b < nb; b++)
		if (g->flagged[b])
			fprintf(f, "<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"none\" stroke=\"#e31a1c\" "
				"stroke-width=\"2\"/>\n<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"none\" "
				"stroke=\"#e31a1c\" stroke-width=\"2\"/>\n", left, MAP_T + b * c, size, c, left + b * c,
				MAP_T, c, size);
	/* the legend: the scale, slow to fast, in the unit */
	for (int k = 0; k < 32; k++) {
		colour(k / 31.0, col);
		fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"12\" fill=\"%s\"/>\n",
			left + k * size / 32.0, legend_y, size / 32.0 + 0.05, col);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"%d\">%.4g</text>\n<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
		"text-anchor=\"end\">%.4g %s</text>\n<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"end\">%s"
		"</text>\n", left, legend_y + 28, MAP_FONT, m->latency ? g->hi : g->lo, left + size, legend_y + 28,
		MAP_FONT, m->latency ? g->lo : g->hi, unit(m), left - 6, legend_y + 11, MAP_FONT, "slow \xe2\x86\x92 fast");
	fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"#fff\" stroke=\"#555\"/><text x=\"%d\" y=\"%d\" "
		"font-size=\"%d\">a claim explains the link</text>\n", left + 5, legend_y + 46, left + 14, legend_y + 50,
		MAP_FONT);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"9\" height=\"9\" fill=\"none\" stroke=\"#e31a1c\" "
		"stroke-width=\"1.5\"/><text x=\"%d\" y=\"%d\" font-size=\"%d\">slow alone; red band: flagged "
		"host</text>\n</svg>\n", left + 1, legend_y + 60, left + 14, legend_y + 69, MAP_FONT);
	fprintf(f, "<figcaption>Every link's median %s, rows and columns the hosts in group order%s. Grey: not "
		"measured.</figcaption>\n</figure>\n", unit(m),
		nb < m->nhost ? "; at this size each square is a block of neighbouring hosts, the mean of its links" : "");
}

/* ---- tables ---- */

/* m's metric as blame.h numbers it */
static int metric_of(const struct smap_set *m)
{
	return m->latency ? BLAME_LATENCY : BLAME_BANDWIDTH;
}

static int cmp_host(const void *a, const void *b, void *arg)
{
	const struct smap_set *m = arg;

	return blame_cmp_worse(m->host[*(const int *)a].rel, m->host[*(const int *)b].rel, metric_of(m));
}

static int cmp_link(const void *a, const void *b, void *arg)
{
	const struct smap_set *m = arg;

	return blame_cmp_worse(m->link[*(const size_t *)a].rel, m->link[*(const size_t *)b].rel, metric_of(m));
}

#define TOP 10

static void hosts_table(FILE *f, const struct site_frame *fr, const struct smap_set *m)
{
	int *idx = malloc(sizeof(*idx) * (size_t)m->nhost);
	char ci[96], p[32];

	if (!idx)
		return;
	for (int i = 0; i < m->nhost; i++)
		idx[i] = i;
	qsort_r(idx, (size_t)m->nhost, sizeof(*idx), cmp_host, (void *)m);
	fprintf(f, "<table>\n<caption>The slowest hosts (of %d): score = the median over its partners of its "
		"links, %s [CI]; effect = against its group's typical host (the model's host effect); below = partners below the model's fit by more than the floor</caption>\n<thead><tr>"
		"<th scope=\"col\">Host</th><th scope=\"col\" class=\"opt\">Group</th><th scope=\"col\">Score</th>"
		"<th scope=\"col\">Effect</th><th scope=\"col\" class=\"opt\">Below with</th>"
		"<th scope=\"col\" class=\"opt\">p</th><th scope=\"col\">Flagged</th></tr></thead>\n<tbody>\n",
		m->nhost, unit(m));
	for (int k = 0; k < m->nhost && k < TOP; k++) {
		const struct smap_host *h = &m->host[idx[k]];

		fr->fmt_ci(ci, sizeof(ci), h->score, h->lo, h->hi);
		stats_format_p(p, sizeof(p), h->p);
		fputs("<tr data-host=\"", f);
		text_html_put(f, h->name);
		fprintf(f, "\" data-set=\"%s/%" PRIu64 "\"><td class=\"wrap\">", m->pattern, m->size);
		text_html_put(f, h->name);
		fputs("</td><td class=\"opt wrap\">", f);
		text_html_put(f, h->group);
		fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">%.4gx</td><td class=\"num opt\">%d of %d</td>"
			"<td class=\"num opt\">%s</td><td%s>%s</td></tr>\n", ci, h->rel, h->slower, h->tested, p,
			h->flagged ? " class=\"sig\"" : "", h->flagged ? "SLOW" : "no");
	}
	fputs("</tbody>\n</table>\n", f);
	free(idx);
}

static void groups_table(FILE *f, const struct site_frame *fr, const struct smap_set *m)
{
	char cross[96], rel[96], cap[96];

	if (!m->ngrp) {
		fprintf(f, "<p>%s: no uplink or boundary to test.</p>\n", m->ngroup == 1 ? "One group" : "Groups");
		return;
	}
	fprintf(f, "<table>\n<caption>Group bottlenecks: each uplink (the links with one end in the group against "
		"the crossing links that do not touch it) and each boundary (the links crossing it against those "
		"within the two groups), %s [CI]; carried: what the crossing pairs moved one way in the rounds with the most of them"
		"</caption>\n<thead><tr><th scope=\"col\">Element</th><th scope=\"col\" class=\"opt\">Crossing links"
		"</th><th scope=\"col\">vs reference, ratio</th><th scope=\"col\" class=\"opt\">Carried</th>"
		"<th scope=\"col\">Flagged</th></tr></thead>\n<tbody>\n", unit(m));
	for (size_t i = 0; i < m->ngrp; i++) {
		const struct smap_group *g = &m->group[i];
		bool up = !strcmp(g->kind, "uplink");

		fr->fmt_ci(cross, sizeof(cross), g->median, g->lo, g->hi);
		fr->fmt_ci(rel, sizeof(rel), g->rel, g->rel_lo, g->rel_hi);
		fr->fmt_ci(cap, sizeof(cap), g->cap, g->cap_lo, g->cap_hi);
		fprintf(f, "<tr><td class=\"wrap\">%s ", up ? "uplink of" : m->ngroup == 2 ? "trunk" : "boundary");
		text_html_put(f, g->a);
		if (!up) {
			fputs("|", f);
			text_html_put(f, g->b);
		}
		fprintf(f, "</td><td class=\"num opt\">%s (%d links)</td><td class=\"num\">%s</td><td class=\"num opt\">"
			"%s</td><td%s>%s</td></tr>\n", cross, g->n, rel, cap, g->flagged ? " class=\"sig\"" : "",
			g->flagged ? "SLOW" : "no");
	}
	fputs("</tbody>\n</table>\n", f);
}

static void links_table(FILE *f, const struct site_frame *fr, const struct smap_set *m)
{
	size_t *idx = malloc(sizeof(*idx) * (m->nlink ? m->nlink : 1));
	char ci[96];

	if (!idx)
		return;
	for (size_t i = 0; i < m->nlink; i++)
		idx[i] = i;
	qsort_r(idx, m->nlink, sizeof(*idx), cmp_link, (void *)m);
	fprintf(f, "<table>\n<caption>The slowest links (of %zu): median over blocks, %s [CI]; vs typical = "
		"against the typical link of its group pair; cause = the claim that explains it</caption>\n<thead>"
		"<tr><th scope=\"col\">Link</th><th scope=\"col\">Median</th><th scope=\"col\">vs typical</th>"
		"<th scope=\"col\" class=\"opt\">Cause</th></tr></thead>\n<tbody>\n", m->nlink, unit(m));
	for (size_t k = 0; k < m->nlink && k < TOP; k++) {
		const struct smap_link *l = &m->link[idx[k]];

		fr->fmt_ci(ci, sizeof(ci), l->median, l->lo, l->hi);
		fputs("<tr><td class=\"wrap\">", f);
		text_html_put(f, m->host[l->a].name);
		fputs(" \xe2\x80\x93 ", f);
		text_html_put(f, m->host[l->b].name);
		fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">%.4gx</td><td class=\"opt wrap\">", ci, l->rel);
		text_html_put(f, l->flagged ? "slow alone" : l->cause ? l->cause : "-");
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
	free(idx);
}

/* Set t's section: what it measured, its claims, its heat map and its
 * tables, under headings of level h (2 when the map has one set). */
static void write_set(FILE *f, const struct site_map *mp, const struct smap_set *m, int h, bool many)
{
	struct grid g = { 0 };
	char sz[32], of[64];

	config_format_size_spaced(m->size, sz, sizeof(sz));
	if (many)
		fprintf(f, "<section class=\"map-set\" id=\"%s\">\n<h2>%s, %s</h2>\n", m->id, m->pattern, sz);
	/* with many, each heading names its pattern and size: a reader who
	 * lands mid-page (or lists the headings) knows which map it is */
	snprintf(of, sizeof(of), many ? ", %s %s" : "", m->pattern, sz);
	fprintf(f, "<p>%d hosts, %zu links, %d group%s %s; %s %s, %s%s. Claims need the link at least %g%% slower, "
		"one-sided, Holm at alpha %g within each family; intervals at %g%%.</p>\n", m->nhost, m->nlink, m->ngroup,
		m->ngroup == 1 ? "" : "s",
		m->inferred ? "inferred from the map (ports that behave as one group, not known fact)" : "from the topology",
		m->pattern, sz, m->latency ? "latency per hop in us (lower is faster)" : "bandwidth in MB/s",
		m->latency ? "" : " (10<sup>6</sup> bytes/s)", 100 * m->floor, m->alpha, 100 * m->confidence);
	fprintf(f, "<h%d id=\"claims-%s\">Claims%s</h%d>\n", h, m->id, of, h);
	if (!m->nclaim)
		fprintf(f, "<p>No host, uplink, boundary or link is slower than %g%% beyond chance.</p>\n", 100 * m->floor);
	else
		fputs("<ul>\n", f);
	for (size_t i = 0; i < m->nclaim; i++) {
		const struct smap_claim *c = &m->claim[i];

		fputs("<li data-claim=\"", f);
		text_html_put(f, c->kind);
		fputs("\"><strong>", f);
		text_html_put(f, c->holds[0] ? c->holds : "SLOW");
		fputs("</strong>: ", f);
		text_html_put(f, c->evidence);
		fputs("</li>\n", f);
	}
	if (m->nclaim)
		fputs("</ul>\n", f);
	fprintf(f, "<h%d id=\"heat-map-%s\">Heat map%s</h%d>\n", h, m->id, of, h);
	if (grid_fill(m, &g) == 0)
		heat_map(f, mp->run, m, &g);
	grid_free(&g);
	fprintf(f, "<h%d id=\"tables-%s\">Hosts, groups and links%s</h%d>\n", h, m->id, of, h);
	hosts_table(f, mp->frame, m);
	groups_table(f, mp->frame, m);
	links_table(f, mp->frame, m);
	if (many)
		fputs("</section>\n", f);
}

int site_map_write(FILE *f, const void *arg)
{
	const struct site_map *m = arg;
	bool many = m->nset > 1;
	char title[200];

	snprintf(title, sizeof(title), "Fabric map: run %s", m->run);
	m->frame->head(f, title, "../");
	fputs("<p>Switch: <a href=\"", f);
	text_html_put(f, m->switch_href);
	fputs("\">", f);
	text_html_put(f, m->switch_title);
	fputs("</a>.", f);
	if (many) {
		fprintf(f, " This run mapped %zu patterns and sizes, each its own map below:</p>\n<ul class=\"sets\">\n",
			m->nset);
		for (size_t k = 0; k < m->nset; k++) {
			const struct smap_set *t = &m->set[k];
			char sz[32];
			int nflag = 0;

			for (int i = 0; i < t->nhost; i++)
				nflag += t->host[i].flagged;
			config_format_size_spaced(t->size, sz, sizeof(sz));
			fprintf(f, "<li><a href=\"#%s\">%s, %s</a>: %zu claim%s, %d flagged host%s</li>\n", t->id, t->pattern,
				sz, t->nclaim, t->nclaim == 1 ? "" : "s", nflag, nflag == 1 ? "" : "s");
		}
		fputs("</ul>\n", f);
	} else {
		fputs("</p>\n", f);
	}
	for (size_t k = 0; k < m->nset; k++)
		write_set(f, m, &m->set[k], many ? 3 : 2, many);
	return m->frame->tail(f, m->generated);
}
