/*
 * blame_out.c - the fabric map's files and tables; see blame_out.h.
 * Prints only on the FILE given; values in the CSV units of results.c
 * (MB/s = 10^6 bytes/s, us).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "blame_out.h"
#include "fmt.h"
#include "text.h"

#define OUT_WIDTH 80

static double csv_scale(const struct blame_result *r)
{
	return r->metric == BLAME_LATENCY ? 1e6 : 1e-6;
}

static const char *metric_name(const struct blame_result *r)
{
	return r->metric == BLAME_LATENCY ? "latency_us" : "bandwidth_MBps";
}

static enum fmt_unit unit_of(const struct blame_result *r)
{
	return r->metric == BLAME_LATENCY ? FMT_TIME : FMT_BW;
}

/* A number for CSV, NaN when not finite. */
static void num(FILE *f, double x, const char *fmt)
{
	if (isfinite(x))
		fprintf(f, fmt, x);
	else
		fputs("NaN", f);
}

static void comment(FILE *f, const struct blame_result *r)
{
	fprintf(f, "# swstress %s fabric map, %d hosts, groups %s, floor %g%%, alpha %g, MB/s = 10^6 bytes/s\n",
		SW_VERSION, r->nhost, r->inferred ? "inferred" : "given", 100.0 * r->floor, r->alpha);
}

void blame_link_cause(const struct blame_result *r, const struct blame_link *l, char *buf, size_t len)
{
	switch (l->cause) {
	case BLAME_HOST:
		snprintf(buf, len, "host:%s", r->host[l->by].name);
		break;
	case BLAME_UPLINK:
		snprintf(buf, len, "uplink:%s", r->group[l->by].name);
		break;
	case BLAME_BOUNDARY:
		snprintf(buf, len, "boundary:%s|%s", r->group[r->bound[l->by].g].name, r->group[r->bound[l->by].h].name);
		break;
	case BLAME_LINK:
		snprintf(buf, len, "link");
		break;
	default:
		snprintf(buf, len, "-");
	}
}

int blame_write_links(FILE *f, const struct blame_result *r)
{
	double k = csv_scale(r);
	char cause[2 * SW_HOST_MAX + 16];

	comment(f, r);
	fputs("host_a,host_b,path,metric,median,lo,hi,n,flagged,cause\n", f);
	for (size_t i = 0; i < r->nlink; i++) {
		const struct blame_link *l = &r->link[i];

		fprintf(f, "%s,%s,%s%s%s,%s,", r->host[l->a].name, r->host[l->b].name, r->group[l->ga].name,
			l->ga == l->gb ? "" : "|", l->ga == l->gb ? "" : r->group[l->gb].name, metric_name(r));
		num(f, l->median * k, "%.6g");
		fputc(',', f);
		num(f, l->lo * k, "%.6g");
		fputc(',', f);
		num(f, l->hi * k, "%.6g");
		blame_link_cause(r, l, cause, sizeof(cause));
		fprintf(f, ",%d,%d,%s\n", l->n, l->flagged, cause);
	}
	return ferror(f) ? -1 : 0;
}

void blame_host_order(const struct blame_result *r, int *order)
{
	int k = 0;

	for (int g = 0; g < r->ngroup; g++)
		for (int i = 0; i < r->nhost; i++)
			if (r->host[i].group == g)
				order[i] = k++;
}

int blame_write_hosts(FILE *f, const struct blame_result *r)
{
	double k = csv_scale(r);
	int *order = malloc((size_t)r->nhost * sizeof(*order));

	if (!order)
		return -1;
	blame_host_order(r, order);
	comment(f, r);
	fputs("host,group,order,group_start,metric,score,lo,hi,n,rel,slower,p,flagged\n", f);
	for (int i = 0; i < r->nhost; i++) {
		const struct blame_host *h = &r->host[i];
		bool start = true;

		for (int j = 0; j < i; j++)
			start = start && r->host[j].group != h->group;
		fprintf(f, "%s,%s,%d,%d,%s,", h->name, r->group[h->group].name, order[i], start, metric_name(r));
		num(f, h->score * k, "%.6g");
		fputc(',', f);
		num(f, h->lo * k, "%.6g");
		fputc(',', f);
		num(f, h->hi * k, "%.6g");
		fprintf(f, ",%d,", h->n);
		num(f, h->rel, "%.4f");
		fprintf(f, ",%d,", h->slower);
		num(f, h->p, "%.4g");
		fprintf(f, ",%d\n", h->flagged);
	}
	free(order);
	return ferror(f) ? -1 : 0;
}

int blame_write_groups(FILE *f, const struct blame_result *r)
{
	double k = csv_scale(r);

	comment(f, r);
	fputs("kind,group_a,group_b,n,median,lo,hi,rel,rel_lo,rel_hi,p,flagged,capacity,cap_lo,cap_hi,cap_pairs\n", f);
	for (int g = 0; g < r->ngroup; g++) {
		const struct blame_group *gr = &r->group[g];

		if (!isfinite(gr->rel))
			continue;
		fprintf(f, "uplink,%s,-,%d,NaN,NaN,NaN,", gr->name, gr->n);
		num(f, gr->rel, "%.4f");
		fputc(',', f);
		num(f, gr->lo, "%.4f");
		fputc(',', f);
		num(f, gr->hi, "%.4f");
		fputc(',', f);
		num(f, gr->p, "%.4g");
		fprintf(f, ",%d,NaN,NaN,NaN,0\n", gr->flagged);
	}
	for (size_t b = 0; b < r->nbound; b++) {
		const struct blame_boundary *bd = &r->bound[b];
		const double v[] = { bd->median * k, bd->lo * k, bd->hi * k };
		const double rel[] = { bd->rel, bd->rel_lo, bd->rel_hi, bd->p };
		const double cap[] = { bd->capacity * k, bd->cap_lo * k, bd->cap_hi * k };

		fprintf(f, "boundary,%s,%s,%d", r->group[bd->g].name, r->group[bd->h].name, bd->n);
		for (int i = 0; i < 3; i++) {
			fputc(',', f);
			num(f, v[i], "%.6g");
		}
		for (int i = 0; i < 4; i++) {
			fputc(',', f);
			num(f, rel[i], "%.4g");
		}
		fprintf(f, ",%d", bd->flagged);
		for (int i = 0; i < 3; i++) {
			fputc(',', f);
			num(f, cap[i], "%.6g");
		}
		fprintf(f, ",%d\n", bd->cap_pairs);
	}
	return ferror(f) ? -1 : 0;
}

int blame_write_matrix(FILE *f, const struct blame_result *r)
{
	double k = csv_scale(r);
	int n = r->nhost, *order = malloc((size_t)n * sizeof(*order)), *at = malloc((size_t)n * sizeof(*at));

	if (!order || !at) {
		free(at);
		free(order);
		return -1;
	}
	blame_host_order(r, order);
	for (int i = 0; i < n; i++)
		at[order[i]] = i;
	comment(f, r);
	fputs("x,y,host_x,host_y,value,mark\n", f);
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++) {
			const struct blame_link *l = x == y ? NULL : blame_link_of(r, at[x], at[y]);

			fprintf(f, "%d,%d,%s,%s,", x, y, r->host[at[x]].name, r->host[at[y]].name);
			num(f, l ? l->median * k : NAN, "%.6g");
			fprintf(f, ",%d\n", !l ? 0 : l->cause == BLAME_LINK ? 2 : l->cause != BLAME_NONE);
		}
	free(at);
	free(order);
	return ferror(f) ? -1 : 0;
}

int blame_cmp_worse(double x, double y, int metric)
{
	if (!isfinite(x) || !isfinite(y))
		return isfinite(y) - isfinite(x);
	return metric == BLAME_LATENCY ? (x < y) - (x > y) : (x > y) - (x < y);
}

static int cmp_host(const void *a, const void *b, void *arg)
{
	const struct blame_result *r = arg;

	return blame_cmp_worse(r->host[*(const int *)a].rel, r->host[*(const int *)b].rel, r->metric);
}

static int cmp_link(const void *a, const void *b, void *arg)
{
	const struct blame_result *r = arg;

	return blame_cmp_worse(r->link[*(const size_t *)a].rel, r->link[*(const size_t *)b].rel, r->metric);
}

/* The widest of n strings of stride bytes at cell, at least min: a
 * column's width, so that no cell is ever cut. */
static int col_width(const char *cell, size_t stride, size_t n, int min)
{
	int w = min;

	for (size_t k = 0; k < n; k++)
		if ((int)strlen(cell + k * stride) > w)
			w = (int)strlen(cell + k * stride);
	return w;
}

/* One row's cells of the map's tables. */
struct cells {
	char name[2 * SW_HOST_MAX + 2];
	char group[SW_HOST_MAX];
	char ci[64], rel[48], count[24], cause[2 * SW_HOST_MAX + 16];
};

static void print_hosts(FILE *f, const struct blame_result *r, int top)
{
	enum fmt_unit u = unit_of(r);
	int nr = r->nhost < top ? r->nhost : top;
	int *idx = malloc((size_t)r->nhost * sizeof(*idx));
	struct cells *c = calloc(nr > 0 ? (size_t)nr : 1, sizeof(*c));
	int wn, wg, wc, wr, wk;

	if (!idx || !c)
		goto out_free;
	for (int i = 0; i < r->nhost; i++)
		idx[i] = i;
	qsort_r(idx, (size_t)r->nhost, sizeof(*idx), cmp_host, (void *)r);
	for (int k = 0; k < nr; k++) {
		const struct blame_host *h = &r->host[idx[k]];

		snprintf(c[k].name, sizeof(c[k].name), "%s", h->name);
		snprintf(c[k].group, sizeof(c[k].group), "%s", r->group[h->group].name);
		fmt_ci(c[k].ci, sizeof(c[k].ci), u, h->score, h->lo, h->hi, h->n >= 2);
		fmt_num(c[k].rel, sizeof(c[k].rel) - 1, h->rel);
		strcat(c[k].rel, "x");
		snprintf(c[k].count, sizeof(c[k].count), "%d/%d", h->slower, h->tested);
	}
	wn = col_width(c[0].name, sizeof(*c), (size_t)nr, 4);
	wg = col_width(c[0].group, sizeof(*c), (size_t)nr, 5);
	wc = col_width(c[0].ci, sizeof(*c), (size_t)nr, 10);
	wr = col_width(c[0].rel, sizeof(*c), (size_t)nr, 6);
	wk = col_width(c[0].count, sizeof(*c), (size_t)nr, 5);
	fprintf(f, "\nSlowest hosts (score: median over partners, %g%% CI; effect: against its\n"
		   "group's typical host, the model's host effect; below: partners below the\n"
		   "model's fit by more than the floor)\n", 100.0 * r->confidence);
	fprintf(f, "  %-*s %-*s %-*s %*s %*s\n", wn, "host", wg, "group", wc, "score [CI]", wr, "effect", wk, "below");
	for (int k = 0; k < nr; k++)
		fprintf(f, "  %-*s %-*s %-*s %*s %*s%s\n", wn, c[k].name, wg, c[k].group, wc, c[k].ci, wr, c[k].rel, wk,
			c[k].count, r->host[idx[k]].flagged ? " SLOW" : "");
out_free:
	free(c);
	free(idx);
}

static void print_links(FILE *f, const struct blame_result *r, int top)
{
	enum fmt_unit u = unit_of(r);
	size_t nr = r->nlink < (size_t)top ? r->nlink : (size_t)top;
	size_t *idx = malloc((r->nlink ? r->nlink : 1) * sizeof(*idx));
	struct cells *c = calloc(nr ? nr : 1, sizeof(*c));
	int wn, wc, wr;

	if (!idx || !c)
		goto out_free;
	for (size_t i = 0; i < r->nlink; i++)
		idx[i] = i;
	qsort_r(idx, r->nlink, sizeof(*idx), cmp_link, (void *)r);
	for (size_t k = 0; k < nr; k++) {
		const struct blame_link *l = &r->link[idx[k]];

		snprintf(c[k].name, sizeof(c[k].name), "%s-%s", r->host[l->a].name, r->host[l->b].name);
		fmt_ci(c[k].ci, sizeof(c[k].ci), u, l->median, l->lo, l->hi, l->n >= 2);
		fmt_num(c[k].rel, sizeof(c[k].rel) - 1, l->rel);
		strcat(c[k].rel, "x");
		blame_link_cause(r, l, c[k].cause, sizeof(c[k].cause));
	}
	wn = col_width(c[0].name, sizeof(*c), nr, 4);
	wc = col_width(c[0].ci, sizeof(*c), nr, 11);
	wr = col_width(c[0].rel, sizeof(*c), nr, 10);
	fprintf(f, "\nSlowest links (median over blocks, %g%% CI; vs typical: against the\n"
		   "typical link of its group pair)\n", 100.0 * r->confidence);
	fprintf(f, "  %-*s %-*s %*s %s\n", wn, "link", wc, "median [CI]", wr, "vs typical", "cause");
	for (size_t k = 0; k < nr; k++)
		fprintf(f, "  %-*s %-*s %*s %s\n", wn, c[k].name, wc, c[k].ci, wr, c[k].rel, c[k].cause);
out_free:
	free(c);
	free(idx);
}

static void print_bounds(FILE *f, const struct blame_result *r, int top)
{
	enum fmt_unit u = unit_of(r);
	size_t nr = r->nbound < (size_t)top ? r->nbound : (size_t)top;
	struct cells *c = calloc(nr ? nr : 1, sizeof(*c));
	char a[16], b[16], d[16], cap[64], *carried = NULL;
	size_t clen = 0;
	FILE *cf;
	int wn, wc;

	if (!nr || !c)
		goto out_free;
	for (size_t k = 0; k < nr; k++) {
		const struct blame_boundary *bd = &r->bound[k];

		snprintf(c[k].name, sizeof(c[k].name), "%s|%s", r->group[bd->g].name, r->group[bd->h].name);
		fmt_ci(c[k].ci, sizeof(c[k].ci), u, bd->median, bd->lo, bd->hi, bd->units >= 2);
		snprintf(c[k].rel, sizeof(c[k].rel), "%sx [%s, %s]", fmt_num(a, sizeof(a), bd->rel),
			 fmt_num(b, sizeof(b), bd->rel_lo), fmt_num(d, sizeof(d), bd->rel_hi));
	}
	wn = col_width(c[0].name, sizeof(*c), nr, 8);
	wc = col_width(c[0].ci, sizeof(*c), nr, 13);
	fprintf(f, "\nGroup boundaries (crossing: the median over its hosts of each host's\n"
		   "median crossing link, CI over hosts; vs within: its hosts' crossing links\n"
		   "against their links within, CI with hosts as the unit)\n");
	fprintf(f, "  %-*s %-*s %s\n", wn, "boundary", wc, "crossing [CI]", "vs within [CI]");
	for (size_t k = 0; k < nr; k++)
		fprintf(f, "  %-*s %-*s %s%s\n", wn, c[k].name, wc, c[k].ci, c[k].rel, r->bound[k].flagged ? " SLOW" : "");
	cf = open_memstream(&carried, &clen);
	if (!cf)
		goto out_free;
	for (size_t k = 0; k < nr; k++)
		if (isfinite(r->bound[k].capacity))
			fprintf(cf, "%s %s %s", ftell(cf) > 0 ? ";" : "", c[k].name,
				fmt_val(cap, sizeof(cap), u, r->bound[k].capacity));
	fclose(cf);
	if (carried && carried[0])
		text_wrapped(f, "    ", "Carried one way by the crossing pairs of the rounds with the most of "
					"them (median):%s", carried);
out_free:
	free(carried);
	free(c);
}

void blame_report_claims(FILE *f, const struct blame_result *r)
{
	char lead[OUT_WIDTH];

	if (!r->nclaim)
		fprintf(f, "No host, uplink, boundary or link is slower than %g%% beyond chance (Holm, alpha %g).\n",
			100.0 * r->floor, r->alpha);
	for (int i = 0; i < r->nclaim; i++) {
		const struct blame_claim *c = &r->claim[i];

		snprintf(lead, sizeof(lead), "%s%s:", c->when ? blame_when_name(c->when) : "SLOW",
			 c->unloaded ? " (unloaded map)" : "");
		text_wrapped(f, "    ", "%s %s", lead, c->evidence);
	}
}

void blame_report(FILE *f, const struct blame_result *r, int top)
{
	char head[160];

	snprintf(head, sizeof(head), "%d hosts, %zu links, %d group%s %s", r->nhost, r->nlink, r->ngroup,
		 r->ngroup == 1 ? "" : "s",
		 r->inferred ? "inferred (ports that behave as one group, not known fact)" : "from the topology");
	text_wrapped(f, "    ", "Fabric map: %s", head);
	blame_report_claims(f, r);
	print_hosts(f, r, top);
	print_links(f, r, top);
	print_bounds(f, r, top);
}
